//! Crossword jobs: sample or enumerate patterns, fill a pattern from a word list, and find
//! word squares.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};

use crate::puzzles::crossword::{
    clues, CrosswordError, Entry, Fill, FillRequest, Pattern, PatternRequest, PatternResult, Quality, SearchRequest,
    WordList, WordSquareRequest, WordSquareResult,
};
use crate::puzzles::monitor::Monitor;

pub struct CrosswordPatterns;
pub struct CrosswordFills;
pub struct WordSquares;

crate::fields::api_struct! {
    /// How a search for many results ended: how many exist, and why fewer or none are
    /// returned.
    #[derive(Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct Ending {
        /// With `"all"`: how many exist (the result holds up to `limit` of them).
        pub total?: u64,
        /// Why fewer than requested are returned, if so.
        pub note?: String,
        /// Why none is returned (none exists, or the budget ran out).
        pub reason?: String,
    }
}

/// A pattern search's result: the patterns found, or none and the `reason`.
#[derive(Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PatternsOutput {
    pub patterns: Vec<Pattern>,
    #[serde(flatten)]
    pub ending: Ending,
}

crate::fields::api_struct! {
    /// A fill's result: the filled grid with its entries, or `rows: null` and the `reason`.
    #[derive(Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct FillOutput {
        /// Letters, `#` for black squares; null when no fill was found.
        #[schema(required = true)]
        pub rows: Option<Vec<String>>,
        pub across: Vec<Entry>,
        pub down: Vec<Entry>,
        /// The lowest and the mean score of the entries (absent when none has a score).
        pub quality?: Quality,
        /// Why no fill was found (none exists, or the budget ran out).
        pub reason?: String,
        /// The entries the request gave no clue (or an empty one), as clue keys (`1A`, `2D`),
        /// across first: the .puz and .ipuz files give them empty clues.
        #[serde(default)]
        pub clues_missing: Vec<String>,
    }
}

impl FillOutput {
    /// The fill, if one was found.
    pub fn fill(self) -> Result<Fill, String> {
        match self.rows {
            Some(rows) => Ok(Fill { rows, across: self.across, down: self.down, quality: self.quality }),
            None => Err(self.reason.unwrap_or_else(|| "no reason recorded".into())),
        }
    }
}

/// A word square search's result: the squares found, or none and the `reason`.
#[derive(Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WordSquaresOutput {
    /// Each square as its rows.
    pub squares: Vec<Vec<String>>,
    #[serde(flatten)]
    pub ending: Ending,
}

impl From<PatternResult> for PatternsOutput {
    fn from(r: PatternResult) -> Self {
        PatternsOutput { patterns: r.patterns, ending: Ending { total: r.total, note: r.note, reason: None } }
    }
}

impl From<Fill> for FillOutput {
    fn from(f: Fill) -> Self {
        FillOutput { rows: Some(f.rows), across: f.across, down: f.down, quality: f.quality, ..Default::default() }
    }
}

impl From<WordSquareResult> for WordSquaresOutput {
    fn from(r: WordSquareResult) -> Self {
        WordSquaresOutput { squares: r.squares, ending: Ending { total: r.total, note: r.note, reason: None } }
    }
}

/// Outputs that can say why a search ended without a result.
trait WithReason: Default {
    fn with_reason(reason: String) -> Self;
}

impl WithReason for PatternsOutput {
    fn with_reason(reason: String) -> Self {
        PatternsOutput { ending: Ending { reason: Some(reason), ..Default::default() }, ..Default::default() }
    }
}

impl WithReason for FillOutput {
    fn with_reason(reason: String) -> Self {
        FillOutput { reason: Some(reason), ..Default::default() }
    }
}

impl WithReason for WordSquaresOutput {
    fn with_reason(reason: String) -> Self {
        WordSquaresOutput { ending: Ending { reason: Some(reason), ..Default::default() }, ..Default::default() }
    }
}

/// A search that ends without a result (no solution exists, or the budget ran out) is a
/// successful job whose result says why, like a One Up puzzle without a solution.
fn outcome<T, O: From<T> + WithReason>(result: Result<T, CrosswordError>) -> Result<O, RunError> {
    match result {
        Ok(found) => Ok(found.into()),
        Err(CrosswordError::Cancelled) => Err(RunError::Cancelled),
        Err(
            e @ (CrosswordError::NoSolution(_) | CrosswordError::BudgetExhausted(_) | CrosswordError::Impossible(_)),
        ) => Ok(O::with_reason(e.to_string())),
        Err(other) => Err(RunError::Failed(other.to_string())),
    }
}

/// Runs `search` with the uploaded list `wordlist` names, loaded through the store (the
/// params hold its id), and turns how it ended into the job's output.
fn search_with_list<T, O: From<T> + WithReason>(
    ctx: &Context,
    wordlist: Option<&str>,
    search: impl FnOnce(Option<&WordList>) -> Result<T, CrosswordError>,
) -> Result<O, RunError> {
    let stored = match wordlist {
        None => None,
        Some(id) => match ctx.wordlists.load_blocking(id) {
            Ok(Some(list)) => Some(list),
            Ok(None) => return Err(RunError::Failed(format!("word list {id} is not stored"))),
            Err(e) => return Err(RunError::Failed(format!("word list {id}: {e}"))),
        },
    };
    outcome(search(stored.as_deref()))
}

/// A search kind: its name, request and result; the request's search runs with the word
/// list it names.
macro_rules! search_kind {
    ($kind:ident, $name:literal, $params:ty, $output:ty) => {
        impl JobKind for $kind {
            const NAME: &'static str = $name;
            type Params = $params;
            type Output = $output;

            fn wordlist(req: &$params) -> Option<&str> {
                req.source().wordlist
            }

            fn run(ctx: &Context, req: $params, monitor: &mut dyn Monitor) -> Result<$output, RunError> {
                let limits = &ctx.limits.crossword;
                search_with_list(ctx, Self::wordlist(&req), |stored| req.search(stored, limits, monitor))
            }
        }
    };
}

search_kind!(CrosswordPatterns, "crosswords.patterns", PatternRequest, PatternsOutput);
search_kind!(WordSquares, "wordsquares", WordSquareRequest, WordSquaresOutput);

impl JobKind for CrosswordFills {
    const NAME: &'static str = "crosswords.fills";
    /// A publisher's product: kept until its owner deletes it.
    const KEPT: bool = true;
    type Params = FillRequest;
    type Output = FillOutput;

    fn wordlist(req: &FillRequest) -> Option<&str> {
        req.source().wordlist
    }

    fn run(ctx: &Context, req: FillRequest, monitor: &mut dyn Monitor) -> Result<FillOutput, RunError> {
        let limits = &ctx.limits.crossword;
        let mut output: FillOutput =
            search_with_list(ctx, Self::wordlist(&req), |stored| req.search(stored, limits, monitor))?;
        // The request was checked with its grid before it was queued.
        let grid = req.pattern.to_grid().map_err(|e| RunError::Failed(e.to_string()))?;
        output.clues_missing = clues::missing(&grid.slots(), req.clues.as_ref());
        Ok(output)
    }
}
