//! `openapi.yaml` is what the code generates, and the router and the document agree: every
//! route in the source is documented, and every documented operation is served (in
//! process, through the real router on a real SQLite store), answering with a documented
//! status and content type.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request};
use common::TestDb;
use puzzlepress::http::edge::admission::CallerCaps;
use puzzlepress::http::edge::bodyrate::BodyRate;
use puzzlepress::http::edge::middleware::AllowedHosts;
use puzzlepress::http::{AppState, HttpLimits, Quotas};
use puzzlepress::jobs::{Queue, QueueLimits, Wake};
use puzzlepress::metrics::Metrics;
use puzzlepress::store::Store;
use serde_json::Value;
use tower::ServiceExt;

const REGENERATE: &str = "regenerate it with `cargo run --release -- openapi > openapi.yaml`";

fn committed() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap()
}

fn spec() -> Value {
    serde_yaml_ng::from_str(puzzlepress::http::openapi::yaml()).expect("the generated description parses")
}

#[test]
fn the_committed_openapi_yaml_is_the_generated_one() {
    let committed = committed();
    let generated = puzzlepress::http::openapi::yaml();
    if committed != generated {
        let line = committed.lines().zip(generated.lines()).position(|(a, b)| a != b);
        let at = match line {
            Some(i) => format!(
                "first difference at line {}:\n  committed: {}\n  generated: {}",
                i + 1,
                committed.lines().nth(i).unwrap_or(""),
                generated.lines().nth(i).unwrap_or("")
            ),
            None => format!(
                "one is a prefix of the other ({} vs {} lines)",
                committed.lines().count(),
                generated.lines().count()
            ),
        };
        panic!("openapi.yaml differs from what the code generates; {REGENERATE}\n{at}");
    }
}

#[test]
fn the_generated_document_has_unique_operation_ids_and_no_test_routes() {
    let spec = spec();
    let mut ids = BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        assert!(!path.starts_with("/testing"), "{path}: test-only routes are never documented");
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has no operationId"));
            assert!(ids.insert(id.to_string()), "operationId {id} is used twice");
        }
    }
}

/// Paths registered in src/http (but the test-only `/testing/*`): with `.route("…", …)`,
/// and a product's files with `files::routes::<Product>()`, one under its `BASE` for each
/// name in its `FILES`.
fn routes_in_source() -> BTreeSet<String> {
    fn walk(dir: &std::path::Path, texts: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, texts);
            } else {
                texts.push(std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let mut texts = Vec::new();
    walk(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/http")), &mut texts);
    let mut routes = BTreeSet::new();
    for text in &texts {
        for piece in text.split(".route(\"").skip(1) {
            routes.insert(piece.split('"').next().unwrap().to_string());
        }
        for piece in text.split("files::routes::<").skip(1) {
            let product = piece.split_once(">()").unwrap().0;
            let declared = text.split(&format!("impl Product for {product} {{")).nth(1).expect(product);
            let base = declared.split("const BASE: &'static str = \"").nth(1).unwrap().split('"').next().unwrap();
            let files = declared.split("const FILES").nth(1).unwrap().split("];").next().unwrap();
            // Each file's name is the first argument of its `File::pdf(` or `File::of(`.
            for file in files.split("File::").skip(1) {
                let name = file.split('"').nth(1).unwrap();
                routes.insert(format!("{base}/{name}"));
            }
        }
    }
    routes.retain(|r| !r.starts_with("/testing/"));
    routes
}

#[test]
fn every_route_is_documented_and_every_documented_path_is_routed() {
    let spec = spec();
    let documented: BTreeSet<String> = spec["paths"].as_object().unwrap().keys().cloned().collect();
    let routed = routes_in_source();
    assert!(!routed.is_empty());
    assert_eq!(routed, documented, "routes in src/http vs paths in the generated description");
}

/// Resolves a `$ref` within the document.
fn resolve<'a>(spec: &'a Value, node: &'a Value) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let mut target = spec;
            for part in reference.trim_start_matches("#/").split('/') {
                target = &target[part];
            }
            target
        }
        None => node,
    }
}

/// The real router on a fresh SQLite store, with no workers (jobs stay queued).
async fn app(db: &TestDb) -> axum::Router {
    let store = Store::connect(&db.url).await.unwrap();
    store.migrate().await.unwrap();
    let limits = QueueLimits { queued: 1000, anonymous: 500, params_bytes: 1 << 20, max_attempts: 3 };
    let queue = Arc::new(Queue::new(store.clone(), Wake::default(), limits));
    let quotas = Quotas { per_key: 100, per_address: 100, storage_per_key: i64::MAX, storage_per_address: i64::MAX };
    let wordlists = Arc::new(puzzlepress::jobs::WordLists::new(store.clone(), 2));
    let state = AppState {
        store,
        queue,
        metrics: Arc::new(Metrics::default()),
        quotas,
        limits: Default::default(),
        key_presence: Default::default(),
        wordlists,
        lookup_url: "http://localhost:8080/".into(),
        lookup_url_configured: true,
        uploads: Default::default(),
        renders: Default::default(),
    };
    let limits = HttpLimits {
        request_timeout: Duration::from_secs(30),
        body_rate: BodyRate { grace: Duration::from_secs(10), bytes_per_sec: 4096 },
        concurrency: 64,
        anonymous_per_minute: 100_000,
        per_caller: CallerCaps { requests_per_key: 64, requests_per_address: 64, uploads_per_caller: 4 },
        hosts: AllowedHosts::new([]),
    };
    puzzlepress::http::router(state, &limits)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_documented_operation_is_served_with_a_documented_answer() {
    let spec = spec();
    let db = TestDb::sqlite();
    let app = app(&db).await;
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let path_filled = path
                .replace("{id}", "00000000-0000-0000-0000-000000000000")
                .replace("{serial}", "NCB5919RTQP")
                .replace("{n}", "1")
                .replace("{file}", "app.css");
            let mut request = Request::builder().method(method.to_uppercase().as_str()).uri(&path_filled);
            let mut body = Body::empty();
            if let Some(content) = op.pointer("/requestBody/content/application~1json") {
                let example = content
                    .get("example")
                    .or_else(|| content.pointer("/examples").and_then(|e| e.as_object()?.values().next()?.get("value")))
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                request = request.header(header::CONTENT_TYPE, "application/json");
                body = Body::from(serde_json::to_vec(&example).unwrap());
            }
            let response = app.clone().oneshot(request.body(body).unwrap()).await.unwrap();
            let status = response.status().as_u16().to_string();
            let content_type = response
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string());
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
            let body = String::from_utf8_lossy(&bytes);
            assert!(!body.contains("no such route"), "{method} {path} is not routed");
            assert_ne!(status, "405", "{method} {path} is routed, but not for {method}");
            let documented = op["responses"]
                .get(&status)
                .map(|r| resolve(&spec, r))
                .unwrap_or_else(|| panic!("{method} {path} answered {status}, not documented: {body}"));
            if let (Some(content), Some(ct)) = (documented.get("content"), &content_type) {
                assert!(
                    content.get(ct.as_str()).is_some(),
                    "{method} {path} {status} answered {ct}, documented {content}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} operations checked");
}
