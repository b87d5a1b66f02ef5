//! Crosswords and word squares: `POST /crosswords/patterns`, `POST /crosswords/fills`,
//! `POST /wordsquares`. Each is a job-backed resource read at its route + `/{id}`, whose
//! `result` holds the output.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, finished_result, Resource};
use super::respond::{blocking, pdf_response};
use super::AppState;
use crate::jobs::kinds::{CrosswordFills, CrosswordPatterns, WordSquares};
use crate::puzzles::crossword::{self, CrosswordError, Fill, FillRequest, PatternRequest, WordSquareRequest};
use crate::puzzles::monitor::Monitor;
use crate::render;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/crosswords/patterns", post(patterns))
        .route("/crosswords/patterns/{id}", get(resource::show::<CrosswordPatterns>))
        .route("/crosswords/fills", post(fills))
        .route("/crosswords/fills/{id}", get(resource::show::<CrosswordFills>))
        .route("/crosswords/fills/{id}/grid.pdf", get(grid_pdf))
        .route("/crosswords/fills/{id}/solution.pdf", get(solution_pdf))
        .route("/wordsquares", post(word_squares))
        .route("/wordsquares/{id}", get(resource::show::<WordSquares>))
}

impl Resource for CrosswordPatterns {
    const WHAT: &'static str = "crossword pattern search";
}

impl Resource for CrosswordFills {
    const WHAT: &'static str = "crossword fill";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("grid_pdf", format!("{base}/grid.pdf")), ("solution_pdf", format!("{base}/solution.pdf"))]
    }
}

impl Resource for WordSquares {
    const WHAT: &'static str = "word square search";
}

/// The printable empty grid of a fill job's pattern (available as soon as it is queued).
async fn grid_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let job = resource::find::<CrosswordFills>(&state, &id).await?;
    let req: FillRequest =
        serde_json::from_str(&job.params).map_err(|e| ApiError::Internal(format!("fill {id}: stored request: {e}")))?;
    let grid = req.pattern.to_grid().map_err(|e| ApiError::Internal(format!("fill {id}: stored pattern: {e}")))?;
    let bytes = blocking(move || render::crossword::grid_pdf(&grid, "Crossword")).await?;
    Ok(pdf_response(bytes, "crossword.pdf"))
}

/// The filled grid with its entries; 409 until the fill is found (or if none exists).
async fn solution_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let job = resource::find::<CrosswordFills>(&state, &id).await?;
    let result: serde_json::Value = finished_result(&job)?;
    let fill: Fill = serde_json::from_value(result.clone()).map_err(|_| ApiError::Conflict {
        detail: format!(
            "fill {id} found no filling: {}",
            result.get("reason").and_then(|r| r.as_str()).unwrap_or("no reason recorded")
        ),
        retry_after: None,
    })?;
    let bytes = blocking(move || render::crossword::solution_pdf(&fill, "Crossword")).await?;
    Ok(pdf_response(bytes, "crossword-solution.pdf"))
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

/// Checks a request on a blocking thread (see [`validate`]), then queues it.
async fn enqueue<K: Resource>(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    req: K::Params,
    run: fn(&K::Params, &mut dyn Monitor) -> Result<(), CrosswordError>,
) -> Result<Response, ApiError>
where
    K::Params: Clone + Sync,
{
    let checked = req.clone();
    blocking(move || validate(|p| run(&checked, p))).await??;
    resource::enqueue::<K>(state, caller, headers, &req).await
}

async fn patterns(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(req): Json<PatternRequest>,
) -> Result<Response, ApiError> {
    enqueue::<CrosswordPatterns>(&state, &caller, &headers, req, |r, p| crossword::generate_patterns(r, p).map(drop))
        .await
}

async fn fills(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(req): Json<FillRequest>,
) -> Result<Response, ApiError> {
    enqueue::<CrosswordFills>(&state, &caller, &headers, req, |r, p| crossword::fill(r, p).map(drop)).await
}

async fn word_squares(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(req): Json<WordSquareRequest>,
) -> Result<Response, ApiError> {
    enqueue::<WordSquares>(&state, &caller, &headers, req, |r, p| crossword::word_squares(r, p).map(drop)).await
}
