//! Crosswords and word squares: `POST /crosswords/patterns`, `POST /crosswords/fills`,
//! `POST /wordsquares`. Each is a job whose `result` holds the output.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::error::ApiError;
use super::extract::Json;
use super::jobs::queue;
use super::AppState;
use crate::jobs::kinds::crossword::{FILL, PATTERNS, WORD_SQUARES};
use crate::puzzles::crossword::{self, CrosswordError, FillRequest, PatternRequest, WordSquareRequest};
use crate::puzzles::progress::Progress;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/crosswords/patterns", post(patterns))
        .route("/crosswords/fills", post(fills))
        .route("/wordsquares", post(word_squares))
}

/// Stops an engine at its first progress report.
struct StopAtOnce;

impl Progress for StopAtOnce {
    fn update(&mut self, _: u64, _: u64) -> bool {
        false
    }
}

/// Validates a request the way its job will: the crossword engines check every input
/// before their first progress report, so a run stopped there reports exactly the
/// errors the job would, at the cost of at most one report interval (milliseconds).
fn validate<T>(run: impl FnOnce(&mut dyn Progress) -> Result<T, CrosswordError>) -> Result<(), ApiError> {
    match run(&mut StopAtOnce) {
        Ok(_) | Err(CrosswordError::Cancelled) => Ok(()),
        Err(CrosswordError::InvalidField { field, message }) => Err(ApiError::invalid(field, format!("{field}: {message}"))),
        Err(e @ (CrosswordError::BadHex(_) | CrosswordError::BadRows(_))) => Err(ApiError::invalid("pattern", e.to_string())),
        Err(CrosswordError::BadWord { index, message }) => {
            Err(ApiError::invalid(format!("words[{index}]"), format!("words[{index}]: {message}")))
        }
        Err(e @ CrosswordError::Impossible(_)) => Err(ApiError::invalid("request", e.to_string())),
        // Searching, not input: the job will report it.
        Err(CrosswordError::NoSolution(_) | CrosswordError::BudgetExhausted(_)) => Ok(()),
    }
}

async fn enqueue<R: Serialize + DeserializeOwned + Clone + Send + 'static>(
    state: &AppState,
    headers: &HeaderMap,
    kind: &str,
    req: R,
    run: fn(&R, &mut dyn Progress) -> Result<(), CrosswordError>,
) -> Result<Response, ApiError> {
    let checked = req.clone();
    tokio::task::spawn_blocking(move || validate(|p| run(&checked, p)))
        .await
        .map_err(|e| ApiError::Internal(format!("validation task: {e}")))??;
    queue(state, headers, kind, &req).await
}

async fn patterns(State(state): State<AppState>, headers: HeaderMap, Json(req): Json<PatternRequest>) -> Result<Response, ApiError> {
    enqueue(&state, &headers, PATTERNS, req, |r, p| crossword::generate_patterns(r, p).map(drop)).await
}

async fn fills(State(state): State<AppState>, headers: HeaderMap, Json(req): Json<FillRequest>) -> Result<Response, ApiError> {
    enqueue(&state, &headers, FILL, req, |r, p| crossword::fill(r, p).map(drop)).await
}

async fn word_squares(State(state): State<AppState>, headers: HeaderMap, Json(req): Json<WordSquareRequest>) -> Result<Response, ApiError> {
    enqueue(&state, &headers, WORD_SQUARES, req, |r, p| crossword::word_squares(r, p).map(drop)).await
}
