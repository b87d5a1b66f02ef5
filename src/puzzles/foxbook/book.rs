//! A generated book: its pages, where the fox is, and its storage forms.

use super::page::{Letter, Page};
use super::segments::{count_fox, Direction, Segment};
use super::spec::{BookSpec, SpecError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Where the one FOX is, as the engine finds it (the API serves it as a word book's
/// [`WordAnswer`](crate::puzzles::wordbook::WordAnswer)). All numbers are 1-based: `row`/`col`
/// are those of the letter F, `direction` points from F towards X, and `cells` lists
/// `[row, col]` of F, O and X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Answer {
    pub page: u32,
    pub row: u32,
    pub col: u32,
    pub direction: Direction,
    pub cells: [[u32; 2]; 3],
}

impl Answer {
    /// The answer for FOX segment `seg` on page `page_index` (0-based).
    pub fn new(page_index: usize, seg: &Segment) -> Answer {
        let cells = seg.cells.map(|(r, c)| [r as u32 + 1, c as u32 + 1]);
        Answer { page: page_index as u32 + 1, row: cells[0][0], col: cells[0][1], direction: seg.direction, cells }
    }

    /// The three cells, 0-based (row, col), in the order F, O, X.
    pub fn cells0(&self) -> [(usize, usize); 3] {
        self.cells.map(|[r, c]| (r as usize - 1, c as usize - 1))
    }
}

/// A book: `spec.pages` pages, exactly one FOX in all of them, on the page `answer` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub spec: BookSpec,
    pub pages: Vec<Page>,
    pub answer: Answer,
}

