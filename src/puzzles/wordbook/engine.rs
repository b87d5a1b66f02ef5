//! The one entry point for printing any book: a plan of FOX on the letters F, O, X on full
//! rectangular pages goes to the original FOX sampler ([`crate::puzzles::foxbook`]), so a
//! book ordered without word options is byte for byte the book printed before they
//! existed; every other plan goes to the word sampler. Either way the caller gets a
//! [`WordBook`] and the stored form the engine keeps it in.

use super::generate::{generate_plan, WordAnswer, WordBook};
use super::page::WordPage;
use super::spec::{Plan, SpecError, WordSpec};
use super::store::{unpack_pages, word_book_seed, UnpackError, WORD_GENERATOR_VERSION};
use crate::puzzles::foxbook::{self, Book, BookSpec, Direction};
use crate::puzzles::monitor::{Cancelled, Monitor};

impl Plan {
    /// The FOX sampler's spec when this plan is FOX on F, O, X (in any order) on every cell
    /// of a rectangle; `None` for a plan the word sampler prints.
    pub fn fox_spec(&self) -> Option<BookSpec> {
        let mut letters = self.letters.clone();
        letters.sort_unstable();
        (self.word == b"FOX" && letters == b"FOX" && self.mask.cells.iter().all(|&c| c)).then(|| self.size())
    }

    /// The pages and page size, as the FOX sampler's spec.
    pub fn size(&self) -> BookSpec {
        BookSpec { pages: self.pages as u32, rows: self.mask.rows as u32, cols: self.mask.cols as u32 }
    }

    /// The version of the generator that prints this plan's books.
    pub fn generator_version(&self) -> u32 {
        if self.fox_spec().is_some() {
            foxbook::GENERATOR_VERSION
        } else {
            WORD_GENERATOR_VERSION
        }
    }
}

impl WordSpec {
    /// The pages and page size alone, as the FOX sampler's spec.
    pub fn size(&self) -> BookSpec {
        BookSpec { pages: self.pages, rows: self.rows, cols: self.cols }
    }

    /// Checks the spec, its size against `limits` first (so the error names pages, rows or
    /// cols as a FOX book's would).
    pub fn validate_within(&self, limits: &foxbook::Limits) -> Result<Plan, SpecError> {
        self.size().validate_within(limits).map_err(|foxbook::SpecError::OutOfRange { field, value, min, max }| {
            SpecError { field, detail: format!("must be between {min} and {max} (got {value})") }
        })?;
        self.validate()
    }
}

/// A sampled book with the form it is stored in.
#[derive(Clone, Debug)]
pub struct Printed {
    pub book: WordBook,
    /// The pages packed as the engine packs them (see [`unpack`]).
    pub packed: Vec<u8>,
}

/// The book for `serial` under `secret`: the same inputs always give the same book,
/// whether the server prints it or the offline CLI does.
pub fn book_for(secret: &[u8], serial: &str, plan: &Plan, monitor: &mut dyn Monitor) -> Result<Printed, Cancelled> {
    if let Some(spec) = plan.fox_spec() {
        let book = foxbook::generate(spec, foxbook::book_seed(secret, serial, spec), monitor)?;
        let packed = book.pack();
        return Ok(Printed { book: WordBook::from_fox(plan, &book), packed });
    }
    let book = generate_plan(plan, word_book_seed(secret, serial, plan), monitor)?;
    Ok(Printed { packed: book.pack(), book })
}

/// The book for `serial` under `secret` as generator `version` printed it (a book stores the
/// [`Plan::generator_version`] it was printed with): how an earlier version's book is made
/// again. FOX books have versions 1 and 2, word books version 1.
pub fn book_for_version(
    secret: &[u8],
    serial: &str,
    plan: &Plan,
    version: u32,
    monitor: &mut dyn Monitor,
) -> Result<Printed, foxbook::BookError> {
    if let Some(spec) = plan.fox_spec() {
        let seed = foxbook::book_seed_version(secret, serial, spec, version);
        let book = foxbook::generate_version(spec, seed, version, monitor)?;
        let packed = book.pack();
        return Ok(Printed { book: WordBook::from_fox(plan, &book), packed });
    }
    if version != WORD_GENERATOR_VERSION {
        return Err(foxbook::BookError::Version(version));
    }
    Ok(book_for(secret, serial, plan, monitor)?)
}

