//! The one error type of the crossword engine; every message names what is at fault.

use std::fmt;

use crate::puzzles::monitor::Cancelled;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrosswordError {
    /// A request field is out of range or inconsistent (`field`, what is wrong).
    InvalidField { field: &'static str, message: String },
    /// A hex pattern string is malformed.
    BadHex(String),
    /// A rows-form pattern is malformed.
    BadRows(String),
    /// A supplied word list entry is unusable.
    BadWord { index: usize, message: String },
    /// No pattern can satisfy the constraints; known without searching (or proven by exhausting it).
    Impossible(String),
    /// The search ran out of its node or time budget before finding what was asked for.
    BudgetExhausted(String),
    /// The search was exhaustive and proved there is no solution.
    NoSolution(String),
    /// The caller asked the engine to stop.
    Cancelled,
}

impl CrosswordError {
    pub(crate) fn field(field: &'static str, message: impl Into<String>) -> Self {
        CrosswordError::InvalidField { field, message: message.into() }
    }
}

impl fmt::Display for CrosswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrosswordError::InvalidField { field, message } => write!(f, "{field}: {message}"),
            CrosswordError::BadHex(m) => write!(f, "hex pattern: {m}"),
            CrosswordError::BadRows(m) => write!(f, "rows pattern: {m}"),
            CrosswordError::BadWord { index, message } => write!(f, "words[{index}]: {message}"),
            CrosswordError::Impossible(m) => write!(f, "no pattern possible: {m}"),
            CrosswordError::BudgetExhausted(m) => write!(f, "search budget exhausted: {m}"),
            CrosswordError::NoSolution(m) => write!(f, "no solution exists: {m}"),
            CrosswordError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for CrosswordError {}

impl From<Cancelled> for CrosswordError {
    fn from(_: Cancelled) -> Self {
        CrosswordError::Cancelled
    }
}
