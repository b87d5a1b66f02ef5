//! The single-site Metropolis update of one cell in all lanes at once.
//!
//! Proposal: each lane moves its letter one step forward (F→O→X→F) or back, by one random
//! bit; both proposals are symmetric (each of the two other letters with probability 1/2),
//! so Metropolis acceptance is just "accept unless the target weight is lower/zero".
//!
//! Whether a new letter at cell `p` completes FOX depends only on the 16 cells within two
//! steps of `p` along the four lines through it. We compute, once per update, which letter
//! would complete a FOX in which lane:
//! - `mid`: `p` = O would sit between an F and an X (4 segments, `p` in the middle);
//! - `as_x`: `p` = X would end an X-O-F (8 segments with `p` at an end: neighbour O, far F);
//! - `as_f`: `p` = F would end an F-O-X (same 8 segments: neighbour O, far X).

use super::chain::Trials;
use super::lanes::{Cell, Lanes};
use crate::puzzles::rng::Rng;

/// Which lanes would see one (`*1`) or at least two (`*2`) new FOX if `p` took a letter.
#[derive(Clone, Copy, Default)]
pub(crate) struct Threats<const W: usize> {
    pub mid1: Lanes<W>,
    pub mid2: Lanes<W>,
    pub as_x1: Lanes<W>,
    pub as_x2: Lanes<W>,
    pub as_f1: Lanes<W>,
    pub as_f2: Lanes<W>,
}

/// Adds a segment's match mask to an "at least one" / "at least two" pair; the counting of
/// two is compiled out when `TWO` is false.
#[inline(always)]
fn add<const W: usize, const TWO: bool>(one: &mut Lanes<W>, two: &mut Lanes<W>, t: Lanes<W>) {
    if TWO {
        *two = *two | (*one & t);
    }
    *one = *one | t;
}

/// Reads a cell whose index `threats` has bounds-checked.
#[inline(always)]
fn at<const W: usize>(g: &[Cell<W>], i: usize) -> Cell<W> {
    debug_assert!(i < g.len());
    // SAFETY: `threats` asserts that every index it reads lies within `g`.
    unsafe { *g.get_unchecked(i) }
}

/// The threat masks around cell `i` (`stride` = distance to the cell below).
#[inline(always)]
fn threats<const W: usize, const TWO: bool>(g: &[Cell<W>], i: usize, stride: usize) -> Threats<W> {
    // One check covers all 16 neighbours, which lie within 2 * (stride + 1) of `i` (always
    // true for cells inside the border; the per-read checks would cost ~10% of the update).
    let reach = 2 * (stride + 1);
    assert!(i >= reach && i + reach < g.len(), "cell {i} is not inside the border");
    let mut t = Threats::default();
    for d in [1, stride - 1, stride, stride + 1] {
        let (a1, a2, c1, c2) = (at(g, i - d), at(g, i - 2 * d), at(g, i + d), at(g, i + 2 * d));
        add::<W, TWO>(&mut t.mid1, &mut t.mid2, (a1.f & c1.x) | (a1.x & c1.f));
        add::<W, TWO>(&mut t.as_x1, &mut t.as_x2, a1.o & a2.f);
        add::<W, TWO>(&mut t.as_x1, &mut t.as_x2, c1.o & c2.f);
        add::<W, TWO>(&mut t.as_f1, &mut t.as_f2, a1.o & a2.x);
        add::<W, TWO>(&mut t.as_f1, &mut t.as_f2, c1.o & c2.x);
    }
    t
}

/// The proposed letter per lane: one step forward where `r` is 1, one step back where 0.
#[inline(always)]
fn propose<const W: usize>(cur: Cell<W>, r: Lanes<W>) -> Cell<W> {
    // Forward: X→F, F→O, O→X. Back: O→F, X→O, F→X.
    Cell { f: cur.o ^ (r & (cur.x ^ cur.o)), o: cur.x ^ (r & (cur.f ^ cur.x)), x: cur.f ^ (r & (cur.o ^ cur.f)) }
}

/// Lanes where letter `l` at the cell would take part in a FOX given threat masks.
#[inline(always)]
fn hits<const W: usize>(l: Cell<W>, mid: Lanes<W>, as_x: Lanes<W>, as_f: Lanes<W>) -> Lanes<W> {
    (l.o & mid) | (l.x & as_x) | (l.f & as_f)
}

#[inline(always)]
fn select<const W: usize>(acc: Lanes<W>, old: Cell<W>, new: Cell<W>) -> Cell<W> {
    Cell { f: old.f ^ (acc & (old.f ^ new.f)), o: old.o ^ (acc & (old.o ^ new.o)), x: old.x ^ (acc & (old.x ^ new.x)) }
}

/// FOX-free chain: target uniform on FOX-free grids, so a proposal is accepted exactly when
/// it completes no FOX. `active` masks lanes that update this cell in this sweep.
#[inline(always)]
pub(crate) fn update_free<const W: usize>(g: &mut [Cell<W>], i: usize, stride: usize, r: Lanes<W>, active: Lanes<W>) {
    let t = threats::<W, false>(g, i, stride);
    let cur = g[i];
    let new = propose(cur, r);
    let acc = active & !hits(new, t.mid1, t.as_x1, t.as_f1);
    g[i] = select(acc, cur, new);
}

/// At-most-one-FOX chain: target weight 1 on FOX-free grids and λ on grids with exactly one
/// FOX (zero otherwise). `has` marks lanes currently holding their one FOX. Moves that would
/// make a FOX-free lane hold one are accepted with probability λ, as `coin` decides.
///
/// A FOX-free lane whose `has` bit is set (and stays set: no FOX is ever removed from it, as
/// it holds none) is updated exactly as by [`update_free`]: `old` is empty, so a proposal is
/// allowed unless it completes a FOX, and no coin is asked.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_fox<const W: usize>(
    g: &mut [Cell<W>],
    i: usize,
    stride: usize,
    r: Lanes<W>,
    active: Lanes<W>,
    has: &mut Lanes<W>,
    coin: &mut impl Trials<W>,
    rng: &mut Rng,
) {
    let t = threats::<W, true>(g, i, stride);
    let cur = g[i];
    let new = propose(cur, r);
    // A lane holds at most one FOX, so "the current letter is in one" means it is in the
    // lane's only FOX, which the move removes.
    let old = hits(cur, t.mid1, t.as_x1, t.as_f1);
    let new1 = hits(new, t.mid1, t.as_x1, t.as_f1);
    let new2 = hits(new, t.mid2, t.as_x2, t.as_f2);
    // FOX count after the move = has - old + (new FOX through p); it must stay <= 1.
    let allowed = active & !new2 & !(new1 & *has & !old);
    let create = allowed & new1 & !*has;
    // Asking the coin for no lanes changes nothing, so it need not be skipped then.
    let acc = (allowed & !create) | (coin.decide(create, rng) & create);
    g[i] = select(acc, cur, new);
    *has = (*has & !(acc & old & !new1)) | (acc & new1);
}
