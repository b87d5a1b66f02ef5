//! A dictionary as pages: a title page, a table of contents, a preface set full width,
//! then the entries in two justified columns at a small size, a section per initial
//! letter, with running heads (guide words) and page numbers.
//!
//! Columns are filled on a baseline grid, an entry's lines kept together where a split
//! would leave one line alone at a column's foot or head, a section's heading kept with
//! the first lines of its first entry, and the last page's two columns balanced.

use super::columns::{both_heads, fill, head, Block, Slot};
use super::entries::{self, Entry, EntryError, Placed, Section};
use super::hyphenate::Language;
use super::pages::{line_marks, Own, Page, PageKind};
pub use super::pages::{Mark, Typeset};
use super::paragraph::{self, Paragraph, Shape, Span};
use crate::puzzles::monitor::{Cancelled, Monitor, Unmonitored};
use crate::render::fonts::serif::Style;
use crate::render::print::padded_pages;

/// What is printed.
#[derive(Clone, Debug, Default)]
pub struct Book {
    pub title: String,
    pub author: String,
    /// On the title page's back, those given: the copyright line and the ISBN (checked and
    /// normalised, as `render::print::Imprint` keeps them).
    pub copyright: Option<String>,
    pub isbn: Option<String>,
    /// The preface's paragraphs (none: no preface).
    pub preface: Vec<String>,
    pub entries: Vec<Entry>,
    /// Hyphenation patterns, and the collation the entries are sorted by.
    pub language: Language,
}

impl Book {
    /// Checks the title, author and preface for length and for characters the font lacks:
    /// the field at fault (`title`, `author`, `preface`) and why.
    pub fn check_front(&self) -> Result<(), (&'static str, String)> {
        let copyright = self.copyright.as_deref().unwrap_or_default();
        let fields = [
            ("title", &*self.title, MAX_TITLE_CHARS),
            ("author", &*self.author, MAX_TITLE_CHARS),
            ("copyright", copyright, crate::render::print::MAX_COPYRIGHT),
        ];
        let preface = self.preface.iter().map(|p| ("preface", p.as_str(), entries::MAX_PARAGRAPH_CHARS));
        for (field, text, max) in fields.into_iter().chain(preface) {
            if let Some(n) = entries::too_long(text, max) {
                return Err((field, format!("{n} characters long; at most {max} are printed")));
            }
            let mut lacking = crate::render::fonts::serif::missing(text);
            lacking.retain(|c| !c.is_whitespace());
            if !lacking.is_empty() {
                return Err((field, format!("the font has no glyph for {}", entries::list_chars(&lacking))));
            }
        }
        Ok(())
    }
}

/// Characters of the title, or of the author: the lines of the title page they are set on.
pub const MAX_TITLE_CHARS: usize = 200;

/// Where the running heads go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Heads {
    /// The first headword of a left-hand page at its outer (left) edge, the last of a
    /// right-hand page at its outer (right) edge, as a dictionary's guide words.
    #[default]
    Outer,
    /// Both on every page: the first at the left, the last at the right.
    Both,
}

/// The page design.
#[derive(Clone, Copy, Debug)]
pub struct Design {
    /// Trimmed page (width, height) in points.
    pub page: (f32, f32),
    /// Margins in points; the inner one (at the binding) depends on the page count.
    pub outside: f32,
    pub top: f32,
    pub bottom: f32,
    pub inner: fn(usize) -> f32,
    /// The entries' size and baseline distance, the gap between the columns.
    pub size: f32,
    pub leading: f32,
    pub gap: f32,
    /// The hanging indent of an entry's lines after its first.
    pub hang: f32,
    /// The preface's size and baseline distance.
    pub text_size: f32,
    pub text_leading: f32,
    pub heads: Heads,
    /// Pad the book with ruled "Notes" pages to an even count of at least 24, as the book
    /// frame does (else to an even count with a blank page, as dictionaries set before
    /// layout version 4).
    pub notes: bool,
}

/// Points per inch.
const INCH: f32 = 72.0;