impl Book {
    /// The plain-text form: every row of a page is a line of `F`, `O` and `X` ending in `\n`,
    /// and pages are separated by one empty line (so the text ends in a single `\n`).
    pub fn text(&self) -> String {
        let per_page = self.spec.rows as usize * (self.spec.cols as usize + 1) + 1;
        let mut out = Vec::with_capacity(self.pages.len() * per_page);
        for (i, page) in self.pages.iter().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            page.write_text(&mut out);
        }
        String::from_utf8(out).expect("letters are ASCII")
    }

    /// SHA-256 of [`Book::text`]: identifies the content independently of its packing.
    pub fn content_hash(&self) -> [u8; 32] {
        Sha256::digest(self.text().as_bytes()).into()
    }

    /// [`Book::content_hash`] in lower-case hexadecimal.
    pub fn content_hash_hex(&self) -> String {
        self.content_hash().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The page that holds the fox.
    pub fn fox_page(&self) -> &Page {
        &self.pages[self.answer.page as usize - 1]
    }

    /// All letters, pages in order and each page row-major, packed in base 3, five letters
    /// per byte (F = 0, O = 1, X = 2; the first letter is the least significant digit). The
    /// last byte is padded with F digits. Length: ceil(pages * rows * cols / 5).
    pub fn pack(&self) -> Vec<u8> {
        let mut digits = Vec::with_capacity(self.spec.cells());
        for page in &self.pages {
            page.push_digits(&mut digits);
        }
        let chunks = digits.chunks_exact(5);
        let last = chunks.remainder();
        let mut out: Vec<u8> = chunks.map(|d| d[0] + 3 * d[1] + 9 * d[2] + 27 * d[3] + 81 * d[4]).collect();
        if !last.is_empty() {
            out.push(last.iter().rev().fold(0, |acc, &d| 3 * acc + d));
        }
        out
    }

    /// Inverse of [`Book::pack`]. Checks the spec, the length, every byte and the padding,
    /// and that `answer` points at cells reading F, O, X (it does not rescan the pages; see
    /// [`Book::verify`]).
    pub fn unpack(spec: BookSpec, bytes: &[u8], answer: Answer) -> Result<Book, UnpackError> {
        spec.validate()?;
        let total = spec.cells();
        let expected = total.div_ceil(5);
        if bytes.len() != expected {
            return Err(UnpackError::Length { expected, found: bytes.len() });
        }
        let mut letters = Vec::with_capacity(expected * 5);
        for (offset, &b) in bytes.iter().enumerate() {
            if b >= 243 {
                return Err(UnpackError::Byte { offset, value: b });
            }
            let mut v = b;
            for _ in 0..5 {
                letters.push(v % 3);
                v /= 3;
            }
        }
        if letters[total..].iter().any(|&d| d != 0) {
            return Err(UnpackError::Padding);
        }
        let (rows, cols) = (spec.rows as usize, spec.cols as usize);
        let per_page = rows * cols;
        let pages = letters[..total]
            .chunks(per_page)
            .map(|chunk| {
                let ls: Vec<Letter> = chunk.iter().map(|&d| Letter::from_digit(d).unwrap()).collect();
                Page::from_letters(rows, cols, &ls).expect("dimensions were validated")
            })
            .collect();
        let book = Book { spec, pages, answer };
        book.check_answer().map_err(UnpackError::Answer)?;
        Ok(book)
    }

    /// Page `index` (0-based) of packed letters, without unpacking the rest: what serving one
    /// page of a large book costs. Checks the length and the bytes it reads.
    pub fn unpack_page(spec: BookSpec, bytes: &[u8], index: usize) -> Result<Page, UnpackError> {
        spec.validate()?;
        let expected = spec.cells().div_ceil(5);
        if bytes.len() != expected || index >= spec.pages as usize {
            return Err(UnpackError::Length { expected, found: bytes.len() });
        }
        let (rows, cols) = (spec.rows as usize, spec.cols as usize);
        let first = index * rows * cols;
        let mut letters = Vec::with_capacity(rows * cols);
        for cell in first..first + rows * cols {
            let (offset, place) = (cell / 5, cell % 5);
            let b = bytes[offset];
            if b >= 243 {
                return Err(UnpackError::Byte { offset, value: b });
            }
            let digit = (b / [1, 3, 9, 27, 81][place]) % 3;
            letters.push(Letter::from_digit(digit).expect("a base-3 digit"));
        }
        Ok(Page::from_letters(rows, cols, &letters).expect("dimensions were validated"))
    }

    /// Checks that the answer is in range, consistent, and reads F, O, X.
    fn check_answer(&self) -> Result<(), String> {
        let a = &self.answer;
        if a.page == 0 || a.page > self.spec.pages {
            return Err(format!("page {} is not in 1..={}", a.page, self.spec.pages));
        }
        for [r, c] in a.cells {
            if r == 0 || r > self.spec.rows || c == 0 || c > self.spec.cols {
                return Err(format!("cell [{r}, {c}] is outside the page"));
            }
        }
        let (dr, dc) = a.direction.step();
        let consistent = [a.row, a.col] == a.cells[0]
            && (0..3).all(|k| {
                let [r, c] = a.cells[k];
                r as isize == a.row as isize + k as isize * dr && c as isize == a.col as isize + k as isize * dc
            });
        if !consistent {
            return Err("row, col, direction and cells disagree".into());
        }
        let page = self.fox_page();
        let read: String = a.cells0().iter().map(|&(r, c)| page.letter(r, c).as_char()).collect();
        if read != "FOX" {
            return Err(format!("the answer cells read {read}, not FOX"));
        }
        Ok(())
    }

    /// Full check of the puzzle: the answer is consistent, its page holds exactly that one
    /// FOX, and every other page holds none.
    pub fn verify(&self) -> Result<(), String> {
        if self.pages.len() != self.spec.pages as usize {
            return Err(format!("{} pages, spec says {}", self.pages.len(), self.spec.pages));
        }
        self.check_answer()?;
        for (i, page) in self.pages.iter().enumerate() {
            let found = count_fox(page);
            let expected = if i + 1 == self.answer.page as usize { 1 } else { 0 };
            if found.len() != expected {
                return Err(format!("page {} holds {} FOX, expected {expected}", i + 1, found.len()));
            }
            if let Some(seg) = found.first() {
                if Answer::new(i, seg) != self.answer {
                    return Err(format!("the FOX on page {} is not where the answer says", i + 1));
                }
            }
        }
        Ok(())
    }
}

/// Why packed bytes could not be turned back into a book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnpackError {
    #[error("invalid book spec: {0}")]
    Spec(#[from] SpecError),
    #[error("packed book should be {expected} bytes for this spec, found {found}")]
    Length { expected: usize, found: usize },
    #[error("byte {offset} of the packed book is {value}; the largest valid value is 242")]
    Byte { offset: usize, value: u8 },
    #[error("the packed book's last byte has non-zero padding")]
    Padding,
    #[error("the answer does not match the book: {0}")]
    Answer(String),
}
