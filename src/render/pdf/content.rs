//! Marks of the page model as a content stream of graphics and text in the ASCII fonts.

use pdf_writer::types::LineCapStyle;
use pdf_writer::{Content, Name, Settings, Str};

use crate::render::fonts::{encode, Font};
use crate::render::page::{Form, Mark, Paint, Rgb, Segment, Style};

/// The name of a font in the page tree's resources.
pub(super) fn resource(font: Font) -> Name<'static> {
    Name(match font {
        Font::Sans => b"F1",
        Font::SansBold => b"F2",
        Font::Mono => b"F3",
        Font::MonoBold => b"F4",
    })
}

/// The name of a form in the resources.
pub(super) fn form_name(form: Form) -> String {
    format!("X{}", form.0 + 1)
}

/// The content stream of `marks`, and which fonts (by [`Font::index`]) it shows.
pub(super) fn content(marks: &[Mark]) -> (Vec<u8>, [bool; Font::ALL.len()]) {
    let mut w = Writer::new();
    for mark in marks {
        match mark {
            Mark::Text { style, x, y, text } => w.text(*style, *x, *y, text),
            Mark::TextDownwards { style, x, y, text } => w.text_downwards(*style, *x, *y, text),
            Mark::CellRow { style, x, y, pitch, cells } => w.cell_row(*style, *x, *y, *pitch, cells),
            Mark::MonoRows { style, x, y, pitch, cols, letters } => w.mono_rows(*style, *x, *y, *pitch, *cols, letters),
            Mark::Form(form) => w.form(*form),
            Mark::Line { from, to, width, color } => w.line(*from, *to, *width, *color),
            Mark::Segments { segments, width, color } => w.segments(segments, *width, *color),
            Mark::Stadium { a, b, radius, width, color } => w.stadium(*a, *b, *radius, *width, *color),
            Mark::Rect { x, y, width, height, paint } => w.rect(*x, *y, *width, *height, *paint),
        }
    }
    let fonts = w.fonts_used;
    (w.finish(), fonts)
}

/// A page's or form's marks as a content stream, written with `pdf_writer::Content`
/// compactly: consecutive text shares one text object, fonts, colours and spacing are only
/// set when they change, and numbers are rounded so they carry no more digits than needed.
struct Writer {
    content: Content,
    fonts_used: [bool; Font::ALL.len()],
    /// Current fill / stroke colours and line width, to skip redundant operators.
    fill: Option<Rgb>,
    stroke: Option<Rgb>,
    line_width: Option<f32>,
    /// Whether strokes end in projecting square caps (PDF default: butt caps).
    square_caps: bool,
    /// Character spacing in force (`Tc`, 0 at the start of a page).
    char_spacing: f32,
    text: Option<TextState>,
}

/// State of the open text object.
#[derive(Clone, Copy)]
struct TextState {
    font: Option<(Font, f32)>,
    /// Start of the current line (set by `Td`), and the leading used by `T*`.
    line: (f32, f32),
    leading: Option<f32>,
}

/// Nearest integer (halves away from zero), without a libm call.
#[inline]
fn round_i64(v: f64) -> i64 {
    if v >= 0.0 {
        (v + 0.5) as i64
    } else {
        (v - 0.5) as i64
    }
}

/// `v` rounded to `decimals` places. pdf-writer writes the shortest decimal that reads
/// back as the same f32, so a rounded value is written with at most `decimals` places,
/// and positions can be tracked exactly as written.
fn round_to(v: f32, decimals: i32) -> f32 {
    let f = 10f64.powi(decimals);
    (round_i64(v as f64 * f) as f64 / f) as f32
}

/// Coordinates and font sizes are written to 0.01 pt.
fn pt(v: f32) -> f32 {
    round_to(v, 2)
}

