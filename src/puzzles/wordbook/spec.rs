//! What a word book order says (word, letters, shape, size) and its validation into a
//! [`Plan`] the sampler runs.

use serde::{Deserialize, Serialize};

/// Pages, rows and columns the generator supports (inclusive), as for FOX books.
pub const PAGES_RANGE: (u32, u32) = (1, 1000);
pub const ROWS_RANGE: (u32, u32) = (3, 64);
pub const COLS_RANGE: (u32, u32) = (3, 64);
/// Word length and alphabet size.
pub const WORD_LEN_RANGE: (usize, usize) = (2, 8);
pub const MAX_LETTERS: usize = 8;

/// The shape of every page: which of the `rows` x `cols` cells hold a letter. In JSON, a
/// built-in shape is its name (`"heart"`) and a mask is an array of its rows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Every cell.
    #[default]
    Rectangle,
    /// Built-in outlines, scaled to `rows` x `cols`.
    Heart,
    Circle,
    Star,
    /// A fox's head: two ears, cheeks and a pointed snout.
    Fox,
    /// Explicit rows: `.` is a letter cell, `#` or a space is no cell. There must be `rows`
    /// lines of at most `cols` characters (shorter lines end in no cells).
    Mask(Vec<String>),
}

/// The built-in shapes by name.
pub const SHAPE_NAMES: [(&str, Shape); 5] = [
    ("rectangle", Shape::Rectangle),
    ("heart", Shape::Heart),
    ("circle", Shape::Circle),
    ("star", Shape::Star),
    ("fox", Shape::Fox),
];

impl Shape {
    /// A built-in shape by name, or else (text of `.`, `#`, spaces and line breaks) a mask,
    /// one row per line; anything else is refused, listing the names.
    pub fn parse(text: &str) -> Result<Shape, String> {
        if let Some((_, shape)) = SHAPE_NAMES.iter().find(|(name, _)| *name == text) {
            return Ok(shape.clone());
        }
        if text.contains('\n') && text.chars().all(|c| matches!(c, '.' | '#' | ' ' | '\n' | '\r')) {
            return Ok(Shape::Mask(text.lines().map(str::to_owned).collect()));
        }
        let names: Vec<&str> = SHAPE_NAMES.iter().map(|(n, _)| *n).collect();
        Err(format!(
            "unknown shape {text:?}: give one of {}, or a mask (an array of rows of `.` for a cell and `#` for none)",
            names.join(", ")
        ))
    }

    /// The built-in shape's name (`None` for a mask).
    pub fn name(&self) -> Option<&'static str> {
        SHAPE_NAMES.iter().find(|(_, s)| s == self).map(|(n, _)| *n)
    }

    /// The letter cells on a `rows` x `cols` page, or why the mask is unusable.
    pub fn cells(&self, rows: usize, cols: usize) -> Result<Mask, String> {
        let inside: Box<dyn Fn(f64, f64) -> bool> = match self {
            Shape::Rectangle => Box::new(|_, _| true),
            Shape::Heart => Box::new(|x, y| {
                // The heart curve (x² + y² - 1)³ = x² y³ spans x in ±1.14, y from -1 to 1.25
                // (y up); stretch it to the box.
                let (x, y) = (1.14 * x, 0.125 - 1.125 * y);
                (x * x + y * y - 1.0).powi(3) - x * x * y.powi(3) <= 0.0
            }),
            Shape::Circle => Box::new(|x, y| x * x + y * y <= 1.0),
            Shape::Star => Box::new(|x, y| in_polygon(&star_outline(), x, y)),
            Shape::Fox => Box::new(|x, y| in_polygon(&FOX_OUTLINE, x, y)),
            Shape::Mask(lines) => return Mask::from_lines(lines, rows, cols),
        };
        // Fitting an outline samples it a few hundred times at most; books are read a page
        // at a time, so each size is fitted once.
        type Fitted = std::collections::HashMap<(Shape, usize, usize), Mask>;
        static FITTED: std::sync::Mutex<Option<Fitted>> = std::sync::Mutex::new(None);
        let key = (self.clone(), rows, cols);
        if let Some(mask) = FITTED.lock().ok().and_then(|m| m.as_ref()?.get(&key).cloned()) {
            return Ok(mask);
        }
        let mask = outline_mask(&*inside, rows, cols);
        if let Ok(mut fitted) = FITTED.lock() {
            let fitted = fitted.get_or_insert_with(Fitted::new);
            // Bounded: 4 outlines x 62 x 62 sizes could be asked for.
            if fitted.len() >= 1024 {
                fitted.clear();
            }
            fitted.insert(key, mask.clone());
        }
        Ok(mask)
    }
}

