//! Word-search jobs: one puzzle, its words each exactly once and nothing blocked.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::wordbook::Shape;
use crate::puzzles::wordsearch::{self, Filler, Level, Puzzle, Spec};

pub struct WordSearches;

/// A word search to make; also the params stored with its job (the seed always set, drawn
/// by the server when the request has none, so the job is reproducible).
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WordSearchRequest {
    /// 3 to 40 words of 3 to 20 letters A-Z once accents, spaces and punctuation are dropped
    /// (`crème brûlée` is CREMEBRULEE in the grid, printed as given in the list).
    pub words: Vec<String>,
    /// Rows and columns, 5 to 40 each (default 15).
    #[serde(default = "default_side")]
    #[schema(minimum = 5, maximum = 40, default = 15)]
    pub rows: usize,
    #[serde(default = "default_side")]
    #[schema(minimum = 5, maximum = 40, default = 15)]
    pub cols: usize,
    /// The grid's outline, as the books take it: `rectangle` (default), `heart`, `circle`,
    /// `star`, `fox`, or mask rows of `.` (a cell) and `#` or a space (none).
    #[serde(default)]
    pub shape: Shape,
    #[serde(default)]
    pub level: Level,
    /// The same request and seed give the same puzzle.
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub filler: Filler,
    /// Letters for the cells left around the words, in reading order, instead of a random
    /// filler: exactly as many letters as those cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// More words that must not occur anywhere (up to 500).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
    /// Let words of the block list occur.
    #[serde(default)]
    pub allow_offensive: bool,
    /// Keep a word that is part of another (CAT and CATS): the copy inside the longer word
    /// does not count.
    #[serde(default)]
    pub allow_contained: bool,
}

fn default_side() -> usize {
    15
}

impl WordSearchRequest {
    pub fn spec(&self) -> Spec {
        Spec {
            words: self.words.clone(),
            rows: self.rows,
            cols: self.cols,
            shape: self.shape.clone(),
            level: self.level,
            filler: self.filler,
            message: self.message.clone(),
            avoid: self.avoid.clone(),
            allow_offensive: self.allow_offensive,
            allow_contained: self.allow_contained,
        }
    }
}

/// A made word search and the seed it was made from.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WordSearchOutput {
    #[serde(flatten)]
    pub puzzle: Puzzle,
    pub seed: u64,
}

pub fn run_error(e: wordsearch::Error) -> RunError {
    match e {
        wordsearch::Error::Cancelled => RunError::Cancelled,
        other => RunError::Failed(other.to_string()),
    }
}

impl JobKind for WordSearches {
    const NAME: &'static str = "wordsearches";
    type Params = WordSearchRequest;
    type Output = WordSearchOutput;

    fn run(_: &Context, req: WordSearchRequest, monitor: &mut dyn Monitor) -> Result<WordSearchOutput, RunError> {
        let seed = req.seed.unwrap_or_default();
        let puzzle = wordsearch::generate(&req.spec(), seed, monitor).map_err(run_error)?;
        Ok(WordSearchOutput { puzzle, seed })
    }
}
