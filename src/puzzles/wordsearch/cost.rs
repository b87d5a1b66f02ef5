//! What a puzzle or a book costs to make, and the most a caller may ask for: work in units
//! of about equal time (a filler proposal; a placement tried weighs more), estimated when a
//! book is ordered and counted as it is made; and the bytes of the result it stores.

use serde::Deserialize;

use super::{Spec, Work};
use crate::puzzles::crossword::words::normalise;

/// A caller's maxima for word searches (a single puzzle's result is held to `max_result_bytes`
/// too; its time is bounded by its search's own budgets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Seconds of one core a book may take to make: refused when its estimate is over, and
    /// stopped when the work it has done is.
    pub max_book_seconds: u32,
    /// Bytes a made book's result may take: refused when the most its request can make is
    /// over.
    pub max_result_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_book_seconds: 600, max_result_bytes: 8 << 20 }
    }
}

impl Limits {
    /// No maxima: the offline command, which runs on its user's own machine.
    pub const UNLIMITED: Limits = Limits { max_book_seconds: u32::MAX, max_result_bytes: usize::MAX };

    /// The work a book may take.
    pub fn max_units(&self) -> u64 {
        u64::from(self.max_book_seconds).saturating_mul(UNITS_PER_SECOND)
    }
}

/// Work units one core does in a second, set as on a busy machine so that an estimate errs
/// long and a book is stopped late rather than early.
pub const UNITS_PER_SECOND: u64 = 500_000;

/// Units a placement tried weighs: it checks every line through the word's cells.
const PLACEMENT_UNITS: u64 = 10;

/// Units every puzzle costs besides its search: its forbidden words read and indexed.
const SETUP_UNITS: u64 = 1_000;

/// Sweeps of the filler a puzzle takes when few proposals are refused: a pilot and one run.
const TYPICAL_SWEEPS: u64 = 2 * super::fill::BURN_IN as u64 + 2;

impl Work {
    pub fn units(&self) -> u64 {
        SETUP_UNITS + self.proposals + PLACEMENT_UNITS * self.placements
    }
}

/// The units `spec` takes when its filler's proposals are seldom refused (A-Z, few forbidden
/// words): the baseline that a hardness measured on a sample scales.
pub fn typical_units(spec: &Spec) -> u64 {
    let cells = (spec.rows * spec.cols) as u64;
    let placements = (spec.words.len() as u64) * (1 + cells * 8 / 256);
    SETUP_UNITS + TYPICAL_SWEEPS * cells + PLACEMENT_UNITS * placements
}

/// The estimated seconds of a book of `specs`, its puzzles `hardness` times as costly as
/// typical (from a sample: what one of them took over what it typically would).
pub fn book_seconds(specs: &[Spec], hardness: f64) -> f64 {
    let units: u64 = specs.iter().map(typical_units).sum();
    units as f64 * hardness.max(1.0) / UNITS_PER_SECOND as f64
}

/// The most bytes a made puzzle of `spec` takes as JSON, with a title whose JSON takes
/// `title_bytes`: a bound from the request.
pub fn puzzle_bytes(spec: &Spec, title_bytes: usize) -> usize {
    // "rows":[…] and each row quoted; "sweeps", "level", "title" and the braces.
    let grid = 12 + spec.rows * (spec.cols + 3);
    let fixed = 80 + title_bytes;
    // [row,column], and a comma.
    let digits = |n: usize| n.max(1).to_string().len();
    let cell = 4 + digits(spec.rows) + digits(spec.cols);
    let words: usize = spec
        .words
        .iter()
        .map(|w| {
            let letters = normalise(w).map_or(*super::LETTERS_RANGE.end(), |l| l.len());
            // {"word":…,"letters":"…","cells":[…],"direction":"down-right"},
            80 + json_bytes(w) + letters + cell * letters
        })
        .sum();
    grid + fixed + words
}

/// The bytes of `text` as a JSON string.
pub fn json_bytes(text: &str) -> usize {
    serde_json::to_string(text).map_or(6 * text.len() + 2, |json| json.len())
}
