//! Markov chains over 64 independent grids at once (one per lane).
//!
//! **Stationarity.** Each site update is a Metropolis step with a symmetric proposal (one of
//! the two other letters, 1/2 each), so it satisfies detailed balance with respect to the
//! target: uniform on FOX-free grids ([`FreeChain`]), or weight 1 / λ on grids with zero /
//! exactly one FOX ([`FoxChain`]). A sweep composes such steps in a fixed order, and the
//! per-lane choice of which cells a sweep visits (below) is made independently of the state,
//! so every sweep preserves the target.
//!
//! **Laziness, for irreducibility and aperiodicity.** A plain systematic scan must change
//! every cell whose proposal is allowed, which makes "stay put" moves hard to argue. So in
//! each sweep, each lane independently (probability 1/256) runs a *restricted* sweep that
//! visits only one of the 9 sub-lattices `(r mod 3, c mod 3)` (chosen by 4 random bits;
//! values 9..15 visit none). This costs about 0.35% of the proposals and gives:
//! - aperiodicity: a sweep that visits nothing has positive probability, so P(x, x) > 0;
//! - irreducibility: two consecutive sweeps restricted to the same sub-lattice apply two
//!   Metropolis steps to each of its cells, and no other cell moves. Two steps at one cell
//!   can keep its letter (go to an allowed letter and back, or be rejected) or turn it into
//!   any allowed letter (directly after a rejected or returning first step, or through the
//!   third letter). So any single-cell change that stays in the state space is reachable
//!   while every other cell keeps its letter. Single-cell paths connect the space: from any
//!   grid, turn cells into O in row-major order; when cell p becomes O every cell before it
//!   is already O, and each of the four lines through p has one neighbour before p, so p is
//!   never the middle of F-O-X, and O is never an end of one. No FOX is created on the way
//!   to the all-O grid, and moves are reversible, so every FOX-free grid (every grid with
//!   at most one FOX) reaches every other one. For [`FoxChain`], "allowed" means accepted
//!   with positive probability (λ > 0); cells of one sub-lattice share no segment, so the
//!   FOX a held cell may briefly remove or add never involves the moving cell.
//!
//! Empirically, the 3x3 tests compare both chains' output with the exact uniform laws.

use super::kernel::{update_fox, update_free};
use super::lanes::{Cell, LaneGrid};
use crate::puzzles::rng::Rng;

/// Sweeps of burn-in before the first page is read from a chain: at least 100 sweeps' worth
/// of proposals per cell even after the 0.35% lost to restricted sweeps.
pub const BURN_IN_SWEEPS: usize = 102;
/// Sweeps between two pages read from the same chain: at least 78 sweeps' worth of
/// proposals, and more than five times the largest integrated autocorrelation time
/// measured (about 10.5 sweeps; see `diagnostics`).
pub const SPACING_SWEEPS: usize = 80;

/// Which lanes visit each of the 9 sub-lattices in one sweep (see the module docs).
fn sweep_masks(rng: &mut Rng) -> [u64; 9] {
    let mut active = [0u64; 9];
    sublattice_masks(rng, &mut active);
    active
}

/// Which lanes visit each of `active.len()` (at most 64) sub-lattices in one sweep: each
/// lane independently (probability 1/256) runs a restricted sweep, visiting the one class
/// named by just enough random bits to count to `active.len()` (larger values visit none);
/// every other lane visits every class.
pub(crate) fn sublattice_masks(rng: &mut Rng, active: &mut [u64]) {
    let classes = active.len();
    debug_assert!((1..=64).contains(&classes));
    let mut restricted = !0u64;
    for _ in 0..8 {
        restricted &= rng.next_u64();
    }
    let nbits = (usize::BITS - classes.leading_zeros()) as usize;
    let mut bits = [0u64; 7];
    for b in &mut bits[..nbits] {
        *b = rng.next_u64();
    }
    for (k, a) in active.iter_mut().enumerate() {
        let chosen =
            bits[..nbits].iter().enumerate().fold(!0u64, |m, (b, &w)| m & if (k >> b) & 1 == 1 { w } else { !w });
        *a = !restricted | chosen;
    }
}

