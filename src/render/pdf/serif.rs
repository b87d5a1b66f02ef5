//! Text set by the typesetter (the serif faces) as content streams. Each face's encoding is
//! a CMap of our own ([`super::fonts`]): printable ASCII as one byte (the character itself),
//! any other glyph as two (0x80 + its glyph id's high byte, then the low byte). One-byte
//! text halves the content streams against Identity-H's two bytes a glyph, and makes the
//! space the one-byte code 32, so justified lines stretch their spaces by word spacing
//! (`Tw`, set per line) instead of an adjustment after every space.

use pdf_writer::Name;

use crate::render::fonts::serif::{Face, Style};
use crate::render::typeset::book::{Mark, Typeset};

/// The name of a face in the page tree's resources.
pub(super) fn resource(style: Style) -> Name<'static> {
    Name(match style {
        Style::Regular => b"F1",
        Style::Italic => b"F2",
        Style::Bold => b"F3",
    })
}

/// A page's content stream, written into `c`: glyph codes go in as raw bytes (only `(`,
/// `)`, `\\` and CR escaped) rather than as pdf-writer's octal escapes, which made the
/// streams 1.7 times longer and their compression the slowest step. A line's runs after
/// its first are shown where the run before left the pen (no move: moves were a sixth of
/// the stream's bytes); any other text mark is placed by `Td` from where the last was
/// placed (in whole hundredths of a point, so no rounding adds up). Spaces are set by
/// `Tw` where they differ from the last mark's. A mark straight below the last placed by
/// the leading (`TL`) is shown by `'` (next line), or by `"` with its word spacing: most
/// lines of a column.
pub(super) fn draw(marks: impl Iterator<Item = Mark>, book: &Typeset, c: &mut Vec<u8>) {
    let mut in_text = false;
    let mut font: Option<(Style, f32)> = None;
    // Where the last text mark started (what Td moves from), in hundredths of a point.
    let mut at = (0i64, 0i64);
    // The word spacing in force, in thousandths of a point (0 on a new page).
    let mut word_spacing = 0i64;
    // The leading in force (TL), in hundredths of a point (0 on a new page).
    let mut leading = 0i64;
    // Whether the pen is where the last text mark shown ended (in this text object).
    let mut continues = false;
    for mark in marks {
        match &mark {
            Mark::Text { style, size, x, y, text, space, follows } => {
                let text = book.text(*text);
                if !in_text {
                    c.extend_from_slice(b"BT\n");
                    in_text = true;
                    at = (0, 0);
                }
                if font != Some((*style, *size)) {
                    c.push(b'/');
                    c.extend_from_slice(resource(*style).0);
                    c.push(b' ');
                    number(c, *size);
                    c.extend_from_slice(b" Tf\n");
                    font = Some((*style, *size));
                }
                let to = (hundredths(*x), hundredths(*y));
                let face = style.face();
                // Each space's width beyond the glyph's.
                let spacing = rounded((*space as f64 - face.advance(' ') as f64 * *size as f64 / 1000.0) * 1000.0);
                let respace = spacing != word_spacing && text.contains(' ');
                // A run following the last where it ends is shown from where showing that
                // one left the pen (its glyphs' widths and spaces as laid out, to the
                // thousandth of a point its word spacing is written in): no move.
                let moves = !(*follows && continues);
                continues = true;
                let next_line = moves && to.0 == at.0 && to.1 < at.1;
                if next_line && at.1 - to.1 != leading {
                    leading = at.1 - to.1;
                    fixed::<2>(c, leading);
                    c.extend_from_slice(b" TL\n");
                }
                if !next_line {
                    if moves {
                        fixed::<2>(c, to.0 - at.0);
                        c.push(b' ');
                        fixed::<2>(c, to.1 - at.1);
                        c.extend_from_slice(b" Td\n");
                    }
                    if respace {
                        fixed::<3>(c, spacing);
                        c.extend_from_slice(b" Tw\n");
                    }
                } else if respace {
                    // `aw ac string "`: word and character spacing (always 0), next line.
                    fixed::<3>(c, spacing);
                    c.extend_from_slice(b" 0 ");
                }
                if moves {
                    at = to;
                }
                if respace {
                    word_spacing = spacing;
                }
                c.push(b'(');
                show(face, text, c);
                c.extend_from_slice(match (next_line, respace) {
                    (false, _) => b") Tj\n",
                    (true, false) => b") '\n",
                    (true, true) => b") \"\n",
                });
            }
            Mark::Rule { x0, x1, y, width, grey } => {
                if in_text {
                    c.extend_from_slice(b"ET\n");
                    in_text = false;
                    continues = false;
                    font = None;
                }
                if *grey > 0.0 {
                    number(c, *grey);
                    c.extend_from_slice(b" G\n");
                }
                number(c, *width);
                c.extend_from_slice(b" w\n");
                number(c, *x0);
                c.push(b' ');
                number(c, *y);
                c.extend_from_slice(b" m ");
                number(c, *x1);
                c.push(b' ');
                number(c, *y);
                c.extend_from_slice(b" l S\n");
                if *grey > 0.0 {
                    c.extend_from_slice(b"0 G\n");
                }
            }
            Mark::Lines { .. } => unreachable!("Typeset::marks gives lines as the text marks of their runs"),
        }
    }
    if in_text {
        c.extend_from_slice(b"ET\n");
    }
    if c.last() == Some(&b'\n') {
        c.pop();
    }
}

