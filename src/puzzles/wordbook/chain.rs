//! Markov chains over 64 independent word grids at once (one per lane): the FOX chains of
//! [`crate::puzzles::foxbook::chain`] generalised to any word, alphabet and shape.
//!
//! **Representation.** Each letter has a one-hot bit-plane per cell: bit `l` of plane `a` at
//! a cell is set when the cell reads `a` in lane `l`. Cells outside the shape and a border
//! `len - 1` cells wide are zero in every plane, so no run through them ever reads the word
//! and the update needs no bounds cases.
//!
//! **Stationarity.** A site update proposes, per lane, a letter uniform over the `K - 1`
//! other letters: a random offset `s` in `1..K` added to the letter's index mod `K`, drawn
//! from just enough random bits (at least one); a lane whose bits name no valid offset makes
//! a null move. The proposal is symmetric (offset `s` from `a` to `b`, `K - s` back, each
//! with the same probability), so Metropolis acceptance is the target weights' ratio, capped
//! at 1:
//! [`WordChain::free`] targets the uniform law on occurrence-free grids, and
//! [`WordChain::at_most_one`] weight 1 on occurrence-free grids and λ = 2^w on grids with
//! exactly one occurrence (zero otherwise); conditioned on the count, that is uniform over
//! one-occurrence grids. Which cells a sweep visits is chosen per lane independently of the
//! state, so every sweep preserves the target.
//!
//! **Laziness, for irreducibility and aperiodicity.** As for FOX: each lane independently
//! (probability 1/256) runs a *restricted* sweep over one of the `len²` sub-lattices
//! `(r mod len, c mod len)` or, for surplus random values, over none. Two distinct cells of
//! one sub-lattice differ by a non-zero multiple of `len` in a coordinate, further apart
//! than the `len - 1` a run spans, so they share no run: a cell's acceptance never depends on
//! another cell moving in the same restricted sweep (for the λ chain, an occurrence a held
//! cell removes or adds never involves the moving cell).
//! - Aperiodicity: a sweep that visits nothing has positive probability, so P(x, x) > 0.
//! - Irreducibility: two consecutive sweeps restricted to the same sub-lattice apply two
//!   steps to each of its cells and move no other cell. Two steps can keep a cell's letter
//!   (a rejected or null step, or a move and its reverse, which is allowed because the state
//!   before it was) or give it any allowed letter (directly, the other step rejected or
//!   null), so every single-cell change that stays in the state space is reachable while
//!   every other cell keeps its letter.
//! - Single-cell changes connect the space, through the all-`filler` grid, where `filler` is
//!   a letter that is neither the word's first nor its last letter (validation refuses
//!   alphabets without one). Turn the letter cells into `filler` one at a time in row-major
//!   order. When cell p changes, every letter cell before p is already `filler`. Take any run
//!   of `len` cells through p, along one of the four lines; order its cells so that the
//!   first comes first in row-major order (left, up, up-left or up-right of p). Its cells
//!   from the first up to p all come before p in row-major order or are p, so they all read
//!   `filler` now; in particular its first cell does. An occurrence read along the run
//!   either way has the word's first or last letter in that cell, so the run holds none.
//!   So no step creates an occurrence: every grid with at most one occurrence reaches the
//!   all-`filler` grid (which has none) through such grids, and, moves being reversible, every
//!   such grid reaches every other. (With the λ chain, "allowed" means accepted with
//!   positive probability: λ > 0 and 1/λ > 0.)
//!
//! Empirically, the tests compare the sampler's pages with exactly enumerated laws.

use super::page::{WordPage, NO_CELL};
use super::spec::{Plan, LINES};
use crate::puzzles::foxbook::chain::{sublattice_masks, Coin};
use crate::puzzles::foxbook::transpose64;
use crate::puzzles::rng::Rng;

/// Sweeps of burn-in before the first page is read from a chain, and between two pages read
/// from the same chain, for alphabets of three letters or more: FOX's budget, as the
/// integrated autocorrelation times measured for several words and shapes (see
/// `diagnostics`) stay below a fifth of the spacing.
pub const BURN_IN_SWEEPS: usize = 102;
pub const SPACING_SWEEPS: usize = 80;
/// The budget for chains that mix slower: two-letter alphabets (half the proposals are null
/// moves, and a forbidden word constrains more; measured times reach about 35 sweeps) and
/// words of two different letters on four letters (about 24 sweeps; on three letters the
/// time exceeds 1,000 sweeps, so validation refuses those).
pub const BURN_IN_SWEEPS_SLOW: usize = 250;
pub const SPACING_SWEEPS_SLOW: usize = 200;

