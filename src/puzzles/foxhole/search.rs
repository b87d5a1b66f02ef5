//! Breadth-first search over candidate sets for the shortest inspection list that
//! catches the fox whatever it does.
//!
//! Pruning (exact): after the night the fox is somewhere in `P = spread(S)`.
//! Inspecting a hole outside `P` leaves `P`, a superset of `P \ {h}` for any `h` in `P`,
//! and a smaller candidate set is never worse (spread is monotone), so only holes of
//! `P` are tried. The day's set is caught-empty exactly when `P` is a single hole.
//!
//! Disconnected graphs would multiply the state space (15 separate tunnels reach
//! 2^30 sets), so their parts are solved one at a time; see [`split_strategy`].

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use super::graph::{Graph, Set};
use crate::puzzles::monitor::{Cancelled, Monitor};

crate::fields::api_struct! {
    /// The shortest strategy, or why there is none.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct StrategyOutcome {
        /// Hole to inspect on each day (0-based), null when no strategy exists.
        #[schema(required = true)]
        pub inspections: Option<Vec<usize>>,
        /// Days the strategy takes (the length of `inspections`), null when there is none.
        #[schema(required = true)]
        pub days: Option<usize>,
        /// Why no strategy exists.
        pub reason?: String,
    }
}

/// A shortest inspection list that catches the fox on every path; deterministic.
/// Fails only if `progress` asks to stop.
pub fn shortest_strategy(graph: &Graph, progress: &mut dyn Monitor) -> Result<StrategyOutcome, Cancelled> {
    let mut search = Search::new(graph, progress);
    let parts = graph.components();
    let found = if parts.len() == 1 { search.shortest(graph)? } else { split_strategy(graph, &parts, &mut search)? };
    Ok(match found {
        Found::Strategy(inspections) => {
            StrategyOutcome { days: Some(inspections.len()), inspections: Some(inspections), reason: None }
        }
        Found::None { sets } => StrategyOutcome {
            inspections: None,
            days: None,
            reason: Some(format!(
                "no inspection sequence catches the fox whatever it does: all {sets} reachable \
                 sets of possible holes were explored and none can be emptied. This is so on \
                 every graph with a cycle (the fox can run round it) and on some trees"
            )),
        },
        Found::TooLarge { sets } => StrategyOutcome {
            inspections: None,
            days: None,
            reason: Some(format!(
                "undecided: the search stopped after {sets} sets of possible holes, the most it \
                 may store; this graph is too large to solve"
            )),
        },
    })
}

enum Found {
    Strategy(Vec<usize>),
    /// Search exhausted after this many sets.
    None {
        sets: u64,
    },
    /// Gave up at the storage limit.
    TooLarge {
        sets: u64,
    },
}

/// Most sets one search may store (4 bytes each in the layers, plus the visited map).
const MAX_SETS: u64 = 1 << 27;

/// Sets expanded between progress reports (a few ms of work).
const REPORT_EVERY: u64 = 1 << 16;

/// Solves each connected part on its own and plays the parts one after another,
/// which takes the sum of their shortest strategies.
///
/// No strategy for the whole graph does better when, for every part, the fewest
/// inspections that clear it with other days ("waits", on which that part's fox just
/// moves) mixed in equal its shortest strategy: a whole-graph strategy must spend that
/// many days inspecting each part. A second search per part finds that fewest number;
/// if waiting ever helps (not seen on any tree tested), the whole graph is searched
/// instead. A part with no strategy dooms the whole graph: its fox can stay in it.
fn split_strategy(graph: &Graph, parts: &[Vec<usize>], search: &mut Search) -> Result<Found, Cancelled> {
    let mut plan = Vec::new();
    let mut fewest = 0;
    for part in parts {
        let sub = graph.induced(part);
        match search.shortest(&sub)? {
            Found::Strategy(inspections) => plan.extend(inspections.into_iter().map(|h| part[h])),
            other => return Ok(other),
        }
        match search.fewest_with_waits(&sub)? {
            Some(n) => fewest += n,
            None => return Ok(Found::TooLarge { sets: MAX_SETS }),
        }
    }
    if fewest == plan.len() {
        Ok(Found::Strategy(plan))
    } else {
        search.shortest(graph)
    }
}

/// Monitor bookkeeping shared by the sub-searches.
struct Search<'p> {
    progress: &'p mut dyn Monitor,
    explored: u64,
    total: u64,
}

impl<'p> Search<'p> {
    fn new(graph: &Graph, progress: &'p mut dyn Monitor) -> Self {
        Search { progress, explored: 0, total: 1 << graph.holes() }
    }

    fn tick(&mut self) -> Result<(), Cancelled> {
        self.explored += 1;
        if self.explored & (REPORT_EVERY - 1) == 0 {
            self.report()?;
        }
        Ok(())
    }

    fn report(&mut self) -> Result<(), Cancelled> {
        if self.progress.update(self.explored, self.total) {
            Ok(())
        } else {
            Err(Cancelled)
        }
    }

