//! A small, engine-neutral PDF layer over `pdf-writer`: pages of any size with a trim box,
//! embedded subset fonts (DejaVu, see [`super::font`]), text at a position or centred, rows
//! of glyphs centred in equal cells, lines, rectangles and rounded outlines.
//!
//! Coordinates are PDF points with the origin at the bottom left of the page.

pub use super::font::Font;
use super::font::{encode, Metrics, ENCODING_CMAP, FIRST, TO_UNICODE_CMAP};
use pdf_writer::types::{CidFontType, FontFlags, LineCapStyle, SystemInfo};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Settings, Str, TextStr};

/// US Letter, portrait, in points.
pub const US_LETTER: (f32, f32) = (612.0, 792.0);

/// The name of a font in the page tree's resources.
fn resource(font: Font) -> Name<'static> {
    Name(match font {
        Font::Sans => b"F1",
        Font::SansBold => b"F2",
        Font::Mono => b"F3",
        Font::MonoBold => b"F4",
    })
}

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

/// How content streams are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Stored as drawn (tests read them).
    None,
    /// miniz at level 1: every PDF but the version 2 interiors, which keeps their bytes.
    Miniz1,
    /// One Huffman block without matches ([`super::deflate`]): smaller than miniz's level 1
    /// on grid pages and several times faster on small streams.
    Huffman,
}

impl Compression {
    fn apply(self, content: &[u8]) -> Option<Vec<u8>> {
        match self {
            Compression::None => None,
            Compression::Miniz1 => Some(zlib_level1(content)),
            Compression::Huffman => Some(super::deflate::zlib(content)),
        }
    }
}

/// `compress_to_vec_zlib(content, 1)`, byte for byte, with one compressor a thread reset
/// between streams rather than a fresh one a stream (its tables are ~300 KB to allocate
/// and clear: for small streams that costs more than the compressing).
fn zlib_level1(content: &[u8]) -> Vec<u8> {
    use miniz_oxide::deflate::core::{
        compress_to_output, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
    };
    use std::cell::RefCell;
    thread_local! {
        static COMPRESSOR: RefCell<Box<CompressorOxide>> =
            RefCell::new(Box::new(CompressorOxide::new(create_comp_flags_from_zip_params(1, 15, 0))));
    }
    COMPRESSOR.with_borrow_mut(|c| {
        c.reset();
        let mut out = Vec::with_capacity(content.len() / 2 + 64);
        let (status, _) = compress_to_output(c, content, TDEFLFlush::Finish, |chunk| {
            out.extend_from_slice(chunk);
            true
        });
        assert_eq!(status, TDEFLStatus::Done, "deflating into memory cannot fail");
        out
    })
}

/// A form XObject of a document: drawing made once and shown on any number of pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form(usize);

impl Form {
    /// Its name in the resources.
    fn name(self) -> String {
        format!("X{}", self.0 + 1)
    }
}

/// A document under construction: add pages, draw on them, then [`Document::finish`].
pub struct Document {
    title: Option<String>,
    compression: Compression,
    /// Objects written without the line breaks and indents that make them readable.
    compact: bool,
    pages: Vec<Canvas>,
    forms: Vec<Canvas>,
}

impl Default for Document {
    fn default() -> Self {
        Document::new()
    }
}

impl Document {
    pub fn new() -> Self {
        Document { title: None, compression: Compression::Miniz1, compact: false, pages: Vec::new(), forms: Vec::new() }
    }

    /// Sets the document title shown by readers.
    pub fn set_title(&mut self, title: &str) {
        self.title = Some(title.to_string());
    }

    /// How content streams are compressed (default: miniz at level 1).
    pub fn set_compression(&mut self, compression: Compression) {
        self.compression = compression;
    }

    /// Whether objects are written compactly (default: one entry a line, indented).
    pub fn set_compact(&mut self, compact: bool) {
        self.compact = compact;
    }

    /// Starts a new page of `size` = (width, height) points, trimmed to its full size (an
    /// interior page), and returns its canvas.
    pub fn add_page(&mut self, size: (f32, f32)) -> &mut Canvas {
        self.add_page_with_bleed(size, 0.0)
    }

