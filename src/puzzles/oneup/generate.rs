//! Seeded generator: random walls, a random valid filling (exact solver with shuffled
//! digit order), then every clue is tried for removal in random order and dropped when
//! the solution stays unique, which leaves a minimal clue set.

use super::puzzle::{Clue, Layout, Puzzle, MAX_SIZE, MIN_SIZE};
use super::solve::{ExactOptions, ExactStats, Model};
use crate::puzzles::monitor::{Cancelled, Monitor, Unmonitored};
use crate::puzzles::rng::Rng;
use serde::{Deserialize, Serialize};

/// Node budget for finding a random filling; walls that need more are redrawn.
const FILL_NODES: u64 = 20_000;
/// Node budget per uniqueness check (real checks need at most a few hundred); a clue whose
/// removal cannot be decided within it is kept, which is always safe.
const CHECK_NODES: u64 = 200_000;

/// A generated puzzle, its unique solution and how hard the exact solver found it.
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

/// Difficulty measures of a generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Difficulty {
    pub clues: usize,
    /// Exact-solver nodes to find the solution and prove it unique (1 = no guessing).
    pub nodes: u64,
    pub backtracks: u64,
    pub max_depth: usize,
    pub level: Level,
}

/// Coarse rating from the exact solver's effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Region logic alone (naked and hidden singles) solves it: 1 search node.
    Easy,
    /// Some guessing, at most [`MEDIUM_NODES`] search nodes.
    Medium,
    /// More than [`MEDIUM_NODES`] search nodes.
    Hard,
}

pub const MEDIUM_NODES: u64 = 20;

impl Difficulty {
    fn from_stats(clues: usize, s: &ExactStats) -> Difficulty {
        let level = match s.nodes {
            0 | 1 => Level::Easy,
            n if n <= MEDIUM_NODES => Level::Medium,
            _ => Level::Hard,
        };
        Difficulty { clues, nodes: s.nodes, backtracks: s.backtracks, max_depth: s.max_depth, level }
    }
}

/// Generates a `size` x `size` puzzle (clamped to 4..=9) from `seed`; same seed, same puzzle.
pub fn generate(size: usize, seed: u64, progress: &mut dyn Monitor) -> Result<Generated, Cancelled> {
    let n = size.clamp(MIN_SIZE, MAX_SIZE);
    let cells = n * n;
    let mut rng = Rng::from_u64(seed);
    let (rows, cols, model, filling) = loop {
        if !progress.update(0, cells as u64) {
            return Err(Cancelled);
        }
        let row_splits = random_splits(n, &mut rng);
        let Some(col_splits) = matching_splits(&row_splits, &mut rng) else {
            continue;
        };
        let (rows, cols) = (labels(&row_splits), transpose(&labels(&col_splits)));
        let model = Model::new(&Layout::from_labels(&rows, &cols));
        let options = ExactOptions { limit_solutions: 1, max_nodes: FILL_NODES };
        if let Some(filling) = model.search(&[], &options, Some(&mut rng), &mut Unmonitored)?.first {
            break (rows, cols, model, filling);
        }
    };

    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    let mut kept = vec![true; cells];
    let unique_options = ExactOptions { limit_solutions: 2, max_nodes: CHECK_NODES };
    for (done, &cell) in order.iter().enumerate() {
        if !progress.update(done as u64, cells as u64) {
            return Err(Cancelled);
        }
        kept[cell] = false;
        let run = model.search(&givens(&kept, &filling), &unique_options, None, &mut Unmonitored)?;
        if run.stats.solutions_found != 1 || run.exhausted_budget {
            kept[cell] = true;
        }
    }
    let final_givens = givens(&kept, &filling);
    let run = model.search(&final_givens, &unique_options, None, &mut Unmonitored)?;
    let clues =
        final_givens.iter().map(|&(cell, digit)| Clue { row: cell / n + 1, col: cell % n + 1, digit }).collect();
    Ok(Generated {
        puzzle: Puzzle::from_parts(rows, cols, clues),
        solution: model.rows(&filling),
        difficulty: Difficulty::from_stats(final_givens.len(), &run.stats),
    })
}

fn givens(kept: &[bool], filling: &[u8]) -> Vec<(usize, u8)> {
    (0..kept.len()).filter(|&c| kept[c]).map(|c| (c, filling[c])).collect()
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
