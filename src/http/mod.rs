//! The HTTP API: one module per resource (books, printruns, oneup, …), each exposing
//! `router()`, beside the generic pieces they share (`files`: every product's files;
//! `resource` and `listing`: job-backed resources and their listings) and `edge`, what
//! stands before every route. Handlers only authenticate, parse, validate, enqueue and
//! serialize; the work happens in `service`, `jobs` and `puzzles`.

mod books;
mod crosswords;
mod dictionaries;
pub mod edge;
pub mod error;
pub mod extract;
mod files;
mod foxhole;
mod graycodes;
mod health;
pub use health::metrics_only;
mod jobs;
mod listing;
mod oneup;
pub mod openapi;
mod pages;
mod printruns;
mod resource;
mod respond;
mod wordlists;
mod wordsearches;

#[cfg(feature = "test-jobs")]
mod testing;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::{Extension, Router};
use tower::ServiceBuilder;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;

use crate::jobs::{Queue, TierLimits};
use crate::metrics::Metrics;
use crate::store::Store;
use edge::{admission, bodyrate, caller, middleware, renders};
use error::ApiError;

/// Largest request body accepted (word list uploads have their own).
pub const BODY_LIMIT: usize = 1 << 20;

/// Time a word list upload may take at least.
const UPLOAD_TIMEOUT: Duration = Duration::from_secs(300);

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub queue: Arc<Queue>,
    pub metrics: Arc<Metrics>,
    pub quotas: Quotas,
    /// The engines' limits of each tier of caller.
    pub limits: TierLimits,
    pub key_presence: Arc<caller::KeyPresence>,
    /// Uploaded word lists, parsed once per process.
    pub wordlists: Arc<crate::jobs::WordLists>,
    /// The lookup address books get when their order names none (`--lookup-url`).
    pub lookup_url: Arc<str>,
    /// Whether the operator set `--lookup-url`; else print runs must name their own.
    pub lookup_url_configured: bool,
    /// Word list uploads being read, counted against their owners' quotas.
    pub uploads: Arc<crate::service::wordlists::Uploads>,
    /// PDF renders for downloads: bounded, and book PDFs kept once rendered.
    pub renders: Arc<renders::Renders>,
}

/// Jobs a caller may have queued or running at once.
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    pub per_key: i64,
    pub per_address: i64,
    /// Bytes of kept products per key, and per client address without one.
    pub storage_per_key: i64,
    pub storage_per_address: i64,
}

/// Limits applied to every request.
#[derive(Debug, Clone)]
pub struct HttpLimits {
    /// A request must be answered within this (else 408).
    pub request_timeout: Duration,
    /// How fast request bodies must arrive (else 408).
    pub body_rate: bodyrate::BodyRate,
    /// Requests handled at once; more wait their turn.
    pub concurrency: usize,
    /// Requests without a valid key, per client network and minute (answer look-ups
    /// included).
    pub anonymous_per_minute: u32,
    /// Requests and uploads in progress per caller.
    pub per_caller: admission::CallerCaps,
    /// The hosts requests may name.
    pub hosts: middleware::AllowedHosts,
}

pub fn router(state: AppState, limits: &HttpLimits) -> Router {
    let metrics = state.metrics.clone();
    let api = Router::new()
        .merge(health::router())
        .merge(jobs::router())
        .merge(books::router())
        .merge(printruns::router())
        .merge(foxhole::router())
        .merge(graycodes::router())
        .merge(crosswords::router())
        .merge(oneup::router())
        .merge(wordsearches::router())
        .merge(pages::router());
    #[cfg(feature = "test-jobs")]
    let api = api.merge(testing::router());
    // One admission (rate limit, per-caller slots) and one concurrency limit for every
    // guarded route; /readyz reports when the request slots are all taken.
    let gate = Arc::new(admission::Admission::new(state.store.clone(), limits.anonymous_per_minute, limits.per_caller));
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.concurrency));
    let concurrency = tower::limit::GlobalConcurrencyLimitLayer::with_semaphore(slots.clone());
    let guard = |routes: Router<AppState>, body_limit: usize, timeout: Duration| {
        routes.layer(
            ServiceBuilder::new()
                .layer(axum::middleware::from_fn_with_state(gate.clone(), admission::admit))
                .layer(axum::middleware::from_fn(middleware::same_site_only))
                .layer(axum::middleware::from_fn_with_state(limits.body_rate, bodyrate::min_body_rate))
                // A declared length above the limit is refused before the body is read.
                .layer(RequestBodyLimitLayer::new(body_limit))
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
                .layer(concurrency.clone()),
        )
    };
    let api = guard(api.layer(DefaultBodyLimit::max(BODY_LIMIT)), BODY_LIMIT, limits.request_timeout);
    // Word lists stream up to 64 MiB: their own body limit, time to send it, and a cap on
    // each caller's uploads at once.
    let uploads =
        wordlists::router().layer(axum::middleware::from_fn_with_state(gate.clone(), admission::admit_upload));
    let uploads = guard(uploads, crate::service::wordlists::MAX_BYTES, limits.request_timeout.max(UPLOAD_TIMEOUT));
    // Dictionaries' entries come in bodies up to 4 MiB.
    let dictionaries = guard(dictionaries::router(), dictionaries::MAX_BYTES, limits.request_timeout);
    // The probes stay outside the limits above: they answer while slow or abusive clients
    // hold every request slot.
    Router::new()
        .merge(health::probes().layer(Extension(health::RequestSlots(slots))))
        .merge(api)
        .merge(uploads)
        .merge(dictionaries)
        .fallback(|| async { no_route() })
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::from_fn(middleware::sane_request_id))
                .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
                .layer(PropagateRequestIdLayer::x_request_id())
                .layer(middleware::trace_layer())
                .layer(axum::middleware::from_fn_with_state(metrics, middleware::count_requests))
                .layer(axum::middleware::from_fn(middleware::security_headers))
                .layer(axum::middleware::from_fn(middleware::problem_bodies))
                .layer(axum::middleware::from_fn(middleware::head_limits))
                .layer(axum::middleware::from_fn_with_state(Arc::new(limits.hosts.clone()), middleware::allowed_hosts)),
        )
}

/// A path the API does not have.
fn no_route() -> ApiError {
    ApiError::not_found("no such route; see /openapi.yaml for the API")
}

#[cfg(test)]
mod tests {
    /// Handlers stay thin (authenticate, parse, validate, enqueue, serialize): the work
    /// belongs in src/service or the engines. A handler is an `async fn` taking an axum
    /// extractor.
    #[test]
    fn no_handler_is_longer_than_40_lines() {
        let files = crate::source_files("src/http");
        let extractors =
            ["State(", "caller: Caller", "Call {", "submit: Submit", "Submit {", "Json(", "Path(", "RawQuery("];
        let mut long = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (start, line) in lines.iter().enumerate() {
                if !(line.starts_with("async fn")
                    || line.starts_with("pub async fn")
                    || line.starts_with("pub(crate) async fn"))
                {
                    continue;
                }
                let length = lines[start..].iter().position(|l| *l == "}").map_or(lines.len() - start, |n| n + 1);
                let signature = lines[start..start + length].join("\n");
                let signature = signature.split(") -> ").next().unwrap_or_default();
                if length > 40 && extractors.iter().any(|e| signature.contains(e)) {
                    long.push(format!("{}:{} ({length} lines)", file.display(), start + 1));
                }
            }
        }
        assert!(long.is_empty(), "handlers over 40 lines: {long:?}");
    }
}
