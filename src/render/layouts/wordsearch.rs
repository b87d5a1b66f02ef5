//! A print-ready book of word searches, by the fox books' print rules (trim, mirrored
//! margins and gutter by page count, embedded fonts, footers, an even page count of at
//! least 24): a title page with how to play, one puzzle a page with its list under the grid
//! (alphabetical, in columns), then the solutions, several a page, each word looped as the
//! fox answer key loops FOX (black loops and letters over grey filler: it reads in
//! greyscale).
//!
//! Where things go on a page is worked out by [`PuzzlePage::fit`], apart from drawing, so
//! the same rule decides what a request may ask (a large-print grid that does not fit is
//! refused naming what fits) and what is printed.

use super::foxbook::letter_size;
use crate::puzzles::crossword::words::normalise;
use crate::puzzles::wordsearch::{Level, Puzzle};
use crate::render::frame::{Book, Front, HowToPlay, Plan, Run};
use crate::render::page::{Canvas, Document, Font, Paint, Rgb, Style};
use crate::render::pdf::Options;
use crate::render::print::LayoutVersion;
use crate::render::print::{
    fit_size, padded_pages, puzzle_title_page, Area, Layout, PrintOptions, TitleText, Trim, INCH,
};
use crate::render::typeset::prose::Breaking;

const GRID_FONT: Font = Font::Mono;
const WORD_FONT: Font = Font::MonoBold;
/// Filler letters in the solutions: light enough that the looped words stand out in grey.
const FILLER_GREY: Rgb = Rgb(0.62, 0.62, 0.62);

/// Type sizes: regular print, or large print (grid letters at least 18 pt, the list 16).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Print {
    /// Grid letters print at least this size.
    pub min_letter: f32,
    pub list: f32,
    pub heading: f32,
}

impl Print {
    pub const REGULAR: Print = Print { min_letter: 7.0, list: 11.0, heading: 15.0 };
    pub const LARGE: Print = Print { min_letter: 18.0, list: 16.0, heading: 20.0 };

    pub fn new(large: bool) -> Print {
        if large {
            Print::LARGE
        } else {
            Print::REGULAR
        }
    }
}

/// A puzzle as the book prints it: its number, title, level, grid and list.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub title: Option<&'a str>,
    pub level: Level,
    pub puzzle: &'a Puzzle,
}

/// A list word as printed: its letters as the grid holds them, the spaces of the entry
/// kept ("crème brûlée" prints CREME BRULEE; the fonts are ASCII).
pub fn printed_word(word: &str) -> String {
    word.split_whitespace()
        .filter_map(|part| normalise(part).ok().filter(|l| !l.is_empty()))
        .map(|l| String::from_utf8_lossy(&l).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The list in print order: alphabetical by letters.
pub fn printed_list(puzzle: &Puzzle) -> Vec<String> {
    let mut words: Vec<String> = puzzle.words.iter().map(|w| printed_word(&w.word)).collect();
    words.sort_by(|a, b| a.replace(' ', "").cmp(&b.replace(' ', "")).then_with(|| a.cmp(b)));
    words
}

/// Where a puzzle page's parts go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzlePage {
    /// Baseline of the heading.
    pub heading_y: f32,
    /// The grid's top-left corner and cell side.
    pub left: f32,
    pub top: f32,
    pub pitch: f32,
    pub letter: f32,
    /// The list: its columns' left edges start at `list_x`, `list_column` apart; the first
    /// row's baseline at `list_y`, rows `list_leading` apart.
    pub list_x: f32,
    pub list_y: f32,
    pub list_column: f32,
    pub list_columns: usize,
    pub list_leading: f32,
}

/// Why a grid does not fit a page: what does (rows and columns at the same print size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoesNotFit {
    pub max_rows: usize,
    pub max_cols: usize,
}

/// Largest grid cells print at.
const MAX_PITCH: f32 = 36.0;
const LIST_GAP: f32 = 1.2;

