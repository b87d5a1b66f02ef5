//! Sampling a whole book.
//!
//! All streams derive from the book seed, so output never depends on threads; stream 0 gives
//! the fox page's index, uniform over the pages. The rest depends on the generator version:
//!
//! Version 1 (one word of 64 lanes per chain):
//! - stream 1: 64 lanes of the at-most-one-FOX chain. After burn-in, the lowest lane holding
//!   exactly one FOX is the fox page; since lanes are independent, the chosen lane's grid is
//!   distributed as the chain conditioned on one FOX, i.e. uniform over one-FOX grids. Lanes
//!   holding no FOX are, for the same reason, uniform FOX-free pages and are kept as ordinary
//!   pages ("harvested"). If no lane holds a FOX (rare), the chain runs another spacing and
//!   is read again;
//! - stream 2: 64 lanes of the FOX-free chain for the remaining pages: one page per lane after
//!   burn-in, then one more per lane after every further spacing.
//!
//! Version 2 (one chain of four words, 256 lanes, on stream 1): lanes 0 to 15 of word 0 run
//! the at-most-one-FOX chain and the other 240 lanes the FOX-free chain, all swept together
//! (with AVX2 when the CPU has it; the bytes are the same without). After one burn-in, the
//! lowest lane holding a FOX is the fox page and the FOX-free lanes, lowest word and lane
//! first, are the ordinary pages: about 248 pages from one burn-in, enough for the default
//! book of 200. A book that needs more pages (or, when none of the 16 lanes holds a FOX,
//! about once in 60,000 default books, a fox page) reads the chain again after every further
//! spacing. Each page is read from a lane by the same rules as in version 1, so the same
//! argument gives the same law. Only 16 lanes ask for Bernoulli(λ) trials, which cost k
//! random bits each; half of them still give a fox page with probability 1 - 2^-16.

use super::book::{Answer, Book};
use super::chain::{FourWords, OneWord, BURN_IN_SWEEPS, SPACING_SWEEPS};
use super::lanes::Lanes;
use super::page::Page;
use super::segments::{count_fox, segment_count};
use super::spec::BookSpec;
use super::BookError;
use crate::puzzles::monitor::{Cancelled, Monitor};
use crate::puzzles::rng::Rng;

/// Stream numbers under the book seed.
const STREAM_BOOK: u64 = 0;
const STREAM_FOX: u64 = 1;
const STREAM_FREE: u64 = 2;

/// Samples a book of shape `spec` from `seed` (see [`super::book_seed`]) with the current
/// [`super::GENERATOR_VERSION`].
///
/// `spec` should be valid ([`BookSpec::validate`]); out-of-range fields are clamped into
/// range rather than rejected. Monitor is reported in pages (done, total) every few ms.
pub fn generate(spec: BookSpec, seed: [u8; 32], progress: &mut dyn Monitor) -> Result<Book, Cancelled> {
    sample(spec, seed, Schedule::FourWords, progress)
}

/// [`generate`] as generator `version` did it (pass a seed from [`super::book_seed_version`]
/// for the same version): books printed by an earlier version can be made again.
pub fn generate_version(
    spec: BookSpec,
    seed: [u8; 32],
    version: u32,
    progress: &mut dyn Monitor,
) -> Result<Book, BookError> {
    let schedule = match version {
        1 => Schedule::TwoChains,
        2 => Schedule::FourWords,
        _ => return Err(BookError::Version(version)),
    };
    Ok(sample(spec, seed, schedule, progress)?)
}

/// How pages are drawn from chains (see the module docs).
#[derive(Clone, Copy)]
enum Schedule {
    /// Version 1.
    TwoChains,
    /// Version 2.
    FourWords,
}

