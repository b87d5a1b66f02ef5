//! Printable output: the page model ([`page`]) that every product's layout ([`layouts`])
//! draws into with the embedded fonts ([`fonts`]) and the typesetter ([`typeset`]), the
//! book frame every book is printed through ([`frame`]), what a
//! printer needs of a page (trims, margins, footers, ISBNs: [`print`]), the one PDF writer
//! ([`pdf`]), and the files other programs read (.puz, .ipuz, ZIP: [`exchange`]).

pub mod exchange;
pub mod fonts;
pub mod frame;
pub mod layouts;
pub mod page;
pub mod pdf;
pub mod print;
pub mod svg;
pub mod typeset;
