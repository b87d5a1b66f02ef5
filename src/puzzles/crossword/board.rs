//! The pattern search's board: a partially coloured grid as bitset rows and columns, and
//! the rule checks on the squares known so far, each a few word operations.

use super::grid::Grid;

/// Partially coloured grid with padding: row/column index `i + 1` holds line `i`, bit
/// `j + 1` holds square `j`; the padding border counts as known black (but never as a
/// black *square* for rules 3 and 6).
pub(crate) struct Board {
    n: usize,
    max_len: usize,
    inner: u32,
    /// White squares by row, and known-black squares (plus padding) by row.
    w: [u32; 23],
    b: [u32; 23],
    /// The same, by column.
    wc: [u32; 23],
    bc: [u32; 23],
    pub blacks: usize,
}

impl Board {
    pub fn new(n: usize, max_len: usize) -> Board {
        let inner = ((1u32 << n) - 1) << 1;
        let edge = 1 | 1 << (n + 1);
        let mut b = [0u32; 23];
        b[0] = inner | edge;
        b[n + 1] = inner | edge;
        for row in &mut b[1..=n] {
            *row = edge;
        }
        Board { n, max_len, inner, w: [0; 23], b, wc: [0; 23], bc: b, blacks: 0 }
    }

    pub fn set(&mut self, orbit: &[(usize, usize)], white: bool) {
        for &(r, c) in orbit {
            let (rb, cb) = (1u32 << (c + 1), 1u32 << (r + 1));
            if white {
                self.w[r + 1] |= rb;
                self.wc[c + 1] |= cb;
            } else {
                self.b[r + 1] |= rb;
                self.bc[c + 1] |= cb;
            }
        }
        if !white {
            self.blacks += orbit.len();
        }
    }

    pub fn clear(&mut self, orbit: &[(usize, usize)], white: bool) {
        for &(r, c) in orbit {
            let (rb, cb) = (!(1u32 << (c + 1)), !(1u32 << (r + 1)));
            self.w[r + 1] &= rb;
            self.wc[c + 1] &= cb;
            self.b[r + 1] &= rb;
            self.bc[c + 1] &= cb;
        }
        if !white {
            self.blacks -= orbit.len();
        }
    }

    /// Rules on one line (row or column) that the known squares already break:
    /// 4 black squares in a row, a finished run of exactly 2 whites, a run over max_len.
    #[inline]
    fn line_ok(&self, w: u32, b: u32) -> bool {
        let bi = b & self.inner;
        if bi & bi >> 1 & bi >> 2 & bi >> 3 != 0 {
            return false;
        }
        if b & w >> 1 & w >> 2 & b >> 3 != 0 {
            return false;
        }
        if self.max_len < self.n {
            let mut run = w;
            for k in 1..=self.max_len {
                run &= w >> k;
            }
            if run != 0 {
                return false;
            }
        }
        true
    }

    /// Rules 2 and 3 on padded rows `r` and `r + 1` (both inner).
    #[inline]
    fn squares_ok(&self, r: usize) -> bool {
        let ww = self.w[r] & self.w[r + 1];
        let bb = self.b[r] & self.b[r + 1] & self.inner;
        ww & ww >> 1 == 0 && bb & bb >> 1 == 0
    }

    /// No white square on padded row `r` (inner) whose four neighbours are all black.
    #[inline]
    fn no_lonely_white(&self, r: usize) -> bool {
        let b = self.b[r];
        self.w[r] & b << 1 & b >> 1 & self.b[r - 1] & self.b[r + 1] == 0
    }

    /// Checks every rule that a square of `orbit` takes part in.
    pub fn ok_after(&self, orbit: &[(usize, usize)]) -> bool {
        let n = self.n;
        orbit.iter().all(|&(r, c)| {
            let (pr, pc) = (r + 1, c + 1);
            self.line_ok(self.w[pr], self.b[pr])
                && self.line_ok(self.wc[pc], self.bc[pc])
                && (pr == 1 || self.squares_ok(pr - 1))
                && (pr == n || self.squares_ok(pr))
                && (pr - 1..=pr + 1).filter(|&q| q >= 1 && q <= n).all(|q| self.no_lonely_white(q))
        })
    }

    /// Rule 7, by bitset flood fill from the first white square.
    pub fn connected(&self) -> bool {
        let n = self.n;
        let w = &self.w;
        let Some(start) = (1..=n).find(|&r| w[r] != 0) else {
            return false;
        };
        let mut reach = [0u32; 23];
        reach[start] = w[start] & w[start].wrapping_neg();
        loop {
            let mut changed = false;
            for r in 1..=n {
                let mut x = reach[r] | (reach[r - 1] | reach[r + 1]) & w[r];
                loop {
                    let grown = (x | x << 1 | x >> 1) & w[r];
                    if grown == x {
                        break;
                    }
                    x = grown;
                }
                if x != reach[r] {
                    reach[r] = x;
                    changed = true;
                }
            }
            if !changed {
                return (1..=n).all(|r| reach[r] == w[r]);
            }
        }
    }

    pub fn grid(&self) -> Grid {
        let rows: Vec<u32> = (1..=self.n).map(|r| self.w[r] >> 1).collect();
        Grid::from_bits(self.n, &rows)
    }
}