/// `text`'s codes in `face`'s encoding as a string's bytes (`(`, `)`, `\\` and CR escaped).
/// Printable ASCII is its own code: runs of it are copied whole, the rest encoded a
/// character at a time (a character at a time throughout, this was a third of drawing).
fn show(face: &Face, text: &str, c: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while from < bytes.len() {
        let to = from + plain_run(&bytes[from..]);
        c.extend_from_slice(&bytes[from..to]);
        if to == bytes.len() {
            break;
        }
        let ch = text[to..].chars().next().expect("a character starts where printable ASCII ends");
        let mut code = [0u8; 2];
        for &b in encode(face, ch, &mut code) {
            match b {
                b'(' | b')' | b'\\' => c.extend_from_slice(&[b'\\', b]),
                b'\r' => c.extend_from_slice(b"\\r"),
                _ => c.push(b),
            }
        }
        from = to + ch.len_utf8();
    }
}

/// Whether a string holds `b` as it is: printable ASCII but `(`, `)` and `\`.
fn plain(b: u8) -> bool {
    (b' '..=b'~').contains(&b) && !matches!(b, b'(' | b')' | b'\\')
}

/// The length of the [`plain`] bytes `bytes` starts with, found eight at a time (a byte at a
/// time, this was a tenth of drawing).
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    // The top bit of the lowest zero byte (and maybe of bytes above it, never below).
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & TOPS;
    let mut at = 0;
    while let Some(eight) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // Below a space (the subtraction borrows), DEL (the addition reaches the top bit)
        // or above, `(` or `)` (one bit apart), `\`. Carries and borrows only flag bytes
        // above one flagged: the lowest is exact.
        let flagged = ((x.wrapping_sub(0x20 * ONES) | x.wrapping_add(ONES) | x) & TOPS)
            | zero((x ^ (b'(' as u64 * ONES)) & !ONES)
            | zero(x ^ (b'\\' as u64 * ONES));
        if flagged != 0 {
            return at + flagged.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + bytes[at..].iter().position(|&b| !plain(b)).unwrap_or(bytes.len() - at)
}

/// The code of `ch` in `face`'s encoding (see the module's notes), in `buf`.
pub(super) fn encode<'b>(face: &Face, ch: char, buf: &'b mut [u8; 2]) -> &'b [u8] {
    if (' '..='~').contains(&ch) {
        buf[0] = ch as u8;
        &buf[..1]
    } else {
        let gid = face.glyph(ch);
        *buf = [0x80 | (gid >> 8) as u8, gid as u8];
        buf
    }
}

/// `v` in whole hundredths.
fn hundredths(v: f32) -> i64 {
    rounded(v as f64 * 100.0)
}

/// `x.round() as i64` (half away from zero) without calling the C library's `round`, as
/// the baseline x86-64 has no instruction for it (the calls were a hundredth of a
/// dictionary's time): |x| + 0.5 truncated is the same from 0.5 up to 2^52 (the sum is
/// exact, or rounded where no integer lies within the rounding), and below 0.5 it is 0.
#[inline]
fn rounded(x: f64) -> i64 {
    let a = x.abs();
    if a < 0.5 {
        0
    } else if a < 4_503_599_627_370_496.0 {
        let r = (a + 0.5) as i64;
        if x < 0.0 {
            -r
        } else {
            r
        }
    } else {
        x.round() as i64
    }
}

/// `v` to 0.01, as PDF writes a number: no exponent, no trailing zeros.
fn number(c: &mut Vec<u8>, v: f32) {
    fixed::<2>(c, hundredths(v));
}

