//! Mixing diagnostics: integrated autocorrelation times of page statistics, in sweeps.
//!
//! Used to justify [`SPACING_SWEEPS`](super::chain::SPACING_SWEEPS): pages read from one
//! chain are spaced at least five times the largest time measured here.

use super::chain::{FourWords, OneWord, BURN_IN_SWEEPS};
use super::lanes::LaneGrid;
use super::segments::all_segments;
use crate::puzzles::rng::Rng;
use serde::Serialize;

/// Which chain to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainKind {
    /// The FOX-free chain that makes ordinary pages.
    FoxFree,
    /// The at-most-one-FOX chain that makes the fox page (λ as in [`super::lambda_log2`]).
    AtMostOneFox,
}

/// Integrated autocorrelation times τ = 1 + 2 Σ ρ(t), in sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AutocorrelationTimes {
    /// Number of O on the page.
    pub o_count: f64,
    /// Number of F minus number of X.
    pub f_minus_x: f64,
    /// Segments one letter away from FOX or XOF.
    pub near_misses: f64,
    /// Whether the page holds a FOX (at-most-one-FOX chain only).
    pub one_fox: Option<f64>,
}

impl AutocorrelationTimes {
    pub fn max(&self) -> f64 {
        [self.o_count, self.f_minus_x, self.near_misses, self.one_fox.unwrap_or(0.0)].into_iter().fold(0.0, f64::max)
    }
}

/// Runs 64 independent chains of `kind` on `rows` x `cols` grids: twice the burn-in, then
/// `sweeps` recorded sweeps. τ pools the autocovariances of all lanes around the common mean
/// and is summed up to the smallest window M with M >= 6 τ(M) (Sokal's rule).
pub fn autocorrelation_times(
    kind: ChainKind,
    rows: usize,
    cols: usize,
    sweeps: usize,
    seed: u64,
) -> AutocorrelationTimes {
    let mut chain = one_word(kind, rows, cols, seed);
    for _ in 0..2 * BURN_IN_SWEEPS {
        chain.sweep();
    }
    let segs: Vec<[usize; 3]> = {
        let g = LaneGrid::<1>::all_f(rows, cols);
        all_segments(rows, cols).map(|cells| cells.map(|(r, c)| g.index(r, c))).collect()
    };
    // series[stat][lane][t]
    let mut series: Vec<Vec<Vec<f64>>> =
        (0..4).map(|_| (0..64).map(|_| Vec::with_capacity(sweeps)).collect()).collect();
    for _ in 0..sweeps {
        chain.sweep();
        let (grid, has) = (&chain.grid, chain.has().0[0]);
        let (mut o, mut f, mut x, mut near) =
            (Counter::default(), Counter::default(), Counter::default(), Counter::default());
        for r in 0..rows {
            for c in 0..cols {
                let cell = grid.cells[grid.index(r, c)];
                o.add(cell.o.0[0]);
                f.add(cell.f.0[0]);
                x.add(cell.x.0[0]);
            }
        }
        for s in &segs {
            let [a, b, c] = s.map(|i| grid.cells[i]).map(|c| (c.f.0[0], c.o.0[0], c.x.0[0]));
            let two_of = |p: u64, q: u64, r: u64| (p & q & !r) | (p & !q & r) | (!p & q & r);
            near.add(two_of(a.0, b.1, c.2) | two_of(a.2, b.1, c.0));
        }
        for lane in 0..64 {
            let values = [
                o.get(lane) as f64,
                f.get(lane) as f64 - x.get(lane) as f64,
                near.get(lane) as f64,
                ((has >> lane) & 1) as f64,
            ];
            for (stat, v) in series.iter_mut().zip(values) {
                stat[lane].push(v);
            }
        }
    }
    AutocorrelationTimes {
        o_count: integrated_time(&series[0]),
        f_minus_x: integrated_time(&series[1]),
        near_misses: integrated_time(&series[2]),
        one_fox: (kind == ChainKind::AtMostOneFox).then(|| integrated_time(&series[3])),
    }
}

/// Runs `sweeps` sweeps of 64 lanes of `kind` from all-F (for benchmarks: one sweep is
/// `64 * rows * cols` lane-proposals). Returns the number of O in the final grids.
pub fn run_chain(kind: ChainKind, rows: usize, cols: usize, sweeps: usize, seed: u64) -> u64 {
    let mut chain = one_word(kind, rows, cols, seed);
    for _ in 0..sweeps {
        chain.sweep();
    }
    chain.grid.cells.iter().map(|c| c.o.0[0].count_ones() as u64).sum()
}

