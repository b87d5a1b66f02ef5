//! Printable output of puzzles: a small reusable PDF layer and per-engine layouts.

pub mod crossword;
pub mod foxbook;
mod metrics;
pub mod oneup;
pub mod pdf;
