//! One page of letters, stored as two bit-planes (2 bits per cell).

use serde::{Deserialize, Serialize};

/// A letter of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Letter {
    F,
    O,
    X,
}

impl Letter {
    pub const ALL: [Letter; 3] = [Letter::F, Letter::O, Letter::X];

    pub fn as_char(self) -> char {
        self.as_byte() as char
    }

    pub fn as_byte(self) -> u8 {
        match self {
            Letter::F => b'F',
            Letter::O => b'O',
            Letter::X => b'X',
        }
    }

    /// Digit used by packing: F = 0, O = 1, X = 2.
    pub fn digit(self) -> u8 {
        self as u8
    }

    pub fn from_digit(d: u8) -> Option<Letter> {
        Letter::ALL.get(d as usize).copied()
    }

    /// Accepts `F`, `O`, `X` in either case.
    pub fn from_char(c: char) -> Option<Letter> {
        match c.to_ascii_uppercase() {
            'F' => Some(Letter::F),
            'O' => Some(Letter::O),
            'X' => Some(Letter::X),
            _ => None,
        }
    }
}

/// Byte `j` of `SPREAD[b]` is bit `j` of `b`.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= (((b >> j) & 1) as u64) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    t
};

/// A `rows` x `cols` grid of letters. Cells are numbered row-major; bit `i` of `o` (of `x`)
/// is set when cell `i` is O (is X); neither means F.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Page {
    rows: u16,
    cols: u16,
    o: Vec<u64>,
    x: Vec<u64>,
}

impl Page {
    pub(crate) fn from_planes(rows: usize, cols: usize, o: Vec<u64>, x: Vec<u64>) -> Page {
        debug_assert_eq!(o.len(), (rows * cols).div_ceil(64));
        debug_assert!(o.iter().zip(&x).all(|(a, b)| a & b == 0));
        Page { rows: rows as u16, cols: cols as u16, o, x }
    }

    /// A page from its letters in row-major order; `None` when the count is not `rows * cols`
    /// or a dimension exceeds 65535.
    pub fn from_letters(rows: usize, cols: usize, letters: &[Letter]) -> Option<Page> {
        if letters.len() != rows * cols || rows > u16::MAX as usize || cols > u16::MAX as usize {
            return None;
        }
        let words = letters.len().div_ceil(64);
        let (mut o, mut x) = (vec![0u64; words], vec![0u64; words]);
        for (i, l) in letters.iter().enumerate() {
            match l {
                Letter::F => {}
                Letter::O => o[i / 64] |= 1 << (i % 64),
                Letter::X => x[i / 64] |= 1 << (i % 64),
            }
        }
        Some(Page::from_planes(rows, cols, o, x))
    }

    /// A page from text rows of equal length over F, O, X (either case).
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Option<Page> {
        let cols = rows.first()?.as_ref().len();
        let mut letters = Vec::with_capacity(rows.len() * cols);
        for row in rows {
            let row = row.as_ref();
            if row.len() != cols {
                return None;
            }
            for c in row.chars() {
                letters.push(Letter::from_char(c)?);
            }
        }
        Page::from_letters(rows.len(), cols, &letters)
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The letter at row `r`, column `c` (both 0-based). Panics when out of range, like
    /// slice indexing.
    #[inline]
    pub fn letter(&self, r: usize, c: usize) -> Letter {
        assert!(r < self.rows() && c < self.cols(), "cell ({r}, {c}) outside the page");
        self.letter_at(r * self.cols() + c)
    }

    /// The letter of cell `i` in row-major order.
    #[inline]
    pub(crate) fn letter_at(&self, i: usize) -> Letter {
        let (w, b) = (i / 64, i % 64);
        if (self.o[w] >> b) & 1 == 1 {
            Letter::O
        } else if (self.x[w] >> b) & 1 == 1 {
            Letter::X
        } else {
            Letter::F
        }
    }

    /// Letters in row-major order.
    pub fn letters(&self) -> impl Iterator<Item = Letter> + '_ {
        (0..self.rows() * self.cols()).map(|i| self.letter_at(i))
    }

