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
pub mod sample;

pub use book::{typeset, typeset_monitored, Book, Design, Heads, Report, Stopped, Typeset};
pub use entries::{parse_lines, parse_lines_in_parallel, Entry, EntryError, LineError, Sense};
pub use hyphenate::Language;

use std::sync::{Condvar, Mutex, PoisonError};

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
    let bytes = pdf::write(&t, &book.title, design.page);
    Ok((bytes, t))
}

/// `f` of each item, in order, on the cores there are (up to eight): the same results
/// whatever the thread count, each computed on its own. [`in_parallel_watched`] never
/// stopped.
pub(crate) fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    in_parallel_watched(items, f, |_| true).expect("never stopped")
}

/// At most this many items a take: a stop is heeded between takes. Few enough that a
/// take's results (a vector of this capacity) are a small allocation: at 256 the
/// allocator gave them pages of a size class for large ones, and each thread touched a 2 MB
/// huge page more for the kernel to clear (10 -> 8 a dictionary run).
const MAX_TAKE: usize = 32;
/// At least this many, so that the takes' own cost stays small.
const MIN_TAKE: usize = 4;

/// How often the calling thread is told how many items are done.
const PROGRESS: std::time::Duration = std::time::Duration::from_millis(20);

/// Starts the threads that work in parallel (the process's pool), if not yet started: a
/// command that will need them starts them first, so that they get ready (each its
/// stack and its allocator's first pages) while it reads its input.
pub fn start_threads() {
    rayon_core::current_num_threads();
}

/// The pool's threads (a core each, or `RAYON_NUM_THREADS`), up to eight: the cores are
/// asked once, by the pool as it starts (each answer reads the cgroup's files, a tenth of a
/// millisecond before a dictionary's entries were read).
fn threads() -> usize {
    rayon_core::current_num_threads().min(8)
}

/// `f` of each item, in order, on the cores there are (up to eight), `watch` told how many
/// are done (0 first, then every [`PROGRESS`] as more are, last all of them) on the
/// calling thread; None as soon as it answers false (no take is begun after that). Each
/// thread takes the next few items as it becomes free, fewer as fewer are left, so an
/// uneven share ends no later than a few items' time; the calling thread only watches
/// (working too, it made the 2,000-entry bench 10 % slower).
pub(crate) fn in_parallel_watched<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    watch: impl FnMut(usize) -> bool,
) -> Option<Vec<R>> {
    run(items, f, watch, || ()).map(|(out, ())| out)
}

/// [`in_parallel`], the calling thread meanwhile doing `beside` (work of its own that
/// would otherwise wait for the items or keep them waiting), before it waits.
pub(crate) fn in_parallel_beside<T: Sync, R: Send, S>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    beside: impl FnOnce() -> S,
) -> (Vec<R>, S) {
    run(items, f, |_| true, beside).expect("never stopped")
}

/// [`in_parallel_watched`] and [`in_parallel_beside`] at once: `watch` is first told of
/// the items done when `beside` is over.
pub(crate) fn in_parallel_watched_beside<T: Sync, R: Send, S>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    watch: impl FnMut(usize) -> bool,
    beside: impl FnOnce() -> S,
) -> Option<(Vec<R>, S)> {
    run(items, f, watch, beside)
}

/// Counts a worker out as it ends, however it ends (a panic too, which the scope then
/// raises), waking the calling thread at the last.
struct Leaving<'a>(&'a (Mutex<usize>, Condvar));

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        let (left, ended) = self.0;
        let mut left = left.lock().unwrap_or_else(PoisonError::into_inner);
        *left -= 1;
        if *left == 0 {
            ended.notify_one();
        }
    }
}

fn run<T: Sync, R: Send, S>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    mut watch: impl FnMut(usize) -> bool,
    beside: impl FnOnce() -> S,
) -> Option<(Vec<R>, S)> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    if !watch(0) {
        return None;
    }
    let threads = threads();
    // The next take: a quarter of each thread's share of what is left (guided), so the
    // last takes are small and no thread is left alone with a long one at the end.
    let take_at = |from: usize| (items.len() - from).div_ceil(threads * 4).clamp(MIN_TAKE, MAX_TAKE);
    if threads < 2 || items.len() < 16 {
        let side = beside();
        let mut out = Vec::with_capacity(items.len());
        while out.len() < items.len() {
            let to = (out.len() + take_at(out.len())).min(items.len());
            out.extend(items[out.len()..to].iter().map(&f));
            if !watch(out.len()) {
                return None;
            }
        }
        return Some((out, side));
    }
    let (next, stopped, done) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicUsize::new(0));
    let parts = Mutex::new(Vec::new());
    let working = (Mutex::new(threads), Condvar::new());
    let (next, stop, done, parts_done, working, f) = (&next, &stopped, &done, &parts, &working, &f);
    // The work goes to the process's pool of a thread a core (rayon's), kept between
    // calls: a thread's buffers (a paragraph's, the compressor's) and its allocator's
    // pages serve every call after; the calling thread only watches.
    let side = rayon_core::in_place_scope(|scope| {
        for _ in 0..threads {
            scope.spawn(move |_| {
                let _leaving = Leaving(working);
                while !stop.load(Ordering::Relaxed) {
                    let Ok(from) = next.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |from| {
                        (from < items.len()).then(|| (from + take_at(from)).min(items.len()))
                    }) else {
                        break;
                    };
                    // Every take's results in a vector of one size (the most a take holds):
                    // sized to each take, the allocator put each size's first on a page of
                    // its own, fresh memory the kernel cleared in huge pages.
                    let mut part: Vec<R> = Vec::with_capacity(MAX_TAKE);
                    part.extend(items[from..(from + take_at(from)).min(items.len())].iter().map(f));
                    done.fetch_add(part.len(), Ordering::Relaxed);
                    parts_done.lock().unwrap_or_else(PoisonError::into_inner).push((from, part));
                }
            });
        }
        let side = beside();
        // Until every worker has ended, told how many are done now and then: woken by each
        // take instead, this thread took a worker's core from it a hundred times a run.
        let mut told = 0;
        let mut tell = |count: usize| {
            if count != told && !stop.load(Ordering::Relaxed) {
                told = count;
                if !watch(count) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let (left, ended) = working;
        loop {
            let left = left.lock().unwrap_or_else(PoisonError::into_inner);
            if *left == 0 {
                break;
            }
            let (left, _) = ended.wait_timeout(left, PROGRESS).unwrap_or_else(PoisonError::into_inner);
            let over = *left == 0;
            drop(left);
            if over {
                break;
            }
            tell(done.load(Ordering::Relaxed));
        }
        tell(done.load(Ordering::Relaxed));
        side
    });
    if stopped.into_inner() {
        return None;
    }
    let mut parts = parts.into_inner().unwrap_or_else(PoisonError::into_inner);
    parts.sort_unstable_by_key(|p| p.0);
    // At its size at once: grown as it fills, a vector passes through every size between
    // (each fresh memory for the allocator, which the kernel must clear).
    let mut out = Vec::with_capacity(items.len());
    for (_, part) in parts {
        out.extend(part);
    }
    Some((out, side))
}

#[cfg(test)]
mod tests;
