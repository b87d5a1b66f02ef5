//! Mixing diagnostics for the word chains: integrated autocorrelation times of page
//! statistics, in sweeps (as [`crate::puzzles::foxbook::diagnostics`] measures FOX's), used
//! to justify [`mixing_budget`](super::chain::mixing_budget) for other words and shapes.

use super::chain::{mixing_budget, WordChain};
use super::spec::Plan;
use crate::puzzles::foxbook::diagnostics::{integrated_time, Counter};
use crate::puzzles::rng::Rng;
use serde::Serialize;

/// Which chain to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainKind {
    /// The occurrence-free chain that makes ordinary pages.
    Free,
    /// The at-most-one-occurrence chain that makes the word's page (λ from
    /// [`super::weight_log2`]).
    AtMostOne,
}

/// Integrated autocorrelation times τ = 1 + 2 Σ ρ(t), in sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AutocorrelationTimes {
    /// Number of cells reading the filler letter (neither first nor last of the word).
    pub filler_count: f64,
    /// Number of cells reading the word's first letter.
    pub first_count: f64,
    /// Runs one letter away from reading the word (either way).
    pub near_misses: f64,
    /// Whether the page holds the word (at-most-one chain only).
    pub one: Option<f64>,
}

impl AutocorrelationTimes {
    pub fn max(&self) -> f64 {
        [self.filler_count, self.first_count, self.near_misses, self.one.unwrap_or(0.0)].into_iter().fold(0.0, f64::max)
    }
}

fn chain(plan: &Plan, kind: ChainKind, seed: u64) -> WordChain {
    let rng = Rng::from_u64(seed);
    match kind {
        ChainKind::Free => WordChain::free(plan, rng),
        ChainKind::AtMostOne => WordChain::at_most_one(plan, super::weight_log2(plan), rng),
    }
}

/// Runs 64 independent chains of `kind`: twice the burn-in, then `sweeps` recorded sweeps.
/// τ pools all lanes' autocovariances around the common mean, summed up to the smallest
/// window M with M >= 6 τ(M) (Sokal's rule).
pub fn autocorrelation_times(plan: &Plan, kind: ChainKind, sweeps: usize, seed: u64) -> AutocorrelationTimes {
    let mut chain = chain(plan, kind, seed);
    for _ in 0..2 * mixing_budget(plan).0 {
        chain.sweep();
    }
    let letter = |l: u8| plan.letters.iter().position(|&x| x == l).expect("validated");
    let (filler, first) = (letter(plan.filler), letter(plan.word[0]));
    let word = plan.word_indices();
    let mut patterns = vec![word.clone()];
    if !plan.is_palindrome() {
        patterns.push(word.iter().rev().copied().collect());
    }
    let runs: Vec<((usize, usize), (isize, isize))> = plan.mask.runs(word.len()).collect();
    let cells: Vec<(isize, isize)> = (0..plan.mask.cells.len())
        .filter(|&i| plan.mask.cells[i])
        .map(|i| ((i / plan.mask.cols) as isize, (i % plan.mask.cols) as isize))
        .collect();
    // series[stat][lane][t]
    let mut series: Vec<Vec<Vec<f64>>> =
        (0..4).map(|_| (0..64).map(|_| Vec::with_capacity(sweeps)).collect()).collect();
    for _ in 0..sweeps {
        chain.sweep();
        let g = &chain.grid;
        let (mut fill, mut firsts, mut near) = (Counter::default(), Counter::default(), Counter::default());
        for &(r, c) in &cells {
            fill.add(g.lanes_reading(filler, r, c));
            firsts.add(g.lanes_reading(first, r, c));
        }
        for &((r, c), (dr, dc)) in &runs {
            for pattern in &patterns {
                // Lanes with no mismatch so far, and with at most one.
                let (mut none, mut most_one) = (!0u64, !0u64);
                for (k, &a) in pattern.iter().enumerate() {
                    let m = g.lanes_reading(a, r as isize + k as isize * dr, c as isize + k as isize * dc);
                    most_one = (most_one & m) | (none & !m);
                    none &= m;
                }
                near.add(most_one & !none);
            }
        }
        for lane in 0..64 {
            let values = [
                fill.get(lane) as f64,
                firsts.get(lane) as f64,
                near.get(lane) as f64,
                ((chain.has >> lane) & 1) as f64,
            ];
            for (stat, v) in series.iter_mut().zip(values) {
                stat[lane].push(v);
            }
        }
    }
    AutocorrelationTimes {
        filler_count: integrated_time(&series[0]),
        first_count: integrated_time(&series[1]),
        near_misses: integrated_time(&series[2]),
        one: (kind == ChainKind::AtMostOne).then(|| integrated_time(&series[3])),
    }
}

/// Runs `sweeps` sweeps of 64 lanes of `kind` from the start (for benchmarks: one sweep is
/// 64 proposals per letter cell). Returns the lanes holding the word at the end.
pub fn run_chain(plan: &Plan, kind: ChainKind, sweeps: usize, seed: u64) -> u64 {
    let mut chain = chain(plan, kind, seed);
    for _ in 0..sweeps {
        chain.sweep();
    }
    chain.has
}

/// Share of lane-sweeps in which the λ chain holds the word (after twice the burn-in), for
/// checking that λ keeps both states frequent.
pub fn one_share(plan: &Plan, sweeps: usize, seed: u64) -> f64 {
    let mut chain = chain(plan, ChainKind::AtMostOne, seed);
    for _ in 0..2 * mixing_budget(plan).0 {
        chain.sweep();
    }
    let mut held = 0u64;
    for _ in 0..sweeps {
        chain.sweep();
        held += chain.has.count_ones() as u64;
    }
    held as f64 / (64 * sweeps) as f64
}
