//! A paragraph's items for the line breaker: its words as boxes (hyphenation points and
//! the widths of the pieces between them, remembered for words met again), the spaces as
//! glue that stretches and shrinks by TeX's space factors, and penalties.

use super::hyphenate::Language;
use super::linebreak::{Breaker, Item, INFINITY};
use super::paragraph::{Run, Shape, Span};
use crate::render::fonts::serif::Style;

/// What an item stands for: a word's text is `spans[span].text[from..to]` (by place,
/// so that the buffers holding pieces outlive the paragraph's text and serve the next).
#[derive(Clone, Copy, Debug)]
pub(super) enum Piece {
    Word(Style, Text),
    Space(Style),
    Hyphen(Style),
    None,
}

/// A piece of one span's text.
#[derive(Clone, Copy, Debug)]
pub(super) struct Text {
    pub(super) span: u32,
    pub(super) from: u32,
    pub(super) to: u32,
}

impl Text {
    fn of<'s>(self, spans: &'s [Span]) -> &'s str {
        &spans[self.span as usize].text[self.from as usize..self.to as usize]
    }

    /// The part from byte `from` to byte `to` of this text.
    fn part(self, from: usize, to: usize) -> Text {
        Text { from: self.from + from as u32, to: self.from + to as u32, ..self }
    }
}

/// Buffers for a paragraph's items, reused by the next (each thread setting paragraphs
/// has one): made afresh, they were most of the bytes a dictionary allocated.
#[derive(Debug, Default)]
pub(super) struct Buffers {
    pub(super) items: Vec<Item>,
    pub(super) pieces: Vec<Piece>,
    pub(super) segments: Vec<Segment>,
    /// Each word's segments (a range of `segments`).
    pub(super) words: Vec<std::ops::Range<usize>>,
    /// Break points (byte offsets) and whether each is flagged with a hyphen added.
    pub(super) points: Vec<(usize, bool)>,
    pub(super) found: Vec<usize>,
    /// A word's pieces as found last (before it is remembered).
    pub(super) fragments: Vec<Fragment>,
    pub(super) known: Known,
    /// A paragraph's runs as its lines are laid out, copied to it at their count: made
    /// for the most a paragraph might need, three a line, they were a fifth of the
    /// memory a dictionary's paragraphs kept (fewer than two a line are used).
    pub(super) runs: Vec<Run>,
}

/// A piece of a word up to a break point or its end: where it ends (a byte offset in the
/// word), its width in 1/1000 em, and whether a break there adds a hyphen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fragment {
    pub(super) end: u32,
    pub(super) units: u64,
    pub(super) flagged: bool,
}

/// The pieces of words met in hyphenated text, by style, and the language they were
/// hyphenated in: a book's words repeat (Zipf), and finding a word's break points and
/// measuring its pieces, letter by letter, was most of building a paragraph's items.
/// Bounded; words of at most [`KNOWN_LEN`] bytes. foldhash, seeded per process: a text
/// cannot be made of words that collide.
#[derive(Debug, Default)]
pub(super) struct Known {
    pub(super) language: Option<Language>,
    pub(super) words: [std::collections::HashMap<Box<str>, Box<[Fragment]>, foldhash::fast::RandomState>; 3],
}

/// The longest word remembered, and how many a style remembers at most.
pub(super) const KNOWN_LEN: usize = 48;
pub(super) const KNOWN_WORDS: usize = 20_000;

impl Known {
    fn get(&self, language: Language, style: Style, word: &str) -> Option<&[Fragment]> {
        if self.language != Some(language) {
            return None;
        }
        self.words[style as usize].get(word).map(|f| &f[..])
    }

    fn remember(&mut self, language: Language, style: Style, word: &str, fragments: &[Fragment]) {
        if self.language != Some(language) {
            self.language = Some(language);
            self.words.iter_mut().for_each(|w| w.clear());
        }
        let words = &mut self.words[style as usize];
        if words.len() >= KNOWN_WORDS {
            words.clear();
        }
        words.insert(word.into(), fragments.into());
    }
}

/// An interword space's stretch and shrink, as parts of its width: Charter's in TeX (space
/// 0.278 em, stretch 0.167 em), the face LaTeX's dictionary template sets, and TeX's usual
/// shrink of a third. Half the width to stretch (Computer Modern's) left narrow columns of
/// long words underfull far more often than TeX's.
pub(super) const STRETCH: f32 = 0.6;
pub(super) const SHRINK: f32 = 1.0 / 3.0;

