//! Filling a grid from a scored word list: every slot (run of >= 2 white squares) gets a
//! distinct entry of the list, crossing slots agree and fixed letters are kept. A slot
//! made wholly of fixed letters (a theme entry) is kept as it is and need not be in the
//! list. Within its budget a fill prefers better entries: it raises the lowest score
//! first, then the mean (see `fill_search`). The search is in `fill_search`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;

use super::budget::Budget;
use super::clues::{self, Texts, DEFAULT_TITLE, MAX_LINE_CHARS, MAX_NOTES_CHARS};
use super::error::{CrosswordError, Result};
use super::fill_search::{self, Given};
use super::grid::{Direction, Grid, Slot};
use super::limits::Limits;
use super::words::{LengthIndex, WordFilter, WordList};
use super::SearchRequest;

/// Candidate words tried when a request gives no `max_nodes`, or fewer if
/// [`Limits::fill_max_work`] allows fewer for the pattern and the list.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// The fixed part of a node's cost, in candidate-set words. Measured on a loaded 2-core
/// machine: 21 µs a node with 292 words of candidate sets (15x15, 6000-word list), 54 µs
/// with 1811 (21x21, 30000 words), i.e. about 15 µs + 21 ns a word.
const NODE_OVERHEAD_WORDS: u64 = 700;

/// What one search node costs for this pattern and list, in candidate-set words (see
/// [`Limits::fill_max_work`]).
pub(crate) fn node_cost(slots: &[Slot], list: &WordList) -> u64 {
    NODE_OVERHEAD_WORDS + slots.iter().map(|s| list.count_of_len(s.len).div_ceil(64) as u64).sum::<u64>()
}

/// A pattern given as its hex string or as rows (`"#..A#"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PatternInput {
    /// The pattern's hex form (as a pattern search returns it; square, side 5..21).
    Hex(String),
    /// The grid's rows, 3..31 of 3..31 squares: `#` black, `.` white, `A`-`Z` a white
    /// square with its letter fixed.
    Rows(Vec<String>),
}

impl PatternInput {
    pub fn to_grid(&self) -> Result<Grid, CrosswordError> {
        match self {
            PatternInput::Hex(s) => Grid::from_hex(s),
            PatternInput::Rows(rows) => Grid::from_rows(rows),
        }
    }
}

crate::fields::api_struct! {
    #[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct FillRequest {
        pub pattern: PatternInput,
        ..word_source,
        /// No two entries share a run of more than this many letters.
        #[schema(minimum = 2, maximum = 31)]
        pub max_shared_substring?: usize,
        #[serde(default)]
        #[schema(default = 0)]
        pub seed: u64,
        /// Candidate words tried, over all restarts and improvements. The first fill is sought
        /// by two searches at once (one per order of trying candidates, on two cores where there
        /// are two), each within `max_nodes`; the rounds after it count on from the winner's.
        #[schema(minimum = 1, default = 1000000)]
        pub max_nodes?: u64,
        /// Milliseconds the search may take. Once one of the two searches for the first fill
        /// has found it, the other may run past this, up to twice it, to settle which fill wins.
        #[schema(minimum = 1)]
        pub time_limit_ms?: u64,
        /// The puzzle's title in its PDFs and files (default "Crossword"; up to 200 characters).
        #[schema(max_length = 200)]
        pub title?: String,
        /// Up to 200 characters.
        #[schema(max_length = 200)]
        pub author?: String,
        /// Up to 200 characters.
        #[schema(max_length = 200)]
        pub copyright?: String,
        /// Notes for the solver, up to 2000 characters (line breaks allowed).
        #[schema(max_length = 2000)]
        pub notes?: String,
        /// Clues by entry, `{"1A": "...", "2D": "..."}`: each key names an entry of the grid,
        /// each clue is one line of up to 500 characters. Entries without one get an empty clue
        /// (the result's `clues_missing` lists them).
        #[schema(example = json!({"1A": "Organ that pumps", "1D": "Tell apart"}))]
        pub clues?: BTreeMap<String, String>,
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct FillOptions {
    pub seed: u64,
    /// Candidate words tried, over all restarts (default `DEFAULT_MAX_NODES`); each of the
    /// two searches racing for the first fill may try as many.
    pub max_nodes: Option<u64>,
    pub time_limit_ms: Option<u64>,
    /// Which entries may be used (score, block list).
    pub filter: WordFilter,
    pub max_shared_substring: Option<usize>,
    /// Return the first fill found, without trying to raise its lowest score (benchmarks).
    pub first_fill: bool,
}

crate::fields::api_struct! {
    /// One clue position: 1-based `row` and `col` of its first letter.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct Entry {
        pub number: u32,
        pub row: usize,
        pub col: usize,
        pub word: String,
        /// The entry's score in the word list; absent for an entry of fixed letters that the
        /// list does not have.
        #[schema(minimum = 0, maximum = 100)]
        pub score?: u8,
    }
}

