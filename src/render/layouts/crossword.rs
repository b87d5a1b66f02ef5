//! PDFs of a crossword grid and of its fill (on any trim): black squares, standard numbers
//! in the corners, and the across and down entries listed below the grid — or, when the
//! request gives clues, the clues in columns under "Across" and "Down" (on pages of their
//! own after the grid's when they do not fit under it).

use crate::puzzles::crossword::clues::Texts;
use crate::puzzles::crossword::{Direction, Fill, Grid, Slot};
use crate::render::page::{runs, Canvas, CellGrid, Document, Font, Paint, Rgb, Style};
use crate::render::print::{fit_size, Area, SheetSpec};
use crate::render::typeset::prose::{self, Breaking};

/// Room for the title and subtitle above the grid.
const HEADING: f32 = 54.0;
/// Gap between the grid and the entry list.
const GAP: f32 = 20.0;
/// Small grids stay newspaper-sized instead of filling the page.
const MAX_PITCH: f32 = 40.0;
/// Cells comfortable to write in: the list's font shrinks until the grid gets them, or
/// until its smallest size.
const GOOD_PITCH: f32 = 24.0;
const LIST_FONT: Font = Font::Sans;
const LIST_SIZES: [f32; 4] = [10.0, 9.0, 8.0, 7.0];
/// A short list stays in a few columns this deep rather than spreading thinly across.
const MIN_LIST_ROWS: usize = 12;
/// Space between list columns, in ems of the list font.
const GUTTER: f32 = 1.5;
/// Clue columns are at least this wide, in ems of the list font.
const CLUE_COLUMN_EMS: f32 = 14.0;
/// The "Across" and "Down" headings of the clue columns.
const HEADING_FONT: Font = Font::SansBold;
const NUMBER_FONT: Font = Font::Mono;
const LETTER_FONT: Font = Font::Mono;

/// The empty grid with its numbers and, when `texts` has clues, the clues under "Across"
/// and "Down"; otherwise every entry listed as "1 Across (5 letters)". The heading is
/// `spec`'s title and, when `texts` has an author, the byline "by AUTHOR".
pub fn grid_pdf(grid: &Grid, spec: &SheetSpec, texts: &Texts) -> Vec<u8> {
    let (h, w) = (grid.height(), grid.width());
    let slots = grid.slots();
    let clues = texts.has_clues();
    // A partly clued puzzle is a constructor's proof: an entry without a clue keeps its
    // line, as "(5 letters)", so the gap shows where it is and the grid's every number
    // has its line; a bare number (or leaving the entry out) hides what is missing.
    let entry = |s: &Slot| match (clues, texts.clue(s.dir, s.number).trim()) {
        (true, "") => (s.number.to_string(), format!("({} letters)", s.len)),
        (true, clue) => (s.number.to_string(), printable(clue)),
        (false, _) => (format!("{} {} ({} letters)", s.number, direction(s.dir), s.len), String::new()),
    };
    let sheet = Sheet {
        h,
        w,
        black: (0..h * w).map(|i| !grid.is_white(i / w, i % w)).collect(),
        letters: vec![None; h * w],
        numbers: slots.iter().map(|s| (s.row, s.col, s.number)).collect(),
        // `slots` lists the across ones first, like the entry list.
        entries: slots.iter().map(entry).collect(),
        down_from: slots.iter().position(|s| s.dir == Direction::Down).unwrap_or(slots.len()),
        prose: spec.prose,
        clues,
        author: printable(texts.author.trim()),
    };
    sheet.pdf(spec, None)
}

