//! Fox in a hole: holes joined by tunnels (a line, or any undirected graph); each night
//! the fox must move to a neighbouring hole, each morning you inspect one hole.
//!
//! Instead of a concrete fox we track the set of holes it could be in without having
//! been caught (a `u32` bitset): day 1 starts from every hole, later days from the
//! holes next to yesterday's set, and the inspected hole is removed. An empty set
//! means every possible fox has been caught. [`check`] replays an inspection list,
//! [`shortest_strategy`] searches the sets breadth-first for the shortest winning list.

mod check;
mod graph;
mod search;
#[cfg(test)]
mod tests;

pub use check::{candidate_sets, check, check_within, CheckOutcome};
pub use graph::{Graph, GraphError, Limits, MAX_HOLES};
pub use search::{shortest_strategy, StrategyOutcome};