/// The scores of a fill's entries (those with a score).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Quality {
    #[schema(minimum = 0, maximum = 100)]
    pub min_score: u8,
    /// Rounded to two decimals.
    pub mean_score: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fill {
    /// Letters, `#` for black squares.
    pub rows: Vec<String>,
    pub across: Vec<Entry>,
    pub down: Vec<Entry>,
    /// Absent when no entry has a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<Quality>,
}

impl FillRequest {
    /// A request for `pattern` with every other field at its default.
    pub fn new(pattern: PatternInput) -> FillRequest {
        FillRequest {
            pattern,
            words: None,
            wordlist: None,
            min_score: None,
            allow_offensive: false,
            max_shared_substring: None,
            seed: 0,
            max_nodes: None,
            time_limit_ms: None,
            title: None,
            author: None,
            copyright: None,
            notes: None,
            clues: None,
        }
    }

    /// Its title, author, copyright, notes and clues, for the PDFs and the files.
    pub fn texts(&self) -> Texts<'_> {
        Texts {
            title: self.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(DEFAULT_TITLE),
            author: self.author.as_deref().unwrap_or_default(),
            copyright: self.copyright.as_deref().unwrap_or_default(),
            notes: self.notes.as_deref().unwrap_or_default(),
            clues: self.clues.as_ref(),
        }
    }

    /// Checks the texts, and the clues against the grid's entries.
    fn check_texts(&self, grid: &Grid) -> Result<(), CrosswordError> {
        for (field, text) in [("title", &self.title), ("author", &self.author), ("copyright", &self.copyright)] {
            clues::check_text(field, text.as_deref().unwrap_or_default(), MAX_LINE_CHARS, false)?;
        }
        clues::check_text("notes", self.notes.as_deref().unwrap_or_default(), MAX_NOTES_CHARS, true)?;
        match &self.clues {
            Some(c) => clues::check_clues(c, &grid.slots()),
            None => Ok(()),
        }
    }

    /// Checks the request against `limits` without searching; errors name the field.
    pub fn validate(&self, limits: &Limits) -> Result<(), CrosswordError> {
        self.validate_with(None, limits)
    }

    /// [`FillRequest::validate`] with the list `wordlist` names (the caller loads it).
    pub fn validate_with(&self, stored: Option<&WordList>, limits: &Limits) -> Result<(), CrosswordError> {
        let (grid, _, _) = self.plan(stored, limits)?;
        check_covered(&grid, &grid.slots())
    }

    /// The pattern, the word list and the options, checked against `limits`.
    fn plan<'a>(
        &self,
        stored: Option<&'a WordList>,
        limits: &Limits,
    ) -> Result<(Grid, std::borrow::Cow<'a, WordList>, FillOptions), CrosswordError> {
        let grid = self.pattern.to_grid()?;
        self.check_texts(&grid)?;
        let source = self.source();
        let list = source.list(stored, limits)?;
        let filter = source.filter()?;
        if let Some(n) = self.max_shared_substring {
            if n < 2 {
                return Err(CrosswordError::field("max_shared_substring", format!("must be at least 2 (got {n})")));
            }
        }
        let cost = node_cost(&grid.slots(), &list);
        let affordable = limits.fill_max_work / cost;
        if affordable < limits.fill_max_nodes && self.max_nodes.is_some_and(|n| n > affordable) {
            return Err(CrosswordError::field(
                "max_nodes",
                format!(
                    "must be at most {affordable} for this pattern and word list (got {}): each node costs {cost} \
                     (one per 64 words of each slot's length, plus {NODE_OVERHEAD_WORDS}) and a fill may spend {}",
                    self.max_nodes.unwrap_or_default(),
                    limits.fill_max_work
                ),
            ));
        }
        let max = limits.fill_max_nodes.min(affordable);
        let max_nodes = Limits::max_nodes(self.max_nodes, DEFAULT_MAX_NODES, max)?;
        let time_limit_ms = limits.time_limit(self.time_limit_ms)?;
        let opts = FillOptions {
            seed: self.seed,
            max_nodes: Some(max_nodes),
            time_limit_ms,
            filter,
            max_shared_substring: self.max_shared_substring,
            first_fill: false,
        };
        Ok((grid, list, opts))
    }
}

