//! One Up: an N x N grid (4..=9) whose rows and columns are split by walls into regions;
//! a region of size n holds each of 1..=n exactly once, and the given clue digits must agree.
//!
//! - [`Puzzle`]: parsed from the original text format ([`Puzzle::from_text`]) or JSON
//!   ([`Puzzle::from_json`]), written back with [`Puzzle::to_text`] / [`Puzzle::to_json`].
//! - [`solve`]: exact solver (propagation + backtracking) that also proves uniqueness.
//! - [`metropolis`]: the Metropolis sampler of the reference write-up.
//! - [`generate`]: seeded puzzle generator with minimal clue sets, at a chosen level.
//! - [`logic`]: the human-style solver that grades puzzles and gives hints.

mod error;
mod generate;
mod json;
mod logic;
mod metropolis;
mod parse;
mod puzzle;
mod solve;
#[cfg(test)]
mod tests;
mod text;

pub use error::{ErrorKind, ParseError};
pub use generate::{
    book_seconds, generate, generate_book, generate_with, puzzles_per_second, smallest_size, ClueSymmetry, Difficulty,
    GenerateError, GenerateOptions, Generated, LevelCounts, MAX_ATTEMPTS, MAX_BOOK_PUZZLES,
};
pub use logic::{
    grade, grade_within, hint, solve_logically, solve_logically_from, Cell, Contradiction, Elimination, Hint,
    HintError, Level, Logical, Placement, Step, Technique, HINT_MAX_NODES,
};
pub use metropolis::{
    metropolis, metropolis_within, Limits, MetropolisError, MetropolisOptions, MetropolisStats, OptionsError,
    DEFAULT_MAX_STEPS, DEFAULT_TEMPERATURE,
};
pub use puzzle::{Clue, Puzzle, MAX_SIZE, MIN_SIZE};
pub use solve::{solve, solve_with, ExactOptions, ExactStats, DEFAULT_MAX_NODES};

use serde::{Deserialize, Serialize};

/// The 7 July 2024 newspaper puzzle in the original text format (comments included).
pub const EXAMPLE: &str = include_str!("../../../data/oneup-2024-07-07.txt");

impl Puzzle {
    /// Parses the original text format (see the `parse` module docs).
    pub fn from_text(input: &str) -> Result<Puzzle, ParseError> {
        parse::parse_text(input)
    }
}

/// Which solver to run, or which one produced an outcome; `"exact"` or `"metropolis"` on
/// the wire. The one such type: job parameters and the HTTP layer use it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Exact,
    Metropolis,
}

/// A solver's answer: `{"method", "solution": [rows] | null, "unique": bool | null,
/// "reason"?, "stats": {...}}`. `unique` is null when not decided (Metropolis, limit 1,
/// budget exhausted, no solution); `reason` explains a missing solution or undecided uniqueness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SolveOutcome<S> {
    pub method: Method,
    /// The solved grid, one string of digits a row; null when none was found.
    #[schema(required = true)]
    pub solution: Option<Vec<String>>,
    /// Whether the solution is the only one; null when not decided.
    #[schema(required = true)]
    pub unique: Option<bool>,
    /// Why there is no solution, or why uniqueness is undecided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reason: Option<String>,
    pub stats: S,
}
