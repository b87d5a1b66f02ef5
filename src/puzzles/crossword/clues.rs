//! What a published crossword says besides its grid: title, author, copyright, notes and
//! the clues, keyed by entry (`"1A"`, `"2D"`). Checked against the grid's numbering so an
//! export never carries a clue for an entry the grid does not have.

use std::collections::BTreeMap;

use super::error::{clip, CrosswordError};
use super::grid::{Direction, Slot};

/// Longest title, author or copyright line, in characters.
pub const MAX_LINE_CHARS: usize = 200;
/// Longest notes, in characters.
pub const MAX_NOTES_CHARS: usize = 2000;
/// Longest clue, in characters.
pub const MAX_CLUE_CHARS: usize = 500;

/// The title used when a request gives none.
pub const DEFAULT_TITLE: &str = "Crossword";

/// The texts of a puzzle, borrowed from its request.
#[derive(Clone, Copy, Debug)]
pub struct Texts<'a> {
    pub title: &'a str,
    pub author: &'a str,
    pub copyright: &'a str,
    pub notes: &'a str,
    pub clues: Option<&'a BTreeMap<String, String>>,
}

impl Default for Texts<'_> {
    fn default() -> Self {
        Texts { title: DEFAULT_TITLE, author: "", copyright: "", notes: "", clues: None }
    }
}

impl<'a> Texts<'a> {
    /// The clue of an entry, empty when none is given.
    pub fn clue(&self, dir: Direction, number: u32) -> &'a str {
        self.clues.and_then(|c| c.get(&key(dir, number))).map_or("", String::as_str)
    }

    /// Whether any entry has a clue (the printed grid then lists clues, not lengths).
    pub fn has_clues(&self) -> bool {
        self.clues.is_some_and(|c| c.values().any(|v| !v.trim().is_empty()))
    }
}

/// An entry's clue key: `1A`, `12D`.
pub fn key(dir: Direction, number: u32) -> String {
    match dir {
        Direction::Across => format!("{number}A"),
        Direction::Down => format!("{number}D"),
    }
}

/// The keys of the entries of `slots` (across first, like `Grid::slots`) that have no
/// clue, or only an empty one.
pub fn missing(slots: &[Slot], clues: Option<&BTreeMap<String, String>>) -> Vec<String> {
    slots
        .iter()
        .map(|s| key(s.dir, s.number))
        .filter(|k| clues.and_then(|c| c.get(k)).is_none_or(|v| v.trim().is_empty()))
        .collect()
}

/// Checks a one-line text field: at most `max` characters, no control characters
/// (`allow_newlines` lets notes keep their line breaks).
pub fn check_text(field: &'static str, text: &str, max: usize, allow_newlines: bool) -> Result<(), CrosswordError> {
    check_chars(text, max, allow_newlines).map_err(|m| CrosswordError::field(field, m))
}

fn check_chars(text: &str, max: usize, allow_newlines: bool) -> Result<(), String> {
    let n = text.chars().count();
    if n > max {
        return Err(format!("must be at most {max} characters (got {n})"));
    }
    // The .puz format ends its strings with NUL, and a clue is one line.
    match text.chars().find(|&c| c.is_control() && !(allow_newlines && c == '\n')) {
        Some(c) => Err(format!("must not contain the control character U+{:04X}", c as u32)),
        None => Ok(()),
    }
}

/// Checks that every key names an entry of `slots` and every clue is a line of at most
/// [`MAX_CLUE_CHARS`] characters.
pub fn check_clues(clues: &BTreeMap<String, String>, slots: &[Slot]) -> Result<(), CrosswordError> {
    let bad = |k: &str, message: String| CrosswordError::BadClue { key: clip(k), message };
    for (k, clue) in clues {
        let Some((number, dir)) = parse_key(k) else {
            return Err(bad(k, "a clue's key names an entry as its number and A or D, like 1A or 12D".into()));
        };
        if !slots.iter().any(|s| s.dir == dir && s.number == number) {
            let name = Slot { number, dir, row: 0, col: 0, len: 0 }.label();
            return Err(bad(k, format!("the grid has no {name}")));
        }
        check_chars(clue, MAX_CLUE_CHARS, false).map_err(|m| bad(k, m))?;
    }
    Ok(())
}

fn parse_key(k: &str) -> Option<(u32, Direction)> {
    let (digits, dir) = match k.strip_suffix('A') {
        Some(d) => (d, Direction::Across),
        None => (k.strip_suffix('D')?, Direction::Down),
    };
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::crossword::Grid;

    fn slots() -> Vec<Slot> {
        Grid::from_rows(&["...", ".#.", "..."]).unwrap().slots()
    }

    fn clues(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn keys_name_entries_of_the_grid() {
        // 1A, 3A across; 1D, 2D down.
        let s = slots();
        assert_eq!(check_clues(&clues(&[("1A", "Top"), ("3A", "Bottom"), ("2D", "Right")]), &s), Ok(()));
        for (k, why) in
            [("2A", "no 2-Across"), ("4D", "no 4-Down"), ("1X", "like 1A"), ("01A", "like 1A"), ("A", "like 1A")]
        {
            match check_clues(&clues(&[(k, "x")]), &s) {
                Err(CrosswordError::BadClue { key, message }) => {
                    assert_eq!(key, k);
                    assert!(message.contains(why), "{k}: {message}");
                }
                other => panic!("{k}: {other:?}"),
            }
        }
        let long = "x".repeat(MAX_CLUE_CHARS + 1);
        assert!(matches!(check_clues(&clues(&[("1D", &long)]), &s), Err(CrosswordError::BadClue { .. })));
        assert!(matches!(check_clues(&clues(&[("1D", "a\nb")]), &s), Err(CrosswordError::BadClue { .. })));
    }

    #[test]
    fn missing_lists_entries_without_a_clue() {
        let s = slots();
        assert_eq!(missing(&s, None), ["1A", "3A", "1D", "2D"]);
        assert_eq!(missing(&s, Some(&clues(&[("1A", "Top"), ("2D", " ")]))), ["3A", "1D", "2D"]);
    }

    #[test]
    fn texts_refuse_control_characters_and_long_lines() {
        assert!(check_text("title", "Sunday \u{2013} Café", MAX_LINE_CHARS, false).is_ok());
        assert!(check_text("title", "a\0b", MAX_LINE_CHARS, false).is_err());
        assert!(check_text("notes", "line\nline", MAX_NOTES_CHARS, true).is_ok());
        let e = check_text("author", &"x".repeat(201), MAX_LINE_CHARS, false).unwrap_err();
        assert_eq!(e, CrosswordError::field("author", "must be at most 200 characters (got 201)"));
    }
}