impl Writer {
    fn new() -> Self {
        Writer {
            // Compact: spaces and newlines only where the syntax needs them (a 201-page
            // book's streams are a quarter smaller, and deflate faster).
            content: Content::with_settings_and_capacity(Settings { pretty: false }, 4096),
            fonts_used: [false; Font::ALL.len()],
            fill: None,
            stroke: None,
            line_width: None,
            square_caps: false,
            char_spacing: 0.0,
            text: None,
        }
    }

    fn fill_color(&mut self, c: Rgb) {
        if self.fill != Some(c) {
            self.content.set_fill_rgb(round_to(c.0, 3), round_to(c.1, 3), round_to(c.2, 3));
            self.fill = Some(c);
        }
    }

    fn stroke_color(&mut self, c: Rgb) {
        if self.stroke != Some(c) {
            self.content.set_stroke_rgb(round_to(c.0, 3), round_to(c.1, 3), round_to(c.2, 3));
            self.stroke = Some(c);
        }
    }

    /// Leaves any text object and sets the colour and width of the next stroke.
    fn stroke_style(&mut self, color: Rgb, width: f32) {
        self.end_text();
        self.stroke_color(color);
        if self.line_width != Some(width) {
            self.content.set_line_width(round_to(width, 3));
            self.line_width = Some(width);
        }
    }

    fn set_square_caps(&mut self, square_caps: bool) {
        if self.square_caps != square_caps {
            let cap = if square_caps { LineCapStyle::ProjectingSquareCap } else { LineCapStyle::ButtCap };
            self.content.set_line_cap(cap);
            self.square_caps = square_caps;
        }
    }

    fn end_text(&mut self) {
        if self.text.take().is_some() {
            self.content.end_text();
        }
    }

    /// Opens (or reuses) a text object with this font and character spacing, and moves the
    /// line start to (`x`, `y`) (rounded to 0.01 pt; returns the position written).
    fn text_at(&mut self, font: Font, size: f32, char_spacing: f32, x: f32, y: f32) -> (f32, f32) {
        let mut st = self.text.unwrap_or_else(|| {
            self.content.begin_text();
            TextState { font: None, line: (0.0, 0.0), leading: None }
        });
        if st.font != Some((font, size)) {
            self.fonts_used[font.index()] = true;
            self.content.set_font(resource(font), size);
            st.font = Some((font, size));
        }
        // Character spacing is graphics state: it outlives the text object.
        if self.char_spacing != char_spacing {
            self.content.set_char_spacing(char_spacing);
            self.char_spacing = char_spacing;
        }
        let (x, y) = (pt(x), pt(y));
        let (dx, dy) = (pt(x - st.line.0), pt(y - st.line.1));
        // Rows one under another reuse the leading: `T*` instead of two numbers.
        if dx == 0.0 && Some(-dy) == st.leading {
            self.content.next_line_using_leading();
        } else if dx == 0.0 && dy < 0.0 {
            self.content.next_line_and_set_leading(dx, dy);
            st.leading = Some(-dy);
        } else {
            self.content.next_line(dx, dy);
        }
        st.line = (x, y);
        self.text = Some(st);
        (x, y)
    }

    /// `text` with its baseline starting at (`x`, `y`).
    fn text(&mut self, style: Style, x: f32, y: f32, text: &str) {
        self.fill_color(style.color);
        self.text_at(style.font, pt(style.size), 0.0, x, y);
        let bytes: Vec<u8> = text.chars().map(encode).collect();
        self.content.show(Str(&bytes));
    }

    /// `text` turned a quarter clockwise, reading downwards from (`x`, `y`) (a spine's text):
    /// its own text object, so the rotation does not carry over.
    fn text_downwards(&mut self, style: Style, x: f32, y: f32, text: &str) {
        self.end_text();
        self.fill_color(style.color);
        self.fonts_used[style.font.index()] = true;
        self.content.begin_text();
        self.content.set_font(resource(style.font), pt(style.size));
        if self.char_spacing != 0.0 {
            self.content.set_char_spacing(0.0);
            self.char_spacing = 0.0;
        }
        self.content.set_text_matrix([0.0, -1.0, 1.0, 0.0, pt(x), pt(y)]);
        let bytes: Vec<u8> = text.chars().map(encode).collect();
        self.content.show(Str(&bytes));
        self.content.end_text();
    }