impl Design {
    /// The template's design ("Latex Dictionary Template"): 0.75 in margins and a
    /// 0.2 in binding offset (the inner margin then `inner(pages)`), entries at 8/9.5 pt
    /// (LaTeX's \footnotesize in a 10 pt book) in two columns 10 pt apart (its
    /// \columnsep), a hanging indent of 1.5 em, the preface at 10/12 pt.
    pub fn template(page: (f32, f32), inner: fn(usize) -> f32) -> Design {
        Design {
            page,
            outside: 0.75 * INCH,
            top: 0.75 * INCH,
            bottom: 0.75 * INCH,
            inner,
            size: 8.0,
            leading: 9.5,
            gap: 10.0,
            hang: 12.0,
            text_size: 10.0,
            text_leading: 12.0,
            heads: Heads::Outer,
            notes: false,
        }
    }
}

/// The template's inner margin: 0.75 in plus the 0.2 in binding offset.
pub fn template_inner(_pages: usize) -> f32 {
    0.95 * INCH
}

/// How well the text was set, for comparing with TeX.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(as = TypesetReport)]
pub struct Report {
    pub entries: usize,
    pub pages: usize,
    /// Lines set (entries and preface).
    pub lines: usize,
    /// Justified lines with badness above 1000 (what TeX reports as underfull).
    pub underfull: usize,
    /// Lines wider than their column.
    pub overfull: usize,
    /// Lines ending with a hyphen.
    pub hyphens: usize,
    /// Words wider than a column, broken between letters.
    pub split_words: usize,
    /// Paragraphs that needed emergency stretch.
    pub emergency: usize,
}

impl Report {
    /// The lines of `p` counted: lines, underfull, overfull, hyphens, split words and
    /// whether it needed emergency stretch (pages and entries left at 0).
    fn of(p: &Paragraph) -> Report {
        Report {
            lines: p.lines.len(),
            underfull: p.lines.iter().filter(|l| l.justified && l.badness > 1000.0).count(),
            overfull: p.overfull(),
            hyphens: p.lines.iter().filter(|l| l.hyphenated).count(),
            split_words: p.split_words,
            emergency: (p.pass >= 3) as usize,
            ..Report::default()
        }
    }

    fn add(&mut self, other: &Report) {
        self.lines += other.lines;
        self.underfull += other.underfull;
        self.overfull += other.overfull;
        self.hyphens += other.hyphens;
        self.split_words += other.split_words;
        self.emergency += other.emergency;
    }
}

/// Why a book was not laid out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The first entry at fault.
    #[error("{0}")]
    Entry(EntryError),
    /// The monitor asked to stop.
    #[error("cancelled")]
    Cancelled,
}

impl From<Cancelled> for Stopped {
    fn from(_: Cancelled) -> Self {
        Stopped::Cancelled
    }
}

/// Lays `book` out. Entries are checked as they are set: the first one at fault (as
/// given) is the error.
pub fn typeset(book: &Book, design: &Design) -> Result<Typeset, EntryError> {
    typeset_monitored(book, design, &mut Unmonitored).map_err(|e| match e {
        Stopped::Entry(e) => e,
        Stopped::Cancelled => unreachable!("an unmonitored layout is never cancelled"),
    })
}

/// [`typeset`], reporting the entries set (of all) to `monitor` as it goes and stopping
/// when it says so.
pub fn typeset_monitored(book: &Book, design: &Design, monitor: &mut dyn Monitor) -> Result<Typeset, Stopped> {
    let placed = entries::placed(&book.entries);
    // The inner margin depends on the page count, the page count on the measure: lay out
    // until they agree (a wider margin only adds pages, so this ends). The first time, the
    // entries are set in the order given while this thread sorts them.
    let mut inner = (design.inner)(0);
    let (set, sections) = set_all(&placed, book, design, inner, monitor, || entries::sort(&placed, book.language))?;
    let mut t = lay_out(book, &sections, design, inner, set);
    for _ in 0..4 {
        let wanted = (design.inner)(t.pages.len());
        if wanted <= inner {
            break;
        }
        inner = wanted;
        let (set, ()) = set_all(&placed, book, design, inner, monitor, || ())?;
        t = lay_out(book, &sections, design, inner, set);
    }
    Ok(t)
}

/// Page geometry with a given inner margin.
struct Geometry<'d> {
    d: &'d Design,
    inner: f32,
}