/// The filled grid, numbers kept, and every entry listed with its word ("1 Across HEART"),
/// under the title and "Solution", with `texts`' author's byline when it has one. Rows
/// use `#` for black squares; a malformed fill is drawn as far as it goes (short rows end
/// in white squares, entries outside the grid are listed but not numbered).
pub fn solution_pdf(fill: &Fill, spec: &SheetSpec, texts: &Texts) -> Vec<u8> {
    let h = fill.rows.len();
    let w = fill.rows.first().map_or(0, |r| r.chars().count());
    let squares: Vec<Option<char>> =
        fill.rows.iter().flat_map(|row| row.chars().map(Some).chain(std::iter::repeat(None)).take(w)).collect();
    let entries = fill.across.iter().map(|e| (e, "Across")).chain(fill.down.iter().map(|e| (e, "Down")));
    let sheet = Sheet {
        h,
        w,
        black: squares.iter().map(|&sq| sq == Some('#')).collect(),
        letters: squares
            .iter()
            .map(|sq| sq.filter(char::is_ascii_alphabetic).map(|ch| ch.to_ascii_uppercase()))
            .collect(),
        numbers: fill
            .across
            .iter()
            .chain(&fill.down)
            .filter(|e| e.row >= 1 && e.col >= 1)
            .map(|e| (e.row - 1, e.col - 1, e.number))
            .collect(),
        entries: entries.map(|(e, dir)| (format!("{} {dir} {}", e.number, e.word), String::new())).collect(),
        down_from: fill.across.len(),
        prose: spec.prose,
        clues: false,
        author: printable(texts.author.trim()),
    };
    sheet.pdf(spec, Some("Solution"))
}

/// A page of `spec`'s trim with its title, the line under it (`part`, which also names the
/// page in the footer, and the byline when there is an `author`, both optional) and footer.
fn new_page<'d>(doc: &'d mut Document, spec: &SheetSpec, part: Option<&str>, author: &str) -> &'d mut Canvas {
    let c = doc.add_page(spec.trim.size());
    let area = spec.area();
    let mid = area.center_x();
    let title = printable(spec.title);
    let size = fit_size(Font::SansBold, &title, 22.0, area.w);
    c.text_centered(Style::new(Font::SansBold, size), mid, area.top() - 20.0, &title);
    let byline = (!author.is_empty()).then(|| format!("by {author}"));
    let subtitle = match (part, byline) {
        (Some(p), Some(b)) => Some(format!("{p} - {b}")),
        (p, b) => b.or(p.map(str::to_string)),
    };
    if let Some(s) = subtitle {
        let size = fit_size(Font::Sans, &s, 11.0, area.w);
        c.text_centered(Style::new(Font::Sans, size).color(Rgb::GREY), mid, area.top() - 40.0, &s);
    }
    spec.footer(c, part.unwrap_or("Puzzle"));
    c
}

/// `text` as the PDF's ASCII fonts can print it: typographic punctuation in its ASCII
/// form, Latin-1 letters without their accents; anything else prints as `?`.
fn printable(text: &str) -> String {
    // The letters U+00C0..=U+00FF without accents; `?` where there is no such letter.
    const BASE: &[u8; 64] = b"AAAAAAACEEEEIIIIDNOOOOO?OUUUUY?saaaaaaaceeeeiiiidnooooo?ouuuuy?y";
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match (crate::render::exchange::puz::ascii_punctuation(ch), ch as u32) {
            (Some(ascii), _) => out.push_str(ascii),
            (None, code @ 0xC0..=0xFF) => out.push(BASE[code as usize - 0xC0] as char),
            _ => out.push(ch),
        }
    }
    out
}

fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Across => "Across",
        Direction::Down => "Down",
    }
}

/// What both PDFs draw, squares row-major.
struct Sheet {
    /// Rows and columns.
    h: usize,
    w: usize,
    black: Vec<bool>,
    letters: Vec<Option<char>>,
    /// (row, col, number), 0-based; a square starting both an across and a down entry
    /// may appear twice.
    numbers: Vec<(usize, usize, u32)>,
    /// The list items as (lead, text), across entries first; `entries[down_from..]` are the
    /// down ones. Without clues an item is its lead alone, one line; with clues the lead is
    /// the number and the text the clue, wrapped beside it.
    entries: Vec<(String, String)>,
    down_from: usize,
    /// How clues break into lines.
    prose: Breaking,
    /// Whether the entries are clues: wrapped into columns under headings.
    clues: bool,
    /// The byline's author as the fonts print it; empty for none.
    author: String,
}

