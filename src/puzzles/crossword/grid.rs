//! A square black/white grid, its rows form and its numbered slots (words).

use serde::{Deserialize, Serialize};

use super::error::CrosswordError;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 21;

/// A square pattern; bit `c` of `rows[r]` is set when square (r, c) is white.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    size: usize,
    rows: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Across,
    Down,
}

/// A word position: a maximal run of >= 2 white squares, with its crossword number.
/// `row` and `col` are 0-based here (the JSON outputs are 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub number: u32,
    pub dir: Direction,
    pub row: usize,
    pub col: usize,
    pub len: usize,
}

impl Slot {
    /// The (row, col) of its `i`-th letter.
    pub fn cell(&self, i: usize) -> (usize, usize) {
        match self.dir {
            Direction::Across => (self.row, self.col + i),
            Direction::Down => (self.row + i, self.col),
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len).map(|i| self.cell(i))
    }

    /// "12-across" style label for messages.
    pub fn label(&self) -> String {
        let dir = match self.dir {
            Direction::Across => "across",
            Direction::Down => "down",
        };
        format!("{}-{} (row {}, col {})", self.number, dir, self.row + 1, self.col + 1)
    }
}

pub(crate) fn check_size(size: usize, what: &str) -> Result<(), String> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(format!("{what} {size} is outside {MIN_SIZE}..={MAX_SIZE}"))
    }
}

impl Grid {
    /// An all-black grid. `size` must be in `MIN_SIZE..=MAX_SIZE`.
    pub fn black(size: usize) -> Result<Grid, CrosswordError> {
        check_size(size, "side").map_err(|m| CrosswordError::field("size", m))?;
        Ok(Grid { size, rows: vec![0; size] })
    }

    /// From row bitsets (bit c = column c white); bits beyond `size` are ignored.
    pub(crate) fn from_bits(size: usize, rows: &[u32]) -> Grid {
        let mask = (1u32 << size) - 1;
        Grid { size, rows: rows.iter().take(size).map(|r| r & mask).collect() }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn is_white(&self, r: usize, c: usize) -> bool {
        self.rows[r] >> c & 1 == 1
    }

    pub fn set_white(&mut self, r: usize, c: usize, white: bool) {
        if white {
            self.rows[r] |= 1 << c;
        } else {
            self.rows[r] &= !(1 << c);
        }
    }

    pub fn row_bits(&self, r: usize) -> u32 {
        self.rows[r]
    }

    pub fn black_count(&self) -> usize {
        self.size * self.size - self.rows.iter().map(|r| r.count_ones() as usize).sum::<usize>()
    }

    /// Parses `["#...#", ...]`: `#` black, `.` white, one string per row, as many rows as columns.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, CrosswordError> {
        let size = rows.len();
        check_size(size, "number of rows").map_err(CrosswordError::BadRows)?;
        let mut grid = Grid { size, rows: vec![0; size] };
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let len = row.chars().count();
            if len != size {
                return Err(CrosswordError::BadRows(format!(
                    "row {} has {len} squares; expected {size} (the grid must be square)",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => grid.set_white(r, c, true),
                    '#' => {}
                    other => {
                        return Err(CrosswordError::BadRows(format!(
                            "row {}, column {}: symbol {other:?} is neither '#' (black) nor '.' (white)",
                            r + 1,
                            c + 1
                        )))
                    }
                }
            }
        }
        Ok(grid)
    }

    pub fn to_rows(&self) -> Vec<String> {
        (0..self.size).map(|r| (0..self.size).map(|c| if self.is_white(r, c) { '.' } else { '#' }).collect()).collect()
    }

    /// All slots (runs of >= 2 white squares), across ones first, each group in
    /// reading order, numbered the standard way: squares that start an across or a
    /// down slot get 1, 2, 3, ... in reading order.
    pub fn slots(&self) -> Vec<Slot> {
        let n = self.size;
        let white = |r: usize, c: usize| r < n && c < n && self.is_white(r, c);
        let starts_across = |r: usize, c: usize| white(r, c) && (c == 0 || !white(r, c - 1)) && white(r, c + 1);
        let starts_down = |r: usize, c: usize| white(r, c) && (r == 0 || !white(r - 1, c)) && white(r + 1, c);
        let run = |mut r: usize, mut c: usize, dr: usize, dc: usize| {
            let mut len = 0;
            while white(r, c) {
                len += 1;
                r += dr;
                c += dc;
            }
            len
        };
        let (mut across, mut down) = (Vec::new(), Vec::new());
        let mut number = 0;
        for r in 0..n {
            for c in 0..n {
                let (a, d) = (starts_across(r, c), starts_down(r, c));
                if !(a || d) {
                    continue;
                }
                number += 1;
                if a {
                    let len = run(r, c, 0, 1);
                    across.push(Slot { number, dir: Direction::Across, row: r, col: c, len });
                }
                if d {
                    let len = run(r, c, 1, 0);
                    down.push(Slot { number, dir: Direction::Down, row: r, col: c, len });
                }
            }
        }
        across.extend(down);
        across
    }
}
