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

/// The engine stopped early because its caller asked it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;
