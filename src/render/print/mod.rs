//! What a printer needs of every PDF: the trim (page size), mirrored margins whose gutter
//! grows with the page count, a footer on every page, and the options a book is ordered
//! with (trim, title, lookup address, imprint).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

pub mod isbn;

use crate::render::page::{Canvas, Font, Rgb, Style};
use crate::render::typeset::prose::{centred_lines, Breaking};
use isbn::Isbn;

/// Points per inch.
pub const INCH: f32 = 72.0;

/// A named trim size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum TrimName {
    /// US Letter, 8.5 x 11 in (the default).
    #[serde(rename = "letter")]
    Letter,
    #[serde(rename = "6x9")]
    SixByNine,
    #[serde(rename = "5.5x8.5")]
    Digest,
    #[serde(rename = "7x10")]
    SevenByTen,
    /// 210 x 297 mm.
    #[serde(rename = "a4")]
    A4,
    /// 148 x 210 mm.
    #[serde(rename = "a5")]
    A5,
    /// 5.25 x 8 in, the dictionary template's page.
    #[serde(rename = "5.25x8")]
    Pocket,
}

impl TrimName {
    pub const ALL: [TrimName; 7] = [
        TrimName::Letter,
        TrimName::SixByNine,
        TrimName::Digest,
        TrimName::SevenByTen,
        TrimName::A4,
        TrimName::A5,
        TrimName::Pocket,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TrimName::Letter => "letter",
            TrimName::SixByNine => "6x9",
            TrimName::Digest => "5.5x8.5",
            TrimName::SevenByTen => "7x10",
            TrimName::A4 => "a4",
            TrimName::A5 => "a5",
            TrimName::Pocket => "5.25x8",
        }
    }

    /// (width, height) in inches.
    fn inches(self) -> (f32, f32) {
        match self {
            TrimName::Letter => (8.5, 11.0),
            TrimName::SixByNine => (6.0, 9.0),
            TrimName::Digest => (5.5, 8.5),
            TrimName::SevenByTen => (7.0, 10.0),
            TrimName::A4 => (210.0 / 25.4, 297.0 / 25.4),
            TrimName::A5 => (148.0 / 25.4, 210.0 / 25.4),
            TrimName::Pocket => (5.25, 8.0),
        }
    }
}

/// A trim of one's own, in inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ToSchema)]
pub struct CustomTrim {
    #[schema(minimum = 4, maximum = 8.5)]
    pub width_in: f32,
    #[schema(minimum = 6, maximum = 11.69)]
    pub height_in: f32,
}

/// Custom trims range over these widths and heights (inches), inclusive.
pub const CUSTOM_WIDTH: (f32, f32) = (4.0, 8.5);
pub const CUSTOM_HEIGHT: (f32, f32) = (6.0, 11.69);

/// The size of the printed page: a name (`letter`, `6x9`, `5.5x8.5`, `7x10`, `a4`, `a5`, `5.25x8`) or
/// `{"width_in": w, "height_in": h}` within 4–8.5 by 6–11.69 inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Trim {
    Named(TrimName),
    Custom(CustomTrim),
}

impl Default for Trim {
    fn default() -> Self {
        Trim::Named(TrimName::Letter)
    }
}

const TRIM_EXPECTED: &str =
    "trim must be one of letter, 6x9, 5.5x8.5, 7x10, a4, a5, 5.25x8, or {\"width_in\": w, \"height_in\": h} \
     with w from 4 to 8.5 and h from 6 to 11.69 inches";

impl Trim {
    /// A trim as written in a query: a name, or `WxH` in inches (`5.25x8`).
    pub fn parse(text: &str) -> Result<Trim, String> {
        let t = text.trim().to_ascii_lowercase();
        if let Some(name) = TrimName::ALL.into_iter().find(|n| n.as_str() == t) {
            return Ok(Trim::Named(name));
        }
        let (w, h) = t.split_once('x').ok_or_else(|| TRIM_EXPECTED.to_string())?;
        let (w, h) = (w.parse::<f32>(), h.parse::<f32>());
        match (w, h) {
            (Ok(width_in), Ok(height_in)) => Trim::custom(width_in, height_in),
            _ => Err(TRIM_EXPECTED.to_string()),
        }
    }

