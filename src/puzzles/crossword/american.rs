//! American-rules patterns (`"rules": "american"`): grids of 3..31 rows and 3..31
//! columns with `rotational` (default), `mirror` or no symmetry, in which every white
//! square is in an across and a down entry (no unchecked squares), every entry has at
//! least 3 letters, the white squares are connected, at most `max_black_share` of the
//! squares are black (default 16%) and there are at most `max_words` entries (default 78
//! at 15x15, scaled by area). Theme entries are placed first as across entries, each with
//! its symmetric partner; with `fillable` a pattern is kept only if the word list fills it.
//!
//! The search colours one symmetry orbit at a time in reading order, with a random value
//! order and restarts under Luby node caps (as the seed rules' search), and after each
//! step checks only the lines of the squares it coloured: a stretch between black squares
//! that holds a white square must have room for 3 letters, and no white run may exceed
//! `max_len`. Both checks are exact on a complete grid, so together with connectivity and
//! the counts they decide the rules.

use std::borrow::Cow;
use std::collections::HashSet;
use std::time::Instant;

use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;

use super::budget::{self, Budget, Stop};
use super::error::CrosswordError;
use super::fill::{self, fill_grid, node_cost, Fill, FillOptions};
use super::grid::{Grid, FILL_MAX_SIDE, FILL_MIN_SIDE, MAX_SIZE, MIN_SIZE};
use super::limits::{at_most, pattern_rect_bytes, Limits};
use super::pattern::{Pattern, PatternRequest, PatternResult, Symmetry, DEFAULT_MAX_NODES};
use super::words::{normalise, WordFilter, WordList};
use super::Count;

/// Default share of black squares.
pub const DEFAULT_MAX_BLACK_SHARE: f64 = 0.16;
/// Default entry count of a 15x15 grid; other sizes scale it by area.
pub const DEFAULT_WORDS_15X15: usize = 78;
/// Candidate words one fill of a candidate pattern may try (`fill_max_nodes` bounds them all).
const FILL_ATTEMPT_NODES: u64 = 20_000;
/// Node cap unit of the randomized attempts (see `budget::luby`).
const ATTEMPT_UNIT: u64 = 2_000;
/// Range of the chance of trying black first for an orbit, as a share of `max_black`,
/// drawn per attempt: varying it varies the density of the patterns.
const P_BLACK_FIRST: (f64, f64) = (0.5, 1.1);

const UNKNOWN: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;

/// `max_words` when a request gives none: 78 at 15x15 scaled by area, but never below
/// the entries of the all-white grid (`rows + cols`), which every size allows.
pub fn default_max_words(rows: usize, cols: usize) -> usize {
    let scaled = (DEFAULT_WORDS_15X15 * rows * cols + 225 / 2) / 225;
    scaled.max(rows + cols)
}

/// Why a grid given as rows (`#` a block, `.` an empty square, `A`-`Z` a locked letter)
/// is not a legal American grid, if it is not: rotationally symmetric, every white square
/// in an across and a down entry of at least 3 squares, the white squares connected. It
/// reads only the rows, independent of the generator's search (benchmark grids, tests).
pub fn check_legal<S: AsRef<str>>(rows: &[S]) -> Result<(), String> {
    let rows: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
    let h = rows.len();
    let w = rows.first().map_or(0, |r| r.len());
    if h < 3
        || rows.iter().any(|r| r.len() != w || !r.bytes().all(|b| b == b'#' || b == b'.' || b.is_ascii_uppercase()))
    {
        return Err("rows must be of equal length, of `#`, `.` and `A`-`Z`".into());
    }
    let white = |r: usize, c: usize| rows[r].as_bytes()[c] != b'#';
    for r in 0..h {
        for c in 0..w {
            if white(r, c) != white(h - 1 - r, w - 1 - c) {
                return Err(format!("not rotationally symmetric at row {}, col {}", r + 1, c + 1));
            }
            if !white(r, c) {
                continue;
            }
            // The run through (r, c) across and down: every square is in both, of 3+.
            let across =
                (0..=c).rev().take_while(|&x| white(r, x)).count() + (c..w).take_while(|&x| white(r, x)).count() - 1;
            let down =
                (0..=r).rev().take_while(|&y| white(y, c)).count() + (r..h).take_while(|&y| white(y, c)).count() - 1;
            if across < 3 || down < 3 {
                return Err(format!("row {}, col {} is in an entry of fewer than 3 squares", r + 1, c + 1));
            }
        }
    }
    let cells: Vec<(usize, usize)> =
        (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).filter(|&(r, c)| white(r, c)).collect();
    if cells.is_empty() {
        return Err("no white square".into());
    }
    let mut seen = vec![false; h * w];
    let mut stack = vec![cells[0]];
    seen[cells[0].0 * w + cells[0].1] = true;
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        let next = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (rr, cc) in next {
            if rr < h && cc < w && white(rr, cc) && !seen[rr * w + cc] {
                seen[rr * w + cc] = true;
                stack.push((rr, cc));
            }
        }
    }
    if reached != cells.len() {
        return Err(format!("the white squares are not connected ({reached} of {} reached)", cells.len()));
    }
    Ok(())
}