impl SearchRequest for FillRequest {
    type Found = Fill;

    fn search(&self, stored: Option<&WordList>, limits: &Limits, progress: &mut dyn Monitor) -> Result<Fill> {
        let (grid, list, opts) = self.plan(stored, limits)?;
        fill_grid(&grid, &list, &opts, progress)
    }
}

/// Fills every slot (run of >= 2 white squares) with a distinct entry of `list` so that
/// crossing slots agree and fixed letters are kept, with standard numbering. `opts` come
/// from the caller, not a client: they are not checked against [`Limits`] (see
/// [`FillRequest::search`]).
pub fn fill_grid(
    grid: &Grid,
    list: &WordList,
    opts: &FillOptions,
    progress: &mut dyn Monitor,
) -> Result<Fill, CrosswordError> {
    let max_nodes = Limits::max_nodes(opts.max_nodes, DEFAULT_MAX_NODES, u64::MAX)?;
    super::budget::time_limit_ms(opts.time_limit_ms)?;
    let slots = grid.slots();
    check_covered(grid, &slots)?;
    // Slots wholly of fixed letters are given; the others are searched.
    let fixed = |s: &Slot| s.cells().all(|(r, c)| grid.letter(r, c).is_some());
    let (given, open): (Vec<Slot>, Vec<Slot>) = slots.iter().partition(|s| fixed(s));
    // The seed orders the candidates of equal score and drives the restarts.
    let rng = Rng::from_u64(opts.seed);
    let longest = slots.iter().map(|s| s.len).max().unwrap_or(0);
    let mut indexes: Vec<Option<Arc<LengthIndex>>> = vec![None; longest + 1];
    for s in &open {
        if indexes[s.len].is_none() {
            indexes[s.len] = Some(list.index(s.len, &opts.filter));
        }
    }
    check_candidates(grid, &open, &given, &indexes, &opts.filter)?;
    let given: Vec<Given> = given.iter().map(|s| Given { slot: *s, word: slot_letters(grid, s) }).collect();
    let mut budget = Budget::new(max_nodes, opts.time_limit_ms, 128, progress);
    let words = fill_search::solve(grid, &open, &given, &indexes, opts, rng, &mut budget)?;
    let mut chosen: Vec<(Slot, String)> = open.into_iter().zip(words).collect();
    chosen.extend(given.into_iter().map(|g| (g.slot, String::from_utf8(g.word).expect("ASCII"))));
    Ok(output(grid, &slots, chosen, list))
}

/// The letters of a slot wholly of fixed letters.
fn slot_letters(grid: &Grid, s: &Slot) -> Vec<u8> {
    s.cells().map(|(r, c)| grid.letter(r, c).expect("fixed")).collect()
}