    /// Starts a page of `size` points including `bleed` points on every side that the
    /// printer trims off: TrimBox is the page less the bleed, BleedBox the whole page.
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

    /// Writes the PDF. Fonts (and forms) are shared resources of the page tree (inherited
    /// by pages), fonts embedded once each with the encoding and ToUnicode maps they all
    /// share.
    pub fn finish(self) -> Vec<u8> {
        let mut used = [false; Font::ALL.len()];
        for canvas in self.pages.iter().chain(&self.forms) {
            for f in Font::ALL {
                used[f.index()] |= canvas.fonts_used[f.index()];
            }
        }
        let fonts: Vec<Font> = Font::ALL.into_iter().filter(|f| used[f.index()]).collect();
        let mut next = 0;
        let mut alloc = || {
            next += 1;
            Ref::new(next)
        };
        let (catalog, tree, info) = (alloc(), alloc(), alloc());
        let (encoding, to_unicode) = (alloc(), alloc());
        // Per font: the Type0 font, its CID font, descriptor and file.
        let font_refs: Vec<[Ref; 4]> = fonts.iter().map(|_| [alloc(), alloc(), alloc(), alloc()]).collect();
        let page_refs: Vec<(Ref, Ref)> = self.pages.iter().map(|_| (alloc(), alloc())).collect();
        let form_refs: Vec<Ref> = self.forms.iter().map(|_| alloc()).collect();
        let form_names: Vec<String> = (0..self.forms.len()).map(|i| Form(i).name()).collect();
        let font_dict = |dict: &mut pdf_writer::Dict| {
            for (f, refs) in fonts.iter().zip(&font_refs) {
                dict.pair(resource(*f), refs[0]);
            }
        };

        let font_bytes: usize = fonts.iter().map(|f| f.metrics().file.len() + 1200).sum();
        let ratio = if self.compression == Compression::None { 1 } else { 4 };
        let body: usize = self.pages.iter().chain(&self.forms).map(|p| p.content.len() / ratio + 220).sum::<usize>()
            + 20 * next as usize;
        let settings = Settings { pretty: !self.compact };
        let mut pdf = Pdf::with_settings_and_capacity(settings, body + font_bytes + 2048);
        pdf.catalog(catalog).pages(tree);
        {
            let mut pages = pdf.pages(tree);
            pages.kids(page_refs.iter().map(|r| r.0)).count(self.pages.len() as i32);
            let mut resources = pages.resources();
            font_dict(&mut resources.fonts());
            if !self.forms.is_empty() {
                let mut dict = resources.x_objects();
                for (name, r) in form_names.iter().zip(&form_refs) {
                    dict.pair(Name(name.as_bytes()), *r);
                }
            }
        }
        {
            let mut doc_info = pdf.document_info(info);
            if let Some(t) = &self.title {
                doc_info.title(TextStr(t));
            }
            doc_info.producer(TextStr("puzzlepress"));
        }
        if !fonts.is_empty() {
            let identity = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };
            pdf.cmap(encoding, ENCODING_CMAP.as_bytes()).name(Name(b"PuzzlepressASCII")).system_info(identity);
            pdf.stream(to_unicode, TO_UNICODE_CMAP.as_bytes());
        }
        for (f, &[type0, cid, descriptor, file]) in fonts.iter().zip(&font_refs) {
            write_font(&mut pdf, f.metrics(), [type0, cid, descriptor, file], encoding, to_unicode);
        }
        let compression = self.compression;
        for (page, (page_ref, content_ref)) in self.pages.into_iter().zip(page_refs) {
            let (w, h) = page.size;
            let b = page.bleed;
            let mut p = pdf.page(page_ref);
            p.parent(tree).media_box(Rect::new(0.0, 0.0, w, h)).trim_box(Rect::new(b, b, w - b, h - b));
            if b > 0.0 {
                p.bleed_box(Rect::new(0.0, 0.0, w, h));
            }
            p.contents(content_ref);
            p.finish();
            let content = page.into_content();
            match compression.apply(&content) {
                Some(z) => {
                    pdf.stream(content_ref, &z).filter(Filter::FlateDecode);
                }
                None => {
                    pdf.stream(content_ref, &content);
                }
            }
        }
        for (form, form_ref) in self.forms.into_iter().zip(form_refs) {
            let (w, h) = form.size;
            let content = form.into_content();
            let z = compression.apply(&content);
            let mut x = pdf.form_xobject(form_ref, z.as_deref().unwrap_or(&content));
            if z.is_some() {
                x.filter(Filter::FlateDecode);
            }
            x.bbox(Rect::new(0.0, 0.0, w, h));
            // A form's own resources (readers need not look at the page's).
            font_dict(&mut x.resources().fonts());
        }
        pdf.finish()
    }
}

