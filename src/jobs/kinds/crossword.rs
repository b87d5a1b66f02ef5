//! Crossword jobs: sample or enumerate patterns, fill a pattern from a word list, and find
//! word squares.

use serde::Serialize;
use serde_json::{json, Value};

use super::RunError;
use crate::puzzles::crossword::{self, CrosswordError, FillRequest, PatternRequest, WordSquareRequest};
use crate::puzzles::monitor::Monitor;

pub const PATTERNS: &str = "crossword.patterns";
pub const FILL: &str = "crossword.fill";
pub const WORD_SQUARES: &str = "wordsquares";

/// A search that ends without a result (no solution exists, or the budget ran out) is a
/// successful job whose result says why, like a One Up puzzle without a solution.
fn outcome<T: Serialize>(result: Result<T, CrosswordError>, empty: Value) -> Result<Value, RunError> {
    match result {
        Ok(found) => serde_json::to_value(found).map_err(|e| RunError::Failed(e.to_string())),
        Err(CrosswordError::Cancelled) => Err(RunError::Cancelled),
        Err(
            e @ (CrosswordError::NoSolution(_) | CrosswordError::BudgetExhausted(_) | CrosswordError::Impossible(_)),
        ) => {
            let mut out = empty;
            out["reason"] = e.to_string().into();
            Ok(out)
        }
        Err(other) => Err(RunError::Failed(other.to_string())),
    }
}

pub fn patterns(req: PatternRequest, progress: &mut dyn Monitor) -> Result<Value, RunError> {
    outcome(crossword::generate_patterns(&req, progress), json!({ "patterns": [] }))
}

pub fn fill(req: FillRequest, progress: &mut dyn Monitor) -> Result<Value, RunError> {
    outcome(crossword::fill(&req, progress), json!({ "rows": null, "across": [], "down": [] }))
}

pub fn word_squares(req: WordSquareRequest, progress: &mut dyn Monitor) -> Result<Value, RunError> {
    outcome(crossword::word_squares(&req, progress), json!({ "squares": [] }))
}
