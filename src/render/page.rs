//! The page model every product is laid out in: pages of marks (text in an embedded font,
//! rows of glyphs in cells, lines, rectangles, loops and forms drawn once for many pages),
//! in PDF points with the origin at the bottom left. A layout is a pure function from a
//! product's content to a [`Document`] of such pages; [`super::pdf`] alone turns them into
//! bytes.

pub use super::fonts::Font;
use super::pdf::Options;

/// US Letter, portrait, in points.
pub const US_LETTER: (f32, f32) = (612.0, 792.0);

/// An RGB colour, components in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgb(pub f32, pub f32, pub f32);

impl Rgb {
    pub const BLACK: Rgb = Rgb(0.0, 0.0, 0.0);
    pub const RED: Rgb = Rgb(0.85, 0.0, 0.0);
    pub const GREY: Rgb = Rgb(0.5, 0.5, 0.5);
}

/// Font, size (points) and colour of text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub font: Font,
    pub size: f32,
    pub color: Rgb,
}

impl Style {
    /// Black text.
    pub fn new(font: Font, size: f32) -> Style {
        Style { font, size, color: Rgb::BLACK }
    }

    pub fn color(self, color: Rgb) -> Style {
        Style { color, ..self }
    }
}

/// How to paint a rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paint {
    Stroke { width: f32, color: Rgb },
    Fill(Rgb),
}

/// A grid of square cells: `rows` x `cols` cells of side `pitch`, the top-left corner at
/// (`left`, `top`). Grid lines are numbered from the top left, 0..=cols across and 0..=rows
/// down, and a grid point is (column line, row line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellGrid {
    pub rows: usize,
    pub cols: usize,
    pub left: f32,
    pub top: f32,
    pub pitch: f32,
}

/// A straight segment from one point to another, in points.
pub type Segment = ((f32, f32), (f32, f32));

impl CellGrid {
    /// The largest cells, at most `max_pitch`, that fit in `area` = (x, y, width, height);
    /// the grid is centred horizontally and touches the top of the area.
    pub fn fit(rows: usize, cols: usize, area: (f32, f32, f32, f32), max_pitch: f32) -> CellGrid {
        let (ax, ay, aw, ah) = area;
        // An empty side divides by zero into infinity, which `min` discards.
        let pitch = (aw / cols as f32).min(ah / rows as f32).min(max_pitch);
        CellGrid { rows, cols, left: ax + (aw - pitch * cols as f32) / 2.0, top: ay + ah, pitch }
    }

    /// x of column line `i`.
    pub fn x(&self, i: usize) -> f32 {
        self.left + i as f32 * self.pitch
    }

    /// y of row line `i`.
    pub fn y(&self, i: usize) -> f32 {
        self.top - i as f32 * self.pitch
    }

    pub fn bottom(&self) -> f32 {
        self.y(self.rows)
    }

    /// The segment between grid points `from` and `to`.
    pub fn segment(&self, from: (usize, usize), to: (usize, usize)) -> Segment {
        ((self.x(from.0), self.y(from.1)), (self.x(to.0), self.y(to.1)))
    }

    /// Every grid line between cells, each across the whole grid.
    pub fn inner_lines(&self) -> Vec<Segment> {
        let (r, c) = (self.rows, self.cols);
        (1..c).map(|i| self.segment((i, 0), (i, r))).chain((1..r).map(|i| self.segment((0, i), (c, i)))).collect()
    }

    /// The four sides of the outline.
    pub fn outline(&self) -> [Segment; 4] {
        let (r, c) = (self.rows, self.cols);
        [
            self.segment((0, 0), (c, 0)),
            self.segment((c, 0), (c, r)),
            self.segment((c, r), (0, r)),
            self.segment((0, r), (0, 0)),
        ]
    }