/// The validated rules of an American request.
struct Spec {
    rows: usize,
    cols: usize,
    symmetry: Symmetry,
    max_len: usize,
    max_black: usize,
    min_words: usize,
    max_words: usize,
    max_three: usize,
    /// Colour a square must have (theme entries and the black squares ending them).
    forced: Vec<u8>,
    /// Fixed letters (theme entries), 0 elsewhere.
    letters: Vec<u8>,
}

impl Spec {
    fn area(&self) -> usize {
        self.rows * self.cols
    }

    /// The squares of the orbit of square `k` (row-major index) under the symmetry.
    fn orbit(&self, k: usize) -> Vec<usize> {
        let (r, c) = (k / self.cols, k % self.cols);
        let (rr, cc) = (self.rows - 1 - r, self.cols - 1 - c);
        let at = |r: usize, c: usize| r * self.cols + c;
        let mut orbit = match self.symmetry {
            Symmetry::None => vec![k],
            Symmetry::Rotational => vec![k, at(rr, cc)],
            Symmetry::Mirror => vec![k, at(r, cc), at(rr, c), at(rr, cc)],
        };
        orbit.sort_unstable();
        orbit.dedup();
        orbit
    }

    /// Orbits in the order the search colours them (reading order of their first square).
    fn orbits(&self) -> Vec<Vec<usize>> {
        (0..self.area()).map(|k| (k, self.orbit(k))).filter(|(k, o)| o[0] == *k).map(|(_, o)| o).collect()
    }
}

/// Places the theme entries as across entries on evenly spaced rows (see `start` for
/// their columns), an entry
/// and its symmetric partner (an entry of the same length) on mirrored rows, an entry
/// without a partner in the centre row; marks their squares white with their letters
/// and the squares ending them black.
fn place_theme(spec: &mut Spec, theme: &[String]) -> Result<(), CrosswordError> {
    let (rows, cols) = (spec.rows, spec.cols);
    let mut entries = Vec::with_capacity(theme.len());
    for entry in theme {
        let word = normalise(entry).map_err(|m| CrosswordError::field("theme", m))?;
        if word.len() < 3 || word.len() > spec.max_len.min(cols) {
            return Err(CrosswordError::field(
                "theme",
                format!(
                    "{:?} has {} letters; a theme entry has 3 to {} (the columns and max_len)",
                    super::error::clip(entry),
                    word.len(),
                    spec.max_len.min(cols)
                ),
            ));
        }
        entries.push(word);
    }
    if entries.len() > rows.div_ceil(2) {
        return Err(CrosswordError::field(
            "theme",
            format!(
                "at most {} entries fit in {rows} rows (one every other row), got {}",
                rows.div_ceil(2),
                entries.len()
            ),
        ));
    }
    // Lines from the top: pairs fill lines i and n-1-i, a single the middle line.
    let n = entries.len();
    let mut lines: Vec<Option<Vec<u8>>> = vec![None; n];
    if spec.symmetry == Symmetry::None {
        for (i, e) in entries.into_iter().enumerate() {
            lines[i] = Some(e);
        }
    } else {
        let mut left: Vec<Option<Vec<u8>>> = entries.into_iter().map(Some).collect();
        let mut pair = 0;
        for i in 0..left.len() {
            let Some(a) = left[i].take() else { continue };
            match (i + 1..left.len()).find(|&j| left[j].as_ref().is_some_and(|b| b.len() == a.len())) {
                Some(j) => {
                    lines[pair] = Some(a);
                    lines[n - 1 - pair] = left[j].take();
                    pair += 1;
                }
                None if n % 2 == 1 && lines[n / 2].is_none() && rows % 2 == 1 && (cols - a.len()) % 2 == 0 => {
                    lines[n / 2] = Some(a);
                }
                None => {
                    return Err(CrosswordError::field(
                        "theme",
                        format!(
                            "{} ({} letters) has no symmetric partner: theme entries come in pairs of equal length; \
                             one more may go in the centre row when the rows are odd and the columns minus its \
                             length are even",
                            String::from_utf8_lossy(&a),
                            a.len()
                        ),
                    ))
                }
            }
        }
    }
    for (j, word) in lines.iter().enumerate() {
        let word = word.as_ref().expect("every line holds an entry");
        let row = if j < n / 2 {
            ((j + 1) * (rows + 1)) / (n + 1) - 1
        } else if n % 2 == 1 && j == n / 2 {
            (rows - 1) / 2
        } else {
            rows - 1 - (((n - 1 - j) + 1) * (rows + 1) / (n + 1) - 1)
        };
        let centre_line = n % 2 == 1 && j == n / 2;
        let start = start(cols, word.len(), spec.symmetry == Symmetry::Mirror || centre_line);
        let start =
            if spec.symmetry != Symmetry::None && j >= n.div_ceil(2) { cols - word.len() - start } else { start };
        for (i, &letter) in word.iter().enumerate() {
            force(spec, row * cols + start + i, WHITE, letter)?;
        }
        if start > 0 {
            force(spec, row * cols + start - 1, BLACK, 0)?;
        }
        if start + word.len() < cols {
            force(spec, row * cols + start + word.len(), BLACK, 0)?;
        }
    }
    // The symmetric images of the forced squares are forced too.
    for k in 0..spec.area() {
        if spec.forced[k] != UNKNOWN {
            for image in spec.orbit(k) {
                force(spec, image, spec.forced[k], 0)?;
            }
        }
    }
    Ok(())
}