    /// Plain BFS: one layer per day.
    fn shortest(&mut self, graph: &Graph) -> Result<Found, Cancelled> {
        // layers[d] = sets first reached after the day-(d+1) inspection, kept for the walk back.
        let mut layers: Vec<Vec<Set>> = Vec::new();
        let mut visited = Visited::new(graph.holes());
        let mut stored = 0u64;
        // Day 1 starts from every hole (not from the spread of every hole: they differ
        // on the one-hole graph, whose fox never moves).
        let day_one = step(graph.all(), &mut visited);
        if day_one.contains(&0) {
            return Ok(Found::Strategy(vec![0]));
        }
        layers.push(day_one);
        loop {
            let mut next = Vec::new();
            for &set in layers.last().expect("at least day 1") {
                self.tick()?;
                let after_night = graph.spread(set);
                if after_night.count_ones() <= 1 {
                    // Inspecting the one hole left catches the fox (the set cannot be
                    // empty: every hole has a neighbour).
                    let mut inspections = walk_back(graph, &layers, set);
                    inspections.push(after_night.trailing_zeros() as usize);
                    return Ok(Found::Strategy(inspections));
                }
                next.extend(step(after_night, &mut visited));
            }
            self.report()?;
            stored += next.len() as u64;
            if next.is_empty() {
                return Ok(Found::None { sets: visited.len() });
            }
            if stored > MAX_SETS {
                return Ok(Found::TooLarge { sets: stored });
            }
            layers.push(next);
        }
    }

    /// Fewest inspections that catch the fox when days may also be spent waiting
    /// (inspecting elsewhere). Levels by inspections used; a wait is free, so each
    /// level is first closed under the night's spread. `None` at the storage limit.
    /// Level 0 is "every hole", which is also where day 1 starts from because a part
    /// of a disconnected graph has at least two holes (so every hole has a neighbour).
    fn fewest_with_waits(&mut self, graph: &Graph) -> Result<Option<usize>, Cancelled> {
        let mut visited = Visited::new(graph.holes());
        visited.insert(graph.all());
        let mut level = vec![graph.all()];
        for used in 0.. {
            let mut i = 0;
            while i < level.len() {
                self.tick()?;
                let after_night = graph.spread(level[i]);
                if after_night.count_ones() <= 1 {
                    return Ok(Some(used + 1));
                }
                if visited.insert(after_night) {
                    level.push(after_night);
                }
                i += 1;
            }
            self.report()?;
            let mut next = Vec::new();
            for &set in &level {
                next.extend(step(graph.spread(set), &mut visited));
            }
            if next.is_empty() {
                // Cannot happen for a part with a plain strategy, which is also a strategy here.
                return Ok(None);
            }
            if visited.len() > MAX_SETS {
                return Ok(None);
            }
            level = next;
        }
        unreachable!("the loop returns")
    }
}

/// Candidate sets are already well-spread integers; SipHash would dominate the search.
#[derive(Default)]
struct SetHasher(u64);

impl Hasher for SetHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(b as u32 ^ (self.0 as u32).rotate_left(8));
        }
    }

    fn write_u32(&mut self, n: u32) {
        // Fibonacci multiply, then fold the well-mixed high half into the low bits
        // the table indexes by.
        let h = (n as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Visited sets: a hash set while few, then a bitmap over all 2^n sets (zeroed lazily
/// by the OS, at most 128 MiB for 30 holes) once many.
enum Visited {
    Sparse(HashSet<Set, BuildHasherDefault<SetHasher>>, usize),
    Dense(Vec<u64>, u64),
}

/// Beyond this many sets the bitmap is smaller and faster than the hash set.
const SPARSE_LIMIT: usize = 1 << 18;

impl Visited {
    fn new(holes: usize) -> Self {
        if holes <= 20 {
            Visited::Dense(vec![0; ((1usize << holes) / 64).max(1)], 0)
        } else {
            Visited::Sparse(HashSet::default(), holes)
        }
    }

    fn len(&self) -> u64 {
        match self {
            Visited::Sparse(set, _) => set.len() as u64,
            Visited::Dense(_, n) => *n,
        }
    }

    /// Marks `set`; true if it was not marked before.
    #[inline]
    fn insert(&mut self, set: Set) -> bool {
        let fresh = match self {
            Visited::Sparse(sets, _) => sets.insert(set),
            Visited::Dense(bits, n) => {
                let (word, bit) = ((set >> 6) as usize, 1u64 << (set & 63));
                let fresh = bits[word] & bit == 0;
                bits[word] |= bit;
                *n += fresh as u64;
                fresh
            }
        };
        let dense = match self {
            Visited::Sparse(sets, holes) if sets.len() > SPARSE_LIMIT => {
                let mut bits = vec![0u64; (1usize << *holes) / 64];
                for &s in sets.iter() {
                    bits[(s >> 6) as usize] |= 1 << (s & 63);
                }
                Some(Visited::Dense(bits, sets.len() as u64))
            }
            _ => None,
        };
        if let Some(dense) = dense {
            *self = dense;
        }
        fresh
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visited_switches_to_a_bitmap_without_forgetting() {
        let mut visited = Visited::new(24);
        let sets: Vec<Set> = (0..SPARSE_LIMIT as u32 + 1000).map(|i| i.wrapping_mul(2_654_435_761) >> 8).collect();
        for &s in &sets {
            visited.insert(s);
        }
        assert!(matches!(visited, Visited::Dense(..)));
        let distinct = sets.iter().collect::<HashSet<_>>().len() as u64;
        assert_eq!(visited.len(), distinct);
        assert!(sets.iter().all(|&s| !visited.insert(s)), "a set was forgotten");
        assert!(visited.insert(1 << 23 | 5) || sets.contains(&(1 << 23 | 5)));
    }
}
