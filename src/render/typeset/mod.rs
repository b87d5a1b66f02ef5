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

/// `f` of each item, in order, on the cores there are (up to eight): the same results
/// whatever the thread count, each computed on its own.
pub(crate) fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || items.len() < 16 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            items.chunks(chunk).map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<_>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("the work does not panic")).collect()
    })
}

#[cfg(test)]
mod tests;
