//! Setting text as a book, in the project's own PDF layer: Liang hyphenation
//! ([`hyphenate`]), Knuth–Plass total-fit line breaking ([`linebreak`]) of styled
//! paragraphs ([`paragraph`]), a dictionary's entries sorted by the Unicode Collation
//! Algorithm ([`entries`]), pages of two balanced columns with running heads and front
//! matter ([`book`]) and their PDF ([`pdf`]) in an embedded serif ([`fonts`]).
//!
//! Pure and deterministic: no I/O, no clock, the same book gives the same bytes.

pub mod book;
pub mod entries;
pub mod fonts;
pub mod hyphenate;
pub mod linebreak;
pub mod paragraph;
pub mod pdf;

pub use book::{typeset, typeset_monitored, Book, Design, Heads, Report, Stopped, Typeset};
pub use entries::{parse_lines, Entry, EntryError, LineError, Sense};
pub use hyphenate::Language;

/// `book` typeset to `design` as PDF bytes, with how well it was set; `monitor` follows
/// the entries set and may stop it.
pub fn dictionary_pdf(
    book: &Book,
    design: &Design,
    monitor: &mut dyn crate::puzzles::monitor::Monitor,
) -> Result<(Vec<u8>, Report), Stopped> {
    let t = typeset_monitored(book, design, monitor)?;
    let bytes = pdf::write(&t, &book.title, design.page);
    Ok((bytes, t.report))
}

#[cfg(test)]
mod tests;
