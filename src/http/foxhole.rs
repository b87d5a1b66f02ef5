//! Fox in a hole: `POST /foxhole/strategies` queues a search for the shortest strategy
//! (read at `/foxhole/strategies/{id}`);
//! `POST /foxhole/checks` tests a strategy at once and shows how the fox escapes it.

use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::Call;
use super::extract::Json;
use super::resource::{self, Resource, Submit};
use super::AppState;
use crate::jobs::kinds::foxhole::{holes_schema, Holes};
use crate::jobs::kinds::FoxholeStrategies;
use crate::puzzles::foxhole::{self, CheckOutcome};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/foxhole/strategies", post(strategy))
        .route("/foxhole/strategies/{id}", get(show_strategy))
        .route("/foxhole/checks", post(check))
}

impl Resource for FoxholeStrategies {
    const WHAT: &'static str = "fox-in-a-hole strategy";
}

resource::show_resource!(
    show_strategy,
    FoxholeStrategies,
    FoxholeStrategy,
    "/foxhole/strategies/{id}",
    "foxhole",
    "A strategy search's state and, once done, the shortest strategy."
);

#[utoipa::path(
    post,
    path = "/foxhole/strategies",
    summary = "Queue a search for the shortest strategy that surely catches the fox.",
    description = "Breadth-first search over the sets of holes the fox could be in. Holes are 0-based.",
    request_body(content = Holes, content_type = "application/json", examples(
        ("line" = (value = json!({"holes": 5}))),
        ("graph" = (value = json!({"graph": [[1], [0, 2], [1, 3], [2, 4], [3]]}))),
    )),
)]
pub(crate) async fn strategy(submit: Submit, Json(holes): Json<Holes>) -> Result<Response, ApiError> {
    submit.enqueue::<FoxholeStrategies>(submit.settle(holes)?).await
}

/// Where the fox lives (`holes` or `graph`, as for a strategy search) and the strategy to
/// check.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckRequest {
    holes: Option<usize>,
    graph: Option<Vec<Vec<usize>>>,
    inspections: Vec<usize>,
}

impl utoipa::PartialSchema for CheckRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        let inspections = ArrayBuilder::new()
            .items(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)))
            .description(Some("The hole inspected each morning, 0-based, day 1 first."));
        holes_schema(
            "Where the fox lives (a line of `holes` holes, or a `graph`) and the strategy to check.",
            &[("inspections", inspections.into())],
        )
    }
}

impl utoipa::ToSchema for CheckRequest {}

#[utoipa::path(
    post,
    path = "/foxhole/checks",
    summary = "Check a strategy at once; if it fails, show one way the fox escapes.",
    request_body(content = CheckRequest, content_type = "application/json",
        example = json!({"holes": 5, "inspections": [1, 2, 3, 1, 2, 3]})),
    responses(
        (status = 200, description = "Whether the fox is surely caught, and if not, one escape path.", body = CheckOutcome),
    )
)]
pub(crate) async fn check(
    Call { state, caller }: Call,
    Json(req): Json<CheckRequest>,
) -> Result<axum::Json<CheckOutcome>, ApiError> {
    let graph = Holes { holes: req.holes, graph: req.graph }
        .to_graph()
        .map_err(|(field, msg)| ApiError::invalid(field, msg))?;
    let outcome = foxhole::check_within(&graph, &req.inspections, &caller.limits(&state).foxhole)
        .map_err(|e| ApiError::invalid("inspections", e.to_string()))?;
    Ok(axum::Json(outcome))
}
