//! A job kind for tests of the queue itself, compiled only with the `test-jobs` feature
//! (never into a release binary): it blocks until it is cancelled or its time is up,
//! reporting progress as it goes, so tests need no CPU-heavy stand-in for "a long job".

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;

pub struct Blocking;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockingParams {
    /// Milliseconds to run; None: until cancelled.
    #[serde(default)]
    pub millis: Option<u64>,
    /// Makes otherwise equal jobs distinct.
    #[serde(default)]
    pub tag: u64,
}

#[derive(Debug, Serialize)]
pub struct BlockingOutput {
    pub millis: u64,
    pub tag: u64,
}

impl JobKind for Blocking {
    const NAME: &'static str = "testing.blocking";
    type Params = BlockingParams;
    type Output = BlockingOutput;

    fn run(_: &Context, params: BlockingParams, monitor: &mut dyn Monitor) -> Result<BlockingOutput, RunError> {
        let start = Instant::now();
        loop {
            let elapsed = start.elapsed().as_millis() as u64;
            if params.millis.is_some_and(|m| elapsed >= m) {
                return Ok(BlockingOutput { millis: elapsed, tag: params.tag });
            }
            if !monitor.update(elapsed, params.millis.unwrap_or(0)) {
                return Err(RunError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
