//! The HTTP API: one module per resource, each exposing `router()`. Handlers only parse,
//! validate, enqueue and serialize; the work happens in `jobs` and `puzzles`.

mod books;
mod crosswords;
pub mod error;
pub mod extract;
mod foxhole;
mod graycodes;
mod health;
mod jobs;
mod middleware;
mod oneup;
mod pages;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;

use crate::jobs::model::{Job, NewJob};
use crate::jobs::{Queue, SubmitError};
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
}

/// Limits applied to every request.
#[derive(Debug, Clone)]
pub struct HttpLimits {
    pub request_timeout: Duration,
    pub concurrency: usize,
}

pub fn router(state: AppState, limits: &HttpLimits) -> Router {
    let metrics = state.metrics.clone();
    Router::new()
        .merge(health::router())
        .merge(jobs::router())
        .merge(books::router())
        .merge(foxhole::router())
        .merge(graycodes::router())
        .merge(crosswords::router())
        .merge(oneup::router())
        .merge(pages::router())
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

/// The optional `Idempotency-Key` header: a retried POST with the same key returns the
/// resource the first one created.
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
    let key = value.to_str().ok().map(str::trim).filter(|k| !k.is_empty() && k.len() <= 255).ok_or_else(|| {
        ApiError::invalid("Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters")
    })?;
    Ok(Some(key.to_string()))
}

/// Queues a job, mapping a full queue to 503. Returns the job and whether it is new
/// (false: an earlier request with the same `Idempotency-Key` made it).
pub async fn submit(state: &AppState, new: NewJob) -> Result<(Job, bool), ApiError> {
    Ok(state.queue.submit(new).await?)
}

impl From<SubmitError> for ApiError {
    fn from(e: SubmitError) -> Self {
        match e {
            SubmitError::Full { queued } => ApiError::Unavailable {
                detail: format!("the job queue is full ({queued} jobs waiting); retry later"),
                retry_after: 5,
            },
            SubmitError::Store(e) => e.into(),
        }
    }
}

/// The answer to a retried request whose `Idempotency-Key` came with another body.
pub fn key_reused() -> ApiError {
    ApiError::invalid("Idempotency-Key", "this Idempotency-Key was already used for a request with a different body")
}

/// 202 Accepted with a `Location` header and a JSON body.
pub fn accepted(location: &str, body: impl Serialize) -> Response {
    let mut response = (StatusCode::ACCEPTED, axum::Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// A PDF shown inline, saved as `filename` if the reader downloads it.
pub fn pdf_response(bytes: Vec<u8>, filename: &str) -> Response {
    let mut response = (StatusCode::OK, axum::body::Body::from(bytes)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
    if let Ok(v) = HeaderValue::from_str(&format!("inline; filename=\"{filename}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

/// Runs a renderer off the async threads.
pub async fn render<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::Internal(format!("rendering failed: {e}")))
}

/// RFC 3339 form of a stored millisecond time.
pub fn timestamp(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
}
