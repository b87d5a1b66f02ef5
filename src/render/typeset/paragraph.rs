//! Setting a paragraph of styled text into justified lines: words become boxes, spaces
//! glue and hyphenation points penalties, the lines are found by [`super::linebreak`], and
//! each line is laid out as runs of one style whose spaces share the stretch.
//!
//! Passes, as TeX's: first without hyphenation at a pretolerance, then with hyphenation at
//! the tolerance, then with emergency stretch (any looseness, but never too wide). A word
//! wider than the line (no other way to keep within the measure) is then broken between
//! any two letters with a hyphen, and counted in [`Paragraph::split_words`]: the choice is
//! to break it rather than let it run into the next column.

use super::hyphenate::Language;
use super::items::{items, Buffers, Piece, Text};
use super::linebreak::{badness, Break, Breaker, Item, Params, AWFUL};
use crate::render::fonts::serif::Style;

/// Text in one style, borrowed where it can be (an entry's definitions).
#[derive(Clone, Debug, PartialEq)]
pub struct Span<'a> {
    pub style: Style,
    pub text: std::borrow::Cow<'a, str>,
    /// Whether its words may be hyphenated (a headword is not).
    pub hyphenate: bool,
}

impl<'a> Span<'a> {
    pub fn new(style: Style, text: impl Into<std::borrow::Cow<'a, str>>) -> Span<'a> {
        Span { style, text: text.into(), hyphenate: true }
    }

    /// Text whose words are never hyphenated.
    pub fn whole(style: Style, text: impl Into<std::borrow::Cow<'a, str>>) -> Span<'a> {
        Span { style, text: text.into(), hyphenate: false }
    }
}

/// The shape of a paragraph: the measure, the indents of its first and other lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Font size in points.
    pub size: f32,
    /// The column's width in points.
    pub measure: f32,
    /// Indent of the first line and of the others (a hanging indent: 0 then some).
    pub indents: [f32; 2],
    /// Hyphenation language; None sets no hyphen.
    pub language: Option<Language>,
    /// Badness allowed without hyphenation (TeX's \pretolerance; negative skips the pass).
    pub pretolerance: f32,
    /// Penalty of breaking at a hyphenation point and after an explicit hyphen.
    pub hyphen_penalty: f32,
    /// Line breaking's parameters (tolerance, demerits, hyphens in a row, emergency stretch).
    pub params: Params,
}

impl Shape {
    /// Plain TeX's settings on this measure and size, with an emergency stretch of 1.5 em.
    pub fn new(size: f32, measure: f32, indents: [f32; 2], language: Option<Language>) -> Shape {
        Shape {
            size,
            measure,
            indents,
            language,
            pretolerance: 100.0,
            hyphen_penalty: 50.0,
            params: Params { emergency_stretch: 1.5 * size, ..Params::default() },
        }
    }
}

/// Glyphs of one style on a line, from `x` (points from the line's start), each space
/// `space` points wide: the bytes `text` of its paragraph's text.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub style: Style,
    pub x: f32,
    pub text: std::ops::Range<u32>,
    pub space: f32,
}

/// A set line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Points from the column's left edge to where the line starts.
    pub indent: f32,
    /// Its runs, a range of its paragraph's.
    pub runs: std::ops::Range<u32>,
    /// From the line's start to the end of its last glyph, in points.
    pub width: f32,
    /// The width it had to fill (measure less indent).
    pub target: f32,
    /// The glue's stretch (> 0) or shrink (< 0) ratio, and its badness (> 1000: what TeX
    /// reports as an underfull line).
    pub ratio: f32,
    pub badness: f32,
    pub hyphenated: bool,
    /// Whether it is justified (all but the last line).
    pub justified: bool,
}

/// A set paragraph: its lines, their runs and the runs' text each in one piece (a run of
/// its own allocation each was most of the allocations, and of the fresh memory the
/// kernel had to clear, in setting a dictionary).
#[derive(Clone, Debug, PartialEq)]
pub struct Paragraph {
    pub text: String,
    pub runs: Vec<Run>,
    pub lines: Vec<Line>,
    /// Words broken between arbitrary letters, being wider than a line.
    pub split_words: usize,
    /// Which pass found the breaks: 1 no hyphens, 2 hyphens, 3 emergency stretch, 4 split
    /// words, 5 an overfull line (a glyph wider than the measure).
    pub pass: u8,
}