fn sample(spec: BookSpec, seed: [u8; 32], schedule: Schedule, progress: &mut dyn Monitor) -> Result<Book, Cancelled> {
    let spec = spec.clamped();
    let (pages, rows, cols) = (spec.pages as usize, spec.rows as usize, spec.cols as usize);
    let fox_index = Rng::stream(seed, STREAM_BOOK).index(pages);
    let mut meter = Meter::new(progress, pages, rows * cols, BURN_IN_SWEEPS, SPACING_SWEEPS);
    let draw = Draw { pages, rows, cols, lambda: lambda_log2(rows, cols), seed };
    let (fox_page, others) = match schedule {
        Schedule::TwoChains => two_chains(draw, &mut meter)?,
        Schedule::FourWords => four_words(draw, &mut meter)?,
    };
    let mut all = others;
    all.insert(fox_index, fox_page);
    let found = count_fox(&all[fox_index]);
    assert_eq!(found.len(), 1, "internal error: the fox chain lost its invariant");
    let answer = Answer::new(fox_index, &found[0]);
    meter.finish();
    Ok(Book { spec, pages: all, answer })
}

/// What a schedule draws a book's pages with: the book's shape, the fox chain's λ, the seed.
#[derive(Clone, Copy)]
struct Draw {
    pages: usize,
    rows: usize,
    cols: usize,
    lambda: u32,
    seed: [u8; 32],
}

/// Version 1: the fox page and `pages - 1` others, from a one-word at-most-one-FOX chain and
/// then, if its harvest is short, a one-word FOX-free chain.
fn two_chains(draw: Draw, meter: &mut Meter) -> Result<(Page, Vec<Page>), Cancelled> {
    let Draw { pages, rows, cols, lambda, seed } = draw;
    let mut fox = OneWord::fox(rows, cols, lambda, Rng::stream(seed, STREAM_FOX));
    let mut others: Vec<Page> = Vec::with_capacity(pages - 1);
    let mut sweeps = BURN_IN_SWEEPS;
    let fox_page = loop {
        meter.sweeps(sweeps, || fox.sweep())?;
        let want = pages - 1 - others.len();
        others.extend(fox.grid.extract(0, lowest(fox.fox_free().0[0], want)));
        let has = fox.has().0[0];
        if has != 0 {
            break fox.grid.extract(0, has & has.wrapping_neg()).pop().expect("one lane requested");
        }
        sweeps = SPACING_SWEEPS;
    };
    meter.replan(others.len());

    if others.len() < pages - 1 {
        let mut free = OneWord::free(rows, cols, Rng::stream(seed, STREAM_FREE));
        let mut sweeps = BURN_IN_SWEEPS;
        while others.len() < pages - 1 {
            meter.sweeps(sweeps, || free.sweep())?;
            others.extend(free.grid.extract(0, lowest(!0, pages - 1 - others.len())));
            sweeps = SPACING_SWEEPS;
        }
    }
    Ok((fox_page, others))
}

/// Version 2's FOX-free lanes: all but lanes 0 to 15 of word 0.
pub(crate) const FOUR_WORDS_FREE: Lanes<4> = Lanes([!0xFFFF, !0, !0, !0]);

/// Version 2: the fox page and `pages - 1` others from one four-word chain
/// ([`FOUR_WORDS_FREE`]).
fn four_words(draw: Draw, meter: &mut Meter) -> Result<(Page, Vec<Page>), Cancelled> {
    let Draw { pages, rows, cols, lambda, seed } = draw;
    let mut chain = FourWords::streamed(rows, cols, lambda, FOUR_WORDS_FREE, Rng::stream(seed, STREAM_FOX));
    // At least 240 pages per reading.
    let readings = (pages - 1).div_ceil(240).max(1);
    meter.plan(BURN_IN_SWEEPS + SPACING_SWEEPS * (readings - 1));
    let mut others: Vec<Page> = Vec::with_capacity(pages - 1);
    let mut fox_page = None;
    let mut sweeps = BURN_IN_SWEEPS;
    loop {
        meter.sweeps(sweeps, || chain.sweep())?;
        let has = chain.has().0[0];
        if fox_page.is_none() && has != 0 {
            fox_page = chain.grid.extract(0, has & has.wrapping_neg()).pop();
        }
        for (word, free) in chain.fox_free().0.into_iter().enumerate() {
            let want = pages - 1 - others.len();
            others.extend(chain.grid.extract(word, lowest(free, want)));
        }
        if others.len() == pages - 1 {
            if let Some(page) = fox_page.take() {
                return Ok((page, others));
            }
        }
        sweeps = SPACING_SWEEPS;
    }
}