/// (burn-in, spacing) in sweeps for a plan's chains.
pub fn mixing_budget(plan: &Plan) -> (usize, usize) {
    let pair = plan.word.len() == 2 && plan.word[0] != plan.word[1];
    if plan.letters.len() == 2 || (pair && plan.letters.len() < 5) {
        (BURN_IN_SWEEPS_SLOW, SPACING_SWEEPS_SLOW)
    } else {
        (BURN_IN_SWEEPS, SPACING_SWEEPS)
    }
}

/// One way a letter at the updated cell completes the word: the word (or its reverse) with
/// the cell at position `j` along one line. `letter` is the letter the cell needs; `offsets`
/// (the first `len - 1` used) index the planes of the other cells' needed letters, relative
/// to the cell's own index.
#[derive(Clone, Copy, Debug)]
struct Term {
    letter: usize,
    offsets: [isize; 7],
}

/// The terms of one letter: `terms[start..end]` all need `letter` at the updated cell.
#[derive(Clone, Copy, Debug)]
struct LetterTerms {
    letter: usize,
    start: usize,
    end: usize,
}

/// 64 grids of one shape over one alphabet, bit-sliced (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct LaneGrid {
    rows: usize,
    cols: usize,
    border: usize,
    stride: usize,
    /// Letters in the alphabet (planes).
    k: usize,
    /// Cells per plane, border included.
    plane: usize,
    /// Letter-major planes: `planes[a * plane + i]`.
    planes: Vec<u64>,
    /// Letter cells in row-major order: (plane index, sub-lattice class).
    sites: Vec<(usize, usize)>,
    /// (row, col) of each letter cell, in `sites` order.
    coords: Vec<(usize, usize)>,
    letters: Vec<u8>,
    /// Sorted by letter, and grouped in `groups`.
    terms: Vec<Term>,
    groups: Vec<LetterTerms>,
    /// Smallest and largest offset any term reads, for one bounds check per update.
    reach: (isize, isize),
}

impl LaneGrid {
    /// All lanes all `plan.filler`: a grid with no occurrence (see the module docs).
    fn new(plan: &Plan) -> Self {
        let (rows, cols, len) = (plan.mask.rows, plan.mask.cols, plan.word.len());
        let border = len - 1;
        let stride = cols + 2 * border;
        let plane = (rows + 2 * border) * stride;
        let k = plan.letters.len();
        let index = |r: usize, c: usize| (r + border) * stride + c + border;
        let filler = plan.letters.iter().position(|&l| l == plan.filler).expect("validated");
        let mut planes = vec![0u64; k * plane];
        let mut sites = Vec::new();
        let mut coords = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if plan.mask.cells[r * cols + c] {
                    planes[filler * plane + index(r, c)] = !0;
                    sites.push((index(r, c), (r % len) * len + c % len));
                    coords.push((r, c));
                }
            }
        }
        let word = plan.word_indices();
        let mut patterns = vec![word.clone()];
        if !plan.is_palindrome() {
            patterns.push(word.iter().rev().copied().collect());
        }
        let mut terms = Vec::new();
        for pattern in &patterns {
            for (dr, dc) in LINES {
                let d = dr * stride as isize + dc;
                for j in 0..len {
                    let mut offsets = [0isize; 7];
                    let others = (0..len).filter(|&m| m != j);
                    for (slot, m) in others.enumerate() {
                        offsets[slot] = (pattern[m] * plane) as isize + (m as isize - j as isize) * d;
                    }
                    terms.push(Term { letter: pattern[j], offsets });
                }
            }
        }
        terms.sort_by_key(|t| t.letter);
        let mut groups: Vec<LetterTerms> = Vec::new();
        for (i, t) in terms.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.letter == t.letter => g.end = i + 1,
                _ => groups.push(LetterTerms { letter: t.letter, start: i, end: i + 1 }),
            }
        }
        let used = terms.iter().flat_map(|t| t.offsets[..len - 1].iter().copied());
        let reach = used.fold((0, 0), |(lo, hi), o| (o.min(lo), o.max(hi)));
        LaneGrid {
            rows,
            cols,
            border,
            stride,
            k,
            plane,
            planes,
            sites,
            coords,
            letters: plan.letters.clone(),
            terms,
            groups,
            reach,
        }
    }

    /// The lanes where cell `(r, c)` reads letter `a` (index into the alphabet); zero off the
    /// page or outside the shape.
    pub fn lanes_reading(&self, a: usize, r: isize, c: isize) -> u64 {
        if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
            return 0;
        }
        self.planes[a * self.plane + (r as usize + self.border) * self.stride + c as usize + self.border]
    }

    /// Copies the grids of the lanes set in `lanes` out as pages, lowest lane first
    /// (transposing 64 cells x 64 lanes blocks, as the FOX grids do).
    pub fn extract(&self, lanes: u64) -> Vec<WordPage> {
        let count = lanes.count_ones() as usize;
        let mut pages = vec![vec![NO_CELL; self.rows * self.cols]; count];
        let mut block = [0u64; 64];
        for (start, chunk) in self.sites.chunks(64).enumerate().map(|(b, ch)| (b * 64, ch)) {
            for a in 0..self.k {
                for (k, slot) in block.iter_mut().enumerate() {
                    *slot = chunk.get(k).map_or(0, |&(i, _)| self.planes[a * self.plane + i]);
                }
                transpose64(&mut block);
                let mut rest = lanes;
                for page in &mut pages {
                    let lane = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let mut bits = block[lane];
                    while bits != 0 {
                        let (r, c) = self.coords[start + bits.trailing_zeros() as usize];
                        bits &= bits - 1;
                        page[r * self.cols + c] = self.letters[a];
                    }
                }
            }
        }
        pages.into_iter().map(|cells| WordPage::from_cells(self.rows, self.cols, cells).expect("sizes agree")).collect()
    }
}

