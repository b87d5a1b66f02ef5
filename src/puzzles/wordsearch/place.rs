//! Placing the words: a randomised depth-first search, longest word first, over every
//! cell and direction of the level where a word fits (its cells inside the shape, each
//! free or already holding its letter). Two words share at most one cell (crossing, never
//! running along each other), none at the easy level; the expert level tries crossings
//! first. After each word, the placed letters alone must spell nothing forbidden beyond the
//! placed words' own cells (two words side by side can spell a third across their
//! junction): else the placement is undone. The search gives up after `budget` placements
//! tried (looking for places counts too), reporting the words it never placed in its
//! deepest attempt; it asks its caller whether to go on every [`ASK_EVERY`] placements.

use super::grid::{Grid, Trie, DIRECTIONS, FREE, NONE};
use super::Level;
use crate::puzzles::rng::Rng;

/// A word in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Its index in the list.
    pub word: usize,
    /// Index in [`DIRECTIONS`].
    pub direction: usize,
    pub cells: Vec<usize>,
}

/// A place for `word` on the empty grid in the level's directions, if any.
pub fn fits_somewhere(grid: &Grid, word: &[u8], level: Level) -> Option<(usize, usize)> {
    (0..grid.cells.len())
        .filter(|&p| grid.cells[p] != NONE)
        .flat_map(|p| level.directions().iter().map(move |&d| (p, d)))
        .find(|&(p, d)| grid.run(p, (DIRECTIONS[d].1, DIRECTIONS[d].2), word.len()).is_some())
}

/// Placements tried between two questions to the caller whether to go on.
pub const ASK_EVERY: usize = 1024;

/// Why the words were not all placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPlaced {
    /// The budget ran out: the indexes of the words never placed in the deepest attempt.
    Left(Vec<usize>),
    /// The caller asked to stop.
    Stopped,
}

struct Search<'a> {
    grid: Grid,
    words: &'a [&'a [u8]],
    order: Vec<usize>,
    level: Level,
    trie: &'a Trie,
    /// Which placed words cover each cell (bit i: the word placed i-th).
    cover: Vec<u64>,
    placed: Vec<Placement>,
    budget: usize,
    deepest: usize,
    go_on: &'a mut dyn FnMut(usize) -> bool,
    /// The budget at the start.
    start: usize,
    /// The budget left when the caller asked to stop (the search then unwinds as if it had
    /// run out).
    stopped: Option<usize>,
}

/// The words placed (in list order), or why not; `budget` is what is left of it after.
/// `go_on` is asked now and then, with the placements tried so far, whether to go on.
pub fn place(
    grid: &Grid,
    words: &[&[u8]],
    level: Level,
    trie: &Trie,
    rng: &mut Rng,
    budget: &mut usize,
    go_on: &mut dyn FnMut(usize) -> bool,
) -> Result<Vec<Placement>, NotPlaced> {
    // Longest first, ties in a random order.
    let mut order: Vec<usize> = (0..words.len()).collect();
    rng.shuffle(&mut order);
    order.sort_by_key(|&i| std::cmp::Reverse(words[i].len()));
    let mut s = Search {
        grid: grid.clone(),
        words,
        order,
        level,
        trie,
        cover: vec![0; grid.cells.len()],
        placed: Vec::new(),
        budget: *budget,
        deepest: 0,
        go_on,
        start: *budget,
        stopped: None,
    };
    let found = s.search(rng);
    *budget = s.stopped.unwrap_or(s.budget);
    if found {
        let mut placed = s.placed;
        placed.sort_by_key(|p| p.word);
        Ok(placed)
    } else if s.stopped.is_some() {
        Err(NotPlaced::Stopped)
    } else {
        Err(NotPlaced::Left(s.order[s.deepest..].to_vec()))
    }
}

impl Search<'_> {
    fn search(&mut self, rng: &mut Rng) -> bool {
        let depth = self.placed.len();
        self.deepest = self.deepest.max(depth);
        if depth == self.order.len() {
            return true;
        }
        let w = self.order[depth];
        let word = self.words[w];
        // Every place the word fits, with the letters it would share.
        let mut options: Vec<(usize, usize, usize)> = Vec::new();
        for p in 0..self.grid.cells.len() {
            if self.grid.cells[p] == NONE {
                continue;
            }
            for &d in self.level.directions() {
                if let Some(shared) = self.fits(p, d, word) {
                    options.push((p, d, shared));
                }
            }
        }
        // Looking costs too: a unit per 256 places examined (a 40 x 40 grid's 12,800 cost
        // 50 placements), so that the budget bounds the time whatever the grid.
        let cost = 1 + self.grid.cells.len() * self.level.directions().len() / 256;
        if self.budget < cost {
            self.budget = 0;
            return false;
        }
        self.budget -= cost;
        rng.shuffle(&mut options);
        if self.level == Level::Expert {
            options.sort_by_key(|o| std::cmp::Reverse(o.2));
        }
        for (p, d, _) in options {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if self.budget.is_multiple_of(ASK_EVERY) && !(self.go_on)(self.start - self.budget) {
                self.stopped = Some(self.budget);
                self.budget = 0;
                return false;
            }
            let dir = (DIRECTIONS[d].1, DIRECTIONS[d].2);
            let cells = self.grid.run(p, dir, word.len()).expect("it fits");
            let before: Vec<u8> = cells.iter().map(|&q| self.grid.cells[q]).collect();
            let bit = 1u64 << depth;
            for (k, &q) in cells.iter().enumerate() {
                self.grid.cells[q] = word[k];
                self.cover[q] |= bit;
            }
            if self.clean(&cells) {
                self.placed.push(Placement { word: w, direction: d, cells: cells.clone() });
                if self.search(rng) {
                    return true;
                }
                self.placed.pop();
            }
            for (k, &q) in cells.iter().enumerate() {
                self.grid.cells[q] = before[k];
                self.cover[q] &= !bit;
            }
            if self.budget == 0 {
                return false;
            }
        }
        false
    }

    /// The letters `word` would share if placed at `p` in direction `d`, or None if it
    /// does not fit there (off the grid or shape, a different letter, more than one cell
    /// shared with one word, or any at the easy level).
    fn fits(&self, p: usize, d: usize, word: &[u8]) -> Option<usize> {
        let dir = (DIRECTIONS[d].1, DIRECTIONS[d].2);
        let mut shared = 0;
        let mut crossed: u64 = 0;
        for (k, &b) in word.iter().enumerate() {
            let q = self.grid.step(p, dir, k as isize)?;
            match self.grid.cells[q] {
                NONE => return None,
                FREE => {}
                c if c == b => {
                    if self.level == Level::Easy || self.cover[q] & crossed != 0 {
                        return None;
                    }
                    crossed |= self.cover[q];
                    shared += 1;
                }
                _ => return None,
            }
        }
        Some(shared)
    }

    /// Whether the letters placed spell nothing forbidden through `cells` beyond a placed
    /// word's own cells.
    fn clean(&self, cells: &[usize]) -> bool {
        cells.iter().all(|&q| {
            self.trie.through(&self.grid, q, |found| {
                // Within one placed word's cells: its own copy, or a word inside it.
                found.cells.iter().fold(u64::MAX, |acc, &c| acc & self.cover[c]) != 0
            })
        })
    }
}
