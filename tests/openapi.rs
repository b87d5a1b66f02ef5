//! `openapi.yaml` and the routes served agree: every route in the source is documented,
//! and every documented operation is served, answering with a documented status and
//! content type.

mod common;

use std::collections::BTreeSet;

use common::{Server, TestDb};
use serde_json::Value;

fn spec() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
    serde_yaml_ng::from_str(&text).expect("openapi.yaml parses")
}

/// Paths registered with `.route("…", …)` in src/http.
fn routes_in_source() -> BTreeSet<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/http");
    let mut routes = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for piece in text.split(".route(\"").skip(1) {
            routes.insert(piece.split('"').next().unwrap().to_string());
        }
    }
    routes
}

#[test]
fn every_route_is_documented_and_every_documented_path_is_routed() {
    let spec = spec();
    let documented: BTreeSet<String> = spec["paths"].as_object().unwrap().keys().cloned().collect();
    let routed = routes_in_source();
    assert!(!routed.is_empty());
    assert_eq!(routed, documented, "routes in src/http vs paths in openapi.yaml");
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

#[tokio::test(flavor = "multi_thread")]
async fn every_documented_operation_is_served_with_a_documented_answer() {
    let spec = spec();
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "1"]);
    let client = common::client();
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if method == "parameters" {
                continue;
            }
            let path_filled = path
                .replace("{id}", "00000000-0000-0000-0000-000000000000")
                .replace("{serial}", "00000000000")
                .replace("{n}", "1")
                .replace("{file}", "app.css");
            let url = server.url(&path_filled);
            let mut request = client.request(method.to_uppercase().parse().unwrap(), &url);
            if let Some(content) = op.pointer("/requestBody/content/application~1json") {
                let example = content
                    .get("example")
                    .or_else(|| content.pointer("/examples").and_then(|e| e.as_object()?.values().next()?.get("value")))
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                request = request.json(&example);
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16().to_string();
            let content_type = response
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string());
            let body = response.text().await.unwrap();
            let documented = op["responses"]
                .get(&status)
                .map(|r| resolve(&spec, r))
                .unwrap_or_else(|| panic!("{method} {path} answered {status}, not documented: {body}"));
            assert!(!body.contains("no such route"), "{method} {path} is not routed");
            if let (Some(content), Some(ct)) = (documented.get("content"), &content_type) {
                assert!(
                    content.get(ct.as_str()).is_some(),
                    "{method} {path} {status} answered {ct}, documented {content}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} operations checked");
}
