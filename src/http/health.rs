//! Liveness, readiness, metrics and the API description.

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::error::ApiError;
use super::AppState;

pub const OPENAPI: &str = include_str!("../../openapi.yaml");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { Json(json!({"status": "ok"})) }))
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics))
        .route("/openapi.yaml", get(|| async { ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI) }))
}

async fn ready(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(|e| ApiError::Unavailable { detail: format!("the database is not reachable: {e}"), retry_after: 5 })?;
    Ok(Json(json!({"status": "ready"})))
}

async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let counts = state.store.job_counts().await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(counts.iter().map(|c| (c.kind.as_str(), c.state.as_str(), c.count))),
    ))
}
