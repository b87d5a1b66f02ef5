//! `POST /graycodes`: list (a page at a time) or count Gray codes, as a job read at
//! `/graycodes/{id}`.

use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, Resource, Submit};
use super::AppState;
use crate::jobs::kinds::GrayCodes;
use crate::puzzles::graycode::GrayRequest;

pub fn router() -> Router<AppState> {
    Router::new().route("/graycodes", post(create)).route("/graycodes/{id}", get(show))
}

impl Resource for GrayCodes {
    const WHAT: &'static str = "Gray code search";
}

resource::show_resource!(
    show,
    GrayCodes,
    GrayCodeSearch,
    "/graycodes/{id}",
    "graycodes",
    "A Gray code search's state and, once done, its page of sequences or its count."
);

#[utoipa::path(
    post,
    path = "/graycodes",
    summary = "Queue a listing (one page) or a count of Gray codes.",
    description = "Sequences of `length` distinct `bits`-bit codes in which neighbours differ in exactly one bit, \
                   optionally `circular` (last and first differ in one bit too; needs an even length) and optionally \
                   starting at code 0. Listings come in lexicographic order, a page of `limit` at a time; pass the \
                   result's `next_cursor` as `cursor` for the next page. Every search is bounded by `node_budget`: a \
                   count that runs out of budget is marked `count_is_lower_bound` with a `reason`.",
    request_body(content = GrayRequest, content_type = "application/json", examples(
        ("count" = (value = json!({"bits": 4, "length": 16, "circular": true, "start_at_zero": true, "count_only": true}))),
        ("list" = (value = json!({"bits": 3, "length": 8, "start_at_zero": true, "limit": 5}))),
    )),
)]
pub(crate) async fn create(submit: Submit, Json(req): Json<GrayRequest>) -> Result<Response, ApiError> {
    submit.enqueue::<GrayCodes>(submit.settle(req)?).await
}
