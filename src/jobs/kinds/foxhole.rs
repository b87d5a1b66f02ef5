//! Fox-in-a-hole jobs: the shortest inspection strategy for a line of holes or a graph.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::foxhole::{self, Graph, GraphError, StrategyOutcome};
use crate::puzzles::monitor::Monitor;

pub struct FoxholeStrategies;

/// Where the fox lives: `{"holes": n}` (a line) or `{"graph": [[…], …]}` (adjacency lists).
/// Also the params stored with a strategy job.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(description = "Where the fox lives: give exactly one of `holes` (a line of n holes) or `graph` (adjacency \
                        lists, 0-based).")]
pub struct Holes {
    /// A line of this many holes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1, maximum = 30)]
    pub holes: Option<usize>,
    /// Adjacency lists: `graph[i]` lists the holes next to hole `i` (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, min_items = 1, max_items = 30)]
    pub graph: Option<Vec<Vec<usize>>>,
}

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