/// The cells of an outline in [-1, 1]² (y down) on a `rows` x `cols` page: those whose
/// centre is inside. Sampled on the page itself, a thin tip (the heart's point, the star's
/// arms) can fall between centres and leave an edge row or column empty; so the outline is
/// sampled on the smallest slightly larger virtual page on which its cells span exactly
/// `rows` x `cols`, and cropped to them. Where no such page is near, the first on which
/// they span at least that much is cropped: columns equally on both sides (outlines are
/// mirror-symmetric), rows from whichever end is thinner.
fn outline_mask(inside: &dyn Fn(f64, f64) -> bool, rows: usize, cols: usize) -> Mask {
    let sample = |vr: usize, vc: usize| -> Vec<bool> {
        let at = |k: usize, n: usize| (2.0 * k as f64 + 1.0 - n as f64) / n as f64;
        // Every outline is mirror-symmetric: testing the left half alone keeps rounding from
        // making a cell and its mirror image disagree.
        (0..vr).flat_map(|r| (0..vc).map(move |c| inside(-at(c, vc).abs(), at(r, vr)))).collect()
    };
    // The first and last occupied row and column of a sampled page.
    let span = |cells: &[bool], vr: usize, vc: usize| -> Option<((usize, usize), (usize, usize))> {
        let row = |r: usize| cells[r * vc..(r + 1) * vc].iter().any(|&b| b);
        let col = |c: usize| (0..vr).any(|r| cells[r * vc + c]);
        let rows = ((0..vr).find(|&r| row(r))?, (0..vr).rev().find(|&r| row(r))?);
        let cols = ((0..vc).find(|&c| col(c))?, (0..vc).rev().find(|&c| col(c))?);
        Some((rows, cols))
    };
    let mut roomy = None;
    let mut exact = None;
    'search: for vr in rows..=rows + rows / 4 + 2 {
        for vc in cols..=cols + cols / 4 + 2 {
            let Some(((r0, r1), (c0, c1))) = span(&sample(vr, vc), vr, vc) else { continue };
            let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
            if (h, w) == (rows, cols) {
                exact = Some((vr, vc));
                break 'search;
            }
            if roomy.is_none() && h >= rows && w >= cols && (w - cols).is_multiple_of(2) {
                roomy = Some((vr, vc));
            }
        }
    }
    let Some((vr, vc)) = exact.or(roomy) else {
        // An outline too small to reach the edges: its centres on the page.
        return Mask { rows, cols, cells: sample(rows, cols) };
    };
    let page = sample(vr, vc);
    let ((mut top, mut bottom), (c0, c1)) = span(&page, vr, vc).expect("found above");
    let count = |r: usize| page[r * vc..(r + 1) * vc].iter().filter(|&&b| b).count();
    while bottom - top + 1 > rows {
        if count(bottom) < count(top) {
            bottom -= 1;
        } else {
            top += 1;
        }
    }
    let left = c0 + (c1 - c0 + 1 - cols) / 2;
    let cells = (top..top + rows)
        .flat_map(|r| (left..left + cols).map(move |c| (r, c)))
        .map(|(r, c)| page[r * vc + c])
        .collect();
    Mask { rows, cols, cells }
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Shape::Mask(rows) => rows.serialize(s),
            named => s.serialize_str(named.name().expect("every other shape has a name")),
        }
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Shape;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a shape's name (rectangle, heart, circle, star, fox) or a mask: an array of rows")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Shape, E> {
                Shape::parse(v).map_err(E::custom)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
                let mut rows = Vec::new();
                while let Some(row) = seq.next_element::<String>()? {
                    // Bounded by the largest page, so a hostile mask cannot grow without end.
                    if rows.len() >= ROWS_RANGE.1 as usize || row.len() > 4 * COLS_RANGE.1 as usize {
                        return Err(serde::de::Error::custom(format!(
                            "a mask has at most {} rows of at most {} cells",
                            ROWS_RANGE.1, COLS_RANGE.1
                        )));
                    }
                    rows.push(row);
                }
                Ok(Shape::Mask(rows))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl utoipa::PartialSchema for Shape {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        let names: Vec<&str> = SHAPE_NAMES.iter().map(|(n, _)| *n).collect();
        OneOfBuilder::new()
            .description(Some(
                "The pages' shape: a built-in outline by name, scaled to `rows` x `cols`, or a mask: one string \
                 per row, `.` for a letter cell and `#` or a space for none (rows and cols default to the \
                 mask's size).",
            ))
            .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(names)))
            .item(
                ArrayBuilder::new()
                    .items(ObjectBuilder::new().schema_type(Type::String).pattern(Some("^[.# ]{0,64}$")))
                    .min_items(Some(3))
                    .max_items(Some(64)),
            )
            .into()
    }
}