impl Geometry<'_> {
    /// (x0, y0, x1, y1) inside the margins of page `n`.
    fn area(&self, n: usize) -> (f32, f32, f32, f32) {
        let (w, h) = self.d.page;
        let left = if n % 2 == 1 { self.inner } else { self.d.outside };
        let right = if n % 2 == 1 { self.d.outside } else { self.inner };
        (left, self.d.bottom, w - right, h - self.d.top)
    }

    fn width(&self) -> f32 {
        self.d.page.0 - self.inner - self.d.outside
    }

    /// The width of each of the dictionary's two columns.
    fn column(&self) -> f32 {
        (self.width() - self.d.gap) / 2.0
    }

    /// Top of the body (below the running head) and its bottom (above the folio).
    fn body(&self, n: usize) -> (f32, f32) {
        let a = self.area(n);
        (a.3 - 2.0 * self.d.leading, a.1 + 2.0 * self.d.leading)
    }

    /// Grid lines of `leading` with text of `size` in the body.
    fn rows(&self, size: f32, leading: f32) -> usize {
        let (top, bottom) = self.body(1);
        (((top - bottom - size) / leading).floor() as usize) + 1
    }
}

/// The shape of an entry's paragraph: a column of the page with an inner margin `inner`.
fn entry_shape(book: &Book, d: &Design, inner: f32) -> Shape {
    Shape::new(d.size, Geometry { d, inner }.column(), [0.0, d.hang], Some(book.language))
}

