//! Crosswords and word squares: `POST /crosswords/patterns`, `POST /crosswords/fills`,
//! `POST /wordsquares`. Each is a job whose `result` holds the output.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::error::ApiError;
use super::extract::Json;
use super::jobs::{find_kind, finished_result, queue};
use super::AppState;
use crate::jobs::kinds::crossword::{FILL, PATTERNS, WORD_SQUARES};
use crate::puzzles::crossword::{self, CrosswordError, Fill, FillRequest, PatternRequest, WordSquareRequest};
use crate::puzzles::monitor::Monitor;
use crate::render;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/crosswords/patterns", post(patterns))
        .route("/crosswords/fills", post(fills))
        .route("/crosswords/fills/{id}/grid.pdf", get(grid_pdf))
        .route("/crosswords/fills/{id}/solution.pdf", get(solution_pdf))
        .route("/wordsquares", post(word_squares))
}

/// The printable empty grid of a fill job's pattern (available as soon as it is queued).
async fn grid_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let job = find_kind(&state, &id, FILL, "crossword fill").await?;
    let req: FillRequest = serde_json::from_value(job.params)
        .map_err(|e| ApiError::Internal(format!("fill {id}: stored request: {e}")))?;
    let grid = req.pattern.to_grid().map_err(|e| ApiError::Internal(format!("fill {id}: stored pattern: {e}")))?;
    let bytes = super::render(move || render::crossword::grid_pdf(&grid, "Crossword")).await?;
    Ok(super::pdf_response(bytes, "crossword.pdf"))
}

/// The filled grid with its entries; 409 until the fill is found (or if none exists).
async fn solution_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let job = find_kind(&state, &id, FILL, "crossword fill").await?;
    let result = finished_result(&job)?;
    let fill: Fill = serde_json::from_value(result.clone()).map_err(|_| ApiError::Conflict {
        detail: format!(
            "fill {id} found no filling: {}",
            result.get("reason").and_then(|r| r.as_str()).unwrap_or("no reason recorded")
        ),
        retry_after: None,
    })?;
    let bytes = super::render(move || render::crossword::solution_pdf(&fill, "Crossword")).await?;
    Ok(super::pdf_response(bytes, "crossword-solution.pdf"))
}

/// Stops an engine at its first progress report.
struct StopAtOnce;

impl Monitor for StopAtOnce {
    fn update(&mut self, _: u64, _: u64) -> bool {
        false
    }
}

/// Validates a request the way its job will: the crossword engines check every input
/// before their first progress report, so a run stopped there reports exactly the
/// errors the job would, at the cost of at most one report interval (milliseconds).
fn validate<T>(run: impl FnOnce(&mut dyn Monitor) -> Result<T, CrosswordError>) -> Result<(), ApiError> {
    match run(&mut StopAtOnce) {
        Ok(_) | Err(CrosswordError::Cancelled) => Ok(()),
        Err(CrosswordError::InvalidField { field, message }) => {
            Err(ApiError::invalid(field, format!("{field}: {message}")))
        }
        Err(e @ (CrosswordError::BadHex(_) | CrosswordError::BadRows(_))) => {
            Err(ApiError::invalid("pattern", e.to_string()))
        }
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
    run: fn(&R, &mut dyn Monitor) -> Result<(), CrosswordError>,
) -> Result<Response, ApiError> {
    let checked = req.clone();
    tokio::task::spawn_blocking(move || validate(|p| run(&checked, p)))
        .await
        .map_err(|e| ApiError::Internal(format!("validation task: {e}")))??;
    queue(state, headers, kind, &req).await
}

async fn patterns(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<PatternRequest>,
) -> Result<Response, ApiError> {
    enqueue(&state, &headers, PATTERNS, req, |r, p| crossword::generate_patterns(r, p).map(drop)).await
}

async fn fills(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<FillRequest>,
) -> Result<Response, ApiError> {
    enqueue(&state, &headers, FILL, req, |r, p| crossword::fill(r, p).map(drop)).await
}

async fn word_squares(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(req): Json<WordSquareRequest>,
) -> Result<Response, ApiError> {
    enqueue(&state, &headers, WORD_SQUARES, req, |r, p| crossword::word_squares(r, p).map(drop)).await
}
