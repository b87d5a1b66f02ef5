//! Every kind of job the service runs: its name, its stored params, and how to run it.
//! Adding a kind means a module here and one arm in [`execute`].

pub mod book;
pub mod crossword;
pub mod foxhole;
pub mod oneup;

use std::sync::Arc;

use crate::puzzles::graycode::{self, GrayError};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::jobs::model::Output;
use crate::puzzles::monitor::{Cancelled, Monitor};

/// What jobs may use besides their params.
#[derive(Clone)]
pub struct Context {
    /// Key from which per-book seeds are derived.
    pub secret: Arc<[u8]>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Context { secret: <hidden> }")
    }
}

/// Why a run produced no result.
#[derive(Debug)]
pub enum RunError {
    /// The engine stopped because it was asked to (client cancel, shutdown, lost lease).
    Cancelled,
    /// The job cannot succeed; re-running it would fail the same way (engines are
    /// deterministic), so it is not retried.
    Failed(String),
}

impl From<Cancelled> for RunError {
    fn from(_: Cancelled) -> Self {
        RunError::Cancelled
    }
}

/// Lists or counts Gray codes (`graycode::GrayRequest`).
pub const GRAYCODES: &str = "graycodes";

/// Runs one job of `kind` on the current (blocking) thread.
pub fn execute(ctx: &Context, kind: &str, params: Value, progress: &mut dyn Monitor) -> Result<Output, RunError> {
    match kind {
        book::KIND => {
            let params = decode(params)?;
            book::run(ctx, params, progress)
        }
        foxhole::STRATEGY => run_typed(params, |p| foxhole::strategy(p, progress)),
        crossword::PATTERNS => run_typed(params, |p| crossword::patterns(p, progress)),
        crossword::FILL => run_typed(params, |p| crossword::fill(p, progress)),
        crossword::WORD_SQUARES => run_typed(params, |p| crossword::word_squares(p, progress)),
        oneup::SOLVE => run_typed(params, |p| oneup::solve(p, progress)),
        oneup::GENERATE => run_typed(params, |p| oneup::generate(p, progress)),
        GRAYCODES => run_typed(params, |p| {
            graycode::gray_codes(&p, progress).map_err(|e| match e {
                GrayError::Cancelled => RunError::Cancelled,
                other => RunError::Failed(other.to_string()),
            })
        }),
        other => Err(RunError::Failed(format!("this server does not know job kind {other:?}"))),
    }
}

fn decode<P: DeserializeOwned>(params: Value) -> Result<P, RunError> {
    serde_json::from_value(params).map_err(|e| RunError::Failed(format!("stored job params do not parse: {e}")))
}

/// Decodes stored params, runs `f`, and makes its output the job's result.
fn run_typed<P: DeserializeOwned, O: Serialize>(
    params: Value,
    f: impl FnOnce(P) -> Result<O, RunError>,
) -> Result<Output, RunError> {
    let result = serde_json::to_value(f(decode(params)?)?)
        .map_err(|e| RunError::Failed(format!("result does not serialize: {e}")))?;
    Ok(Output { result, artifact: None })
}