    /// How many cells hold `letter`.
    pub fn count(&self, letter: Letter) -> usize {
        let ones = |v: &[u64]| v.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        match letter {
            Letter::O => ones(&self.o),
            Letter::X => ones(&self.x),
            Letter::F => self.rows() * self.cols() - ones(&self.o) - ones(&self.x),
        }
    }

    /// Writes one byte per cell, row-major, into `out` (`rows * cols` long): `base` for F,
    /// `base + step` for O, `base + 2 * step` for X (at most 255). Eight cells at a time: each
    /// byte of a plane spreads to one byte per cell ([`SPREAD`]), and no byte carries.
    fn write_codes(&self, out: &mut [u8], base: u8, step: u8) {
        debug_assert_eq!(out.len(), self.rows() * self.cols());
        let (base, step) = (u64::from_le_bytes([base; 8]), step as u64);
        for (chunk, (&o, &x)) in out.chunks_mut(64).zip(self.o.iter().zip(&self.x)) {
            for (k, bytes) in chunk.chunks_mut(8).enumerate() {
                let (ob, xb) = ((o >> (8 * k)) as u8, (x >> (8 * k)) as u8);
                let codes = base + step * SPREAD[ob as usize] + 2 * step * SPREAD[xb as usize];
                bytes.copy_from_slice(&codes.to_le_bytes()[..bytes.len()]);
            }
        }
    }

    /// The letters' digits (F = 0, O = 1, X = 2), row-major, appended to `out`.
    pub(crate) fn push_digits(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.rows() * self.cols(), 0);
        self.write_codes(&mut out[start..], 0, 1);
    }

    /// The letters as ASCII capitals, row-major.
    pub fn ascii(&self) -> Vec<u8> {
        let mut out = vec![0; self.rows() * self.cols()];
        // F, O and X are 9 apart in ASCII.
        self.write_codes(&mut out, b'F', b'O' - b'F');
        out
    }

    /// Appends the rows as ASCII, each followed by `\n`.
    pub(crate) fn write_text(&self, out: &mut Vec<u8>) {
        let cols = self.cols();
        out.reserve(self.rows() * (cols + 1));
        for row in self.ascii().chunks(cols) {
            out.extend_from_slice(row);
            out.push(b'\n');
        }
    }

    /// The rows as strings of `F`, `O` and `X`.
    pub fn rows_text(&self) -> Vec<String> {
        let cols = self.cols();
        (0..self.rows()).map(|r| (0..cols).map(|c| self.letter_at(r * cols + c).as_char()).collect()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let rows = ["FOXF", "XXOO", "OFFX"];
        let p = Page::from_rows(&rows).unwrap();
        assert_eq!(p.rows_text(), rows);
        assert_eq!(p.letter(1, 2), Letter::O);
        assert_eq!((p.count(Letter::F), p.count(Letter::O), p.count(Letter::X)), (4, 4, 4));
        assert!(Page::from_rows(&["FOX", "FO"]).is_none());
        assert!(Page::from_rows(&["FOA"]).is_none());
        // Pages over several words of 64 cells, read back through every form.
        let letters: Vec<Letter> = (0..3 * 70).map(|i| Letter::ALL[(i * i + i / 7) % 3]).collect();
        let p = Page::from_letters(3, 70, &letters).unwrap();
        assert_eq!(p.ascii(), letters.iter().map(|l| l.as_byte()).collect::<Vec<u8>>());
        let mut digits = vec![7];
        p.push_digits(&mut digits);
        assert_eq!(digits[1..], letters.iter().map(|l| l.digit()).collect::<Vec<u8>>()[..]);
        assert_eq!(p.letters().collect::<Vec<_>>(), letters);
    }
}