/// A stored book back from its packed pages and answer; checks the bytes and that the
/// answer's cells read the word.
pub fn unpack(plan: &Plan, packed: &[u8], answer: WordAnswer) -> Result<WordBook, UnpackError> {
    let book = match plan.fox_spec() {
        Some(spec) => {
            let fox = Book::unpack(spec, packed, fox_answer(&answer)?).map_err(|e| UnpackError::Fox(e.to_string()))?;
            WordBook::from_fox(plan, &fox)
        }
        None => WordBook { pages: unpack_pages(plan, packed)?, plan: plan.clone(), answer },
    };
    check_answer(&book)?;
    Ok(book)
}

/// Page `index` (0-based) of a stored book, without unpacking the others.
pub fn unpack_page(plan: &Plan, packed: &[u8], index: usize) -> Result<WordPage, UnpackError> {
    match plan.fox_spec() {
        Some(spec) => {
            let page = Book::unpack_page(spec, packed, index).map_err(|e| UnpackError::Fox(e.to_string()))?;
            Ok(fox_page(&page))
        }
        None => super::store::unpack_page(plan, packed, index),
    }
}

/// The answer's cells are on its page and read its word there.
fn check_answer(book: &WordBook) -> Result<(), UnpackError> {
    let a = &book.answer;
    let page = (a.page as usize).checked_sub(1).and_then(|i| book.pages.get(i));
    let reads = page.is_some_and(|page| {
        a.word.as_bytes() == book.plan.word
            && a.cells.len() == a.word.len()
            && a.cells
                .iter()
                .zip(&book.plan.word)
                .all(|(&[r, c], &w)| page.letter(r as isize - 1, c as isize - 1) == Some(w) && r >= 1 && c >= 1)
            && a.cells.first() == Some(&[a.row, a.col])
    });
    if reads {
        Ok(())
    } else {
        Err(UnpackError::Answer(format!("{a:?} does not point at the word")))
    }
}

/// A FOX book's answer in the FOX engine's form.
fn fox_answer(a: &WordAnswer) -> Result<foxbook::Answer, UnpackError> {
    let cells: [[u32; 2]; 3] =
        a.cells.clone().try_into().map_err(|_| UnpackError::Answer(format!("{a:?} is not FOX's three cells")))?;
    Ok(foxbook::Answer { page: a.page, row: a.row, col: a.col, direction: a.direction, cells })
}

fn fox_page(page: &foxbook::Page) -> WordPage {
    WordPage::from_cells(page.rows(), page.cols(), page.ascii()).expect("a FOX page's letters are capitals")
}

impl WordBook {
    /// A FOX engine's book as a word book of `plan`.
    fn from_fox(plan: &Plan, book: &Book) -> WordBook {
        let a = &book.answer;
        WordBook {
            plan: plan.clone(),
            pages: book.pages.iter().map(fox_page).collect(),
            answer: WordAnswer {
                word: "FOX".into(),
                page: a.page,
                row: a.row,
                col: a.col,
                direction: a.direction,
                cells: a.cells.to_vec(),
            },
        }
    }
}

