//! Where words may be hyphenated: Liang's patterns (the TeX ones, through `hypher`), with
//! TeX's shortest fragments for the language (English: two letters before a break, three
//! after). A [`Language`] also names the collation a dictionary is sorted by.

use hypher::Lang;

/// A language of hyphenation patterns, and its ISO 639-1 code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Language(Lang, [u8; 2]);

impl Default for Language {
    fn default() -> Self {
        Language::ENGLISH
    }
}

impl Language {
    pub const ENGLISH: Language = Language(Lang::English, *b"en");

    /// The language of an ISO 639-1 code (`en`, `de`, `fr`, …), if there are patterns for it.
    pub fn from_code(code: &str) -> Option<Language> {
        let b = code.trim().to_ascii_lowercase().into_bytes();
        let code: [u8; 2] = b.try_into().ok()?;
        Lang::from_iso(code).map(|lang| Language(lang, code))
    }

    /// Its ISO 639-1 code, lower case.
    pub fn code(&self) -> &str {
        // hypher knows ASCII codes only, so this is never the fallback.
        std::str::from_utf8(&self.1).unwrap_or("en")
    }

    /// Byte offsets in `word` after which it may be broken with a hyphen. None in words
    /// with a capital or a digit (names, abbreviations and codes are not broken: their
    /// patterns are not the language's, as TeX's \uchyph=0 has it for capitals) or with
    /// anything but letters (a hyphen or apostrophe is itself a break, or a token not to
    /// split).
    pub fn breaks(self, word: &str) -> Vec<usize> {
        let mut out = Vec::new();
        self.breaks_into(word, &mut out);
        out
    }

    /// [`Language::breaks`], appended to `out`.
    pub fn breaks_into(self, word: &str, out: &mut Vec<usize>) {
        let (left, right) = self.0.bounds();
        // Too short to break (most words of running text): no need to look.
        if word.len() < left + right || !word.chars().all(|c| c.is_alphabetic() && !c.is_uppercase()) {
            return;
        }
        // Remembered per thread: the words of a book's text repeat (Zipf), and the patterns
        // are what setting a paragraph spent most on. Bounded; plain words only.
        let cacheable = word.len() <= 48;
        if cacheable {
            let known = CACHE.with_borrow(|(lang, words)| match words.get(word) {
                Some(breaks) if *lang == Some(self.0) => {
                    out.extend_from_slice(breaks);
                    true
                }
                _ => false,
            });
            if known {
                return;
            }
        }
        let from = out.len();
        let mut at = 0;
        for syllable in hypher::hyphenate_bounded(word, self.0, left, right) {
            at += syllable.len();
            if at < word.len() {
                out.push(at);
            }
        }
        if cacheable {
            CACHE.with_borrow_mut(|(lang, words)| {
                if *lang != Some(self.0) || words.len() >= CACHE_WORDS {
                    *lang = Some(self.0);
                    words.clear();
                }
                words.insert(word.into(), out[from..].into());
            });
        }
    }
}

/// Words whose breaks a thread remembers at most.
const CACHE_WORDS: usize = 20_000;

/// The breaks of words met, and the language they were met in. foldhash: a third of the
/// time of std's SipHash on these short keys, and seeded per process, so a text cannot be
/// made of words that collide.
type Remembered = (Option<Lang>, std::collections::HashMap<Box<str>, Box<[usize]>, foldhash::fast::RandomState>);

thread_local! {
    static CACHE: std::cell::RefCell<Remembered> = Default::default();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(word: &str) -> String {
        let mut s = word.to_string();
        for &at in Language::ENGLISH.breaks(word).iter().rev() {
            s.insert(at, '-');
        }
        s
    }

    #[test]
    fn english_breaks_as_tex_does() {
        assert_eq!(split("hyphenation"), "hy-phen-ation");
        assert_eq!(split("extensive"), "ex-ten-sive");
        assert_eq!(split("dictionary"), "dic-tio-nary");
        // Two letters at least before a break and three after.
        for w in ["abandonment", "consideration", "unbelievable", "ab", "tables"] {
            for &at in &Language::ENGLISH.breaks(w) {
                assert!(at >= 2 && w.len() - at >= 3, "{w} at {at}");
            }
        }
        assert_eq!(split("London"), "London");
        assert_eq!(split("B52bomber"), "B52bomber");
        assert_eq!(split("well-known"), "well-known");
        assert_eq!(split(""), "");
    }

    #[test]
    fn languages_by_code() {
        assert_eq!(Language::from_code("EN"), Some(Language::ENGLISH));
        assert_eq!(Language::from_code(" Sv").map(|l| l.code().to_string()), Some("sv".into()));
        let de = Language::from_code("de").unwrap();
        assert!(!de.breaks("silbentrennung").is_empty());
        assert_eq!(Language::from_code("xx"), None);
        assert_eq!(Language::from_code("eng"), None);
        // Byte offsets in words with accents.
        let fr = Language::from_code("fr").unwrap();
        let w = "élémentaire";
        assert!(fr.breaks(w).iter().all(|&at| w.is_char_boundary(at)));
    }
}
