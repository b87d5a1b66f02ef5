//! Crossword engine: black/white patterns (generation, hex and rows forms), fills from a
//! word list, and word squares.
//!
//! **Pattern rules** (as in the original generator), for a square of side 5..=21:
//! 1. symmetry: `mirror` (about the vertical and the horizontal centre line, the default)
//!    or `rotational` (half turn). Mirror symmetry on an even side is impossible (the four
//!    centre squares are images of each other, a one-colour 2x2 block) and refused at once;
//! 2. no 2x2 block of white squares; 3. no 2x2 block of black squares;
//! 4. a *word* is a maximal run of >= 2 white squares across or down. No run has length
//!    exactly 2, and every white square lies in a run of length >= 3 in at least one
//!    direction. A white square whose run in the other direction has length 1 is
//!    *unchecked* there (it belongs to one word only), which is allowed. Given the first
//!    half, the second is the same as "no white square without a white neighbour";
//! 5. no run longer than `max_len` (default: the side); 6. no more than 3 black squares
//!    in a row, across or down; 7. the white squares are connected (4-neighbourhood).
//!
//! **Hex form**: the grid row by row as bits (white = 1), four bits per symbol `0-9A-F`;
//! a final group of 1, 2 or 3 bits is one of `g h` / `i j k l` / `m n o p q r s t`
//! (`0 1` / `00 01 10 11` / `000 … 111`). Odd sides end with `g` or `h`.
//!
//! **Fills** take any rectangular grid of 3..31 rows and columns (as rows, with fixed
//! letters) or a square hex pattern, and a scored list: the bundled English one
//! (`data/words.txt.gz`, built from SCOWL and WordNet by `scripts/build-wordlist`, see
//! `data/words.LICENSE`), an uploaded one or the request's own; every slot gets a
//! distinct entry scoring at least `min_score`, never one of the block list
//! (`data/blocklist.txt`) unless `allow_offensive`, better scores preferred.
//!
//! **Word squares**: see `wordsquare` (all 2n words distinct unless `distinct: false`).
//!
//! **Budgets**: every search counts nodes (`max_nodes`, deterministic: it decides which
//! result is found) and may have a wall-clock `time_limit_ms` (decides only whether a
//! result is found in time). Running out ends with `BudgetExhausted` and says which.
//!
//! **Limits**: [`Limits`] holds the server-side maxima of the budgets, counts, word
//! lists and result size; a request above one is refused before any search
//! (`InvalidField` naming the field). The `*_within` functions take them; the plain ones
//! use `Limits::default()`.

pub mod american;
mod board;
mod budget;
pub mod clues;
pub mod error;
pub mod fill;
mod fill_search;
pub mod grid;
pub mod hex;
mod limits;
pub mod pattern;
mod source;
pub mod words;
pub mod wordsquare;

#[cfg(test)]
mod american_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wordlist_tests;

use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::Monitor;

pub use error::CrosswordError;
use error::Result;
pub use fill::{Entry, Fill, FillRequest, Quality};
pub use grid::{Direction, Grid, Slot, FILL_MAX_SIDE, FILL_MIN_SIDE, MAX_SIZE, MIN_SIZE};
pub use limits::Limits;
pub use pattern::{Pattern, PatternRequest, PatternResult, Rules, Symmetry};
pub use source::{inline_list, WordSource};
pub use words::{LineError, WordFilter, WordList};
pub use wordsquare::{WordSquareRequest, WordSquareResult};

/// A request of this module's searches (patterns, fills, word squares) and what it finds.
pub trait SearchRequest {
    type Found;

    /// Runs the search within `limits` (a request above them is refused before any search),
    /// with `stored`, the list the request's `wordlist` names, loaded by the caller.
    fn search(&self, stored: Option<&WordList>, limits: &Limits, progress: &mut dyn Monitor) -> Result<Self::Found>;
}

/// Runs `req` within the default [`Limits`], without a stored list.
pub fn search<R: SearchRequest>(req: &R, progress: &mut dyn Monitor) -> Result<R::Found> {
    req.search(None, &Limits::default(), progress)
}

/// How many results a request wants: a number, or `"all"` (enumerate and count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CountRepr", into = "CountRepr")]
pub enum Count {
    N(u64),
    All,
}

impl utoipa::PartialSchema for Count {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .description(Some("How many results: a number (default 1), or \"all\" to enumerate and count them."))
            .item(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1)))
            .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["all"])))
            .into()
    }
}

impl utoipa::ToSchema for Count {}

impl Default for Count {
    fn default() -> Self {
        Count::N(1)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum CountRepr {
    N(u64),
    S(String),
}

impl TryFrom<CountRepr> for Count {
    type Error = String;
    fn try_from(r: CountRepr) -> Result<Self, String> {
        match r {
            CountRepr::N(n) if n >= 1 => Ok(Count::N(n)),
            CountRepr::S(s) if s == "all" => Ok(Count::All),
            CountRepr::N(_) => Err("count must be at least 1 (or \"all\")".into()),
            CountRepr::S(s) => Err(format!("count must be a positive integer or \"all\", not {s:?}")),
        }
    }
}

impl From<Count> for CountRepr {
    fn from(c: Count) -> Self {
        match c {
            Count::N(n) => CountRepr::N(n),
            Count::All => CountRepr::S("all".into()),
        }
    }
}