/// TeX's space factor after `c` (plain TeX's \sfcode, divided by 1000), as an index of
/// [`SPACE_FACTORS`]: a space after a sentence's or an abbreviation's period stretches
/// three times as much and shrinks a third as much. Only the stretch and shrink: the
/// space's own width stays (TeX's \frenchspacing widths, its \nonfrenchspacing glue).
pub(super) fn space_factor(c: char) -> usize {
    match c {
        '.' | '?' | '!' => 4,
        ':' => 3,
        ';' => 2,
        ',' => 1,
        _ => 0,
    }
}

/// The space factors of [`space_factor`], by its answer.
pub(super) const SPACE_FACTORS: [f32; 5] = [1.0, 1.25, 1.5, 2.0, 3.0];

/// A piece of a word in one style: (style, text, whether it may be hyphenated).
pub(super) type Segment = (Style, Text, bool);

/// The words of `spans` (split at whitespace other than a no-break space) into
/// `buf.segments`, `buf.words[i]` a range of them, a word running on across spans when no
/// space parts them.
pub(super) fn words(spans: &[Span], buf: &mut Buffers) {
    let (segments, words) = (&mut buf.segments, &mut buf.words);
    segments.clear();
    words.clear();
    let mut open = false;
    for (i, span) in spans.iter().enumerate() {
        let text: &str = &span.text;
        let mut at = 0;
        while at < text.len() {
            let lead = space_at(text, at);
            if lead > 0 {
                open = false;
                at += lead;
                continue;
            }
            let from = at;
            at = word_end(text, at);
            let piece = Text { span: i as u32, from: from as u32, to: at as u32 };
            segments.push((span.style, piece, span.hyphenate));
            match words.last_mut() {
                Some(w) if open => w.end = segments.len(),
                _ => words.push(segments.len() - 1..segments.len()),
            }
            open = true;
        }
    }
}

/// The length of the space parting words (whitespace other than a no-break space) at byte
/// `at` of `text`, 0 if there is none. By bytes where they are ASCII: decoding every
/// character was a quarter of building a paragraph's items.
#[inline]
pub(super) fn space_at(text: &str, at: usize) -> usize {
    let b = text.as_bytes()[at];
    if b < 0x80 {
        return matches!(b, b' ' | b'\t'..=b'\r') as usize;
    }
    let c = text[at..].chars().next().expect("a character starts here");
    if c.is_whitespace() && c != '\u{A0}' {
        c.len_utf8()
    } else {
        0
    }
}

/// The end of the word that starts at byte `at` of `text`: the first whitespace after it
/// ([`space_at`]) or the text's end. Eight bytes are looked at together while none is a
/// space, a control or part of a character beyond ASCII (one byte at a time, finding the
/// ends was a quarter of making a paragraph's items).
pub(super) fn word_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = at + next_char_len(text, at);
    while at < bytes.len() {
        if let Some(eight) = bytes.get(at..at + 8) {
            let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            // The top bit of each byte below 0x21 (its subtraction borrows) or above 0x7F.
            // A borrow also flags bytes after such a one, never before: the first is exact.
            let flagged = (x.wrapping_sub(0x2121_2121_2121_2121) | x) & 0x8080_8080_8080_8080;
            if flagged == 0 {
                at += 8;
                continue;
            }
            at += flagged.trailing_zeros() as usize / 8;
        }
        if space_at(text, at) > 0 {
            break;
        }
        at += next_char_len(text, at);
    }
    at
}

/// The length of the character at byte `at` of `text`.
#[inline]
pub(super) fn next_char_len(text: &str, at: usize) -> usize {
    match text.as_bytes()[at] {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        _ => 2,
    }
}

