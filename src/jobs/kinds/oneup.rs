//! One Up jobs: solve a puzzle (exactly, or with the Metropolis sampler) and generate a
//! new puzzle with one solution.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::oneup::{self, Method, MetropolisError, MetropolisOptions, Puzzle};

pub struct OneUpSolves;
pub struct OneUpPuzzles;

/// Stored with a solve job: the puzzle in its JSON form and how to solve it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolveParams {
    pub puzzle: Value,
    pub method: Method,
    #[serde(flatten)]
    pub metropolis: MetropolisOptions,
}

/// Stored with a generate job; the seed is always set (drawn by the server if the client
/// gave none) so the job is reproducible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateParams {
    pub size: usize,
    pub seed: u64,
}

fn to_value(v: impl Serialize) -> Result<Value, RunError> {
    serde_json::to_value(v).map_err(|e| RunError::Failed(e.to_string()))
}

impl JobKind for OneUpSolves {
    const NAME: &'static str = "oneup.solves";
    type Params = SolveParams;
    type Output = Value;

    fn run(_: &Context, params: SolveParams, monitor: &mut dyn Monitor) -> Result<Value, RunError> {
        let puzzle = Puzzle::from_json_value(&params.puzzle).map_err(|e| RunError::Failed(e.to_string()))?;
        match params.method {
            Method::Exact => to_value(oneup::solve(&puzzle, 2, monitor)?),
            Method::Metropolis => match oneup::metropolis(&puzzle, &params.metropolis, monitor) {
                Ok(outcome) => to_value(outcome),
                Err(MetropolisError::Cancelled(_)) => Err(RunError::Cancelled),
                Err(e @ MetropolisError::Options(_)) => Err(RunError::Failed(e.to_string())),
            },
        }
    }
}

impl JobKind for OneUpPuzzles {
    const NAME: &'static str = "oneup.puzzles";
    type Params = GenerateParams;
    type Output = Value;

    fn run(_: &Context, params: GenerateParams, monitor: &mut dyn Monitor) -> Result<Value, RunError> {
        let mut generated = to_value(oneup::generate(params.size, params.seed, monitor)?)?;
        generated["seed"] = params.seed.into();
        generated["size"] = params.size.into();
        Ok(generated)
    }
}
