//! The one error type of the crossword engine; every message names what is at fault.

use crate::puzzles::monitor::Cancelled;

/// A result of this module: by default, or a crossword error.
pub type Result<T, E = CrosswordError> = std::result::Result<T, E>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CrosswordError {
    /// A request field is out of range or inconsistent (`field`, what is wrong).
    #[error("{field}: {message}")]
    InvalidField { field: &'static str, message: String },
    /// A hex pattern string is malformed.
    #[error("hex pattern: {0}")]
    BadHex(String),
    /// A rows-form pattern is malformed.
    #[error("rows pattern: {0}")]
    BadRows(String),
    /// A supplied word list entry is unusable.
    #[error("words[{index}]: {message}")]
    BadWord { index: usize, message: String },
    /// A fill request's clue is unusable (`key` as given, clipped).
    #[error("clues.{key}: {message}")]
    BadClue { key: String, message: String },
    /// No pattern can satisfy the constraints; known without searching (or proven by exhausting it).
    #[error("no pattern possible: {0}")]
    Impossible(String),
    /// The search ran out of its node or time budget before finding what was asked for.
    #[error("search budget exhausted: {0}")]
    BudgetExhausted(String),
    /// The search was exhaustive and proved there is no solution.
    #[error("no solution exists: {0}")]
    NoSolution(String),
    /// The caller asked the engine to stop.
    #[error("cancelled")]
    Cancelled,
}

impl CrosswordError {
    pub(crate) fn field(field: &'static str, message: impl Into<String>) -> Self {
        CrosswordError::InvalidField { field, message: message.into() }
    }
}

impl From<Cancelled> for CrosswordError {
    fn from(_: Cancelled) -> Self {
        CrosswordError::Cancelled
    }
}

/// Client input as quoted in a message: at most 60 characters of it.
pub(crate) fn clip(input: &str) -> String {
    match input.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &input[..cut]),
        None => input.to_string(),
    }
}
