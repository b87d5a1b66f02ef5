//! Seeded generator: random walls, a random valid filling (exact solver with shuffled
//! digit order), then every clue is tried for removal in random order (with its mirror
//! image through the centre, for rotational symmetry) and dropped when the solution stays
//! unique, which leaves a minimal clue set. The puzzle is graded by the human-style solver
//! ([`super::logic`]); a request for a level draws puzzles until one has it.

use super::logic::{solve_logically, Level, Technique};
use super::puzzle::{Clue, Layout, Puzzle, MAX_SIZE, MIN_SIZE};
use super::solve::{ExactOptions, Model};
use crate::puzzles::monitor::{Cancelled, Monitor, Unmonitored, Within};
use crate::puzzles::rng::Rng;
use serde::{Deserialize, Serialize};

/// Node budget for finding a random filling; walls that need more are redrawn.
const FILL_NODES: u64 = 20_000;
/// Node budget per uniqueness check (real checks need at most a few hundred); a clue whose
/// removal cannot be decided within it is kept, which is always safe.
const CHECK_NODES: u64 = 200_000;
/// Puzzles drawn for one request at most before it is refused.
pub const MAX_ATTEMPTS: usize = 20_000;

/// A generated puzzle, its unique solution and how hard it is.
/// Serializes as `{"puzzle": {"text": "...", "json": {...}}, "solution": [...], "difficulty": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Generated {
    /// The puzzle in the text format and in its JSON form.
    #[serde(with = "forms")]
    #[schema(schema_with = forms::schema)]
    pub puzzle: Puzzle,
    /// The unique solution, one string of digits a row.
    pub solution: Vec<String>,
    pub difficulty: Difficulty,
}

/// How hard a generated puzzle is: for a person (its level, the techniques its logical
/// solution uses and its steps) and for the exact solver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Difficulty {
    pub clues: usize,
    /// The hardest technique's level.
    pub level: Level,
    /// The techniques the logical solution uses, easiest first.
    pub techniques: Vec<Technique>,
    /// Steps of the logical solution.
    pub steps: usize,
    /// Exact-solver nodes to find the solution and prove it unique (1 = no guessing).
    pub nodes: u64,
    pub backtracks: u64,
    pub max_depth: usize,
}

/// Where clues may stand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClueSymmetry {
    /// Anywhere.
    #[default]
    None,
    /// A clue's mirror image through the grid's centre is a clue too.
    Rotational,
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// 4 to 9 (clamped).
    pub size: usize,
    /// The level wanted; `None` takes the first puzzle the ladder solves.
    pub level: Option<Level>,
    pub symmetry: ClueSymmetry,
}

/// Why no puzzle was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("cancelled")]
    Cancelled(#[from] Cancelled),
    #[error(
        "no {size} x {size} puzzle at level {} was found in {attempts} attempts; try another seed, size or level",
        level.map_or("any", Level::as_str)
    )]
    NotFound { size: usize, level: Option<Level>, attempts: usize },
    #[error(
        "a {size} x {size} grid is too small for {} puzzles (the generator finds none); use size {} or more",
        level.as_str(),
        smallest_size(*level)
    )]
    TooSmall { size: usize, level: Level },
}

/// The smallest grid the generator finds puzzles of `level` on (measured over hundreds of
/// seeds: every 4 x 4 puzzle is easy, and no 5 x 5 one needs a region wing, though some
/// need a trial). Asking below it would spend the whole draw budget for nothing.
pub fn smallest_size(level: Level) -> usize {
    match level {
        Level::Easy => 4,
        Level::Medium | Level::Expert => 5,
        Level::Hard => 6,
    }
}

/// Generates a `size` x `size` puzzle (clamped to 4..=9) of any level from `seed`; same
/// seed, same puzzle.
pub fn generate(size: usize, seed: u64, progress: &mut dyn Monitor) -> Result<Generated, GenerateError> {
    generate_with(&GenerateOptions { size, level: None, symmetry: ClueSymmetry::None }, seed, progress)
}

