//! Word searches: a list of words hidden in a grid of letters, each exactly once, and
//! nothing else by accident.
//!
//! Exactness. Each list word occurs exactly once: one set of cells, read along any of the
//! eight directions (a palindrome read both ways is one occurrence). No word of the block
//! list (`data/blocklist.txt`, 3 letters and longer; unless `allow_offensive`) and no word
//! of the publisher's `avoid` list occurs anywhere. An occurrence lying wholly in the
//! cells of one placed list word does not count: a blocked word inside a list word (ASS in
//! CLASSROOM) is the publisher's choice, and a list word inside a longer one (CAT in CATS)
//! is refused unless `allow_contained`, in which case the copy inside the longer word does
//! not count. Everything else counts: words side by side spelling a third across their
//! junction, the filler, a hidden message.
//!
//! How: words are placed by a randomised backtracking search ([`place`]), longest first,
//! checking that the placed letters alone spell nothing forbidden; the other cells are
//! drawn by a Metropolis chain from the uniform law over the fillings that keep the rules
//! ([`fill`], with why the chain reaches every such filling). The draw is a pure function
//! of the request and `seed`.

pub mod book;
pub mod cost;
pub mod fill;
pub mod grid;
mod place;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::puzzles::crossword::words::{normalise, BLOCKLIST};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;
use crate::puzzles::wordbook::Shape;
use grid::{Grid, Trie, DIRECTIONS, FREE};

/// Words a puzzle's list holds.
pub const WORDS_RANGE: std::ops::RangeInclusive<usize> = 3..=40;
/// Letters a list word has (after normalising).
pub const LETTERS_RANGE: std::ops::RangeInclusive<usize> = 3..=20;
/// Rows and columns of a grid.
pub const SIDE_RANGE: std::ops::RangeInclusive<usize> = 5..=40;
/// Words an `avoid` list holds at most.
pub const MAX_AVOID: usize = 500;

pub use crate::puzzles::level::Level;

impl Level {
    /// The directions (indexes of [`DIRECTIONS`]) words are placed in.
    fn directions(self) -> &'static [usize] {
        match self {
            Level::Easy => &[0, 2],
            Level::Medium => &[0, 2, 4, 6],
            Level::Hard | Level::Expert => &[0, 1, 2, 3, 4, 5, 6, 7],
        }
    }
}

/// The letters of the cells outside the words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Filler {
    /// A to Z.
    #[default]
    AZ,
    /// The letters of the list's words only: the filler looks like the words.
    WordLetters,
}

/// A puzzle to make.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// The words as printed (letters A-Z once accents, spaces and punctuation are dropped).
    pub words: Vec<String>,
    pub rows: usize,
    pub cols: usize,
    pub shape: Shape,
    pub level: Level,
    pub filler: Filler,
    /// Letters for the leftover cells in reading order instead of a random filler.
    pub message: Option<String>,
    /// More words that must not occur.
    pub avoid: Vec<String>,
    pub allow_offensive: bool,
    pub allow_contained: bool,
}

/// A list word as placed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Placed {
    /// As given (printed in the list).
    pub word: String,
    /// As in the grid.
    pub letters: String,
    /// Its cells, first letter first, as [row, column] from 0.
    pub cells: Vec<[usize; 2]>,
    /// `right`, `left`, `down`, `up`, `down-right`, `down-left`, `up-right` or `up-left`.
    pub direction: String,
}

/// A made puzzle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Puzzle {
    /// One string a row; a space where the shape has no cell.
    pub rows: Vec<String>,
    /// In the order given.
    pub words: Vec<Placed>,
    /// Sweeps of the filler chain run (0 with a message).
    pub sweeps: usize,
}

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The request is at fault: the field (`words[3]`, `rows`, `message`, …) and why.
    #[error("{field}: {detail}")]
    Invalid { field: String, detail: String },
    /// The words did not fit: those left over when the search gave up.
    #[error("these words did not fit in the grid: {}", .words.join(", "))]
    NoRoom { words: Vec<String> },
    #[error("cancelled")]
    Cancelled,
}