impl Paragraph {
    /// Lines wider than their measure (none unless a single glyph is wider).
    pub fn overfull(&self) -> usize {
        self.lines.iter().filter(|l| l.width > l.target + 0.01).count()
    }

    /// The runs of `line` (one of this paragraph's).
    pub fn runs(&self, line: &Line) -> &[Run] {
        &self.runs[line.runs.start as usize..line.runs.end as usize]
    }

    /// The text of `run` (one of this paragraph's).
    pub fn run_text(&self, run: &Run) -> &str {
        &self.text[run.text.start as usize..run.text.end as usize]
    }

    /// The line's text as read (spaces as spaces, a hyphen where it breaks).
    pub fn line_text(&self, line: &Line) -> String {
        self.runs(line).iter().map(|r| self.run_text(r)).collect()
    }
}

/// Sets `spans` into lines of `shape`.
pub fn set(spans: &[Span], shape: &Shape) -> Paragraph {
    thread_local! {
        // Its buffers serve every paragraph a thread sets.
        static BREAKER: std::cell::RefCell<(Breaker, Buffers)> = Default::default();
    }
    BREAKER.with_borrow_mut(|(breaker, buf)| set_with(spans, shape, breaker, buf))
}

/// The pass that found a breaking, and its breaks.
type Found = Option<(u8, Vec<Break>)>;

/// A pass tried (its number and parameters), and the stricter passes it follows: what it
/// found, and which of them would find a breaking (bit k for the k-th).
type Attempt<'a> = dyn FnMut(u8, &Params, &[Params]) -> (Found, u8) + 'a;

fn set_with(spans: &[Span], shape: &Shape, breaker: &mut Breaker, buf: &mut Buffers) -> Paragraph {
    let widths = [shape.measure - shape.indents[0], shape.measure - shape.indents[1]];
    let narrowest = widths[0].min(widths[1]);
    let no_emergency = Params { emergency_stretch: 0.0, ..shape.params };
    let awful = Params { tolerance: AWFUL, ..shape.params };
    // A word split over several lines ends each with a hyphen: no limit on them then.
    let split = Params { max_hyphens_in_a_row: usize::MAX, ..awful };
    items(spans, shape, true, f32::INFINITY, buf, breaker);
    let items = &buf.items;
    // A pass, and which of the stricter passes given would find a breaking.
    let mut attempt = |pass: u8, params: &Params, stricter: &[Params]| {
        let (breaks, by) = breaker.breaks_and_stricter(items, widths, params, false, stricter);
        (breaks.map(|b| (pass, b)), by)
    };
    // The first pass without hyphenation points (explicit hyphens stay), within the
    // pretolerance; its breakings are the second's too when the pretolerance is the
    // lower, so the second runs first and the first only when the second finds one
    // (most paragraphs of narrow columns need more than both).
    let first = Params { tolerance: shape.pretolerance, hyphenation: false, ..no_emergency };
    let nested = shape.pretolerance <= no_emergency.tolerance;
    let second = |attempt: &mut Attempt| {
        if shape.pretolerance < 0.0 {
            attempt(2, &no_emergency, &[]).0
        } else if nested {
            attempt(2, &no_emergency, &[]).0.map(|second| attempt(1, &first, &[]).0.unwrap_or(second))
        } else {
            attempt(1, &first, &[]).0.or_else(|| attempt(2, &no_emergency, &[]).0)
        }
    };
    // The least emergency stretch that finds a breaking (judged with more, loose lines
    // look alike and the looser are taken as readily): none, a third, two thirds or all of
    // it, then any badness. A breaking found with some stretch is found with more, so a
    // third is tried first: most paragraphs of narrow columns fail with none, and those
    // then skip that pass; where a third succeeds, none is tried next, as before.
    // The pass with a third also tells whether the second and the first would find one
    // (their lines are each feasible with a third): those that would not are not run (in
    // most paragraphs the second finds none).
    let emergency = |part: f32| Params { emergency_stretch: shape.params.emergency_stretch * part, ..shape.params };
    let found = if nested && shape.params.emergency_stretch > 0.0 {
        // (With a negative pretolerance the first pass is never found: it is skipped.)
        match attempt(3, &emergency(1.0 / 3.0), &[no_emergency, first]) {
            (Some(third), by) if by & 1 == 0 => Some(third),
            (Some(third), by) => {
                let second = attempt(2, &no_emergency, &[]).0;
                let first = if by & 2 != 0 && second.is_some() { attempt(1, &first, &[]).0 } else { None };
                Some(first.or(second).unwrap_or(third))
            }
            (None, _) => [2.0 / 3.0, 1.0].into_iter().find_map(|part| attempt(3, &emergency(part), &[]).0),
        }
    } else {
        second(&mut attempt)
            .or_else(|| [1.0 / 3.0, 2.0 / 3.0, 1.0].into_iter().find_map(|part| attempt(3, &emergency(part), &[]).0))
    };
    let found = found.or_else(|| attempt(3, &awful, &[]).0);
    if let Some((pass, breaks)) = found {
        return lay_out(spans, buf, &breaks, shape, widths, pass, false);
    }
    self::items(spans, shape, true, narrowest, buf, breaker);
    let items = &buf.items;
    let (pass, breaks) = [(4, false), (5, true)]
        .into_iter()
        .find_map(|(pass, overfull)| breaker.breaks(items, widths, &split, overfull).map(|b| (pass, b)))
        .expect("the last pass allows overfull lines, so some breaking exists");
    lay_out(spans, buf, &breaks, shape, widths, pass, true)
}

