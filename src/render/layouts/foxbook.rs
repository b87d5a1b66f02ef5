//! PDFs of a Find the Fox book — or Find the Cat, the Owl, … on shaped pages — (the
//! interior) and its answer key, on the trim the book was ordered with.
//!
//! The interior (version 4) is printed in the book frame: the title page (title, what the
//! pages are, author), its back says how to find the answer (serial, lookup address, QR
//! code) above the copyright line and ISBN, how to play on page 3, the puzzles from the
//! right-hand page 5, one grid a page headed "Puzzle N" with the page's own number in its
//! footer, and notes pages to an even count of at least 24. Versions 1 to 3 (books printed
//! before) put the answer help on page 2 and the puzzles from page 3, footed "Page N".

use crate::puzzles::foxbook::{BookSpec, Serial};
use crate::puzzles::wordbook::{direction_words, Plan, Shape, WordAnswer, WordBook, WordPage};
use crate::render::frame;
use crate::render::page::{Canvas, Document, Font, Paint, Rgb, Style};
use crate::render::pdf::{Compression, Options};
use crate::render::print::{
    copyright_notice, fit_size, padded_pages, Area, Layout, PrintOptions, Trim, TrimName, INCH,
};
use crate::render::typeset::prose::{centred_lines, Breaking};

const GRID_FONT: Font = Font::Mono;
const FOX_FONT: Font = Font::MonoBold;
/// The fox's letters in the answer key: bold, outlined, and dark red (dark in greyscale too).
const FOX_RED: Rgb = Rgb(0.75, 0.0, 0.0);
/// Grid letters print at least this size where the cells allow it.
pub const LETTER_PT: f32 = 8.0;
/// Smaller letters than this are refused at order time.
pub const MIN_LETTER_PT: f32 = 7.0;
/// Large grids stay this size at most.
const MAX_PITCH: f32 = 40.0;
/// PDF pages before the first puzzle in versions 1 to 3: the title page and its back.
const FRONT_PAGES: usize = 2;
/// Room for a puzzle's heading ("Puzzle 17") above its grid in the book frame.
const PUZZLE_HEADING: f32 = 30.0;
const HEADING_SIZE: f32 = 14.0;

/// The interior's page count for a book of `pages` puzzles printed by `version`.
pub fn interior_pages(pages: u32, version: InteriorVersion) -> usize {
    match version {
        InteriorVersion::V1 | InteriorVersion::V2 | InteriorVersion::V3 => padded_pages(FRONT_PAGES + pages as usize),
        InteriorVersion::V4 => frame_plan(pages as usize).total,
    }
}

/// Where the parts of a book of `pages` puzzles fall in the book frame (no solutions: the
/// answer is looked up by serial).
fn frame_plan(pages: usize) -> frame::Plan {
    frame::Plan::new(true, pages, 0)
}

/// The letter size for cells of side `pitch`: about 0.72 of the cell, at least
/// [`LETTER_PT`] while that fits in a cell, at most 30 pt.
pub fn letter_size(pitch: f32) -> f32 {
    (pitch * 0.72).max(LETTER_PT.min(pitch)).min(30.0)
}

/// A grid of `rows` x `cols` letters with a ring of guide numbers around it, as large as
/// fits in `area`, centred.
#[derive(Clone, Copy, Debug)]
struct GridPlace {
    rows: usize,
    cols: usize,
    /// Top-left corner of the letters (inside the guides) and the cell side.
    left: f32,
    top: f32,
    pitch: f32,
}

impl GridPlace {
    fn fit(rows: usize, cols: usize, area: Area) -> GridPlace {
        // One cell's width of guides on every side.
        let pitch = (area.w / (cols + 2) as f32).min(area.h / (rows + 2) as f32).min(MAX_PITCH);
        let left = area.x + (area.w - pitch * (cols + 2) as f32) / 2.0 + pitch;
        let top = area.top() - (area.h - pitch * (rows + 2) as f32) / 2.0 - pitch;
        GridPlace { rows, cols, left, top, pitch }
    }

    fn center(&self, row: usize, col: usize) -> (f32, f32) {
        (self.left + (col as f32 + 0.5) * self.pitch, self.top - (row as f32 + 0.5) * self.pitch)
    }