impl utoipa::ToSchema for Shape {}

/// A fox's head in [-1, 1]² (y down): ear tips at the top corners, snout at the bottom.
const FOX_OUTLINE: [(f64, f64); 11] = [
    (-1.0, -1.0),
    (-0.35, -0.45),
    (0.35, -0.45),
    (1.0, -1.0),
    (0.95, -0.05),
    (0.75, 0.3),
    (0.3, 0.6),
    (0.0, 1.0),
    (-0.3, 0.6),
    (-0.75, 0.3),
    (-0.95, -0.05),
];

/// A five-pointed star in [-1, 1]², one point up.
fn star_outline() -> Vec<(f64, f64)> {
    (0..10)
        .map(|k| {
            let radius = if k % 2 == 0 { 1.0 } else { 0.45 };
            let angle = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
            (radius * angle.cos(), 0.1 + radius * angle.sin())
        })
        .collect()
}

/// Even-odd rule point-in-polygon test.
fn in_polygon(poly: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut inside = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let ((xi, yi), (xj, yj)) = (poly[i], poly[j]);
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Which cells of a page hold letters, row-major.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mask {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<bool>,
}

impl Mask {
    fn from_lines(lines: &[String], rows: usize, cols: usize) -> Result<Mask, String> {
        if lines.len() != rows {
            return Err(format!("the mask has {} rows but `rows` is {rows}", lines.len()));
        }
        let mut cells = vec![false; rows * cols];
        for (r, line) in lines.iter().enumerate() {
            if line.chars().count() > cols {
                return Err(format!("row {} of the mask is longer than `cols` ({cols})", r + 1));
            }
            for (c, ch) in line.chars().enumerate() {
                cells[r * cols + c] = match ch {
                    '.' => true,
                    '#' | ' ' => false,
                    other => {
                        return Err(format!(
                        "row {} of the mask has {other:?} at column {}; use `.` for a cell, `#` or a space for none",
                        r + 1,
                        c + 1
                    ))
                    }
                };
            }
        }
        Ok(Mask { rows, cols, cells })
    }

    /// Whether `(r, c)` (possibly off the page) is a letter cell.
    pub fn is_cell(&self, r: isize, c: isize) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && self.cells[r as usize * self.cols + c as usize]
    }

    /// Number of letter cells.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|&&b| b).count()
    }

    /// The mask drawn as rows of `.` and `#`.
    pub fn rows_text(&self) -> Vec<String> {
        self.cells.chunks(self.cols).map(|row| row.iter().map(|&b| if b { '.' } else { '#' }).collect()).collect()
    }

    /// Straight runs of `len` consecutive letter cells along the four line directions (each
    /// run once, from its first cell in row-major order), as their first cell and step.
    pub fn runs(&self, len: usize) -> impl Iterator<Item = ((usize, usize), (isize, isize))> + '_ {
        (0..self.rows).flat_map(move |r| {
            (0..self.cols).flat_map(move |c| {
                LINES.into_iter().filter_map(move |(dr, dc)| {
                    (0..len as isize)
                        .all(|k| self.is_cell(r as isize + k * dr, c as isize + k * dc))
                        .then_some(((r, c), (dr, dc)))
                })
            })
        })
    }
}

