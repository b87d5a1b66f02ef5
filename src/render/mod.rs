//! Printable output of puzzles: a small reusable PDF layer and per-engine layouts.

pub mod crossword;
mod font_widths;
pub mod foxbook;
pub mod oneup;
pub mod pdf;
pub mod printrun;
pub mod zip;