/// Which lanes would see at least one (`one[a]`) or at least two (`two[a]`) occurrences
/// through the cell at plane index `p` if it read letter `a`.
#[inline(always)]
fn threats<const N: usize, const TWO: bool>(g: &LaneGrid, p: usize, one: &mut [u64; 8], two: &mut [u64; 8]) {
    let base = p as isize;
    assert!(
        base + g.reach.0 >= 0 && ((base + g.reach.1) as usize) < g.planes.len(),
        "cell {p} is not inside the border"
    );
    for group in &g.groups {
        let (mut acc1, mut acc2) = (0u64, 0u64);
        for t in &g.terms[group.start..group.end] {
            let mut m = !0u64;
            for &o in &t.offsets[..N - 1] {
                // SAFETY: every offset lies within `reach`, checked above.
                m &= unsafe { *g.planes.get_unchecked((base + o) as usize) };
            }
            if TWO {
                acc2 |= acc1 & m;
            }
            acc1 |= m;
        }
        one[group.letter] = acc1;
        two[group.letter] = acc2;
    }
}

/// The random bits a proposal needs per update, for an alphabet of `k` letters: enough to
/// count the `k - 1` offsets. With two letters one bit still decides between the flip and a
/// null move: always flipping would make unconstrained cells alternate from sweep to sweep.
const fn proposal_bits(k: usize) -> usize {
    let bits = (usize::BITS - (k - 2).leading_zeros()) as usize;
    if bits == 0 {
        1
    } else {
        bits
    }
}

/// The proposed letters (one-hot, per lane) and the lanes with a valid proposal.
#[inline(always)]
fn propose(cur: &[u64; 8], k: usize, bits: &[u64; 3], nbits: usize) -> ([u64; 8], u64) {
    let mut new = [0u64; 8];
    let mut valid = 0u64;
    for v in 0..k - 1 {
        let sel = bits[..nbits].iter().enumerate().fold(!0u64, |m, (b, &w)| m & if (v >> b) & 1 == 1 { w } else { !w });
        valid |= sel;
        let s = v + 1;
        for (a, n) in new[..k].iter_mut().enumerate() {
            // (a - s) mod k without a division.
            *n |= sel & cur[if a >= s { a - s } else { a + k - s }];
        }
    }
    (new, valid)
}

