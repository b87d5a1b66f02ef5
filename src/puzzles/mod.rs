//! Pure, synchronous, deterministic puzzle engines: no async, no I/O, no database.
//! Each is usable as a library function and tested on its own.

#[cfg(test)]
pub(crate) mod chisq;
pub mod crossword;
pub mod foxbook;
pub mod foxhole;
pub mod graycode;
pub mod level;
mod limits;
pub mod monitor;
pub mod oneup;
pub mod rng;
pub mod wordbook;
pub mod wordsearch;
pub use limits::{DictionaryLimits, Limits};
