//! Printable output of puzzles (a small reusable PDF layer, print geometry (trims, margins,
//! covers) and per-engine layouts) and the crossword exchange files (.puz, .ipuz).

pub mod cover;
pub mod crossword;
pub mod dictionary;
pub mod fonts;
pub mod foxbook;
pub mod ipuz;
pub mod isbn;
pub mod oneup;
pub mod oneup_book;
pub mod page;
pub mod pdf;
pub mod print;
pub mod printrun;
pub mod puz;
pub mod typeset;
pub mod wordsearch;
pub mod zip;
