//! A paperback's cover as one full wrap — back, spine, front, left to right — with bleed on
//! every side, for the interior [`super::foxbook::book_pdf`] prints: the title (and author)
//! on the front, the title on the spine, the serial, lookup address and ISBN barcode on the back.
//! From fox interior version 4 and layout version 4 the front shows a piece of the book in
//! one of a few palettes ([`art`]).

mod art;

pub use art::{contrast, Art, Palette};

use serde::{Deserialize, Serialize};

use super::foxbook::{interior_pages, letter_list, pages_phrase, printed_serial, InteriorVersion};
use crate::puzzles::wordbook::WordBook;
use crate::render::page::{Canvas, Document, Font, Paint, Rgb, Style};
use crate::render::print::isbn::draw_barcode;
use crate::render::print::{fit_size, Area, PrintOptions, INCH};
use crate::render::typeset::prose::{lines, Breaking};

/// Paper the interior is printed on; it sets the spine's width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    #[default]
    White,
    Cream,
}

impl Paper {
    /// Thickness of one page (a leaf's side), in inches.
    pub fn page_thickness_in(self) -> f32 {
        match self {
            Paper::White => 0.002252,
            Paper::Cream => 0.0025,
        }
    }

    pub fn parse(text: &str) -> Result<Paper, String> {
        match text {
            "white" => Ok(Paper::White),
            "cream" => Ok(Paper::Cream),
            _ => Err("paper must be white or cream".to_string()),
        }
    }
}

/// Bleed beyond the trim on every side, in points.
pub const BLEED: f32 = 0.125 * INCH;
/// Text on the spine from this many pages (thinner spines are too narrow to print on).
pub const SPINE_TEXT_PAGES: usize = 79;
/// The box on the back for the ISBN's barcode (kept blank for a book without one), in points.
pub const BARCODE: (f32, f32) = (2.0 * INCH, 1.2 * INCH);
/// Text keeps this far inside the trim and the folds.
const SAFE: f32 = 0.375 * INCH;
const BACKGROUND: Rgb = Rgb(0.93, 0.55, 0.2);
const INK: Rgb = Rgb(0.1, 0.1, 0.1);

/// The spine's width in points for `pages` interior pages on `paper`.
pub fn spine_width(pages: usize, paper: Paper) -> f32 {
    pages as f32 * paper.page_thickness_in() * INCH
}

/// Where the parts of a cover lie on its page, in points.
#[derive(Clone, Copy, Debug)]
pub struct CoverGeometry {
    /// The whole page, bleed included.
    pub size: (f32, f32),
    pub back: Area,
    pub spine: Area,
    pub front: Area,
    /// The blank box for the barcode, on the back.
    pub barcode: Area,
}

impl CoverGeometry {
    /// The cover of an interior of `pages` pages.
    pub fn new(pages: usize, opts: &PrintOptions, paper: Paper) -> CoverGeometry {
        let (tw, th) = opts.trim.size();
        let spine = spine_width(pages, paper);
        let size = (2.0 * tw + spine + 2.0 * BLEED, th + 2.0 * BLEED);
        let back = Area { x: BLEED, y: BLEED, w: tw, h: th };
        let spine = Area { x: BLEED + tw, y: BLEED, w: spine, h: th };
        let front = Area { x: spine.right(), y: BLEED, w: tw, h: th };
        let barcode = Area { x: back.right() - SAFE - BARCODE.0, y: back.y + SAFE, w: BARCODE.0, h: BARCODE.1 };
        CoverGeometry { size, back, spine, front, barcode }
    }
}

/// What a cover says beyond the title, author and ISBN (which come from the print options).
#[derive(Clone, Debug)]
pub struct CoverText {
    /// Under the title's panel on the front.
    pub tagline: String,
    /// At the foot of the front.
    pub foot: String,
    /// The back's paragraph.
    pub blurb: String,
    /// What identifies the book (a serial, a book's code) and its label, on the back and the spine.
    pub code_label: String,
    pub code: String,
}