fn invalid(field: impl Into<String>, detail: impl Into<String>) -> Error {
    Error::Invalid { field: field.into(), detail: detail.into() }
}

/// A word of the list, checked: as given, and its letters.
#[derive(Clone, Debug)]
struct Word {
    given: String,
    letters: Vec<u8>,
}

/// The list checked: lengths, duplicates, and words inside others.
fn check_words(spec: &Spec) -> Result<Vec<Word>, Error> {
    if !WORDS_RANGE.contains(&spec.words.len()) {
        return Err(invalid(
            "words",
            format!("{} words; a puzzle takes {} to {}", spec.words.len(), WORDS_RANGE.start(), WORDS_RANGE.end()),
        ));
    }
    let mut words: Vec<Word> = Vec::with_capacity(spec.words.len());
    for (i, given) in spec.words.iter().enumerate() {
        let field = format!("words[{i}]");
        let letters = normalise(given).map_err(|e| invalid(&field, e))?;
        if !LETTERS_RANGE.contains(&letters.len()) {
            return Err(invalid(
                &field,
                format!(
                    "{given:?} has {} letters; a word has {} to {}",
                    letters.len(),
                    LETTERS_RANGE.start(),
                    LETTERS_RANGE.end()
                ),
            ));
        }
        if let Some(j) = words.iter().position(|w| w.letters == letters) {
            return Err(invalid(&field, format!("{given:?} is words[{j}] again ({:?})", words[j].given)));
        }
        words.push(Word { given: given.trim().to_string(), letters });
    }
    if !spec.allow_contained {
        for (i, a) in words.iter().enumerate() {
            for (j, b) in words.iter().enumerate() {
                if i != j && inside(&a.letters, &b.letters) {
                    return Err(invalid(
                        format!("words[{i}]"),
                        format!(
                            "{} is part of {} (words[{j}]), so it would always be found twice; \
                             set allow_contained to keep both (the copy inside {} then does not count)",
                            text(&a.letters),
                            text(&b.letters),
                            text(&b.letters)
                        ),
                    ));
                }
            }
        }
    }
    Ok(words)
}

/// Whether `small` reads inside `big`, forwards or backwards: then `small` would always be
/// found twice.
pub(crate) fn inside(small: &[u8], big: &[u8]) -> bool {
    let reversed: Vec<u8> = small.iter().rev().copied().collect();
    contains(big, small) || contains(big, &reversed)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

fn text(letters: &[u8]) -> String {
    String::from_utf8_lossy(letters).into_owned()
}

/// The words that must not occur beyond their placed copies: the list's, the block list's
/// (unless `allow_offensive`) and `avoid`, each once; the list's first, in order.
fn forbidden(spec: &Spec, words: &[Word]) -> Result<Vec<Vec<u8>>, Error> {
    let mut out: Vec<Vec<u8>> = words.iter().map(|w| w.letters.clone()).collect();
    let mut seen: HashSet<Vec<u8>> = out.iter().cloned().collect();
    if spec.avoid.len() > MAX_AVOID {
        return Err(invalid("avoid", format!("{} words; at most {MAX_AVOID}", spec.avoid.len())));
    }
    for (i, given) in spec.avoid.iter().enumerate() {
        let letters = normalise(given).map_err(|e| invalid(format!("avoid[{i}]"), e))?;
        if !LETTERS_RANGE.contains(&letters.len()) {
            return Err(invalid(
                format!("avoid[{i}]"),
                format!("{given:?} has {} letters; a word to avoid has 3 to 20", letters.len()),
            ));
        }
        if seen.insert(letters.clone()) {
            out.push(letters);
        }
    }
    if !spec.allow_offensive {
        for letters in BLOCKED.iter() {
            if seen.insert(letters.clone()) {
                out.push(letters.clone());
            }
        }
    }
    Ok(out)
}

/// The block list's words of 3 letters or more, normalised once for every puzzle.
static BLOCKED: std::sync::LazyLock<Vec<Vec<u8>>> = std::sync::LazyLock::new(|| {
    BLOCKLIST
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| normalise(line).ok())
        .filter(|letters| letters.len() >= 3)
        .collect()
});

