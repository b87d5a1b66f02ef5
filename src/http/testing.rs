//! `POST /testing/blocking`: queues the test-only job kind that blocks until cancelled.
//! Compiled only with the `test-jobs` feature, so never served by a release binary.

use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, Resource};
use super::AppState;
use crate::jobs::kinds::testing::{Blocking, BlockingParams};
use crate::service::policy::Idempotency;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/testing/blocking", post(create))
        .route("/testing/blocking/{id}", get(resource::show::<Blocking>))
}

impl Resource for Blocking {
    const WHAT: &'static str = "blocking test job";
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    request: Idempotency,
    Json(params): Json<BlockingParams>,
) -> Result<Response, ApiError> {
    resource::enqueue::<Blocking>(&state, &caller, &request, &params).await
}
