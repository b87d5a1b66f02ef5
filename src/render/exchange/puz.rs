//! Across Lite (.puz) files: the binary format every crossword app reads. Layout and
//! checksums as in the format's community documentation (and puzpy, which the API tests
//! read the files back with): a 52-byte header, the solution and the empty player grid
//! (`.` black, `-` empty), then NUL-terminated Latin-1 strings: title, author, copyright,
//! one clue per entry (by number, across before down) and the notes.

use crate::puzzles::crossword::clues::Texts;
use crate::puzzles::crossword::{Direction, Grid, Slot};

/// The format's magic string.
const MAGIC: &[u8; 12] = b"ACROSS&DOWN\0";
/// Format version 1.3: the notes count in the checksums, strings are Latin-1.
const VERSION: &[u8; 4] = b"1.3\0";
/// The masked checksums are XORed with these letters.
const MASK: &[u8; 8] = b"ICHEATED";
/// Puzzle type "normal" (not diagramless); solution not scrambled.
const NORMAL: u16 = 0x0001;
const UNSCRAMBLED: u16 = 0x0000;

/// The .puz file of a filled grid: every white square must have its letter (a square
/// without one is written as `X`, which no fill produces).
pub fn puz(grid: &Grid, texts: &Texts) -> Vec<u8> {
    let (h, w) = (grid.height(), grid.width());
    let mut solution = Vec::with_capacity(h * w);
    let mut player = Vec::with_capacity(h * w);
    for r in 0..h {
        for c in 0..w {
            let white = grid.is_white(r, c);
            solution.push(if white { grid.letter(r, c).unwrap_or(b'X') } else { b'.' });
            player.push(if white { b'-' } else { b'.' });
        }
    }
    let clues: Vec<Vec<u8>> = clue_order(grid.slots()).iter().map(|s| latin1(texts.clue(s.dir, s.number))).collect();
    let (title, author, copyright, notes) =
        (latin1(texts.title), latin1(texts.author), latin1(texts.copyright), latin1(texts.notes));

    // The part of the header the CIB checksum covers: width, height, clue count, type,
    // scrambled tag (grids are at most 31 x 31, so the sizes fit their bytes).
    let mut cib = vec![w as u8, h as u8];
    cib.extend_from_slice(&(clues.len() as u16).to_le_bytes());
    cib.extend_from_slice(&NORMAL.to_le_bytes());
    cib.extend_from_slice(&UNSCRAMBLED.to_le_bytes());

    let c_cib = checksum(&cib, 0);
    let c_solution = checksum(&solution, 0);
    let c_player = checksum(&player, 0);
    let text = |start| text_checksum(&title, &author, &copyright, &clues, &notes, start);
    let overall = text(checksum(&player, checksum(&solution, c_cib)));
    let parts = [c_cib, c_solution, c_player, text(0)];

    let mut out = Vec::new();
    out.extend_from_slice(&overall.to_le_bytes());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&c_cib.to_le_bytes());
    out.extend(parts.iter().zip(&MASK[..4]).map(|(c, m)| m ^ (c & 0xFF) as u8));
    out.extend(parts.iter().zip(&MASK[4..]).map(|(c, m)| m ^ (c >> 8) as u8));
    out.extend_from_slice(VERSION);
    out.extend_from_slice(&[0; 2]); // reserved
    out.extend_from_slice(&[0; 2]); // scrambled checksum (not scrambled)
    out.extend_from_slice(&[0; 12]); // reserved
    out.extend_from_slice(&cib);
    out.extend_from_slice(&solution);
    out.extend_from_slice(&player);
    for s in [&title, &author, &copyright].into_iter().chain(&clues).chain([&notes]) {
        out.extend_from_slice(s);
        out.push(0);
    }
    out
}

/// Slots in the order .puz lists clues: by number, the across one first.
pub(crate) fn clue_order(mut slots: Vec<Slot>) -> Vec<Slot> {
    slots.sort_by_key(|s| (s.number, s.dir == Direction::Down));
    slots
}

/// The format's checksum: rotate right by one bit, add the byte.
fn checksum(data: &[u8], start: u16) -> u16 {
    data.iter().fold(start, |c, &b| c.rotate_right(1).wrapping_add(b as u16))
}

/// The strings' checksum: the non-empty title, author, copyright and notes with their
/// NUL, the non-empty clues without it.
fn text_checksum(title: &[u8], author: &[u8], copyright: &[u8], clues: &[Vec<u8>], notes: &[u8], start: u16) -> u16 {
    let with_nul = |c: u16, s: &[u8]| if s.is_empty() { c } else { checksum(&[0], checksum(s, c)) };
    let c = [title, author, copyright].into_iter().fold(start, with_nul);
    let c = clues.iter().fold(c, |c, clue| checksum(clue, c));
    with_nul(c, notes)
}

