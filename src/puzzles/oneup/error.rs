//! Parse/validation errors for One Up puzzles, located by text line or JSON field.

use serde::Serialize;

/// What went wrong, so callers (and tests) can branch on it without parsing messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No content at all.
    Empty,
    /// The input stops before a required part.
    UnexpectedEnd,
    /// A region label that is not an ASCII letter or digit.
    Label,
    /// A label line whose width differs from the grid width.
    LineLength,
    /// A label grid that is not N x N (too few or too many lines).
    GridShape,
    /// Grid size outside 4..=9.
    Size,
    /// The blank line separating the sections is missing.
    MissingBlankLine,
    /// A token that should be a whole number is not one.
    NotANumber,
    /// A clue line with fewer than three numbers.
    MissingNumber,
    /// The clue count disagrees with the clue lines (or cannot fit the grid).
    ClueCount,
    /// A clue's row or column lies outside the grid.
    ClueOutsideGrid,
    /// A clue digit that is 0 or larger than its row or column region allows.
    ClueDigit,
    /// Two clues for the same cell.
    DuplicateClue,
    /// Malformed JSON syntax.
    Json,
    /// A required JSON field is absent.
    MissingField,
    /// A JSON value of the wrong type.
    WrongType,
    /// A JSON field this format does not have (usually a typo).
    UnknownField,
}

/// A user-actionable error: `line` (1-based, text input) or `field` (JSON path such as
/// `clues[2].digit`) says where, `message` says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}", located(.line, .field, .message))]
pub struct ParseError {
    pub kind: ErrorKind,
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

/// Where a piece of input came from; the text and JSON front ends share validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Line(usize),
    Field(String),
    Nowhere,
}

impl ParseError {
    pub(crate) fn new(kind: ErrorKind, loc: &Loc, message: impl Into<String>) -> Self {
        let (line, field) = match loc {
            Loc::Line(n) => (Some(*n), None),
            Loc::Field(f) => (None, Some(f.clone())),
            Loc::Nowhere => (None, None),
        };
        ParseError { kind, line, field, message: message.into() }
    }
}

/// `line N: message`, `field: message` or just the message.
fn located(line: &Option<usize>, field: &Option<String>, message: &str) -> String {
    match (line, field) {
        (Some(line), _) => format!("line {line}: {message}"),
        (None, Some(field)) => format!("{field}: {message}"),
        (None, None) => message.to_string(),
    }
}
