//! A print run's files: each copy's PDFs as the archive and `puzzlepress printrun` lay them
//! out, and the manifest (the publisher's master answer key).

use sha2::{Digest, Sha256};

use super::cover::{cover, Paper};
use super::foxbook::{answer_pdf, book_pdf, interior_pages, InteriorVersion};
use crate::puzzles::wordbook::{WordAnswer, WordBook};
use crate::render::print::{PrintOptions, Trim};

/// The manifest's columns.
pub const CSV_HEADER: &str = "serial,puzzle_pages,interior_pages,trim,word,page,row,col,direction,interior_sha256\n";

/// One line of a manifest: a printed copy and where its word is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct ManifestLine {
    #[schema(pattern = "^[0-9A-HJKMNP-TV-Z]{11}$")]
    pub serial: String,
    /// Pages of puzzles (the book's `pages`).
    pub puzzle_pages: i64,
    /// Pages of the interior PDF, as a printer counts them: the front matter, the puzzles,
    /// and notes pages to an even count of at least 24.
    pub interior_pages: i64,
    /// The trim size the interior is printed at.
    pub trim: String,
    /// The word hidden in the copy.
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    pub word: String,
    /// The word's page (the puzzle's number, which heads its page in the book frame), and
    /// the row and column of its first letter (1-based).
    pub page: u32,
    pub row: u32,
    pub col: u32,
    /// The reading direction (`right`, `down-left`, …).
    pub direction: String,
    /// SHA-256 (hex) of the copy's interior PDF (`/books/{serial}/book.pdf`).
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub interior_sha256: String,
}

impl ManifestLine {
    pub fn new(
        serial: &str,
        puzzle_pages: i64,
        trim: Trim,
        answer: &WordAnswer,
        version: InteriorVersion,
        interior_sha256: String,
    ) -> ManifestLine {
        let direction = serde_json::to_value(answer.direction)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        ManifestLine {
            serial: serial.to_string(),
            puzzle_pages,
            interior_pages: interior_pages(puzzle_pages as u32, version) as i64,
            trim: trim.label(),
            word: answer.word.clone(),
            page: answer.page,
            row: answer.row,
            col: answer.col,
            direction,
            interior_sha256,
        }
    }

    /// The line in the CSV manifest (its fields never hold commas or quotes).
    pub fn csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            self.serial,
            self.puzzle_pages,
            self.interior_pages,
            self.trim,
            self.word,
            self.page,
            self.row,
            self.col,
            self.direction,
            self.interior_sha256
        )
    }
}

/// SHA-256 in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A copy's files, named as in the archive (`SERIAL/interior.pdf`, `SERIAL/cover.pdf`,
/// `SERIAL/answer.pdf`), and its manifest line.
pub fn copy_files(
    book: &WordBook,
    serial: &str,
    opts: &PrintOptions,
    paper: Paper,
    version: InteriorVersion,
) -> (Vec<(String, Vec<u8>)>, ManifestLine) {
    let interior = book_pdf(book, serial, opts, version);
    let line =
        ManifestLine::new(serial, book.pages.len() as i64, opts.trim, &book.answer, version, sha256_hex(&interior));
    let files = vec![
        (format!("{serial}/interior.pdf"), interior),
        (format!("{serial}/cover.pdf"), cover(book, serial, opts, paper, version, None).pdf()),
        (format!("{serial}/answer.pdf"), answer_pdf(book, serial, opts, version)),
    ];
    (files, line)
}
