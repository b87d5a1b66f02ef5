//! The single-site Metropolis update of one cell in all 64 lanes at once.
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

use super::lanes::Cell;

/// Which lanes would see one (`*1`) or at least two (`*2`) new FOX if `p` took a letter.
#[derive(Clone, Copy, Default)]
pub(crate) struct Threats {
    pub mid1: u64,
    pub mid2: u64,
    pub as_x1: u64,
    pub as_x2: u64,
    pub as_f1: u64,
    pub as_f2: u64,
}

/// Adds a segment's match mask to an "at least one" / "at least two" pair; the counting of
/// two is compiled out when `TWO` is false.
#[inline(always)]
fn add<const TWO: bool>(one: &mut u64, two: &mut u64, t: u64) {
    if TWO {
        *two |= *one & t;
    }
    *one |= t;
}

/// Reads a cell whose index `threats` has bounds-checked.
#[inline(always)]
fn at(g: &[Cell], i: usize) -> Cell {
    debug_assert!(i < g.len());
    // SAFETY: `threats` asserts that every index it reads lies within `g`.
    unsafe { *g.get_unchecked(i) }
}

/// The threat masks around cell `i` (`stride` = distance to the cell below).
#[inline(always)]
fn threats<const TWO: bool>(g: &[Cell], i: usize, stride: usize) -> Threats {
    // One check covers all 16 neighbours, which lie within 2 * (stride + 1) of `i` (always
    // true for cells inside the border; the per-read checks would cost ~10% of the update).
    let reach = 2 * (stride + 1);
    assert!(i >= reach && i + reach < g.len(), "cell {i} is not inside the border");
    let mut t = Threats::default();
    for d in [1, stride - 1, stride, stride + 1] {
        let (a1, a2, c1, c2) = (at(g, i - d), at(g, i - 2 * d), at(g, i + d), at(g, i + 2 * d));
        add::<TWO>(&mut t.mid1, &mut t.mid2, (a1.f & c1.x) | (a1.x & c1.f));
        add::<TWO>(&mut t.as_x1, &mut t.as_x2, a1.o & a2.f);
        add::<TWO>(&mut t.as_x1, &mut t.as_x2, c1.o & c2.f);
        add::<TWO>(&mut t.as_f1, &mut t.as_f2, a1.o & a2.x);
        add::<TWO>(&mut t.as_f1, &mut t.as_f2, c1.o & c2.x);
    }
    t
}

/// The proposed letter per lane: one step forward where `r` is 1, one step back where 0.
#[inline(always)]
fn propose(cur: Cell, r: u64) -> Cell {
    // Forward: X→F, F→O, O→X. Back: O→F, X→O, F→X.
    Cell { f: cur.o ^ (r & (cur.x ^ cur.o)), o: cur.x ^ (r & (cur.f ^ cur.x)), x: cur.f ^ (r & (cur.o ^ cur.f)) }
}

/// Lanes where letter `l` at the cell would take part in a FOX given threat masks.
#[inline(always)]
fn hits(l: Cell, mid: u64, as_x: u64, as_f: u64) -> u64 {
    (l.o & mid) | (l.x & as_x) | (l.f & as_f)
}

#[inline(always)]
fn select(acc: u64, old: Cell, new: Cell) -> Cell {
    Cell { f: old.f ^ (acc & (old.f ^ new.f)), o: old.o ^ (acc & (old.o ^ new.o)), x: old.x ^ (acc & (old.x ^ new.x)) }
}

/// FOX-free chain: target uniform on FOX-free grids, so a proposal is accepted exactly when
/// it completes no FOX. `active` masks lanes that update this cell in this sweep.
#[inline(always)]
pub(crate) fn update_free(g: &mut [Cell], i: usize, stride: usize, r: u64, active: u64) {
    let t = threats::<false>(g, i, stride);
    let cur = g[i];
    let new = propose(cur, r);
    let acc = active & !hits(new, t.mid1, t.as_x1, t.as_f1);
    g[i] = select(acc, cur, new);
}

/// At-most-one-FOX chain: target weight 1 on FOX-free grids and λ on grids with exactly one
/// FOX (zero otherwise). `has` marks lanes currently holding their one FOX. Moves that would
/// make a FOX-free lane hold one are accepted with probability λ; `coin(need)` returns, for
/// the lanes in `need`, fresh independent Bernoulli(λ) bits.
#[inline(always)]
pub(crate) fn update_fox(
    g: &mut [Cell],
    i: usize,
    stride: usize,
    r: u64,
    active: u64,
    has: &mut u64,
    coin: &mut impl FnMut(u64) -> u64,
) {
    let t = threats::<true>(g, i, stride);
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
    let acc = (allowed & !create) | coin_if(create, coin);
    g[i] = select(acc, cur, new);
    *has = (*has & !(acc & old & !new1)) | (acc & new1);
}

#[inline(always)]
fn coin_if(need: u64, coin: &mut impl FnMut(u64) -> u64) -> u64 {
    if need == 0 {
        0
    } else {
        coin(need) & need
    }
}
