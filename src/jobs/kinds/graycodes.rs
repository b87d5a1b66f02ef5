//! Gray code jobs: list (a page at a time) or count codes.

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::graycode::{self, GrayError, GrayOutcome, GrayRequest};
use crate::puzzles::monitor::Monitor;

pub struct GrayCodes;

impl JobKind for GrayCodes {
    const NAME: &'static str = "graycodes";
    type Params = GrayRequest;
    type Output = GrayOutcome;

    fn run(ctx: &Context, req: GrayRequest, monitor: &mut dyn Monitor) -> Result<GrayOutcome, RunError> {
        graycode::gray_codes_within(&req, &ctx.limits.graycode, monitor).map_err(|e| match e {
            GrayError::Cancelled => RunError::Cancelled,
            other => RunError::Failed(other.to_string()),
        })
    }
}