/// Swaps of one clue for another tried on a drawn puzzle that is easier than the level
/// asked for, before drawing anew.
const CLIMB_SWAPS: usize = 40;

/// Generates a puzzle as `options` ask from `seed`. A drawn puzzle easier than the level
/// asked for is made harder by swapping a clue (or a pair, with symmetry) for another
/// while the solution stays unique, keeping each swap that does not make it easier and
/// stopping at the level asked for (one that overshoots is not taken); after
/// [`CLIMB_SWAPS`] swaps a new puzzle is drawn. Progress is reported in attempts.
pub fn generate_with(
    options: &GenerateOptions,
    seed: u64,
    progress: &mut dyn Monitor,
) -> Result<Generated, GenerateError> {
    let n = options.size.clamp(MIN_SIZE, MAX_SIZE);
    if let Some(level) = options.level.filter(|&l| n < smallest_size(l)) {
        return Err(GenerateError::TooSmall { size: n, level });
    }
    let mut rng = Rng::from_u64(seed);
    for attempt in 0..MAX_ATTEMPTS {
        if !progress.update(attempt as u64, MAX_ATTEMPTS as u64) {
            return Err(Cancelled.into());
        }
        let mut draw = Draw::new(n, options.symmetry, &mut rng)?;
        // Grading stops at the hardest technique the level asked for allows: a puzzle
        // that needs more is not taken, whatever it needs.
        let cap = options.level.map_or(Technique::Trial, Level::hardest);
        let Some(mut level) = draw.level(cap) else { continue };
        let Some(want) = options.level else { return Ok(draw.finish(level)?) };
        if level == want {
            return Ok(draw.finish(level)?);
        }
        if level > want {
            continue;
        }
        for _ in 0..CLIMB_SWAPS {
            let Some(swapped) = draw.swap(&mut rng)? else { continue };
            match swapped.level(cap) {
                Some(l) if l == want => return Ok(swapped.finish(l)?),
                Some(l) if l >= level && l < want => (draw, level) = (swapped, l),
                _ => {}
            }
        }
    }
    Err(GenerateError::NotFound { size: n, level: options.level, attempts: MAX_ATTEMPTS })
}

/// Puzzles most a book may have.
pub const MAX_BOOK_PUZZLES: usize = 500;

/// Puzzles of `level` generated a second on one core, by size (from 4) and clue symmetry:
/// measured with `examples/oneup_levels` and rounded down, so that a book's time can be
/// estimated and bounded before it is queued. `None` below the level's smallest size.
pub fn puzzles_per_second(size: usize, level: Level, symmetry: ClueSymmetry) -> Option<f64> {
    // By size 4..=9: [easy, medium, hard, expert] without clue symmetry, then rotational.
    const RATES: [[[f64; 4]; 2]; 6] = [
        [[15_000.0, 0.0, 0.0, 0.0], [12_000.0, 0.0, 0.0, 0.0]],
        [[6_000.0, 3.0, 0.0, 9.0], [7_000.0, 2.6, 0.0, 7.5]],
        [[2_000.0, 15.0, 0.8, 40.0], [3_000.0, 7.5, 0.9, 12.0]],
        [[1_400.0, 30.0, 7.0, 24.0], [2_000.0, 24.0, 7.0, 22.0]],
        [[1_400.0, 80.0, 25.0, 50.0], [800.0, 24.0, 6.5, 50.0]],
        [[150.0, 30.0, 14.0, 24.0], [250.0, 15.0, 8.0, 25.0]],
    ];
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) || size < smallest_size(level) {
        return None;
    }
    let symmetric = match symmetry {
        ClueSymmetry::None => 0,
        ClueSymmetry::Rotational => 1,
    };
    Some(RATES[size - MIN_SIZE][symmetric][level as usize])
}

