//! Liveness, readiness, metrics and the API description.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde::Serialize;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::AppState;

/// Liveness and readiness, served outside the request limits.
pub fn probes() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz))
}

/// The request slots the guarded routes share (`HttpLimits::concurrency`).
#[derive(Clone)]
pub struct RequestSlots(pub Arc<tokio::sync::Semaphore>);

pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(metrics)).route("/openapi.yaml", get(openapi_yaml))
}

/// `{"status": …}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Status {
    #[schema(example = "ok")]
    status: &'static str,
}

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "service",
    summary = "The process is alive.",
    responses((status = 200, description = "Alive.", body = Status))
)]
pub(crate) async fn healthz() -> Json<Status> {
    Json(Status { status: "ok" })
}

#[utoipa::path(
    get,
    path = "/readyz",
    tag = "service",
    summary = "The database is reachable and requests can be served.",
    description = "503 while the database is unreachable, while every request slot \
                   (`--max-concurrent-requests`) is taken and new requests would wait, or while every \
                   connection (`--max-connections`) has a request in flight and new clients would wait.",
    responses(
        (status = 200, description = "Ready.", body = Status),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn readyz(
    State(state): State<AppState>,
    Extension(RequestSlots(slots)): Extension<RequestSlots>,
    connections: Option<Extension<super::edge::listen::Connections>>,
) -> Result<Json<Status>, ApiError> {
    if slots.available_permits() == 0 {
        return Err(ApiError::Unavailable { detail: "every request slot is taken".into(), retry_after: 1 });
    }
    if let Some(Extension(connections)) = connections.filter(|c| c.full()) {
        return Err(ApiError::Unavailable {
            detail: format!("every connection (--max-connections {}) has a request in flight", connections.max()),
            retry_after: 1,
        });
    }
    state
        .store
        .ping()
        .await
        // The raw error (host names, driver text) goes to the log, not to whoever asks.
        .map_err(|e| {
            tracing::warn!(error = %e, "readiness check: database unreachable");
            ApiError::Unavailable { detail: "database unreachable".into(), retry_after: 5 }
        })?;
    Ok(Json(Status { status: "ready" }))
}

#[utoipa::path(
    get,
    path = "/metrics",
    tag = "service",
    summary = "Prometheus metrics (jobs by kind and state, job durations, PDFs rendered, HTTP requests).",
    responses(
        (status = 200, description = "Prometheus text exposition format (0.0.4).", body = String, content_type = "text/plain"),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn metrics(State(state): State<AppState>, caller: Caller) -> Result<impl IntoResponse, ApiError> {
    caller.require_admin("/metrics")?;
    exposition(State(state)).await
}

/// `/metrics` alone, without a key: for `--metrics-bind`, an address only the scraper
/// reaches.
pub fn metrics_only(state: AppState) -> Router {
    Router::new().route("/metrics", get(exposition)).with_state(state)
}

async fn exposition(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let counts = state.store.job_counts().await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state
            .metrics
            .render(counts.iter().map(|c| (c.kind.as_str(), c.state.as_str(), c.count)), state.renders.rendered()),
    ))
}

#[utoipa::path(
    get,
    path = "/openapi.yaml",
    tag = "service",
    summary = "This document, generated from the code.",
    responses((status = 200, description = "The OpenAPI description (YAML).", content_type = "application/yaml"))
)]
pub(crate) async fn openapi_yaml() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], super::openapi::yaml())
}