/// Where an entry of `len` letters starts in a row of `cols`: the squares left on each
/// side are best none or 4 or more (a black square and an entry of 3); of those starts
/// the one nearest the centre, else the centre. `centred`: it must be its own mirror image.
fn start(cols: usize, len: usize, centred: bool) -> usize {
    let spare = cols - len;
    let fits = |s: usize| (s == 0 || s >= 4) && (spare - s == 0 || spare - s >= 4);
    if centred {
        return spare / 2;
    }
    (0..=spare).filter(|&s| fits(s)).min_by_key(|&s| (2 * s).abs_diff(spare)).unwrap_or(spare / 2)
}

fn force(spec: &mut Spec, k: usize, colour: u8, letter: u8) -> Result<(), CrosswordError> {
    if spec.forced[k] != UNKNOWN && spec.forced[k] != colour {
        return Err(CrosswordError::field(
            "theme",
            format!(
                "the theme entries clash at row {}, column {} (with {} symmetry one needs it white, another black)",
                k / spec.cols + 1,
                k % spec.cols + 1,
                spec.symmetry
            ),
        ));
    }
    spec.forced[k] = colour;
    if letter != 0 {
        spec.letters[k] = letter;
    }
    Ok(())
}

/// The word list, filter and node budget of a `fillable` request.
struct FillPlan<'a> {
    list: Cow<'a, WordList>,
    filter: WordFilter,
    max_nodes: u64,
    max_work: u64,
}

/// An American request checked against the limits.
pub(crate) struct Plan<'a> {
    spec: Spec,
    count: usize,
    seed: u64,
    max_nodes: u64,
    time_limit_ms: Option<u64>,
    fill: Option<FillPlan<'a>>,
}

fn side(value: Option<usize>, field: &'static str) -> Result<usize, CrosswordError> {
    match value {
        None => Err(CrosswordError::field(field, "required with rules american (or give size for a square grid)")),
        Some(n) if (FILL_MIN_SIDE..=FILL_MAX_SIDE).contains(&n) => Ok(n),
        Some(n) => Err(CrosswordError::field(field, format!("{n} is outside {FILL_MIN_SIDE}..={FILL_MAX_SIDE}"))),
    }
}