/// One sweep in row-major order: `update(cells, index, stride, random bits, active lanes, rng)`.
#[inline(always)]
fn sweep(grid: &mut LaneGrid, rng: &mut Rng, mut update: impl FnMut(&mut [Cell], usize, usize, u64, u64, &mut Rng)) {
    let masks = sweep_masks(rng);
    let (rows, cols, stride) = (grid.rows, grid.cols, grid.stride);
    for r in 0..rows {
        let row_masks = [masks[(r % 3) * 3], masks[(r % 3) * 3 + 1], masks[(r % 3) * 3 + 2]];
        let base = grid.index(r, 0);
        let mut k = 0;
        for i in base..base + cols {
            let bits = rng.next_u64();
            update(&mut grid.cells, i, stride, bits, row_masks[k], rng);
            k = if k == 2 { 0 } else { k + 1 };
        }
    }
}

/// 64 chains on FOX-free grids, uniform stationary law, started from all F.
pub(crate) struct FreeChain {
    pub grid: LaneGrid,
    rng: Rng,
}

impl FreeChain {
    pub fn new(rows: usize, cols: usize, rng: Rng) -> Self {
        FreeChain { grid: LaneGrid::all_f(rows, cols), rng }
    }

    pub fn sweep(&mut self) {
        sweep(&mut self.grid, &mut self.rng, |g, i, stride, bits, active, _| update_free(g, i, stride, bits, active));
    }
}

/// 64 chains on grids with at most one FOX; weight λ = 2^-`lambda_log2` on one-FOX grids.
/// Conditional on holding exactly one FOX, the stationary law is uniform over one-FOX grids;
/// conditional on holding none, uniform over FOX-free grids.
pub(crate) struct FoxChain {
    pub grid: LaneGrid,
    /// Lanes that currently hold exactly one FOX (the others hold none).
    pub has: u64,
    rng: Rng,
    coin: Coin,
}

impl FoxChain {
    pub fn new(rows: usize, cols: usize, lambda_log2: u32, rng: Rng) -> Self {
        let mut rng = rng;
        let coin = Coin::new(lambda_log2, &mut rng);
        FoxChain { grid: LaneGrid::all_f(rows, cols), has: 0, rng, coin }
    }

    pub fn sweep(&mut self) {
        let (has, coin) = (&mut self.has, &mut self.coin);
        sweep(&mut self.grid, &mut self.rng, |g, i, stride, bits, active, rng| {
            update_fox(g, i, stride, bits, active, has, &mut |need| coin.draw(need, rng))
        });
    }
}

/// Bernoulli(2^-k) decisions for chosen lanes, cheap enough to ask for on most updates.
///
/// The successes among a lane's successive trials are separated by geometric gaps, so each
/// lane keeps a bit-sliced countdown of the failures left before its next success: a trial
/// at a lane with a non-zero count fails and decrements it, one at zero succeeds and draws
/// the next gap. Gaps are drawn exactly from Bernoulli(2^-k) trials (AND of k random bits).
/// A gap too large for the counter is stored as the counter's maximum with a "dud" mark:
/// reaching zero then fails and draws afresh, which is exact because the geometric law is
/// memoryless.
pub(crate) struct Coin {
    k: u32,
    /// Counter bit-planes, least significant first.
    count: [u64; COUNT_BITS],
    dud: u64,
    /// Unexamined Bernoulli(2^-k) trials (low bits next) and how many remain.
    trials: u64,
    left: u32,
}

const COUNT_BITS: usize = 10;

impl Coin {
    pub(crate) fn new(k: u32, rng: &mut Rng) -> Self {
        let mut coin = Coin { k, count: [0; COUNT_BITS], dud: 0, trials: 0, left: 0 };
        if k > 0 {
            coin.redraw(!0, rng);
        }
        coin
    }

    /// Success bits for one trial in each lane of `need` (other lanes are not touched).
    #[inline]
    pub(crate) fn draw(&mut self, need: u64, rng: &mut Rng) -> u64 {
        if self.k == 0 {
            return need;
        }
        // Decrement the counters of all lanes in `need`; a borrow out of the top bit means
        // the counter was zero: that trial is the success (or a dud expiring), and the
        // wrapped counter is replaced by a fresh gap below.
        let mut borrow = need;
        for c in &mut self.count {
            *c ^= borrow;
            borrow &= *c;
        }
        let expire = borrow;
        let success = expire & !self.dud;
        if expire != 0 {
            self.redraw(expire, rng);
        }
        success
    }