/// A font as a Type0 font over a CIDFontType2 (TrueType outlines) whose CIDs are the
/// subset's glyph ids; `refs` are the Type0 font, the CID font, the descriptor and the file.
fn write_font(pdf: &mut Pdf, m: &Metrics, refs: [Ref; 4], encoding: Ref, to_unicode: Ref) {
    let [type0, cid, descriptor, file] = refs;
    let name = Name(m.name.as_bytes());
    pdf.type0_font(type0).base_font(name).encoding_cmap(encoding).descendant_font(cid).to_unicode(to_unicode);
    let system = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };
    let mut font = pdf.cid_font(cid);
    font.subtype(CidFontType::Type2).base_font(name).system_info(system).font_descriptor(descriptor);
    font.cid_to_gid_map_predefined(Name(b"Identity"));
    font.widths().consecutive(1, m.widths.iter().map(|&w| w as f32));
    font.finish();
    let mut flags = FontFlags::NON_SYMBOLIC;
    if m.monospace {
        flags |= FontFlags::FIXED_PITCH;
    }
    if m.bold {
        flags |= FontFlags::FORCE_BOLD;
    }
    let [x0, y0, x1, y1] = m.bbox;
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(flags)
        .bbox(Rect::new(x0, y0, x1, y1))
        .italic_angle(0.0)
        .ascent(m.ascent)
        .descent(m.descent)
        .cap_height(m.cap_height)
        .stem_v(if m.bold { 140.0 } else { 80.0 })
        .font_file2(file);
    pdf.stream(file, m.file).filter(Filter::FlateDecode);
    debug_assert_eq!(FIRST, b' ');
}

