//! Setting text as a book: Liang hyphenation ([`hyphenate`]), Knuth–Plass total-fit line
//! breaking ([`linebreak`]) of styled paragraphs ([`paragraph`]), a dictionary's entries
//! sorted by the Unicode Collation Algorithm ([`entries`]), pages of two balanced columns
//! with running heads and front matter ([`book`]) in the embedded serif
//! ([`crate::render::fonts::serif`]), written by the one PDF writer ([`crate::render::pdf`]).
//!
//! Pure and deterministic: no I/O, no clock, the same book gives the same bytes.

pub mod book;
pub mod columns;
pub mod entries;
pub mod hyphenate;
pub mod items;
pub mod linebreak;
pub mod pages;
pub mod paragraph;
pub mod prose;
pub mod sample;

pub use book::{typeset, typeset_monitored, Book, Design, Heads, Report, Stopped, Typeset};
pub use entries::{parse_lines, parse_lines_in_parallel, Entry, EntryError, LineError, Sense};
pub use hyphenate::Language;

/// `book` typeset to `design` as PDF bytes, with its layout (how well it was set is its
/// `report`); `monitor` follows the entries set and may stop it. The layout is the
/// caller's to drop: tens of thousands of lines and marks take a millisecond to free, which
/// a command about to exit need not spend.
pub fn dictionary_pdf(
    book: &Book,
    design: &Design,
    monitor: &mut dyn crate::puzzles::monitor::Monitor,
) -> Result<(Vec<u8>, Typeset), Stopped> {
    let t = typeset_monitored(book, design, monitor)?;
    let bytes = crate::render::pdf::write_typeset(&t, &book.title, design.page);
    Ok((bytes, t))
}

#[cfg(test)]
mod tests;
