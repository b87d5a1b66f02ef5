//! The grid of a word search and finding words in it: cells inside a shape, the eight
//! directions, and a trie of the forbidden words (each also reversed) walked along the
//! four lines through a cell, so that every occurrence through it, read either way, is
//! found in time bounded by the longest word, not the number of words.

/// No cell here (outside the shape).
pub const NONE: u8 = 0;
/// A cell without a letter yet (during placement), or the filler's blank.
pub const FREE: u8 = 1;

/// The eight directions a word is read in, as (row step, column step), by name.
pub const DIRECTIONS: [(&str, isize, isize); 8] = [
    ("right", 0, 1),
    ("left", 0, -1),
    ("down", 1, 0),
    ("up", -1, 0),
    ("down-right", 1, 1),
    ("down-left", 1, -1),
    ("up-right", -1, 1),
    ("up-left", -1, -1),
];

/// The four lines through a cell (each read both ways by the trie's reversed words).
const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Letters `A`–`Z`, and `NONE` or `FREE`, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
}

impl Grid {
    /// A grid whose cells are `inside` (row by row), all free.
    pub fn new(rows: usize, cols: usize, inside: &[bool]) -> Grid {
        Grid { rows, cols, cells: inside.iter().map(|&c| if c { FREE } else { NONE }).collect() }
    }

    /// The cell `steps` from `p` in direction (dr, dc), if on the grid.
    pub fn step(&self, p: usize, (dr, dc): (isize, isize), steps: isize) -> Option<usize> {
        let r = (p / self.cols) as isize + dr * steps;
        let c = (p % self.cols) as isize + dc * steps;
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| r as usize * self.cols + c as usize)
    }

    /// The cells of a word of `len` letters from `p` in direction `d`, if all are cells.
    pub fn run(&self, p: usize, d: (isize, isize), len: usize) -> Option<Vec<usize>> {
        (0..len as isize).map(|k| self.step(p, d, k).filter(|&q| self.cells[q] != NONE)).collect()
    }

    /// The rows as text: letters, a space where there is no cell (or no letter).
    pub fn text(&self) -> Vec<String> {
        self.cells
            .chunks(self.cols)
            .map(|row| row.iter().map(|&b| if b >= b'A' { b as char } else { ' ' }).collect())
            .collect()
    }
}

/// An occurrence of a word: its id in the [`Trie`] and its cells in reading order along
/// the line (the word itself or reversed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub word: u32,
    pub cells: Vec<usize>,
}

/// The forbidden words and their reversals, letter by letter.
#[derive(Clone, Debug)]
pub struct Trie {
    /// Children by letter (0: none; the root is node 0).
    next: Vec<[u32; 26]>,
    /// The word ending at a node.
    end: Vec<Option<u32>>,
    /// The longest word.
    pub longest: usize,
}

impl Trie {
    /// A trie of `words` (uppercase `A`–`Z`), each also reversed; word `i` is reported as `i`.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a [u8]>) -> Trie {
        let mut t = Trie { next: vec![[0; 26]], end: vec![None], longest: 0 };
        for (i, w) in words.into_iter().enumerate() {
            t.longest = t.longest.max(w.len());
            t.insert(w.iter().copied(), i as u32);
            t.insert(w.iter().rev().copied(), i as u32);
        }
        t
    }

    fn insert(&mut self, letters: impl Iterator<Item = u8>, id: u32) {
        let mut node = 0usize;
        for b in letters {
            let k = (b - b'A') as usize;
            if self.next[node][k] == 0 {
                self.next.push([0; 26]);
                self.end.push(None);
                self.next[node][k] = (self.next.len() - 1) as u32;
            }
            node = self.next[node][k] as usize;
        }
        self.end[node].get_or_insert(id);
    }

    /// Calls `found` with each occurrence through cell `p` (read along any of the eight
    /// directions through consecutive letters) until it returns false; returns whether it
    /// never did. Free cells and no cells match nothing.
    pub fn through(&self, grid: &Grid, p: usize, mut found: impl FnMut(Found) -> bool) -> bool {
        if grid.cells[p] < b'A' || self.longest == 0 {
            return true;
        }
        let reach = self.longest as isize - 1;
        let mut seg: Vec<usize> = Vec::with_capacity(2 * self.longest);
        for d in LINES {
            // The letters of the line around p, at most a word's length either side.
            seg.clear();
            let mut back = 0;
            while back < reach {
                match grid.step(p, d, -(back + 1)) {
                    Some(q) if grid.cells[q] >= b'A' => back += 1,
                    _ => break,
                }
            }
            seg.extend((-back..=0).map(|k| grid.step(p, d, k).expect("walked")));
            let mut ahead = 0;
            while ahead < reach {
                match grid.step(p, d, ahead + 1) {
                    Some(q) if grid.cells[q] >= b'A' => {
                        seg.push(q);
                        ahead += 1;
                    }
                    _ => break,
                }
            }
            let at = back as usize;
            for start in 0..=at {
                let mut node = 0usize;
                for (j, &q) in seg.iter().enumerate().skip(start) {
                    node = self.next[node][(grid.cells[q] - b'A') as usize] as usize;
                    if node == 0 {
                        break;
                    }
                    if let Some(word) = self.end[node] {
                        if j >= at && !found(Found { word, cells: seg[start..=j].to_vec() }) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Whether some word occurs through `p`.
    pub fn any_through(&self, grid: &Grid, p: usize) -> bool {
        !self.through(grid, p, |_| false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cols = rows[0].len();
        let mut g = Grid::new(rows.len(), cols, &vec![true; rows.len() * cols]);
        for (r, row) in rows.iter().enumerate() {
            for (c, b) in row.bytes().enumerate() {
                g.cells[r * cols + c] = if b == b'.' {
                    FREE
                } else if b == b'#' {
                    NONE
                } else {
                    b
                };
            }
        }
        g
    }

    #[test]
    fn words_are_found_through_a_cell_in_every_direction() {
        let g = grid(&["TACX", "XAXX", "XXTX", "CATS"]);
        let t = Trie::new([&b"CAT"[..], b"AXE"]);
        // Through (0,1) "A": TAC read left (CAT), and down-right A..T? (0,1),(1,2),(2,3): A X X.
        let mut seen = Vec::new();
        t.through(&g, 1, |f| {
            seen.push(f);
            true
        });
        assert_eq!(seen, [Found { word: 0, cells: vec![0, 1, 2] }]);
        // The diagonal T(0,0) A(1,1) T(2,2): not CAT; C(3,0)… "CATS" along the last row.
        let mut last = Vec::new();
        t.through(&g, 13, |f| {
            last.push(f.cells);
            true
        });
        assert_eq!(last, [vec![12, 13, 14]]);
        // A free cell or a gap stops a word.
        let g = grid(&["CA.T", "CA#T"]);
        assert!(!t.any_through(&g, 1) && !t.any_through(&g, 5));
    }
}
