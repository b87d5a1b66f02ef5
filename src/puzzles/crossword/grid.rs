//! A black/white grid, square (patterns, hex form) or rectangular (fills, rows form),
//! with any fixed letters, its rows form and its numbered slots (words).

use serde::{Deserialize, Serialize};

use super::error::CrosswordError;

/// Sides of the square patterns (generated, or in the hex form).
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 21;
/// Rows and columns of a grid given as rows (for fills).
pub const FILL_MIN_SIDE: usize = 3;
pub const FILL_MAX_SIDE: usize = 31;

/// A pattern of `height` rows and `width` columns; bit `c` of `rows[r]` is set when
/// square (r, c) is white, and `letters[r * width + c]` holds its fixed letter (`A`–`Z`)
/// or 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    height: usize,
    width: usize,
    rows: Vec<u32>,
    letters: Vec<u8>,
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

    /// Its clue name, `13-Across` or `2-Down`.
    pub fn label(&self) -> String {
        let dir = match self.dir {
            Direction::Across => "Across",
            Direction::Down => "Down",
        };
        format!("{}-{dir}", self.number)
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
        Ok(Grid::empty(size, size))
    }

    fn empty(height: usize, width: usize) -> Grid {
        Grid { height, width, rows: vec![0; height], letters: vec![0; height * width] }
    }

    /// From row bitsets (bit c = column c white); bits beyond `size` are ignored.
    pub(crate) fn from_bits(size: usize, rows: &[u32]) -> Grid {
        let mask = (1u32 << size) - 1;
        let mut grid = Grid::empty(size, size);
        for (row, bits) in grid.rows.iter_mut().zip(rows) {
            *row = bits & mask;
        }
        grid
    }

    /// The side of a square grid (its width).
    pub fn size(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// The fixed letter (`A`–`Z`) of a white square, if it has one.
    pub fn letter(&self, r: usize, c: usize) -> Option<u8> {
        Some(self.letters[r * self.width + c]).filter(|&l| l != 0)
    }

    /// Whether any square has a fixed letter.
    pub fn has_letters(&self) -> bool {
        self.letters.iter().any(|&l| l != 0)
    }

    pub fn is_white(&self, r: usize, c: usize) -> bool {
        self.rows[r] >> c & 1 == 1
    }

    pub fn set_white(&mut self, r: usize, c: usize, white: bool) {
        if white {
            self.rows[r] |= 1 << c;
        } else {
            self.rows[r] &= !(1 << c);
            self.letters[r * self.width + c] = 0;
        }
    }

    pub fn row_bits(&self, r: usize) -> u32 {
        self.rows[r]
    }

    pub fn black_count(&self) -> usize {
        self.height * self.width - self.rows.iter().map(|r| r.count_ones() as usize).sum::<usize>()
    }

    /// Parses `["#..A#", ...]`: `#` black, `.` white, `A`–`Z` a white square with that
    /// letter fixed; one string per row, all rows as long, 3..=31 rows and columns.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, CrosswordError> {
        let height = rows.len();
        let sides = FILL_MIN_SIDE..=FILL_MAX_SIDE;
        if !sides.contains(&height) {
            return Err(CrosswordError::BadRows(format!(
                "number of rows {height} is outside {FILL_MIN_SIDE}..={FILL_MAX_SIDE}"
            )));
        }
        let width = rows[0].as_ref().chars().count();
        if !sides.contains(&width) {
            return Err(CrosswordError::BadRows(format!(
                "row 1 has {width} squares; rows have {FILL_MIN_SIDE}..={FILL_MAX_SIDE}"
            )));
        }
        let mut grid = Grid::empty(height, width);
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let len = row.chars().count();
            if len != width {
                return Err(CrosswordError::BadRows(format!(
                    "row {} has {len} squares; expected {width} like row 1 (the grid must be rectangular)",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => grid.set_white(r, c, true),
                    '#' => {}
                    'A'..='Z' => {
                        grid.set_white(r, c, true);
                        grid.letters[r * width + c] = ch as u8;
                    }
                    other => {
                        return Err(CrosswordError::BadRows(format!(
                            "row {}, column {}: symbol {other:?} is not '#' (black), '.' (white) or a letter A-Z \
                             (fixed)",
                            r + 1,
                            c + 1
                        )))
                    }
                }
            }
        }
        Ok(grid)
    }

    /// The rows form: `#` black, `.` white, the fixed letters.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| match (self.is_white(r, c), self.letter(r, c)) {
                        (false, _) => '#',
                        (true, Some(l)) => l as char,
                        (true, None) => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// All slots (runs of >= 2 white squares), across ones first, each group in
    /// reading order, numbered the standard way: squares that start an across or a
    /// down slot get 1, 2, 3, ... in reading order.
    pub fn slots(&self) -> Vec<Slot> {
        let (h, w) = (self.height, self.width);
        let white = |r: usize, c: usize| r < h && c < w && self.is_white(r, c);
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
        for r in 0..h {
            for c in 0..w {
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
