//! The HTTP API: one module per resource, each exposing `router()`. Handlers only parse,
//! validate, enqueue and serialize; the work happens in `jobs` and `puzzles`.

mod books;
pub mod caller;
mod crosswords;
pub mod error;
pub mod extract;
mod foxhole;
mod graycodes;
mod health;
mod jobs;
mod middleware;
mod oneup;
pub mod openapi;
mod pages;
mod resource;
mod respond;

pub use respond::timestamp;
#[cfg(feature = "test-jobs")]
mod testing;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::Router;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;

use crate::jobs::Queue;
use crate::metrics::Metrics;
use crate::store::Store;
use error::ApiError;

/// Largest request body accepted.
pub const BODY_LIMIT: usize = 1 << 20;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub queue: Arc<Queue>,
    pub metrics: Arc<Metrics>,
    pub quotas: Quotas,
    pub key_presence: Arc<caller::KeyPresence>,
}

/// Jobs a caller may have queued or running at once.
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    pub per_key: i64,
    pub per_address: i64,
}

/// Limits applied to every request.
#[derive(Debug, Clone)]
pub struct HttpLimits {
    pub request_timeout: Duration,
    pub concurrency: usize,
}

pub fn router(state: AppState, limits: &HttpLimits) -> Router {
    let metrics = state.metrics.clone();
    let router = Router::new()
        .merge(health::router())
        .merge(jobs::router())
        .merge(books::router())
        .merge(foxhole::router())
        .merge(graycodes::router())
        .merge(crosswords::router())
        .merge(oneup::router())
        .merge(pages::router());
    #[cfg(feature = "test-jobs")]
    let router = router.merge(testing::router());
    router
        .fallback(|| async { ApiError::not_found("no such route; see /openapi.yaml for the API") })
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
                .layer(PropagateRequestIdLayer::x_request_id())
                .layer(middleware::trace_layer())
                .layer(axum::middleware::from_fn_with_state(metrics, middleware::count_requests))
                .layer(axum::middleware::from_fn(middleware::problem_bodies))
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, limits.request_timeout))
                .layer(tower::limit::GlobalConcurrencyLimitLayer::new(limits.concurrency))
                .layer(DefaultBodyLimit::max(BODY_LIMIT)),
        )
}
