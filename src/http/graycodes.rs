//! `POST /graycodes`: list (a page at a time) or count Gray codes, as a job read at
//! `/graycodes/{id}`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, Resource};
use super::AppState;
use crate::jobs::kinds::GrayCodes;
use crate::puzzles::graycode::{self, GrayRequest};

pub fn router() -> Router<AppState> {
    Router::new().route("/graycodes", post(create)).route("/graycodes/{id}", get(resource::show::<GrayCodes>))
}

impl Resource for GrayCodes {
    const WHAT: &'static str = "Gray code search";
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(req): Json<GrayRequest>,
) -> Result<Response, ApiError> {
    graycode::validate(&req).map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
    resource::enqueue::<GrayCodes>(&state, &caller, &headers, &req).await
}