impl PuzzlePage {
    /// The page for a `rows` x `cols` grid and `words` (printed) in `area`, or what fits
    /// when the letters would print smaller than `print` allows.
    pub fn fit(area: Area, rows: usize, cols: usize, words: &[String], print: Print) -> Result<PuzzlePage, DoesNotFit> {
        let (page, grid_h) = PuzzlePage::place(area, rows, cols, words, print);
        if page.letter < print.min_letter || grid_h <= 0.0 {
            // The cell side that prints the smallest letters allowed.
            let need = print.min_letter / 0.72;
            return Err(DoesNotFit {
                max_rows: (grid_h / need).floor().max(0.0) as usize,
                max_cols: (area.w / need).floor() as usize,
            });
        }
        Ok(page)
    }

    /// The page as large as `area` allows whatever the letters' size, and the height left
    /// for the grid (what [`PuzzlePage::fit`] checks; a book prints a stored request this
    /// way, checked when it was ordered).
    pub fn place(area: Area, rows: usize, cols: usize, words: &[String], print: Print) -> (PuzzlePage, f32) {
        let heading_h = print.heading * 2.4;
        let leading = print.list * 1.3;
        let gap = print.list * LIST_GAP * 2.0;
        let widest = words.iter().map(|w| Font::Sans.width(w, print.list)).fold(0.0, f32::max);
        let list_columns = (((area.w + gap) / (widest + gap)).floor() as usize).clamp(1, words.len().max(1));
        let list_rows = words.len().div_ceil(list_columns);
        let list_h = list_rows as f32 * leading + print.list;
        let grid_h = area.h - heading_h - list_h - print.list;
        let pitch = (area.w / cols as f32).min(grid_h / rows as f32).clamp(1.0, MAX_PITCH);
        let top = area.top() - heading_h;
        let left = area.x + (area.w - pitch * cols as f32) / 2.0;
        let column = widest + gap;
        let list_w = column * list_columns as f32 - gap;
        let page = PuzzlePage {
            heading_y: area.top() - print.heading,
            left,
            top,
            pitch,
            letter: letter_size(pitch),
            list_x: area.x + (area.w - list_w) / 2.0,
            list_y: top - rows as f32 * pitch - print.list * 2.0,
            list_column: column,
            list_columns,
            list_leading: leading,
        };
        (page, grid_h)
    }
}

/// Solutions a page: six on trims 7 in wide or more, four on smaller ones (two large print).
pub fn solutions_per_page(trim: Trim, print: Print) -> (usize, usize) {
    match (trim.size().0 >= 7.0 * INCH, print == Print::LARGE) {
        (true, false) => (2, 3),
        (true, true) | (false, false) => (2, 2),
        (false, true) => (1, 2),
    }
}

/// Where the parts of a book of `count` puzzles fall in the book frame: how to play, a
/// page a puzzle, the solution pages.
fn framed_plan(count: usize, trim: Trim, print: Print) -> Plan {
    let (c, r) = solutions_per_page(trim, print);
    Plan::new(true, count, count.div_ceil(c * r))
}

/// The interior's page count (a book in the book frame).
pub fn book_pages(count: usize, trim: Trim, print: Print) -> usize {
    framed_plan(count, trim, print).total
}

/// Layout versions 1 and 2 (frozen): the title page, a page a puzzle, the solution pages, padded to an
/// even count of at least 24.
fn unframed_pages(count: usize, trim: Trim, print: Print) -> usize {
    let (c, r) = solutions_per_page(trim, print);
    padded_pages(1 + count + count.div_ceil(c * r))
}

/// The first page of the puzzles in layout versions 1 and 2 (the page after the title
/// page: facing pages from then on).
const FIRST_PUZZLE_PAGE: usize = 2;

/// Checks that every grid fits its page: `Err((index, what fits))` for the first that does
/// not. The layout depends on the page count (the gutter), so the count comes first.
pub fn check_fit(grids: &[(usize, usize, Vec<String>)], trim: Trim, print: Print) -> Result<(), (usize, DoesNotFit)> {
    let plan = framed_plan(grids.len(), trim, print);
    let layout = plan.layout(trim);
    for (i, (rows, cols, words)) in grids.iter().enumerate() {
        let n = plan.first_body + i;
        PuzzlePage::fit(layout.body(n), *rows, *cols, words, print).map_err(|e| (i, e))?;
    }
    Ok(())
}