/// A slot as its fixed letters, `?` for the open squares: `?A?E??????`.
pub(crate) fn slot_pattern(grid: &Grid, s: &Slot) -> String {
    s.cells().map(|(r, c)| grid.letter(r, c).map_or('?', char::from)).collect()
}

fn output(grid: &Grid, slots: &[Slot], chosen: Vec<(Slot, String)>, list: &WordList) -> Fill {
    let (h, w) = (grid.height(), grid.width());
    let mut rows = vec![vec![b'#'; w]; h];
    let (mut across, mut down) = (Vec::new(), Vec::new());
    for slot in slots {
        let word = &chosen.iter().find(|(s, _)| s == slot).expect("every slot chosen").1;
        for ((r, c), ch) in slot.cells().zip(word.bytes()) {
            rows[r][c] = ch;
        }
        let score = list.score(word.as_bytes());
        let entry = Entry { number: slot.number, row: slot.row + 1, col: slot.col + 1, word: word.clone(), score };
        match slot.dir {
            Direction::Across => across.push(entry),
            Direction::Down => down.push(entry),
        }
    }
    let rows = rows.into_iter().map(|r| String::from_utf8(r).expect("ASCII")).collect();
    let scores: Vec<u8> = across.iter().chain(&down).filter_map(|e| e.score).collect();
    let quality = (!scores.is_empty()).then(|| {
        let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / scores.len() as f64;
        Quality { min_score: *scores.iter().min().expect("some"), mean_score: (mean * 100.0).round() / 100.0 }
    });
    Fill { rows, across, down, quality }
}

/// A pattern problem visible without searching: white squares in no word.
fn check_covered(grid: &Grid, slots: &[Slot]) -> Result<(), CrosswordError> {
    let (h, w) = (grid.height(), grid.width());
    let mut covered = vec![false; h * w];
    for s in slots {
        for (r, c) in s.cells() {
            covered[r * w + c] = true;
        }
    }
    for r in 0..h {
        for c in 0..w {
            if grid.is_white(r, c) && !covered[r * w + c] {
                return Err(CrosswordError::field(
                    "pattern",
                    format!(
                        "white square at row {}, col {} belongs to no word (it has no white neighbour)",
                        r + 1,
                        c + 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Problems visible without searching: a slot that no usable entry fits on its own
/// (its length, its fixed letters), more slots of a length than usable entries.
fn check_candidates(
    grid: &Grid,
    open: &[Slot],
    given: &[Slot],
    indexes: &[Option<Arc<LengthIndex>>],
    filter: &WordFilter,
) -> Result<(), CrosswordError> {
    let blocked = if filter.allow_offensive { "" } else { " outside the block list" };
    for s in open {
        let idx = indexes[s.len].as_ref().expect("built");
        let fits = (0..idx.count)
            .any(|i| s.cells().zip(idx.word(i)).all(|((r, c), &a)| grid.letter(r, c).is_none_or(|l| l == a + b'A')));
        if !fits {
            return Err(CrosswordError::NoSolution(format!(
                "{} {} has no entry with score >= {}{blocked}",
                s.label(),
                slot_pattern(grid, s),
                filter.min_score
            )));
        }
    }
    let mut need = vec![0usize; indexes.len()];
    for s in open {
        need[s.len] += 1;
    }
    for (len, &k) in need.iter().enumerate().filter(|(_, &k)| k > 0) {
        let have = indexes[len].as_ref().map_or(0, |i| i.count);
        let taken = given.iter().filter(|g| g.len == len).count();
        if have < k {
            return Err(CrosswordError::NoSolution(format!(
                "the grid has {k} open slots of length {len} but the word list has only {have} distinct entries of \
                 that length with score >= {}{blocked}{}",
                filter.min_score,
                if taken > 0 { format!(" ({taken} more are fixed)") } else { String::new() }
            )));
        }
    }
    Ok(())
}