    /// A custom trim, checked against the allowed ranges.
    pub fn custom(width_in: f32, height_in: f32) -> Result<Trim, String> {
        let within = |v: f32, (lo, hi): (f32, f32)| v.is_finite() && v >= lo && v <= hi;
        if within(width_in, CUSTOM_WIDTH) && within(height_in, CUSTOM_HEIGHT) {
            Ok(Trim::Custom(CustomTrim { width_in, height_in }))
        } else {
            Err(format!("a custom trim of {width_in} x {height_in} in is outside 4–8.5 x 6–11.69 in; {TRIM_EXPECTED}"))
        }
    }

    /// (width, height) in points.
    pub fn size(self) -> (f32, f32) {
        let (w, h) = match self {
            Trim::Named(n) => n.inches(),
            Trim::Custom(c) => (c.width_in, c.height_in),
        };
        (w * INCH, h * INCH)
    }

    /// The name, or `WxH` in inches.
    pub fn label(self) -> String {
        match self {
            Trim::Named(n) => n.as_str().to_string(),
            Trim::Custom(c) => format!("{}x{}", c.width_in, c.height_in),
        }
    }
}

impl<'de> Deserialize<'de> for Trim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Trim, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Name(String),
            Size { width_in: f32, height_in: f32 },
        }
        match Raw::deserialize(d).map_err(|_| D::Error::custom(TRIM_EXPECTED))? {
            Raw::Name(name) => TrimName::ALL
                .into_iter()
                .find(|n| n.as_str() == name)
                .map(Trim::Named)
                .ok_or_else(|| D::Error::custom(TRIM_EXPECTED)),
            Raw::Size { width_in, height_in } => Trim::custom(width_in, height_in).map_err(D::Error::custom),
        }
    }
}

/// The smallest inside (gutter) margin, in inches, for a book of `pages` pages, as
/// print-on-demand services require it.
pub fn min_gutter_in(pages: usize) -> f32 {
    match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

/// A rectangle (x, y of the lower left corner, width, height) in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Area {
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn top(&self) -> f32 {
        self.y + self.h
    }
    pub fn center_x(&self) -> f32 {
        self.x + self.w / 2.0
    }
    /// The area less `top` points at its top and `bottom` at its bottom.
    pub fn shrink(&self, top: f32, bottom: f32) -> Area {
        Area { x: self.x, y: self.y + bottom, w: self.w, h: (self.h - top - bottom).max(0.0) }
    }
    /// As (x, y, width, height).
    pub fn tuple(&self) -> (f32, f32, f32, f32) {
        (self.x, self.y, self.w, self.h)
    }

    /// The area split into `cols` x `rows` equal cells, row by row from the top.
    pub fn split(&self, cols: usize, rows: usize) -> Vec<Area> {
        let (w, h) = (self.w / cols as f32, self.h / rows as f32);
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| Area { x: self.x + c as f32 * w, y: self.top() - (r + 1) as f32 * h, w, h })
            .collect()
    }
}

/// The pages of one document: their size and margins. Odd pages are right-hand pages with
/// the gutter on the left; even pages mirror them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub size: (f32, f32),
    /// Margins in points.
    pub gutter: f32,
    pub outside: f32,
    pub top: f32,
    pub bottom: f32,
}

/// Height of the footer band at the bottom of every page's area.
pub const FOOTER: f32 = 14.0;
const FOOTER_SIZE: f32 = 7.0;

impl Layout {
    /// The layout of a document of `pages` pages on `trim`: the required gutter plus an
    /// eighth of an inch (a book's spine curls into it), and outside, top and bottom margins
    /// of half an inch on pages 7 in wide or more, three eighths below.
    pub fn new(trim: Trim, pages: usize) -> Layout {
        let size = trim.size();
        let edge = if size.0 >= 7.0 * INCH { 0.5 * INCH } else { 0.375 * INCH };
        Layout { size, gutter: (min_gutter_in(pages) + 0.125) * INCH, outside: edge, top: edge, bottom: edge }
    }

    /// Whether page `page` (1-based) is a right-hand page.
    pub fn is_right(page: usize) -> bool {
        page % 2 == 1
    }

    /// The area inside the margins of page `page` (1-based): every mark lies in it.
    pub fn area(&self, page: usize) -> Area {
        let (w, h) = self.size;
        let left = if Layout::is_right(page) { self.gutter } else { self.outside };
        Area { x: left, y: self.bottom, w: w - self.gutter - self.outside, h: h - self.top - self.bottom }
    }