/// One page's drawing operations, written with `pdf_writer::Content` as a compact
/// content stream: consecutive text shares one text object, fonts, colours and spacing are
/// only set when they change, and numbers are rounded so they carry no more digits than
/// needed.
pub struct Canvas {
    size: (f32, f32),
    /// Points on every side that the printer trims off (0 for interior pages).
    bleed: f32,
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

impl Canvas {
    fn new(size: (f32, f32), bleed: f32) -> Self {
        Canvas {
            size,
            bleed,
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

    /// (width, height) in points.
    pub fn size(&self) -> (f32, f32) {
        self.size
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
    pub fn text(&mut self, style: Style, x: f32, y: f32, text: &str) {
        self.fill_color(style.color);
        self.text_at(style.font, pt(style.size), 0.0, x, y);
        let bytes: Vec<u8> = text.chars().map(encode).collect();
        self.content.show(Str(&bytes));
    }

    /// `text` centred horizontally on `center_x`, baseline at `y`.
    pub fn text_centered(&mut self, style: Style, center_x: f32, y: f32, text: &str) {
        let x = center_x - style.font.width(text, style.size) / 2.0;
        self.text(style, x, y, text);
    }

    /// `text` turned a quarter clockwise, reading downwards from (`x`, `y`) (a spine's text):
    /// its own text object, so the rotation does not carry over.
    pub fn text_downwards(&mut self, style: Style, x: f32, y: f32, text: &str) {
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
    pub fn cell_row(&mut self, style: Style, x: f32, y: f32, pitch: f32, cells: &[Option<char>]) {
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
    pub fn mono_rows<'r>(
        &mut self,
        style: Style,
        x: f32,
        y: f32,
        pitch: f32,
        rows: impl IntoIterator<Item = &'r [u8]>,
    ) {
        let Style { font, size, color } = style;
        debug_assert!(font.metrics().monospace);
        let size = pt(size);
        let glyph = font.char_width('M') as f32 * size / 1000.0;
        self.fill_color(color);
        self.text_at(font, size, round_to(pitch - glyph, 4), x + (pitch - glyph) / 2.0, y);
        let leading = round_to(pitch, 4);
        self.content.set_leading(leading);
        let mut rows = rows.into_iter();
        if let Some(first) = rows.next() {
            self.content.show(Str(first));
        }
        for row in rows {
            self.content.next_line_show(Str(row));
        }
        // The pen has moved down by whole leadings; the next text starts afresh.
        self.end_text();
    }

    /// Draws `form` (made with [`Document::add_form`]) on this page.
    pub fn form(&mut self, form: Form) {
        self.end_text();
        // A form inherits the graphics state; its canvas assumed the state a page starts in.
        if self.char_spacing != 0.0 {
            self.content.set_char_spacing(0.0);
            self.char_spacing = 0.0;
        }
        self.set_square_caps(false);
        self.content.x_object(Name(form.name().as_bytes()));
    }

    /// A straight line from `from` to `to`.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Rgb) {
        self.stroke_style(color, width);
        self.set_square_caps(false);
        self.content.move_to(pt(from.0), pt(from.1)).line_to(pt(to.0), pt(to.1)).stroke();
    }

    /// Straight segments `(from, to)` stroked as one path. Ends get projecting square caps
    /// (half the width beyond each end), so segments meeting end to end or at a right angle
    /// join without a notch, as thick walls and borders must.
    pub fn segments(&mut self, segments: &[Segment], width: f32, color: Rgb) {
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
    pub fn stadium(&mut self, a: (f32, f32), b: (f32, f32), radius: f32, width: f32, color: Rgb) {
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
    pub fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, paint: Paint) {
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
    fn into_content(mut self) -> Vec<u8> {
        self.end_text();
        self.content.finish().into_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_structure() {
        let mut doc = Document::new();
        doc.set_compression(Compression::None);
        doc.set_title("Test (1)");
        let c = doc.add_page(US_LETTER);
        c.text_centered(Style::new(Font::SansBold, 20.0), 306.0, 700.0, "Hello (world)");
        let red = Style::new(Font::Mono, 12.0).color(Rgb::RED);
        c.cell_row(red, 100.0, 500.0, 18.0, &[Some('F'), None, Some('O'), Some('X')]);
        c.line((10.0, 10.0), (100.0, 10.0), 0.5, Rgb::GREY);
        c.rect(20.0, 20.0, 50.0, 30.0, Paint::Stroke { width: 1.0, color: Rgb::BLACK });
        c.rect(80.0, 20.0, 50.0, 30.0, Paint::Fill(Rgb::GREY));
        doc.add_page(US_LETTER).text(Style::new(Font::Sans, 9.0), 50.0, 50.0, "page 2");
        let bytes = doc.finish();
        let s = String::from_utf8_lossy(&bytes);
        assert!(s.starts_with("%PDF-"));
        assert!(s.contains("/Count 2"));
        assert!(s.contains("/BaseFont /PZPRSB+DejaVuSans-Bold") && s.contains("/BaseFont /PZPRSA+DejaVuSans"));
        assert!(s.contains("/FontFile2") && s.contains("/ToUnicode") && s.contains("/CIDFontType2"));
        assert!(s.contains("/TrimBox [0 0 612 792]") && !s.contains("/BleedBox"));
        assert!(s.contains("/Title (Test "));
        assert!(s.contains("TJ"));
        assert!(s.trim_end().ends_with("%%EOF"));
    }

    #[test]
    fn numbers_are_rounded_and_compact() {
        let mut doc = Document::new();
        doc.set_compression(Compression::None);
        let c = doc.add_page(US_LETTER);
        c.line((12.5, -0.004), (10.08337, 3.0), 0.1, Rgb::RED);
        c.text(Style::new(Font::Sans, 9.999), -83.0, 1.0 / 3.0, "x");
        let ops = testing::listing(&testing::pages(&doc.finish())[0]);
        assert_eq!(
            ops,
            [
                "0.85 0 0 RG",
                "0.1 w",
                "12.5 0 m",
                "10.08 3 l",
                "S",
                "0 0 0 rg",
                "BT",
                "/F1 10 Tf",
                "-83 0.33 Td",
                "(x) Tj",
                "ET"
            ]
        );
    }

    #[test]
    fn segments_use_square_caps_and_lines_restore_butt_caps() {
        let mut doc = Document::new();
        doc.set_compression(Compression::None);
        let c = doc.add_page(US_LETTER);
        c.segments(&[], 3.0, Rgb::BLACK);
        c.segments(&[((0.0, 0.0), (10.0, 0.0)), ((10.0, 0.0), (10.0, 5.5))], 3.0, Rgb::BLACK);
        c.segments(&[((1.0, 1.0), (2.0, 2.0))], 3.0, Rgb::BLACK);
        c.line((0.0, 0.0), (1.0, 1.0), 3.0, Rgb::BLACK);
        let ops = testing::listing(&testing::pages(&doc.finish())[0]);
        // One path for both segments of a call, caps set once and reset for the plain line.
        let expected = ["0 0 0 RG", "3 w", "2 J", "0 0 m", "10 0 l", "10 0 m", "10 5.5 l", "S", "1 1 m", "2 2 l", "S"];
        assert_eq!(ops[..11], expected);
        assert_eq!(ops[11..], ["0 J", "0 0 m", "1 1 l", "S"]);
        assert_eq!(ops.iter().filter(|op| op.ends_with(" J")).count(), 2);
    }

    #[test]
    fn runs_are_maximal() {
        let on = [true, true, false, true, false, false, true];
        assert_eq!(runs(on.len(), |i| on[i]), [(0, 2), (3, 4), (6, 7)]);
        assert_eq!(runs(3, |_| false), []);
        assert_eq!(runs(0, |_| true), []);
    }

    #[test]
    fn cell_grid_fits_centred_and_capped() {
        let g = CellGrid::fit(4, 8, (100.0, 50.0, 400.0, 300.0), 40.0);
        assert_eq!((g.pitch, g.left, g.top), (40.0, 140.0, 350.0));
        assert_eq!((g.x(8), g.bottom()), (460.0, 190.0));
        let g = CellGrid::fit(10, 10, (0.0, 0.0, 200.0, 100.0), 40.0);
        assert_eq!((g.pitch, g.left), (10.0, 50.0));
        assert_eq!(g.inner_lines().len(), 18);
        assert_eq!(g.outline()[1], ((150.0, 100.0), (150.0, 0.0)));
        let empty = CellGrid::fit(0, 0, (0.0, 0.0, 200.0, 100.0), 40.0);
        assert!(empty.inner_lines().is_empty());
    }
}

/// Reading back what a document draws, for tests of the layouts: `lopdf` parses the file,
/// inflates each page's content stream and splits it into operations.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Font, Rgb};
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object};

    /// Each page's drawing operations, in page order, with the forms it draws in place
    /// (between `q` and `Q`, as a form's drawing is). Also checks that the page tree's
    /// `/Count` agrees with its pages.
    pub fn pages(pdf: &[u8]) -> Vec<Vec<Operation>> {
        let doc = Document::load_mem(pdf).expect("lopdf reads the PDF");
        let tree = doc.catalog().and_then(|c| c.get_deref(b"Pages", &doc)).and_then(Object::as_dict).unwrap();
        let count = tree.get(b"Count").and_then(Object::as_i64).unwrap();
        let decode = |stream: &lopdf::Stream| {
            let data = stream.decompressed_content().expect("content streams inflate");
            Content::decode(&data).expect("content streams are well formed").operations
        };
        let forms = tree.get(b"Resources").and_then(Object::as_dict).ok().and_then(|r| r.get(b"XObject").ok());
        let form = |name: &[u8]| -> Vec<Operation> {
            let forms = forms.and_then(|f| f.as_dict().ok()).expect("the page tree names its forms");
            let id = forms.get(name).and_then(Object::as_reference).expect("a form the page tree names");
            let stream = doc.get_object(id).and_then(Object::as_stream).unwrap();
            assert_eq!(stream.dict.get(b"Subtype").and_then(Object::as_name).unwrap(), b"Form");
            let fonts = stream.dict.get(b"Resources").and_then(Object::as_dict).and_then(|r| r.get(b"Font"));
            assert!(fonts.is_ok(), "a form names its fonts");
            decode(stream)
        };
        let pages: Vec<Vec<Operation>> = doc
            .page_iter()
            .map(|page| {
                let streams = doc.get_page_contents(page);
                assert_eq!(streams.len(), 1, "one content stream per page");
                let stream = doc.get_object(streams[0]).and_then(Object::as_stream).unwrap();
                let mut ops = Vec::new();
                for op in decode(stream) {
                    if op.operator == "Do" {
                        ops.push(Operation::new("q", vec![]));
                        ops.extend(form(op.operands[0].as_name().unwrap()));
                        ops.push(Operation::new("Q", vec![]));
                    } else {
                        ops.push(op);
                    }
                }
                ops
            })
            .collect();
        assert_eq!(pages.len() as i64, count);
        pages
    }

    /// The numeric operands of `op`.
    pub fn numbers(op: &Operation) -> Vec<f32> {
        op.operands.iter().map(|o| o.as_float().expect("numeric operand")).collect()
    }

    /// Each operation as text, operands then operator: `0.5 w`, `/F2 12 Tf`, `(FOX) Tj`.
    pub fn listing(page: &[Operation]) -> Vec<String> {
        fn word(obj: &Object) -> String {
            match obj {
                Object::Integer(i) => i.to_string(),
                Object::Real(r) => r.to_string(),
                Object::Name(n) => format!("/{}", String::from_utf8_lossy(n)),
                Object::String(bytes, _) => format!("({})", String::from_utf8_lossy(bytes)),
                Object::Array(items) => format!("[{}]", items.iter().map(word).collect::<Vec<_>>().join(" ")),
                other => format!("{other:?}"),
            }
        }
        page.iter()
            .map(|op| op.operands.iter().map(word).chain([op.operator.clone()]).collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// The operations with this operator, in order.
    pub fn ops<'a>(page: &'a [Operation], operator: &'a str) -> impl Iterator<Item = &'a Operation> {
        page.iter().filter(move |op| op.operator == operator)
    }

    /// One text-showing operation of a content stream.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Shown {
        pub font: Font,
        pub size: f32,
        /// The fill colour in force.
        pub color: Rgb,
        /// The glyphs shown, without positioning.
        pub text: String,
    }

    /// The text shown by `Tj` and `TJ` on `page`, in drawing order, with the font and
    /// colour in force.
    pub fn shown(page: &[Operation]) -> Vec<Shown> {
        let (mut font, mut size, mut color) = (None, 0.0, Rgb::BLACK);
        let mut saved = Vec::new();
        let mut out = Vec::new();
        for op in page {
            match op.operator.as_str() {
                "q" => saved.push((font, size, color)),
                "Q" => (font, size, color) = saved.pop().expect("Q after q"),
                "Tf" => {
                    let name = op.operands[0].as_name().unwrap();
                    font = Font::ALL.into_iter().find(|f| super::resource(*f).0 == name);
                    size = op.operands[1].as_float().unwrap();
                }
                "rg" => {
                    let c = numbers(op);
                    color = Rgb(c[0], c[1], c[2]);
                }
                "Tj" | "TJ" | "'" => {
                    let mut text = String::new();
                    strings(&op.operands[0], &mut text);
                    out.push(Shown { font: font.expect("a font is set before text"), size, color, text });
                }
                _ => {}
            }
        }
        out
    }

    /// The string operands in `obj` (a string, or a `TJ` array), concatenated.
    fn strings(obj: &Object, out: &mut String) {
        match obj {
            Object::String(bytes, _) => out.extend(bytes.iter().map(|&b| b as char)),
            Object::Array(items) => items.iter().for_each(|item| strings(item, out)),
            _ => {}
        }
    }

    #[test]
    fn reads_back_shown_text() {
        let content = b"BT\n/F2 12 Tf\n0 0 1 rg\n1 2 Td\n(a\\)b)Tj\n/F1 9 Tf\n[(1)-20(2)]TJ\nET\n";
        let s = shown(&Content::decode(content).unwrap().operations);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].font, s[0].color, s[0].text.as_str()), (Font::SansBold, Rgb(0.0, 0.0, 1.0), "a)b"));
        assert_eq!((s[1].font, s[1].size, s[1].text.as_str()), (Font::Sans, 9.0, "12"));
    }
}