/// How to play, on the title page.
pub const HOW_TO_PLAY: &str = "Every word of a puzzle's list is hidden in its grid exactly once, in a straight \
     line: across, down or diagonally, forwards or backwards. Words may cross and share letters. Ring each word \
     as you find it and cross it off the list. No word of the list hides a second time, and the letters around \
     the words spell nothing rude.";

/// The book in `layout`; `book_id` traces a loose page to its book in every footer.
pub fn book_pdf(
    entries: &[Entry],
    opts: &PrintOptions,
    large_print: bool,
    book_id: &str,
    layout: LayoutVersion,
) -> Vec<u8> {
    let print = Print::new(large_print);
    match layout {
        LayoutVersion::V1 | LayoutVersion::V2 => unframed_pdf(entries, opts, print, book_id, layout.prose()),
        LayoutVersion::V3 | LayoutVersion::V4 => framed_pdf(entries, opts, print, book_id, layout.prose()),
    }
}

/// The book in the book frame: the rules and levels on the how-to-play page, a puzzle a
/// page, the solutions several a page under the puzzles' headings.
fn framed_pdf(entries: &[Entry], opts: &PrintOptions, print: Print, book_id: &str, prose: Breaking) -> Vec<u8> {
    let (cols, rows) = solutions_per_page(opts.trim, print);
    let per_page = cols * rows;
    let plan = framed_plan(entries.len(), opts.trim, print);
    let text = title_text(entries, plan.first_solution);
    let book = Book {
        front: Front {
            title: &opts.title,
            subtitle: text.count,
            imprint: &opts.imprint,
            notes: vec![format!("Book code {book_id}")],
            how_to_play: Some(HowToPlay { rules: HOW_TO_PLAY, lists: vec![("Levels", text.levels)] }),
            answer_help: None,
        },
        body: Run {
            furniture: None,
            pages: entries.len(),
            draw: Box::new(|c, area, i| puzzle_page(c, area, i + 1, &entries[i], print)),
        },
        solutions: Some(Run {
            furniture: None,
            pages: entries.len().div_ceil(per_page),
            draw: Box::new(|c, area, p| {
                let first = p * per_page;
                let chunk = &entries[first..(first + per_page).min(entries.len())];
                for (k, (entry, cell)) in chunk.iter().zip(area.split(cols, rows)).enumerate() {
                    solution(c, cell, first + k + 1, entry, print);
                }
            }),
        }),
        trace: format!("{} - book {book_id}", opts.title),
        output: Options::default(),
    };
    book.pdf(opts.trim, prose)
}

/// Layout versions 1 and 2 (frozen: books made before the book frame).
fn unframed_pdf(entries: &[Entry], opts: &PrintOptions, print: Print, book_id: &str, prose: Breaking) -> Vec<u8> {
    let trim = opts.trim;
    let total = unframed_pages(entries.len(), trim, print);
    let layout = Layout::new(trim, total);
    let trace = format!("{} - book {book_id}", opts.title);
    let mut doc = Document::new();
    doc.set_title(&trace);
    let first_solutions = FIRST_PUZZLE_PAGE + entries.len();

    let c = doc.add_page(layout.size);
    puzzle_title_page(c, layout.body(1), opts, &title_text(entries, first_solutions), prose);
    layout.footer(c, 1, "", &trace);
    for (i, entry) in entries.iter().enumerate() {
        let n = FIRST_PUZZLE_PAGE + i;
        let c = doc.add_page(layout.size);
        puzzle_page(c, layout.body(n), i + 1, entry, print);
        layout.footer(c, n, &n.to_string(), &trace);
    }
    let (cols, rows) = solutions_per_page(trim, print);
    let mut n = first_solutions - 1;
    for (p, chunk) in entries.chunks(cols * rows).enumerate() {
        n = first_solutions + p;
        let c = doc.add_page(layout.size);
        let mut body = layout.body(n);
        if p == 0 {
            c.text(Style::new(Font::SansBold, print.heading), body.x, body.top() - print.heading, "Solutions");
            body = body.shrink(print.heading * 2.0, 0.0);
        }
        for (k, (entry, cell)) in chunk.iter().zip(body.split(cols, rows)).enumerate() {
            let number = p * cols * rows + k + 1;
            solution(c, cell, number, entry, print);
        }
        layout.footer(c, n, &n.to_string(), &trace);
    }
    for blank in n + 1..=total {
        let c = doc.add_page(layout.size);
        layout.footer(c, blank, &blank.to_string(), &trace);
    }
    doc.finish()
}