    /// The area of page `page` above its footer.
    pub fn body(&self, page: usize) -> Area {
        self.area(page).shrink(0.0, FOOTER)
    }

    /// The footer of page `page`: `outer` at the outside edge (a page number), `inner` at
    /// the gutter side (the serial or id that traces a loose page to its document).
    pub fn footer(&self, c: &mut Canvas, page: usize, outer: &str, inner: &str) {
        self.footer_parts(c, page, Some(outer), Some(inner));
    }

    /// The footer's parts that are given: a page's own part drawn on it, the part every
    /// page repeats drawn once in a form.
    pub fn footer_parts(&self, c: &mut Canvas, page: usize, outer: Option<&str>, inner: Option<&str>) {
        let a = self.area(page);
        let style = Style::new(Font::Sans, FOOTER_SIZE).color(Rgb::GREY);
        let y = a.y + 2.0;
        let (left, right) = if Layout::is_right(page) { (inner, outer) } else { (outer, inner) };
        if let Some(left) = left {
            c.text(style, a.x, y, left);
        }
        if let Some(right) = right {
            c.text(style, a.right() - style.font.width(right, FOOTER_SIZE), y, right);
        }
    }
}

/// Width of [`COPYRIGHT_SIGN`] drawn at `size`.
fn sign_width(size: f32) -> f32 {
    0.95 * size
}

/// The width of `text` at `style`, © included.
fn imprint_width(style: Style, text: &str) -> f32 {
    text.split(COPYRIGHT_SIGN).map(|part| style.font.width(part, style.size)).sum::<f32>()
        + text.matches(COPYRIGHT_SIGN).count() as f32 * sign_width(style.size)
}

/// `text` with its baseline starting at (`x`, `y`), a © in it drawn as a C in a circle (the
/// fonts have no glyph for it).
fn imprint_text(c: &mut Canvas, style: Style, x: f32, y: f32, text: &str) {
    let mut x = x;
    for (i, part) in text.split(COPYRIGHT_SIGN).enumerate() {
        if i > 0 {
            let r = 0.4 * style.size;
            let center = (x + sign_width(style.size) / 2.0, y + 0.36 * style.size);
            c.stadium(center, center, r, 0.07 * style.size, style.color);
            let inner = Style { size: style.size * 0.55, ..style };
            let baseline = center.1 - inner.font.cap_height() * inner.size / 2000.0;
            c.text_centered(inner, center.0, baseline, "C");
            x += sign_width(style.size);
        }
        if !part.is_empty() {
            c.text(style, x, y, part);
            x += style.font.width(part, style.size);
        }
    }
}

/// The copyright line and the ISBN, those given, at the foot of `area`, left-aligned;
/// returns the height above which the page is free (the area's bottom when neither is given).
pub fn copyright_notice(c: &mut Canvas, area: Area, imprint: &Imprint) -> f32 {
    let style = Style::new(Font::Sans, 8.0);
    let isbn = imprint.isbn().map(|isbn| format!("ISBN {}", isbn.as_str()));
    let lines: Vec<String> = imprint.copyright.iter().cloned().chain(isbn).collect();
    let mut y = area.y + 4.0;
    for line in lines.iter().rev() {
        for (i, part) in wrap_imprint(line, style, area.w).iter().rev().enumerate() {
            if i > 0 {
                y += 11.0;
            }
            imprint_text(c, style, area.x, y, part);
        }
        y += 11.0;
    }
    if lines.is_empty() {
        area.y
    } else {
        y + 4.0
    }
}

/// The layout a product's files are printed with. A product keeps the version it was made
/// under (stored with it), so its files keep their bytes when layouts change; new products
/// take [`LayoutVersion::CURRENT`]. (Fox-book interiors have their own versions,
/// `layouts::foxbook::InteriorVersion`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutVersion {
    /// Prose filled into each line in turn: products made before layouts were versioned.
    V1 = 1,
    /// Prose set by the typesetter's total fit.
    V2 = 2,
    /// Books printed through the book frame ([`crate::render::frame`]): title page,
    /// copyright page, how to play, the first puzzle on a right-hand page, notes pages for
    /// padding, no colour. One-page sheets print as in version 2.
    V3 = 3,
    /// Dictionaries padded with ruled notes pages to an even count of at least 24.
    V4 = 4,
}

