//! Fox in a hole: `POST /foxhole/strategies` queues a search for the shortest strategy
//! (read at `/foxhole/strategies/{id}`);
//! `POST /foxhole/checks` tests a strategy at once and shows how the fox escapes it.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::resource::{self, Resource};
use super::AppState;
use crate::jobs::kinds::foxhole::Holes;
use crate::jobs::kinds::FoxholeStrategies;
use crate::puzzles::foxhole::{self, CheckOutcome};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/foxhole/strategies", post(strategy))
        .route("/foxhole/strategies/{id}", get(resource::show::<FoxholeStrategies>))
        .route("/foxhole/checks", post(check))
}

impl Resource for FoxholeStrategies {
    const WHAT: &'static str = "fox-in-a-hole strategy";
}

async fn strategy(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Json(holes): Json<Holes>,
) -> Result<Response, ApiError> {
    holes.to_graph().map_err(|(field, msg)| ApiError::invalid(field, msg))?;
    resource::enqueue::<FoxholeStrategies>(&state, &caller, &headers, &holes).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    holes: Option<usize>,
    graph: Option<Vec<Vec<usize>>>,
    inspections: Vec<usize>,
}

async fn check(Json(req): Json<CheckRequest>) -> Result<axum::Json<CheckOutcome>, ApiError> {
    let graph = Holes { holes: req.holes, graph: req.graph }
        .to_graph()
        .map_err(|(field, msg)| ApiError::invalid(field, msg))?;
    let outcome =
        foxhole::check(&graph, &req.inspections).map_err(|e| ApiError::invalid("inspections", e.to_string()))?;
    Ok(axum::Json(outcome))
}
