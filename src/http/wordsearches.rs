//! Word searches: `POST /wordsearches` queues one puzzle (its words each exactly once,
//! nothing blocked), `GET /wordsearches/{id}` follows it, `GET /wordsearches` lists the
//! caller's.

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Serialize;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::jobs::JobSummaryView;
use super::listing::Next;
use super::resource::{self, Resource};
use super::respond::blocking;
use super::AppState;
use crate::jobs::kinds::wordsearch::WordSearchRequest;
use crate::jobs::kinds::WordSearches;
use crate::puzzles::monitor::Unmonitored;
use crate::puzzles::wordsearch;

pub fn router() -> Router<AppState> {
    Router::new().route("/wordsearches", post(create).get(list)).route("/wordsearches/{id}", get(show))
}

impl Resource for WordSearches {
    const WHAT: &'static str = "word search";
}

resource::show_resource!(
    show,
    WordSearches,
    WordSearch,
    "/wordsearches/{id}",
    "wordsearches",
    "A word search's state and, once made, its grid and where each word is."
);

#[utoipa::path(
    post,
    path = "/wordsearches",
    tag = "wordsearches",
    summary = "Queue a word search: every word of the list exactly once, nothing blocked.",
    description = "Words are placed by `level` (easy: across and down; medium: and the diagonals read left to \
                   right; hard: all eight directions; expert: all eight, crossing often); a solver may read any \
                   of the eight, and each word occurs exactly once along all of them. No word of the block list \
                   (unless `allow_offensive`) or of `avoid` occurs outside a list word's own cells. The other \
                   cells are drawn from the uniform law over the fillings that keep these rules (A-Z, or the \
                   list's letters with `filler: word-letters`), or spell `message` in reading order. Checked \
                   when queued: a word part of another (422 naming both, unless `allow_contained`), words that \
                   do not fit (422 naming them, found within a bounded search), a message of the wrong length or \
                   spelling a forbidden word. The result: `rows` (a space where the shape has no cell) and each \
                   word's cells and direction.",
    params(super::openapi::IdempotencyKey),
    request_body(content = WordSearchRequest, content_type = "application/json", example = json!({
        "words": ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl"],
        "rows": 12, "cols": 12, "level": "hard", "seed": 7})),
    responses(
        (status = 202, description = "Queued; follow it at `Location`.", body = WordSearch,
            headers(("Location" = String, description = "`/wordsearches/{id}`"))),
        (status = 400, response = super::openapi::BadRequest),
        (status = 413, response = super::openapi::TooLarge),
        (status = 415, response = super::openapi::UnsupportedMediaType),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(mut req): Json<WordSearchRequest>,
) -> Result<Response, ApiError> {
    // Drawn here and stored, so the job (and a retry) makes the same puzzle.
    let seed = *req.seed.get_or_insert_with(|| rand::random::<u64>() >> 11);
    state.queue.admit(&caller.submitter(&state.quotas)).await?;
    // What cannot be made is refused now (the placement search is bounded: about a second
    // at most); the job then makes the same puzzle again from the same seed.
    let spec = req.spec();
    blocking(move || wordsearch::generate(&spec, seed, &mut Unmonitored)).await?.map_err(|e| match e {
        wordsearch::Error::Invalid { field, detail } => {
            let detail = format!("{field}: {detail}");
            ApiError::invalid(field, detail)
        }
        wordsearch::Error::NoRoom { words } => ApiError::invalid(
            "words",
            format!("these words did not fit in the grid: {}; try a larger grid or fewer words", words.join(", ")),
        ),
        wordsearch::Error::Cancelled => ApiError::Internal("an unmonitored word search was cancelled".into()),
    })?;
    resource::enqueue::<WordSearches>(&state, &caller, &headers, &req).await
}

/// A page of the caller's word searches.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct WordSearchList {
    /// Newest first.
    wordsearches: Vec<JobSummaryView>,
    #[serde(flatten)]
    next: Next,
}

#[utoipa::path(
    get,
    path = "/wordsearches",
    tag = "wordsearches",
    summary = "The word searches you asked for, newest first, a page at a time.",
    params(super::listing::ListQuery),
    responses(
        (status = 200, description = "A page of word searches.", body = WordSearchList),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<WordSearchList>, ApiError> {
    let (wordsearches, next) =
        resource::list::<WordSearches>(&state, &caller, query.as_deref(), "wordsearches").await?;
    Ok(axum::Json(WordSearchList { wordsearches, next }))
}