/// The book laid out: `set` holds the entries' paragraphs in the order given.
fn lay_out(book: &Book, sections: &[Section], d: &Design, inner: f32, set: Vec<Set>) -> Typeset {
    let g = Geometry { d, inner };
    let width = g.width();
    let column = g.column();
    let mut report = Report { entries: book.entries.len(), ..Report::default() };

    // The dictionary's flow, in dictionary order.
    let mut set: Vec<Option<_>> = set.into_iter().map(Some).collect();
    let mut blocks = Vec::with_capacity(sections.len() + set.len());
    let mut source = 0;
    for s in sections {
        blocks.push(Block::Heading(s.letter.clone()));
        for p in &s.entries {
            let (para, headword, tally) = set[p.index].take().expect("a paragraph an entry, placed once");
            report.add(&tally);
            blocks.push(Block::Entry { headword, para, source });
            source += 1;
        }
    }
    let rows = g.rows(d.size, d.leading);
    let mut dict_pages: Vec<[Vec<Slot>; 2]> = Vec::new();
    let mut pos = (0usize, 0usize);
    while pos.0 < blocks.len() {
        let start = pos;
        let (a, p1) = fill(&blocks, pos, rows);
        let (b, p2) = fill(&blocks, p1, rows);
        pos = p2;
        if pos.0 >= blocks.len() {
            // The last page: the shortest columns that still hold what is left.
            let balanced = (1..=rows).find_map(|cap| {
                let (a, p1) = fill(&blocks, start, cap);
                let (b, p2) = fill(&blocks, p1, cap);
                (p2.0 >= blocks.len()).then_some([a, b])
            });
            dict_pages.push(balanced.unwrap_or([a, b]));
        } else {
            dict_pages.push([a, b]);
        }
    }

    // The preface's lines, full width: (paragraph, line).
    let mut preface: Vec<Paragraph> = Vec::new();
    let mut preface_lines: Vec<(usize, usize)> = Vec::new();
    let mut preface_paras: Vec<(usize, usize)> = Vec::new();
    for (i, text) in book.preface.iter().enumerate() {
        let indent = if i == 0 { 0.0 } else { 1.5 * d.text_size };
        let shape = Shape::new(d.text_size, width, [indent, 0.0], Some(book.language));
        let para =
            paragraph::set(&[Span::new(Style::Regular, text.split_whitespace().collect::<Vec<_>>().join(" "))], &shape);
        report.add(&Report::of(&para));
        preface_paras.push((preface_lines.len(), para.lines.len()));
        preface_lines.extend((0..para.lines.len()).map(|l| (i, l)));
        preface.push(para);
    }
    // The texts: the entries' paragraphs in order (an entry block's `source`), the
    // preface's, then the book's own.
    let preface_source = source as usize;
    let mut own = Own { source: (preface_source + preface.len()) as u32, text: String::new() };
    let text_rows = g.rows(d.text_size, d.text_leading);
    // The heading "Preface" takes four lines of the first page.
    let heading_rows = 4;
    let mut preface_pages: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    let mut first = true;
    while at < preface_lines.len() {
        let cap = if first { text_rows.saturating_sub(heading_rows) } else { text_rows };
        let mut end = (at + cap).min(preface_lines.len());
        // Neither a paragraph's first line alone at a page's foot nor its last at the top.
        if end < preface_lines.len() {
            if let Some(&(s, n)) = preface_paras.iter().find(|(s, n)| *s < end && end < s + n) {
                let k = end - s;
                if n - k < 2 && k >= 3 {
                    end -= 2 - (n - k);
                } else if k < 2 && end - at > k {
                    end = s;
                }
            }
        }
        preface_pages.push((at, end));
        at = end;
        first = false;
    }

    // Page numbers: title, its back, contents, the preface and the dictionary each from a
    // right-hand page.
    let toc_items = 1 + sections.len();
    let toc_rows = text_rows.saturating_sub(heading_rows);
    let toc_pages = toc_items.div_ceil(toc_rows.max(1)).max(1);
    let odd = |n: usize| if n % 2 == 1 { n } else { n + 1 };
    let preface_start = odd(3 + toc_pages);
    let dict_start = if preface_pages.is_empty() { preface_start } else { odd(preface_start + preface_pages.len()) };
    let content = dict_start + dict_pages.len() - 1;
    let total = if d.notes { padded_pages(content) } else { content + content % 2 };

    // Which page each section starts on.
    let mut contents = Vec::new();
    if !preface_pages.is_empty() {
        contents.push(("Preface".to_string(), preface_start));
    }
    for (pi, cols) in dict_pages.iter().enumerate() {
        for slot in cols.iter().flatten() {
            if let Block::Heading(letter) = &blocks[slot.block] {
                contents.push((letter.clone(), dict_start + pi));
            }
        }
    }

    let mut pages: Vec<Page> = (1..=total)
        .map(|number| Page {
            number,
            kind: PageKind::Blank,
            marks: Vec::new(),
            area: g.area(number),
            headwords: Vec::new(),
            heads: (None, None),
            columns: Vec::new(),
        })
        .collect();

    // Title page.
    {
        let p = &mut pages[0];
        p.kind = PageKind::Title;
        let (x0, y0, x1, y1) = p.area;
        let mut y = y1 - (y1 - y0) / 4.0;
        for line in wrap(&book.title, Style::Bold, 20.0, x1 - x0) {
            p.marks.push(own.centred(Style::Bold, 20.0, (x0 + x1) / 2.0, y, &line));
            y -= 26.0;
        }
        let mut y = y0 + (y1 - y0) / 3.0;
        for line in wrap(&book.author, Style::Regular, 12.0, x1 - x0) {
            p.marks.push(own.centred(Style::Regular, 12.0, (x0 + x1) / 2.0, y, &line));
            y -= 16.0;
        }
    }

    // The title page's back: the copyright line and the ISBN at its foot, when given.
    {
        let p = &mut pages[1];
        let (x0, y0, x1, _) = p.area;
        let isbn = book.isbn.as_ref().map(|isbn| format!("ISBN {isbn}"));
        let lines: Vec<String> =
            book.copyright.iter().flat_map(|line| wrap(line, Style::Regular, 9.0, x1 - x0)).chain(isbn).collect();
        let mut y = y0 + 4.0 + 12.0 * lines.len() as f32;
        for line in lines {
            y -= 12.0;
            p.marks.push(own.mark(Style::Regular, 9.0, x0, y, &line));
        }
    }

    // Contents.
    for (i, chunk) in contents.chunks(toc_rows.max(1)).enumerate() {
        let n = 3 + i;
        let p = &mut pages[n - 1];
        p.kind = PageKind::Contents;
        let (x0, _, x1, _) = p.area;
        let (top, _) = g.body(n);
        let mut y = top - d.text_size;
        if i == 0 {
            p.marks.push(own.mark(Style::Bold, 16.0, x0, top - 16.0, "Contents"));
        }
        y -= if i == 0 { heading_rows as f32 * d.text_leading } else { 0.0 };
        for (label, page) in chunk {
            let number = page.to_string();
            let nw = Style::Regular.width(&number, d.text_size);
            let lw = Style::Regular.width(label, d.text_size);
            p.marks.push(own.mark(Style::Regular, d.text_size, x0, y, label));
            // Dot leaders between the label and the number, on a grid shared by all rows
            // so that the dots line up.
            let dot = Style::Regular.width(" .", d.text_size);
            let first = ((lw + dot) / dot).ceil() as usize;
            let last = ((x1 - x0 - nw - dot) / dot).floor() as usize;
            if last > first {
                let leader = " .".repeat(last - first);
                p.marks.push(own.mark(Style::Regular, d.text_size, x0 + first as f32 * dot, y, &leader));
            }
            p.marks.push(own.mark(Style::Regular, d.text_size, x1 - nw, y, &number));
            y -= d.text_leading;
        }
    }

    // Preface.
    for (i, &(from, to)) in preface_pages.iter().enumerate() {
        let n = preface_start + i;
        let p = &mut pages[n - 1];
        p.kind = PageKind::Preface;
        let (x0, ..) = p.area;
        let (top, _) = g.body(n);
        let mut row = 0;
        if i == 0 {
            p.marks.push(own.mark(Style::Bold, 16.0, x0, top - 16.0, "Preface"));
            row = heading_rows;
        }
        for &(para, line) in &preface_lines[from..to] {
            let y = top - d.text_size - row as f32 * d.text_leading;
            let para_source = (preface_source + para) as u32;
            let para = &preface[para];
            p.marks.extend(line_marks(para, para_source, &para.lines[line], (x0, y), d.text_size));
            row += 1;
        }
    }

    // The dictionary.
    for (pi, cols) in dict_pages.iter().enumerate() {
        let n = dict_start + pi;
        let p = &mut pages[n - 1];
        p.kind = PageKind::Dictionary;
        let (x0, ..) = p.area;
        let (top, _) = g.body(n);
        // The baseline of the column's row 0 (row `k`'s is `top - k * leading`, as
        // [`Typeset::marks`] finds a line's).
        let top = top - d.size;
        // A mark a slot (lines or heading), and the running heads, rule and folio: made at
        // once, the page's marks are not moved as they grow (that was a third of this loop's
        // time).
        p.marks.reserve_exact(cols.iter().map(Vec::len).sum::<usize>() + 4);
        for (ci, col) in cols.iter().enumerate() {
            let cx = x0 + ci as f32 * (column + d.gap);
            let mut used = 0;
            for slot in col {
                match &blocks[slot.block] {
                    Block::Heading(letter) => {
                        let row = slot.row + slot.count - 2;
                        p.marks.push(own.centred(
                            Style::Bold,
                            12.0,
                            cx + column / 2.0,
                            top - row as f32 * d.leading,
                            letter,
                        ));
                    }
                    Block::Entry { headword, .. } => {
                        if slot.from == 0 {
                            p.headwords.push(headword.clone());
                        }
                        p.marks.push(Mark::Lines {
                            block: slot.block as u32,
                            line: slot.from as u32,
                            count: slot.count as u32,
                            row: slot.row as u32,
                            x: cx,
                            top,
                            size: d.size,
                        });
                    }
                }
                used = slot.row + slot.count;
            }
            p.columns.push(used);
        }
        // Guide words: the first and last headword beginning on the page, or the entry
        // that runs over it.
        let running = cols.iter().flatten().find_map(|s| match &blocks[s.block] {
            Block::Entry { headword, .. } => Some(headword.as_str()),
            _ => None,
        });
        let first = p.headwords.first().map(String::as_str).or(running);
        let last = p.headwords.last().map(String::as_str).or(running);
        let right_hand = n % 2 == 1;
        let (x0, _, x1, _) = p.area;
        p.heads = match d.heads {
            Heads::Outer if right_hand => (None, last.map(|h| head(h, d.size, x1 - x0))),
            Heads::Outer => (first.map(|h| head(h, d.size, x1 - x0)), None),
            Heads::Both => both_heads(first, last, d.size, x1 - x0, d.gap),
        };
    }

    // Notes pages: a heading and lines ruled in a light grey.
    for p in pages.iter_mut().skip(content).filter(|_| d.notes) {
        p.kind = PageKind::Notes;
        let (x0, y0, x1, _) = p.area;
        let (top, _) = g.body(p.number);
        p.marks.push(own.mark(Style::Bold, 16.0, x0, top - 16.0, "Notes"));
        let mut y = top - 16.0 - 28.0;
        while y > y0 + d.size + 10.0 {
            p.marks.push(Mark::Rule { x0, x1, y, width: 0.4, grey: 0.75 });
            y -= 24.0;
        }
    }

    // Running heads, rules under them and page numbers.
    for p in &mut pages {
        let (x0, y0, x1, y1) = p.area;
        let head_y = y1 - d.size;
        if let Some(h) = &p.heads.0 {
            p.marks.push(own.mark(Style::Bold, d.size, x0, head_y, h));
        }
        if let Some(h) = &p.heads.1 {
            p.marks.push(own.mark(Style::Bold, d.size, x1 - Style::Bold.width(h, d.size), head_y, h));
        }
        if p.kind == PageKind::Dictionary {
            p.marks.push(Mark::Rule { x0, x1, y: head_y - 3.0, width: 0.4, grey: 0.0 });
        }
        if !matches!(p.kind, PageKind::Title | PageKind::Blank) {
            p.marks.push(own.centred(Style::Regular, d.size, (x0 + x1) / 2.0, y0 + 2.0, &p.number.to_string()));
        }
    }

    report.pages = pages.len();
    let mut texts = Vec::with_capacity(own.source as usize + 1);
    texts.extend(blocks.iter_mut().filter_map(|b| match b {
        Block::Entry { para, .. } => Some(std::mem::take(&mut para.text)),
        Block::Heading(_) => None,
    }));
    texts.extend(preface.into_iter().map(|p| p.text));
    texts.push(own.text);
    Typeset { pages, texts, contents, report, inner, leading: d.leading, blocks }
}

