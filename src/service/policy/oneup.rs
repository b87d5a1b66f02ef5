//! One Up's requests: a puzzle, a book, a solve's query, and their checks.

use serde::Deserialize;
use serde_json::Value;

use super::{Idempotency, Policy};
use crate::jobs::kinds::oneup::{GenerateParams, OneUpBookParams, SolveParams};
use crate::puzzles::oneup::{
    self, ClueSymmetry, Level, LevelCounts, Method, MetropolisOptions, MAX_BOOK_PUZZLES, MAX_SIZE, MIN_SIZE,
};
use crate::puzzles::Limits;
use crate::render::print::{PrintOptions, Trim};
use crate::service::error::echo;
use crate::service::error::ApiError;

/// How to solve: the query of `POST /oneup/solves`.
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SolveQuery {
    /// `exact` (propagation and backtracking, proves uniqueness) or `metropolis` (the
    /// Metropolis sampler).
    #[param(value_type = Option<Method>, default = "exact")]
    method: Option<String>,
    /// Metropolis only: seeds the initial state and every move.
    #[param(minimum = 0, default = 0)]
    seed: Option<u64>,
    /// Metropolis only: the step budget.
    #[param(minimum = 1, maximum = 1000000000, default = 20000000)]
    max_steps: Option<u64>,
    /// Metropolis only: the fixed temperature.
    #[param(minimum = 0, default = 0.5)]
    temperature: Option<f64>,
}

impl SolveQuery {
    /// The query as sent (422 naming `query` when it does not read).
    pub fn parse(raw: Option<&str>) -> Result<SolveQuery, ApiError> {
        serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|e| ApiError::invalid("query", format!("query string: {e}")))
    }
}

impl Policy for SolveQuery {
    /// Its puzzle (`Value::Null` here) is the body's, read after the query is settled.
    type Params = SolveParams;

    fn settle(self, _: &Idempotency, limits: &Limits) -> Result<SolveParams, ApiError> {
        let q = self;
        let method = match q.method.as_deref().unwrap_or("exact") {
            "exact" => Method::Exact,
            "metropolis" => Method::Metropolis,
            other => {
                return Err(ApiError::invalid(
                    "method",
                    format!("method must be exact or metropolis, not {}", echo(other)),
                ))
            }
        };
        if method == Method::Exact && (q.seed.is_some() || q.max_steps.is_some() || q.temperature.is_some()) {
            return Err(ApiError::invalid("method", "seed, max_steps and temperature apply to method=metropolis only"));
        }
        if q.temperature.is_some_and(|t| !t.is_finite() || t < 0.0) {
            return Err(ApiError::invalid("temperature", "temperature must be a number >= 0"));
        }
        let metropolis =
            MetropolisOptions { seed: q.seed.unwrap_or(0), max_steps: q.max_steps, temperature: q.temperature };
        metropolis.validate(&limits.oneup).map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
        Ok(SolveParams { puzzle: Value::Null, method, metropolis })
    }
}

/// What to generate; every member is optional.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OneUpPuzzleRequest)]
pub struct PuzzleRequest {
    /// Side of the grid.
    #[serde(default = "default_size")]
    #[schema(minimum = 4, maximum = 9, default = 8)]
    size: usize,
    /// The same size and seed give the same puzzle; without one the server draws it.
    #[serde(default)]
    #[schema(nullable = false, minimum = 0)]
    seed: Option<u64>,
    /// The level wanted, graded by the hardest technique a person needs: `easy` (singles),
    /// `medium` (pairs and triples), `hard` (region wings), `expert` (short trials).
    /// Default: whatever level the first puzzle drawn has.
    #[serde(default)]
    #[schema(nullable = false)]
    level: Option<Level>,
    /// `rotational`: a clue's mirror image through the centre is a clue too.
    #[serde(default)]
    clue_symmetry: ClueSymmetry,
}

fn default_size() -> usize {
    8
}

impl Default for PuzzleRequest {
    fn default() -> Self {
        PuzzleRequest { size: default_size(), seed: None, level: None, clue_symmetry: ClueSymmetry::None }
    }
}

fn check_size(size: usize) -> Result<(), ApiError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(ApiError::invalid("size", format!("size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")))
    }
}

/// 422 naming `field` when no `size` x `size` puzzle has `level`.
fn check_level(size: usize, level: Level, field: &str) -> Result<(), ApiError> {
    if size >= oneup::smallest_size(level) {
        return Ok(());
    }
    let e = oneup::GenerateError::TooSmall { size, level };
    Err(ApiError::invalid(field.to_string(), format!("{field}: {e}")))
}

/// 422 naming `levels` when the book would take longer than `max` seconds to generate,
/// saying which level is slowest at this size.
fn check_book_time(size: usize, levels: &LevelCounts, symmetry: ClueSymmetry, max: u32) -> Result<(), ApiError> {
    let seconds = oneup::book_seconds(size, levels, symmetry).unwrap_or(f64::INFINITY);
    if seconds <= f64::from(max) {
        return Ok(());
    }
    let rate = |l: Level| oneup::puzzles_per_second(size, l, symmetry).unwrap_or(0.0);
    let slowest = Level::ALL.into_iter().filter(|&l| levels.get(l) > 0).min_by(|&a, &b| rate(a).total_cmp(&rate(b)));
    let why = slowest.map_or(String::new(), |l| {
        format!(" ({} {size} x {size} puzzles come at about {} a second)", l.as_str(), rate(l))
    });
    Err(ApiError::invalid(
        "levels",
        format!(
            "levels: this book would take about {seconds:.0} s to generate{why}, and a book may take at most {max} s; \
             ask for fewer puzzles, easier levels or a larger size"
        ),
    ))
}