fn lay_out(
    spans: &[Span],
    buf: &mut Buffers,
    breaks: &[Break],
    shape: &Shape,
    widths: [f32; 2],
    pass: u8,
    split: bool,
) -> Paragraph {
    let (items, pieces) = (&buf.items, &buf.pieces);
    let mut runs = std::mem::take(&mut buf.runs);
    runs.clear();
    let mut lines = Vec::with_capacity(breaks.len());
    // No longer than the spans' text and a hyphen a line.
    let mut text = String::with_capacity(spans.iter().map(|s| s.text.len()).sum::<usize>() + breaks.len());
    let mut start = 0;
    let mut split_words = 0;
    let size = shape.size;
    let mut pending = Pending::default();
    for (li, br) in breaks.iter().enumerate() {
        // Discarded at the start of a line: glue and penalties up to the first box.
        if li > 0 {
            start += 1;
            while start < br.at && !matches!(items[start], Item::Box { .. }) {
                start += 1;
            }
        }
        let target = widths[li.min(1)];
        let last = li + 1 == breaks.len();
        // The glue's ratio as set: justified lines fill the measure exactly however
        // loose; an overfull line shrinks all it can.
        let ratio = if last && br.ratio >= 0.0 { 0.0 } else { br.ratio.max(-1.0) };
        let first_run = runs.len();
        let mut x = 0.0f32;
        // A piece joins the line's last run if it has the style (and a space, the run's
        // spacing), else starts a run. Text is copied a stretch of its span at a time:
        // `pending` is span text after `text`'s end not yet copied (piece by piece, laying
        // out took an eighth more instructions).
        let push = |runs: &mut Vec<Run>, text_len: usize, style: Style, space: Option<f32>, len: usize, x: f32| {
            let (at, end) = (text_len as u32, (text_len + len) as u32);
            match runs[first_run..].last_mut() {
                Some(r) if r.style == style && space.is_none_or(|s| r.space == s || r.space == 0.0) => {
                    if let Some(s) = space {
                        r.space = s;
                    }
                    r.text.end = end;
                }
                _ => runs.push(Run { style, x, text: at..end, space: space.unwrap_or(0.0) }),
            }
        };
        let end = if matches!(items[br.at], Item::Penalty { flagged: true, .. }) && !last { br.at + 1 } else { br.at };
        for i in start..end {
            match (&items[i], &pieces[i]) {
                (Item::Box { width }, &Piece::Word(style, piece)) => {
                    let len = (piece.to - piece.from) as usize;
                    push(&mut runs, text.len() + pending.len(), style, None, len, x);
                    pending.follow(spans, &mut text, piece);
                    x += width;
                }
                (Item::Glue { width, stretch, shrink, .. }, Piece::Space(style)) => {
                    let w = width + if ratio > 0.0 { ratio * stretch } else { ratio * shrink };
                    let w = if w.is_finite() { w } else { *width };
                    push(&mut runs, text.len() + pending.len(), *style, Some(w), 1, x);
                    pending.literal(spans, &mut text, b' ');
                    x += w;
                }
                (Item::Penalty { width, .. }, Piece::Hyphen(style)) if i == br.at => {
                    push(&mut runs, text.len() + pending.len(), *style, None, 1, x);
                    pending.literal(spans, &mut text, b'-');
                    x += width;
                }
                _ => {}
            }
        }
        if split && br.hyphenated {
            split_words += 1;
        }
        // A run whose spaces were never set has natural spaces (none).
        for r in &mut runs[first_run..] {
            if r.space == 0.0 {
                r.space = r.style.width(" ", size);
            }
        }
        let natural_ratio = if last { br.ratio.min(0.0) } else { br.ratio };
        lines.push(Line {
            indent: shape.indents[li.min(1)],
            runs: first_run as u32..runs.len() as u32,
            width: x,
            target,
            ratio: natural_ratio,
            badness: badness(natural_ratio),
            hyphenated: br.hyphenated && !last,
            justified: !last,
        });
        start = br.at;
    }
    pending.flush(spans, &mut text);
    let kept = runs.as_slice().to_vec();
    buf.runs = runs;
    Paragraph { text, runs: kept, lines, split_words, pass }
}