impl<'a> Plan<'a> {
    pub(crate) fn new(
        req: &PatternRequest,
        stored: Option<&'a WordList>,
        limits: &Limits,
    ) -> Result<Plan<'a>, CrosswordError> {
        let (rows, cols) = match (req.size, req.rows, req.cols) {
            (Some(_), Some(_), _) => return Err(CrosswordError::field("rows", "give either size or rows and cols")),
            (Some(_), _, Some(_)) => return Err(CrosswordError::field("cols", "give either size or rows and cols")),
            (Some(n), None, None) => (side(Some(n), "size")?, n),
            (None, r, c) => (side(r, "rows")?, side(c, "cols")?),
        };
        if req.count == Count::All || req.limit.is_some() {
            let field = if req.limit.is_some() { "limit" } else { "count" };
            return Err(CrosswordError::field(field, "\"all\" and limit are for the seed rules; give a count"));
        }
        let longest = rows.max(cols);
        let max_len = req.max_len.unwrap_or(longest);
        if !(3..=longest).contains(&max_len) {
            return Err(CrosswordError::field(
                "max_len",
                format!("must be between 3 and the longer side ({longest}), got {max_len}"),
            ));
        }
        let share = req.max_black_share.unwrap_or(DEFAULT_MAX_BLACK_SHARE);
        if !(0.0..=1.0).contains(&share) {
            return Err(CrosswordError::field("max_black_share", format!("must be in 0..=1, got {share}")));
        }
        let max_words = req.max_words.unwrap_or(default_max_words(rows, cols));
        let min_words = req.min_words.unwrap_or(0);
        if min_words > max_words {
            return Err(CrosswordError::field(
                "min_words",
                format!("{min_words} is larger than max_words ({max_words})"),
            ));
        }
        let mut spec = Spec {
            rows,
            cols,
            symmetry: req.symmetry.unwrap_or(Symmetry::Rotational),
            max_len,
            max_black: (share * (rows * cols) as f64 + 1e-9).floor() as usize,
            min_words,
            max_words,
            max_three: req.max_three_letter_words.unwrap_or(usize::MAX),
            forced: vec![UNKNOWN; rows * cols],
            letters: vec![0; rows * cols],
        };
        place_theme(&mut spec, &req.theme)?;
        let max_nodes = Limits::max_nodes(req.max_nodes, DEFAULT_MAX_NODES, limits.pattern_max_nodes)?;
        let time_limit_ms = limits.time_limit(req.time_limit_ms)?;
        let fill = if req.fillable {
            let source = req.source();
            let list = source.list(stored, limits)?;
            let filter = source.filter()?;
            let max_nodes = match req.fill_max_nodes {
                Some(0) => return Err(CrosswordError::field("fill_max_nodes", "must be at least 1")),
                Some(n) if n > limits.fill_max_nodes => {
                    return Err(at_most("fill_max_nodes", limits.fill_max_nodes, n))
                }
                Some(n) => n,
                None => fill::DEFAULT_MAX_NODES.min(limits.fill_max_nodes),
            };
            Some(FillPlan { list, filter, max_nodes, max_work: limits.fill_max_work })
        } else {
            if let Some(field) = req.fill_members_given().next() {
                return Err(CrosswordError::field(field, "only with fillable: true"));
            }
            None
        };
        let count = limits.items(
            req.count,
            None,
            0,
            limits.pattern_max_count,
            pattern_rect_bytes(rows, cols, req.fillable),
            &format!("{rows}x{cols} patterns"),
        )?;
        Ok(Plan { spec, count, seed: req.seed, max_nodes, time_limit_ms, fill })
    }
}

/// One depth-first search over the orbits.
struct Search<'a, 'p> {
    spec: &'a Spec,
    orbits: &'a [Vec<usize>],
    colour: Vec<u8>,
    blacks: usize,
    budget: &'a mut Budget<'p>,
    rng: &'a mut Rng,
    attempt_left: u64,
    p_black: f64,
}

impl Search<'_, '_> {
    /// Returns true when the search must stop (the leaf said so, or a budget ran out).
    fn dfs(&mut self, depth: usize, leaf: &mut dyn FnMut(&mut Budget, &[u8]) -> bool) -> bool {
        if depth == self.orbits.len() {
            return leaf(self.budget, &self.colour);
        }
        let orbit = &self.orbits[depth];
        let forced = self.spec.forced[orbit[0]];
        let first = if forced != UNKNOWN {
            forced
        } else if self.rng.chance(self.p_black) {
            BLACK
        } else {
            WHITE
        };
        let second = if forced != UNKNOWN { None } else { Some(if first == BLACK { WHITE } else { BLACK }) };
        for colour in std::iter::once(first).chain(second) {
            if self.attempt_left == 0 || !self.budget.tick() {
                return true;
            }
            self.attempt_left -= 1;
            if colour == BLACK && self.blacks + orbit.len() > self.spec.max_black {
                continue;
            }
            for &k in orbit {
                self.colour[k] = colour;
            }
            if colour == BLACK {
                self.blacks += orbit.len();
            }
            let ok = orbit.iter().all(|&k| self.lines_ok(k));
            let stop = ok && self.dfs(depth + 1, leaf);
            for &k in orbit {
                self.colour[k] = UNKNOWN;
            }
            if colour == BLACK {
                self.blacks -= orbit.len();
            }
            if stop {
                return true;
            }
        }
        false
    }

