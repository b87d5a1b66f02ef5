//! Pattern generation: a depth-first search that colours one symmetry orbit at a time in
//! reading order, checking every rule that the squares known so far can already break
//! (bitset rows and columns, O(1) word operations per check). Sampling runs randomized
//! searches with a per-attempt node cap (restarts); `"all"` runs one exhaustive search.

use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;

use super::american;
use super::board::Board;
use super::budget::{self, Attempt, Budget};
use super::error::{CrosswordError, Result};
use super::fill::Fill;
use super::grid::{check_size, Grid};
use super::limits::{pattern_bytes, Limits};
use super::words::WordList;
use super::Count;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// Symmetric about both centre lines (the original's 4-fold symmetry).
    #[default]
    Mirror,
    /// Symmetric under a half turn (the American convention).
    Rotational,
    /// No symmetry (American rules only).
    None,
}

/// Which rules a pattern follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// The original generator's rules (see the module docs of `crossword`).
    #[default]
    Seed,
    /// American rules: no unchecked squares, entries of 3 or more, few black squares.
    American,
}

impl Rules {
    fn is_seed(&self) -> bool {
        *self == Rules::Seed
    }
}

impl std::fmt::Display for Symmetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Symmetry::Mirror => "mirror",
            Symmetry::Rotational => "rotational",
            Symmetry::None => "none",
        })
    }
}

crate::fields::api_struct! {
    #[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct PatternRequest {
        /// `seed` (default) or `american`: see the endpoint's description.
        #[serde(default, skip_serializing_if = "Rules::is_seed")]
        #[schema(default = "seed")]
        pub rules: Rules,
        /// Side length: 5..21 with the seed rules (required); 3..31 with American rules (or
        /// give `rows` and `cols`).
        #[schema(minimum = 3, maximum = 31)]
        pub size?: usize,
        /// Rows of a rectangular grid (American rules), 3..31.
        #[schema(minimum = 3, maximum = 31)]
        pub rows?: usize,
        /// Columns of a rectangular grid (American rules), 3..31.
        #[schema(minimum = 3, maximum = 31)]
        pub cols?: usize,
        /// Default `mirror` with the seed rules, `rotational` with American rules; `none`
        /// only with American rules.
        pub symmetry?: Symmetry,
        /// Longest allowed word, 3 to the side; default the side (no limit).
        #[schema(minimum = 3, maximum = 21)]
        pub max_len?: usize,
        /// How many distinct patterns to sample (at most 100000), or `"all"` to enumerate them.
        #[serde(default)]
        pub count: Count,
        /// With `"all"`: how many of the enumerated patterns to return besides the total (default 100).
        #[schema(minimum = 0, maximum = 100000)]
        pub limit?: usize,
        #[serde(default)]
        #[schema(default = 0)]
        pub seed: u64,
        /// Largest allowed share of black squares (American rules: default 0.16); `max_black`
        /// is read as the same.
        #[serde(default, alias = "max_black", skip_serializing_if = "Option::is_none")]
        #[schema(nullable = false, minimum = 0, maximum = 1)]
        pub max_black_share: Option<f64>,
        pub max_three_letter_words?: usize,
        /// Fewest entries (American rules: default 12/13 of `max_words` from 11x11 up).
        pub min_words?: usize,
        /// Most entries (American rules: default 78 at 15x15 scaled by area, at least rows + cols).
        pub max_words?: usize,
        /// American rules: theme entries, placed as centred across entries in pairs of equal
        /// length on symmetric rows (one more may take the centre row); their letters are in
        /// the pattern's `rows`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[schema(max_items = 16)]
        pub theme: Vec<String>,
        /// American rules: keep only patterns that the word list fills, each with its fill
        /// (the list as fills take it: `words`, `wordlist`, `min_score`, `allow_offensive`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[schema(default = false)]
        pub fillable: bool,
        ..word_source,
        /// With `fillable`: candidate words the fills of all candidate patterns may try.
        #[schema(minimum = 1, default = 1000000)]
        pub fill_max_nodes?: u64,
        /// Search nodes (one square-orbit colouring each) allowed in total.
        #[schema(minimum = 1, default = 100000000)]
        pub max_nodes?: u64,
        /// Milliseconds the search may take.
        #[schema(minimum = 1)]
        pub time_limit_ms?: u64,
    }
}