    #[cold]
    fn redraw(&mut self, lanes: u64, rng: &mut Rng) {
        let mut rest = lanes;
        while rest != 0 {
            let lane = rest.trailing_zeros();
            rest &= rest - 1;
            let gap = self.gap(rng);
            let (value, dud) = match u64::try_from(gap) {
                Ok(g) if g < 1 << COUNT_BITS => (g, 0),
                _ => ((1 << COUNT_BITS) - 1, 1),
            };
            let bit = 1u64 << lane;
            for (j, c) in self.count.iter_mut().enumerate() {
                *c = (*c & !bit) | (((value >> j) & 1) << lane);
            }
            self.dud = (self.dud & !bit) | (dud << lane);
        }
    }

    /// Failures before the first success in fresh Bernoulli(2^-k) trials.
    fn gap(&mut self, rng: &mut Rng) -> u128 {
        let mut gap = 0u128;
        loop {
            if self.left == 0 {
                self.trials = (0..self.k).fold(!0, |t, _| t & rng.next_u64());
                self.left = 64;
            }
            if self.trials == 0 {
                gap += self.left as u128;
                self.left = 0;
                continue;
            }
            // Trials are consumed from the low end; bits above `left` are already zero.
            let z = self.trials.trailing_zeros();
            gap += z as u128;
            self.left -= z + 1;
            self.trials = self.trials.checked_shr(z + 1).unwrap_or(0);
            return gap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Success rate overall and right after a success (independence), within 5 sd.
    fn check_coin(k: u32, updates: u64, seed: u64) {
        let p = 0.5f64.powi(k as i32);
        let mut rng = Rng::from_u64(seed);
        let mut coin = Coin::new(k, &mut rng);
        let (mut hits, mut tries, mut after_hit, mut hit_after_hit) = (0u64, 0u64, 0u64, 0u64);
        let mut last = 0u64; // lanes whose latest trial succeeded
        for t in 0..updates {
            // Irregular subsets of lanes ask, as in the fox chain.
            let need = rng.next_u64() | (t.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7);
            let got = coin.draw(need, &mut rng);
            assert_eq!(got & !need, 0);
            hits += got.count_ones() as u64;
            tries += need.count_ones() as u64;
            after_hit += (need & last).count_ones() as u64;
            hit_after_hit += (got & last).count_ones() as u64;
            last = (last & !need) | got;
        }
        let rate = hits as f64 / tries as f64;
        let sd = (p * (1.0 - p) / tries as f64).sqrt();
        assert!((rate - p).abs() < 5.0 * sd, "k={k}: rate {rate}, n = {tries}");
        let cond = hit_after_hit as f64 / after_hit as f64;
        let sd = (p * (1.0 - p) / after_hit as f64).sqrt();
        assert!((cond - p).abs() < 5.0 * sd, "k={k}: rate after a success {cond}, n = {after_hit}");
    }

    #[test]
    fn coin_rates() {
        check_coin(3, 100_000, 9);
        check_coin(7, 100_000, 10);
        // Mean gap 4096 exceeds the counter, so this exercises the dud path.
        check_coin(12, 300_000, 11);
    }

    #[test]
    fn restricted_sweeps_are_rare_and_single_class() {
        let mut rng = Rng::from_u64(3);
        let (mut restricted, mut total) = (0u32, 0u32);
        for _ in 0..2000 {
            let m = sweep_masks(&mut rng);
            for lane in 0..64 {
                let n = m.iter().filter(|&&w| (w >> lane) & 1 == 1).count();
                assert!(n == 9 || n <= 1);
                restricted += (n != 9) as u32;
                total += 1;
            }
        }
        let p = restricted as f64 / total as f64;
        assert!((p - 1.0 / 256.0).abs() < 0.0008, "{p}");
    }
}

#[cfg(test)]
mod invariant_tests {
    use super::*;
    use crate::puzzles::foxbook::segments::count_fox;

    #[test]
    fn chains_keep_their_invariants() {
        for (rows, cols) in [(3, 3), (5, 9), (12, 7)] {
            let mut free = FreeChain::new(rows, cols, Rng::from_u64(1));
            let mut fox = FoxChain::new(rows, cols, 2, Rng::from_u64(2));
            for t in 0..60 {
                free.sweep();
                fox.sweep();
                if t % 10 != 9 {
                    continue;
                }
                for (lane, page) in free.grid.extract(!0).iter().enumerate() {
                    assert!(count_fox(page).is_empty(), "free lane {lane}");
                }
                for (lane, page) in fox.grid.extract(!0).iter().enumerate() {
                    let n = count_fox(page).len();
                    assert_eq!(n as u64, (fox.has >> lane) & 1, "fox lane {lane}");
                }
            }
            assert!(fox.has != 0 && fox.has != !0);
        }
    }
}