    /// Baseline centring capitals of `font` at `size` in row `row` (-1 and `rows`: the guides).
    fn baseline(&self, row: isize, font: Font, size: f32) -> f32 {
        self.top - (row + 1) as f32 * self.pitch + (self.pitch - font.cap_height() * size / 1000.0) / 2.0
    }
}

/// The letter size a new book's grids print at on `trim`.
pub fn printed_letter_size(spec: BookSpec, trim: Trim) -> f32 {
    let plan = frame_plan(spec.pages as usize);
    let area = grid_area(plan.layout(trim).body(plan.first_body));
    letter_size(GridPlace::fit(spec.rows as usize, spec.cols as usize, area).pitch)
}

/// A framed puzzle page's room for its grid and guides: below the heading.
fn grid_area(body: Area) -> Area {
    body.shrink(PUZZLE_HEADING, 0.0)
}

/// Refuses a shape whose letters would print below [`MIN_LETTER_PT`] on `trim`, saying
/// which trims fit it and how large a grid fits this trim.
pub fn check_letter_size(spec: BookSpec, trim: Trim) -> Result<(), String> {
    let size = printed_letter_size(spec, trim);
    if size >= MIN_LETTER_PT {
        return Ok(());
    }
    let fits = |rows: u32, cols: u32, t: Trim| printed_letter_size(BookSpec { rows, cols, ..spec }, t) >= MIN_LETTER_PT;
    let trims: Vec<&str> =
        TrimName::ALL.into_iter().filter(|&n| fits(spec.rows, spec.cols, Trim::Named(n))).map(|n| n.as_str()).collect();
    let rows = (3..spec.rows).rev().find(|&r| fits(r, spec.cols, trim));
    let cols = (3..spec.cols).rev().find(|&c| fits(spec.rows, c, trim));
    let mut options = Vec::new();
    if !trims.is_empty() {
        options.push(format!("trim {}", trims.join(" or ")));
    }
    if let Some(r) = rows {
        options.push(format!("at most {r} rows of {} on {}", spec.cols, trim.label()));
    }
    if let Some(c) = cols {
        options.push(format!("at most {c} columns of {} rows on {}", spec.rows, trim.label()));
    }
    Err(format!(
        "{} x {} letters would print at {size:.1} pt on trim {}, below the {MIN_LETTER_PT} pt minimum; {} fits",
        spec.rows,
        spec.cols,
        trim.label(),
        if options.is_empty() { "a smaller grid".to_string() } else { options.join(", or ") }
    ))
}

/// The renderers of a book's interior, by version. A book is always served by the one it
/// was printed with (its `interior_version`), so the interior hash in a print run's
/// manifest stays the hash of every later download of the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteriorVersion {
    /// Every page drawn on its own and compressed by miniz: books printed before version 2.
    V1 = 1,
    /// Each page's guides and footer trace drawn once as a form for right-hand pages and
    /// one for left-hand pages, a grid row one string, Huffman-only compression: the same
    /// page to the eye, half the bytes and several times faster.
    V2 = 2,
    /// Version 2 with its prose (title page, answer help, answer key) set by the
    /// typesetter's total fit instead of filling each line in turn.
    V3 = 3,
    /// The book frame every book product shares: how to play on page 3, the puzzles from
    /// page 5 headed "Puzzle N", footers with the physical page number.
    V4 = 4,
}

impl InteriorVersion {
    /// The renderer new books are printed with.
    pub const CURRENT: InteriorVersion = InteriorVersion::V4;
    pub(crate) const ALL: [InteriorVersion; 4] =
        [InteriorVersion::V1, InteriorVersion::V2, InteriorVersion::V3, InteriorVersion::V4];

    pub fn number(self) -> u32 {
        self as u32
    }

    pub fn from_number(n: i64) -> Option<InteriorVersion> {
        InteriorVersion::ALL.into_iter().find(|v| i64::from(v.number()) == n)
    }

    /// The number at the foot of puzzle `puzzle`'s page: the puzzle's own number in
    /// versions 1 to 3, the physical page in the book frame.
    pub fn printed_page(self, puzzle: u32) -> u32 {
        match self {
            InteriorVersion::V1 | InteriorVersion::V2 | InteriorVersion::V3 => puzzle,
            InteriorVersion::V4 => frame_plan(0).first_body as u32 + puzzle - 1,
        }
    }

