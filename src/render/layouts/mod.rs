//! Each product's layout: a pure function from its content to a document of the page
//! model ([`super::page`]), in the print geometry of [`super::print`].

pub mod cover;
pub mod crossword;
pub mod dictionary;
pub mod foxbook;
pub mod oneup;
pub mod oneup_book;
pub mod printrun;
pub mod wordsearch;