fn heading(number: usize, entry: &Entry) -> String {
    match entry.title {
        Some(t) if !t.trim().is_empty() => format!("{number}. {}", t.trim()),
        _ => format!("Puzzle {number}"),
    }
}

fn puzzle_page(c: &mut Canvas, area: Area, number: usize, entry: &Entry, print: Print) {
    let words = printed_list(entry.puzzle);
    let (rows, cols) = (entry.puzzle.rows.len(), entry.puzzle.rows.first().map_or(0, |r| r.len()));
    // Checked when the book was ordered (PuzzlePage::fit).
    let (place, _) = PuzzlePage::place(area, rows, cols, &words, print);
    let title = heading(number, entry);
    let size = fit_size(Font::SansBold, &title, print.heading, area.w * 0.75);
    c.text(Style::new(Font::SansBold, size), area.x, place.heading_y, &title);
    let level = entry.level.title();
    let small = Style::new(Font::Sans, print.list * 0.8).color(Rgb::GREY);
    c.text(small, area.right() - small.font.width(level, small.size), place.heading_y, level);
    let style = Style::new(GRID_FONT, place.letter);
    let baseline = place.top - (place.pitch + GRID_FONT.cap_height() * place.letter / 1000.0) / 2.0;
    c.mono_rows(style, place.left, baseline, place.pitch, entry.puzzle.rows.iter().map(String::as_bytes));
    if entry.puzzle.rows.iter().all(|r| !r.contains(' ')) {
        let (w, h) = (place.pitch * cols as f32, place.pitch * rows as f32);
        let pad = place.pitch * 0.15;
        let border = Paint::Stroke { width: 0.6, color: Rgb::BLACK };
        c.rect(place.left - pad, place.top - h - pad, w + 2.0 * pad, h + 2.0 * pad, border);
    }
    let list = Style::new(Font::Sans, print.list);
    let per_column = words.len().div_ceil(place.list_columns);
    for (i, word) in words.iter().enumerate() {
        let (col, row) = (i / per_column, i % per_column);
        let x = place.list_x + col as f32 * place.list_column;
        c.text(list, x, place.list_y - row as f32 * place.list_leading, word);
    }
}

/// A solution in `cell`: its number, the grid with the filler grey and each word bold,
/// black and looped.
fn solution(c: &mut Canvas, cell: Area, number: usize, entry: &Entry, print: Print) {
    let label = Style::new(Font::SansBold, (print.list * 0.9).min(12.0));
    c.text_centered(label, cell.center_x(), cell.top() - label.size * 1.1, &heading(number, entry));
    let rows: Vec<Vec<u8>> = entry.puzzle.rows.iter().map(|r| r.as_bytes().to_vec()).collect();
    let (nr, nc) = (rows.len(), rows.first().map_or(0, Vec::len));
    let room = Area { x: cell.x + 6.0, y: cell.y + 6.0, w: cell.w - 12.0, h: cell.h - label.size * 2.0 - 8.0 };
    let pitch = (room.w / nc as f32).min(room.h / nr as f32).min(MAX_PITCH);
    let size = pitch * 0.62;
    let left = room.x + (room.w - pitch * nc as f32) / 2.0;
    let top = room.top() - (room.h - pitch * nr as f32) / 2.0;
    let mut in_word = vec![vec![false; nc]; nr];
    for w in &entry.puzzle.words {
        for &[r, col] in &w.cells {
            in_word[r][col] = true;
        }
    }
    let baseline = |r: usize, font: Font| top - (r as f32 + 0.5) * pitch - font.cap_height() * size / 2000.0;
    for (r, row) in rows.iter().enumerate() {
        let filler: Vec<Option<char>> =
            row.iter().enumerate().map(|(k, &b)| (b != b' ' && !in_word[r][k]).then_some(b as char)).collect();
        c.cell_row(Style::new(GRID_FONT, size).color(FILLER_GREY), left, baseline(r, GRID_FONT), pitch, &filler);
        let word: Vec<Option<char>> =
            row.iter().enumerate().map(|(k, &b)| in_word[r][k].then_some(b as char)).collect();
        c.cell_row(Style::new(WORD_FONT, size), left, baseline(r, WORD_FONT), pitch, &word);
    }
    let center = |[r, col]: [usize; 2]| (left + (col as f32 + 0.5) * pitch, top - (r as f32 + 0.5) * pitch);
    for w in &entry.puzzle.words {
        let (Some(&first), Some(&last)) = (w.cells.first(), w.cells.last()) else { continue };
        c.stadium(center(first), center(last), pitch * 0.44, (pitch * 0.07).max(0.5), Rgb::BLACK);
    }
}