    /// How the version breaks its prose into lines (its cover's and answer key's too).
    pub fn prose(self) -> Breaking {
        match self {
            InteriorVersion::V1 | InteriorVersion::V2 => Breaking::FirstFit,
            InteriorVersion::V3 | InteriorVersion::V4 => Breaking::Optimal,
        }
    }
}

/// The interior drawn by renderer `version` (the book frame from version 4).
pub fn book_pdf(book: &WordBook, serial: &str, opts: &PrintOptions, version: InteriorVersion) -> Vec<u8> {
    if version == InteriorVersion::V4 {
        return framed_pdf(book, serial, opts, version.prose());
    }
    let total = interior_pages(book.plan.pages as u32, version);
    let layout = Layout::new(opts.trim, total);
    let printed = printed_serial(serial);
    let trace = format!("{} - serial {printed}", opts.title);
    let mut doc = Document::new();
    doc.set_title(&format!("{} {printed}", opts.title));
    let c = doc.add_page(layout.size);
    title_page(c, &layout, &book.plan, &printed, opts, version.prose());
    layout.footer(c, 1, "", &trace);
    let c = doc.add_page(layout.size);
    answer_help_page(c, &layout, serial, &printed, opts, version.prose());
    layout.footer(c, 2, "", &trace);
    // Versions 2 and 3 draw the puzzle pages' furniture once a side; version 1 page by page.
    if version == InteriorVersion::V1 {
        for (i, page) in book.pages.iter().enumerate() {
            let n = FRONT_PAGES + 1 + i;
            let c = doc.add_page(layout.size);
            grid(c, page, GridPlace::fit(page.rows(), page.cols(), layout.body(n)), None);
            layout.footer(c, n, &format!("Page {}", i + 1), &trace);
        }
    } else {
        grid_pages(&mut doc, &layout, &book.pages, &trace);
    }
    for n in FRONT_PAGES + book.pages.len() + 1..=total {
        let c = doc.add_page(layout.size);
        crate::render::frame::notes_page(c, layout.body(n));
        layout.footer(c, n, "", &trace);
    }
    doc.finish()
}

/// The interior in the book frame: the answer help on the copyright page, the rules on
/// page 3, a grid a page headed with its number; what every page repeats (the guides, the
/// trace) is drawn once a side as in version 2.
fn framed_pdf(book: &WordBook, serial: &str, opts: &PrintOptions, prose: Breaking) -> Vec<u8> {
    let printed = printed_serial(serial);
    let rules = title_intro(&book.plan);
    let stuck = vec![format!(
        "Each copy's answer is filed under its serial number, {printed}: page 2 says where to look it up."
    )];
    let (rows, cols) = (book.plan.mask.rows, book.plan.mask.cols);
    let pages = &book.pages;
    let book = frame::Book {
        front: frame::Front {
            title: &opts.title,
            subtitle: capitalised(&pages_phrase(&book.plan)),
            imprint: &opts.imprint,
            notes: Vec::new(),
            how_to_play: Some(frame::HowToPlay { rules: &rules, lists: vec![("Stuck?", stuck)] }),
            answer_help: Some(Box::new(|c, room| {
                let y = room.top() - room.h * 0.2;
                answer_help(c, room, y, |_| room.y, serial, &printed, opts, prose)
            })),
        },
        body: frame::Run {
            pages: pages.len(),
            draw: Box::new(|c, area, i| {
                let heading = Style::new(Font::SansBold, HEADING_SIZE);
                c.text_centered(heading, area.center_x(), area.top() - HEADING_SIZE, &format!("Puzzle {}", i + 1));
                let place = GridPlace::fit(rows, cols, grid_area(area));
                letters(c, &pages[i], &place);
            }),
            furniture: Some(Box::new(|c, area| guides(c, &GridPlace::fit(rows, cols, grid_area(area))))),
        },
        solutions: None,
        trace: format!("{} - serial {printed}", opts.title),
        output: Options { compression: Compression::Huffman, compact: true },
    };
    book.pdf(opts.trim, prose)
}

/// "200 pages of …" as a line of its own.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A page's letters at `place`, a row one string, cells outside its shape as spaces.
fn letters(c: &mut Canvas, page: &WordPage, place: &GridPlace) {
    let (rows, cols) = (place.rows, place.cols);
    let size = letter_size(place.pitch);
    let mut text = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        text.extend((0..cols).map(|col| page.letter(r as isize, col as isize).unwrap_or(b' ')));
    }
    let y = place.baseline(0, GRID_FONT, size);
    c.letter_rows(Style::new(GRID_FONT, size), place.left, y, place.pitch, cols, text);
}