/// One line of the list: its text, in its font, `indent` points into its column.
#[derive(Debug, PartialEq)]
struct Line {
    text: String,
    font: Font,
    indent: f32,
}

/// The entry list laid out in columns, each `rows` lines deep.
struct ListLayout {
    size: f32,
    leading: f32,
    column_width: f32,
    columns: usize,
    rows: usize,
    lines: Vec<Line>,
}

impl ListLayout {
    /// Draws `lines` in columns filled top to bottom, the block centred on `mid` and its
    /// first baseline at `first`.
    fn draw(&self, c: &mut Canvas, lines: &[Line], mid: f32, first: f32) {
        let block = self.columns as f32 * self.column_width - GUTTER * self.size;
        let left = mid - block / 2.0;
        for (i, line) in lines.iter().enumerate().filter(|(_, l)| !l.text.is_empty()) {
            let (col, row) = (i / self.rows, i % self.rows);
            let x = left + col as f32 * self.column_width + line.indent;
            c.text(Style::new(line.font, self.size), x, first - row as f32 * self.leading, &line.text);
        }
    }
}

impl Sheet {
    fn pdf(&self, spec: &SheetSpec, subtitle: Option<&str>) -> Vec<u8> {
        let mut doc = Document::new();
        doc.set_title(&spec.doc_title(subtitle.map(|_| "solution")));
        let body = spec.area().shrink(HEADING, 0.0);
        let mid = body.center_x();
        let (grid, list) = self.layout(body);
        if !self.clues || grid.pitch >= GOOD_PITCH {
            let c = new_page(&mut doc, spec, subtitle, &self.author);
            self.draw_grid(c, &grid);
            list.draw(c, &list.lines, mid, grid.bottom() - GAP - list.size);
            return doc.finish();
        }
        // Clues too many for one page: the grid alone, then the clues at the largest size.
        let c = new_page(&mut doc, spec, subtitle, &self.author);
        self.draw_grid(c, &self.grid_within(body, body.h));
        let mut list = self.list_at(body.w, LIST_SIZES[0]);
        list.rows = ((body.h / list.leading) as usize).max(1);
        let per_page = list.rows * list.columns;
        for lines in list.lines.chunks(per_page) {
            let c = new_page(&mut doc, spec, Some("Clues"), &self.author);
            list.draw(c, lines, mid, body.top() - list.size);
        }
        doc.finish()
    }

    /// The list's lines at `size` within columns of `width` points: without clues an item
    /// a line and a blank line between the across and the down ones (none if either group
    /// is empty); with clues each group under its heading, each clue wrapped beside its
    /// number.
    fn lines(&self, size: f32, width: f32) -> Vec<Line> {
        let plain = |text: &str| Line { text: text.to_string(), font: LIST_FONT, indent: 0.0 };
        let (across, down) = self.entries.split_at(self.down_from.min(self.entries.len()));
        let mut lines = Vec::new();
        for (name, group) in [("Across", across), ("Down", down)] {
            if group.is_empty() {
                continue;
            }
            if !lines.is_empty() {
                lines.push(plain(""));
            }
            if !self.clues {
                lines.extend(group.iter().map(|(lead, _)| plain(lead)));
                continue;
            }
            lines.push(Line { text: name.to_string(), font: HEADING_FONT, indent: 0.0 });
            for (number, clue) in group {
                let indent = LIST_FONT.width(&format!("{number} "), size);
                let mut wrapped =
                    prose::lines(clue, Style::new(LIST_FONT, size), width - indent, self.prose).into_iter();
                lines.push(plain(&format!("{number} {}", wrapped.next().unwrap_or_default())));
                lines.extend(wrapped.map(|text| Line { text, font: LIST_FONT, indent }));
            }
        }
        lines
    }

    /// The grid and list within `area` under the heading: the largest list font that
    /// leaves the grid cells of `GOOD_PITCH`, else the smallest.
    fn layout(&self, area: Area) -> (CellGrid, ListLayout) {
        let smallest = LIST_SIZES[LIST_SIZES.len() - 1];
        LIST_SIZES
            .iter()
            .map(|&size| self.layout_at(area, size))
            .find(|(grid, _)| grid.pitch >= GOOD_PITCH)
            .unwrap_or_else(|| self.layout_at(area, smallest))
    }

