//! Work on the cores there are, for the typesetter and the PDF writer: each item's result
//! computed on its own and returned in order, so the same input gives the same output
//! whatever the thread count.

use std::sync::{Condvar, Mutex, PoisonError};

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
mod tests {
    use super::*;

    #[test]
    fn work_in_parallel_comes_back_in_order() {
        // Items of uneven cost, taken a few at a time by whichever thread is free: the
        // results in the items' order, as one thread gives them.
        let items: Vec<u64> = (0..1000).collect();
        let cost = |&i: &u64| (0..(i % 7) * 1000).fold(i, |a, b| a.wrapping_mul(31).wrapping_add(b));
        let sequential: Vec<u64> = items.iter().map(cost).collect();
        assert_eq!(in_parallel(&items, cost), sequential);
        assert_eq!(in_parallel(&items[..20], cost), sequential[..20]);
        assert_eq!(in_parallel(&items[..3], cost), sequential[..3]);
        // Work beside on the calling thread: done once, its result returned with theirs.
        for n in [1000, 3] {
            let mut calls = 0;
            let (out, side) = in_parallel_beside(&items[..n], cost, || {
                calls += 1;
                cost(&12_345)
            });
            assert_eq!((out.as_slice(), side, calls), (&sequential[..n], cost(&12_345), 1));
        }
        // Progress from none to all, rising, told every so often (items of a millisecond
        // each: several times on any number of cores); a stop heeded at once, and no result
        // then.
        let mut seen = Vec::new();
        let slow = |i: &u64| {
            std::thread::sleep(std::time::Duration::from_millis(1));
            cost(i)
        };
        let watched = in_parallel_watched(&items[..400], slow, |done| {
            seen.push(done);
            true
        });
        assert_eq!(watched.as_deref(), Some(&sequential[..400]));
        assert!(seen.len() > 2 && seen[0] == 0 && seen[seen.len() - 1] == 400, "{seen:?}");
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        let mut calls = 0;
        assert_eq!(
            in_parallel_watched(&items, cost, |done| {
                calls += 1;
                done == 0
            }),
            None
        );
        assert_eq!(calls, 2);
    }
}