/// Runs `sweeps` sweeps of the version 2 book chain (four words: 16 at-most-one-FOX lanes
/// and 240 FOX-free lanes) from all F, for benchmarks: one sweep is `256 * rows * cols`
/// lane-proposals. Returns the number of O in the final grids.
pub fn run_book_chain(rows: usize, cols: usize, sweeps: usize, seed: u64) -> u64 {
    let free = super::generate::FOUR_WORDS_FREE;
    let mut chain = FourWords::streamed(rows, cols, super::lambda_log2(rows, cols), free, Rng::from_u64(seed));
    for _ in 0..sweeps {
        chain.sweep();
    }
    chain.grid.cells.iter().map(|c| c.o.0.iter().map(|w| w.count_ones() as u64).sum::<u64>()).sum()
}

/// A one-word chain of `kind`, as version 1 books ran them (and, lane for lane, as the
/// version 2 chain runs its lanes of either kind).
fn one_word(kind: ChainKind, rows: usize, cols: usize, seed: u64) -> OneWord {
    let rng = Rng::from_u64(seed);
    match kind {
        ChainKind::FoxFree => OneWord::free(rows, cols, rng),
        ChainKind::AtMostOneFox => OneWord::fox(rows, cols, super::lambda_log2(rows, cols), rng),
    }
}

/// Share of lane-sweeps in which the fox chain holds a FOX (after twice the burn-in), for
/// checking that λ keeps both states frequent.
pub fn one_fox_share(rows: usize, cols: usize, sweeps: usize, seed: u64) -> f64 {
    let mut chain = one_word(ChainKind::AtMostOneFox, rows, cols, seed);
    for _ in 0..2 * BURN_IN_SWEEPS {
        chain.sweep();
    }
    let mut held = 0u64;
    for _ in 0..sweeps {
        chain.sweep();
        held += chain.has().0[0].count_ones() as u64;
    }
    held as f64 / (64 * sweeps) as f64
}

/// Pooled integrated autocorrelation time of several independent equal-length series.
pub fn integrated_time(series: &[Vec<f64>]) -> f64 {
    let n: usize = series.iter().map(Vec::len).sum();
    let mean = series.iter().flatten().sum::<f64>() / n as f64;
    let len = series.iter().map(Vec::len).min().unwrap_or(0);
    let autocov = |k: usize| {
        series
            .iter()
            .map(|s| (0..len - k).map(|t| (s[t] - mean) * (s[t + k] - mean)).sum::<f64>() / (len - k) as f64)
            .sum::<f64>()
            / series.len() as f64
    };
    let c0 = autocov(0);
    if c0 == 0.0 {
        return 1.0;
    }
    let mut tau = 1.0;
    for m in 1..len / 2 {
        tau += 2.0 * autocov(m) / c0;
        if m as f64 >= 6.0 * tau {
            break;
        }
    }
    tau
}

/// 64 bit-sliced counters (one per lane).
#[derive(Default)]
pub(crate) struct Counter {
    planes: [u64; 16],
}

impl Counter {
    pub(crate) fn add(&mut self, mask: u64) {
        let mut carry = mask;
        for p in &mut self.planes {
            if carry == 0 {
                break;
            }
            let next = *p & carry;
            *p ^= carry;
            carry = next;
        }
    }

    pub(crate) fn get(&self, lane: usize) -> u64 {
        self.planes.iter().enumerate().map(|(j, p)| ((p >> lane) & 1) << j).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrated_time_of_ar1() {
        // AR(1) with coefficient a has τ = (1 + a) / (1 - a) = 9 for a = 0.8.
        let mut rng = Rng::from_u64(1);
        let series: Vec<Vec<f64>> = (0..32)
            .map(|_| {
                let mut v = 0.0;
                (0..4000)
                    .map(|_| {
                        let u = (0..12).map(|_| rng.unit()).sum::<f64>() - 6.0;
                        v = 0.8 * v + u;
                        v
                    })
                    .collect()
            })
            .collect();
        let tau = integrated_time(&series);
        assert!((tau - 9.0).abs() < 0.8, "{tau}");
    }
}
