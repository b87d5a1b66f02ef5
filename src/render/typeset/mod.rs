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
    let report = t.report.clone();
    // Tens of thousands of lines and marks take a millisecond or more to free: not on the
    // caller's time (a one-shot command exits without waiting for it). Where no thread
    // can be made, the failed spawn drops it here instead.
    let _ = std::thread::Builder::new().name("free-layout".into()).spawn(move || drop(t));
    Ok((bytes, report))
}

/// `f` of each item, in order, on the cores there are (up to eight): the same results
/// whatever the thread count, each computed on its own. Each thread takes the next few
/// items as it becomes free, so an uneven share ends no later than a few items' time (the
/// calling thread only waits: working too, it made the 2,000-entry bench 10 % slower).
pub(crate) fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || items.len() < 16 {
        return items.iter().map(f).collect();
    }
    // Eight takes a thread on average: few enough to cost nothing, enough to even out.
    let take = items.len().div_ceil(threads * 8);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, Vec<R>)> = Vec::new();
        loop {
            let from = next.fetch_add(take, Ordering::Relaxed);
            if from >= items.len() {
                return done;
            }
            done.push((from, items[from..(from + take).min(items.len())].iter().map(&f).collect()));
        }
    };
    let mut parts = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers.into_iter().flat_map(|w| w.join().expect("the work does not panic")).collect::<Vec<_>>()
    });
    parts.sort_unstable_by_key(|p| p.0);
    parts.into_iter().flat_map(|p| p.1).collect()
}

#[cfg(test)]
mod tests;