/// About how many seconds (one core) the puzzles of a book take to generate; `None` if a
/// level it asks for cannot be had at `size`.
pub fn book_seconds(size: usize, levels: &LevelCounts, symmetry: ClueSymmetry) -> Option<f64> {
    Level::ALL
        .iter()
        .filter(|&&level| levels.get(level) > 0)
        .map(|&level| puzzles_per_second(size, level, symmetry).map(|rate| levels.get(level) as f64 / rate))
        .sum()
}

/// How many puzzles of each level a book holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelCounts {
    #[serde(default)]
    pub easy: usize,
    #[serde(default)]
    pub medium: usize,
    #[serde(default)]
    pub hard: usize,
    #[serde(default)]
    pub expert: usize,
}

impl LevelCounts {
    /// `count` puzzles spread as evenly as they go over the four levels, the easier levels
    /// taking what does not divide (10: 3 easy, 3 medium, 2 hard, 2 expert).
    pub fn spread(count: usize) -> LevelCounts {
        let share = |k: usize| count / 4 + usize::from(k < count % 4);
        LevelCounts { easy: share(0), medium: share(1), hard: share(2), expert: share(3) }
    }

    pub fn get(&self, level: Level) -> usize {
        match level {
            Level::Easy => self.easy,
            Level::Medium => self.medium,
            Level::Hard => self.hard,
            Level::Expert => self.expert,
        }
    }

    pub fn total(&self) -> usize {
        Level::ALL.iter().fold(0usize, |sum, &level| sum.saturating_add(self.get(level)))
    }
}

/// The puzzles of a book: `levels` says how many of each, generated easiest level first,
/// puzzle k from its own seed drawn from `seed`, so a book is a pure function of its
/// request. Progress is reported in puzzles.
pub fn generate_book(
    size: usize,
    levels: &LevelCounts,
    symmetry: ClueSymmetry,
    seed: u64,
    progress: &mut dyn Monitor,
) -> Result<Vec<Generated>, GenerateError> {
    let total = levels.total();
    let mut seeds = Rng::from_u64(seed);
    let mut out = Vec::with_capacity(total.min(MAX_BOOK_PUZZLES));
    for level in Level::ALL {
        for _ in 0..levels.get(level) {
            let options = GenerateOptions { size, level: Some(level), symmetry };
            let mut within = Within { outer: &mut *progress, done: out.len() as u64, total: total as u64 };
            out.push(generate_with(&options, seeds.next_u64(), &mut within)?);
        }
    }
    Ok(out)
}

/// A drawn puzzle: walls, the filling, and which clue orbits are kept.
#[derive(Clone)]
struct Draw {
    n: usize,
    rows: Vec<String>,
    cols: Vec<String>,
    model: std::rc::Rc<Model>,
    layout: std::rc::Rc<Layout>,
    filling: Vec<u8>,
    orbits: std::rc::Rc<Vec<Vec<usize>>>,
    /// Per orbit.
    kept: Vec<bool>,
}

impl Draw {
    /// Walls, a filling, and clues removed (orbit by orbit, in random order) while the
    /// solution stays unique: a minimal puzzle.
    fn new(n: usize, symmetry: ClueSymmetry, rng: &mut Rng) -> Result<Draw, Cancelled> {
        let cells = n * n;
        let (rows, cols, model, layout, filling) = loop {
            let row_splits = random_splits(n, rng);
            let Some(col_splits) = matching_splits(&row_splits, rng) else {
                continue;
            };
            let (rows, cols) = (labels(&row_splits), transpose(&labels(&col_splits)));
            let layout = Layout::from_labels(&rows, &cols);
            let model = Model::new(&layout);
            let options = ExactOptions { limit_solutions: 1, max_nodes: FILL_NODES };
            if let Some(filling) = model.search(&[], &options, Some(&mut *rng), &mut Unmonitored)?.first {
                break (rows, cols, model, layout, filling);
            }
        };
        // Clues leave in orbits: a cell alone, or with its mirror image through the centre.
        let mut orbits: Vec<Vec<usize>> = match symmetry {
            ClueSymmetry::None => (0..cells).map(|c| vec![c]).collect(),
            ClueSymmetry::Rotational => {
                (0..cells).filter(|&c| c <= cells - 1 - c).map(|c| dedup(vec![c, cells - 1 - c])).collect()
            }
        };
        rng.shuffle(&mut orbits);
        let mut draw = Draw {
            n,
            rows,
            cols,
            model: std::rc::Rc::new(model),
            layout: std::rc::Rc::new(layout),
            filling,
            kept: vec![true; orbits.len()],
            orbits: std::rc::Rc::new(orbits),
        };
        draw.drop_while_unique(0..draw.kept.len())?;
        Ok(draw)
    }

