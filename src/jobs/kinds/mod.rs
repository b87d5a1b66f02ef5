//! Every kind of job the service runs: its name, its stored params, and how to run it.
//! Adding a kind means a module here and one arm in [`execute`].

pub mod foxhole;

use crate::puzzles::graycode::{self, GrayError};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::puzzles::progress::{Cancelled, Progress};

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
pub fn execute(kind: &str, params: Value, progress: &mut dyn Progress) -> Result<Value, RunError> {
    match kind {
        foxhole::STRATEGY => run_typed(params, |p| foxhole::strategy(p, progress)),
        GRAYCODES => run_typed(params, |p| {
            graycode::gray_codes(&p, progress).map_err(|e| match e {
                GrayError::Cancelled => RunError::Cancelled,
                other => RunError::Failed(other.to_string()),
            })
        }),
        other => Err(RunError::Failed(format!("this server does not know job kind {other:?}"))),
    }
}

/// Decodes stored params, runs `f`, encodes its output.
fn run_typed<P: DeserializeOwned, O: Serialize>(
    params: Value,
    f: impl FnOnce(P) -> Result<O, RunError>,
) -> Result<Value, RunError> {
    let params = serde_json::from_value(params)
        .map_err(|e| RunError::Failed(format!("stored job params do not parse: {e}")))?;
    serde_json::to_value(f(params)?).map_err(|e| RunError::Failed(format!("result does not serialize: {e}")))
}