    /// A row of glyphs, each centred in its own cell of width `pitch`; cell `i` spans
    /// `x + i * pitch ..= x + (i + 1) * pitch`, and `None` cells stay empty. Drawn as a
    /// single text-show operation: character spacing makes the commonest glyph width land
    /// exactly on the next cell, and TJ adjustments (whole thousandths of an em) place the
    /// others.
    fn cell_row(&mut self, style: Style, x: f32, y: f32, pitch: f32, cells: &[Option<char>]) {
        if cells.iter().all(Option::is_none) {
            return;
        }
        let Style { font, size, color } = style;
        let size = pt(size);
        let to_em = 1000.0 / size;
        let width = |ch: char| font.char_width(ch) as f32;
        // Character spacing makes the widest glyph step exactly from cell to cell; rows that
        // share a font, size and pitch then share one line start and spacing, and
        // narrower glyphs get an adjustment on each side.
        let widest = cells.iter().flatten().map(|&ch| width(ch)).fold(0.0, f32::max);
        let spacing = round_to(pitch - widest / to_em, 4);
        let start = |i: usize, w: f32| x + i as f32 * pitch + (pitch - w / to_em) / 2.0;

        self.fill_color(color);
        let (x0, _) = self.text_at(font, size, spacing, start(0, widest), y);
        // Positions in thousandths of an em relative to x0: glyph i should start at
        // i * step + (widest - w) / 2; `pen` is where the pen actually is.
        let step = pitch * to_em;
        let shift = (x0 - start(0, widest)) * to_em;
        let advance = spacing * to_em;
        let mut shown = self.content.show_positioned();
        let mut items = shown.items();
        // Glyphs between two adjustments form one string.
        let mut run: Vec<u8> = Vec::with_capacity(cells.len());
        let mut pen = 0.0f32;
        for (i, cell) in cells.iter().enumerate() {
            let Some(ch) = *cell else { continue };
            let w = width(ch);
            let want = i as f32 * step + (widest - w) / 2.0 - shift;
            let adjust = round_i64((pen - want) as f64);
            if adjust != 0 {
                if !run.is_empty() {
                    items.show(Str(&run));
                    run.clear();
                }
                items.adjust(adjust as f32);
            }
            run.push(encode(ch));
            pen += w + advance - adjust as f32;
        }
        items.show(Str(&run));
    }

    /// Rows of glyphs of a monospaced `style`, glyph `i` of each row centred in cell `i` of
    /// width `pitch`, the first row's baseline at `y` and each next one `pitch` lower; a
    /// space leaves its cell empty. Character spacing steps from cell to cell and the
    /// leading from row to row, so a row is one string and one operator (`'`).
    fn mono_rows(&mut self, style: Style, x: f32, y: f32, pitch: f32, cols: usize, letters: &[u8]) {
        let Style { font, size, color } = style;
        debug_assert!(font.metrics().monospace);
        let size = pt(size);
        let glyph = font.char_width('M') as f32 * size / 1000.0;
        self.fill_color(color);
        self.text_at(font, size, round_to(pitch - glyph, 4), x + (pitch - glyph) / 2.0, y);
        let leading = round_to(pitch, 4);
        self.content.set_leading(leading);
        let mut rows = letters.chunks(cols.max(1));
        if let Some(first) = rows.next() {
            self.content.show(Str(first));
        }
        for row in rows {
            self.content.next_line_show(Str(row));
        }
        // The pen has moved down by whole leadings; the next text starts afresh.
        self.end_text();
    }