/// What the title page says of the book's puzzles.
fn title_text<'a>(entries: &[Entry], solutions_page: usize) -> TitleText<'a> {
    let mut levels = Vec::new();
    for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
        let k = entries.iter().filter(|e| e.level == level).count();
        if k == 0 {
            continue;
        }
        let how = match level {
            Level::Easy => "words across and down",
            Level::Medium => "across, down and diagonally, read left to right",
            Level::Hard => "all eight directions, backwards too",
            Level::Expert => "all eight directions, crossing often",
        };
        levels.push(format!("{}: {k} {} ({how})", level.title(), if k == 1 { "puzzle" } else { "puzzles" }));
    }
    let count = match entries.len() {
        1 => "1 word search".to_string(),
        n => format!("{n} word searches"),
    };
    TitleText { count, how_to_play: HOW_TO_PLAY, levels, solutions_page }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::wordsearch::{generate, Spec};
    use crate::render::pdf::testing::{pages, shown};
    use crate::render::print::TrimName;

    fn puzzle(words: &[&str], side: usize, level: Level, seed: u64) -> Puzzle {
        let spec = Spec {
            words: words.iter().map(|w| w.to_string()).collect(),
            rows: side,
            cols: side,
            level,
            ..Spec::default()
        };
        generate(&spec, seed, &mut Unmonitored).unwrap()
    }

    #[test]
    fn the_list_prints_as_the_grid_holds_it_alphabetically() {
        assert_eq!(printed_word("crème brûlée"), "CREME BRULEE");
        assert_eq!(printed_word(" blue  tit "), "BLUE TIT");
        let p = puzzle(&["wren", "blue tit", "robin", "owl"], 10, Level::Easy, 1);
        assert_eq!(printed_list(&p), ["BLUE TIT", "OWL", "ROBIN", "WREN"]);
    }

    #[test]
    fn a_page_fits_the_grid_and_list_inside_its_area_or_says_what_fits() {
        let words: Vec<String> = (0..20).map(|i| format!("WORDNUMBER{i}")).collect();
        for trim in TrimName::ALL.map(Trim::Named) {
            let area = Layout::new(trim, 24).body(3);
            for print in [Print::REGULAR, Print::LARGE] {
                for side in [10, 15, 20, 30, 40] {
                    match PuzzlePage::fit(area, side, side, &words, print) {
                        Ok(p) => {
                            assert!(p.letter >= print.min_letter);
                            assert!(p.left >= area.x - 0.01 && p.left + side as f32 * p.pitch <= area.right() + 0.01);
                            let last_row =
                                p.list_y - (words.len().div_ceil(p.list_columns) - 1) as f32 * p.list_leading;
                            assert!(last_row >= area.y, "{trim:?} {side}: list runs off the page");
                            assert!(p.list_y < p.top - side as f32 * p.pitch, "list under the grid");
                            let list_right = p.list_x + p.list_column * p.list_columns as f32;
                            assert!(list_right <= area.right() + print.list * LIST_GAP * 2.0 + 0.01);
                        }
                        Err(fits) => {
                            assert!(fits.max_rows < side || fits.max_cols < side, "{trim:?} {side} {fits:?}");
                            // What it says fits does.
                            let (r, c) = (fits.max_rows.min(side), fits.max_cols.min(side));
                            if r >= 5 && c >= 5 {
                                assert!(PuzzlePage::fit(area, r, c, &words, print).is_ok(), "{trim:?} {side} {fits:?}");
                            }
                        }
                    }
                }
            }
        }
        // Large print on letter: a 15 x 15 grid fits, a 25 x 25 does not.
        let area = Layout::new(Trim::Named(TrimName::Letter), 24).body(3);
        assert!(PuzzlePage::fit(area, 15, 15, &words, Print::LARGE).is_ok());
        assert!(PuzzlePage::fit(area, 25, 25, &words, Print::LARGE).is_err());
    }

    /// Seven hard puzzles of garden birds.
    fn garden_puzzles() -> Vec<Puzzle> {
        (0..7)
            .map(|i| puzzle(&["robin", "wren", "magpie", "starling", "crow", "blue tit"], 12, Level::Hard, i))
            .collect()
    }

    /// The book of `puzzles`, the first titled "Birds", on 6 x 9.
    fn garden_book(puzzles: &[Puzzle]) -> (Vec<Entry<'_>>, PrintOptions) {
        let entries = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| Entry { title: (i == 0).then_some("Birds"), level: Level::Hard, puzzle: p })
            .collect();
        let opts =
            PrintOptions { trim: Trim::Named(TrimName::SixByNine), title: "Garden Words".into(), ..Default::default() };
        (entries, opts)
    }

    #[test]
    fn the_book_prints_title_puzzles_and_solutions_byte_stable() {
        let puzzles = garden_puzzles();
        let (entries, opts) = garden_book(&puzzles);
        let pdf = book_pdf(&entries, &opts, false, "ab12cd34", LayoutVersion::V2);
        assert_eq!(pdf, book_pdf(&entries, &opts, false, "ab12cd34", LayoutVersion::V2));
        let doc = pages(&pdf);
        assert_eq!(doc.len(), 24);
        let text = |i: usize| shown(&doc[i]).iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" | ");
        assert!(text(0).contains("How to play") && text(0).contains("7 word searches"), "{}", text(0));
        assert!(text(0).contains("Hard: 7 puzzles") && text(0).contains("Solutions from page 9"), "{}", text(0));
        assert!(text(1).contains("1. Birds") && text(1).contains("BLUE TIT") && text(1).contains("STARLING"));
        assert!(text(2).contains("Puzzle 2"));
        // Every grid row printed on its page.
        for (i, p) in puzzles.iter().enumerate() {
            let t = text(1 + i);
            assert!(p.rows.iter().all(|r| t.contains(r.as_str())), "page {}", i + 2);
        }
        assert!(text(8).starts_with("Solutions"), "{}", text(8));
        for i in 0..doc.len() {
            assert!(text(i).contains("Garden Words - book ab12cd34"), "page {}", i + 1);
        }
    }

    #[test]
    fn the_framed_book_starts_its_puzzles_on_a_right_hand_page_and_labels_solutions_alike() {
        let puzzles = garden_puzzles();
        let (entries, opts) = garden_book(&puzzles);
        let pdf = book_pdf(&entries, &opts, false, "ab12cd34", LayoutVersion::V3);
        assert_eq!(pdf, book_pdf(&entries, &opts, false, "ab12cd34", LayoutVersion::V3), "byte-stable");
        let trace = "Garden Words - book ab12cd34";
        let text = crate::render::frame::checks::assert_framed(&pdf, "Garden Words", trace, "ab12cd34", true);
        assert_eq!(text.len(), book_pages(7, opts.trim, Print::REGULAR));
        assert!(text[0].contains("7 word searches"), "{}", text[0]);
        assert!(text[2].contains("Hard: 7 puzzles") && text[2].contains("Solutions from page 12"), "{}", text[2]);
        assert!(text[4].starts_with("1. Birds") && text[5].starts_with("Puzzle 2"), "{}", text[4]);
        let solutions = &text[11];
        assert!(solutions.starts_with("Solutions | 1. Birds | ") && solutions.contains("Puzzle 2"), "{solutions}");
    }
}