/// `text` in Latin-1: typographic quotes, dashes and the ellipsis become their ASCII
/// forms, any other character outside Latin-1 becomes `?`.
fn latin1(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        match (ascii_punctuation(ch), ch) {
            (Some(ascii), _) => out.extend_from_slice(ascii.as_bytes()),
            (None, '\0') => {}
            (None, c) if (c as u32) < 0x100 => out.push(c as u32 as u8),
            _ => out.push(b'?'),
        }
    }
    out
}

/// The ASCII form of typographic quotes, dashes and the ellipsis (what the .puz and the
/// PDFs, whose fonts hold ASCII, print for them).
pub(crate) fn ascii_punctuation(ch: char) -> Option<&'static str> {
    Some(match ch {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => "\"",
        '\u{2010}'..='\u{2013}' | '\u{2212}' => "-",
        '\u{2014}' | '\u{2015}' => "--",
        '\u{2026}' => "...",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// 1-Across CAT, 3-Across WET, 1-Down COW, 2-Down TRT.
    fn grid() -> Grid {
        Grid::from_rows(&["CAT", "O#R", "WET"]).unwrap()
    }

    fn texts(clues: &BTreeMap<String, String>) -> Texts<'_> {
        Texts { title: "Tiny", author: "Ann Author", copyright: "© 2026", notes: "", clues: Some(clues) }
    }

    /// Reads the NUL-terminated strings after the grids.
    fn strings(file: &[u8], squares: usize) -> Vec<&[u8]> {
        let mut parts: Vec<&[u8]> = file[0x34 + 2 * squares..].split(|&b| b == 0).collect();
        assert_eq!(parts.pop(), Some(&[][..]), "the last string ends with NUL");
        parts
    }

    #[test]
    fn layout_and_strings() {
        let clues: BTreeMap<String, String> =
            [("1A", "Pet"), ("1D", "Bovine"), ("2D", "Wager? No: \u{201C}rat\u{201D}"), ("3A", "Damp")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        let file = puz(&grid(), &texts(&clues));
        assert_eq!(&file[2..14], MAGIC);
        assert_eq!(&file[0x18..0x1C], VERSION);
        assert_eq!((file[0x2C], file[0x2D]), (3, 3));
        assert_eq!(u16::from_le_bytes([file[0x2E], file[0x2F]]), 4);
        assert_eq!(&file[0x34..0x34 + 9], b"CATO.RWET");
        assert_eq!(&file[0x34 + 9..0x34 + 18], b"----.----");
        let s = strings(&file, 9);
        // Clues by number, across first: 1A, 1D, 2D, 3A.
        let expected: [&[u8]; 8] =
            [b"Tiny", b"Ann Author", b"\xA9 2026", b"Pet", b"Bovine", b"Wager? No: \"rat\"", b"Damp", b""];
        assert_eq!(s, expected);
    }

    /// The checksums, computed here independently from the file's own bytes (the
    /// documented algorithm), match what the header says.
    #[test]
    fn checksums_match_the_contents() {
        let clues: BTreeMap<String, String> = [("1A", "Pet"), ("2D", "")].map(|(k, v)| (k.into(), v.into())).into();
        let t = Texts { notes: "A note", ..texts(&clues) };
        let file = puz(&grid(), &t);
        let sum = |data: &[u8], mut c: u16| {
            for &b in data {
                c = if c & 1 == 1 { (c >> 1) + 0x8000 } else { c >> 1 };
                c = c.wrapping_add(b as u16);
            }
            c
        };
        let word = |at: usize| u16::from_le_bytes([file[at], file[at + 1]]);
        let cib = sum(&file[0x2C..0x34], 0);
        assert_eq!(word(0x0E), cib);
        let (sol, play) = (&file[0x34..0x3D], &file[0x3D..0x46]);
        let s = strings(&file, 9);
        assert_eq!(s.len(), 3 + 4 + 1);
        let text_from = |start: u16| {
            let mut c = start;
            for part in [s[0], s[1], s[2]] {
                c = sum(&[part, b"\0"].concat(), c);
            }
            for clue in &s[3..7] {
                c = sum(clue, c);
            }
            sum(&[s[7], b"\0"].concat(), c)
        };
        let overall = text_from(sum(play, sum(sol, cib)));
        assert_eq!(word(0), overall);
        let parts = [cib, sum(sol, 0), sum(play, 0), text_from(0)];
        for i in 0..4 {
            assert_eq!(file[0x10 + i], MASK[i] ^ (parts[i] & 0xFF) as u8, "low {i}");
            assert_eq!(file[0x14 + i], MASK[4 + i] ^ (parts[i] >> 8) as u8, "high {i}");
        }
        assert_eq!(s[7], b"A note");
    }

    #[test]
    fn latin1_keeps_latin1_and_replaces_the_rest() {
        assert_eq!(latin1("Café – “ok”…"), b"Caf\xE9 - \"ok\"...");
        assert_eq!(latin1("日本"), b"??");
    }

    #[test]
    fn same_input_same_bytes() {
        let clues = BTreeMap::new();
        assert_eq!(puz(&grid(), &texts(&clues)), puz(&grid(), &texts(&clues)));
    }
}
