//! Replaying a fixed inspection list: the candidate set day by day, and either the
//! day it empties or one fox path that dodges every inspection.

use serde::{Deserialize, Serialize};

use super::graph::{members, Graph, GraphError, Limits, Set};

/// Result of replaying an inspection list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CheckOutcome {
    /// Whether the strategy surely catches the fox.
    pub caught: bool,
    /// 1-based day on which no hole was left for the fox (null if it escaped).
    #[schema(required = true, minimum = 1)]
    pub day: Option<usize>,
    /// `escape[i]` = the fox's hole on the morning of day `i + 1`, one entry per
    /// inspection; null when caught.
    #[schema(required = true)]
    pub escape: Option<Vec<usize>>,
}

/// The raw per-day sets: entry `i` is where the fox may be after the day-`i + 1` inspection.
fn replay(graph: &Graph, inspections: &[usize]) -> Result<Vec<Set>, GraphError> {
    let holes = graph.holes();
    if let Some((index, &hole)) = inspections.iter().enumerate().find(|(_, &h)| h >= holes) {
        return Err(GraphError::InspectionOutOfRange { index, hole, holes });
    }
    let mut states = Vec::with_capacity(inspections.len());
    for (day, &hole) in inspections.iter().enumerate() {
        // Day 1: the fox may be anywhere; later it has moved from yesterday's set.
        let before = if day == 0 { graph.all() } else { graph.spread(states[day - 1]) };
        states.push(before & !(1 << hole));
    }
    Ok(states)
}

/// Holes the fox may be in after each day's inspection (index `i` = day `i + 1`), in
/// increasing order; an empty entry means the fox has been caught by then.
pub fn candidate_sets(graph: &Graph, inspections: &[usize]) -> Result<Vec<Vec<usize>>, GraphError> {
    Ok(replay(graph, inspections)?.into_iter().map(members).collect())
}

/// Whether `inspections` (0-based holes, one per day) catch the fox whatever it does.
///
/// Inspections after the catching day are ignored. An empty list catches nothing:
/// `caught: false` with an empty `escape` (the fox may be in any hole).
pub fn check(graph: &Graph, inspections: &[usize]) -> Result<CheckOutcome, GraphError> {
    check_within(graph, inspections, &Limits::default())
}

/// [`check`] within `limits` (the graph's holes and the list's length).
pub fn check_within(graph: &Graph, inspections: &[usize], limits: &Limits) -> Result<CheckOutcome, GraphError> {
    graph.check_limits(limits)?;
    if inspections.len() > limits.max_inspections {
        return Err(GraphError::InspectionLimit { count: inspections.len(), max: limits.max_inspections });
    }
    let states = replay(graph, inspections)?;
    if let Some(day) = states.iter().position(|&s| s == 0) {
        return Ok(CheckOutcome { caught: true, day: Some(day + 1), escape: None });
    }
    Ok(CheckOutcome { caught: false, day: None, escape: Some(escape_path(graph, &states)) })
}

/// Walks back from the lowest hole left on the last day, each time to the lowest
/// neighbour in the previous day's set. One always exists: every hole of a day's set
/// was reached overnight from some hole of the previous day's set.
fn escape_path(graph: &Graph, states: &[Set]) -> Vec<usize> {
    let Some(&last) = states.last() else { return Vec::new() };
    let mut path = vec![last.trailing_zeros() as usize];
    for &earlier in states.iter().rev().skip(1) {
        let here = *path.last().expect("path starts non-empty");
        let back = graph
            .neighbours(here)
            .iter()
            .copied()
            .filter(|&h| earlier & (1 << h) != 0)
            .min()
            .expect("every candidate hole was reached from a candidate of the day before");
        path.push(back);
    }
    path.reverse();
    path
}
