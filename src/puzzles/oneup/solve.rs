//! Exact solver: bitmask candidates, "each of 1..n once per region" propagation (naked and
//! hidden singles), most-constrained-cell-first backtracking. Counts solutions up to a limit,
//! so `limit_solutions = 2` proves uniqueness.

use super::puzzle::{Layout, Puzzle};
use super::{Method, SolveOutcome};
use crate::puzzles::monitor::{Cancelled, Monitor};
use crate::puzzles::rng::Rng;
use serde::{Deserialize, Serialize};

/// Default node budget: far above what any 9 x 9 puzzle seen needs, but it bounds
/// adversarial inputs.
pub const DEFAULT_MAX_NODES: u64 = 20_000_000;

/// Monitor is reported (and cancellation checked) every this many nodes.
const PROGRESS_EVERY: u64 = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactOptions {
    /// Stop after this many solutions (2 proves uniqueness; 1 just finds one).
    pub limit_solutions: usize,
    /// Give up (unique: null) after this many search nodes.
    pub max_nodes: u64,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions { limit_solutions: 2, max_nodes: DEFAULT_MAX_NODES }
    }
}

/// Search statistics of the exact solver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ExactStats {
    /// Search nodes visited (1 = solved by propagation alone, no guessing).
    pub nodes: u64,
    /// Nodes that ended in a contradiction.
    pub backtracks: u64,
    /// Deepest guess level reached.
    pub max_depth: usize,
    /// Solutions found (stops at the limit).
    pub solutions_found: usize,
}

/// Solves `puzzle`, looking for up to `limit_solutions` solutions (use 2 to prove uniqueness).
pub fn solve(
    puzzle: &Puzzle,
    limit_solutions: usize,
    progress: &mut dyn Monitor,
) -> Result<SolveOutcome<ExactStats>, Cancelled> {
    solve_with(puzzle, &ExactOptions { limit_solutions, ..ExactOptions::default() }, progress)
}

/// [`solve`] with every option.
pub fn solve_with(
    puzzle: &Puzzle,
    options: &ExactOptions,
    progress: &mut dyn Monitor,
) -> Result<SolveOutcome<ExactStats>, Cancelled> {
    let model = Model::new(&puzzle.layout());
    let givens: Vec<(usize, u8)> =
        puzzle.clues().iter().map(|c| ((c.row - 1) * model.size + c.col - 1, c.digit)).collect();
    let run = model.search(&givens, options, None, progress)?;
    let limit = options.limit_solutions.max(1);
    let found = run.stats.solutions_found;
    let (unique, reason) = match (&run.first, run.exhausted_budget) {
        (Some(_), _) if found >= 2 => (Some(false), None),
        (Some(_), false) if limit >= 2 => (Some(true), None),
        (Some(_), true) => (
            None,
            Some(format!(
                "a solution was found, but the node budget of {} ran out before uniqueness was decided",
                options.max_nodes
            )),
        ),
        (Some(_), false) => (None, None),
        (None, true) => {
            (None, Some(format!("the node budget of {} ran out before a solution was found", options.max_nodes)))
        }
        (None, false) if run.stats.nodes == 1 => {
            (None, Some("no solution: the clues contradict the region rules (found without guessing)".to_string()))
        }
        (None, false) => {
            (None, Some(format!("no solution: every possibility was ruled out ({} search nodes)", run.stats.nodes)))
        }
    };
    Ok(SolveOutcome {
        method: Method::Exact,
        solution: run.first.map(|grid| model.rows(&grid)),
        unique,
        reason,
        stats: run.stats,
    })
}

/// The most cells a grid can have; states are fixed-size arrays so branching is a copy.
const CELLS: usize = 81;

/// Search state: candidate digits per cell (bit d = digit d) and which cells have been
/// assigned and propagated.
#[derive(Clone, Copy)]
struct State {
    cand: [u16; CELLS],
    fixed: u128,
}

/// Precomputed constraint structure of a layout, independent of the clues.
pub(crate) struct Model {
    pub size: usize,
    /// Cells of each region, with the bitmask of digits 1..=len it must contain.
    units: Vec<(Vec<u8>, u16)>,
    /// Cells sharing a region with each cell.
    peers: Vec<Vec<u8>>,
    /// Digits each cell allows before any clue: 1..=min(row region, column region).
    domain: Vec<u16>,
}

/// Result of a search run.
pub(crate) struct Run {
    pub first: Option<Vec<u8>>,
    pub stats: ExactStats,
    pub exhausted_budget: bool,
}

enum Flow {
    Continue,
    Stop,
}

struct Search<'a> {
    model: &'a Model,
    limit: usize,
    max_nodes: u64,
    rng: Option<&'a mut Rng>,
    progress: &'a mut dyn Monitor,
    queue: Vec<u8>,
    stats: ExactStats,
    first: Option<Vec<u8>>,
    out_of_budget: bool,
}