    /// The list in as many columns of `size` point text as fit across, and the largest
    /// grid above it.
    fn layout_at(&self, area: Area, size: f32) -> (CellGrid, ListLayout) {
        let list = self.list_at(area.w, size);
        let list_height = if list.lines.is_empty() { 0.0 } else { GAP + list.rows as f32 * list.leading };
        (self.grid_within(area, (area.h - list_height).max(0.0)), list)
    }

    /// The largest grid `height` points tall at the top of `area`.
    fn grid_within(&self, area: Area, height: f32) -> CellGrid {
        CellGrid::fit(self.h, self.w, (area.x, area.top() - height, area.w, height), MAX_PITCH)
    }

    /// The list at `size` across `width` points: without clues in columns as wide as the
    /// longest line, as many as fit across; with clues in as many columns of
    /// `CLUE_COLUMN_EMS` or more as fit.
    fn list_at(&self, width: f32, size: f32) -> ListLayout {
        let gutter = GUTTER * size;
        let (lines, column_width) = if self.clues {
            let fit_across = (((width + gutter) / (CLUE_COLUMN_EMS * size + gutter)) as usize).max(1);
            let column_width = (width + gutter) / fit_across as f32;
            (self.lines(size, column_width - gutter), column_width)
        } else {
            let lines = self.lines(size, width);
            let longest = lines.iter().map(|l| l.font.width(&l.text, size)).fold(0.0, f32::max);
            (lines, longest + gutter)
        };
        let fit_across = (((width + gutter) / column_width) as usize).max(1);
        let rows = lines.len().div_ceil(fit_across).max(MIN_LIST_ROWS.min(lines.len())).max(1);
        ListLayout {
            size,
            leading: size * 1.15,
            column_width,
            // Only as many columns as the rows need, so the block centres properly.
            columns: lines.len().div_ceil(rows).max(1),
            rows,
            lines,
        }
    }