/// How a cover's front is drawn.
pub enum Design<'a> {
    /// The title in a pale panel on orange (covers before the artwork).
    Classic,
    /// A piece of the book on a card, in `palette`'s colours.
    Art { art: Art<'a>, palette: Palette },
}

/// The cover of `book` (serial `serial`) for its interior printed by `version` (its spine,
/// its prose broken as the interior's; from version 4 a window onto its first page's letters
/// on the front, in `palette`, Fox by default).
pub fn cover(
    book: &WordBook,
    serial: &str,
    opts: &PrintOptions,
    paper: Paper,
    version: InteriorVersion,
    palette: Option<Palette>,
) -> Wrap {
    let plan = &book.plan;
    let spec = plan.size();
    let word = String::from_utf8_lossy(&plan.word);
    let text = CoverText {
        tagline: format!("One {word} in {} pages of letters", spec.pages),
        foot: "A unique puzzle book".into(),
        blurb: format!(
            "Somewhere in this book the word {word} appears exactly once: across, down or diagonally, forwards or \
             backwards, among {} {}. Every copy is different; no one else has this one.",
            pages_phrase(plan),
            letter_list(&plan.letters)
        ),
        code_label: "Serial number".into(),
        code: printed_serial(serial),
    };
    let design = match (version, book.pages.first()) {
        (InteriorVersion::V4, Some(page)) => {
            Design::Art { art: Art::FoxWindow { rows: page.rows_text() }, palette: palette.unwrap_or(Palette::Fox) }
        }
        _ => Design::Classic,
    };
    wrap(&text, &design, opts, interior_pages(spec.pages, version), paper, version.prose())
}

/// A cover drawn: its PDF, or a preview of its front.
pub struct Wrap {
    doc: Document,
    geometry: CoverGeometry,
}

impl Wrap {
    pub fn pdf(self) -> Vec<u8> {
        self.doc.finish()
    }

    /// The front, trimmed (no bleed), as an SVG 360 pixels wide: the preview the web pages
    /// show.
    pub fn front_svg(&self) -> String {
        crate::render::svg::svg(&self.doc.pages[0], self.geometry.front, 360.0)
    }
}

/// A cover for an interior of `pages` pages: the title (and author) on the front, the title
/// and code on the spine when it is wide enough, the blurb, code, lookup address and ISBN
/// barcode on the back; the blurb broken into lines by `prose`.
pub fn wrap(
    text: &CoverText,
    design: &Design,
    opts: &PrintOptions,
    pages: usize,
    paper: Paper,
    prose: Breaking,
) -> Wrap {
    let g = CoverGeometry::new(pages, opts, paper);
    let printed = &text.code;
    let mut doc = Document::new();
    doc.set_title(&format!("{} {printed} - cover", opts.title));
    let c = doc.add_page_with_bleed(g.size, BLEED);
    let (background, ink) = match design {
        Design::Classic => (BACKGROUND, INK),
        Design::Art { palette, .. } => (palette.colours().background, palette.colours().text),
    };
    c.rect(0.0, 0.0, g.size.0, g.size.1, Paint::Fill(background));

    let f = g.front;
    let inner = Area { x: f.x + SAFE, y: f.y + SAFE, w: f.w - 2.0 * SAFE, h: f.h - 2.0 * SAFE };
    if let Design::Art { art, palette } = design {
        let author = opts.imprint.author.as_deref();
        art::front(c, inner, &opts.title, author, text, art, palette.colours());
    } else {
        classic_front(c, inner, text, opts);
    }
    spine_and_back(c, &g, text, opts, pages, ink, prose);
    Wrap { doc, geometry: g }
}

