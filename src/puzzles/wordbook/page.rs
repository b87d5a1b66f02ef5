//! Pages of a word book and a plain scan for the word on them.

use super::spec::{Mask, LINES};
use crate::puzzles::foxbook::Direction;

/// Byte of a cell that holds no letter (outside the shape).
pub const NO_CELL: u8 = b' ';

/// One page: `rows` x `cols` cells, row-major, each an ASCII capital or [`NO_CELL`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WordPage {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl WordPage {
    /// A page from row-major cells (capitals or [`NO_CELL`]); `None` if the sizes disagree.
    pub fn from_cells(rows: usize, cols: usize, cells: Vec<u8>) -> Option<WordPage> {
        (cells.len() == rows * cols && cells.iter().all(|&b| b == NO_CELL || b.is_ascii_uppercase()))
            .then_some(WordPage { rows, cols, cells })
    }

    /// A page from its text rows (all `cols` long; a space is no cell).
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Option<WordPage> {
        let cols = rows.first()?.as_ref().len();
        let mut cells = Vec::with_capacity(rows.len() * cols);
        for row in rows {
            (row.as_ref().len() == cols).then_some(())?;
            cells.extend_from_slice(row.as_ref().as_bytes());
        }
        WordPage::from_cells(rows.len(), cols, cells)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The letter at `(r, c)`, `None` off the page or outside the shape.
    pub fn letter(&self, r: isize, c: isize) -> Option<u8> {
        if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
            return None;
        }
        Some(self.cells[r as usize * self.cols + c as usize]).filter(|&b| b != NO_CELL)
    }

    /// Row-major cells.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Each row as text, a space where there is no cell.
    pub fn rows_text(&self) -> Vec<String> {
        self.cells.chunks(self.cols).map(|row| String::from_utf8(row.to_vec()).expect("ASCII")).collect()
    }

    /// Whether the letter cells are exactly the mask's and every letter is in `letters`.
    pub fn fits(&self, mask: &Mask, letters: &[u8]) -> bool {
        self.rows == mask.rows
            && self.cols == mask.cols
            && self.cells.iter().zip(&mask.cells).all(|(&b, &m)| if m { letters.contains(&b) } else { b == NO_CELL })
    }
}

/// One occurrence of the word: its cells (0-based row, column) in reading order, and the
/// direction of reading. A palindrome's occurrence is reported once, read from the cell that
/// comes first in row-major order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Occurrence {
    pub cells: Vec<(usize, usize)>,
    pub direction: Direction,
}

/// Every occurrence of `word` on `page`, along the 8 directions through letter cells.
pub fn occurrences(page: &WordPage, word: &[u8]) -> Vec<Occurrence> {
    let len = word.len() as isize;
    let palindrome = word.iter().eq(word.iter().rev());
    let mut found = Vec::new();
    for r in 0..page.rows as isize {
        for c in 0..page.cols as isize {
            for (dr, dc) in LINES {
                let cells: Vec<(isize, isize)> = (0..len).map(|k| (r + k * dr, c + k * dc)).collect();
                let Some(read) = cells.iter().map(|&(r, c)| page.letter(r, c)).collect::<Option<Vec<u8>>>() else {
                    continue;
                };
                let at = |cells: Vec<(isize, isize)>, (dr, dc): (isize, isize)| Occurrence {
                    cells: cells.into_iter().map(|(r, c)| (r as usize, c as usize)).collect(),
                    direction: Direction::from_step(dr, dc).expect("a unit step"),
                };
                if read == word {
                    found.push(at(cells, (dr, dc)));
                } else if !palindrome && read.iter().rev().eq(word.iter()) {
                    found.push(at(cells.into_iter().rev().collect(), (-dr, -dc)));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_finds_words_both_ways_once_for_palindromes() {
        let p = WordPage::from_rows(&["CATA", "AATT", "TACA"]).unwrap();
        let found = occurrences(&p, b"CAT");
        let dirs: Vec<_> = found.iter().map(|o| o.direction).collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(dirs.contains(&Direction::Right) && dirs.contains(&Direction::Left) && dirs.contains(&Direction::Down));
        let left = found.iter().find(|o| o.direction == Direction::Left).unwrap();
        assert_eq!(left.cells, [(2, 2), (2, 1), (2, 0)]);
        // DAD in row 0 is one occurrence, read from its leftmost cell.
        let p = WordPage::from_rows(&["DAD", "AAA", "AAA"]).unwrap();
        let found = occurrences(&p, b"DAD");
        assert_eq!(found, [Occurrence { cells: vec![(0, 0), (0, 1), (0, 2)], direction: Direction::Right }]);
        // A run through a missing cell does not count.
        let p = WordPage::from_rows(&["C AT", "CAT ", "    "]).unwrap();
        assert_eq!(occurrences(&p, b"CAT").len(), 1);
    }
}
