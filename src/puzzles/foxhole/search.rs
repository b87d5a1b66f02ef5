//! Breadth-first search over candidate sets for the shortest inspection list that
//! catches the fox whatever it does.
//!
//! Pruning (both exact): after the night the fox is somewhere in `P = spread(S)`.
//! Inspecting a hole outside `P` leaves `P`, a superset of `P \ {h}` for any `h` in `P`,
//! and a smaller candidate set is never worse (spread is monotone), so only holes of
//! `P` are tried. The day's set is caught-empty exactly when `P` is a single hole.

use serde::{Deserialize, Serialize};

use super::graph::{Graph, Set};
use crate::puzzles::progress::{Cancelled, Progress};

/// The shortest strategy, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyOutcome {
    /// Hole to inspect on each day (0-based), `None` when no strategy exists.
    pub inspections: Option<Vec<usize>>,
    pub days: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Sets expanded between progress reports (a few ms of work).
const REPORT_EVERY: u64 = 1 << 16;

/// Visited flags for all 2^n sets. The allocation is zeroed lazily by the OS, so
/// only pages holding reached sets cost memory (at most 128 MiB for 30 holes).
struct Visited(Vec<u64>);

impl Visited {
    fn new(holes: usize) -> Self {
        Visited(vec![0; ((1usize << holes) / 64).max(1)])
    }

    /// Marks `set`; true if it was not marked before.
    #[inline]
    fn insert(&mut self, set: Set) -> bool {
        let (word, bit) = ((set >> 6) as usize, 1u64 << (set & 63));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}

/// A shortest inspection list that catches the fox on every path, found by BFS over
/// candidate sets; deterministic. Fails only if `progress` asks to stop.
pub fn shortest_strategy(graph: &Graph, progress: &mut dyn Progress) -> Result<StrategyOutcome, Cancelled> {
    let all = graph.all();
    let total = 1u64 << graph.holes();
    // layers[d] = sets first reached after the day-(d+1) inspection, kept for the walk back.
    let mut layers: Vec<Vec<Set>> = Vec::new();
    let mut visited = Visited::new(graph.holes());
    let mut explored = 0u64;

    // Day 1 starts from every hole (not from the spread of every hole: they differ
    // on the one-hole graph, whose fox never moves).
    let day_one = step(all, &mut visited);
    if day_one.contains(&0) {
        return Ok(found(vec![0]));
    }
    layers.push(day_one);
    loop {
        let mut next = Vec::new();
        for &set in layers.last().expect("at least day 1") {
            explored += 1;
            if explored % REPORT_EVERY == 0 && !progress.update(explored, total) {
                return Err(Cancelled);
            }
            let after_night = graph.spread(set);
            if after_night.count_ones() <= 1 {
                // Inspecting the one hole left catches the fox (the set cannot be empty:
                // every hole has a neighbour).
                let mut inspections = walk_back(graph, &layers, set);
                inspections.push(after_night.trailing_zeros() as usize);
                return Ok(found(inspections));
            }
            next.extend(step(after_night, &mut visited));
        }
        if !progress.update(explored, total) {
            return Err(Cancelled);
        }
        if next.is_empty() {
            return Ok(StrategyOutcome {
                inspections: None,
                days: None,
                reason: Some(format!(
                    "no inspection sequence catches the fox whatever it does: all {explored} \
                     reachable sets of possible holes were explored and none can be emptied. \
                     This is so on every graph with a cycle (the fox can run round it) and on \
                     some trees"
                )),
            });
        }
        layers.push(next);
    }
}

fn found(inspections: Vec<usize>) -> StrategyOutcome {
    StrategyOutcome { days: Some(inspections.len()), inspections: Some(inspections), reason: None }
}

/// The unvisited sets `possible \ {h}` for each hole `h` the fox may be in.
fn step(possible: Set, visited: &mut Visited) -> Vec<Set> {
    let mut out = Vec::new();
    let mut rest = possible;
    while rest != 0 {
        let hole = rest & rest.wrapping_neg();
        rest ^= hole;
        if visited.insert(possible ^ hole) {
            out.push(possible ^ hole);
        }
    }
    out
}

/// Inspections that lead from day 1 to `target`, a set in the last layer: for each
/// layer, find a set of the layer before whose spread is `target` plus one hole
/// (that hole was the inspection). BFS put a parent there, so the scan always succeeds.
fn walk_back(graph: &Graph, layers: &[Vec<Set>], mut target: Set) -> Vec<usize> {
    let mut inspections = Vec::with_capacity(layers.len() + 1);
    for layer in layers[..layers.len() - 1].iter().rev() {
        let (parent, hole) = layer
            .iter()
            .find_map(|&parent| {
                let spread = graph.spread(parent);
                let extra = spread & !target;
                (spread & target == target && extra.count_ones() == 1).then_some((parent, extra))
            })
            .expect("every set in a BFS layer has a parent in the layer before");
        inspections.push(hole.trailing_zeros() as usize);
        target = parent;
    }
    inspections.push((graph.all() & !target).trailing_zeros() as usize);
    inspections.reverse();
    inspections
}
