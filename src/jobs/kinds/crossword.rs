//! Crossword jobs: sample or enumerate patterns, fill a pattern from a word list, and find
//! word squares.

use serde::Serialize;
use serde_json::{json, Value};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::crossword::{self, CrosswordError, FillRequest, PatternRequest, WordSquareRequest};
use crate::puzzles::monitor::Monitor;

pub struct CrosswordPatterns;
pub struct CrosswordFills;
pub struct WordSquares;

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

impl JobKind for CrosswordPatterns {
    const NAME: &'static str = "crosswords.patterns";
    type Params = PatternRequest;
    type Output = Value;

    fn run(_: &Context, req: PatternRequest, monitor: &mut dyn Monitor) -> Result<Value, RunError> {
        outcome(crossword::generate_patterns(&req, monitor), json!({ "patterns": [] }))
    }
}

impl JobKind for CrosswordFills {
    const NAME: &'static str = "crosswords.fills";
    type Params = FillRequest;
    type Output = Value;

    fn run(_: &Context, req: FillRequest, monitor: &mut dyn Monitor) -> Result<Value, RunError> {
        outcome(crossword::fill(&req, monitor), json!({ "rows": null, "across": [], "down": [] }))
    }
}

impl JobKind for WordSquares {
    const NAME: &'static str = "wordsquares";
    type Params = WordSquareRequest;
    type Output = Value;

    fn run(_: &Context, req: WordSquareRequest, monitor: &mut dyn Monitor) -> Result<Value, RunError> {
        outcome(crossword::word_squares(&req, monitor), json!({ "squares": [] }))
    }
}
