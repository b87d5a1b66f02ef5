//! What the service keeps of a word book: the seed it is drawn from, and its pages packed
//! one nibble a cell (the letter's index in the plan's alphabet, `0xF` outside the shape),
//! two cells a byte, pages one after another; unpacking checks everything against the plan.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::generate::WordBook;
use super::page::{WordPage, NO_CELL};
use super::spec::Plan;

/// Version of the word-book generator: part of every seed, so a change of the sampler
/// that alters books must bump it (books already sold keep their version's pages).
pub const WORD_GENERATOR_VERSION: u32 = 1;

/// Domain separator: never the FOX books' seeds, nor any other use of the secret.
const DOMAIN: &[u8] = b"puzzlepress/wordbook/book-seed/v1\0";

/// A nibble outside the shape.
const NO_CELL_NIBBLE: u8 = 0xF;

/// HMAC-SHA256 under `secret` of an unambiguous encoding of (generator version, serial,
/// word, alphabet, shape, pages): each variable-length part is preceded by its length as
/// u64 LE; the shape as rows, cols (u32 LE) and one byte a cell.
pub fn word_book_seed(secret: &[u8], serial: &str, plan: &Plan) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(DOMAIN);
    mac.update(&WORD_GENERATOR_VERSION.to_le_bytes());
    for part in [serial.as_bytes(), &plan.word, &plan.letters] {
        mac.update(&(part.len() as u64).to_le_bytes());
        mac.update(part);
    }
    mac.update(&(plan.mask.rows as u32).to_le_bytes());
    mac.update(&(plan.mask.cols as u32).to_le_bytes());
    let cells: Vec<u8> = plan.mask.cells.iter().map(|&c| u8::from(c)).collect();
    mac.update(&cells);
    mac.update(&(plan.pages as u32).to_le_bytes());
    mac.finalize().into_bytes().into()
}

/// Why stored pages do not make a book of this plan.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UnpackError {
    #[error("{got} bytes stored, expected {expected}")]
    Length { got: usize, expected: usize },
    #[error("page {page}: a cell outside the shape or the alphabet")]
    Cell { page: usize },
    #[error("no page {page}")]
    Page { page: usize },
    #[error("FOX book: {0}")]
    Fox(String),
    #[error("answer: {0}")]
    Answer(String),
}

fn packed_len(plan: &Plan) -> usize {
    (plan.pages * plan.mask.rows * plan.mask.cols).div_ceil(2)
}

impl WordBook {
    /// The pages packed one nibble a cell (see the module docs).
    pub fn pack(&self) -> Vec<u8> {
        let nibble = |b: u8| {
            if b == NO_CELL {
                NO_CELL_NIBBLE
            } else {
                self.plan.letters.iter().position(|&l| l == b).expect("a page's letters are the plan's") as u8
            }
        };
        let mut out = Vec::with_capacity(packed_len(&self.plan));
        let mut cells = self.pages.iter().flat_map(|p| p.cells().iter().copied().map(nibble));
        while let Some(lo) = cells.next() {
            out.push(lo | (cells.next().unwrap_or(0) << 4));
        }
        out
    }