    /// Drops each orbit of `order` in turn, keeping it back if the solution would not stay
    /// unique without it.
    fn drop_while_unique(&mut self, order: impl IntoIterator<Item = usize>) -> Result<(), Cancelled> {
        for k in order {
            self.kept[k] = false;
            if !self.unique()? {
                self.kept[k] = true;
            }
        }
        Ok(())
    }

    fn givens(&self) -> Vec<(usize, u8)> {
        let mut cells: Vec<usize> =
            self.orbits.iter().zip(&self.kept).filter(|(_, &k)| k).flat_map(|(o, _)| o.iter().copied()).collect();
        cells.sort_unstable();
        cells.into_iter().map(|c| (c, self.filling[c])).collect()
    }

    fn unique(&self) -> Result<bool, Cancelled> {
        let options = ExactOptions { limit_solutions: 2, max_nodes: CHECK_NODES };
        let run = self.model.search(&self.givens(), &options, None, &mut Unmonitored)?;
        Ok(run.stats.solutions_found == 1 && !run.exhausted_budget)
    }

    fn puzzle(&self) -> Puzzle {
        let n = self.n;
        let clues =
            self.givens().iter().map(|&(cell, digit)| Clue { row: cell / n + 1, col: cell % n + 1, digit }).collect();
        Puzzle::from_parts(self.rows.clone(), self.cols.clone(), clues)
    }

    /// Its level, if the ladder solves it with techniques up to `cap`.
    fn level(&self, cap: Technique) -> Option<Level> {
        super::logic::grade_givens(&self.layout, &self.givens(), cap)
    }

    /// The puzzle with one kept orbit swapped for a removed one, then made minimal again;
    /// `None` if the swap loses uniqueness.
    fn swap(&self, rng: &mut Rng) -> Result<Option<Draw>, Cancelled> {
        let kept: Vec<usize> = (0..self.kept.len()).filter(|&k| self.kept[k]).collect();
        let removed: Vec<usize> = (0..self.kept.len()).filter(|&k| !self.kept[k]).collect();
        if kept.is_empty() || removed.is_empty() {
            return Ok(None);
        }
        let mut next = self.clone();
        next.kept[kept[rng.index(kept.len())]] = false;
        next.kept[removed[rng.index(removed.len())]] = true;
        if !next.unique()? {
            return Ok(None);
        }
        let mut order: Vec<usize> = (0..next.kept.len()).filter(|&k| next.kept[k]).collect();
        rng.shuffle(&mut order);
        next.drop_while_unique(order)?;
        Ok(Some(next))
    }

    /// The generated puzzle, graded `level`.
    fn finish(self, level: Level) -> Result<Generated, Cancelled> {
        let puzzle = self.puzzle();
        let logical = solve_logically(&puzzle).expect("graded above");
        let options = ExactOptions { limit_solutions: 2, max_nodes: CHECK_NODES };
        let givens = self.givens();
        let stats = self.model.search(&givens, &options, None, &mut Unmonitored)?.stats;
        Ok(Generated {
            difficulty: Difficulty {
                clues: givens.len(),
                level,
                techniques: logical.techniques(),
                steps: logical.steps.len(),
                nodes: stats.nodes,
                backtracks: stats.backtracks,
                max_depth: stats.max_depth,
            },
            solution: self.model.rows(&self.filling),
            puzzle,
        })
    }
}