impl PatternRequest {
    /// The members only a fillable pattern takes, by name, where they are given.
    pub(crate) fn fill_members_given(&self) -> impl Iterator<Item = &'static str> {
        self.source().given().chain(self.fill_max_nodes.is_some().then_some("fill_max_nodes"))
    }

    /// An American-rules request for `rows` x `cols` with the defaults.
    pub fn american(rows: usize, cols: usize) -> Self {
        PatternRequest { rules: Rules::American, size: None, rows: Some(rows), cols: Some(cols), ..Self::new(0) }
    }

    /// A request with the defaults: mirror symmetry, no max_len, one pattern, seed 0.
    pub fn new(size: usize) -> Self {
        PatternRequest {
            rules: Rules::Seed,
            size: Some(size),
            rows: None,
            cols: None,
            symmetry: None,
            max_len: None,
            count: Count::N(1),
            limit: None,
            seed: 0,
            max_black_share: None,
            max_three_letter_words: None,
            min_words: None,
            max_words: None,
            theme: Vec::new(),
            fillable: false,
            words: None,
            wordlist: None,
            min_score: None,
            allow_offensive: false,
            fill_max_nodes: None,
            max_nodes: None,
            time_limit_ms: None,
        }
    }
}

crate::fields::api_struct! {
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
    pub struct Pattern {
        /// Rows read as bits (white = 1), 4 to a symbol 0-9A-F; a final 1-3 bits as one of g-t.
        /// Absent for grids the hex form does not take (not square, or sides outside 5..21).
        pub hex?: String,
        /// `#` black, `.` white, `A`-`Z` a theme entry's letter.
        pub rows: Vec<String>,
        /// Number of words (across + down runs of >= 2 white squares).
        pub words: usize,
        /// Number of black squares.
        pub black: usize,
        /// With `fillable`: the fill (`rows`, `across`, `down`, `quality`, as a fill's result).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Object, nullable = false)]
        pub fill: Option<Fill>,
    }
}