    /// SHA-256 of [`WordBook::text`], as for FOX books: equal books, equal hashes.
    pub fn content_hash_hex(&self) -> String {
        Sha256::digest(self.text().as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The pages of a book of `plan` from [`WordBook::pack`]'s bytes, each checked against the
/// plan's shape and alphabet.
pub fn unpack_pages(plan: &Plan, bytes: &[u8]) -> Result<Vec<WordPage>, UnpackError> {
    let expected = packed_len(plan);
    if bytes.len() != expected {
        return Err(UnpackError::Length { got: bytes.len(), expected });
    }
    (0..plan.pages).map(|p| page_of(plan, bytes, p)).collect()
}

/// Page `index` (0-based) of [`WordBook::pack`]'s bytes, checked as [`unpack_pages`] checks.
pub fn unpack_page(plan: &Plan, bytes: &[u8], index: usize) -> Result<WordPage, UnpackError> {
    let expected = packed_len(plan);
    if bytes.len() != expected {
        return Err(UnpackError::Length { got: bytes.len(), expected });
    }
    if index >= plan.pages {
        return Err(UnpackError::Page { page: index + 1 });
    }
    page_of(plan, bytes, index)
}

/// Page `p` of bytes of the right length.
fn page_of(plan: &Plan, bytes: &[u8], p: usize) -> Result<WordPage, UnpackError> {
    let per_page = plan.mask.rows * plan.mask.cols;
    let nibble = |i: usize| (bytes[i / 2] >> (4 * (i % 2))) & 0xF;
    let cells: Vec<u8> = (0..per_page)
        .map(|i| match nibble(p * per_page + i) {
            NO_CELL_NIBBLE => NO_CELL,
            n => plan.letters.get(n as usize).copied().unwrap_or(0),
        })
        .collect();
    WordPage::from_cells(plan.mask.rows, plan.mask.cols, cells)
        .filter(|page| page.fits(&plan.mask, &plan.letters))
        .ok_or(UnpackError::Cell { page: p + 1 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::wordbook::{generate, Shape, WordSpec};

    fn spec() -> WordSpec {
        WordSpec { word: "CAT".into(), shape: Shape::Heart, pages: 3, rows: 9, cols: 11, ..WordSpec::default() }
    }

    #[test]
    fn packed_pages_unpack_to_the_same_book_and_nothing_else() {
        let book = generate(&spec(), [3; 32], &mut Unmonitored).unwrap();
        let bytes = book.pack();
        assert_eq!(bytes.len(), (3 * 9 * 11usize).div_ceil(2));
        assert_eq!(unpack_pages(&book.plan, &bytes).unwrap(), book.pages);
        assert_eq!(
            unpack_pages(&book.plan, &bytes[1..]),
            Err(UnpackError::Length { got: bytes.len() - 1, expected: bytes.len() })
        );
        // A letter index past the alphabet, or a letter where the shape has none.
        let mut bad = bytes.clone();
        let first_cell = book.plan.mask.cells.iter().position(|&c| c).unwrap();
        bad[first_cell / 2] |= 0x7 << (4 * (first_cell % 2));
        assert_eq!(unpack_pages(&book.plan, &bad), Err(UnpackError::Cell { page: 1 }));
        let mut bad = bytes;
        let hole = book.plan.mask.cells.iter().position(|&c| !c).unwrap();
        bad[hole / 2] &= !(0xF << (4 * (hole % 2)));
        assert_eq!(unpack_pages(&book.plan, &bad), Err(UnpackError::Cell { page: 1 }));
    }

    #[test]
    fn the_seed_depends_on_every_input() {
        let plan = spec().validate().unwrap();
        let base = word_book_seed(b"k", "ABC", &plan);
        assert_eq!(base, word_book_seed(b"k", "ABC", &plan));
        assert_ne!(base, word_book_seed(b"k2", "ABC", &plan));
        assert_ne!(base, word_book_seed(b"k", "ABD", &plan));
        let other = |s: WordSpec| word_book_seed(b"k", "ABC", &s.validate().unwrap());
        assert_ne!(base, other(WordSpec { word: "ACT".into(), ..spec() }));
        assert_ne!(base, other(WordSpec { letters: Some("CATS".into()), ..spec() }));
        assert_ne!(base, other(WordSpec { shape: Shape::Circle, ..spec() }));
        assert_ne!(base, other(WordSpec { pages: 4, ..spec() }));
        assert_ne!(base, other(WordSpec { cols: 12, ..spec() }));
        // Never a FOX book's seed for the same serial.
        let fox = crate::puzzles::foxbook::book_seed(b"k", "ABC", crate::puzzles::foxbook::BookSpec::default());
        assert_ne!(word_book_seed(b"k", "ABC", &WordSpec::default().validate().unwrap()), fox);
    }

    #[test]
    fn equal_books_have_equal_hashes() {
        let a = generate(&spec(), [5; 32], &mut Unmonitored).unwrap();
        let b = generate(&spec(), [5; 32], &mut Unmonitored).unwrap();
        let c = generate(&spec(), [6; 32], &mut Unmonitored).unwrap();
        assert_eq!(a.content_hash_hex(), b.content_hash_hex());
        assert_ne!(a.content_hash_hex(), c.content_hash_hex());
    }
}
