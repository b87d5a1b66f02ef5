//! One Up: solve a puzzle (`POST /oneup/solves`, text or JSON body) and generate new ones
//! (`POST /oneup/puzzles`). Both are jobs; their results are read at their own URLs.

use axum::extract::{Path, RawQuery, Request, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::{self, media_type, read_body};
use super::resource::{self, finished_result, Resource};
use super::respond::{blocking, idempotency_key, pdf_response};
use super::AppState;
use crate::jobs::kinds::oneup::{GenerateParams, SolveParams};
use crate::jobs::kinds::{OneUpPuzzles, OneUpSolves};
use crate::puzzles::oneup::{ErrorKind, Method, MetropolisOptions, ParseError, Puzzle, MAX_SIZE, MIN_SIZE};
use crate::render;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/oneup/solves", post(create_solve))
        .route("/oneup/solves/{id}", get(resource::show::<OneUpSolves>))
        .route("/oneup/puzzles", post(create_puzzle))
        .route("/oneup/puzzles/{id}", get(resource::show::<OneUpPuzzles>))
        .route("/oneup/puzzles/{id}/puzzle.pdf", get(puzzle_pdf))
        .route("/oneup/puzzles/{id}/solution.pdf", get(solution_pdf))
}

impl Resource for OneUpSolves {
    const WHAT: &'static str = "One Up solve";
}

impl Resource for OneUpPuzzles {
    const WHAT: &'static str = "One Up puzzle";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("puzzle_pdf", format!("{base}/puzzle.pdf")), ("solution_pdf", format!("{base}/solution.pdf"))]
    }
}

/// A generated puzzle and its solution, once its job has succeeded.
async fn generated(state: &AppState, id: &str) -> Result<(Puzzle, Vec<String>), ApiError> {
    let job = resource::find::<OneUpPuzzles>(state, id).await?;
    let result: Value = finished_result(&job)?;
    let corrupt = |what: &str| ApiError::Internal(format!("puzzle {id}: stored {what} does not parse"));
    let puzzle = Puzzle::from_json_value(&result["puzzle"]["json"]).map_err(|_| corrupt("puzzle"))?;
    let solution = serde_json::from_value(result["solution"].clone()).map_err(|_| corrupt("solution"))?;
    Ok((puzzle, solution))
}

async fn puzzle_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (puzzle, _) = generated(&state, &id).await?;
    let bytes = blocking(move || render::oneup::puzzle_pdf(&puzzle, "One Up")).await?;
    Ok(pdf_response(bytes, "oneup-puzzle.pdf"))
}

async fn solution_pdf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (puzzle, solution) = generated(&state, &id).await?;
    let bytes = blocking(move || render::oneup::solution_pdf(&puzzle, &solution, "One Up")).await?;
    Ok(pdf_response(bytes, "oneup-solution.pdf"))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SolveQuery {
    method: Option<String>,
    seed: Option<u64>,
    max_steps: Option<u64>,
    temperature: Option<f64>,
}

fn parse_query(raw: Option<&str>) -> Result<SolveParams, ApiError> {
    let q: SolveQuery = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| ApiError::invalid("query", format!("query string: {e}")))?;
    let method = match q.method.as_deref().unwrap_or("exact") {
        "exact" => Method::Exact,
        "metropolis" => Method::Metropolis,
        other => return Err(ApiError::invalid("method", format!("method must be exact or metropolis, not {other:?}"))),
    };
    if method == Method::Exact && (q.seed.is_some() || q.max_steps.is_some() || q.temperature.is_some()) {
        return Err(ApiError::invalid("method", "seed, max_steps and temperature apply to method=metropolis only"));
    }
    if q.max_steps.is_some_and(|s| !(1..=1_000_000_000).contains(&s)) {
        return Err(ApiError::invalid("max_steps", "max_steps must be between 1 and 1000000000"));
    }
    if q.temperature.is_some_and(|t| !t.is_finite() || t < 0.0) {
        return Err(ApiError::invalid("temperature", "temperature must be a number >= 0"));
    }
    let metropolis =
        MetropolisOptions { seed: q.seed.unwrap_or(0), max_steps: q.max_steps, temperature: q.temperature };
    Ok(SolveParams { puzzle: Value::Null, method, metropolis })
}

/// A puzzle that does not parse: malformed JSON is 400, anything else 422 naming the line
/// (text) or the field (JSON).
fn parse_error(e: ParseError) -> ApiError {
    match (e.kind, e.line, &e.field) {
        (ErrorKind::Json, _, _) => ApiError::bad_request("Malformed JSON", e.to_string()),
        (_, Some(line), _) => ApiError::InvalidLine { line, detail: e.to_string() },
        (_, None, Some(field)) => ApiError::invalid(field.clone(), e.to_string()),
        (_, None, None) => ApiError::invalid("body", e.to_string()),
    }
}

async fn create_solve(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
    req: Request,
) -> Result<Response, ApiError> {
    let mut params = parse_query(query.as_deref())?;
    let headers = req.headers().clone();
    let kind = media_type(&req);
    let body = read_body(req, &state).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("Unreadable body", "the body is not UTF-8 text"))?;
    let puzzle = match kind.as_str() {
        "text/plain" => Puzzle::from_text(text),
        "application/json" => Puzzle::from_json(text),
        _ => {
            return Err(ApiError::UnsupportedMediaType {
                detail: "send the puzzle as text/plain (the text format) or application/json".into(),
            })
        }
    }
    .map_err(parse_error)?;
    params.puzzle = puzzle.to_json();
    resource::enqueue::<OneUpSolves>(&state, &caller, &headers, &params).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleRequest {
    #[serde(default = "default_size")]
    size: usize,
    seed: Option<u64>,
}

fn default_size() -> usize {
    8
}

impl Default for PuzzleRequest {
    fn default() -> Self {
        PuzzleRequest { size: default_size(), seed: None }
    }
}

async fn create_puzzle(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    extract::OptionalJson(req): extract::OptionalJson<PuzzleRequest>,
) -> Result<Response, ApiError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&req.size) {
        return Err(ApiError::invalid(
            "size",
            format!("size must be between {MIN_SIZE} and {MAX_SIZE}, got {}", req.size),
        ));
    }
    // Seeds stay below 2^53 so that JavaScript clients read them exactly. A retried
    // request (same Idempotency-Key) must draw the same seed to match the first one.
    let key = idempotency_key(&headers)?;
    let seed = req.seed.unwrap_or_else(|| match &key {
        Some(key) => {
            use sha2::Digest;
            let digest = sha2::Sha256::digest(key.as_bytes());
            u64::from_le_bytes(digest[..8].try_into().unwrap_or_default()) >> 11
        }
        None => rand::random::<u64>() >> 11,
    });
    let params = GenerateParams { size: req.size, seed };
    resource::enqueue::<OneUpPuzzles>(&state, &caller, &headers, &params).await
}
