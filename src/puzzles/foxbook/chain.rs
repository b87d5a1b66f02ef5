//! Markov chains over 64 independent grids per machine word at once (one per lane).
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
//! **Several words, two kinds of lanes.** A [`Chain`] of `W` words runs `64 * W` lanes; every
//! step above acts on each lane through that lane's own random bits only (its letters, its
//! proposal bit, its sub-lattice choice, and fresh Bernoulli(λ) trials, each trial used by
//! one lane once, whether a [`Coin`] counts down per lane or a [`StreamCoin`] for all), so
//! lanes are independent chains whatever `W`, and each lane's law is exactly that of a lane
//! of a one-word chain of its kind: the mixing figures of `diagnostics` hold for every lane.
//! A FOX-free lane inside a chain with at-most-one-FOX lanes runs the at-most-one-FOX update
//! with its `has` bit pinned to 1, which is step for step the FOX-free update (see
//! [`update_fox`]): both arguments above hold for it unchanged.
//!
//! Empirically, the 3x3 tests compare both kinds' output with the exact uniform laws.

use super::kernel::{update_fox, update_free};
use super::lanes::{Cell, LaneGrid, Lanes};
use crate::puzzles::rng::Rng;

/// Sweeps of burn-in before the first page is read from a chain: at least 100 sweeps' worth
/// of proposals per cell even after the 0.35% lost to restricted sweeps.
pub const BURN_IN_SWEEPS: usize = 102;
/// Sweeps between two pages read from the same chain: at least 78 sweeps' worth of
/// proposals, and more than five times the largest integrated autocorrelation time
/// measured (about 10.5 sweeps; see `diagnostics`).
pub const SPACING_SWEEPS: usize = 80;

/// Which lanes visit each of the 9 sub-lattices in one sweep (see the module docs), word by
/// word.
fn sweep_masks<const W: usize>(rng: &mut Rng) -> [Lanes<W>; 9] {
    let mut masks = [Lanes::ZERO; 9];
    for w in 0..W {
        let mut active = [0u64; 9];
        sublattice_masks(rng, &mut active);
        for (m, a) in masks.iter_mut().zip(active) {
            m.0[w] = a;
        }
    }
    masks
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

/// `64 * W` independent chains: lanes in `free` on FOX-free grids (uniform stationary law),
/// the others on grids with at most one FOX, weight λ = 2^-k on one-FOX grids (conditional
/// on holding exactly one FOX, uniform over one-FOX grids; on none, uniform over FOX-free
/// grids). All start from all F.
///
/// A free lane runs the at-most-one-FOX update with its `has` bit pinned to 1, which is
/// exactly the FOX-free update (see [`update_fox`]), so one sweep serves both kinds.
pub(crate) struct Chain<const W: usize, C> {
    pub grid: LaneGrid<W>,
    /// Lanes that hold exactly one FOX, and the free lanes (pinned to 1).
    has: Lanes<W>,
    /// The FOX-free lanes.
    free: Lanes<W>,
    rng: Rng,
    /// Decides the moves that would make a FOX-free at-most-one-FOX lane hold one.
    coin: C,
}

/// A chain as version 1 books ran them: one word, a countdown [`Coin`] per lane.
pub(crate) type OneWord = Chain<1, Coin<1>>;
/// Version 2's chain: four words, one [`StreamCoin`].
pub(crate) type FourWords = Chain<4, StreamCoin>;

impl<const W: usize> Chain<W, Coin<W>> {
    /// Chains whose lanes in `free` are FOX-free and the others at-most-one-FOX with
    /// λ = 2^-`lambda_log2`, deciding by per-lane countdowns. The at-most-one-FOX lanes draw
    /// their coin's first gaps here (lowest word and lane first).
    pub fn new(rows: usize, cols: usize, lambda_log2: u32, free: Lanes<W>, rng: Rng) -> Self {
        let mut rng = rng;
        let coin = Coin::for_lanes(lambda_log2, !free, &mut rng);
        Self::with_coin(rows, cols, free, coin, rng)
    }

    /// Only FOX-free lanes.
    pub fn free(rows: usize, cols: usize, rng: Rng) -> Self {
        Self::new(rows, cols, 0, Lanes::ONES, rng)
    }

    /// Only at-most-one-FOX lanes.
    pub fn fox(rows: usize, cols: usize, lambda_log2: u32, rng: Rng) -> Self {
        Self::new(rows, cols, lambda_log2, Lanes::ZERO, rng)
    }
}

impl<const W: usize> Chain<W, StreamCoin> {
    /// As [`Chain::new`], deciding by one [`StreamCoin`] (which draws its first gap here).
    pub fn streamed(rows: usize, cols: usize, lambda_log2: u32, free: Lanes<W>, rng: Rng) -> Self {
        let mut rng = rng;
        let coin = StreamCoin::new(lambda_log2, &mut rng);
        Self::with_coin(rows, cols, free, coin, rng)
    }
}

impl<const W: usize, C: Trials<W>> Chain<W, C> {
    fn with_coin(rows: usize, cols: usize, free: Lanes<W>, coin: C, rng: Rng) -> Self {
        Chain { grid: LaneGrid::all_f(rows, cols), has: free, free, rng, coin }
    }

    /// Lanes holding exactly one FOX.
    pub fn has(&self) -> Lanes<W> {
        self.has & !self.free
    }

    /// Lanes holding no FOX.
    pub fn fox_free(&self) -> Lanes<W> {
        !self.has()
    }

    pub fn sweep(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if W > 1 && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.sweep_avx2() };
        }
        self.sweep_portable()
    }

    /// [`Chain::sweep`] compiled for AVX2 (256-bit registers hold four words).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn sweep_avx2(&mut self) {
        self.sweep_inline()
    }

    /// [`Chain::sweep`] for any CPU: the same code as [`Chain::sweep_avx2`], so the same bytes.
    pub(crate) fn sweep_portable(&mut self) {
        self.sweep_inline()
    }

    #[inline(always)]
    fn sweep_inline(&mut self) {
        if self.free == Lanes::ONES {
            sweep(&mut self.grid, &mut self.rng, &mut FreeUpdate);
        } else {
            sweep(&mut self.grid, &mut self.rng, &mut FoxUpdate { has: &mut self.has, coin: &mut self.coin });
        }
    }
}

