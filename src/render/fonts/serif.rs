//! The dictionary's text face, DejaVu Serif Condensed in regular, italic and bold (the
//! licence of `fonts/DejaVu-LICENSE` allows embedding and redistribution; TrueType
//! outlines embed as the other fonts do, a condensed cut suits narrow columns). `build.rs`
//! cuts each to Latin-1, Latin Extended-A and a dictionary's punctuation, the same
//! characters in each, and lists each character's glyph id in the subset (the CID drawn,
//! see `render::pdf` for the codes) and advance width.

/// One face of the serif: what layout measures and a PDF embeds.
#[derive(Debug)]
pub struct Face {
    /// PostScript name with the subset tag, e.g. `PZPRTR+DejaVuSerifCondensed`.
    pub name: &'static str,
    /// (character, glyph id in the subset, advance width in 1/1000 em), by character.
    pub glyphs: &'static [(char, u16, u16)],
    /// Bounding box, ascent, descent, heights of capitals and of x, in 1/1000 em.
    pub bbox: [f32; 4],
    pub ascent: f32,
    pub descent: f32,
    pub cap_height: f32,
    pub x_height: f32,
    /// Degrees, counter-clockwise from the vertical (negative for a right-leaning italic).
    pub italic_angle: f32,
    pub bold: bool,
    /// The subset TrueType font, zlib-deflated.
    pub file: &'static [u8],
}

static FACES: [Face; 3] = include!(concat!(env!("OUT_DIR"), "/serif.rs"));

/// The three styles of the serif.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    Regular,
    Italic,
    Bold,
}

impl Style {
    pub const ALL: [Style; 3] = [Style::Regular, Style::Italic, Style::Bold];

    pub fn face(self) -> &'static Face {
        &FACES[self as usize]
    }

    /// Width of `text` at `size` points, in points (characters the face lacks count as
    /// its `?`: [`missing`] refuses such text before it is set).
    pub fn width(self, text: &str, size: f32) -> f32 {
        Style::width_of(self.units(text), size)
    }

    /// Width of `text` in 1/1000 em: whole units, which add up exactly.
    pub fn units(self, text: &str) -> u64 {
        let face = self.face();
        // Printable ASCII, nearly all text, indexes the table's start (measuring was a
        // fifth of building a paragraph's items).
        let mut units = 0u64;
        for b in text.bytes() {
            if !(b' '..=b'~').contains(&b) {
                return text.chars().map(|c| u64::from(face.advance(c))).sum();
            }
            units += u64::from(face.glyphs[usize::from(b - b' ')].2);
        }
        units
    }

    /// Width in points at `size` of text `units` wide.
    pub fn width_of(units: u64, size: f32) -> f32 {
        units as f32 * size / 1000.0
    }
}

impl Face {
    fn find(&self, c: char) -> Option<&(char, u16, u16)> {
        // The table starts with printable ASCII, every character of it: index directly.
        let i = (c as usize).wrapping_sub(0x20);
        if let Some(g) = self.glyphs.get(i).filter(|g| g.0 == c) {
            return Some(g);
        }
        self.glyphs.binary_search_by_key(&c, |g| g.0).ok().map(|i| &self.glyphs[i])
    }

    /// Advance width of `c` in 1/1000 em.
    pub fn advance(&self, c: char) -> u16 {
        self.find(c).or_else(|| self.find('?')).map_or(0, |g| g.2)
    }

    /// The glyph drawn for `c` (its CID in the PDF).
    pub fn glyph(&self, c: char) -> u16 {
        self.find(c).or_else(|| self.find('?')).map_or(0, |g| g.1)
    }

    /// Whether the face has a glyph for `c`.
    pub fn has(&self, c: char) -> bool {
        self.find(c).is_some()
    }
}

/// The characters of `text` the serif lacks, each once, in order of appearance (every
/// face has the same characters).
pub fn missing(text: &str) -> Vec<char> {
    // Printable ASCII, most text, every face has whole: checked without an early exit,
    // which the compiler does many bytes at a time (it was a twentieth of a dictionary's
    // instructions a byte at a time).
    if text.bytes().fold(true, |ok, b| ok & (b' '..=b'~').contains(&b)) {
        return Vec::new();
    }
    let face = Style::Regular.face();
    // A set beside the list: a hostile text may hold thousands of distinct characters.
    let mut seen = std::collections::HashSet::new();
    text.chars().filter(|&c| !face.has(c) && seen.insert(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_cover_latin_1_and_extended_a_alike() {
        for s in Style::ALL {
            let f = s.face();
            assert_eq!(f.glyphs.len(), Style::Regular.face().glyphs.len(), "{s:?}");
            assert!(f.glyphs.windows(2).all(|w| w[0].0 < w[1].0), "sorted by character");
            // What `width` and `find` index directly.
            assert!((' '..='~').zip(f.glyphs).all(|(c, g)| g.0 == c), "{s:?} starts with printable ASCII");
            for c in (' '..='~').chain('\u{A0}'..='\u{17F}').chain(['–', '—', '‘', '’', '“', '”', '•', '…', '¹', '⁴'])
            {
                assert!(f.has(c), "{s:?} lacks {c:?}");
            }
            assert_eq!(f.name.find('+'), Some(6));
            assert!(f.file.len() < 120_000, "{s:?}: a subset, {} bytes", f.file.len());
        }
        assert!(Style::Bold.face().bold && !Style::Regular.face().bold);
        assert!(Style::Italic.face().italic_angle < 0.0 && Style::Regular.face().italic_angle == 0.0);
        assert!(Style::Bold.width("abandon", 10.0) > Style::Regular.width("abandon", 10.0));
        assert!((Style::Regular.width("mm", 10.0) - 2.0 * Style::Regular.width("m", 10.0)).abs() < 1e-4);
    }

    #[test]
    fn missing_characters_are_named_once() {
        assert_eq!(missing("Ætna, naïve, Łódź – “ok”…"), Vec::<char>::new());
        assert_eq!(missing("日本 and ☃ and 日"), vec!['日', '本', '☃']);
        // Printable ASCII has every glyph; ASCII's control characters none.
        let ascii: String = (' '..='~').collect();
        assert_eq!(missing(&ascii), Vec::<char>::new());
        assert_eq!(missing("bell\u{7} and delete\u{7F}"), vec!['\u{7}', '\u{7F}']);
    }
}