impl LayoutVersion {
    pub const CURRENT: LayoutVersion = LayoutVersion::V4;

    pub fn number(self) -> i64 {
        self as i64
    }

    pub fn from_number(n: i64) -> Option<LayoutVersion> {
        [LayoutVersion::V1, LayoutVersion::V2, LayoutVersion::V3, LayoutVersion::V4]
            .into_iter()
            .find(|v| v.number() == n)
    }

    /// How the version breaks prose into lines.
    pub fn prose(self) -> Breaking {
        match self {
            LayoutVersion::V1 => Breaking::FirstFit,
            LayoutVersion::V2 | LayoutVersion::V3 | LayoutVersion::V4 => Breaking::Optimal,
        }
    }
}

/// What a puzzle book's title page says under its title and author.
pub struct TitleText<'a> {
    /// How many puzzles, e.g. "12 One Up puzzles".
    pub count: String,
    pub how_to_play: &'a str,
    /// A line for each level the book has.
    pub levels: Vec<String>,
    pub solutions_page: usize,
}

/// A puzzle book's title page (One Up, word search): title, author, the count, how to play,
/// the levels, where the solutions are; these books have no title page back, so the
/// copyright line and ISBN go at its foot.
pub fn puzzle_title_page(c: &mut Canvas, area: Area, opts: &PrintOptions, text: &TitleText, prose: Breaking) {
    let mid = area.center_x();
    let size = fit_size(Font::SansBold, &opts.title, 32.0, area.w);
    let mut y = area.top() - area.h * 0.15;
    c.text_centered(Style::new(Font::SansBold, size), mid, y, &opts.title);
    if let Some(author) = &opts.imprint.author {
        y -= 24.0;
        c.text_centered(Style::new(Font::Sans, fit_size(Font::Sans, author, 14.0, area.w)), mid, y, author);
    }
    y -= 28.0;
    c.text_centered(Style::new(Font::Sans, 12.0).color(Rgb::GREY), mid, y, &text.count);
    y -= 36.0;
    c.text_centered(Style::new(Font::SansBold, 13.0), mid, y, "How to play");
    let body = Style::new(Font::Sans, 11.0);
    for line in centred_lines(text.how_to_play, body, area.w.min(5.0 * INCH), prose) {
        y -= 16.0;
        c.text_centered(body, mid, y, &line);
    }
    y -= 32.0;
    c.text_centered(Style::new(Font::SansBold, 13.0), mid, y, "Levels");
    for line in &text.levels {
        y -= 16.0;
        c.text_centered(body, mid, y, line);
    }
    y -= 28.0;
    let where_ = format!("Solutions from page {}, under the puzzles' numbers.", text.solutions_page);
    c.text_centered(Style::new(Font::Sans, 10.0).color(Rgb::GREY), mid, y, &where_);
    copyright_notice(c, area, &opts.imprint);
}

/// `text` broken between words into lines no wider than `width`, © counted as drawn.
fn wrap_imprint(text: &str, style: Style, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if imprint_width(style, &format!("{line} {word}")) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// How a one-page puzzle sheet (One Up, crossword) is printed: its heading, the id that
/// pairs a puzzle with its solution (in the PDF title and every page's footer), the trim.
#[derive(Clone, Copy, Debug)]
pub struct SheetSpec<'a> {
    pub title: &'a str,
    pub id: &'a str,
    pub trim: Trim,
    /// How the sheet's prose (clues) breaks into lines: its product's layout version's way.
    pub prose: Breaking,
}

impl SheetSpec<'_> {
    /// The document title: `One Up 3f6c… - solution`, the part named once.
    pub fn doc_title(&self, part: Option<&str>) -> String {
        let base = if self.id.is_empty() { self.title.to_string() } else { format!("{} {}", self.title, self.id) };
        match part {
            Some(p) => format!("{base} - {p}"),
            None => base,
        }
    }

    /// The page's area above its footer.
    pub fn area(&self) -> Area {
        Layout::new(self.trim, 1).body(1)
    }

    /// The footer: the title and id at the gutter side, `part` (puzzle or solution) at the
    /// outside.
    pub fn footer(&self, c: &mut Canvas, part: &str) {
        Layout::new(self.trim, 1).footer(c, 1, part, &self.doc_title(None));
    }
}