/// How the direction reads in words ("from left to right").
pub fn direction_words(d: Direction) -> &'static str {
    match d {
        Direction::Right => "from left to right",
        Direction::Left => "from right to left",
        Direction::Down => "downwards",
        Direction::Up => "upwards",
        Direction::DownRight => "diagonally down and to the right",
        Direction::DownLeft => "diagonally down and to the left",
        Direction::UpRight => "diagonally up and to the right",
        Direction::UpLeft => "diagonally up and to the left",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::wordbook::Shape;

    #[test]
    fn fox_on_its_letters_and_a_rectangle_is_the_fox_engines_book() {
        let spec = BookSpec { pages: 12, rows: 6, cols: 7 };
        let fox = foxbook::book_for(b"s", "0000000000A", spec, &mut Unmonitored).unwrap();
        for letters in [None, Some("FOX"), Some("XOF")] {
            let plan =
                WordSpec { letters: letters.map(Into::into), pages: 12, rows: 6, cols: 7, ..WordSpec::default() }
                    .validate()
                    .unwrap();
            assert_eq!(plan.fox_spec(), Some(spec));
            let printed = book_for(b"s", "0000000000A", &plan, &mut Unmonitored).unwrap();
            assert_eq!(printed.packed, fox.pack());
            assert_eq!(printed.book.text(), fox.text());
            assert_eq!(printed.book.content_hash_hex(), fox.content_hash_hex());
            assert_eq!((printed.book.answer.page, printed.book.answer.cells.len()), (fox.answer.page, 3));
            printed.book.verify().unwrap();
            let back = unpack(&plan, &printed.packed, printed.book.answer.clone()).unwrap();
            assert_eq!(back, printed.book);
            let page = unpack_page(&plan, &printed.packed, 4).unwrap();
            assert_eq!(page, printed.book.pages[4]);
        }
        // The current version's book, and version 1's made again as it was printed.
        let plan = WordSpec { pages: 12, rows: 6, cols: 7, ..WordSpec::default() }.validate().unwrap();
        assert_eq!(plan.generator_version(), foxbook::GENERATOR_VERSION);
        let now = book_for_version(b"s", "0000000000A", &plan, foxbook::GENERATOR_VERSION, &mut Unmonitored).unwrap();
        assert_eq!(now.packed, fox.pack());
        let v1 = book_for_version(b"s", "0000000000A", &plan, 1, &mut Unmonitored).unwrap();
        let v1_fox = foxbook::book_for_version(b"s", "0000000000A", spec, 1, &mut Unmonitored).unwrap();
        assert_eq!(v1.packed, v1_fox.pack());
        assert_ne!(v1.packed, now.packed);
        v1.book.verify().unwrap();
        assert!(matches!(
            book_for_version(b"s", "0000000000A", &plan, 9, &mut Unmonitored),
            Err(foxbook::BookError::Version(9))
        ));
        // An extra letter, another word or a shape: the word engine.
        for spec in [
            WordSpec { letters: Some("FOXZ".into()), ..WordSpec::default() },
            WordSpec { word: "CAT".into(), ..WordSpec::default() },
            WordSpec { shape: Shape::Heart, ..WordSpec::default() },
        ] {
            let plan = spec.validate().unwrap();
            assert_eq!(plan.fox_spec(), None);
            assert_eq!(plan.generator_version(), WORD_GENERATOR_VERSION);
        }
    }

    #[test]
    fn word_books_round_trip_and_bad_answers_are_caught() {
        let spec =
            WordSpec { word: "OWL".into(), shape: Shape::Circle, pages: 9, rows: 10, cols: 12, ..WordSpec::default() };
        let plan = spec.validate().unwrap();
        let printed = book_for(b"s", "0000000000A", &plan, &mut Unmonitored).unwrap();
        printed.book.verify().unwrap();
        assert_eq!(printed.book.answer.word, "OWL");
        let back = unpack(&plan, &printed.packed, printed.book.answer.clone()).unwrap();
        assert_eq!(back, printed.book);
        for i in 0..9 {
            assert_eq!(unpack_page(&plan, &printed.packed, i).unwrap(), printed.book.pages[i]);
        }
        assert!(unpack_page(&plan, &printed.packed, 9).is_err());
        let mut wrong = printed.book.answer.clone();
        wrong.page = wrong.page % 9 + 1;
        assert!(matches!(unpack(&plan, &printed.packed, wrong), Err(UnpackError::Answer(_))));
        let mut wrong = printed.book.answer.clone();
        wrong.cells[0] = [0, 0];
        assert!(matches!(unpack(&plan, &printed.packed, wrong), Err(UnpackError::Answer(_))));
        // Same inputs, same book; another serial, another book.
        let again = book_for(b"s", "0000000000A", &plan, &mut Unmonitored).unwrap();
        assert_eq!(again.packed, printed.packed);
        let other = book_for(b"s", "0000000001B", &plan, &mut Unmonitored).unwrap();
        assert_ne!(other.packed, printed.packed);
    }
}
