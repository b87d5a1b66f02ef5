//! Sampling a whole word book, as [`crate::puzzles::foxbook`] samples FOX books:
//! - stream 0: the word page's index, uniform over the pages;
//! - stream 1: 64 lanes of the at-most-one-occurrence chain. After burn-in, the lowest lane
//!   holding exactly one occurrence is the word page (lanes being independent, it is uniform
//!   over one-occurrence grids); lanes holding none are uniform occurrence-free pages and
//!   are kept. If no lane holds the word, the chain runs another spacing and is read again;
//! - stream 2: 64 lanes of the occurrence-free chain for the remaining pages, one per lane
//!   after burn-in and after every further spacing.

use super::chain::{mixing_budget, WordChain};
use super::page::{occurrences, Occurrence, WordPage};
use super::spec::{Plan, SpecError, WordSpec};
use crate::puzzles::foxbook::{lowest, Direction, Meter};
use crate::puzzles::monitor::{Cancelled, Monitor};
use crate::puzzles::rng::Rng;

const STREAM_BOOK: u64 = 0;
const STREAM_WORD: u64 = 1;
const STREAM_FREE: u64 = 2;

/// Where the one occurrence of the word is. All numbers are 1-based: `row` and `col` are
/// those of the word's first letter, `direction` is the reading direction, and `cells` lists
/// `[row, col]` of each letter in reading order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(as = Answer)]
pub struct WordAnswer {
    /// The word (answers stored before books had other words are FOX's).
    #[serde(default = "fox")]
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    pub word: String,
    /// The page holding the word.
    #[schema(minimum = 1)]
    pub page: u32,
    /// Row of the first letter.
    #[schema(minimum = 1)]
    pub row: u32,
    /// Column of the first letter.
    #[schema(minimum = 1)]
    pub col: u32,
    pub direction: Direction,
    /// `[row, col]` of each letter of the word, in reading order.
    #[schema(value_type = Vec<Vec<u32>>, min_items = 2, max_items = 8)]
    pub cells: Vec<[u32; 2]>,
}

fn fox() -> String {
    "FOX".into()
}

impl WordAnswer {
    /// The answer for occurrence `found` on page `page_index` (0-based).
    pub fn new(word: &[u8], page_index: usize, found: &Occurrence) -> WordAnswer {
        let cells: Vec<[u32; 2]> = found.cells.iter().map(|&(r, c)| [r as u32 + 1, c as u32 + 1]).collect();
        WordAnswer {
            word: String::from_utf8(word.to_vec()).expect("ASCII"),
            page: page_index as u32 + 1,
            row: cells[0][0],
            col: cells[0][1],
            direction: found.direction,
            cells,
        }
    }

    /// The cells, 0-based (row, col), in reading order.
    pub fn cells0(&self) -> Vec<(usize, usize)> {
        self.cells.iter().map(|&[r, c]| (r as usize - 1, c as usize - 1)).collect()
    }
}

/// A word book: exactly one occurrence of the word in all its pages, where `answer` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordBook {
    pub plan: Plan,
    pub pages: Vec<WordPage>,
    pub answer: WordAnswer,
}

impl WordBook {
    /// Pages as text: each row a line (a space where the shape has no cell), pages separated
    /// by an empty line.
    pub fn text(&self) -> String {
        self.pages.iter().map(|p| p.rows_text().join("\n") + "\n").collect::<Vec<_>>().join("\n")
    }

    /// Checks the book against its plan: every page in the shape and alphabet, exactly one
    /// occurrence in the book, on the answer's page and cells.
    pub fn verify(&self) -> Result<(), String> {
        let plan = &self.plan;
        if self.pages.len() != plan.pages {
            return Err(format!("{} pages, expected {}", self.pages.len(), plan.pages));
        }
        for (i, page) in self.pages.iter().enumerate() {
            if !page.fits(&plan.mask, &plan.letters) {
                return Err(format!("page {} leaves the shape or the alphabet", i + 1));
            }
            let found = occurrences(page, &plan.word);
            let expect = usize::from(i + 1 == self.answer.page as usize);
            if found.len() != expect {
                return Err(format!("page {} holds the word {} times, expected {expect}", i + 1, found.len()));
            }
            if expect == 1 && WordAnswer::new(&plan.word, i, &found[0]) != self.answer {
                return Err(format!("the answer {:?} is not the occurrence {:?}", self.answer, found[0]));
            }
        }
        Ok(())
    }
}

