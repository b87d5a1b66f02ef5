//! The Metropolis sampler of the reference write-up: any assignment of 1..=N to every cell
//! is a state; a move changes one random cell to another digit; the energy is 5 per
//! disagreeing clue plus, per region of size n and digit d present m times, |m - 1| for
//! d <= n and 5m for d > n. Energy 0 is a solution.

use super::puzzle::Puzzle;
use super::{Method, SolveOutcome};
use crate::puzzles::monitor::{Cancelled, Monitor};
use crate::puzzles::rng::Rng;
use serde::{Deserialize, Serialize};

/// Default step budget.
pub const DEFAULT_MAX_STEPS: u64 = 20_000_000;

/// The maxima a server enforces on One Up solve options; options above one are refused
/// before any step ([`OptionsError::field`] names the field), never clamped.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest `max_steps` of the Metropolis sampler (about 34 M steps a second on a
    /// loaded 2-core machine, whatever the puzzle size).
    pub max_steps: u64,
    /// Most seconds (one core, estimated by [`super::book_seconds`]) a book's puzzles may
    /// take to generate.
    pub max_book_seconds: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_steps: 1_000_000_000, max_book_seconds: 60 }
    }
}

/// Sampler options a server does not accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("max_steps must be between 1 and {max} (got {steps})")]
    MaxSteps { steps: u64, max: u64 },
}

impl OptionsError {
    /// The option at fault.
    pub fn field(&self) -> &'static str {
        match self {
            OptionsError::MaxSteps { .. } => "max_steps",
        }
    }
}

/// Why the sampler gave no outcome.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetropolisError {
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}
/// Default (constant) temperature, tuned on the 7 July 2024 example.
pub const DEFAULT_TEMPERATURE: f64 = 0.5;
/// Penalty for a disagreeing clue and per copy of a digit too large for its region.
const PENALTY: i32 = 5;
/// Monitor is reported every this many steps.
const PROGRESS_EVERY: u64 = 1 << 16;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct MetropolisOptions {
    /// Seeds the initial state and every move.
    pub seed: u64,
    /// Step budget; absent or null: the default (20000000, `DEFAULT_MAX_STEPS`).
    #[schema(required = true)]
    pub max_steps: Option<u64>,
    /// Fixed temperature; absent or null: the default (0.5, `DEFAULT_TEMPERATURE`); <= 0 or
    /// NaN means 0.
    #[schema(required = true)]
    pub temperature: Option<f64>,
}

/// What the chain did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct MetropolisStats {
    pub seed: u64,
    pub temperature: f64,
    pub steps: u64,
    pub accepted: u64,
    pub acceptance_rate: f64,
    pub initial_energy: u32,
    pub final_energy: u32,
    pub best_energy: u32,
}

impl MetropolisOptions {
    /// Checks the options against `limits`; the error names the option.
    pub fn validate(&self, limits: &Limits) -> Result<(), OptionsError> {
        self.max_steps_within(limits).map(drop)
    }

    /// The step budget: `max_steps` as given (1..=`limits.max_steps`), or the default.
    fn max_steps_within(&self, limits: &Limits) -> Result<u64, OptionsError> {
        match self.max_steps {
            Some(steps) if steps == 0 || steps > limits.max_steps => {
                Err(OptionsError::MaxSteps { steps, max: limits.max_steps })
            }
            Some(steps) => Ok(steps),
            None => Ok(DEFAULT_MAX_STEPS.min(limits.max_steps)),
        }
    }
}

/// Runs the chain until energy 0 (a solution) or the step budget, within the default
/// [`Limits`].
pub fn metropolis(
    puzzle: &Puzzle,
    options: &MetropolisOptions,
    progress: &mut dyn Monitor,
) -> Result<SolveOutcome<MetropolisStats>, MetropolisError> {
    metropolis_within(puzzle, options, &Limits::default(), progress)
}

/// [`metropolis`] within `limits`: options above them are refused before the first step.
pub fn metropolis_within(
    puzzle: &Puzzle,
    options: &MetropolisOptions,
    limits: &Limits,
    progress: &mut dyn Monitor,
) -> Result<SolveOutcome<MetropolisStats>, MetropolisError> {
    let max_steps = options.max_steps_within(limits)?;
    // NaN and negative temperatures act as 0 (only downhill or level moves).
    let temperature = options.temperature.unwrap_or(DEFAULT_TEMPERATURE).max(0.0);
    let mut rng = Rng::from_u64(options.seed);
    let mut chain = Chain::new(puzzle, &mut rng);
    let initial_energy = chain.energy;
    let mut best_energy = chain.energy;
    // Energy changes are small integers (|delta| <= 25), so acceptance odds are a table.
    let accept: Vec<f64> = (0..=64).map(|d| (-(d as f64) / temperature).exp()).collect();
    let (mut steps, mut accepted) = (0u64, 0u64);
    while chain.energy > 0 && steps < max_steps {
        if steps > 0 && steps.is_multiple_of(PROGRESS_EVERY) && !progress.update(steps, max_steps) {
            return Err(Cancelled.into());
        }
        steps += 1;
        let cell = rng.index(chain.cells);
        let old = chain.grid[cell];
        let mut new = 1 + rng.index(chain.n - 1) as u8;
        if new >= old {
            new += 1;
        }
        let delta = chain.delta(cell, old, new);
        if delta <= 0 || rng.unit() < accept[delta as usize] {
            chain.apply(cell, old, new, delta);
            accepted += 1;
            best_energy = best_energy.min(chain.energy);
        }
    }
    let solved = chain.energy == 0;
    let stats = MetropolisStats {
        seed: options.seed,
        temperature,
        steps,
        accepted,
        acceptance_rate: if steps == 0 { 0.0 } else { accepted as f64 / steps as f64 },
        initial_energy: initial_energy as u32,
        final_energy: chain.energy as u32,
        best_energy: best_energy as u32,
    };
    Ok(SolveOutcome {
        method: Method::Metropolis,
        solution: solved.then(|| chain.rows()),
        unique: None,
        reason: (!solved).then(|| {
            format!(
                "no solution within {max_steps} steps: final energy {}, best {} (try another seed, more steps or another temperature)",
                chain.energy, best_energy
            )
        }),
        stats,
    })
}