crate::fields::api_struct! {
    /// A book to generate; every member is optional.
    #[derive(Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(as = OneUpBookRequest)]
    pub struct BookRequest {
        /// Puzzles in the book, 1 to 500. Default: the sum of `levels`, or 100.
        #[schema(minimum = 1, maximum = 500, default = 100)]
        count: Option<usize>,
        /// Puzzles of each level, printed easiest first; levels left out have none. With
        /// `count`, they must add up to it. Default: `count` spread evenly over the four
        /// levels, the easier ones taking what does not divide.
        #[schema(example = json!({"easy": 4, "medium": 4, "hard": 2, "expert": 2}))]
        levels: Option<LevelCounts>,
        /// Side of every grid.
        #[serde(default = "default_size")]
        #[schema(minimum = 4, maximum = 9, default = 8)]
        size: usize,
        /// `rotational`: every puzzle's clues are symmetric through its centre.
        #[serde(default)]
        clue_symmetry: ClueSymmetry,
        /// The same request and seed give the same book; without one the server draws it.
        #[schema(nullable = false, minimum = 0)]
        seed: Option<u64>,
        /// The printed page size (default `letter`): four puzzles a page on trims 7 in wide or
        /// more, two on smaller ones.
        #[serde(default)]
        #[schema(default = "letter")]
        trim: Trim,
        /// On the title page and every footer: 1 to 60 printable ASCII characters.
        #[schema(default = "One Up", min_length = 1, max_length = 60)]
        title: Option<String>,
        ..imprint,
    }
}

impl Default for BookRequest {
    fn default() -> Self {
        BookRequest {
            count: None,
            levels: None,
            size: default_size(),
            clue_symmetry: ClueSymmetry::None,
            seed: None,
            trim: Trim::default(),
            title: None,
            author: None,
            copyright: None,
            isbn: None,
        }
    }
}

/// The book's counts of each level: as given, or `count` spread over the levels; 422
/// naming `count` or `levels` when they are out of range or disagree.
fn book_levels(count: Option<usize>, levels: Option<LevelCounts>) -> Result<LevelCounts, ApiError> {
    let range = |field: &str, n: usize| {
        ApiError::invalid(field.to_string(), format!("{field}: a book holds 1 to {MAX_BOOK_PUZZLES} puzzles, not {n}"))
    };
    if let Some(n) = count.filter(|n| !(1..=MAX_BOOK_PUZZLES).contains(n)) {
        return Err(range("count", n));
    }
    let Some(levels) = levels else { return Ok(LevelCounts::spread(count.unwrap_or(100))) };
    let total = levels.total();
    if !(1..=MAX_BOOK_PUZZLES).contains(&total) {
        return Err(range("levels", total));
    }
    match count {
        Some(n) if n != total => Err(ApiError::invalid(
            "levels",
            format!("levels: the counts add up to {total}, but count is {n}; they must agree (or leave count out)"),
        )),
        _ => Ok(levels),
    }
}

impl Policy for PuzzleRequest {
    type Params = GenerateParams;

    fn settle(self, request: &Idempotency, _: &Limits) -> Result<GenerateParams, ApiError> {
        check_size(self.size)?;
        if let Some(level) = self.level {
            check_level(self.size, level, "level")?;
        }
        let seed = request.seed(self.seed);
        Ok(GenerateParams { size: self.size, seed, level: self.level, clue_symmetry: self.clue_symmetry })
    }
}

impl Policy for BookRequest {
    type Params = OneUpBookParams;

    fn settle(self, request: &Idempotency, limits: &Limits) -> Result<OneUpBookParams, ApiError> {
        check_size(self.size)?;
        let levels = book_levels(self.count, self.levels)?;
        for level in Level::ALL.into_iter().filter(|&l| levels.get(l) > 0) {
            check_level(self.size, level, &format!("levels.{}", level.as_str()))?;
        }
        check_book_time(self.size, &levels, self.clue_symmetry, limits.oneup.max_book_seconds)?;
        let imprint = self.imprint().checked().map_err(|(field, detail)| ApiError::invalid(field, detail))?;
        let print = PrintOptions {
            trim: self.trim,
            title: self.title.map_or_else(|| "One Up".to_string(), |t| t.trim().to_string()),
            lookup_url: String::new(),
            imprint,
        };
        print.validate().map_err(|(field, detail)| ApiError::invalid(field, detail))?;
        Ok(OneUpBookParams {
            levels,
            size: self.size,
            clue_symmetry: self.clue_symmetry,
            seed: request.seed(self.seed),
            trim: print.trim,
            title: print.title,
            imprint: print.imprint,
        })
    }
}
