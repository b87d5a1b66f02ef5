//! The sans family: DejaVu Sans and DejaVu Sans Mono, regular and bold (their licence
//! allows embedding and redistribution: `fonts/DejaVu-LICENSE`), for every product's pages
//! but the dictionary's.
//!
//! Text is printable ASCII, one byte a character. Each font is subset (by `build.rs`, when
//! the program is built) to the 95 printable ASCII glyphs, in code order, so that glyph
//! `code - 31` of the subset is the character with that code: one encoding CMap and one
//! ToUnicode CMap serve every font of the family, and drawing text never has to track which glyphs a
//! document used.

/// The printable ASCII range, the only characters drawn; others print as `?`.
pub const FIRST: u8 = b' ';
pub const LAST: u8 = b'~';
const GLYPHS: usize = (LAST - FIRST) as usize + 1;

/// An embedded font.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Font {
    /// Running text.
    Sans,
    SansBold,
    /// Grid letters and guides: every letter and digit the same width, a zero with a dot.
    Mono,
    MonoBold,
}

/// What a PDF needs of a font, computed when the program is built.
pub struct Metrics {
    /// PostScript name with the subset tag, e.g. `PZPRSA+DejaVuSans`.
    pub name: &'static str,
    /// Advance widths of the characters FIRST..=LAST, in 1/1000 em.
    pub widths: [u16; GLYPHS],
    /// Font bounding box, ascent, descent and capital height, in 1/1000 em.
    pub bbox: [f32; 4],
    pub ascent: f32,
    pub descent: f32,
    pub cap_height: f32,
    pub monospace: bool,
    pub bold: bool,
    /// The subset TrueType font, zlib-deflated.
    pub file: &'static [u8],
}

/// The fonts in the order of [`Font::ALL`].
static METRICS: [Metrics; 4] = include!(concat!(env!("OUT_DIR"), "/fonts.rs"));

impl Font {
    pub const ALL: [Font; 4] = [Font::Sans, Font::SansBold, Font::Mono, Font::MonoBold];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The font's metrics and subset file.
    pub fn metrics(self) -> &'static Metrics {
        &METRICS[self.index()]
    }

    /// Advance width of `ch` in 1/1000 em (characters outside printable ASCII as `?`).
    pub fn char_width(self, ch: char) -> u16 {
        self.metrics().widths[(encode(ch) - FIRST) as usize]
    }

    /// Width of `text` at `size` points, in points.
    pub fn width(self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.char_width(c) as f32).sum::<f32>() * size / 1000.0
    }

    /// Whether every glyph has the same advance.
    pub fn monospace(self) -> bool {
        self.metrics().monospace
    }

    /// Height of capital letters in 1/1000 em (for centring capitals vertically).
    pub fn cap_height(self) -> f32 {
        self.metrics().cap_height
    }
}

/// The byte drawn for `ch`: printable ASCII as itself, anything else as `?`.
pub fn encode(ch: char) -> u8 {
    if (FIRST as char..=LAST as char).contains(&ch) {
        ch as u8
    } else {
        b'?'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_from_the_fonts() {
        // DejaVu Sans Mono: every glyph 1233/2048 em.
        assert!(Font::Mono.metrics().widths.iter().all(|&w| w == 602));
        assert!(Font::Mono.metrics().monospace && !Font::Sans.metrics().monospace);
        assert!(Font::SansBold.metrics().bold && !Font::Sans.metrics().bold);
        assert_eq!(Font::Sans.char_width('é'), Font::Sans.char_width('?'));
        assert!(Font::Sans.char_width('W') > Font::Sans.char_width('i'));
        assert!((700.0..760.0).contains(&Font::Sans.cap_height()));
        for f in Font::ALL {
            let m = f.metrics();
            assert_eq!(m.name.find('+'), Some(6), "a subset tag");
            // A subset of a few glyphs, far smaller than the whole font (DejaVu Sans Mono
            // is the smallest, 340 KB).
            assert!(m.file.len() < 40_000, "{f:?}: {} bytes", m.file.len());
        }
    }
}
