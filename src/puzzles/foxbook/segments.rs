//! Plain, independent scans for FOX on a page (used by tests, answers and diagnostics).

use super::page::{Letter, Page};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Direction from the F of a FOX towards its X (rows grow downwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    Right,
    Left,
    Down,
    Up,
    DownRight,
    DownLeft,
    UpRight,
    UpLeft,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::Right,
        Direction::Left,
        Direction::Down,
        Direction::Up,
        Direction::DownRight,
        Direction::DownLeft,
        Direction::UpRight,
        Direction::UpLeft,
    ];

    /// (row step, column step).
    pub fn step(self) -> (isize, isize) {
        match self {
            Direction::Right => (0, 1),
            Direction::Left => (0, -1),
            Direction::Down => (1, 0),
            Direction::Up => (-1, 0),
            Direction::DownRight => (1, 1),
            Direction::DownLeft => (1, -1),
            Direction::UpRight => (-1, 1),
            Direction::UpLeft => (-1, -1),
        }
    }

    pub fn from_step(dr: isize, dc: isize) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.step() == (dr, dc))
    }

    /// The JSON name, e.g. `down-right`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Right => "right",
            Direction::Left => "left",
            Direction::Down => "down",
            Direction::Up => "up",
            Direction::DownRight => "down-right",
            Direction::DownLeft => "down-left",
            Direction::UpRight => "up-right",
            Direction::UpLeft => "up-left",
        }
    }
}

/// One occurrence of FOX: its cells (0-based row, column) in the order F, O, X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub cells: [(usize, usize); 3],
    pub direction: Direction,
}

/// The four "forward" line directions; each segment is visited once, from its first cell.
const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Every three-cell segment of a `rows` x `cols` page, as its cells in line order.
pub fn all_segments(rows: usize, cols: usize) -> impl Iterator<Item = [(usize, usize); 3]> {
    (0..rows).flat_map(move |r| {
        (0..cols).flat_map(move |c| {
            LINES.iter().filter_map(move |&(dr, dc)| {
                let cell = |k: isize| {
                    let (rr, cc) = (r as isize + k * dr, c as isize + k * dc);
                    (rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols)
                        .then_some((rr as usize, cc as usize))
                };
                Some([cell(0)?, cell(1)?, cell(2)?])
            })
        })
    })
}

/// Number of segments on a `rows` x `cols` page.
pub fn segment_count(rows: usize, cols: usize) -> usize {
    let (r2, c2) = (rows.saturating_sub(2), cols.saturating_sub(2));
    rows * c2 + cols * r2 + 2 * r2 * c2
}

/// Every occurrence of FOX (forwards or backwards, in any of the four line directions).
pub fn count_fox(page: &Page) -> Vec<Segment> {
    let mut found = Vec::new();
    for cells in all_segments(page.rows(), page.cols()) {
        let [a, b, c] = cells.map(|(r, c)| page.letter(r, c));
        if b != Letter::O {
            continue;
        }
        let ordered = match (a, c) {
            (Letter::F, Letter::X) => cells,
            (Letter::X, Letter::F) => [cells[2], cells[1], cells[0]],
            _ => continue,
        };
        let dr = ordered[1].0 as isize - ordered[0].0 as isize;
        let dc = ordered[1].1 as isize - ordered[0].1 as isize;
        let direction = Direction::from_step(dr, dc).expect("segment cells are adjacent");
        found.push(Segment { cells: ordered, direction });
    }
    found
}

/// Segments one letter away from reading FOX or XOF (a diagnostic statistic).
pub fn near_misses(page: &Page) -> usize {
    all_segments(page.rows(), page.cols())
        .filter(|cells| {
            let l = cells.map(|(r, c)| page.letter(r, c));
            let dist = |w: [Letter; 3]| (0..3).filter(|&i| l[i] != w[i]).count();
            dist([Letter::F, Letter::O, Letter::X]) == 1 || dist([Letter::X, Letter::O, Letter::F]) == 1
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_direction() {
        let p = Page::from_rows(&["FOXO", "OOOO", "XOFO", "OOOO"]).unwrap();
        // Row 0 left to right, row 2 right to left, column 0 down, column 2 up,
        // diagonal (0,0)-(2,2) reads F O F: no; anti-diagonal (2,0)-(0,2) reads X O X: no.
        let mut dirs: Vec<_> = count_fox(&p).iter().map(|s| s.direction).collect();
        dirs.sort_by_key(|d| d.name());
        assert_eq!(dirs, [Direction::Down, Direction::Left, Direction::Right, Direction::Up]);
        let p = Page::from_rows(&["FFF", "FOF", "XFX"]).unwrap();
        let f = count_fox(&p);
        assert_eq!(f.len(), 2);
        assert!(f.iter().any(|s| s.direction == Direction::DownLeft && s.cells == [(0, 2), (1, 1), (2, 0)]));
        assert!(f.iter().any(|s| s.direction == Direction::DownRight && s.cells[0] == (0, 0)));
        let p = Page::from_rows(&["XFX", "FOF", "FFF"]).unwrap();
        let mut dirs: Vec<_> = count_fox(&p).iter().map(|s| s.direction).collect();
        dirs.sort_by_key(|d| d.name());
        assert_eq!(dirs, [Direction::UpLeft, Direction::UpRight]);
    }

    #[test]
    fn segment_counts() {
        assert_eq!(segment_count(32, 20), 2256);
        assert_eq!(all_segments(32, 20).count(), 2256);
        assert_eq!(all_segments(3, 3).count(), 8);
        assert_eq!(segment_count(3, 64), all_segments(3, 64).count());
    }
}