/// The four line directions whose first cell comes first in row-major order.
pub(crate) const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A word book order. Missing JSON fields take the defaults: FOX on F, O, X, rectangular
/// pages of 32 x 20, 200 pages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WordSpec {
    /// The word hidden once in the book: 2 to 8 letters A–Z.
    pub word: String,
    /// The letters pages are made of (distinct, A–Z, at most 8, containing the word's);
    /// `None` means the word's distinct letters in order of first appearance.
    pub letters: Option<String>,
    pub shape: Shape,
    pub pages: u32,
    pub rows: u32,
    pub cols: u32,
}

impl Default for WordSpec {
    fn default() -> Self {
        WordSpec { word: "FOX".into(), letters: None, shape: Shape::Rectangle, pages: 200, rows: 32, cols: 20 }
    }
}

/// Why a spec was refused: the field to fix and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}`: {detail}")]
pub struct SpecError {
    pub field: &'static str,
    pub detail: String,
}

fn refuse<T>(field: &'static str, detail: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError { field, detail: detail.into() })
}

/// A validated spec, resolved into what the sampler needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The word, ASCII upper case.
    pub word: Vec<u8>,
    /// The alphabet, ASCII upper case, in the order given (or of first appearance).
    pub letters: Vec<u8>,
    /// The shape as ordered, and its cells.
    pub shape: Shape,
    pub mask: Mask,
    pub pages: usize,
    /// A letter that is neither the word's first nor its last: filling cells with it in
    /// row-major order never creates an occurrence (see [`super::chain`]).
    pub filler: u8,
}

impl Plan {
    /// The word as indices into `letters`.
    pub fn word_indices(&self) -> Vec<usize> {
        self.word.iter().map(|w| self.letters.iter().position(|l| l == w).expect("validated")).collect()
    }

    pub fn is_palindrome(&self) -> bool {
        self.word.iter().eq(self.word.iter().rev())
    }

    /// Straight runs of the word's length on the page: where an occurrence may lie.
    pub fn placements(&self) -> usize {
        self.mask.runs(self.word.len()).count()
    }
}

impl WordSpec {
    /// The spec an order's optional members make: defaults for missing ones, and a mask's
    /// own size for missing `rows` and `cols`.
    pub fn with_defaults(
        word: Option<String>,
        letters: Option<String>,
        shape: Option<Shape>,
        pages: Option<u32>,
        rows: Option<u32>,
        cols: Option<u32>,
    ) -> WordSpec {
        let d = WordSpec::default();
        let shape = shape.unwrap_or_default();
        let (mask_rows, mask_cols) = match &shape {
            Shape::Mask(lines) => {
                (lines.len() as u32, lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32)
            }
            _ => (d.rows, d.cols),
        };
        WordSpec {
            word: word.unwrap_or(d.word),
            letters,
            shape,
            pages: pages.unwrap_or(d.pages),
            rows: rows.unwrap_or(mask_rows),
            cols: cols.unwrap_or(mask_cols),
        }
    }