/// The puzzle pages as version 2 draws them: what every right-hand (left-hand) page
/// repeats, the guides around the grid and the trace in the footer, is one form; a page
/// shows its form, its letters (a row one string, holes as spaces) and its number.
fn grid_pages(doc: &mut Document, layout: &Layout, pages: &[WordPage], trace: &str) {
    doc.set_options(Options { compression: Compression::Huffman, compact: true });
    let Some(first) = pages.first() else { return };
    let (rows, cols) = (first.rows(), first.cols());
    // Right-hand pages are odd: the first puzzle page is one, the second is not.
    let furniture = [FRONT_PAGES + 1, FRONT_PAGES + 2].map(|n| {
        let (form, c) = doc.add_form(layout.size);
        guides(c, &GridPlace::fit(rows, cols, layout.body(n)));
        layout.footer_parts(c, n, None, Some(trace));
        form
    });
    for (i, page) in pages.iter().enumerate() {
        let n = FRONT_PAGES + 1 + i;
        let c = doc.add_page(layout.size);
        c.form(furniture[i % 2]);
        letters(c, page, &GridPlace::fit(rows, cols, layout.body(n)));
        layout.footer_parts(c, n, Some(&format!("Page {}", i + 1)), None);
    }
}

/// The answer key: one page naming the word's page, row, column and direction, with that
/// page's grid and the word bold, dark red and outlined (it reads in black and white).
pub fn answer_pdf(book: &WordBook, serial: &str, opts: &PrintOptions, version: InteriorVersion) -> Vec<u8> {
    let layout = Layout::new(opts.trim, 1);
    let printed = printed_serial(serial);
    let a = &book.answer;
    let mut doc = Document::new();
    doc.set_title(&format!("{} {printed} - answer key", opts.title));
    let c = doc.add_page(layout.size);
    let area = layout.body(1);
    let mid = area.center_x();
    let heading = format!("{} - Answer Key", opts.title);
    let size = fit_size(Font::SansBold, &heading, 20.0, area.w);
    let mut y = area.top() - size;
    c.text_centered(Style::new(Font::SansBold, size), mid, y, &heading);
    y -= 16.0;
    c.text_centered(Style::new(Font::Sans, 10.0), mid, y, &format!("Serial {printed}"));
    let line = answer_sentence(a, version);
    let style = Style::new(Font::Sans, 11.0);
    for text in centred_lines(&line, style, area.w, version.prose()) {
        y -= 16.0;
        c.text_centered(style, mid, y, &text);
    }
    let room = Area { h: y - 8.0 - area.y, ..area };
    let page = &book.pages[a.page as usize - 1];
    grid(c, page, GridPlace::fit(page.rows(), page.cols(), room), Some(&a.cells0()));
    let foot = format!("Page {} of the book", version.printed_page(a.page));
    layout.footer(c, 1, &foot, &format!("{} - serial {printed}", opts.title));
    doc.finish()
}

/// The grouped form of a serial that parses, otherwise the text as given.
pub fn printed_serial(serial: &str) -> String {
    Serial::parse(serial).map(Serial::grouped).unwrap_or_else(|_| serial.to_string())
}

/// Where the word is in a book printed by `version`, in a sentence ("The fox is on page 3,
/// row 4, column 7: …"; "on page 21 (puzzle 17)" in the book frame).
pub fn answer_sentence(a: &WordAnswer, version: InteriorVersion) -> String {
    let subject = if a.word == "FOX" { "The fox".to_string() } else { format!("The word {}", a.word) };
    let first = a.word.chars().next().unwrap_or('?');
    let page = match version.printed_page(a.page) {
        same if same == a.page => same.to_string(),
        printed => format!("{printed} (puzzle {})", a.page),
    };
    format!(
        "{subject} is on page {page}, row {}, column {}: the {first} is there, and {} reads {}.",
        a.row,
        a.col,
        a.word,
        direction_words(a.direction)
    )
}