/// Page counts of a printed interior: even and at least this many.
pub const MIN_PAGES: usize = 24;

/// The page count of an interior of `content` pages: even and at least [`MIN_PAGES`].
pub fn padded_pages(content: usize) -> usize {
    content.max(MIN_PAGES).next_multiple_of(2)
}

/// What a book is printed with, besides its shape; chosen at order time and stored with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrintOptions {
    #[serde(default)]
    pub trim: Trim,
    #[serde(default = "fox_title")]
    pub title: String,
    /// Where readers look the answer up (printed on the title page's back, with the serial).
    #[serde(default)]
    pub lookup_url: String,
    /// Author, copyright line and ISBN, printed only when given.
    #[serde(flatten)]
    pub imprint: Imprint,
}

/// What a publisher prints about a book besides its title, each part optional: the author
/// (on the title page and the front cover), the copyright line and the ISBN (on the title
/// page's back; the ISBN also as a barcode on the back cover). A book without them prints as
/// before they existed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Imprint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// As printed, e.g. "© 2026 Example Press".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copyright: Option<String>,
    /// Normalised ([`Isbn::parse`]): 10 or 13 characters, no hyphens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isbn: Option<String>,
}

pub const MAX_AUTHOR: usize = 100;
pub const MAX_COPYRIGHT: usize = 120;
/// The copyright sign, the one character beyond printable ASCII a copyright line may hold
/// (drawn, as the fonts have no glyph for it).
pub const COPYRIGHT_SIGN: char = '\u{a9}';

impl Imprint {
    /// The parts as ordered, checked: trimmed, an empty one read as none, the ISBN
    /// normalised; `(field, detail)` of the first at fault.
    pub fn checked(self) -> Result<Imprint, (&'static str, String)> {
        let given = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let isbn = match given(self.isbn) {
            Some(text) => Some(Isbn::parse(&text).map_err(|e| ("isbn", format!("isbn: {e}")))?.as_str().to_string()),
            None => None,
        };
        let imprint = Imprint { author: given(self.author), copyright: given(self.copyright), isbn };
        imprint.validate()?;
        Ok(imprint)
    }

    /// Checks the lengths and characters (the fonts print printable ASCII, and the copyright
    /// line may hold ©) and the ISBN.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let printable = |s: &str, extra: Option<char>| s.chars().all(|c| (' '..='~').contains(&c) || Some(c) == extra);
        if let Some(author) = &self.author {
            if author.chars().count() > MAX_AUTHOR || !printable(author, None) {
                return Err((
                    "author",
                    format!(
                        "author must be at most {MAX_AUTHOR} printable ASCII characters (the fonts print no others)"
                    ),
                ));
            }
        }
        if let Some(line) = &self.copyright {
            if line.chars().count() > MAX_COPYRIGHT || !printable(line, Some(COPYRIGHT_SIGN)) {
                return Err((
                    "copyright",
                    format!(
                        "copyright must be at most {MAX_COPYRIGHT} printable ASCII characters or \u{a9} (the fonts print no others)"
                    ),
                ));
            }
        }
        if let Some(isbn) = &self.isbn {
            match Isbn::parse(isbn) {
                Ok(parsed) if parsed.as_str() == isbn => {}
                Ok(_) => return Err(("isbn", "isbn: not in its normal form".to_string())),
                Err(e) => return Err(("isbn", format!("isbn: {e}"))),
            }
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.author.is_none() && self.copyright.is_none() && self.isbn.is_none()
    }

    /// The ISBN, parsed (stored ones were checked when ordered).
    pub fn isbn(&self) -> Option<Isbn> {
        self.isbn.as_deref().and_then(|i| Isbn::parse(i).ok())
    }
}

pub const DEFAULT_TITLE: &str = "Find the Fox";

/// The title a book of `word` gets when its order names none: "Find the Fox", "Find the
/// Cat", …
pub fn default_title(word: &str) -> String {
    let mut letters = word.chars();
    match letters.next() {
        Some(first) => format!("Find the {}{}", first.to_ascii_uppercase(), letters.as_str().to_ascii_lowercase()),
        None => DEFAULT_TITLE.to_string(),
    }
}

pub const MAX_TITLE: usize = 60;
pub const MAX_LOOKUP_URL: usize = 200;

