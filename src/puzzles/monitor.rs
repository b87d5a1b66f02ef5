//! How a long-running engine reports progress and learns that it should stop.
//!
//! Engines stay free of async and I/O; the job runner passes an implementation that
//! records progress and reads a cancellation flag.

/// Told how far an engine has come; answers whether it may go on.
pub trait Monitor {
    /// Reports `done` of `total` units; returns `false` when the engine should stop now.
    fn update(&mut self, done: u64, total: u64) -> bool;
}

/// For callers that do not watch progress (tests, the CLI).
pub struct Unmonitored;

impl Monitor for Unmonitored {
    fn update(&mut self, _done: u64, _total: u64) -> bool {
        true
    }
}

/// One part's monitor inside a whole's (a puzzle's inside its book's): whatever the part
/// reports, the whole's progress is `done` of `total` parts, and every report still asks
/// the whole's monitor, so a cancelled whole stops within a part.
pub struct Within<'a> {
    pub outer: &'a mut dyn Monitor,
    pub done: u64,
    pub total: u64,
}

impl Monitor for Within<'_> {
    fn update(&mut self, _: u64, _: u64) -> bool {
        self.outer.update(self.done, self.total)
    }
}

/// The engine stopped early because its caller asked it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;