#[inline(always)]
fn hits(letters: &[u64; 8], threat: &[u64; 8], k: usize) -> u64 {
    letters[..k].iter().zip(&threat[..k]).fold(0, |h, (l, t)| h | (l & t))
}

/// 64 chains on one plan's grids: occurrence-free ([`WordChain::free`]) or with at most one
/// occurrence weighted λ ([`WordChain::at_most_one`]).
pub(crate) struct WordChain {
    pub grid: LaneGrid,
    len: usize,
    rng: Rng,
    /// Lanes that currently hold exactly one occurrence (the others hold none).
    pub has: u64,
    /// `Some((w, coin))` for the λ = 2^w chain: the coin decides, with probability 2^-|w|,
    /// moves that create (w < 0) or remove (w > 0) the occurrence.
    weight: Option<(i32, Coin)>,
}

impl WordChain {
    /// Uniform on occurrence-free grids, started from all `filler`.
    pub fn free(plan: &Plan, rng: Rng) -> Self {
        let grid = LaneGrid::new(plan);
        WordChain { grid, len: plan.word.len(), rng, has: 0, weight: None }
    }

    /// Weight 1 on occurrence-free grids and 2^`weight_log2` on one-occurrence grids.
    pub fn at_most_one(plan: &Plan, weight_log2: i32, rng: Rng) -> Self {
        let mut chain = WordChain::free(plan, rng);
        let coin = Coin::new(weight_log2.unsigned_abs(), &mut chain.rng);
        chain.weight = Some((weight_log2, coin));
        chain
    }

    pub fn sweep(&mut self) {
        match (self.len, self.weight.is_some()) {
            (2, false) => self.sweep_k::<2, false>(),
            (3, false) => self.sweep_k::<3, false>(),
            (4, false) => self.sweep_k::<4, false>(),
            (5, false) => self.sweep_k::<5, false>(),
            (6, false) => self.sweep_k::<6, false>(),
            (7, false) => self.sweep_k::<7, false>(),
            (8, false) => self.sweep_k::<8, false>(),
            (2, true) => self.sweep_k::<2, true>(),
            (3, true) => self.sweep_k::<3, true>(),
            (4, true) => self.sweep_k::<4, true>(),
            (5, true) => self.sweep_k::<5, true>(),
            (6, true) => self.sweep_k::<6, true>(),
            (7, true) => self.sweep_k::<7, true>(),
            (8, true) => self.sweep_k::<8, true>(),
            _ => unreachable!("validated word length"),
        }
    }

    /// The sweep compiled for this alphabet size, so the per-letter loops unroll.
    fn sweep_k<const N: usize, const ONE: bool>(&mut self) {
        match self.grid.k {
            2 => self.sweep_n::<N, 2, ONE>(),
            3 => self.sweep_n::<N, 3, ONE>(),
            4 => self.sweep_n::<N, 4, ONE>(),
            5 => self.sweep_n::<N, 5, ONE>(),
            6 => self.sweep_n::<N, 6, ONE>(),
            7 => self.sweep_n::<N, 7, ONE>(),
            8 => self.sweep_n::<N, 8, ONE>(),
            _ => unreachable!("validated alphabet size"),
        }
    }

