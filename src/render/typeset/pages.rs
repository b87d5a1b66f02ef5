//! The typeset book as pages of marks: text runs (pieces of the book's texts, so a line's
//! text is never copied), rules, and an entry's lines on a column's grid, expanded into
//! their runs where the page is drawn.

use super::book::Report;
use super::columns::Block;
use super::paragraph::{Line, Paragraph};
use crate::render::fonts::serif::Style;

/// Something drawn on a page, in points from the page's lower left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// Text with its baseline starting at (`x`, `y`), each space `space` points wide;
    /// `follows` the text mark before it, starting where that one ends (a line's next run).
    Text { style: Style, size: f32, x: f32, y: f32, text: TextRef, space: f32, follows: bool },
    /// A horizontal rule, in black or (`grey` above 0) that grey (1 white).
    Rule { x0: f32, x1: f32, y: f32, width: f32, grey: f32 },
    /// Lines `line..line + count` of an entry's paragraph (the layout's block `block`) at
    /// `size`, their column's edge at `x`, on rows `row..row + count` of a grid whose row
    /// `k` has its baseline at `top - k * leading` (the layout's leading): a text mark a
    /// run of each, made where the page is drawn ([`Typeset::marks`], on the threads that
    /// draw the pages) rather than on the one thread that lays the pages out, which made a
    /// mark a line (17,000 for the 2,000-entry bench, half a megabyte of fresh memory).
    Lines { block: u32, line: u32, count: u32, row: u32, x: f32, top: f32, size: f32 },
}

/// Where a mark's text is: bytes `from..to` of the book's text `source` ([`Typeset::text`]):
/// a paragraph's text serves its lines' marks as it is (a string a mark was most of the
/// allocations of laying out a dictionary).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextRef {
    pub source: u32,
    pub from: u32,
    pub to: u32,
}

/// Text of the book's own (headings, running heads, folios, contents): one of its texts,
/// the last.
pub(super) struct Own {
    pub(super) source: u32,
    pub(super) text: String,
}

impl Own {
    pub(super) fn mark(&mut self, style: Style, size: f32, x: f32, y: f32, text: &str) -> Mark {
        let from = self.text.len() as u32;
        self.text.push_str(text);
        let text = TextRef { source: self.source, from, to: self.text.len() as u32 };
        Mark::Text { style, size, x, y, text, space: style.width(" ", size), follows: false }
    }

    pub(super) fn centred(&mut self, style: Style, size: f32, cx: f32, y: f32, text: &str) -> Mark {
        self.mark(style, size, cx - style.width(text, size) / 2.0, y, text)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    Title,
    Blank,
    Contents,
    Preface,
    Dictionary,
    /// Ruled for the reader's notes, padding the book to its page count.
    Notes,
}

/// A laid-out page.
#[derive(Clone, Debug)]
pub struct Page {
    /// 1-based; odd pages are right-hand pages.
    pub number: usize,
    pub kind: PageKind,
    pub marks: Vec<Mark>,
    /// The area inside the margins (x0, y0, x1, y1): every mark lies in it.
    pub area: (f32, f32, f32, f32),
    /// The headwords (as printed) that begin on this page, in order.
    pub headwords: Vec<String>,
    /// The running heads printed (left, right), if any.
    pub heads: (Option<String>, Option<String>),
    /// Lines (grid lines used) in each column of a dictionary page.
    pub columns: Vec<usize>,
}

/// The laid-out book.
#[derive(Clone, Debug)]
pub struct Typeset {
    pub pages: Vec<Page>,
    /// The texts the marks show pieces of (see [`TextRef`]).
    pub texts: Vec<String>,
    /// The table of contents: (label, page).
    pub contents: Vec<(String, usize)>,
    pub report: Report,
    /// The inner margin used (for the page count).
    pub inner: f32,
    /// The grid's leading for the entries' lines ([`Mark::Lines`]).
    pub(super) leading: f32,
    /// The blocks laid out, the entries' less their texts (moved to `texts`): their lines
    /// are the pages' [`Mark::Lines`]. (Allocated by the threads that set them: freed
    /// as the layout was made, they were on the one thread's critical path.)
    pub(super) blocks: Vec<Block>,
}

impl Typeset {
    /// The text a mark shows.
    pub fn text(&self, r: TextRef) -> &str {
        &self.texts[r.source as usize][r.from as usize..r.to as usize]
    }

    /// The horizontal extent (x0, x1) of a mark.
    pub fn extent(&self, mark: &Mark) -> (f32, f32) {
        match mark {
            Mark::Text { style, size, x, text, space, .. } => {
                let text = self.text(*text);
                let spaces = text.matches(' ').count() as f32;
                (*x, x + style.width(text, *size) + spaces * (space - style.width(" ", *size)))
            }
            Mark::Rule { x0, x1, .. } => (*x0, *x1),
            Mark::Lines { .. } => self
                .expand(*mark)
                .map(|m| self.extent(&m))
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), (x0, x1)| (a.min(x0), b.max(x1))),
        }
    }

    /// The marks of `page`, its lines' runs each a text mark, in the order drawn.
    pub fn marks<'a>(&'a self, page: &'a Page) -> impl Iterator<Item = Mark> + 'a {
        page.marks.iter().flat_map(|&m| self.expand(m))
    }

    /// `mark`, or the text marks of its lines' runs if it is lines.
    fn expand(&self, mark: Mark) -> impl Iterator<Item = Mark> + '_ {
        let lines = match mark {
            Mark::Lines { block, line, count, row, x, top, size } => match &self.blocks[block as usize] {
                Block::Entry { para, source, .. } => Some((para, *source, line, count, row, x, top, size)),
                Block::Heading(_) => None,
            },
            _ => None,
        };
        let leading = self.leading;
        let runs = lines.into_iter().flat_map(move |(para, source, line, count, row, x, top, size)| {
            (0..count).flat_map(move |k| {
                let y = top - (row + k) as f32 * leading;
                line_marks(para, source, &para.lines[(line + k) as usize], (x, y), size)
            })
        });
        let own = (!matches!(mark, Mark::Lines { .. })).then_some(mark);
        runs.chain(own)
    }
}

/// Text marks of the runs of `line`, one of `para`'s, whose text is the book's text
/// `source`, at `size`, from `x` (the column's edge) on the baseline `y`.
pub(super) fn line_marks<'a>(
    para: &'a Paragraph,
    source: u32,
    line: &'a Line,
    (x, y): (f32, f32),
    size: f32,
) -> impl Iterator<Item = Mark> + 'a {
    para.runs(line).iter().enumerate().map(move |(k, run)| Mark::Text {
        style: run.style,
        size,
        x: x + line.indent + run.x,
        y,
        text: TextRef { source, from: run.text.start, to: run.text.end },
        space: run.space,
        follows: k > 0,
    })
}
