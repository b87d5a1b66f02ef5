//! The puzzle products' prose (title and help pages, blurbs, clue lists, addresses): plain
//! text in one font of the page model, broken into ragged lines that the layout places
//! (left-aligned or centred).
//!
//! [`Breaking::Optimal`] is Knuth and Plass's total fit ([`super::linebreak`]) with the
//! ragged-right glue of their paper: the rag is spread over the lines instead of the last
//! lines taking what the first ones left. [`Breaking::FirstFit`] fills each line in turn as
//! far as it goes, as the layouts printed before the typesetter set their prose; their
//! stored books keep it.

use super::linebreak::{break_lines, Item, Params, AWFUL, INFINITY};
use crate::render::page::Style;

/// How a layout breaks its prose into lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breaking {
    /// Each line as full as it goes (the first layouts' way).
    FirstFit,
    /// Total fit, ragged right.
    Optimal,
}

/// `text` in `style`, broken into lines at most `measure` points wide (a word wider than a
/// line is broken between its letters).
pub fn lines(text: &str, style: Style, measure: f32, breaking: Breaking) -> Vec<String> {
    let width = |s: &str| style.font.width(s, style.size);
    match breaking {
        Breaking::FirstFit => first_fit(text, &width, measure),
        Breaking::Optimal => {
            remembered(text, style, measure, false, || optimal(text, &width, measure, 3.0 * style.size, false))
        }
    }
}

/// [`lines`] for text centred on the page (titles, help, answers): total fit judges the
/// last line too, so the lines come out of even length instead of a full line over a
/// short one.
pub fn centred_lines(text: &str, style: Style, measure: f32, breaking: Breaking) -> Vec<String> {
    let width = |s: &str| style.font.width(s, style.size);
    match breaking {
        Breaking::FirstFit => first_fit(text, &width, measure),
        // A rag of half the measure: any two lines may balance, at a cost growing with
        // the gaps' cubes.
        Breaking::Optimal => {
            remembered(text, style, measure, true, || optimal(text, &width, measure, measure / 2.0, true))
        }
    }
}

/// The lines of a paragraph set before on this thread, else `set`'s: every copy of a print
/// run repeats its title page, help and cover text, which need setting once.
fn remembered(text: &str, style: Style, measure: f32, centred: bool, set: impl FnOnce() -> Vec<String>) -> Vec<String> {
    type Key = (String, crate::render::page::Font, u32, u32, bool);
    thread_local! {
        static SET: std::cell::RefCell<std::collections::HashMap<Key, Vec<String>>> = Default::default();
    }
    let key = (text.to_string(), style.font, style.size.to_bits(), measure.to_bits(), centred);
    if let Some(lines) = SET.with_borrow(|set| set.get(&key).cloned()) {
        return lines;
    }
    let lines = set();
    SET.with_borrow_mut(|set| {
        // A bound on what a thread keeps: a book's few paragraphs, not every clue ever set.
        if set.len() >= 64 {
            set.clear();
        }
        set.insert(key, lines.clone());
    });
    lines
}

