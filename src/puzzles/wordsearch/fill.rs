//! The filler: the letters outside the placed words, drawn from the uniform law over every
//! filling that spells no forbidden word (another copy of a list word, a blocked or avoided
//! word) anywhere, by a Metropolis chain on the free cells.
//!
//! The chain. A state gives each free cell a letter of the filler alphabet or a blank (a
//! letter of no word). A step picks a free cell and a symbol (a letter or the blank)
//! uniformly; the change is refused if it makes a forbidden occurrence (only occurrences
//! through the changed cell can be new), and otherwise accepted with probability
//! min(1, mu^(blanks after - blanks before)). The proposal is symmetric, so the chain is
//! reversible with respect to pi(x) ∝ mu^blanks(x) on the allowed states, and pi
//! conditioned on no blank is the uniform law on the allowed fillings: the end of a run
//! that has no blank is the sample (see "How long").
//!
//! Why the chain reaches every allowed state (irreducible), whatever the words: from any
//! allowed state, blanking free cells one by one never makes an occurrence (a blank is in
//! no word), so the all-blank state is reached, and it is allowed because the placed words
//! alone spell nothing forbidden (placement checks that). From the all-blank state, setting
//! the cells of any allowed filling y one by one passes only through allowed states: an
//! occurrence there would use only cells already holding y's letters and fixed cells (a
//! blank matches nothing), so it would be an occurrence in y. Without the blank this can
//! fail: when every letter of the alphabet is in some forbidden word (the block list uses
//! all 26) two allowed fillings may be joined by no path of single allowed changes. The
//! chain is aperiodic (refused and same-symbol proposals stay put).
//!
//! How long: each run starts from the all-blank state and lasts `BURN_IN` sweeps (a sweep is
//! one proposal per free cell), longer where proposals are often refused (see
//! `Chain::run_length`); the state at its end is kept if it has no blank, else a new run
//! starts afresh. mu is one over the free cells, so about 1/26 of a blank is expected at
//! the end. The integrated autocorrelation times of the letters (see `autocorrelation`,
//! measured by the tests) are about one sweep on A-Z puzzles.

use super::grid::{Grid, Trie, FREE};
use crate::puzzles::rng::Rng;

/// Sweeps a run lasts at least: longer when proposals are often refused (see
/// [`Chain::run_length`]), at most `MAX_RUN`.
pub const BURN_IN: usize = 24;
pub const MAX_RUN: usize = 2_000;
/// Runs at most: one is expected to end without a blank (mu makes a blank at the end
/// unlikely), and a blank at the end of every one of many means that some free cell
/// has no letter that spells nothing forbidden.
const RUNS: usize = 64;

/// Proposals a puzzle's filler may make in all (a few seconds at most; a 15 x 15 puzzle
/// needs a few thousand).
pub const PROPOSAL_BUDGET: u64 = 8_000_000;

/// The chain's state and what it needs.
pub struct Chain<'a> {
    pub grid: Grid,
    trie: &'a Trie,
    free: Vec<usize>,
    alphabet: Vec<u8>,
    blanks: usize,
    /// mu, the weight of a blank.
    mu: f64,
    pub proposals: u64,
    pub refused: u64,
    /// Proposals of the pilot runs that set the runs' length.
    pub piloted: u64,
}

