//! PDFs of a Find the Fox book and of its answer key (US Letter).

use super::pdf::{Canvas, Document, Font, Rgb, Style, US_LETTER};
use crate::puzzles::foxbook::{Book, Direction, Page, Serial};

/// Margins around the grid area, in points.
const SIDE: f32 = 54.0;
const TOP: f32 = 60.0;
const BOTTOM: f32 = 60.0;
const GRID_FONT: Font = Font::TimesRoman;

/// The book: a title page with the serial and instructions, then one grid per page with
/// its page number at the foot.
pub fn book_pdf(book: &Book, serial: &str) -> Vec<u8> {
    let mut doc = Document::new();
    doc.set_title(&format!("Find the Fox {}", printed_serial(serial)));
    title_page(doc.add_page(US_LETTER), book, serial);
    let (w, h) = US_LETTER;
    for (i, page) in book.pages.iter().enumerate() {
        let c = doc.add_page(US_LETTER);
        grid(c, page, (SIDE, BOTTOM, w - 2.0 * SIDE, h - TOP - BOTTOM), &[]);
        c.text_centered(Style::new(Font::TimesRoman, 10.0), w / 2.0, 30.0, &(i + 1).to_string());
    }
    doc.finish()
}

/// The answer key: one page naming the fox's page and position, with that page's grid and
/// the three letters of FOX in red.
pub fn answer_pdf(book: &Book, serial: &str) -> Vec<u8> {
    let mut doc = Document::new();
    doc.set_title(&format!("Find the Fox {} - answer key", printed_serial(serial)));
    let (w, h) = US_LETTER;
    let a = &book.answer;
    let c = doc.add_page(US_LETTER);
    c.text_centered(Style::new(Font::TimesBold, 22.0), w / 2.0, h - 52.0, "Find the Fox - Answer Key");
    c.text_centered(
        Style::new(Font::Helvetica, 11.0),
        w / 2.0,
        h - 72.0,
        &format!("Serial {}", printed_serial(serial)),
    );
    let line = format!(
        "The fox is on page {}: the F is in row {}, column {}, and FOX reads {}.",
        a.page,
        a.row,
        a.col,
        direction_words(a.direction)
    );
    c.text_centered(Style::new(Font::TimesRoman, 13.0), w / 2.0, h - 96.0, &line);
    grid(c, book.fox_page(), (SIDE, BOTTOM, w - 2.0 * SIDE, h - 120.0 - BOTTOM), &a.cells0());
    c.text_centered(Style::new(Font::TimesRoman, 10.0), w / 2.0, 30.0, &format!("Page {}", a.page));
    doc.finish()
}

/// The grouped form of a serial that parses, otherwise the text as given.
fn printed_serial(serial: &str) -> String {
    Serial::parse(serial).map(Serial::grouped).unwrap_or_else(|_| serial.to_string())
}

fn direction_words(d: Direction) -> &'static str {
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

fn title_page(c: &mut Canvas, book: &Book, serial: &str) {
    let (w, _) = c.size();
    let mid = w / 2.0;
    c.text_centered(Style::new(Font::TimesBold, 44.0), mid, 600.0, "Find the Fox");
    let lines = [
        "The word FOX appears exactly once in this book.",
        "It may read across, down or diagonally, forwards or backwards.",
        "Every other page is free of foxes. Happy hunting!",
    ];
    for (i, text) in lines.iter().enumerate() {
        c.text_centered(Style::new(Font::TimesRoman, 14.0), mid, 520.0 - 22.0 * i as f32, text);
    }
    let s = book.spec;
    let shape = format!("{} pages of {} x {} letters", s.pages, s.rows, s.cols);
    c.text_centered(Style::new(Font::TimesRoman, 12.0).color(Rgb::GREY), mid, 430.0, &shape);
    c.text_centered(Style::new(Font::Helvetica, 10.0).color(Rgb::GREY), mid, 150.0, "SERIAL NUMBER");
    c.text_centered(Style::new(Font::Helvetica, 16.0), mid, 128.0, &printed_serial(serial));
    c.text_centered(
        Style::new(Font::TimesRoman, 10.0).color(Rgb::GREY),
        mid,
        106.0,
        "Keep it: the answer key is filed under this number.",
    );
}