fn fox_title() -> String {
    DEFAULT_TITLE.to_string()
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            trim: Trim::default(),
            title: fox_title(),
            lookup_url: String::new(),
            imprint: Imprint::default(),
        }
    }
}

impl PrintOptions {
    /// Checks the title, the lookup address and the imprint: `(field, detail)` of the first at
    /// fault.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let printable = |s: &str| s.chars().all(|c| (' '..='~').contains(&c));
        let title = self.title.trim();
        if title.is_empty() || title.chars().count() > MAX_TITLE || !printable(title) {
            return Err((
                "title",
                format!("title must be 1 to {MAX_TITLE} printable ASCII characters (the fonts print no others)"),
            ));
        }
        let url = &self.lookup_url;
        let scheme = url.starts_with("https://") || url.starts_with("http://");
        if !url.is_empty() && (!scheme || url.len() > MAX_LOOKUP_URL || !url.chars().all(|c| ('!'..='~').contains(&c)))
        {
            return Err((
                "lookup_url",
                format!("lookup_url must be an http:// or https:// address of at most {MAX_LOOKUP_URL} ASCII characters without spaces"),
            ));
        }
        self.imprint.validate()
    }
}

/// Why readers of a printed book could not follow `lookup_url`: it names this machine
/// (localhost, a loopback or unspecified address), as a server's default does when it was not
/// told its public address. None for an address readers may reach (or for none at all).
pub fn unreachable_lookup(lookup_url: &str) -> Option<String> {
    let rest = lookup_url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    }
    .to_ascii_lowercase();
    let local = host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    local.then(|| {
        format!(
            "the lookup address {lookup_url} names this machine: readers of the printed book cannot reach it \
             (the server's operator sets its public address with --lookup-url, or an order gives lookup_url)"
        )
    })
}