    fn draw_grid(&self, c: &mut Canvas, grid: &CellGrid) {
        let (h, w) = (self.h, self.w);
        let pitch = grid.pitch;
        for r in 0..h {
            for (a, b) in runs(w, |col| self.black[r * w + col]) {
                let width = (b - a) as f32 * pitch;
                c.rect(grid.x(a), grid.y(r + 1), width, pitch, Paint::Fill(Rgb::BLACK));
            }
        }
        c.segments(&grid.inner_lines(), 0.6, Rgb::BLACK);
        c.segments(&grid.outline(), 2.0, Rgb::BLACK);

        // Numbers tuck into the top-left corner, letters sit low and centred: the number's
        // bottom (0.72 pitch up) stays above the capitals' top (0.56 pitch up).
        let number = Style::new(NUMBER_FONT, (pitch * 0.3).max(5.0));
        let mut numbered: Vec<(usize, usize, u32)> = self.numbers.clone();
        numbered.sort_unstable();
        numbered.dedup();
        for (r, col, num) in numbered.into_iter().filter(|&(r, col, _)| r < h && col < w) {
            let cap = NUMBER_FONT.cap_height() * number.size / 1000.0;
            c.text(number, grid.x(col) + pitch * 0.07, grid.y(r) - pitch * 0.06 - cap, &num.to_string());
        }
        let letter = Style::new(LETTER_FONT, pitch * 0.58);
        for r in 0..h {
            let y = grid.y(r + 1) + pitch * 0.14;
            c.cell_row(letter, grid.left, y, pitch, &self.letters[r * w..(r + 1) * w]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::crossword::clues::key;
    use crate::puzzles::crossword::fill::{fill_grid, FillOptions};
    use crate::puzzles::crossword::{Entry, WordList};
    use crate::puzzles::monitor::Unmonitored;
    use crate::render::pdf::testing::{pages, shown, Shown};
    use crate::render::print::Trim;
    use std::collections::BTreeMap;

    /// The smallest cells any valid pattern may get (a printed Sunday 21 x 21 has cells of
    /// about 16 pt).
    const MIN_PITCH: f32 = 16.0;
    const PATTERN: &str = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg";

    fn sample() -> (Grid, Fill) {
        let grid = Grid::from_hex(PATTERN).unwrap();
        let fill = fill_grid(&grid, WordList::english(), &FillOptions::default(), &mut Unmonitored).unwrap();
        (grid, fill)
    }

    /// The single page's text operations, after checking the PDF's frame and determinism.
    fn page_text(render: impl Fn() -> Vec<u8>) -> Vec<Shown> {
        let pdf = render();
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(String::from_utf8_lossy(&pdf).contains("/Count 1"));
        assert_eq!(pdf, render());
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        shown(&pages[0])
    }

    /// Texts of the entry list (the list font, not grey like the footer), in drawing order.
    fn list(text: &[Shown]) -> Vec<&str> {
        text.iter().filter(|s| s.font == LIST_FONT && s.color != Rgb::GREY).map(|s| s.text.as_str()).collect()
    }

    fn spec(title: &str) -> SheetSpec<'_> {
        SheetSpec { title, id: "", trim: Trim::default(), prose: Breaking::Optimal }
    }

    /// No clues.
    fn plain() -> Texts<'static> {
        Texts::default()
    }

    #[test]
    fn grid_pdf_numbers_squares_and_lists_entries() {
        let (grid, _) = sample();
        let slots = grid.slots();
        let text = page_text(|| grid_pdf(&grid, &spec("Crossword 15"), &plain()));
        assert!(text.iter().any(|s| s.font == Font::SansBold && s.text == "Crossword 15"));
        // The mono face is only used for the numbers here: 1, 2, ... in reading order.
        let numbers: Vec<&str> = text.iter().filter(|s| s.font == NUMBER_FONT).map(|s| s.text.as_str()).collect();
        let last = slots.iter().map(|s| s.number).max().unwrap();
        let expected: Vec<String> = (1..=last).map(|k| k.to_string()).collect();
        assert_eq!(numbers, expected);
        let entries: Vec<String> =
            slots.iter().map(|s| format!("{} {} ({} letters)", s.number, direction(s.dir), s.len)).collect();
        assert_eq!(list(&text), entries);
        assert!(entries.contains(&"1 Across (5 letters)".to_string()), "{entries:?}");
        assert!(entries.iter().any(|e| e.starts_with("1 Down (")));
        // One filled rectangle per run of black squares.
        let page = &pages(&grid_pdf(&grid, &spec("x"), &plain()))[0];
        let black_runs: usize = (0..15).map(|r| runs(15, |c| !grid.is_white(r, c)).len()).sum();
        let filled = page.windows(2).filter(|w| w[0].operator == "re" && w[1].operator == "f").count();
        assert_eq!(filled, black_runs);
    }

    #[test]
    fn solution_pdf_fills_in_the_letters() {
        let (grid, fill) = sample();
        let text = page_text(|| solution_pdf(&fill, &spec("Crossword 15"), &plain()));
        assert!(text.iter().any(|s| s.text == "Solution"));
        let numbers: Vec<&str> = text
            .iter()
            .filter(|s| s.font == NUMBER_FONT && s.text.parse::<u32>().is_ok())
            .map(|s| s.text.as_str())
            .collect();
        let grid_numbers: Vec<String> = shown(&pages(&grid_pdf(&grid, &spec("x"), &plain()))[0])
            .into_iter()
            .filter(|s| s.font == NUMBER_FONT)
            .map(|s| s.text)
            .collect();
        assert_eq!(numbers, grid_numbers);
        // One letter row per grid row, black squares left out.
        // After the footer, title and subtitle, mono text that is not a number is letters.
        let rows: Vec<&str> = text
            .iter()
            .filter(|s| s.font == LETTER_FONT && s.text.parse::<u32>().is_err())
            .map(|s| s.text.as_str())
            .collect();
        let expected: Vec<String> = fill.rows.iter().map(|r| r.replace('#', "")).collect();
        assert_eq!(rows, expected);
        let entries: Vec<String> = fill
            .across
            .iter()
            .map(|e| format!("{} Across {}", e.number, e.word))
            .chain(fill.down.iter().map(|e| format!("{} Down {}", e.number, e.word)))
            .collect();
        assert_eq!(list(&text), entries);
    }

    #[test]
    fn solution_pdf_draws_a_malformed_fill_without_panicking() {
        let fill = Fill {
            rows: vec!["AB#".into(), "c".into(), "".into()],
            across: vec![Entry { number: 7, row: 0, col: 9, word: "AB".into(), score: None }],
            down: vec![],
            quality: None,
        };
        let text = page_text(|| solution_pdf(&fill, &spec("odd"), &plain()));
        assert_eq!(list(&text), ["7 Across AB"]);
        assert!(text.iter().any(|s| s.text == "C"));
        solution_pdf(&Fill { rows: vec![], across: vec![], down: vec![], quality: None }, &spec("empty"), &plain());
    }

    /// Every size keeps the whole list on the page, even with the most entries a valid
    /// pattern can have (runs of 3 separated by single black squares: (n + 1) / 4 per
    /// line; numbers never exceed the count of entries), every entry as long as the side.
    #[test]
    fn all_sizes_fit_on_one_page() {
        for n in 5..=21 {
            let words = 2 * n * ((n + 1) / 4);
            let entries: Vec<(String, String)> = (0..words)
                .map(|i| {
                    (format!("{} {} ({} letters)", i + 1, if i % 2 == 0 { "Across" } else { "Down" }, n), "".into())
                })
                .collect();
            let sheet = Sheet {
                h: n,
                w: n,
                black: vec![false; n * n],
                letters: vec![None; n * n],
                numbers: vec![],
                entries,
                down_from: words / 2,
                prose: Breaking::Optimal,
                clues: false,
                author: String::new(),
            };
            let area = spec("x").area().shrink(HEADING, 0.0);
            let (grid, list) = sheet.layout(area);
            let lines = &list.lines;
            assert!(grid.pitch >= MIN_PITCH, "size {n}: pitch {}", grid.pitch);
            assert!(grid.left >= area.x && grid.x(n) <= area.right() + 1e-3, "size {n}");
            assert!((grid.top - area.top()).abs() < 1e-3);
            assert!(list.columns * list.rows >= lines.len());
            let last_baseline = grid.bottom() - GAP - list.size - (list.rows - 1) as f32 * list.leading;
            assert!(last_baseline >= area.y, "size {n}: list ends at {last_baseline}");
            assert!(list.columns as f32 * list.column_width - GUTTER * list.size <= area.w, "size {n}");
        }
    }

    /// A clue for every entry of the sample grid, `words` words long.
    fn clues_of(grid: &Grid, words: usize) -> BTreeMap<String, String> {
        grid.slots()
            .iter()
            .map(|s| (key(s.dir, s.number), format!("Clue {} {}", s.label(), "word ".repeat(words).trim_end())))
            .collect()
    }

    #[test]
    fn clues_print_under_headings_beside_their_numbers() {
        let (grid, _) = sample();
        let mut clues = clues_of(&grid, 1);
        clues.remove("1A");
        let texts = Texts { clues: Some(&clues), ..Texts::default() };
        let text = page_text(|| grid_pdf(&grid, &spec("Sunday Special"), &texts));
        let bold: Vec<&str> = text.iter().filter(|s| s.font == HEADING_FONT).map(|s| s.text.as_str()).collect();
        assert_eq!(bold, ["Sunday Special", "Across", "Down"]);
        let expected: Vec<String> = grid
            .slots()
            .iter()
            .map(|s| match clues.get(&key(s.dir, s.number)) {
                Some(c) => format!("{} {c}", s.number),
                None => format!("{} ({} letters)", s.number, s.len),
            })
            .collect();
        // An entry without a clue keeps its line, its length in place of the clue.
        assert_eq!(expected[0], "1 (5 letters)");
        assert_eq!(list(&text), expected);
        // No byline without an author: the title is the heading's only line.
        assert!(!text.iter().any(|s| s.text.starts_with("by ")), "{text:?}");
    }

    /// The grid's and the solution's heading name the author under the title, and the
    /// solution says it is one; clue pages of their own keep the byline.
    #[test]
    fn the_byline_prints_under_the_title() {
        let (grid, fill) = sample();
        let texts = Texts { author: " Ann Autor\u{e9} ", ..Texts::default() };
        let grey = |text: &[Shown]| -> Vec<String> {
            text.iter().filter(|s| s.font == Font::Sans && s.color == Rgb::GREY).map(|s| s.text.clone()).collect()
        };
        let text = page_text(|| grid_pdf(&grid, &spec("Sunday"), &texts));
        assert_eq!(grey(&text)[0], "by Ann Autore");
        let text = page_text(|| solution_pdf(&fill, &spec("Sunday"), &texts));
        assert_eq!(grey(&text)[0], "Solution - by Ann Autore");
        let text = page_text(|| solution_pdf(&fill, &spec("Sunday"), &plain()));
        assert_eq!(grey(&text)[0], "Solution");
        let clues = clues_of(&grid, 12);
        let pdf = grid_pdf(&grid, &spec("Long"), &Texts { clues: Some(&clues), ..texts });
        let pages = pages(&pdf);
        assert!(pages.len() >= 2);
        assert_eq!(grey(&shown(&pages[1]))[0], "Clues - by Ann Autore");
        // A long byline shrinks to the page's width rather than running off it.
        let long = "An Author With A Very Long Name ".repeat(6);
        let text = page_text(|| grid_pdf(&grid, &spec("x"), &Texts { author: &long, ..Texts::default() }));
        let byline = text.iter().find(|s| s.text.starts_with("by An")).expect("the byline");
        assert!(byline.size < 11.0, "{byline:?}");
    }

    /// Long clues for a 15 x 15 do not fit under the grid: the grid keeps its page, the clues
    /// follow on pages of their own, all of them in order, every page within the trim's
    /// margins with its footer.
    #[test]
    fn many_long_clues_continue_on_their_own_pages() {
        let (grid, _) = sample();
        let clues = clues_of(&grid, 12);
        let texts = Texts { clues: Some(&clues), ..Texts::default() };
        for trim in [Trim::default(), Trim::parse("6x9").unwrap()] {
            let spec = SheetSpec { title: "Long", id: "ab12", trim, prose: Breaking::Optimal };
            let pdf = grid_pdf(&grid, &spec, &texts);
            assert_eq!(pdf, grid_pdf(&grid, &spec, &texts));
            let pages = pages(&pdf);
            assert!(pages.len() >= 2, "{} pages", pages.len());
            let first = shown(&pages[0]);
            assert!(list(&first).is_empty(), "the grid page has no clues");
            for page in &pages {
                let footer: Vec<Shown> = shown(page).into_iter().filter(|s| s.color == Rgb::GREY).collect();
                assert!(footer.iter().any(|s| s.text == "Long ab12"), "{footer:?}");
            }
            let words: Vec<String> = pages[1..]
                .iter()
                .flat_map(|p| shown(p))
                .filter(|s| s.font == LIST_FONT && s.color != Rgb::GREY)
                .flat_map(|s| s.text.split(' ').map(str::to_string).collect::<Vec<_>>())
                .collect();
            let expected: Vec<String> = grid
                .slots()
                .iter()
                .flat_map(|s| {
                    let clue = &clues[&key(s.dir, s.number)];
                    std::iter::once(s.number.to_string()).chain(clue.split(' ').map(str::to_string)).collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(words, expected);
        }
    }

    #[test]
    fn printable_folds_punctuation_and_accents() {
        assert_eq!(
            printable("Caf\u{e9} \u{201c}ol\u{e9}\u{201d} \u{2013} \u{c5}ngstr\u{f6}m\u{2026}"),
            "Cafe \"ole\" - Angstrom..."
        );
        assert_eq!(printable("\u{d7}\u{f7}\u{ff}\u{e6}"), "??ya");
        assert_eq!(printable("\u{65e5}"), "\u{65e5}");
    }
}