/// Text of a span that follows a paragraph's text, to be copied to it at once: a stretch
/// of words and the single spaces between them (empty when `from == to`).
#[derive(Default)]
struct Pending {
    span: u32,
    from: u32,
    to: u32,
}

impl Pending {
    fn len(&self) -> usize {
        (self.to - self.from) as usize
    }

    fn flush(&mut self, spans: &[Span], text: &mut String) {
        if self.from < self.to {
            text.push_str(&spans[self.span as usize].text[self.from as usize..self.to as usize]);
        }
        self.from = self.to;
    }

    /// `piece` follows: it extends the stretch if it starts where the stretch ends.
    fn follow(&mut self, spans: &[Span], text: &mut String, piece: Text) {
        if !(piece.span == self.span && piece.from == self.to) {
            self.flush(spans, text);
            *self = Pending { span: piece.span, from: piece.from, to: piece.from };
        }
        self.to = piece.to;
    }

    /// The byte `b` follows (a space or a hyphen): the span's own next byte if it is `b`
    /// and the stretch is not empty, else written out.
    fn literal(&mut self, spans: &[Span], text: &mut String, b: u8) {
        let source = spans[self.span as usize].text.as_bytes();
        if self.from < self.to && source.get(self.to as usize) == Some(&b) {
            self.to += 1;
        } else {
            self.flush(spans, text);
            text.push(b as char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "In olden times when wishing still helped one, there lived a king whose daughters \
        were all beautiful; and the youngest was so beautiful that the sun itself, which has seen so much, \
        was astonished whenever it shone in her face. Close by the king's castle lay a great dark forest, \
        and under an old lime-tree in the forest was a well, and when the day was very warm, the king's \
        child went out into the forest and sat down by the side of the cool fountain; and when she was \
        bored she took a golden ball, and threw it up on high and caught it; and this ball was her \
        favorite plaything.";

    fn shape(measure: f32) -> Shape {
        Shape::new(8.5, measure, [0.0, 0.0], Some(Language::ENGLISH))
    }

    #[test]
    fn words_remembered_set_as_words_met_first() {
        // Set on a fresh thread (nothing remembered), then again on it (every word
        // remembered), in another language between (remembered words are of a language)
        // and in styles of other widths: the same lines each time.
        let spans = |style| vec![Span::new(style, TEXT), Span::new(Style::Italic, "hyphenation ex-wife dictionary")];
        let narrow = |language| Shape::new(8.5, 90.0, [0.0, 0.0], Some(language));
        let de = Language::from_code("de").unwrap();
        let fresh = |style, language| std::thread::spawn(move || set(&spans(style), &narrow(language))).join().unwrap();
        let cold: Vec<Paragraph> =
            [(Style::Regular, Language::ENGLISH), (Style::Bold, Language::ENGLISH), (Style::Regular, de)]
                .into_iter()
                .map(|(style, language)| fresh(style, language))
                .collect();
        std::thread::spawn(move || {
            for _ in 0..2 {
                assert_eq!(set(&spans(Style::Regular), &narrow(Language::ENGLISH)), cold[0]);
                assert_eq!(set(&spans(Style::Bold), &narrow(Language::ENGLISH)), cold[1]);
                assert_eq!(set(&spans(Style::Regular), &narrow(de)), cold[2]);
            }
            assert_ne!(cold[0], cold[1]);
            assert!(cold[0].lines.iter().any(|l| l.hyphenated));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn no_line_is_wider_than_the_measure_and_justified_lines_fill_it() {
        for measure in [90.0, 110.0, 130.0, 200.0, 300.0] {
            let p = set(&[Span::new(Style::Regular, TEXT)], &shape(measure));
            assert_eq!(p.overfull(), 0, "{measure}");
            for l in &p.lines {
                assert!(l.width <= l.target + 0.01, "{measure}: {} > {}", l.width, l.target);
                if l.justified && p.runs(l).iter().any(|r| p.run_text(r).contains(' ')) {
                    assert!((l.width - l.target).abs() < 0.01, "{measure}: {:?}", p.line_text(l));
                }
            }
            assert!(!p.lines.last().unwrap().justified);
            // Every word once, in order.
            let joined: String = p
                .lines
                .iter()
                .map(|l| {
                    let t = p.line_text(l);
                    if l.hyphenated {
                        t.trim_end_matches('-').to_string()
                    } else {
                        format!("{t} ")
                    }
                })
                .collect();
            // Hyphens aside: a line may end at the explicit one of "lime-tree".
            let words = |t: &str| t.replace('-', "").split_whitespace().map(String::from).collect::<Vec<_>>();
            assert_eq!(words(&joined), words(TEXT));
        }
    }

    #[test]
    fn no_hyphens_when_the_first_pass_suffices() {
        let passes: Vec<Paragraph> =
            (20..=40).map(|m| set(&[Span::new(Style::Regular, TEXT)], &shape(m as f32 * 10.0))).collect();
        assert!(passes.iter().any(|p| p.pass == 1) && passes.iter().any(|p| p.pass == 2));
        for p in passes.iter().filter(|p| p.pass == 1) {
            // Only at the explicit hyphen of "lime-tree".
            assert!(p.lines.iter().all(|l| (!l.hyphenated || p.line_text(l).ends_with("lime-")) && l.badness <= 100.0));
        }
        // Without a language, no hyphen at all.
        let mut s = shape(120.0);
        s.language = None;
        let p = set(&[Span::new(Style::Regular, TEXT)], &s);
        assert!(p.lines.iter().all(|l| !l.hyphenated || p.line_text(l).ends_with("lime-")));
    }

    #[test]
    fn passes_are_found_as_in_texs_order() {
        // The second pass runs first (the first only when it succeeds): the pass found
        // and its lines must be those of trying the passes one after another.
        use super::super::linebreak::break_lines;
        let mut seen = std::collections::BTreeSet::new();
        for measure in (60..=260).step_by(4) {
            for indents in [[0.0, 0.0], [0.0, 12.0], [10.0, 0.0]] {
                let shape = Shape::new(8.5, measure as f32, indents, Some(Language::ENGLISH));
                let spans = [Span::new(Style::Regular, TEXT)];
                let mut buf = Buffers::default();
                items(&spans, &shape, true, f32::INFINITY, &mut buf, &mut Breaker::default());
                let items = buf.items;
                let widths = [shape.measure - indents[0], shape.measure - indents[1]];
                let p = shape.params;
                let tries = [
                    (1, Params { tolerance: shape.pretolerance, hyphenation: false, emergency_stretch: 0.0, ..p }),
                    (2, Params { emergency_stretch: 0.0, ..p }),
                    (3, Params { emergency_stretch: p.emergency_stretch / 3.0, ..p }),
                    (3, Params { emergency_stretch: p.emergency_stretch * 2.0 / 3.0, ..p }),
                    (3, p),
                    (3, Params { tolerance: AWFUL, ..p }),
                ];
                let Some((pass, breaks)) = tries
                    .iter()
                    .find_map(|(pass, params)| break_lines(&items, widths, params, false).map(|b| (*pass, b)))
                else {
                    continue;
                };
                let set = set(&spans, &shape);
                assert_eq!(set.pass, pass, "{measure} {indents:?}");
                seen.insert(pass);
                // The same lines: the justified ones stretched alike.
                let ratios: Vec<f32> = breaks.iter().map(|b| b.ratio).collect();
                let got: Vec<f32> = set.lines.iter().map(|l| l.ratio).collect();
                assert_eq!(got.len(), ratios.len(), "{measure} {indents:?}");
                assert_eq!(got[..got.len() - 1], ratios[..ratios.len() - 1], "{measure} {indents:?}");
            }
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn hyphens_in_a_row_are_limited() {
        let text = "incomprehensibilities internationalization characteristically disproportionately \
            counterrevolutionaries electroencephalographic uncharacteristically institutionalization \
            misunderstandings compartmentalization";
        for limit in [1, 2, 3] {
            for measure in [60.0, 75.0, 95.0] {
                let mut s = shape(measure);
                s.params.max_hyphens_in_a_row = limit;
                let p = set(&[Span::new(Style::Regular, text)], &s);
                let mut run = 0;
                for l in &p.lines {
                    run = if l.hyphenated { run + 1 } else { 0 };
                    // Words split for being too wide are beyond the limit's reach.
                    assert!(run <= limit || p.pass >= 4, "{limit} {measure}: {:?}", p.lines);
                }
                assert_eq!(p.overfull(), 0);
            }
        }
    }

    #[test]
    fn lines_read_back_as_the_words_given_whatever_spaces_part_them() {
        // Text copied a stretch of a span at a time: single spaces, runs of other
        // whitespace, words running on across spans, hyphenation points, explicit hyphens
        // and a word split between letters (next to its hyphen). Read back line by line,
        // joined by a space (nothing after a hyphenated line), hyphens dropped: the words.
        let texts = [
            (Style::Regular, "the river  of\tancient\u{2003}water, a lime-tree\r\nand "),
            (Style::Bold, "bold"),
            (Style::Regular, "er ecclesiastical administration "),
            (Style::Italic, "n. "),
            (Style::Regular, "agricultural considerable pneumonoultramicro-scopicsilicovolcanoconiosis end."),
        ];
        let spans: Vec<Span> = texts.iter().map(|&(style, text)| Span::new(style, text)).collect();
        let all: String = texts.iter().map(|t| t.1).collect();
        let expected: Vec<String> = all.split_whitespace().map(|w| w.replace('-', "")).collect();
        let (mut split, mut hyphenated) = (0, 0);
        for measure in [40.0, 55.0, 70.0, 90.0, 130.0] {
            let p = set(&spans, &shape(measure));
            let mut read = String::new();
            for line in &p.lines {
                let text = p.line_text(line);
                assert!(!text.contains(|c: char| c.is_whitespace() && c != ' '), "{measure}: {text:?}");
                assert!(!text.contains("  "), "{measure}: {text:?}");
                read.push_str(&text);
                if !line.hyphenated {
                    read.push(' ');
                }
                for run in p.runs(line) {
                    // Each run's text comes from spans of its style (or is a space).
                    let text = p.run_text(run);
                    let words: Vec<&str> =
                        texts.iter().filter(|t| t.0 == run.style).flat_map(|t| t.1.split_whitespace()).collect();
                    let styled = text
                        .split(' ')
                        .filter(|part| !part.is_empty())
                        .all(|part| words.iter().any(|w| w.contains(part.trim_end_matches('-'))));
                    assert!(styled || text.trim().is_empty(), "{measure}: {text:?} in {:?}", run.style);
                }
            }
            let words: Vec<String> = read.split_whitespace().map(|w| w.replace('-', "")).collect();
            assert_eq!(words, expected, "{measure}: {read:?}");
            (split, hyphenated) = (split + p.split_words, hyphenated + p.lines.iter().filter(|l| l.hyphenated).count());
        }
        assert!(split > 0 && hyphenated > split, "{split} words split, {hyphenated} hyphenated lines");
    }

    #[test]
    fn a_word_wider_than_the_column_is_split_and_reported() {
        // (At 60 pt its hyphenation sets it, three hyphenated lines in a row: no split.)
        let text = "the pneumonoultramicroscopicsilicovolcanoconiosis of miners";
        let p = set(&[Span::new(Style::Regular, text)], &shape(40.0));
        assert_eq!(p.pass, 4);
        assert!(p.split_words >= 1);
        assert_eq!(p.overfull(), 0);
        // Headwords are not hyphenated, but a too-wide one is still split.
        let p = set(&[Span::whole(Style::Bold, "Donaudampfschifffahrtsgesellschaft")], &shape(50.0));
        assert!(p.split_words >= 1 && p.overfull() == 0);
    }

    #[test]
    fn hanging_indent_and_styles() {
        let spans = [
            Span::whole(Style::Bold, "abandon"),
            Span::new(Style::Italic, " v. "),
            Span::new(Style::Regular, "to leave behind, give up completely, or desert someone or something"),
        ];
        let s = Shape::new(8.5, 110.0, [0.0, 8.5], Some(Language::ENGLISH));
        let p = set(&spans, &s);
        assert!(p.lines.len() >= 3);
        assert_eq!(p.lines[0].indent, 0.0);
        assert!(p.lines[1..].iter().all(|l| l.indent == 8.5 && l.target == 110.0 - 8.5));
        let first = p.runs(&p.lines[0]);
        assert_eq!(first[0].style, Style::Bold);
        assert!(p.run_text(&first[0]).starts_with("abandon "));
        assert_eq!(first[1].style, Style::Italic);
        // Runs tile the line: each starts where the one before ends.
        for l in &p.lines {
            for w in p.runs(l).windows(2) {
                let (r, text) = (&w[0], p.run_text(&w[0]));
                let spaces = text.matches(' ').count() as f32;
                let end = r.x + r.style.width(text, 8.5) + spaces * (r.space - r.style.width(" ", 8.5));
                assert!((end - w[1].x).abs() < 0.01, "{l:?}");
            }
        }
    }

    #[test]
    fn glue_stretches_as_charters_and_more_after_a_period() {
        let mut buf = Buffers::default();
        let spans = [Span::new(Style::Regular, "n. a word, then")];
        items(&spans, &shape(100.0), false, f32::INFINITY, &mut buf, &mut Breaker::default());
        let glue: Vec<(f32, f32, f32)> = buf
            .items
            .iter()
            .filter_map(|i| match *i {
                Item::Glue { width, stretch, shrink, fill: false } => Some((width, stretch, shrink)),
                _ => None,
            })
            .collect();
        let space = Style::Regular.width(" ", 8.5);
        assert_eq!(glue.len(), 3);
        assert!(glue.iter().all(|g| g.0 == space));
        // After "n.": three times the stretch, a third of the shrink; after "word,": 1.25.
        assert!((glue[0].1 - 3.0 * 0.6 * space).abs() < 1e-4 && (glue[0].2 - space / 9.0).abs() < 1e-4);
        assert!((glue[1].1 - 0.6 * space).abs() < 1e-4 && (glue[1].2 - space / 3.0).abs() < 1e-4);
        assert!((glue[2].1 - 1.25 * 0.6 * space).abs() < 1e-4);
    }

    #[test]
    fn known_paragraph_breaks_as_expected() {
        // Total fit at 200 pt: the third line is loose so that the others need not be,
        // and no word is hyphenated (checked by eye).
        let p = set(&[Span::new(Style::Regular, TEXT)], &shape(200.0));
        let lines: Vec<String> = p.lines.iter().map(|l| p.line_text(l)).collect();
        assert_eq!(
            lines,
            [
                "In olden times when wishing still helped one, there",
                "lived a king whose daughters were all beautiful; and",
                "the youngest was so beautiful that the sun itself,",
                "which has seen so much, was astonished whenever",
                "it shone in her face. Close by the king's castle lay",
                "a great dark forest, and under an old lime-tree in",
                "the forest was a well, and when the day was very",
                "warm, the king's child went out into the forest and",
                "sat down by the side of the cool fountain; and when",
                "she was bored she took a golden ball, and threw it up",
                "on high and caught it; and this ball was her favorite",
                "plaything.",
            ]
        );
        // Found without hyphenation, within the pretolerance (the glue stretches as
        // Charter's, and thrice after "face."): the third line the loosest (badness 86).
        assert_eq!(p.pass, 1);
        assert!((p.lines[2].badness - 86.0).abs() < 2.0);
        assert!(p.lines.iter().all(|l| l.badness <= p.lines[2].badness));
        let last = p.lines.last().unwrap();
        assert!(!last.justified && last.width < 50.0);
    }
}