/// The front before the artwork: the title in a pale panel, a line of what is inside.
fn classic_front(c: &mut Canvas, inner: Area, text: &CoverText, opts: &PrintOptions) {
    let panel_h = inner.h * 0.3;
    let panel_y = inner.top() - inner.h * 0.15 - panel_h;
    c.rect(inner.x, panel_y, inner.w, panel_h, Paint::Fill(Rgb(1.0, 0.97, 0.9)));
    let size = fit_size(Font::SansBold, &opts.title, 40.0, inner.w - 24.0);
    let title = Style::new(Font::SansBold, size).color(INK);
    let mid = panel_y + panel_h / 2.0;
    match &opts.imprint.author {
        None => c.text_centered(title, inner.center_x(), mid - size * 0.35, &opts.title),
        // The title and the author under it, centred together in the panel.
        Some(author) => {
            let by = Style::new(Font::Sans, fit_size(Font::Sans, author, 20.0, inner.w - 24.0)).color(INK);
            let cap = |s: Style| s.font.cap_height() * s.size / 1000.0;
            let block = cap(title) + 0.6 * size + cap(by);
            c.text_centered(title, inner.center_x(), mid + block / 2.0 - cap(title), &opts.title);
            c.text_centered(by, inner.center_x(), mid - block / 2.0, author);
        }
    }
    let tagline = &text.tagline;
    let style = Style::new(Font::Sans, fit_size(Font::Sans, tagline, 14.0, inner.w)).color(INK);
    c.text_centered(style, inner.center_x(), panel_y - 32.0, tagline);
    c.text_centered(Style::new(Font::Sans, 9.0).color(INK), inner.center_x(), inner.y + 6.0, &text.foot);
}

/// The spine (title and code when it is wide enough) and the back (blurb, code, lookup
/// address, the ISBN's barcode), their text in `ink`.
fn spine_and_back(
    c: &mut Canvas,
    g: &CoverGeometry,
    text: &CoverText,
    opts: &PrintOptions,
    pages: usize,
    ink: Rgb,
    prose: Breaking,
) {
    let printed = &text.code;
    // Spine: title and code, reading top to bottom, only on spines wide enough.
    if pages >= SPINE_TEXT_PAGES {
        let s = g.spine;
        let size = (s.w * 0.5).min(12.0);
        let text = format!("{}   {printed}", opts.title);
        let style =
            Style::new(Font::SansBold, size.min(fit_size(Font::SansBold, &text, size, s.h - 2.0 * SAFE))).color(ink);
        let x = s.center_x() - style.font.cap_height() * style.size / 2000.0;
        let y = s.top() - SAFE;
        c.text_downwards(style, x, y, &text);
    }

    // Back: a short text, the code, the lookup address, and the barcode box: the ISBN's
    // barcode, or blank.
    let b = g.back;
    let inner = Area { x: b.x + SAFE, y: b.y + SAFE, w: b.w - 2.0 * SAFE, h: b.h - 2.0 * SAFE };
    let body = Style::new(Font::Sans, 11.0).color(ink);
    let mut y = inner.top() - 14.0;
    for line in lines(&text.blurb, body, inner.w, prose) {
        c.text(body, inner.x, y, &line);
        y -= 15.0;
    }
    y -= 12.0;
    c.text(Style::new(Font::Sans, 9.0).color(ink), inner.x, y, &text.code_label);
    y -= 16.0;
    c.text(Style::new(Font::Mono, 13.0).color(ink), inner.x, y, printed);
    if !opts.lookup_url.is_empty() {
        y -= 22.0;
        c.text(Style::new(Font::Sans, 9.0).color(ink), inner.x, y, "Find the answer at");
        let mono = Style::new(Font::Mono, 9.0).color(ink);
        for line in lines(&opts.lookup_url, mono, inner.w, prose) {
            y -= 12.0;
            c.text(mono, inner.x, y, &line);
        }
    }
    let bc = g.barcode;
    match opts.imprint.isbn() {
        Some(isbn) => draw_barcode(c, &isbn, bc),
        None => c.rect(bc.x, bc.y, bc.w, bc.h, Paint::Fill(Rgb(1.0, 1.0, 1.0))),
    }
}