/// How a sweep updates one cell in all lanes.
trait Update<const W: usize> {
    /// Updates cell `i` (`stride` = distance to the cell below) with one random word per word
    /// of lanes, in the `active` lanes.
    fn update(&mut self, g: &mut [Cell<W>], i: usize, stride: usize, bits: Lanes<W>, active: Lanes<W>, rng: &mut Rng);
}

struct FreeUpdate;

impl<const W: usize> Update<W> for FreeUpdate {
    #[inline(always)]
    fn update(&mut self, g: &mut [Cell<W>], i: usize, stride: usize, bits: Lanes<W>, active: Lanes<W>, _: &mut Rng) {
        update_free(g, i, stride, bits, active)
    }
}

struct FoxUpdate<'a, const W: usize, C> {
    has: &'a mut Lanes<W>,
    coin: &'a mut C,
}

impl<const W: usize, C: Trials<W>> Update<W> for FoxUpdate<'_, W, C> {
    #[inline(always)]
    fn update(&mut self, g: &mut [Cell<W>], i: usize, stride: usize, bits: Lanes<W>, active: Lanes<W>, rng: &mut Rng) {
        update_fox(g, i, stride, bits, active, self.has, self.coin, rng)
    }
}

/// One sweep in row-major order: `update(cells, index, stride, random bits, active lanes,
/// rng)`. The random bits are one word per word of lanes, in word order.
#[inline(always)]
fn sweep<const W: usize>(grid: &mut LaneGrid<W>, rng: &mut Rng, update: &mut impl Update<W>) {
    let masks = sweep_masks::<W>(rng);
    let (rows, cols, stride) = (grid.rows, grid.cols, grid.stride);
    for r in 0..rows {
        let row_masks = [masks[(r % 3) * 3], masks[(r % 3) * 3 + 1], masks[(r % 3) * 3 + 2]];
        let base = grid.index(r, 0);
        let mut k = 0;
        for i in base..base + cols {
            let bits = Lanes(std::array::from_fn(|_| rng.next_u64()));
            update.update(&mut grid.cells, i, stride, bits, row_masks[k], rng);
            k = if k == 2 { 0 } else { k + 1 };
        }
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
/// Fresh independent Bernoulli(λ) bits for the lanes that ask, one trial per asking lane
/// (asking for no lanes changes nothing).
pub(crate) trait Trials<const W: usize> {
    fn decide(&mut self, need: Lanes<W>, rng: &mut Rng) -> Lanes<W>;
}

pub(crate) struct Coin<const W: usize = 1> {
    k: u32,
    /// Counter bit-planes, least significant first.
    count: [Lanes<W>; COUNT_BITS],
    dud: Lanes<W>,
    gaps: Gaps,
}

const COUNT_BITS: usize = 10;

impl Coin<1> {
    /// A coin for all 64 lanes of one word.
    pub(crate) fn new(k: u32, rng: &mut Rng) -> Self {
        Self::for_lanes(k, Lanes::ONES, rng)
    }

    /// Success bits for one trial in each lane of `need` (other lanes are not touched).
    #[inline]
    pub(crate) fn draw(&mut self, need: u64, rng: &mut Rng) -> u64 {
        self.draw_lanes(Lanes([need]), rng).0[0]
    }
}

impl<const W: usize> Coin<W> {
    /// A coin whose `lanes` draw their first gaps now (lowest word and lane first); other
    /// lanes must never ask.
    pub(crate) fn for_lanes(k: u32, lanes: Lanes<W>, rng: &mut Rng) -> Self {
        let mut coin = Coin { k, count: [Lanes::ZERO; COUNT_BITS], dud: Lanes::ZERO, gaps: Gaps::default() };
        if k > 0 {
            coin.redraw(lanes, rng);
        }
        coin
    }

    /// Success bits for one trial in each lane of `need` (other lanes are not touched;
    /// asking for none changes nothing).
    #[inline(always)]
    pub(crate) fn draw_lanes(&mut self, need: Lanes<W>, rng: &mut Rng) -> Lanes<W> {
        if self.k == 0 {
            return need;
        }
        // Decrement the counters of all lanes in `need`; a borrow out of the top bit means
        // the counter was zero: that trial is the success (or a dud expiring), and the
        // wrapped counter is replaced by a fresh gap below.
        let mut borrow = need;
        for c in &mut self.count {
            *c = *c ^ borrow;
            borrow = borrow & *c;
        }
        let expire = borrow;
        let success = expire & !self.dud;
        if expire.any() {
            self.redraw(expire, rng);
        }
        success
    }

    #[cold]
    fn redraw(&mut self, lanes: Lanes<W>, rng: &mut Rng) {
        for w in 0..W {
            let mut rest = lanes.0[w];
            while rest != 0 {
                let lane = rest.trailing_zeros();
                rest &= rest - 1;
                let gap = self.gaps.next(self.k, rng);
                let (value, dud) = match u64::try_from(gap) {
                    Ok(g) if g < 1 << COUNT_BITS => (g, 0),
                    _ => ((1 << COUNT_BITS) - 1, 1),
                };
                let bit = 1u64 << lane;
                for (j, c) in self.count.iter_mut().enumerate() {
                    c.0[w] = (c.0[w] & !bit) | (((value >> j) & 1) << lane);
                }
                self.dud.0[w] = (self.dud.0[w] & !bit) | (dud << lane);
            }
        }
    }
}

impl<const W: usize> Trials<W> for Coin<W> {
    #[inline(always)]
    fn decide(&mut self, need: Lanes<W>, rng: &mut Rng) -> Lanes<W> {
        self.draw_lanes(need, rng)
    }
}

/// Geometric gaps drawn exactly from Bernoulli(2^-k) trials, each the AND of k random bits.
#[derive(Default)]
struct Gaps {
    /// Unexamined trials (low bits next) and how many remain.
    trials: u64,
    left: u32,
}

impl Gaps {
    /// Failures before the first success in fresh Bernoulli(2^-k) trials.
    fn next(&mut self, k: u32, rng: &mut Rng) -> u128 {
        let mut gap = 0u128;
        loop {
            if self.left == 0 {
                self.trials = (0..k).fold(!0, |t, _| t & rng.next_u64());
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

/// Bernoulli(2^-k) decisions as [`Coin`] makes them, for one countdown shared by all lanes:
/// the trials asked for are taken as one stream, in sweep order and, within an update, lowest
/// word and lane first, and the coin counts down the failures left before the stream's next
/// success. The trials of a stream of independent Bernoulli(λ) trials are independent
/// Bernoulli(λ) whatever rule (depending only on the past) assigns them to lanes, so each
/// asking lane still gets a fresh independent trial. An update whose lanes all fail (almost
/// every one, as λ is small) costs a population count and a subtraction.
pub(crate) struct StreamCoin {
    k: u32,
    /// Failures left before the next success.
    gap: u128,
    gaps: Gaps,
}

impl StreamCoin {
    /// A coin for λ = 2^-k that draws its first gap now.
    pub(crate) fn new(k: u32, rng: &mut Rng) -> Self {
        let mut gaps = Gaps::default();
        let gap = if k > 0 { gaps.next(k, rng) } else { 0 };
        StreamCoin { k, gap, gaps }
    }
}

impl<const W: usize> Trials<W> for StreamCoin {
    #[inline(always)]
    fn decide(&mut self, need: Lanes<W>, rng: &mut Rng) -> Lanes<W> {
        if self.k == 0 {
            return need;
        }
        let asked = need.0.iter().map(|w| w.count_ones()).sum::<u32>() as u128;
        if asked <= self.gap {
            self.gap -= asked;
            return Lanes::ZERO;
        }
        self.successes(need, rng)
    }
}

impl StreamCoin {
    /// The lanes of `need` whose trials succeed, when at least one does.
    #[cold]
    fn successes<const W: usize>(&mut self, need: Lanes<W>, rng: &mut Rng) -> Lanes<W> {
        let mut won = Lanes::ZERO;
        for (w, out) in won.0.iter_mut().enumerate() {
            let mut rest = need.0[w];
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                if self.gap == 0 {
                    *out |= bit;
                    self.gap = self.gaps.next(self.k, rng);
                } else {
                    self.gap -= 1;
                }
            }
        }
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Success rate overall and right after a success (independence), within 5 sd.
    fn check_coin(k: u32, updates: u64, seed: u64) {
        let mut rng = Rng::from_u64(seed);
        let mut coin = Coin::new(k, &mut rng);
        check_trials(k, updates, rng, |need, rng| coin.draw(need, rng));
        let mut rng = Rng::from_u64(seed);
        let mut coin = StreamCoin::new(k, &mut rng);
        check_trials(k, updates, rng, |need, rng| coin.decide(Lanes([need]), rng).0[0]);
    }

    fn check_trials(k: u32, updates: u64, mut rng: Rng, mut draw: impl FnMut(u64, &mut Rng) -> u64) {
        let p = 0.5f64.powi(k as i32);
        let (mut hits, mut tries, mut after_hit, mut hit_after_hit) = (0u64, 0u64, 0u64, 0u64);
        let mut last = 0u64; // lanes whose latest trial succeeded
        for t in 0..updates {
            // Irregular subsets of lanes ask, as in the fox chain.
            let need = rng.next_u64() | (t.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7);
            let got = draw(need, &mut rng);
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
            let m = sweep_masks::<1>(&mut rng).map(|l| l.0[0]);
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
            let mut free = OneWord::free(rows, cols, Rng::from_u64(1));
            let mut fox = OneWord::fox(rows, cols, 2, Rng::from_u64(2));
            let mut mixed =
                FourWords::streamed(rows, cols, 2, Lanes([!0, 0, !0, 0xFFFF_0000_FFFF_0000]), Rng::from_u64(3));
            for t in 0..60 {
                free.sweep();
                fox.sweep();
                mixed.sweep();
                if t % 10 != 9 {
                    continue;
                }
                for (lane, page) in free.grid.extract(0, !0).iter().enumerate() {
                    assert!(count_fox(page).is_empty(), "free lane {lane}");
                }
                for (lane, page) in fox.grid.extract(0, !0).iter().enumerate() {
                    let n = count_fox(page).len();
                    assert_eq!(n as u64, (fox.has().0[0] >> lane) & 1, "fox lane {lane}");
                }
                for w in 0..4 {
                    for (lane, page) in mixed.grid.extract(w, !0).iter().enumerate() {
                        let n = count_fox(page).len() as u64;
                        assert_eq!(n, (mixed.has().0[w] >> lane) & 1, "word {w} lane {lane}");
                        assert!(n == 0 || (mixed.free.0[w] >> lane) & 1 == 0, "free lane {w}/{lane}");
                    }
                }
            }
            assert!(fox.has().0[0] != 0 && fox.has().0[0] != !0);
            assert!(mixed.has().0[1] != 0 && mixed.has().0[3] != 0 && mixed.has() & mixed.free == Lanes::ZERO);
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod avx2_tests {
    use super::*;

    /// The AVX2 build of a sweep and the portable one give the same chains, bit for bit.
    #[test]
    fn avx2_and_portable_sweeps_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2 on this CPU: only the portable sweep can run");
            return;
        }
        for (rows, cols, k) in [(3, 3, 0), (9, 14, 3), (32, 20, 7)] {
            let free = Lanes([0, !0, !0, !0]);
            let mut a = FourWords::streamed(rows, cols, k, free, Rng::from_u64(8));
            let mut b = FourWords::streamed(rows, cols, k, free, Rng::from_u64(8));
            let mut c = Chain::<4, Coin<4>>::new(rows, cols, k, Lanes([!0, 0, 0, !0]), Rng::from_u64(9));
            let mut d = Chain::<4, Coin<4>>::new(rows, cols, k, Lanes([!0, 0, 0, !0]), Rng::from_u64(9));
            for _ in 0..30 {
                // SAFETY: AVX2 was detected above.
                unsafe {
                    a.sweep_avx2();
                    c.sweep_avx2();
                }
                b.sweep_portable();
                d.sweep_portable();
            }
            assert!(a.grid.cells == b.grid.cells && a.has() == b.has(), "{rows}x{cols}");
            assert!(c.grid.cells == d.grid.cells && c.has() == d.has(), "{rows}x{cols} countdown coins");
            assert!(a.has().any(), "some lane holds a FOX");
        }
    }
}