/// Boxes, glue and penalties for `spans` into `buf.items` (what each stands for in
/// `buf.pieces`), with hyphenation points if `hyphens`, and with a break between any two
/// letters of a word wider than `split_wider` points.
pub(super) fn items(
    spans: &[Span],
    shape: &Shape,
    hyphens: bool,
    split_wider: f32,
    buf: &mut Buffers,
    breaker: &mut Breaker,
) {
    let size = shape.size;
    words(spans, buf);
    let Buffers { items, pieces, segments, words, points, found, fragments, known, .. } = buf;
    items.clear();
    pieces.clear();
    breaker.begin();
    // Each style's space and hyphen, measured once rather than at each.
    let (space, hyphen) = (Style::ALL.map(|s| s.width(" ", size)), Style::ALL.map(|s| s.width("-", size)));
    // And each style's spaces after each space factor: made where they are put, a space's
    // glue was stored piecewise and read back whole, which stalled the store.
    let glue = space.map(|width| {
        SPACE_FACTORS.map(|factor| {
            let (stretch, shrink) = (width * STRETCH * factor, width * SHRINK / factor);
            (Item::Glue { width, stretch, shrink, fill: false }, (width, stretch, shrink))
        })
    });
    for (w, word) in words.iter().enumerate() {
        let word = &segments[word.clone()];
        if w > 0 {
            // The space takes the style of the word before it.
            let prev = segments[words[w - 1].end - 1];
            let factor = prev.1.of(spans).chars().last().map_or(0, space_factor);
            let (item, (width, stretch, shrink)) = glue[prev.0 as usize][factor];
            items.push(item);
            pieces.push(Piece::Space(prev.0));
            breaker.push_glue(width, stretch, shrink, false);
        }
        // Only a word that may be split needs its width first.
        let total: f32 =
            if split_wider.is_finite() { word.iter().map(|(s, t, _)| s.width(t.of(spans), size)).sum() } else { 0.0 };
        for &(style, piece, hyph) in word {
            let text = piece.of(spans);
            let language = shape.language.filter(|_| hyphens && hyph);
            // Remembered only as the first passes make them (no word split between letters).
            let remembered = language.filter(|_| !split_wider.is_finite() && text.len() <= KNOWN_LEN);
            if let Some(known) = remembered.and_then(|l| known.get(l, style, text)) {
                put_word(
                    items,
                    pieces,
                    breaker,
                    (style, piece),
                    known,
                    (size, hyphen[style as usize]),
                    shape.hyphen_penalty,
                );
                continue;
            }
            points.clear();
            // Explicit hyphens and dashes (a dash's first byte is 0xE2): most words have none.
            if text.bytes().any(|b| b == b'-' || b == 0xE2) {
                for (i, c) in text.char_indices() {
                    let end = i + c.len_utf8();
                    if matches!(c, '-' | '–' | '—') && end < text.len() && text[end..].starts_with(char::is_alphabetic)
                    {
                        points.push((end, false));
                    }
                }
            }
            if let Some(lang) = language {
                // Each letter run between explicit hyphens and punctuation.
                let mut start = None;
                for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
                    match (start, c.is_alphabetic()) {
                        (None, true) => start = Some(i),
                        (Some(s), false) => {
                            found.clear();
                            lang.breaks_into(&text[s..i], found);
                            points.extend(found.iter().map(|b| (s + b, true)));
                            start = None;
                        }
                        _ => {}
                    }
                }
            }
            if total > split_wider {
                // Where a point is also an explicit hyphen's, the sort below puts that
                // one (unflagged) first and the dedup keeps it.
                points.extend(text.char_indices().skip(1).map(|(i, _)| (i, true)));
            }
            points.sort_unstable();
            points.dedup_by_key(|p| p.0);
            fragments.clear();
            let mut from = 0;
            for &(at, flagged) in points.iter().chain([&(text.len(), false)]) {
                fragments.push(Fragment { end: at as u32, units: style.units(&text[from..at]), flagged });
                from = at;
            }
            put_word(
                items,
                pieces,
                breaker,
                (style, piece),
                fragments,
                (size, hyphen[style as usize]),
                shape.hyphen_penalty,
            );
            if let Some(lang) = remembered {
                known.remember(lang, style, text, fragments);
            }
        }
    }
    // The last line is ragged: no break before the fill glue, then a forced break.
    put(items, pieces, breaker, Item::Penalty { width: 0.0, penalty: INFINITY, flagged: false }, Piece::None);
    put(items, pieces, breaker, Item::Glue { width: 0.0, stretch: 0.0, shrink: 0.0, fill: true }, Piece::None);
    put(items, pieces, breaker, Item::Penalty { width: 0.0, penalty: -INFINITY, flagged: false }, Piece::None);
    breaker.end(items);
}