impl Pattern {
    pub fn from_grid(grid: &Grid) -> Pattern {
        Pattern {
            hex: Some(grid.to_hex()),
            rows: grid.to_rows(),
            words: grid.slots().len(),
            black: grid.black_count(),
            fill: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternResult {
    pub patterns: Vec<Pattern>,
    /// With `"all"`: how many patterns exist (all of them counted, `patterns` holds up to `limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Why fewer patterns than requested are returned, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// About 5–10 s of search on one core (18 s on a loaded 2-core machine).
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;
pub const DEFAULT_LIMIT: usize = 100;
/// Node cap unit of the randomized attempts; restart caps follow the Luby sequence, so a
/// small search space is eventually searched whole (and proven empty, if it is).
const ATTEMPT_UNIT: u64 = 4_000;
/// Range of the chance of trying white first for an orbit, drawn per attempt: grids are
/// mostly white, and varying it varies the density of the patterns.
const P_WHITE_FIRST: (f64, f64) = (0.6, 0.9);

/// The validated rules and filters of a request.
struct Spec {
    size: usize,
    symmetry: Symmetry,
    max_len: usize,
    max_black: usize,
    max_three: usize,
    min_words: usize,
    max_words: usize,
}

impl Spec {
    fn from_request(req: &PatternRequest) -> Result<Spec, CrosswordError> {
        let american = [
            (req.rows.is_some(), "rows"),
            (req.cols.is_some(), "cols"),
            (!req.theme.is_empty(), "theme"),
            (req.fillable, "fillable"),
        ];
        let given = american.into_iter().filter_map(|(given, field)| given.then_some(field));
        if let Some(field) = given.chain(req.fill_members_given()).next() {
            return Err(CrosswordError::field(field, "only with rules american"));
        }
        let symmetry = req.symmetry.unwrap_or(Symmetry::Mirror);
        if symmetry == Symmetry::None {
            return Err(CrosswordError::field("symmetry", "none only with rules american (mirror or rotational here)"));
        }
        let n = req.size.ok_or_else(|| CrosswordError::field("size", "required"))?;
        check_size(n, "side").map_err(|m| CrosswordError::field("size", m))?;
        let max_len = req.max_len.unwrap_or(n);
        if !(3..=n).contains(&max_len) {
            return Err(CrosswordError::field(
                "max_len",
                format!("must be between 3 and the side ({n}), got {max_len}"),
            ));
        }
        let max_black = match req.max_black_share {
            None => n * n,
            Some(s) if (0.0..=1.0).contains(&s) => (s * (n * n) as f64 + 1e-9).floor() as usize,
            Some(s) => return Err(CrosswordError::field("max_black_share", format!("must be in 0..=1, got {s}"))),
        };
        // Rule 2 puts a black square in each of the (n/2)^2 disjoint 2x2 blocks.
        let fewest_black = (n / 2) * (n / 2);
        if max_black < fewest_black {
            return Err(CrosswordError::Impossible(format!(
                "max_black_share allows {max_black} black squares, but a {n}x{n} grid needs at \
                 least {fewest_black}: each of its {fewest_black} disjoint 2x2 blocks must hold a \
                 black square (rule 2)"
            )));
        }
        let (min_words, max_words) = (req.min_words.unwrap_or(0), req.max_words.unwrap_or(usize::MAX));
        if min_words > max_words {
            return Err(CrosswordError::field(
                "min_words",
                format!("{min_words} is larger than max_words ({max_words})"),
            ));
        }
        if symmetry == Symmetry::Mirror && n.is_multiple_of(2) {
            return Err(CrosswordError::Impossible(format!(
                "with mirror symmetry on an even side ({n}) the four centre squares are mirror \
                 images of each other, so they form a 2x2 block of one colour, which rules 2 and 3 \
                 forbid; use an odd side or rotational symmetry"
            )));
        }
        Ok(Spec {
            size: n,
            symmetry,
            max_len,
            max_black,
            max_three: req.max_three_letter_words.unwrap_or(usize::MAX),
            min_words,
            max_words,
        })
    }

    /// Squares coloured together, in the order the search colours them.
    fn orbits(&self) -> Vec<Vec<(usize, usize)>> {
        let n = self.size;
        let mut orbits = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let mut orbit = vec![(r, c)];
                match self.symmetry {
                    Symmetry::Mirror => {
                        if r > n / 2 || c > n / 2 {
                            continue;
                        }
                        orbit.extend([(r, n - 1 - c), (n - 1 - r, c), (n - 1 - r, n - 1 - c)]);
                    }
                    Symmetry::Rotational => {
                        if r * n + c > (n * n - 1) / 2 {
                            continue;
                        }
                        orbit.push((n - 1 - r, n - 1 - c));
                    }
                    // Refused by `from_request`: the seed rules' search keeps its two symmetries.
                    Symmetry::None => {}
                }
                orbit.sort_unstable();
                orbit.dedup();
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// The filters that need the finished grid (besides connectivity).
    fn accepts(&self, grid: &Grid) -> bool {
        let slots = grid.slots();
        let three = slots.iter().filter(|s| s.len == 3).count();
        three <= self.max_three && (self.min_words..=self.max_words).contains(&slots.len())
    }
}

/// One depth-first search over the orbits.
struct Search<'a, 'p> {
    spec: &'a Spec,
    orbits: &'a [Vec<(usize, usize)>],
    board: Board,
    budget: &'a mut Budget<'p>,
    /// Value order randomness (sampling) or white-then-black (enumeration).
    rng: Option<&'a mut Rng>,
    /// Node cap for this attempt (sampling restarts).
    attempt_left: u64,
    /// Chance of trying white before black (sampling).
    p_white: f64,
}

impl Search<'_, '_> {
    /// Returns true when the search must stop (leaf said so, or a budget ran out).
    fn dfs(&mut self, depth: usize, leaf: &mut dyn FnMut(&Board) -> bool) -> bool {
        if depth == self.orbits.len() {
            return self.board.connected() && leaf(&self.board);
        }
        let orbit = &self.orbits[depth];
        let white_first = match self.rng.as_deref_mut() {
            Some(rng) => rng.chance(self.p_white),
            None => true,
        };
        for white in [white_first, !white_first] {
            if self.attempt_left == 0 {
                return true;
            }
            self.attempt_left -= 1;
            if !self.budget.tick() {
                return true;
            }
            self.board.set(orbit, white);
            let ok = self.board.blacks <= self.spec.max_black && self.board.ok_after(orbit);
            let stop = ok && self.dfs(depth + 1, leaf);
            self.board.clear(orbit, white);
            if stop {
                return true;
            }
        }
        false
    }
}

impl PatternRequest {
    /// Checks the request against `limits` without searching; errors name the field.
    pub fn validate(&self, limits: &Limits) -> Result<(), CrosswordError> {
        self.validate_with(None, limits)
    }

    /// [`PatternRequest::validate`] with the list `wordlist` names (the caller loads it).
    pub fn validate_with(&self, stored: Option<&WordList>, limits: &Limits) -> Result<(), CrosswordError> {
        match self.rules {
            Rules::Seed => Plan::new(self, limits).map(drop),
            Rules::American => american::Plan::new(self, stored, limits).map(drop),
        }
    }
}

/// A request checked against the limits.
struct Plan {
    spec: Spec,
    max_nodes: u64,
    time_limit_ms: Option<u64>,
    /// Patterns to sample, or to return with `"all"`.
    items: usize,
}

impl Plan {
    fn new(req: &PatternRequest, limits: &Limits) -> Result<Plan, CrosswordError> {
        let spec = Spec::from_request(req)?;
        let max_nodes = Limits::max_nodes(req.max_nodes, DEFAULT_MAX_NODES, limits.pattern_max_nodes)?;
        let time_limit_ms = limits.time_limit(req.time_limit_ms)?;
        let n = spec.size;
        let items = limits.items(
            req.count,
            req.limit,
            DEFAULT_LIMIT,
            limits.pattern_max_count,
            pattern_bytes(n),
            &format!("{n}x{n} patterns"),
        )?;
        Ok(Plan { spec, max_nodes, time_limit_ms, items })
    }
}

impl super::SearchRequest for PatternRequest {
    type Found = PatternResult;

    /// `stored` is the list a `fillable` request's `wordlist` names.
    fn search(&self, stored: Option<&WordList>, limits: &Limits, progress: &mut dyn Monitor) -> Result<PatternResult> {
        let req = self;
        if req.rules == Rules::American {
            return american::generate(american::Plan::new(req, stored, limits)?, progress);
        }
        let Plan { spec, max_nodes, time_limit_ms, items } = Plan::new(req, limits)?;
        let mut budget = Budget::new(max_nodes, time_limit_ms, 1 << 14, progress);
        let orbits = spec.orbits();
        match req.count {
            Count::All => enumerate(&spec, &orbits, items, &mut budget),
            Count::N(_) => sample(&spec, &orbits, items, req.seed, &mut budget),
        }
    }
}

fn enumerate(
    spec: &Spec,
    orbits: &[Vec<(usize, usize)>],
    limit: usize,
    budget: &mut Budget,
) -> Result<PatternResult, CrosswordError> {
    let mut total = 0u64;
    let mut patterns = Vec::new();
    let mut search = Search {
        spec,
        orbits,
        board: Board::new(spec.size, spec.max_len),
        budget,
        rng: None,
        attempt_left: u64::MAX,
        p_white: 1.0,
    };
    search.dfs(0, &mut |board| {
        let grid = board.grid();
        if spec.accepts(&grid) {
            total += 1;
            if patterns.len() < limit {
                patterns.push(Pattern::from_grid(&grid));
            }
        }
        false
    });
    if search.budget.stop.is_some() {
        return Err(search.budget.exhausted(&format!(
            "enumeration of all {0}x{0} patterns not finished ({total} found so far)",
            spec.size
        )));
    }
    Ok(PatternResult { patterns, total: Some(total), note: None })
}

fn sample(
    spec: &Spec,
    orbits: &[Vec<(usize, usize)>],
    count: usize,
    seed: u64,
    budget: &mut Budget,
) -> Result<PatternResult, CrosswordError> {
    let mut rng = Rng::from_u64(seed);
    let what = format!(
        "{0}x{0} patterns ({1} symmetry, max_len {2}) satisfying the rules and filters",
        spec.size, spec.symmetry, spec.max_len
    );
    let mut attempt = 0;
    let (grids, note) = budget::sample_distinct(count, &what, budget, |budget, seen| {
        attempt += 1;
        let p_white = P_WHITE_FIRST.0 + (P_WHITE_FIRST.1 - P_WHITE_FIRST.0) * rng.unit();
        let mut search = Search {
            spec,
            orbits,
            board: Board::new(spec.size, spec.max_len),
            budget,
            rng: Some(&mut rng),
            attempt_left: ATTEMPT_UNIT.saturating_mul(budget::luby(attempt)),
            p_white,
        };
        Attempt::first_new(seen, |grid| spec.accepts(grid), |offer| search.dfs(0, &mut |board| offer(board.grid())))
    })?;
    let patterns = grids.iter().map(Pattern::from_grid).collect();
    Ok(PatternResult { patterns, total: None, note })
}