    /// The row and the column of square `k` can still meet the rules.
    fn lines_ok(&self, k: usize) -> bool {
        let (r, c, cols) = (k / self.spec.cols, k % self.spec.cols, self.spec.cols);
        self.line_ok(r * cols, 1, cols) && self.line_ok(c, cols, self.spec.rows)
    }

    /// Every stretch between black squares holding a white square has room for 3
    /// letters; no run of white squares is longer than `max_len`.
    fn line_ok(&self, start: usize, step: usize, len: usize) -> bool {
        let at = |i: usize| self.colour[start + i * step];
        let mut i = 0;
        while i < len {
            if at(i) == BLACK {
                i += 1;
                continue;
            }
            let (from, mut white, mut run) = (i, false, 0);
            while i < len && at(i) != BLACK {
                if at(i) == WHITE {
                    white = true;
                    run += 1;
                    if run > self.spec.max_len {
                        return false;
                    }
                } else {
                    run = 0;
                }
                i += 1;
            }
            if white && i - from < 3 {
                return false;
            }
        }
        true
    }
}

impl Spec {
    /// The complete colouring as a grid with the theme letters.
    fn grid(&self, colour: &[u8]) -> Grid {
        let rows: Vec<String> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let k = r * self.cols + c;
                        match (colour[k], self.letters[k]) {
                            (BLACK, _) => '#',
                            (_, 0) => '.',
                            (_, l) => l as char,
                        }
                    })
                    .collect()
            })
            .collect();
        Grid::from_rows(&rows).expect("sides within 3..=31")
    }

    /// Connected white squares (at least one) and the counts within the filters.
    fn accepts(&self, colour: &[u8], grid: &Grid) -> bool {
        let whites = colour.iter().filter(|&&x| x == WHITE).count();
        let Some(start) = colour.iter().position(|&x| x == WHITE) else { return false };
        let mut seen = vec![false; colour.len()];
        seen[start] = true;
        let mut stack = vec![start];
        let mut reached = 0;
        while let Some(k) = stack.pop() {
            reached += 1;
            let (r, c) = (k / self.cols, k % self.cols);
            let mut visit = |n: usize| {
                if colour[n] == WHITE && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            };
            if r > 0 {
                visit(k - self.cols);
            }
            if r + 1 < self.rows {
                visit(k + self.cols);
            }
            if c > 0 {
                visit(k - 1);
            }
            if c + 1 < self.cols {
                visit(k + 1);
            }
        }
        if reached != whites {
            return false;
        }
        let slots = grid.slots();
        let three = slots.iter().filter(|s| s.len == 3).count();
        three <= self.max_three && (self.min_words..=self.max_words).contains(&slots.len())
    }
}

/// What the fills of candidate patterns may still spend.
struct FillBudget {
    nodes: u64,
    work: u64,
    out: bool,
}