impl<'a> Chain<'a> {
    /// The chain on `grid`'s free cells (all blank), over `alphabet` (uppercase letters).
    pub fn new(grid: Grid, trie: &'a Trie, alphabet: &[u8]) -> Chain<'a> {
        let free: Vec<usize> = (0..grid.cells.len()).filter(|&p| grid.cells[p] == FREE).collect();
        let mu = 1.0 / free.len().max(1) as f64;
        Chain {
            blanks: free.len(),
            grid,
            trie,
            free,
            alphabet: alphabet.to_vec(),
            mu,
            proposals: 0,
            refused: 0,
            piloted: 0,
        }
    }

    pub fn free(&self) -> &[usize] {
        &self.free
    }

    /// One proposal.
    pub fn step(&mut self, rng: &mut Rng) {
        self.proposals += 1;
        let p = self.free[rng.index(self.free.len())];
        let k = rng.index(self.alphabet.len() + 1);
        let new = if k == self.alphabet.len() { FREE } else { self.alphabet[k] };
        let old = self.grid.cells[p];
        if new == old {
            return;
        }
        if new == FREE {
            // One more blank: accepted with probability mu.
            if rng.chance(self.mu) {
                self.grid.cells[p] = FREE;
                self.blanks += 1;
            } else {
                self.refused += 1;
            }
            return;
        }
        self.grid.cells[p] = new;
        if self.trie.any_through(&self.grid, p) {
            self.grid.cells[p] = old;
            self.refused += 1;
        } else if old == FREE {
            self.blanks -= 1;
        }
    }

    pub fn sweep(&mut self, rng: &mut Rng) {
        for _ in 0..self.free.len() {
            self.step(rng);
        }
    }

    /// Runs the chain for `BURN_IN` sweeps from the all-blank state, as many times as it
    /// takes to end without a blank (each run afresh, so the state kept is a draw from pi
    /// that happens to have no blank, hence uniform on the allowed fillings; reading a
    /// single run at its first blank-free moment instead favours the fillings the blanks
    /// leave first). Returns the sweeps run, or None if `RUNS` runs all ended with a
    /// blank (some free cell then likely has no letter that spells nothing), `budget`
    /// (proposals, shared by a puzzle's attempts) ran out, or `stop` asked to stop (it is
    /// asked after every sweep with the proposals made so far, so that a caller holding the
    /// chain to a deadline or an allowance is heard within a sweep).
    pub fn run(&mut self, rng: &mut Rng, budget: &mut u64, mut stop: impl FnMut(u64) -> bool) -> Option<usize> {
        if self.free.is_empty() {
            return Some(0);
        }
        let length = self.run_length(rng);
        self.piloted += (BURN_IN * self.free.len()) as u64;
        let mut sweeps = 0;
        for _ in 0..RUNS {
            // Proposals left for this puzzle: a run that cannot finish within them is not begun.
            let cost = (length * self.free.len()) as u64;
            if cost > *budget {
                return None;
            }
            *budget -= cost;
            for &p in &self.free {
                self.grid.cells[p] = FREE;
            }
            self.blanks = self.free.len();
            for _ in 0..length {
                self.sweep(rng);
                sweeps += 1;
                if stop(self.proposals + self.piloted) {
                    return None;
                }
            }
            if self.blanks == 0 {
                return Some(sweeps);
            }
        }
        None
    }
}

impl Chain<'_> {
    /// Sweeps a run lasts: `BURN_IN` scaled by 1/(1 - r)^2, r the fraction of proposals a
    /// pilot run of `BURN_IN` sweeps refused (on its own stream, so the runs' length does
    /// not depend on their draws). Where most letters are refused (a small alphabet, dense
    /// constraints) cells change less often and the chain needs longer: the exact test's
    /// 3-letter grid refuses 57 % and gets 130 sweeps, which pass its chi-square test where
    /// 24 do not; an A-Z puzzle refuses a few percent and gets about 25.
    fn run_length(&self, rng: &mut Rng) -> usize {
        let mut pilot = Chain {
            grid: self.grid.clone(),
            free: self.free.clone(),
            alphabet: self.alphabet.clone(),
            proposals: 0,
            refused: 0,
            ..*self
        };
        let mut own = Rng::from_u64(rng.next_u64());
        for _ in 0..BURN_IN {
            pilot.sweep(&mut own);
        }
        let kept = 1.0 - pilot.refused as f64 / pilot.proposals.max(1) as f64;
        ((BURN_IN as f64 / (kept * kept).max(1e-6)).ceil() as usize).clamp(BURN_IN, MAX_RUN)
    }
}

/// The integrated autocorrelation time, in samples, of `series` (Sokal's windowed
/// estimate: the sum of autocorrelations up to the first lag M >= 5 tau).
pub fn autocorrelation(series: &[f64]) -> f64 {
    let n = series.len();
    if n < 4 {
        return 1.0;
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let var = series.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    if var == 0.0 {
        return 1.0;
    }
    let rho = |lag: usize| {
        (0..n - lag).map(|i| (series[i] - mean) * (series[i + lag] - mean)).sum::<f64>() / ((n - lag) as f64 * var)
    };
    let mut tau = 1.0;
    for lag in 1..n / 2 {
        tau += 2.0 * rho(lag);
        if lag as f64 >= 5.0 * tau {
            break;
        }
    }
    tau.max(1.0)
}