/// The grid's cells: the shape at `rows` x `cols`.
fn cells(spec: &Spec) -> Result<Grid, Error> {
    for (field, n) in [("rows", spec.rows), ("cols", spec.cols)] {
        if !SIDE_RANGE.contains(&n) {
            return Err(invalid(field, format!("{n}; a grid has {} to {}", SIDE_RANGE.start(), SIDE_RANGE.end())));
        }
    }
    let mask = spec.shape.cells(spec.rows, spec.cols).map_err(|e| invalid("shape", e))?;
    Ok(Grid::new(spec.rows, spec.cols, &mask.cells))
}

/// A request as checked before anything is placed.
struct Checked {
    words: Vec<Word>,
    forbidden: Vec<Vec<u8>>,
    empty: Grid,
    message: Option<Vec<u8>>,
}

/// What [`generate`] refuses before it places anything: the list, `avoid`, the grid, a
/// word longer than every line it could lie along, the message's letters. Cheap: a book
/// checks every puzzle's request this way when it is ordered.
pub fn check(spec: &Spec) -> Result<(), Error> {
    checked(spec).map(|_| ())
}

fn checked(spec: &Spec) -> Result<Checked, Error> {
    let words = check_words(spec)?;
    let forbidden = forbidden(spec, &words)?;
    let empty = cells(spec)?;
    for w in &words {
        if place::fits_somewhere(&empty, &w.letters, spec.level).is_none() {
            return Err(Error::NoRoom { words: vec![w.given.clone()] });
        }
    }
    let message = match &spec.message {
        Some(m) => {
            let letters = normalise(m).map_err(|e| invalid("message", e))?;
            if letters.is_empty() {
                return Err(invalid("message", "the message has no letters"));
            }
            Some(letters)
        }
        None => None,
    };
    Ok(Checked { words, forbidden, empty, message })
}

/// Placements tried per attempt, and attempts (each from a fresh random order) before
/// the words are said not to fit: about a second in all at most.
pub const PLACEMENT_BUDGET: usize = 40_000;
pub const ATTEMPTS: usize = 5;

/// What making a puzzle took: the filler's proposals (pilot runs too) and the placements
/// tried (see [`cost`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub proposals: u64,
    pub placements: u64,
}

/// Makes a puzzle: a pure function of `spec` and `seed`. `monitor` sees the attempts and
/// may stop it.
pub fn generate(spec: &Spec, seed: u64, monitor: &mut dyn Monitor) -> Result<Puzzle, Error> {
    generate_counted(spec, seed, monitor, &mut Work::default(), u64::MAX)
}

