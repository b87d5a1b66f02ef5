//! Fox-in-a-hole jobs: the shortest inspection strategy for a line of holes or a graph.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::foxhole::{self, Graph, GraphError, StrategyOutcome, MAX_HOLES};
use crate::puzzles::monitor::Monitor;

pub struct FoxholeStrategies;

/// Where the fox lives: `{"holes": n}` (a line) or `{"graph": [[…], …]}` (adjacency lists).
/// Also the params stored with a strategy job.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Holes {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holes: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<Vec<Vec<usize>>>,
}

/// The schema of a request naming where the fox lives, `holes` or `graph` (never both),
/// with `extra` members required besides: one of two closed objects.
pub fn holes_schema(
    description: &str,
    extra: &[(&str, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)],
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
    let max = MAX_HOLES as i32;
    let holes = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
        .maximum(Some(max))
        .description(Some("A line of this many holes."));
    let graph = ArrayBuilder::new()
        .items(
            ArrayBuilder::new()
                .items(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).maximum(Some(max - 1))),
        )
        .min_items(Some(1))
        .max_items(Some(MAX_HOLES))
        .description(Some("Adjacency lists: `graph[i]` lists the holes next to hole `i` (0-based)."));
    let variant = |title: &str, name: &str, schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>| {
        let mut object = ObjectBuilder::new().title(Some(title)).property(name, schema).required(name);
        for (member, schema) in extra {
            object = object.property(*member, schema.clone()).required(*member);
        }
        object.additional_properties(Some(AdditionalProperties::FreeForm(false)))
    };
    OneOfBuilder::new()
        .description(Some(description))
        .item(variant("line", "holes", holes.into()))
        .item(variant("graph", "graph", graph.into()))
        .into()
}

impl utoipa::PartialSchema for Holes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        holes_schema("Where the fox lives: a line of `holes` holes, or a `graph` of holes (adjacency lists).", &[])
    }
}

impl utoipa::ToSchema for Holes {}

/// A field name and a message, for the HTTP layer to report as 422.
pub type FieldError = (&'static str, String);

impl Holes {
    pub fn to_graph(&self) -> Result<Graph, FieldError> {
        match (self.holes, &self.graph) {
            (Some(n), None) => Graph::line(n).map_err(|e| ("holes", e.to_string())),
            (None, Some(adjacency)) => {
                Graph::from_adjacency(adjacency.clone()).map_err(|e: GraphError| ("graph", e.to_string()))
            }
            (Some(_), Some(_)) => Err(("holes", "give either holes or graph, not both".into())),
            (None, None) => Err(("holes", "give holes (a line of n holes) or graph (adjacency lists)".into())),
        }
    }
}

impl JobKind for FoxholeStrategies {
    const NAME: &'static str = "foxhole.strategies";
    type Params = Holes;
    type Output = StrategyOutcome;

    fn run(_: &Context, params: Holes, monitor: &mut dyn Monitor) -> Result<StrategyOutcome, RunError> {
        let graph = params.to_graph().map_err(|(_, msg)| RunError::Failed(msg))?;
        Ok(foxhole::shortest_strategy(&graph, monitor)?)
    }
}