/// The boxes of a word's `fragments` (of `piece` in `style`, at `size`), a penalty of
/// `penalty` between each two: a break adding a hyphen (`hyphen` wide) where flagged,
/// nothing where the word has one.
pub(super) fn put_word(
    items: &mut Vec<Item>,
    pieces: &mut Vec<Piece>,
    breaker: &mut Breaker,
    (style, piece): (Style, Text),
    fragments: &[Fragment],
    (size, hyphen): (f32, f32),
    penalty: f32,
) {
    // Made once, not at each break (see `put_box`).
    let breaks = [(0.0, Piece::None), (hyphen, Piece::Hyphen(style))]
        .map(|(width, what)| (Item::Penalty { width, penalty, flagged: true }, what, width));
    let mut from = 0;
    for (k, f) in fragments.iter().enumerate() {
        if k > 0 {
            let (item, what, width) = breaks[fragments[k - 1].flagged as usize];
            items.push(item);
            pieces.push(what);
            breaker.push_penalty(width, penalty, true);
        }
        let to = f.end as usize;
        put_box(items, pieces, breaker, Style::width_of(f.units, size), Piece::Word(style, piece.part(from, to)));
        from = to;
    }
}

/// [`put`] of a box `width` wide. A constant box is pushed and its width stored in it:
/// an item made where it is put was stored on the stack in parts and read back whole, the
/// read waiting for the stores (most of the time of putting a word).
#[inline]
pub(super) fn put_box(items: &mut Vec<Item>, pieces: &mut Vec<Piece>, breaker: &mut Breaker, width: f32, piece: Piece) {
    items.push(Item::Box { width: 0.0 });
    if let Some(Item::Box { width: w }) = items.last_mut() {
        *w = width;
    }
    pieces.push(piece);
    breaker.push_box(width);
}

/// An item and what it stands for, measured as it is made.
#[inline]
pub(super) fn put(items: &mut Vec<Item>, pieces: &mut Vec<Piece>, breaker: &mut Breaker, item: Item, piece: Piece) {
    items.push(item);
    pieces.push(piece);
    breaker.push(item);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_part_at_any_whitespace_but_a_no_break_space_and_run_on_across_spans() {
        let spans = [
            Span::new(Style::Regular, "  a\u{2003}b\u{A0}c\td\u{85}\u{1680}é-x\r\nbold"),
            Span::new(Style::Bold, "er ok\u{3000}"),
            Span::new(Style::Italic, "\u{2028}z"),
        ];
        let mut buf = Buffers::default();
        words(&spans, &mut buf);
        let words: Vec<Vec<(Style, &str)>> = buf
            .words
            .iter()
            .map(|w| buf.segments[w.clone()].iter().map(|&(style, text, _)| (style, text.of(&spans))).collect())
            .collect();
        let (r, b, i) = (Style::Regular, Style::Bold, Style::Italic);
        assert_eq!(
            words,
            [
                vec![(r, "a")],
                vec![(r, "b\u{A0}c")],
                vec![(r, "d")],
                vec![(r, "é-x")],
                vec![(r, "bold"), (b, "er")],
                vec![(b, "ok")],
                vec![(i, "z")],
            ]
        );
    }

    #[test]
    fn words_end_where_any_whitespace_begins_wherever_it_falls() {
        // Texts of every length from a few characters each, ASCII and beyond, whitespace
        // and not (controls, DEL, a no-break space), against splitting by characters.
        let alphabet =
            ['a', 'Z', '~', '\u{7F}', '\u{1}', ' ', '\t', '\n', '\u{A0}', 'é', '\u{2003}', '€', '𝄞', '\u{85}'];
        let mut generator = crate::render::typeset::sample::Lcg(7);
        for n in 0..400 {
            let text: String = (0..n % 40)
                .map(|_| {
                    // Mostly letters, so that words run over eight bytes.
                    let k = generator.below(3 * alphabet.len());
                    alphabet[if k < alphabet.len() { k } else { 0 }]
                })
                .collect();
            let spans = [Span::new(Style::Regular, &text)];
            let mut buf = Buffers::default();
            words(&spans, &mut buf);
            let found: Vec<&str> = buf.segments.iter().map(|&(_, t, _)| t.of(&spans)).collect();
            let expected: Vec<&str> =
                text.split(|c: char| c.is_whitespace() && c != '\u{A0}').filter(|w| !w.is_empty()).collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }
}