    /// Draws `form` on this page.
    fn form(&mut self, form: Form) {
        self.end_text();
        // A form inherits the graphics state; its canvas assumed the state a page starts in.
        if self.char_spacing != 0.0 {
            self.content.set_char_spacing(0.0);
            self.char_spacing = 0.0;
        }
        self.set_square_caps(false);
        self.content.x_object(Name(form_name(form).as_bytes()));
    }

    /// A straight line from `from` to `to`.
    fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Rgb) {
        self.stroke_style(color, width);
        self.set_square_caps(false);
        self.content.move_to(pt(from.0), pt(from.1)).line_to(pt(to.0), pt(to.1)).stroke();
    }

    /// Straight segments `(from, to)` stroked as one path. Ends get projecting square caps
    /// (half the width beyond each end), so segments meeting end to end or at a right angle
    /// join without a notch, as thick walls and borders must.
    fn segments(&mut self, segments: &[Segment], width: f32, color: Rgb) {
        if segments.is_empty() {
            return;
        }
        self.stroke_style(color, width);
        self.set_square_caps(true);
        for &(from, to) in segments {
            self.content.move_to(pt(from.0), pt(from.1)).line_to(pt(to.0), pt(to.1));
        }
        self.content.stroke();
    }

    /// A loop around the straight run of cells from centre `a` to centre `b`: two straight
    /// sides `radius` from the line and a half circle around each end, stroked.
    fn stadium(&mut self, a: (f32, f32), b: (f32, f32), radius: f32, width: f32, color: Rgb) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        // Along the run (or rightwards for a single cell) and a quarter turn left of it.
        let (ux, uy) = if len > 0.0 { (dx / len, dy / len) } else { (1.0, 0.0) };
        let (nx, ny) = (-uy, ux);
        let at = |c: (f32, f32), u: f32, n: f32| {
            (pt(c.0 + radius * (u * ux + n * nx)), pt(c.1 + radius * (u * uy + n * ny)))
        };
        // A quarter circle as one cubic Bézier: control points this far along the tangents.
        const K: f32 = 0.552_284_8;
        self.stroke_style(color, width);
        let start = at(a, 0.0, 1.0);
        self.content.move_to(start.0, start.1);
        let p = at(b, 0.0, 1.0);
        self.content.line_to(p.0, p.1);
        // Around b: from its left side, over the tip, to its right side.
        for (c, s1, s2, e) in [(b, (K, 1.0), (1.0, K), (1.0, 0.0)), (b, (1.0, -K), (K, -1.0), (0.0, -1.0))] {
            let (c1, c2, end) = (at(c, s1.0, s1.1), at(c, s2.0, s2.1), at(c, e.0, e.1));
            self.content.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
        }
        let p = at(a, 0.0, -1.0);
        self.content.line_to(p.0, p.1);
        for (c, s1, s2, e) in [(a, (-K, -1.0), (-1.0, -K), (-1.0, 0.0)), (a, (-1.0, K), (-K, 1.0), (0.0, 1.0))] {
            let (c1, c2, end) = (at(c, s1.0, s1.1), at(c, s2.0, s2.1), at(c, e.0, e.1));
            self.content.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
        }
        self.content.close_and_stroke();
    }

    /// A rectangle with its lower-left corner at (`x`, `y`).
    fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, paint: Paint) {
        let (x, y, width, height) = (pt(x), pt(y), pt(width), pt(height));
        match paint {
            Paint::Stroke { width: line, color } => {
                // A closed rectangle has joins, not caps: the caps in force do not matter.
                self.stroke_style(color, line);
                self.content.rect(x, y, width, height).stroke();
            }
            Paint::Fill(color) => {
                self.end_text();
                self.fill_color(color);
                self.content.rect(x, y, width, height).fill_nonzero();
            }
        }
    }

    /// The finished content stream.
    fn finish(mut self) -> Vec<u8> {
        self.end_text();
        self.content.finish().into_vec()
    }
}
