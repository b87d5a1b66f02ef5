//! `POST /testing/blocking`: queues the test-only job kind that blocks until cancelled.
//! Compiled only with the `test-jobs` feature, so never served by a release binary.

use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, Resource, Submit};
use super::AppState;
use crate::jobs::kinds::testing::{Blocking, BlockingParams};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/testing/blocking", post(create))
        .route("/testing/blocking/{id}", get(resource::show::<Blocking>))
}

impl Resource for Blocking {
    const WHAT: &'static str = "blocking test job";
}

async fn create(submit: Submit, Json(params): Json<BlockingParams>) -> Result<Response, ApiError> {
    submit.enqueue::<Blocking>(submit.settle(params)?).await
}