/// Chain state with per-region digit counts so a move's energy change is O(1).
pub(crate) struct Chain {
    n: usize,
    cells: usize,
    grid: Vec<u8>,
    /// Clue digit per cell, 0 if none.
    clue: Vec<u8>,
    cell_regions: Vec<[usize; 2]>,
    region_size: Vec<u8>,
    /// `counts[region * 10 + d]`: copies of digit d in the region.
    counts: Vec<i32>,
    pub energy: i32,
}

impl Chain {
    pub fn new(puzzle: &Puzzle, rng: &mut Rng) -> Chain {
        let layout = puzzle.layout();
        let n = layout.size;
        let cells = n * n;
        let mut clue = vec![0u8; cells];
        for c in puzzle.clues() {
            clue[(c.row - 1) * n + c.col - 1] = c.digit;
        }
        let grid: Vec<u8> = (0..cells).map(|_| 1 + rng.index(n) as u8).collect();
        let mut chain = Chain {
            n,
            cells,
            grid,
            clue,
            region_size: layout.regions.iter().map(|r| r.len() as u8).collect(),
            counts: vec![0; layout.regions.len() * 10],
            cell_regions: layout.cell_regions,
            energy: 0,
        };
        for cell in 0..cells {
            for r in chain.cell_regions[cell] {
                chain.counts[r * 10 + chain.grid[cell] as usize] += 1;
            }
        }
        chain.energy = chain.full_energy();
        chain
    }

    /// Energy from scratch (the definition; `delta` must agree with it).
    pub fn full_energy(&self) -> i32 {
        let clues: i32 =
            (0..self.cells).filter(|&c| self.clue[c] != 0 && self.clue[c] != self.grid[c]).count() as i32 * PENALTY;
        let regions: i32 = (0..self.region_size.len())
            .map(|r| (1..=self.n).map(|d| term(self.region_size[r], d as u8, self.counts[r * 10 + d])).sum::<i32>())
            .sum();
        clues + regions
    }

    /// Energy change if `cell` went from `old` to `new`.
    pub fn delta(&self, cell: usize, old: u8, new: u8) -> i32 {
        let clue = self.clue[cell];
        let mut delta = if clue == 0 { 0 } else { PENALTY * ((new != clue) as i32 - (old != clue) as i32) };
        for r in self.cell_regions[cell] {
            let size = self.region_size[r];
            let (mo, mn) = (self.counts[r * 10 + old as usize], self.counts[r * 10 + new as usize]);
            delta += term(size, old, mo - 1) - term(size, old, mo) + term(size, new, mn + 1) - term(size, new, mn);
        }
        delta
    }

    pub fn apply(&mut self, cell: usize, old: u8, new: u8, delta: i32) {
        for r in self.cell_regions[cell] {
            self.counts[r * 10 + old as usize] -= 1;
            self.counts[r * 10 + new as usize] += 1;
        }
        self.grid[cell] = new;
        self.energy += delta;
    }

    fn rows(&self) -> Vec<String> {
        self.grid.chunks(self.n).map(|row| row.iter().map(|&d| (b'0' + d) as char).collect()).collect()
    }
}

/// A digit's energy in a region of `size` cells where it occurs `m` times.
fn term(size: u8, d: u8, m: i32) -> i32 {
    if d <= size {
        (m - 1).abs()
    } else {
        PENALTY * m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_energy_matches_definition() {
        let puzzle = Puzzle::from_text(crate::puzzles::oneup::EXAMPLE).unwrap();
        let mut rng = Rng::from_u64(3);
        let mut chain = Chain::new(&puzzle, &mut rng);
        for _ in 0..20_000 {
            let cell = rng.index(chain.cells);
            let old = chain.grid[cell];
            let new = 1 + rng.index(chain.n) as u8;
            if new == old {
                continue;
            }
            let d = chain.delta(cell, old, new);
            chain.apply(cell, old, new, d);
            assert_eq!(chain.energy, chain.full_energy());
        }
    }

    #[test]
    fn region_term_matches_write_up() {
        // Size-6 region holding 4, 4, 7, 4, 7, 3 contributes 16 for digits 1..=8.
        let counts = [0, 0, 0, 1, 3, 0, 0, 2, 0];
        let total: i32 = (1..=8u8).map(|d| term(6, d, counts[d as usize])).sum();
        assert_eq!(total, 16);
    }
}
