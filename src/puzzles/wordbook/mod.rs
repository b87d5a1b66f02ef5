//! Find the Fox for any word: books of letter grids over a chosen alphabet and page shape in
//! which a chosen word appears exactly once. The default, FOX on F, O, X on rectangles, is
//! printed by the original [`crate::puzzles::foxbook`] sampler (see [`engine`]).
//!
//! A book is a draw from the uniform law over all books with exactly one occurrence: pages
//! are independent, the word's page is uniform among the pages and uniform over the shape's
//! grids with exactly one occurrence, and every other page is uniform over grids with none.
//! An occurrence is the word read along any of the 8 directions through consecutive letter
//! cells; a palindrome read both ways is one occurrence. Pages come from bit-sliced
//! Metropolis chains (see [`chain`]), and a book is a pure function of (spec, seed).
//!
//! ```
//! use puzzlepress::puzzles::wordbook::{generate, Shape, WordSpec};
//! use puzzlepress::puzzles::monitor::Unmonitored;
//! let spec = WordSpec { word: "CAT".into(), shape: Shape::Heart, pages: 3, rows: 12, cols: 12, ..WordSpec::default() };
//! let book = generate(&spec, [7; 32], &mut Unmonitored).unwrap();
//! assert!(book.verify().is_ok());
//! assert_eq!(book.answer.word, "CAT");
//! ```

pub mod chain;
pub mod diagnostics;
pub mod engine;
mod generate;
mod page;
mod spec;
mod store;
#[cfg(test)]
mod tests;

pub use engine::{book_for, book_for_version, direction_words, unpack, unpack_page, Printed};
pub use generate::{generate, generate_plan, weight_log2, GenerateError, WordAnswer, WordBook, MAX_WEIGHT_LOG2};
pub use page::{occurrences, Occurrence, WordPage, NO_CELL};
pub use spec::{
    Mask, Plan, Shape, SpecError, WordSpec, COLS_RANGE, MAX_LETTERS, PAGES_RANGE, ROWS_RANGE, SHAPE_NAMES,
    WORD_LEN_RANGE,
};
pub use store::{unpack_pages, word_book_seed, UnpackError, WORD_GENERATOR_VERSION};