/// The largest size up to `max` at which `text` fits in `width`.
pub fn fit_size(font: Font, text: &str, max: f32, width: f32) -> f32 {
    let at_one = font.width(text, 1.0);
    if at_one <= 0.0 {
        max
    } else {
        max.min(width / at_one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_parse_from_json_and_queries() {
        let t: Trim = serde_json::from_str("\"6x9\"").unwrap();
        assert_eq!(t.size(), (432.0, 648.0));
        let t: Trim = serde_json::from_str(r#"{"width_in": 5, "height_in": 8}"#).unwrap();
        assert_eq!((t.size(), t.label()), ((360.0, 576.0), "5x8".to_string()));
        assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"width_in":5.0,"height_in":8.0}"#);
        assert_eq!(serde_json::to_string(&Trim::default()).unwrap(), "\"letter\"");
        for bad in ["\"b5\"", "7", r#"{"width_in": 3, "height_in": 8}"#, r#"{"width_in": 5, "height_in": 12}"#] {
            let e = serde_json::from_str::<Trim>(bad).unwrap_err().to_string();
            assert!(e.contains("letter, 6x9"), "{bad}: {e}");
        }
        assert_eq!(Trim::parse("A4").unwrap(), Trim::Named(TrimName::A4));
        assert_eq!(Trim::parse("5.25x8").unwrap(), Trim::Named(TrimName::Pocket));
        assert_eq!(Trim::parse("5.25x8").unwrap().size(), (378.0, 576.0));
        assert_eq!(serde_json::to_string(&Trim::Named(TrimName::Pocket)).unwrap(), "\"5.25x8\"");
        // A custom trim of the same size stays custom, as stored before the name existed.
        let t: Trim = serde_json::from_str(r#"{"width_in": 5.25, "height_in": 8}"#).unwrap();
        assert_eq!((t.label(), t.size()), ("5.25x8".to_string(), (378.0, 576.0)));
        assert!(Trim::parse("9x12").is_err() && Trim::parse("big").is_err());
    }

    #[test]
    fn gutter_grows_with_pages_and_mirrors() {
        assert_eq!(
            [24, 150, 151, 300, 301, 500, 501, 700, 701, 828].map(min_gutter_in),
            [0.375, 0.375, 0.5, 0.5, 0.625, 0.625, 0.75, 0.75, 0.875, 0.875]
        );
        let l = Layout::new(Trim::default(), 204);
        assert!(l.gutter >= 0.5 * INCH && l.outside >= 0.25 * INCH && l.top >= 0.25 * INCH);
        let (odd, even) = (l.area(3), l.area(4));
        assert_eq!((odd.x, even.x), (l.gutter, l.outside));
        assert_eq!(odd.right(), 612.0 - l.outside);
        assert_eq!(even.right(), 612.0 - l.gutter);
        assert_eq!([1, 2, 23, 24, 25, 201, 202].map(padded_pages), [24, 24, 24, 24, 26, 202, 202]);
    }

    #[test]
    fn lookup_addresses_on_this_machine_are_found() {
        for url in [
            "http://127.0.0.1:8080/",
            "http://localhost:8080/",
            "https://LOCALHOST/find",
            "http://[::1]:80/x",
            "http://0.0.0.0/",
            "http://user@127.1.2.3",
            "http://app.localhost/?serial=1",
        ] {
            assert!(unreachable_lookup(url).is_some(), "{url}");
        }
        for url in
            ["", "https://example.com/find", "http://10.0.0.1/", "http://[2001:db8::1]/", "https://localhost.example/"]
        {
            assert_eq!(unreachable_lookup(url), None, "{url}");
        }
    }

    #[test]
    fn print_options_are_checked() {
        let ok = PrintOptions { lookup_url: "https://example.com/find".into(), ..Default::default() };
        assert!(ok.validate().is_ok());
        let bad_title = PrintOptions { title: "Füchse".into(), ..Default::default() };
        assert_eq!(bad_title.validate().unwrap_err().0, "title");
        let bad_url = PrintOptions { lookup_url: "ftp://x".into(), ..Default::default() };
        assert_eq!(bad_url.validate().unwrap_err().0, "lookup_url");
    }

    #[test]
    fn an_imprint_is_trimmed_normalised_and_checked() {
        let given = |a: &str, c: &str, i: &str| Imprint {
            author: Some(a.into()),
            copyright: Some(c.into()),
            isbn: Some(i.into()),
        };
        let ok = given(" Ada Fox ", "\u{a9} 2026 Example Press", "ISBN 0-8044-2957-x").checked().unwrap();
        assert_eq!(ok, given("Ada Fox", "\u{a9} 2026 Example Press", "080442957X"));
        assert_eq!(given("", " ", "").checked().unwrap(), Imprint::default(), "empty parts are none");
        let field = |i: Imprint| i.checked().unwrap_err();
        assert_eq!(field(given("Ada", "", "978-0-306-40615-8")).0, "isbn");
        assert!(field(given("Ada", "", "978-0-306-40615-8")).1.contains("check digit should be 7"));
        assert_eq!(field(given("\u{a9} Ada", "", "")).0, "author", "only a copyright line may hold \u{a9}");
        assert_eq!(field(given("F\u{fc}chsin", "", "")).0, "author");
        assert_eq!(field(given(&"a".repeat(MAX_AUTHOR + 1), "", "")).0, "author");
        assert_eq!(field(given("", &"c".repeat(MAX_COPYRIGHT + 1), "")).0, "copyright");
        assert_eq!(field(given("", "Copyright 2026 \u{2014} Press", "")).0, "copyright");
        assert!(given(&"a".repeat(MAX_AUTHOR), &"c".repeat(MAX_COPYRIGHT), "").checked().is_ok());
        // Stored options are validated as stored: an ISBN not in its normal form is refused.
        let stored = PrintOptions { imprint: given("A", "C", "978-0-306-40615-7"), ..Default::default() };
        assert_eq!(stored.validate().unwrap_err().0, "isbn");
    }

    #[test]
    fn an_imprint_is_stored_only_when_given() {
        // Options without an imprint serialize as before it existed (stored jobs and runs
        // compare equal), and old ones read as none.
        let plain = PrintOptions::default();
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"trim":"letter","title":"Find the Fox","lookup_url":""}"#
        );
        let read: PrintOptions = serde_json::from_str(r#"{"trim":"6x9","title":"T","lookup_url":""}"#).unwrap();
        assert!(read.imprint.is_empty());
        let with = PrintOptions {
            imprint: Imprint { isbn: Some("9780306406157".into()), ..Default::default() },
            ..Default::default()
        };
        let json = serde_json::to_string(&with).unwrap();
        assert!(json.ends_with(r#""lookup_url":"","isbn":"9780306406157"}"#), "{json}");
        assert_eq!(serde_json::from_str::<PrintOptions>(&json).unwrap(), with);
    }
}