/// [`generate`], adding what it took to `work` (however it ends: stopped, it is what was
/// done until then), stopped (as cancelled) once `work` comes to more than `max_units`.
pub fn generate_counted(
    spec: &Spec,
    seed: u64,
    monitor: &mut dyn Monitor,
    work: &mut Work,
    max_units: u64,
) -> Result<Puzzle, Error> {
    let Checked { words, forbidden, empty, message } = checked(spec)?;
    let letters: Vec<&[u8]> = words.iter().map(|w| w.letters.as_slice()).collect();
    let trie = Trie::new(forbidden.iter().map(Vec::as_slice));
    let alphabet: Vec<u8> = match spec.filler {
        Filler::AZ => (b'A'..=b'Z').collect(),
        Filler::WordLetters => {
            let mut a: Vec<u8> = letters.iter().flat_map(|w| w.iter().copied()).collect();
            a.sort_unstable();
            a.dedup();
            a
        }
    };
    let mut rng = Rng::from_u64(seed);
    let mut left_over: Vec<String> = Vec::new();
    let mut proposals = fill::PROPOSAL_BUDGET;
    let total = ATTEMPTS as u64;
    for attempt in 0..ATTEMPTS {
        if !monitor.update(attempt as u64, total) {
            return Err(Error::Cancelled);
        }
        let mut budget = PLACEMENT_BUDGET;
        let so_far = *work;
        let placed = place::place(&empty, &letters, spec.level, &trie, &mut rng, &mut budget, &mut |tried| {
            let now = Work { placements: so_far.placements + tried as u64, ..so_far };
            monitor.update(attempt as u64, total) && now.units() <= max_units
        });
        work.placements += (PLACEMENT_BUDGET - budget) as u64;
        let placed = match placed {
            Ok(placed) => placed,
            Err(place::NotPlaced::Stopped) => return Err(Error::Cancelled),
            Err(place::NotPlaced::Left(unplaced)) => {
                if unplaced.len() < left_over.len() || left_over.is_empty() {
                    left_over = unplaced.iter().map(|&i| words[i].given.clone()).collect();
                }
                continue;
            }
        };
        let mut grid = empty.clone();
        for p in &placed {
            for (k, &q) in p.cells.iter().enumerate() {
                grid.cells[q] = letters[p.word][k];
            }
        }
        let sweeps = match &message {
            Some(m) => {
                write_message(&mut grid, m, &trie, &forbidden)?;
                0
            }
            None => {
                let mut chain = fill::Chain::new(grid, &trie, &alphabet);
                let mut cancelled = false;
                let so_far = *work;
                let sweeps = chain.run(&mut rng, &mut proposals, |made| {
                    let now = Work { proposals: so_far.proposals + made, ..so_far };
                    cancelled = !monitor.update(attempt as u64, total) || now.units() > max_units;
                    cancelled
                });
                work.proposals += chain.proposals + chain.piloted;
                if cancelled {
                    return Err(Error::Cancelled);
                }
                grid = chain.grid;
                match sweeps {
                    Some(s) => s,
                    // Some free cell has no letter that spells nothing: place again.
                    None => continue,
                }
            }
        };
        monitor.update(total, total);
        return Ok(Puzzle {
            rows: grid.text(),
            words: placed
                .iter()
                .map(|p| Placed {
                    word: words[p.word].given.clone(),
                    letters: text(letters[p.word]),
                    cells: p.cells.iter().map(|&q| [q / grid.cols, q % grid.cols]).collect(),
                    direction: DIRECTIONS[p.direction].0.to_string(),
                })
                .collect(),
            sweeps,
        });
    }
    if left_over.is_empty() {
        return Err(invalid(
            "filler",
            "no letters fill the grid around these words without spelling a forbidden word; \
             try another seed, a larger grid or the A-Z filler",
        ));
    }
    Err(Error::NoRoom { words: left_over })
}

/// The message's letters in the free cells in reading order, refused when it does not
/// fill them exactly or spells something forbidden.
fn write_message(grid: &mut Grid, message: &[u8], trie: &Trie, forbidden: &[Vec<u8>]) -> Result<(), Error> {
    let free: Vec<usize> = (0..grid.cells.len()).filter(|&p| grid.cells[p] == FREE).collect();
    if free.len() != message.len() {
        return Err(invalid(
            "message",
            format!("{} letters, but {} cells are left around the words", message.len(), free.len()),
        ));
    }
    for (&p, &b) in free.iter().zip(message) {
        grid.cells[p] = b;
    }
    for &p in &free {
        let mut spelled = None;
        trie.through(grid, p, |found| {
            spelled = Some(found.word);
            false
        });
        if let Some(w) = spelled {
            return Err(invalid(
                "message",
                format!(
                    "with the words placed, it spells {} through row {} column {}",
                    text(&forbidden[w as usize]),
                    p / grid.cols + 1,
                    p % grid.cols + 1
                ),
            ));
        }
    }
    Ok(())
}