/// An entry set: its paragraph, its headword as printed and its lines counted.
type Set = (Paragraph, String, Report);

/// The entries' paragraphs, in the order given, set on the cores there are (each
/// paragraph on its own: the same whatever the threads) for a page of inner margin
/// `inner`, `monitor` told how many are set, each with its headword as printed and its
/// lines counted (work done beside the setting rather than after it, on one core); the
/// calling thread meanwhile does `beside`. Each entry is checked as it is set: the error
/// is the first entry at fault as given.
fn set_all<S>(
    placed: &[Placed],
    book: &Book,
    d: &Design,
    inner: f32,
    monitor: &mut dyn Monitor,
    beside: impl FnOnce() -> S,
) -> Result<(Vec<Set>, S), Stopped> {
    let shape = entry_shape(book, d, inner);
    let set = |p: &Placed| {
        let entry = &book.entries[p.index];
        entry.check(p.index).map(|()| {
            let mut spans = entries::spans(entry, p);
            let para = paragraph::set(&spans, &shape);
            let tally = Report::of(&para);
            // The first span is the headword as printed.
            (para, spans.swap_remove(0).text.into_owned(), tally)
        })
    };
    let total = placed.len() as u64;
    let (set, side) =
        crate::parallel::in_parallel_watched_beside(placed, set, |done| monitor.update(done as u64, total), beside)
            .ok_or(Cancelled)?;
    // The first at fault as given is the first in order. Collected in place, in the
    // results' own memory: a vector grown as flatten() fills it passed through every size
    // up to the whole (fresh memory, on this thread, before the pages can be laid out).
    match set.into_iter().collect::<Result<Vec<Set>, EntryError>>() {
        Ok(set) => Ok((set, side)),
        Err(e) => Err(Stopped::Entry(e)),
    }
}

/// `text` in lines no wider than `width` (first fit; a word wider than the width alone).
fn wrap(text: &str, style: Style, size: f32, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if style.width(&format!("{l} {word}"), size) <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}
