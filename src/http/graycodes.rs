//! `POST /graycodes`: list (a page at a time) or count Gray codes, as a job.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::post;
use axum::Router;

use super::error::ApiError;
use super::extract::Json;
use super::jobs::queue;
use super::AppState;
use crate::jobs::kinds::GRAYCODES;
use crate::puzzles::graycode::{self, GrayRequest};

pub fn router() -> Router<AppState> {
    Router::new().route("/graycodes", post(create))
}

async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<GrayRequest>,
) -> Result<Response, ApiError> {
    graycode::validate(&req).map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
    queue(&state, &headers, GRAYCODES, &req).await
}