    /// The baseline that centres capitals (and digits) of `font` at `size` vertically in
    /// cell row `row`.
    pub fn centred_baseline(&self, row: usize, font: Font, size: f32) -> f32 {
        self.y(row + 1) + (self.pitch - font.cap_height() * size / 1000.0) / 2.0
    }
}

/// The maximal runs of consecutive `i` in `0..len` with `on(i)`, as `(start, end)`
/// (end exclusive): neighbouring cells or wall pieces merge into one rectangle or stroke.
pub fn runs(len: usize, on: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for i in 0..=len {
        match (start, i < len && on(i)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// A form of a document: drawing made once and shown on any number of pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form(pub(crate) usize);

/// What a page or form shows, in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// Text with its baseline starting at (`x`, `y`).
    Text { style: Style, x: f32, y: f32, text: String },
    /// Text turned a quarter clockwise, reading downwards from (`x`, `y`) (a spine's).
    TextDownwards { style: Style, x: f32, y: f32, text: String },
    /// Glyphs each centred in its own cell of width `pitch` from `x`; `None` cells empty.
    CellRow { style: Style, x: f32, y: f32, pitch: f32, cells: Vec<Option<char>> },
    /// Rows of `cols` glyphs of a monospaced style (`letters` row after row), glyph `i`
    /// of a row centred in cell `i` of width `pitch`, each row `pitch` below the last, the
    /// first row's baseline at `y`; a space leaves its cell empty.
    MonoRows { style: Style, x: f32, y: f32, pitch: f32, cols: usize, letters: Vec<u8> },
    /// A form of the document.
    Form(Form),
    /// A straight line (butt ends).
    Line { from: (f32, f32), to: (f32, f32), width: f32, color: Rgb },
    /// Straight segments stroked as one path with projecting square ends, so segments
    /// meeting end to end or at a right angle join without a notch.
    Segments { segments: Vec<Segment>, width: f32, color: Rgb },
    /// A loop around the straight run of cells from centre `a` to centre `b`: two sides
    /// `radius` from the line and a half circle around each end.
    Stadium { a: (f32, f32), b: (f32, f32), radius: f32, width: f32, color: Rgb },
    /// A rectangle with its lower-left corner at (`x`, `y`).
    Rect { x: f32, y: f32, width: f32, height: f32, paint: Paint },
}

/// A page or a form: its size in points, the bleed the printer trims off every side (0
/// for an interior page) and its marks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Canvas {
    pub size: (f32, f32),
    pub bleed: f32,
    pub marks: Vec<Mark>,
}

impl Canvas {
    fn new(size: (f32, f32), bleed: f32) -> Canvas {
        Canvas { size, bleed, marks: Vec::new() }
    }

    /// (width, height) in points.
    pub fn size(&self) -> (f32, f32) {
        self.size
    }

    /// `text` with its baseline starting at (`x`, `y`).
    pub fn text(&mut self, style: Style, x: f32, y: f32, text: &str) {
        self.marks.push(Mark::Text { style, x, y, text: text.to_string() });
    }

    /// `text` centred horizontally on `center_x`, baseline at `y`.
    pub fn text_centered(&mut self, style: Style, center_x: f32, y: f32, text: &str) {
        let x = center_x - style.font.width(text, style.size) / 2.0;
        self.text(style, x, y, text);
    }

    /// `text` turned a quarter clockwise, reading downwards from (`x`, `y`) (a spine's text).
    pub fn text_downwards(&mut self, style: Style, x: f32, y: f32, text: &str) {
        self.marks.push(Mark::TextDownwards { style, x, y, text: text.to_string() });
    }

    /// A row of glyphs, each centred in its own cell of width `pitch`; cell `i` spans
    /// `x + i * pitch ..= x + (i + 1) * pitch`, and `None` cells stay empty.
    pub fn cell_row(&mut self, style: Style, x: f32, y: f32, pitch: f32, cells: &[Option<char>]) {
        if cells.iter().any(Option::is_some) {
            self.marks.push(Mark::CellRow { style, x, y, pitch, cells: cells.to_vec() });
        }
    }

    /// Rows of glyphs of a monospaced `style`, glyph `i` of each row centred in cell `i` of
    /// width `pitch`, the first row's baseline at `y` and each next one `pitch` lower; a
    /// space leaves its cell empty. Every row has the first row's length.
    pub fn mono_rows<'r>(
        &mut self,
        style: Style,
        x: f32,
        y: f32,
        pitch: f32,
        rows: impl IntoIterator<Item = &'r [u8]>,
    ) {
        let mut rows = rows.into_iter().peekable();
        let cols = rows.peek().map_or(0, |r| r.len());
        let mut letters = Vec::with_capacity(cols * rows.size_hint().0);
        for row in rows {
            debug_assert_eq!(row.len(), cols, "rows of one length");
            letters.extend_from_slice(row);
        }
        self.letter_rows(style, x, y, pitch, cols, letters);
    }

    /// [`Canvas::mono_rows`] of `letters` taken `cols` at a time.
    pub fn letter_rows(&mut self, style: Style, x: f32, y: f32, pitch: f32, cols: usize, letters: Vec<u8>) {
        debug_assert!(style.font.monospace());
        self.marks.push(Mark::MonoRows { style, x, y, pitch, cols, letters });
    }

    /// Draws `form` (made with [`Document::add_form`]) on this page.
    pub fn form(&mut self, form: Form) {
        self.marks.push(Mark::Form(form));
    }

    /// A straight line from `from` to `to`.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Rgb) {
        self.marks.push(Mark::Line { from, to, width, color });
    }

    /// Straight segments `(from, to)` stroked as one path with projecting square ends.
    pub fn segments(&mut self, segments: &[Segment], width: f32, color: Rgb) {
        if !segments.is_empty() {
            self.marks.push(Mark::Segments { segments: segments.to_vec(), width, color });
        }
    }

    /// A loop around the straight run of cells from centre `a` to centre `b`.
    pub fn stadium(&mut self, a: (f32, f32), b: (f32, f32), radius: f32, width: f32, color: Rgb) {
        self.marks.push(Mark::Stadium { a, b, radius, width, color });
    }

    /// A rectangle with its lower-left corner at (`x`, `y`).
    pub fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, paint: Paint) {
        self.marks.push(Mark::Rect { x, y, width, height, paint });
    }
}

