//! One Up jobs: solve a puzzle (exactly, or with the Metropolis sampler), generate a new
//! puzzle with one solution, and generate the puzzles of a book.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
pub use crate::puzzles::oneup::Method;
use crate::puzzles::oneup::{
    self, ClueSymmetry, ExactStats, GenerateError, GenerateOptions, Generated, Level, LevelCounts, MetropolisError,
    MetropolisOptions, MetropolisStats, Puzzle, SolveOutcome,
};
use crate::render::print::Trim;

pub struct OneUpSolves;
pub struct OneUpPuzzles;
pub struct OneUpBooks;

/// Stored with a solve job: the puzzle in its JSON form and how to solve it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SolveParams {
    #[schema(value_type = Puzzle)]
    pub puzzle: Value,
    pub method: Method,
    #[serde(flatten)]
    pub metropolis: MetropolisOptions,
}

/// Stored with a generate job; the seed is always set (drawn by the server if the client
/// gave none) so the job is reproducible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GenerateParams {
    #[schema(minimum = 4, maximum = 9)]
    pub size: usize,
    pub seed: u64,
    /// The level asked for (jobs stored before levels took any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    #[serde(default)]
    pub clue_symmetry: ClueSymmetry,
}

/// Stored with a book job: everything the book is made from (the seed always set, so the
/// same job gives the same book).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OneUpBookParams {
    /// Puzzles of each level; the book prints them easiest first.
    pub levels: LevelCounts,
    #[schema(minimum = 4, maximum = 9)]
    pub size: usize,
    pub clue_symmetry: ClueSymmetry,
    pub seed: u64,
    pub trim: Trim,
    pub title: String,
    /// The author, copyright line and ISBN (normalised), those ordered (jobs stored before
    /// them read none).
    #[serde(flatten)]
    pub imprint: crate::render::print::Imprint,
}

/// A book's puzzles in the order they are numbered: by increasing level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OneUpBookOutput {
    pub puzzles: Vec<Generated>,
}

/// A solve's result, from the exact solver or the Metropolis sampler (`method` says which).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum SolveOutput {
    Exact(SolveOutcome<ExactStats>),
    Metropolis(SolveOutcome<MetropolisStats>),
}

/// A generated puzzle with the size and seed it was generated from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GenerateOutput {
    #[serde(flatten)]
    pub generated: Generated,
    pub size: usize,
    pub seed: u64,
}

impl JobKind for OneUpSolves {
    const NAME: &'static str = "oneup.solves";
    type Params = SolveParams;
    type Output = SolveOutput;

    fn run(ctx: &Context, params: SolveParams, monitor: &mut dyn Monitor) -> Result<SolveOutput, RunError> {
        let puzzle = Puzzle::from_json_value(&params.puzzle).map_err(|e| RunError::Failed(e.to_string()))?;
        Ok(match params.method {
            Method::Exact => SolveOutput::Exact(oneup::solve(&puzzle, 2, monitor)?),
            Method::Metropolis => {
                match oneup::metropolis_within(&puzzle, &params.metropolis, &ctx.limits.oneup, monitor) {
                    Ok(outcome) => SolveOutput::Metropolis(outcome),
                    Err(MetropolisError::Cancelled(_)) => return Err(RunError::Cancelled),
                    Err(e @ MetropolisError::Options(_)) => return Err(RunError::Failed(e.to_string())),
                }
            }
        })
    }
}

impl JobKind for OneUpPuzzles {
    const NAME: &'static str = "oneup.puzzles";
    type Params = GenerateParams;
    type Output = GenerateOutput;

    fn run(_: &Context, params: GenerateParams, monitor: &mut dyn Monitor) -> Result<GenerateOutput, RunError> {
        let options = GenerateOptions { size: params.size, level: params.level, symmetry: params.clue_symmetry };
        let generated = oneup::generate_with(&options, params.seed, monitor).map_err(generate_error)?;
        Ok(GenerateOutput { generated, size: params.size, seed: params.seed })
    }
}

impl JobKind for OneUpBooks {
    const NAME: &'static str = "oneup.books";
    /// A publisher's product: kept until its owner deletes it.
    const KEPT: bool = true;
    type Params = OneUpBookParams;
    type Output = OneUpBookOutput;

    fn run(_: &Context, params: OneUpBookParams, monitor: &mut dyn Monitor) -> Result<OneUpBookOutput, RunError> {
        let puzzles = oneup::generate_book(params.size, &params.levels, params.clue_symmetry, params.seed, monitor)
            .map_err(generate_error)?;
        Ok(OneUpBookOutput { puzzles })
    }
}

fn generate_error(e: GenerateError) -> RunError {
    match e {
        GenerateError::Cancelled(_) => RunError::Cancelled,
        e @ (GenerateError::NotFound { .. } | GenerateError::TooSmall { .. }) => RunError::Failed(e.to_string()),
    }
}