fn first_fit(text: &str, width: &dyn Fn(&str) -> f32, measure: f32) -> Vec<String> {
    let fits = |s: &str| width(s) <= measure;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for piece in split_word(word, &fits) {
            if !line.is_empty() || piece.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line = piece;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `word` in pieces that each fit, or of one character. (A lone character of more than one
/// byte that does not fit leaves an empty piece before it: first fit printed that line.)
fn split_word(word: &str, fits: &dyn Fn(&str) -> bool) -> Vec<String> {
    if fits(word) {
        return vec![word.to_string()];
    }
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for ch in word.chars() {
        piece.push(ch);
        if !fits(&piece) && piece.len() > 1 {
            piece.pop();
            pieces.push(std::mem::take(&mut piece));
            piece.push(ch);
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// What a line of the optimal breaking holds: its pieces, each after a space or not.
enum Piece {
    Word(String),
    Rest(String),
}

/// Total fit with a `rag` of stretch at each line's end; the last line's as well with
/// `balanced`, else it may be as short as it comes.
fn optimal(text: &str, width: &dyn Fn(&str) -> f32, measure: f32, rag: f32, balanced: bool) -> Vec<String> {
    let fits = |s: &str| width(s) <= measure;
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    // Text that fits one line is best on one: more lines only add gaps.
    let joined = words.join(" ");
    if fits(&joined) {
        return if joined.is_empty() { Vec::new() } else { vec![joined] };
    }
    let space = width(" ");
    // The paper's ragged right: each break may leave up to `rag` of stretch at a line's
    // end, which the glue after it takes back when the line goes on.
    let (mut items, mut pieces) = (Vec::with_capacity(3 * words.len() + 3), Vec::with_capacity(words.len()));
    for word in words {
        if !pieces.is_empty() {
            items.push(Item::Glue { width: 0.0, stretch: rag, shrink: 0.0, fill: false });
            items.push(Item::Penalty { width: 0.0, penalty: 0.0, flagged: false });
            items.push(Item::Glue { width: space, stretch: -rag, shrink: 0.0, fill: false });
        }
        for (i, part) in split_word(word, &fits).into_iter().filter(|p| !p.is_empty()).enumerate() {
            if i > 0 {
                // Pieces of a word too wide for a line: a break between them costs nothing.
                items.push(Item::Glue { width: 0.0, stretch: rag, shrink: 0.0, fill: false });
                items.push(Item::Penalty { width: 0.0, penalty: 0.0, flagged: false });
            }
            items.push(Item::Box { width: width(&part) });
            pieces.push(if i == 0 { Piece::Word(part) } else { Piece::Rest(part) });
        }
    }
    // TeX's \parfillskip, after a penalty that keeps a line from ending before it.
    items.push(Item::Penalty { width: 0.0, penalty: INFINITY, flagged: false });
    items.push(if balanced {
        Item::Glue { width: 0.0, stretch: rag, shrink: 0.0, fill: false }
    } else {
        Item::Glue { width: 0.0, stretch: 0.0, shrink: 0.0, fill: true }
    });
    items.push(Item::Penalty { width: 0.0, penalty: -INFINITY, flagged: false });
    let params = Params { hyphenation: false, ..Params::default() };
    let breaks = break_lines(&items, [measure; 2], &params, false)
        .or_else(|| break_lines(&items, [measure; 2], &Params { tolerance: AWFUL, ..params }, true))
        .expect("a breaking that may overrun always exists");
    // Each box is a piece, in order: a line takes the pieces whose boxes come before its break.
    let mut lines = Vec::with_capacity(breaks.len());
    let boxes: Vec<usize> = (0..items.len()).filter(|&i| matches!(items[i], Item::Box { .. })).collect();
    let mut next = 0;
    for b in breaks {
        let mut line = String::new();
        while next < boxes.len() && boxes[next] < b.at {
            match &pieces[next] {
                Piece::Word(w) if !line.is_empty() => {
                    line.push(' ');
                    line.push_str(w);
                }
                Piece::Word(w) | Piece::Rest(w) => line.push_str(w),
            }
            next += 1;
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::page::Font;

    const TEXT: &str = "Every page hides the word exactly once, across, down or on a diagonal, read \
                        forwards or backwards: find it, then look the answer up by the book's serial.";

    #[test]
    fn lines_keep_every_word_within_the_measure() {
        let style = Style::new(Font::Sans, 11.0);
        for breaking in [Breaking::FirstFit, Breaking::Optimal] {
            for measure in [120.0, 200.0, 300.0] {
                let lines = lines(TEXT, style, measure, breaking);
                assert_eq!(lines.join(" "), TEXT, "{breaking:?} at {measure}");
                assert!(lines.iter().all(|l| style.font.width(l, style.size) <= measure), "{breaking:?} {lines:?}");
            }
        }
        assert!(lines("", style, 100.0, Breaking::Optimal).is_empty());
    }

    #[test]
    fn total_fit_evens_the_rag() {
        // First fit fills the first line and leaves "once, across, down or on a" short;
        // total fit takes a word down, and the lines' badness (their gaps cubed) is less.
        let style = Style::new(Font::Sans, 11.0);
        let gaps = |ls: &[String]| -> f32 {
            ls[..ls.len() - 1].iter().map(|l| (200.0 - style.font.width(l, 11.0)).powi(3)).sum()
        };
        let first = lines(TEXT, style, 200.0, Breaking::FirstFit);
        let optimal = lines(TEXT, style, 200.0, Breaking::Optimal);
        assert_eq!(first[1], "once, across, down or on a");
        assert_eq!(optimal[0], "Every page hides the word");
        assert_eq!(first.len(), optimal.len());
        assert!(gaps(&optimal) < gaps(&first), "{optimal:?} against {first:?}");
    }

    #[test]
    fn centred_lines_balance() {
        let style = Style::new(Font::Sans, 10.0);
        let text = "The answer to this book is filed under its serial number. Look it up at the address below.";
        let measure = 0.8 * style.font.width(text, 10.0);
        let widths = |ls: Vec<String>| ls.iter().map(|l| style.font.width(l, 10.0)).collect::<Vec<_>>();
        let left = widths(lines(text, style, measure, Breaking::Optimal));
        let centred = widths(centred_lines(text, style, measure, Breaking::Optimal));
        assert!(left.len() == 2 && left[1] < 0.4 * left[0], "{left:?}");
        assert!(centred.len() == 2 && (centred[0] - centred[1]).abs() < 0.2 * centred[0], "{centred:?}");
        assert!(centred.iter().all(|&w| w <= measure));
        // One line stays one line.
        assert_eq!(centred_lines("Happy hunting!", style, 300.0, Breaking::Optimal), ["Happy hunting!"]);
    }

    #[test]
    fn words_wider_than_a_line_break_between_letters() {
        let style = Style::new(Font::Mono, 10.0);
        let url = "https://example.com/answers/a-very-long-path-with-no-spaces-at-all";
        for breaking in [Breaking::FirstFit, Breaking::Optimal] {
            let lines = [lines(url, style, 60.0, breaking), centred_lines(url, style, 60.0, breaking)].concat();
            assert!(lines.len() > 3, "{lines:?}");
            assert_eq!(lines.concat(), [url, url].concat());
            assert!(lines.iter().all(|l| style.font.width(l, 10.0) <= 60.0));
        }
        // A single glyph wider than the line still prints.
        assert_eq!(lines("W", style, 1.0, Breaking::Optimal), ["W"]);
        assert_eq!(lines("W", style, 1.0, Breaking::FirstFit), ["W"]);
    }
}