/// The letters as a list ("F, O and X").
pub fn letter_list(letters: &[u8]) -> String {
    let names: Vec<String> = letters.iter().map(|&l| (l as char).to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// What the pages are, for the title page ("200 pages of 32 x 20 letters", "200
/// heart-shaped pages of 24 x 24 letters").
pub fn pages_phrase(plan: &Plan) -> String {
    let kind = match &plan.shape {
        Shape::Rectangle => String::new(),
        Shape::Mask(_) => "shaped ".to_string(),
        named => format!("{}-shaped ", named.name().unwrap_or("shaped")),
    };
    format!("{} {kind}pages of {} x {} letters", plan.pages, plan.mask.rows, plan.mask.cols)
}

fn title_page(c: &mut Canvas, layout: &Layout, plan: &Plan, printed: &str, opts: &PrintOptions, prose: Breaking) {
    let area = layout.body(1);
    let mid = area.center_x();
    let size = fit_size(Font::SansBold, &opts.title, 36.0, area.w);
    let mut y = area.top() - area.h * 0.22;
    c.text_centered(Style::new(Font::SansBold, size), mid, y, &opts.title);
    if let Some(author) = &opts.imprint.author {
        y -= 30.0;
        let size = fit_size(Font::Sans, author, 16.0, area.w);
        c.text_centered(Style::new(Font::Sans, size), mid, y, author);
    }
    y -= 40.0;
    let body = Style::new(Font::Sans, 11.0);
    let intro = title_intro(plan);
    for line in centred_lines(&intro, body, area.w.min(5.0 * INCH), prose) {
        c.text_centered(body, mid, y, &line);
        y -= 16.0;
    }
    let shape = pages_phrase(plan);
    c.text_centered(Style::new(Font::Sans, 10.0).color(Rgb::GREY), mid, y - 12.0, &shape);
    let y = area.y + area.h * 0.15;
    c.text_centered(Style::new(Font::Sans, 9.0).color(Rgb::GREY), mid, y + 24.0, "SERIAL NUMBER");
    c.text_centered(Style::new(Font::Mono, 16.0), mid, y, printed);
}

/// The title page's promise.
fn title_intro(plan: &Plan) -> String {
    let word = String::from_utf8_lossy(&plan.word);
    let rest = if plan.word == b"FOX" { "Every other page is free of foxes." } else { "No other page holds it." };
    let mut intro = format!(
        "The word {word} appears exactly once in this book. It may read across, down or diagonally, forwards or \
         backwards. {rest} Happy hunting!"
    );
    if plan.letters.iter().any(|l| !plan.word.contains(l)) {
        intro.push_str(&format!(" The pages are made of the letters {}.", letter_list(&plan.letters)));
    }
    intro
}

/// The back of the title page in versions 1 to 3: how to find the answer, the copyright
/// notice at the foot of the page as books print it on the title's back.
fn answer_help_page(
    c: &mut Canvas,
    layout: &Layout,
    serial: &str,
    printed: &str,
    opts: &PrintOptions,
    prose: Breaking,
) {
    let area = layout.body(2);
    let y = area.top() - area.h * 0.3;
    answer_help(c, area, y, |c| copyright_notice(c, area, &opts.imprint), serial, printed, opts, prose);
}

/// How to find the answer, centred in `area` from `y` down: the serial, the lookup address
/// and its QR code as large as fits above what `below` draws (it returns its top).
#[allow(clippy::too_many_arguments)]
fn answer_help(
    c: &mut Canvas,
    area: Area,
    mut y: f32,
    below: impl FnOnce(&mut Canvas) -> f32,
    serial: &str,
    printed: &str,
    opts: &PrintOptions,
    prose: Breaking,
) {
    let mid = area.center_x();
    let head = Style::new(Font::SansBold, 14.0);
    let body = Style::new(Font::Sans, 10.0);
    c.text_centered(head, mid, y, "Stuck? Find the answer");
    y -= 24.0;
    let text = if opts.lookup_url.is_empty() {
        "The answer to this book is filed under its serial number; the publisher looks it up for you.".to_string()
    } else {
        "The answer to this book is filed under its serial number. Look it up at the address below, or scan the code."
            .to_string()
    };
    for line in centred_lines(&text, body, area.w.min(4.5 * INCH), prose) {
        c.text_centered(body, mid, y, &line);
        y -= 14.0;
    }
    y -= 12.0;
    c.text_centered(Style::new(Font::Mono, 14.0), mid, y, printed);
    let floor = below(c);
    if opts.lookup_url.is_empty() {
        return;
    }
    y -= 22.0;
    let mono = Style::new(Font::Mono, 9.0);
    for line in centred_lines(&opts.lookup_url, mono, area.w, prose) {
        c.text_centered(mono, mid, y, &line);
        y -= 12.0;
    }
    let link = lookup_link(&opts.lookup_url, serial);
    let side = (1.25 * INCH).min(y - floor - 12.0);
    if side > 0.5 * INCH {
        qr(c, &link, mid - side / 2.0, y - 8.0 - side, side);
    }
}

/// The address a QR code leads to: the lookup address with the serial.
pub fn lookup_link(lookup_url: &str, serial: &str) -> String {
    let sep = if lookup_url.contains('?') { '&' } else { '?' };
    format!("{lookup_url}{sep}serial={serial}")
}

/// A QR code for `text` as black squares, `side` points wide, lower-left corner at (x, y);
/// nothing if the text is too long for a QR code.
fn qr(c: &mut Canvas, text: &str, x: f32, y: f32, side: f32) {
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else { return };
    let n = code.width();
    let colors = code.to_colors();
    let m = side / n as f32;
    for row in 0..n {
        let dark = |col: usize| colors[row * n + col] == qrcode::Color::Dark;
        for (s, e) in crate::render::page::runs(n, dark) {
            let top = y + side - row as f32 * m;
            c.rect(x + s as f32 * m, top - m, (e - s) as f32 * m, m, Paint::Fill(Rgb::BLACK));
        }
    }
}

/// Draws `page` at `place` with guide numbers (1-based rows and columns, as the answer
/// names them) around it; cells outside the page's shape stay blank; `word` cells (0-based)
/// are bold, dark red and outlined.
fn grid(c: &mut Canvas, page: &WordPage, place: GridPlace, word: Option<&[(usize, usize)]>) {
    let (rows, cols) = (place.rows, place.cols);
    let pitch = place.pitch;
    let size = letter_size(pitch);
    let is_word = |r: usize, col: usize| word.is_some_and(|w| w.contains(&(r, col)));
    let letter = |r: usize, col: usize| page.letter(r as isize, col as isize).map(char::from);
    let mut cells: Vec<Option<char>> = Vec::with_capacity(cols);
    for r in 0..rows {
        let y = place.baseline(r as isize, GRID_FONT, size);
        cells.clear();
        cells.extend((0..cols).map(|col| letter(r, col).filter(|_| !is_word(r, col))));
        c.cell_row(Style::new(GRID_FONT, size), place.left, y, pitch, &cells);
    }
    guides(c, &place);
    if let Some(w) = word.filter(|w| !w.is_empty()) {
        for &(r, col) in w {
            let y = place.baseline(r as isize, FOX_FONT, size);
            let mut cells = vec![None; cols];
            cells[col] = letter(r, col);
            c.cell_row(Style::new(FOX_FONT, size).color(FOX_RED), place.left, y, pitch, &cells);
        }
        let (first, last) = (w[0], w[w.len() - 1]);
        let (a, b) = (place.center(first.0, first.1), place.center(last.0, last.1));
        c.stadium(a, b, pitch * 0.46, (pitch * 0.08).max(0.8), Rgb::BLACK);
    }
}

/// Column numbers above and below the grid, row numbers left and right of it.
fn guides(c: &mut Canvas, place: &GridPlace) {
    let p = place.pitch;
    let size = (p * 0.42).min(9.0);
    let style = Style::new(GRID_FONT, size).color(Rgb::GREY);
    let right = place.left + place.cols as f32 * p;
    let below = place.rows as isize;
    for col in 0..place.cols {
        let label = (col + 1).to_string();
        let x = place.left + (col as f32 + 0.5) * p;
        c.text_centered(style, x, place.baseline(-1, GRID_FONT, size), &label);
        c.text_centered(style, x, place.baseline(below, GRID_FONT, size), &label);
    }
    for row in 0..place.rows {
        let label = (row + 1).to_string();
        let y = place.baseline(row as isize, GRID_FONT, size);
        c.text_centered(style, place.left - p / 2.0, y, &label);
        c.text_centered(style, right + p / 2.0, y, &label);
    }
}

#[cfg(test)]
mod tests;
