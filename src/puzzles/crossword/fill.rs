//! Filling a pattern from a word list: every slot (run of >= 2 white squares) gets a
//! distinct word of the list and crossing slots agree. The search is in `fill_search`.

use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;

use super::budget::Budget;
use super::error::CrosswordError;
use super::fill_search;
use super::grid::{Direction, Grid, Slot};
use super::limits::{at_most, Limits};
use super::words::{LengthIndex, WordList};

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

/// A pattern given as its hex string or as rows (`"#...#"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PatternInput {
    /// The pattern's hex form (as a pattern search returns it).
    Hex(String),
    /// The pattern's rows: `#` black, `.` white.
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

#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FillRequest {
    pub pattern: PatternInput,
    /// Word list to use instead of the bundled English one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, max_items = 1000000)]
    pub words: Option<Vec<String>>,
    #[serde(default)]
    #[schema(default = 0)]
    pub seed: u64,
    /// Candidate words tried, over all restarts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1, default = 1000000)]
    pub max_nodes: Option<u64>,
    /// Milliseconds the search may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1)]
    pub time_limit_ms: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct FillOptions {
    pub seed: u64,
    /// Candidate words tried, over all restarts (default `DEFAULT_MAX_NODES`).
    pub max_nodes: Option<u64>,
    pub time_limit_ms: Option<u64>,
}

/// One clue position: 1-based `row` and `col` of its first letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Entry {
    pub number: u32,
    pub row: usize,
    pub col: usize,
    pub word: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fill {
    /// Letters, `#` for black squares.
    pub rows: Vec<String>,
    pub across: Vec<Entry>,
    pub down: Vec<Entry>,
}

impl FillRequest {
    /// Checks the request against `limits` without searching; errors name the field.
    pub fn validate(&self, limits: &Limits) -> Result<(), CrosswordError> {
        let (grid, _, _) = self.plan(limits)?;
        check_covered(&grid, &grid.slots())
    }

    /// The pattern, the word list and the options, checked against `limits`.
    fn plan(
        &self,
        limits: &Limits,
    ) -> Result<(Grid, std::borrow::Cow<'static, WordList>, FillOptions), CrosswordError> {
        let grid = self.pattern.to_grid()?;
        if let Some(words) = &self.words {
            if words.len() > limits.max_words {
                return Err(at_most("words", limits.max_words as u64, words.len() as u64));
            }
        }
        let list = WordList::chosen(self.words.as_deref())?;
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
        Ok((grid, list, FillOptions { seed: self.seed, max_nodes: Some(max_nodes), time_limit_ms }))
    }
}

/// Fills the requested pattern (see `fill_grid`) within the default [`Limits`].
pub fn fill(req: &FillRequest, progress: &mut dyn Monitor) -> Result<Fill, CrosswordError> {
    fill_within(req, &Limits::default(), progress)
}

/// [`fill`] within `limits`: a request above them is refused before any search.
pub fn fill_within(req: &FillRequest, limits: &Limits, progress: &mut dyn Monitor) -> Result<Fill, CrosswordError> {
    let (grid, list, opts) = req.plan(limits)?;
    fill_grid(&grid, &list, &opts, progress)
}

/// Fills every slot (run of >= 2 white squares) with a distinct word of `list` so that
/// crossing slots agree, with standard numbering. `opts` come from the caller, not a
/// client: they are not checked against [`Limits`] (see [`fill_within`]).
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
    check_lengths(&slots, list)?;
    // The seed shuffles each length's words (candidate order) and drives the restarts.
    let mut rng = Rng::from_u64(opts.seed);
    let mut indexes: Vec<Option<LengthIndex>> = (0..=grid.size()).map(|_| None).collect();
    for s in &slots {
        if indexes[s.len].is_none() {
            indexes[s.len] = Some(LengthIndex::build(list, s.len, Some(&mut rng)));
        }
    }
    let mut budget = Budget::new(max_nodes, opts.time_limit_ms, 128, progress);
    let words = fill_search::solve(grid, &slots, &indexes, rng, &mut budget)?;
    Ok(output(grid.size(), &slots, words))
}

fn output(n: usize, slots: &[Slot], words: Vec<String>) -> Fill {
    let mut rows = vec![vec![b'#'; n]; n];
    let (mut across, mut down) = (Vec::new(), Vec::new());
    for (slot, word) in slots.iter().zip(words) {
        for ((r, c), ch) in slot.cells().zip(word.bytes()) {
            rows[r][c] = ch;
        }
        let entry = Entry { number: slot.number, row: slot.row + 1, col: slot.col + 1, word };
        match slot.dir {
            Direction::Across => across.push(entry),
            Direction::Down => down.push(entry),
        }
    }
    let rows = rows.into_iter().map(|r| String::from_utf8(r).expect("ASCII")).collect();
    Fill { rows, across, down }
}

/// A pattern problem visible without searching: white squares in no word.
fn check_covered(grid: &Grid, slots: &[Slot]) -> Result<(), CrosswordError> {
    let n = grid.size();
    let mut covered = vec![false; n * n];
    for s in slots {
        for (r, c) in s.cells() {
            covered[r * n + c] = true;
        }
    }
    for r in 0..n {
        for c in 0..n {
            if grid.is_white(r, c) && !covered[r * n + c] {
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

/// Word list problems visible without searching: slot lengths the list lacks, more slots
/// of a length than distinct words of it.
fn check_lengths(slots: &[Slot], list: &WordList) -> Result<(), CrosswordError> {
    let n = slots.iter().map(|s| s.len).max().unwrap_or(0);
    let mut need = vec![0usize; n + 1];
    for s in slots {
        need[s.len] += 1;
    }
    for (len, &k) in need.iter().enumerate().filter(|(_, &k)| k > 0) {
        let have = list.count_of_len(len);
        if have == 0 {
            let slot = slots.iter().find(|s| s.len == len).expect("counted");
            return Err(CrosswordError::NoSolution(format!(
                "the word list has no words of length {len}, needed by {}",
                slot.label()
            )));
        }
        if have < k {
            return Err(CrosswordError::NoSolution(format!(
                "the pattern has {k} slots of length {len} but the word list has only {have} distinct words of that length"
            )));
        }
    }
    Ok(())
}
