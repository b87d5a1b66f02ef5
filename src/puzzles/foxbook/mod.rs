//! Find the Fox: books of F/O/X letter grids in which the word FOX appears exactly once.
//!
//! A book is a draw from the uniform law over all books with exactly one FOX: pages are
//! independent, the fox page is uniform among the pages and uniform over one-FOX grids, and
//! every other page is uniform over FOX-free grids. Pages come from bit-sliced Metropolis
//! chains (64 grids per machine word, see [`chain`]) run for a fixed mixing budget, and a
//! book is a pure function of ([`GENERATOR_VERSION`], secret, serial, pages, rows, cols).
//!
//! ```
//! use puzzlepress::puzzles::foxbook::{book_seed, generate, BookSpec};
//! use puzzlepress::puzzles::monitor::Unmonitored;
//! let spec = BookSpec { pages: 3, rows: 8, cols: 8 };
//! let book = generate(spec, book_seed(b"secret", "0123456789A", spec), &mut Unmonitored).unwrap();
//! assert!(book.verify().is_ok());
//! ```

mod book;
pub mod chain;
pub mod diagnostics;
mod generate;
mod kernel;
mod lanes;
mod page;
mod seed;
mod segments;
pub mod serial;
mod spec;
#[cfg(test)]
mod tests;

pub use book::{Answer, Book, UnpackError};
pub use generate::{generate, generate_version, lambda_log2};
pub(crate) use generate::{lowest, Meter};
pub(crate) use lanes::transpose64;
pub use page::{Letter, Page};
pub use seed::{book_seed, book_seed_version};
pub use segments::{all_segments, count_fox, near_misses, segment_count, Direction, Segment};
pub use serial::{Serial, SerialError};
pub use spec::{BookSpec, Limits, SpecError, COLS_RANGE, PAGES_RANGE, ROWS_RANGE};

/// Bumped whenever the same inputs would give a different book. Version 1 ran a one-word
/// fox chain then a one-word FOX-free chain; version 2 runs both kinds of lanes in one
/// four-word chain (see [`generate`]'s module). Every version stays reproducible:
/// [`book_for_version`].
pub const GENERATOR_VERSION: u32 = 2;

/// Why no book was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("cancelled")]
    Cancelled(#[from] crate::puzzles::monitor::Cancelled),
    #[error("no generator version {0} (versions 1 to {GENERATOR_VERSION} exist)")]
    Version(u32),
}

/// The book for `serial` under `secret`: the same inputs always give the same book,
/// whether the server prints it or the offline CLI does. The spec must be within the
/// default [`Limits`].
pub fn book_for(
    secret: &[u8],
    serial: &str,
    spec: BookSpec,
    monitor: &mut dyn crate::puzzles::monitor::Monitor,
) -> Result<Book, BookError> {
    book_for_within(secret, serial, spec, &Limits::default(), monitor)
}

/// The book for `serial` under `secret` as generator `version` printed it (a book stores the
/// version it was printed with): how a book printed before the current version is made again.
pub fn book_for_version(
    secret: &[u8],
    serial: &str,
    spec: BookSpec,
    version: u32,
    monitor: &mut dyn crate::puzzles::monitor::Monitor,
) -> Result<Book, BookError> {
    spec.validate_within(&Limits::default())?;
    generate_version(spec, book_seed_version(secret, serial, spec, version), version, monitor)
}

/// [`book_for`] with the spec checked against `limits` before any sampling.
pub fn book_for_within(
    secret: &[u8],
    serial: &str,
    spec: BookSpec,
    limits: &Limits,
    monitor: &mut dyn crate::puzzles::monitor::Monitor,
) -> Result<Book, BookError> {
    spec.validate_within(limits)?;
    Ok(generate(spec, book_seed(secret, serial, spec), monitor)?)
}