/// `units` / 10^`decimals` as PDF writes a number: no exponent, no trailing zeros.
/// (The decimals a constant: each division by a power of ten is then a multiplication,
/// where dividing by one known only when run was most of the time of writing a number.)
fn fixed<const DECIMALS: u32>(c: &mut Vec<u8>, units: i64) {
    if units < 0 {
        c.push(b'-');
    }
    let scale = 10u64.pow(DECIMALS);
    let (whole, mut frac) = (units.unsigned_abs() / scale, units.unsigned_abs() % scale);
    let mut digits = [0u8; 20];
    let mut n = whole;
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    c.extend_from_slice(&digits[i..]);
    if frac != 0 {
        c.push(b'.');
        // Every decimal, then those up to the last that is not zero.
        let mut decimals = [0u8; 8];
        for d in decimals[..DECIMALS as usize].iter_mut().rev() {
            *d = b'0' + (frac % 10) as u8;
            frac /= 10;
        }
        let end = decimals[..DECIMALS as usize].iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
        c.extend_from_slice(&decimals[..end]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_runs_end_at_the_first_byte_a_string_escapes_or_encodes() {
        let special = [0u8, 0x1F, b' ', b'!', b'\'', b'(', b')', b'*', b'[', b'\\', b']', b'~', 0x7F, 0x80, 0xC3, 0xFF];
        let mut generator = crate::render::typeset::sample::Lcg(7);
        for n in 0..2_000 {
            let bytes: Vec<u8> = (0..n % 37)
                .map(|_| {
                    let k = (generator.next_u64() >> 33) as usize;
                    // Mostly letters, so that runs go past eight bytes.
                    if k.is_multiple_of(4) {
                        special[k / 4 % special.len()]
                    } else {
                        b'a' + (k % 26) as u8
                    }
                })
                .collect();
            let expected = bytes.iter().position(|&b| !plain(b)).unwrap_or(bytes.len());
            assert_eq!(plain_run(&bytes), expected, "{bytes:?}");
        }
        assert!((0..=255u8).filter(|&b| plain(b)).eq((b' '..=b'~').filter(|b| !b"()\\".contains(b))));
    }

    #[test]
    fn numbers_are_written_as_pdf_writes_them() {
        let written = |units: i64, three: bool| {
            let mut c = Vec::new();
            if three {
                fixed::<3>(&mut c, units);
            } else {
                fixed::<2>(&mut c, units);
            }
            String::from_utf8(c).unwrap()
        };
        for (units, two, three) in [
            (0, "0", "0"),
            (5, "0.05", "0.005"),
            (-5, "-0.05", "-0.005"),
            (50, "0.5", "0.05"),
            (1200, "12", "1.2"),
            (123_456, "1234.56", "123.456"),
            (-100_010, "-1000.1", "-100.01"),
        ] {
            assert_eq!((written(units, false).as_str(), written(units, true).as_str()), (two, three), "{units}");
        }
    }

    #[test]
    fn rounded_is_round_half_away_from_zero() {
        let mut generator = crate::render::typeset::sample::Lcg(7);
        let mut values = vec![0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994];
        values.extend([
            1023.5 - 1.1368683772161603e-13,
            4_503_599_627_370_495.5,
            4_503_599_627_370_497.0,
            1e300,
            -1e300,
        ]);
        values.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MAX, f64::MIN_POSITIVE]);
        for _ in 0..100_000 {
            let state = generator.next_u64();
            let v = f64::from_bits(state);
            let scaled = (state >> 11) as f64 / (1u64 << 53) as f64 * 2e6 - 1e6;
            values.extend([v, scaled, scaled.trunc() + 0.5, scaled.trunc() - 0.5]);
        }
        for x in values {
            assert_eq!(rounded(x), x.round() as i64, "{x:e}");
        }
    }

    /// Printable ASCII is copied as it is, string delimiters escaped, anything else two
    /// bytes (0x80 + the glyph id's high byte, the low byte): as `encode` codes it.
    #[test]
    fn text_is_shown_in_the_faces_codes() {
        let face = Style::Regular.face();
        let mut c = Vec::new();
        show(face, "a(b)\\c éŁ~", &mut c);
        let mut want = b"a\\(b\\)\\\\c ".to_vec();
        for ch in ['é', 'Ł'] {
            let gid = face.glyph(ch);
            assert!(gid != 0, "{ch} is in the face");
            for b in [0x80 | (gid >> 8) as u8, gid as u8] {
                if matches!(b, b'(' | b')' | b'\\') {
                    want.push(b'\\');
                }
                want.push(b);
            }
        }
        want.push(b'~');
        assert_eq!(c, want);
    }
}