/// Samples a book for `spec` from a 32-byte `seed`. Progress is reported in pages.
pub fn generate(spec: &WordSpec, seed: [u8; 32], progress: &mut dyn Monitor) -> Result<WordBook, GenerateError> {
    let plan = spec.validate()?;
    Ok(generate_plan(&plan, seed, progress)?)
}

/// Why no book was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("cancelled")]
    Cancelled(#[from] Cancelled),
}

/// [`generate`] for an already validated plan.
pub fn generate_plan(plan: &Plan, seed: [u8; 32], progress: &mut dyn Monitor) -> Result<WordBook, Cancelled> {
    let pages = plan.pages;
    let word_index = Rng::stream(seed, STREAM_BOOK).index(pages);
    let (burn_in, spacing) = mixing_budget(plan);
    let mut meter = Meter::new(progress, pages, plan.mask.count(), burn_in, spacing);

    let mut chain = WordChain::at_most_one(plan, weight_log2(plan), Rng::stream(seed, STREAM_WORD));
    let mut others: Vec<WordPage> = Vec::with_capacity(pages - 1);
    let mut sweeps = burn_in;
    let word_page = loop {
        meter.sweeps(sweeps, || chain.sweep())?;
        let want = pages - 1 - others.len();
        others.extend(chain.grid.extract(lowest(!chain.has, want)));
        if chain.has != 0 {
            let lane = chain.has & chain.has.wrapping_neg();
            break chain.grid.extract(lane).pop().expect("one lane requested");
        }
        sweeps = spacing;
    };
    meter.replan(others.len());

    if others.len() < pages - 1 {
        let mut free = WordChain::free(plan, Rng::stream(seed, STREAM_FREE));
        let mut sweeps = burn_in;
        while others.len() < pages - 1 {
            meter.sweeps(sweeps, || free.sweep())?;
            others.extend(free.grid.extract(lowest(!0, pages - 1 - others.len())));
            sweeps = spacing;
        }
    }

    let mut all = others;
    all.insert(word_index, word_page);
    let found = occurrences(&all[word_index], &plan.word);
    assert_eq!(found.len(), 1, "internal error: the word chain lost its invariant");
    let answer = WordAnswer::new(&plan.word, word_index, &found[0]);
    meter.finish();
    Ok(WordBook { plan: plan.clone(), pages: all, answer })
}

/// w for the weight λ = 2^w of one-occurrence grids, chosen so that about half of the λ
/// chain's lanes hold the word: the power of two nearest to Z0 / Z1 (occurrence-free grids
/// per one-occurrence grid).
///
/// Z1 / Z0 is estimated as 0.7 times the expected number of occurrences on a uniform grid,
/// placements x orientations / K^len (for FOX on 32 x 20 this gives 2^-7, the FOX engine's
/// measured choice). Integer arithmetic keeps it exact on every machine.
///
/// Where the word is rare (long words, many letters) that would make λ large, and then the
/// chain keeps its occurrence for about λ / (len x share of non-null proposals) sweeps: the
/// "holds the word" indicator's autocorrelation time (measured 720 sweeps for ELEPHANT on
/// 8 letters at λ = 2^13). So λ is capped at 2^[`MAX_WEIGHT_LOG2`], which bounds that time
/// by 16 / (2 x 1/2) = 16 sweeps; fewer lanes then hold the word, and the chain is read
/// again after another spacing until one does.
pub fn weight_log2(plan: &Plan) -> i32 {
    estimated_weight_log2(plan).min(MAX_WEIGHT_LOG2)
}

/// The largest λ = 2^w used (see [`weight_log2`]).
pub const MAX_WEIGHT_LOG2: i32 = 4;

fn estimated_weight_log2(plan: &Plan) -> i32 {
    let orientations = if plan.is_palindrome() { 1 } else { 2 };
    let num = plan.placements() as u128 * orientations * 7;
    let den = 10 * (plan.letters.len() as u128).pow(plan.word.len() as u32);
    // Smallest k with (big / small) <= 2^(k + 1/2), i.e. big² <= 2^(2k + 1) small².
    let (big, small, sign) = if num >= den { (num, den, -1) } else { (den, num, 1) };
    let mut k = 0;
    while big * big > (small * small) << (2 * k + 1) {
        k += 1;
    }
    sign * k
}