fn dedup(mut v: Vec<usize>) -> Vec<usize> {
    v.dedup();
    v
}

/// Draws how each of `n` lines splits into 1-3 regions (mostly 2, like the newspaper's).
fn random_splits(n: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
    (0..n)
        .map(|_| {
            let regions = match rng.index(10) {
                0..=1 => 1,
                2..=7 => 2,
                _ => 3,
            };
            let mut cuts: Vec<usize> = (1..n).collect();
            rng.shuffle(&mut cuts);
            let mut cuts = cuts[..regions - 1].to_vec();
            cuts.sort_unstable();
            cuts.push(n);
            cuts.iter().scan(0, |start, &end| Some(end - std::mem::replace(start, end))).collect()
        })
        .collect()
}

/// Column splits with the same multiset of region sizes as the rows: a necessary condition
/// for a filling, since digit d appears once per row region of size >= d and once per
/// column region of size >= d. Packs the sizes into `n` columns of 1-3 regions by
/// randomized backtracking; `None` if this draw cannot be packed.
fn matching_splits(rows: &[Vec<usize>], rng: &mut Rng) -> Option<Vec<Vec<usize>>> {
    let n = rows.len();
    let mut sizes: Vec<usize> = rows.iter().flatten().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut cols = vec![Vec::new(); n];
    let mut budget = 10_000u32;
    if !pack(&sizes, &mut cols, n, rng, &mut budget) {
        return None;
    }
    rng.shuffle(&mut cols);
    for col in &mut cols {
        rng.shuffle(col);
    }
    Some(cols)
}

fn pack(sizes: &[usize], cols: &mut [Vec<usize>], n: usize, rng: &mut Rng, budget: &mut u32) -> bool {
    let Some((&size, rest)) = sizes.split_first() else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut order: Vec<usize> = (0..cols.len()).collect();
    rng.shuffle(&mut order);
    let mut tried: Vec<(usize, usize)> = Vec::new();
    for c in order {
        let (used, parts) = (cols[c].iter().sum::<usize>(), cols[c].len());
        // Columns in the same state are interchangeable: try one of them only.
        if parts == 3 || used + size > n || (parts == 2 && used + size != n) || tried.contains(&(used, parts)) {
            continue;
        }
        tried.push((used, parts));
        cols[c].push(size);
        if pack(rest, cols, n, rng, budget) {
            return true;
        }
        cols[c].pop();
    }
    false
}

/// Region labels ('1', '2', '3' in order) of each line from its region sizes.
fn labels(splits: &[Vec<usize>]) -> Vec<String> {
    splits
        .iter()
        .map(|parts| {
            parts.iter().enumerate().flat_map(|(i, &len)| std::iter::repeat_n((b'1' + i as u8) as char, len)).collect()
        })
        .collect()
}

/// Column label lines are laid out like the grid: line r, character c is cell (r, c).
fn transpose(lines: &[String]) -> Vec<String> {
    let bytes: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    (0..lines.len()).map(|r| (0..lines.len()).map(|c| bytes[c][r] as char).collect()).collect()
}

/// `{"text": ..., "json": {...}}` for the puzzle field; reading takes the JSON form.
mod forms {
    use super::Puzzle;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(puzzle: &Puzzle, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Forms<'a> {
            text: String,
            json: &'a Puzzle,
        }
        Forms { text: puzzle.to_text(), json: puzzle }.serialize(s)
    }

    /// `{"text", "json"}` as a schema.
    pub fn schema() -> utoipa::openapi::schema::Object {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::ToSchema;
        ObjectBuilder::new()
            .property("text", ObjectBuilder::new().schema_type(Type::String).description(Some("The text format.")))
            .property("json", utoipa::openapi::Ref::from_schema_name(Puzzle::name()))
            .required("text")
            .required("json")
            .build()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Puzzle, D::Error> {
        #[derive(Deserialize)]
        struct Forms {
            json: Puzzle,
        }
        Ok(Forms::deserialize(d)?.json)
    }
}
