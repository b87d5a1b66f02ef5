//! Grids bit-sliced into the lanes of machine words: `W` words of 64 lanes, one grid per lane.
//!
//! Every cell holds three one-hot bit-planes (`f`, `o`, `x`): bit `l` of word `w` of `o` is
//! set when the cell reads O in lane `l` of word `w`. A border two cells wide is all zero
//! ("no letter"), so every segment touching it can never read FOX and the update kernel
//! needs no bounds cases.

use super::page::Page;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// Width of the empty border around the grid (a segment reaches two cells from its centre).
pub(crate) const BORDER: usize = 2;

/// One bit per lane in `W` words: the kernel's unit of work. Its operators act word by word,
/// so the compiler may use vector registers of any width for them (aligned to 32 bytes so
/// that four words load as one 256-bit register).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub(crate) struct Lanes<const W: usize>(pub [u64; W]);

impl<const W: usize> Lanes<W> {
    pub const ZERO: Self = Lanes([0; W]);
    pub const ONES: Self = Lanes([!0; W]);

    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) != 0
    }
}

impl<const W: usize> Default for Lanes<W> {
    fn default() -> Self {
        Self::ZERO
    }
}

macro_rules! lanewise {
    ($tr:ident, $f:ident, $op_assign:tt) => {
        impl<const W: usize> $tr for Lanes<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o $op_assign r;
                }
                Lanes(out)
            }
        }
    };
}
lanewise!(BitAnd, bitand, &=);
lanewise!(BitOr, bitor, |=);
lanewise!(BitXor, bitxor, ^=);

impl<const W: usize> Not for Lanes<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Lanes(self.0.map(|w| !w))
    }
}

/// One cell in all lanes; exactly one of `f`, `o`, `x` is set per lane inside the grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cell<const W: usize> {
    pub f: Lanes<W>,
    pub o: Lanes<W>,
    pub x: Lanes<W>,
}

/// `64 * W` grids of `rows` x `cols` letters, one per lane.
#[derive(Clone, Debug)]
pub(crate) struct LaneGrid<const W: usize> {
    pub rows: usize,
    pub cols: usize,
    /// Distance between vertically adjacent cells in `cells`.
    pub stride: usize,
    pub cells: Vec<Cell<W>>,
}

impl<const W: usize> LaneGrid<W> {
    /// All lanes all F: a valid (FOX-free) start for every chain.
    pub fn all_f(rows: usize, cols: usize) -> Self {
        let stride = cols + 2 * BORDER;
        let mut cells = vec![Cell::default(); (rows + 2 * BORDER) * stride];
        for r in 0..rows {
            let base = (r + BORDER) * stride + BORDER;
            for cell in &mut cells[base..base + cols] {
                cell.f = Lanes::ONES;
            }
        }
        LaneGrid { rows, cols, stride, cells }
    }

    /// Index of grid cell `(r, c)` (0-based) in `cells`.
    #[inline]
    pub fn index(&self, r: usize, c: usize) -> usize {
        (r + BORDER) * self.stride + c + BORDER
    }

    /// Copies the grids of the lanes set in `lanes` of word `word` out as pages, lowest lane
    /// first.
    ///
    /// Transposes 64 x 64 bit blocks (64 cells x 64 lanes) so each page gets whole words of
    /// its bit-planes at once instead of one bit per cell.
    pub fn extract(&self, word: usize, lanes: u64) -> Vec<Page> {
        let n = self.rows * self.cols;
        let words = n.div_ceil(64);
        let count = lanes.count_ones() as usize;
        let mut o_planes = vec![vec![0u64; words]; count];
        let mut x_planes = vec![vec![0u64; words]; count];
        let mut o_block = [0u64; 64];
        let mut x_block = [0u64; 64];
        for w in 0..words {
            for k in 0..64 {
                let i = w * 64 + k;
                let cell = if i < n { self.cells[self.index(i / self.cols, i % self.cols)] } else { Cell::default() };
                o_block[k] = cell.o.0[word];
                x_block[k] = cell.x.0[word];
            }
            transpose64(&mut o_block);
            transpose64(&mut x_block);
            let mut rest = lanes;
            let mut slot = 0;
            while rest != 0 {
                let lane = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                o_planes[slot][w] = o_block[lane];
                x_planes[slot][w] = x_block[lane];
                slot += 1;
            }
        }
        o_planes.into_iter().zip(x_planes).map(|(o, x)| Page::from_planes(self.rows, self.cols, o, x)).collect()
    }
}

/// Transposes a 64 x 64 bit matrix: afterwards bit `j` of `a[i]` is what bit `i` of `a[j]`
/// was (bit 0 = least significant). Six rounds of block swaps (Hacker's Delight 7-3).
pub(crate) fn transpose64(a: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            for i in k..k + width {
                // Swap the high `width` bits of a[i] with the low `width` bits of a[i + width].
                let t = ((a[i] >> width) ^ a[i + width]) & mask;
                a[i] ^= t << width;
                a[i + width] ^= t;
            }
            k += 2 * width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rng::Rng;

    #[test]
    fn transpose_matches_naive() {
        let mut rng = Rng::from_u64(5);
        let mut a = [0u64; 64];
        for w in &mut a {
            *w = rng.next_u64();
        }
        let orig = a;
        transpose64(&mut a);
        for (i, row) in a.iter().enumerate() {
            for (j, col) in orig.iter().enumerate() {
                assert_eq!((row >> j) & 1, (col >> i) & 1, "bit {i},{j}");
            }
        }
    }

    #[test]
    fn extract_reads_each_lane() {
        let mut g = LaneGrid::<2>::all_f(3, 70);
        // Word 1, lane 5: cell (1, 66) is O; lane 63: cell (2, 0) is X. Word 0 stays all F.
        let i = g.index(1, 66);
        g.cells[i].f.0[1] &= !(1 << 5);
        g.cells[i].o.0[1] |= 1 << 5;
        let j = g.index(2, 0);
        g.cells[j].f.0[1] &= !(1 << 63);
        g.cells[j].x.0[1] |= 1 << 63;
        assert!(g.extract(0, !0).iter().all(|p| p.count(crate::puzzles::foxbook::Letter::F) == 210));
        let pages = g.extract(1, (1 << 5) | (1 << 63) | 1);
        assert_eq!(pages.len(), 3);
        assert_eq!(pages[0].rows_text()[1], "F".repeat(70));
        assert_eq!(pages[1].rows_text()[1], format!("{}O{}", "F".repeat(66), "FFF"));
        assert_eq!(pages[2].rows_text()[2], format!("X{}", "F".repeat(69)));
    }
}