    /// One sweep over the letter cells in row-major order.
    fn sweep_n<const N: usize, const K: usize, const ONE: bool>(&mut self) {
        let mut masks = [0u64; 64];
        sublattice_masks(&mut self.rng, &mut masks[..N * N]);
        let (k, nbits, plane) = (K, proposal_bits(K), self.grid.plane);
        let (grid, rng) = (&mut self.grid, &mut self.rng);
        let mut weight = self.weight.as_mut();
        let mut has = self.has;
        for s in 0..grid.sites.len() {
            let (p, class) = grid.sites[s];
            let mut bits = [0u64; 3];
            for b in &mut bits[..nbits] {
                *b = rng.next_u64();
            }
            let (mut one, mut two) = ([0u64; 8], [0u64; 8]);
            threats::<N, ONE>(grid, p, &mut one, &mut two);
            let mut cur = [0u64; 8];
            for (a, c) in cur[..k].iter_mut().enumerate() {
                *c = grid.planes[a * plane + p];
            }
            let (new, valid) = propose(&cur, k, &bits, nbits);
            let active = masks[class & 63] & valid;
            let new1 = hits(&new, &one, k);
            let acc = match weight.as_mut() {
                Some((w, coin)) if ONE => {
                    // A lane holds at most one occurrence, so "the current letter is in one"
                    // means it is in the lane's only one, which the move removes (the same
                    // cells cannot read the word the other way after one change: the word and
                    // its reverse differ in an even number of positions).
                    let old = hits(&cur, &one, k);
                    let new2 = hits(&new, &two, k);
                    // Count after the move = has - old + new; it must stay <= 1.
                    let allowed = active & !new2 & !(new1 & has & !old);
                    let gated = match (*w).cmp(&0) {
                        std::cmp::Ordering::Less => allowed & new1 & !has,
                        std::cmp::Ordering::Greater => allowed & old & !new1,
                        std::cmp::Ordering::Equal => 0,
                    };
                    let pass = if gated == 0 { 0 } else { coin.draw(gated, rng) & gated };
                    let acc = (allowed & !gated) | pass;
                    has = (has & !(acc & old & !new1)) | (acc & new1);
                    acc
                }
                _ => active & !new1,
            };
            for (a, (&c, &n)) in cur[..k].iter().zip(&new[..k]).enumerate() {
                grid.planes[a * plane + p] = c ^ (acc & (c ^ n));
            }
        }
        self.has = has;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::wordbook::page::occurrences;
    use crate::puzzles::wordbook::spec::{Shape, WordSpec};

    fn plan(word: &str, letters: &str, rows: u32, cols: u32, shape: Shape) -> Plan {
        WordSpec { word: word.into(), letters: Some(letters.into()), shape, pages: 1, rows, cols }.validate().unwrap()
    }

    #[test]
    fn proposals_are_uniform_over_the_other_letters() {
        for k in 2..=8 {
            let nbits = proposal_bits(k);
            let mut rng = Rng::from_u64(k as u64);
            let mut counts = vec![0usize; k];
            let (mut null, trials) = (0usize, 2000usize);
            for _ in 0..trials {
                let mut cur = [0u64; 8];
                cur[0] = !0;
                let mut bits = [0u64; 3];
                for b in &mut bits[..nbits] {
                    *b = rng.next_u64();
                }
                let (new, valid) = propose(&cur, k, &bits, nbits);
                null += (!valid).count_ones() as usize;
                for (a, n) in new[..k].iter().enumerate() {
                    assert_eq!(n & !valid, 0);
                    counts[a] += n.count_ones() as usize;
                }
            }
            assert_eq!(counts[0], 0, "k = {k}");
            let moves: usize = counts.iter().sum();
            assert_eq!(moves + null, trials * 64);
            let expect = moves as f64 / (k - 1) as f64;
            for &c in &counts[1..] {
                assert!((c as f64 - expect).abs() < 5.0 * expect.sqrt(), "k = {k}: {counts:?}");
            }
        }
    }

    #[test]
    fn chains_keep_their_invariants() {
        let star = plan("CAT", "CAT", 12, 12, Shape::Star);
        for p in [
            plan("CAT", "CAT", 5, 9, Shape::Rectangle),
            plan("DAD", "AD", 7, 6, Shape::Rectangle),
            plan("NOON", "NO", 8, 8, Shape::Rectangle),
            plan("FOX", "FOXZ", 6, 7, Shape::Rectangle),
            plan("ZEBRA", "ZEBRAQ", 9, 9, Shape::Heart),
            star,
        ] {
            let mut free = WordChain::free(&p, Rng::from_u64(1));
            let mut one = WordChain::at_most_one(&p, crate::puzzles::wordbook::weight_log2(&p), Rng::from_u64(2));
            for t in 0..60 {
                free.sweep();
                one.sweep();
                if t % 10 != 9 {
                    continue;
                }
                for (lane, page) in free.grid.extract(!0).iter().enumerate() {
                    assert!(page.fits(&p.mask, &p.letters));
                    assert!(occurrences(page, &p.word).is_empty(), "free lane {lane}");
                }
                for (lane, page) in one.grid.extract(!0).iter().enumerate() {
                    assert!(page.fits(&p.mask, &p.letters));
                    assert_eq!(occurrences(page, &p.word).len() as u64, (one.has >> lane) & 1, "lane {lane}");
                }
            }
            assert!(one.has != 0, "{:?}", p.word);
        }
    }
}