/// Draws `page` as square cells as large as fit in `area` = (x, y, width, height), centred,
/// one text operation per row; `red` cells (0-based row, col) are drawn in red.
fn grid(c: &mut Canvas, page: &Page, area: (f32, f32, f32, f32), red: &[(usize, usize)]) {
    let (rows, cols) = (page.rows(), page.cols());
    let (ax, ay, aw, ah) = area;
    let pitch = (aw / cols as f32).min(ah / rows as f32);
    let size = (pitch * 0.72).min(30.0);
    let x0 = ax + (aw - pitch * cols as f32) / 2.0;
    let top = ay + (ah + pitch * rows as f32) / 2.0;
    let lift = (pitch - GRID_FONT.cap_height() * size / 1000.0) / 2.0;
    let mut cells: Vec<Option<char>> = Vec::with_capacity(cols);
    for r in 0..rows {
        let y = top - (r + 1) as f32 * pitch + lift;
        cells.clear();
        cells.extend((0..cols).map(|col| (!red.contains(&(r, col))).then(|| page.letter(r, col).as_char())));
        c.cell_row(Style::new(GRID_FONT, size), x0, y, pitch, &cells);
        if red.iter().any(|&(rr, _)| rr == r) {
            cells.clear();
            cells.extend((0..cols).map(|col| red.contains(&(r, col)).then(|| page.letter(r, col).as_char())));
            c.cell_row(Style::new(GRID_FONT, size).color(Rgb::RED), x0, y, pitch, &cells);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::foxbook::{book_seed, generate, BookSpec};
    use crate::puzzles::monitor::Unmonitored;
    use crate::render::pdf::testing::{ops, pages, shown, Shown};
    use lopdf::content::Operation;

    /// A PDF's pages, after checking that their content is deflated.
    fn readable(pdf: &[u8]) -> Vec<Vec<Operation>> {
        assert!(String::from_utf8_lossy(pdf).contains("/FlateDecode"));
        pages(pdf)
    }

    /// All the text a document shows, in drawing order.
    fn all_text(pages: &[Vec<Operation>]) -> Vec<Shown> {
        pages.iter().flat_map(|page| shown(page)).collect()
    }

    fn sample(spec: BookSpec) -> Book {
        generate(spec, book_seed(b"render", "0000000000A", spec), &mut Unmonitored).unwrap()
    }

    #[test]
    fn book_pdf_has_a_page_per_grid_plus_title() {
        let book = sample(BookSpec { pages: 4, rows: 6, cols: 9 });
        let serial = Serial::from_bits(77).to_string();
        let pages = readable(&book_pdf(&book, &serial));
        assert_eq!(pages.len(), 5);
        assert!(all_text(&pages).iter().any(|s| s.text == Serial::from_bits(77).grouped()));
        // Every row is one TJ: 4 pages x 6 rows.
        assert_eq!(pages.iter().map(|page| ops(page, "TJ").count()).sum::<usize>(), 24);
    }

    #[test]
    fn answer_pdf_marks_three_letters_red() {
        let book = sample(BookSpec { pages: 3, rows: 8, cols: 8 });
        let pages = readable(&answer_pdf(&book, "not-a-serial"));
        assert_eq!(pages.len(), 1);
        let text = all_text(&pages);
        assert!(text.iter().any(|s| s.text.contains("not-a-serial")));
        assert!(text.iter().any(|s| s.text.starts_with(&format!("The fox is on page {}", book.answer.page))));
        // The red text is F, O and X, all in grid rows, and nothing else.
        let red: Vec<&Shown> = text.iter().filter(|s| s.color == Rgb::RED).collect();
        let mut letters: Vec<char> = red.iter().flat_map(|s| s.text.chars()).collect();
        letters.sort();
        assert_eq!(letters, ['F', 'O', 'X']);
        assert!(red.iter().all(|s| s.font == GRID_FONT));
    }
}