impl Model {
    pub fn new(layout: &Layout) -> Model {
        let n = layout.size;
        let units: Vec<(Vec<u8>, u16)> = layout
            .regions
            .iter()
            .map(|cells| (cells.iter().map(|&c| c as u8).collect(), digits_up_to(cells.len())))
            .collect();
        let peers = (0..n * n)
            .map(|cell| {
                let mut p: Vec<u8> = layout.cell_regions[cell]
                    .iter()
                    .flat_map(|&r| layout.regions[r].iter().copied())
                    .filter(|&c| c != cell)
                    .map(|c| c as u8)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let domain = (0..n * n).map(|cell| digits_up_to(layout.max_digit(cell))).collect();
        Model { size: n, units, peers, domain }
    }

    /// Digit grid (row-major, digits 1..=9) to rows of ASCII digits.
    pub fn rows(&self, grid: &[u8]) -> Vec<String> {
        grid.chunks(self.size).map(|row| row.iter().map(|&d| (b'0' + d) as char).collect()).collect()
    }

    /// Searches with the given clues `(cell, digit)`; `rng` randomizes the digit order.
    pub fn search(
        &self,
        givens: &[(usize, u8)],
        options: &ExactOptions,
        rng: Option<&mut Rng>,
        progress: &mut dyn Monitor,
    ) -> Result<Run, Cancelled> {
        let cells = self.size * self.size;
        let mut state = State { cand: [0; CELLS], fixed: 0 };
        let mut search = Search {
            model: self,
            limit: options.limit_solutions.max(1),
            max_nodes: options.max_nodes,
            rng,
            progress,
            queue: Vec::with_capacity(CELLS),
            stats: ExactStats { nodes: 0, backtracks: 0, max_depth: 0, solutions_found: 0 },
            first: None,
            out_of_budget: false,
        };
        state.cand[..cells].copy_from_slice(&self.domain);
        let mut consistent = true;
        for &(cell, digit) in givens {
            let bit = 1u16 << digit;
            consistent &= state.cand[cell] & bit != 0;
            state.cand[cell] &= bit;
        }
        if consistent {
            search.queue.extend((0..cells).filter(|&c| state.cand[c].count_ones() == 1).map(|c| c as u8));
            search.node(state, 0)?;
        } else {
            search.stats.nodes = 1;
            search.stats.backtracks = 1;
        }
        Ok(Run { first: search.first, stats: search.stats, exhausted_budget: search.out_of_budget })
    }

    /// Assigns pending singles and hidden singles until nothing changes; false on a
    /// contradiction. `queue` holds cells whose candidates just became a single digit.
    fn propagate(&self, s: &mut State, queue: &mut Vec<u8>) -> bool {
        loop {
            while let Some(cell) = queue.pop() {
                let cell = cell as usize;
                if s.fixed >> cell & 1 == 1 {
                    continue;
                }
                s.fixed |= 1 << cell;
                let bit = s.cand[cell];
                for &p in &self.peers[cell] {
                    let m = s.cand[p as usize];
                    if m & bit != 0 {
                        let m = m & !bit;
                        s.cand[p as usize] = m;
                        if m == 0 {
                            return false;
                        }
                        if m & (m - 1) == 0 {
                            queue.push(p);
                        }
                    }
                }
            }
            // Each region needs every digit 1..=n: a digit missing from all candidates is a
            // contradiction, a digit possible in only one cell goes there.
            for (cells, full) in &self.units {
                let (mut once, mut twice) = (0u16, 0u16);
                for &c in cells {
                    let m = s.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if once & full != *full {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    if let Some(&c) = cells.iter().find(|&&c| s.cand[c as usize] & bit != 0) {
                        if s.cand[c as usize] != bit {
                            s.cand[c as usize] = bit;
                            queue.push(c);
                        }
                    }
                }
            }
            if queue.is_empty() {
                return true;
            }
        }
    }
}

impl Search<'_> {
    fn node(&mut self, mut s: State, depth: usize) -> Result<Flow, Cancelled> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        if self.stats.nodes.is_multiple_of(PROGRESS_EVERY) && !self.progress.update(self.stats.nodes, self.max_nodes) {
            return Err(Cancelled);
        }
        if self.stats.nodes > self.max_nodes {
            self.out_of_budget = true;
            return Ok(Flow::Stop);
        }
        if !self.model.propagate(&mut s, &mut self.queue) {
            self.queue.clear();
            self.stats.backtracks += 1;
            return Ok(Flow::Continue);
        }
        // Most constrained open cell; a pending single never survives propagation.
        let cells = self.model.size * self.model.size;
        let mut best: Option<(usize, u32)> = None;
        for c in 0..cells {
            if s.fixed >> c & 1 == 0 {
                let k = s.cand[c].count_ones();
                if best.is_none_or(|(_, bk)| k < bk) {
                    best = Some((c, k));
                    if k == 2 {
                        break;
                    }
                }
            }
        }
        let Some((cell, _)) = best else {
            self.stats.solutions_found += 1;
            if self.first.is_none() {
                let grid = s.cand[..cells].iter().map(|m| m.trailing_zeros() as u8).collect();
                self.first = Some(grid);
            }
            return Ok(if self.stats.solutions_found >= self.limit { Flow::Stop } else { Flow::Continue });
        };
        let mut digits = [0u8; 9];
        let mut k = 0;
        let mut m = s.cand[cell];
        while m != 0 {
            digits[k] = m.trailing_zeros() as u8;
            m &= m - 1;
            k += 1;
        }
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut digits[..k]);
        }
        for &d in &digits[..k] {
            let mut child = s;
            child.cand[cell] = 1 << d;
            self.queue.push(cell as u8);
            if let Flow::Stop = self.node(child, depth + 1)? {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }
}

/// Bitmask of digits 1..=n.
fn digits_up_to(n: usize) -> u16 {
    ((1u32 << (n + 1)) - 2) as u16
}