/// A document's pages and forms, its title, and how the writer is to write it.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub title: Option<String>,
    pub options: Options,
    pub pages: Vec<Canvas>,
    pub forms: Vec<Canvas>,
}

impl Document {
    pub fn new() -> Self {
        Document::default()
    }

    /// Sets the document title shown by readers.
    pub fn set_title(&mut self, title: &str) {
        self.title = Some(title.to_string());
    }

    /// How the writer compresses and spaces this document (a layout version's choice).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// Starts a new page of `size` = (width, height) points, trimmed to its full size (an
    /// interior page), and returns it.
    pub fn add_page(&mut self, size: (f32, f32)) -> &mut Canvas {
        self.add_page_with_bleed(size, 0.0)
    }

    /// Starts a page of `size` points including `bleed` points on every side that the
    /// printer trims off.
    pub fn add_page_with_bleed(&mut self, size: (f32, f32), bleed: f32) -> &mut Canvas {
        self.pages.push(Canvas::new(size, bleed));
        self.pages.last_mut().expect("just pushed")
    }

    /// Starts a form in page coordinates over a page of `size`: what it draws shows where
    /// a page draws it with [`Canvas::form`].
    pub fn add_form(&mut self, size: (f32, f32)) -> (Form, &mut Canvas) {
        self.forms.push(Canvas::new(size, 0.0));
        (Form(self.forms.len() - 1), self.forms.last_mut().expect("just pushed"))
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The PDF of this document ([`super::pdf::write`]).
    pub fn finish(self) -> Vec<u8> {
        super::pdf::write(&self)
    }
}