/// λ = 2^-k for the fox chain, chosen so that about half of its lanes hold a FOX.
///
/// In equilibrium P(one FOX) / P(none) = λ · Z1 / Z0, where Z1 / Z0 (one-FOX grids per
/// FOX-free grid) grows with the number of segments: about 0.052 per segment, measured at
/// several shapes. We take the power of two nearest to Z0 / Z1, capped at λ = 1.
pub fn lambda_log2(rows: usize, cols: usize) -> u32 {
    let ratio = segment_count(rows, cols) as u64 * 52 / 1000;
    // Smallest k with ratio <= 2^(k + 1/2), i.e. ratio^2 <= 2^(2k + 1).
    let mut k = 0;
    while ratio * ratio > 1u64 << (2 * k + 1) {
        k += 1;
    }
    k
}

/// The `n` lowest set bits of `mask`.
pub(crate) fn lowest(mask: u64, n: usize) -> u64 {
    let mut rest = mask;
    let mut out = 0;
    for _ in 0..n.min(64) {
        if rest == 0 {
            break;
        }
        let bit = rest & rest.wrapping_neg();
        out |= bit;
        rest ^= bit;
    }
    out
}

/// Turns sweeps into page-based progress reports, every `REPORT_CELLS` cell updates, for a
/// book made as here: one chain whose free lanes are harvested, then a free chain run for
/// `burn_in` sweeps and `spacing` sweeps per further 64 pages.
pub(crate) struct Meter<'a> {
    progress: &'a mut dyn Monitor,
    pages: usize,
    cells: usize,
    burn_in: usize,
    spacing: usize,
    done: usize,
    planned: usize,
    since: usize,
}

/// About a millisecond of work between reports.
const REPORT_CELLS: usize = 100_000;

impl<'a> Meter<'a> {
    pub(crate) fn new(
        progress: &'a mut dyn Monitor,
        pages: usize,
        cells: usize,
        burn_in: usize,
        spacing: usize,
    ) -> Self {
        // Until the fox chain is read, assume it yields about half its lanes as pages.
        let mut m = Meter { progress, pages, cells, burn_in, spacing, done: 0, planned: 0, since: 0 };
        m.replan(32.min(pages - 1));
        m.planned += burn_in;
        m
    }

    /// Plans `sweeps` more sweeps from now.
    pub(crate) fn plan(&mut self, sweeps: usize) {
        self.planned = self.done + sweeps;
    }

    /// Plans the free chain's sweeps once `harvested` pages came from the fox chain.
    pub(crate) fn replan(&mut self, harvested: usize) {
        let rest = self.pages - 1 - harvested;
        let free = if rest == 0 { 0 } else { self.burn_in + self.spacing * (rest.div_ceil(64) - 1) };
        self.planned = self.done + free;
    }

    /// Runs `n` sweeps of a chain, counting each.
    pub(crate) fn sweeps(&mut self, n: usize, mut sweep: impl FnMut()) -> Result<(), Cancelled> {
        for _ in 0..n {
            sweep();
            self.sweep()?;
        }
        Ok(())
    }

    fn sweep(&mut self) -> Result<(), Cancelled> {
        self.done += 1;
        self.since += self.cells;
        if self.since >= REPORT_CELLS {
            self.since = 0;
            let frac = self.done as f64 / self.planned.max(self.done + 1) as f64;
            let pages_done = ((frac * self.pages as f64) as u64).min(self.pages as u64 - 1);
            if !self.progress.update(pages_done, self.pages as u64) {
                return Err(Cancelled);
            }
        }
        Ok(())
    }

    pub(crate) fn finish(&mut self) {
        // The book is complete; a late cancellation request no longer matters.
        let _ = self.progress.update(self.pages as u64, self.pages as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_bits() {
        assert_eq!(lowest(0b1011_0110, 3), 0b0001_0110);
        assert_eq!(lowest(0b1011_0110, 9), 0b1011_0110);
        assert_eq!(lowest(!0, 64), !0);
        assert_eq!(lowest(!0, 0), 0);
    }

    #[test]
    fn lambda_by_shape() {
        assert_eq!(lambda_log2(3, 3), 0);
        assert_eq!(lambda_log2(32, 20), 7);
    }
}