    /// The letters pages are made of: `letters` as given, else the word's distinct letters
    /// in order of first appearance.
    pub fn alphabet(&self) -> Vec<u8> {
        match &self.letters {
            Some(text) => text.as_bytes().to_vec(),
            None => {
                let word = self.word.as_bytes();
                word.iter().enumerate().filter(|(i, l)| !word[..*i].contains(l)).map(|(_, &l)| l).collect()
            }
        }
    }

    /// Checks every field; the error names the first field to fix.
    pub fn validate(&self) -> Result<Plan, SpecError> {
        let word = self.word.as_bytes().to_vec();
        if !(WORD_LEN_RANGE.0..=WORD_LEN_RANGE.1).contains(&word.len()) || !word.iter().all(u8::is_ascii_uppercase) {
            return refuse("word", format!("must be 2 to 8 letters A-Z (got {:?})", self.word));
        }
        let letters: Vec<u8> = match &self.letters {
            None => self.alphabet(),
            Some(text) => {
                let letters = text.as_bytes().to_vec();
                if letters.is_empty() || letters.len() > MAX_LETTERS || !letters.iter().all(u8::is_ascii_uppercase) {
                    return refuse("letters", format!("must be 1 to 8 letters A-Z (got {text:?})"));
                }
                if let Some((i, l)) = letters.iter().enumerate().find(|(i, l)| letters[..*i].contains(l)) {
                    return refuse("letters", format!("{} appears twice (position {})", *l as char, i + 1));
                }
                if let Some(l) = word.iter().find(|l| !letters.contains(l)) {
                    return refuse(
                        "letters",
                        format!("must contain every letter of the word; {} is missing", *l as char),
                    );
                }
                letters
            }
        };
        if letters.len() > MAX_LETTERS {
            return refuse("word", "has more than 8 distinct letters");
        }
        if letters.len() == 1 {
            return refuse(
                "letters",
                format!(
                    "with the single letter {} every page would contain {}; add another letter",
                    letters[0] as char, self.word
                ),
            );
        }
        let (first, last) = (word[0], word[word.len() - 1]);
        let Some(&filler) = letters.iter().find(|&&l| l != first && l != last) else {
            let add = (b'A'..=b'Z').find(|l| !word.contains(l)).expect("a word has at most 8 letters");
            return refuse(
                "letters",
                format!(
                    "need a letter that is neither the first nor the last letter of {} (so pages can be shown \
                     to connect); add one, e.g. {}",
                    self.word, add as char
                ),
            );
        };
        if word.len() == 2 && first != last && letters.len() < 4 {
            let add = (b'A'..=b'Z').find(|l| !letters.contains(l)).expect("at most 8 letters");
            return refuse(
                "letters",
                format!(
                    "a word of two different letters on {} letters mixes too slowly (its chain's \
                     autocorrelation time exceeds 1,000 sweeps); use at least 4 letters, e.g. add {}",
                    letters.len(),
                    add as char
                ),
            );
        }
        for (field, value, (min, max)) in
            [("pages", self.pages, PAGES_RANGE), ("rows", self.rows, ROWS_RANGE), ("cols", self.cols, COLS_RANGE)]
        {
            if value < min || value > max {
                return refuse(field, format!("must be between {min} and {max} (got {value})"));
            }
        }
        let mask = self
            .shape
            .cells(self.rows as usize, self.cols as usize)
            .map_err(|detail| SpecError { field: "shape", detail })?;
        let plan = Plan { word, letters, shape: self.shape.clone(), mask, pages: self.pages as usize, filler };
        if plan.placements() == 0 {
            return refuse(
                "shape",
                format!(
                    "has no straight run of {} cells, so {} cannot appear; use a larger page or shape",
                    plan.word.len(),
                    self.word
                ),
            );
        }
        Ok(plan)
    }
}