/// Samples `count` distinct American patterns (with their fills when `fillable`).
pub(crate) fn generate(plan: Plan, progress: &mut dyn Monitor) -> Result<PatternResult, CrosswordError> {
    let Plan { spec, count, seed, max_nodes, time_limit_ms, fill } = plan;
    let started = Instant::now();
    let mut budget = Budget::new(max_nodes, time_limit_ms, 1 << 12, progress);
    let orbits = spec.orbits();
    let mut rng = Rng::from_u64(seed);
    let what = format!(
        "{}x{} patterns ({} symmetry, American rules) satisfying the rules and filters{}",
        spec.rows,
        spec.cols,
        spec.symmetry,
        if fill.is_some() { " that the word list fills" } else { "" }
    );
    let mut fills_left = fill.as_ref().map(|f| FillBudget { nodes: f.max_nodes, work: f.max_work, out: false });
    let mut seen: HashSet<Grid> = HashSet::new();
    let mut found: Vec<(Grid, Option<Fill>)> = Vec::new();
    let mut exhausted = false;
    let mut cancelled = false;
    let mut attempt = 0;
    while found.len() < count && budget.stop.is_none() && !fills_left.as_ref().is_some_and(|f| f.out) && !cancelled {
        attempt += 1;
        let p_black = (spec.max_black as f64 / spec.area() as f64)
            * (P_BLACK_FIRST.0 + (P_BLACK_FIRST.1 - P_BLACK_FIRST.0) * rng.unit());
        let mut search = Search {
            spec: &spec,
            orbits: &orbits,
            colour: vec![UNKNOWN; spec.area()],
            blacks: 0,
            budget: &mut budget,
            rng: &mut rng,
            attempt_left: ATTEMPT_UNIT.saturating_mul(budget::luby(attempt)),
            p_black,
        };
        let mut new = None;
        let stopped = search.dfs(0, &mut |budget, colour| {
            let grid = spec.grid(colour);
            if seen.contains(&grid) || !spec.accepts(colour, &grid) {
                return false;
            }
            seen.insert(grid.clone());
            let (Some(plan), Some(left)) = (fill.as_ref(), fills_left.as_mut()) else {
                new = Some((grid, None));
                return true;
            };
            match try_fill(&grid, plan, left, seed, time_limit_ms, started, budget.monitor()) {
                Ok(Some(f)) => {
                    new = Some((grid, Some(f)));
                    true
                }
                Ok(None) => left.out,
                Err(()) => {
                    cancelled = true;
                    true
                }
            }
        });
        match new {
            Some(item) => found.push(item),
            None if !stopped => exhausted = true,
            None => {}
        }
        if exhausted {
            break;
        }
    }
    if cancelled || budget.stop == Some(Stop::Cancelled) {
        return Err(CrosswordError::Cancelled);
    }
    let why = || match &fills_left {
        Some(f) if f.out => {
            format!("the fill budget (fill_max_nodes = {}) ran out", fill.as_ref().map_or(0, |f| f.max_nodes))
        }
        _ => budget.describe(),
    };
    if found.is_empty() {
        return Err(if exhausted {
            CrosswordError::NoSolution(format!("an exhaustive search found no {what}"))
        } else {
            CrosswordError::BudgetExhausted(format!("no {what} found: {}", why()))
        });
    }
    let note = (found.len() < count).then(|| {
        if exhausted {
            format!("only {} distinct {what} exist", found.len())
        } else {
            format!("found {} of the {count} requested {what} before {}", found.len(), why())
        }
    });
    let patterns = found.into_iter().map(|(grid, fill)| pattern(&grid, fill)).collect();
    Ok(PatternResult { patterns, total: None, note })
}

fn pattern(grid: &Grid, fill: Option<Fill>) -> Pattern {
    let square = grid.height() == grid.width() && (MIN_SIZE..=MAX_SIZE).contains(&grid.width());
    Pattern {
        hex: square.then(|| grid.to_hex()),
        rows: grid.to_rows(),
        words: grid.slots().len(),
        black: grid.black_count(),
        fill,
    }
}

/// Fills `grid` within one attempt's share of the fill budget: the fill, None when there
/// is none within it, Err when cancelled.
fn try_fill(
    grid: &Grid,
    plan: &FillPlan,
    left: &mut FillBudget,
    seed: u64,
    time_limit_ms: Option<u64>,
    started: Instant,
    progress: &mut dyn Monitor,
) -> Result<Option<Fill>, ()> {
    let cost = node_cost(&grid.slots(), &plan.list);
    let nodes = FILL_ATTEMPT_NODES.min(left.nodes).min(left.work / cost);
    if nodes == 0 {
        left.out = true;
        return Ok(None);
    }
    left.nodes -= nodes;
    left.work -= nodes * cost;
    let remaining = match time_limit_ms {
        Some(ms) => match ms.checked_sub(started.elapsed().as_millis() as u64).filter(|&r| r > 0) {
            Some(r) => Some(r),
            None => return Ok(None),
        },
        None => None,
    };
    let opts = FillOptions {
        seed,
        max_nodes: Some(nodes),
        time_limit_ms: remaining,
        filter: plan.filter,
        max_shared_substring: None,
        first_fill: false,
    };
    match fill_grid(grid, &plan.list, &opts, progress) {
        Ok(f) => Ok(Some(f)),
        Err(CrosswordError::Cancelled) => Err(()),
        Err(_) => Ok(None),
    }
}
