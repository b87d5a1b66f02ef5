//! ISBNs as books print them: checked and normalised, and drawn as the EAN-13 barcode on a
//! cover's back (an ISBN-13 is an EAN-13; an ISBN-10 is printed as its ISBN-13).

use super::Area;
use crate::render::page::{runs, Canvas, Font, Paint, Rgb, Style};

/// An ISBN-10 or ISBN-13 with a correct check digit, normalised: its digits (and an ISBN-10's
/// final `X`) without hyphens or spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isbn(String);

/// The longest ISBN read, hyphens and spaces included.
pub const MAX_WRITTEN: usize = 40;

impl Isbn {
    /// An ISBN as ordered, normalised: none for a blank one, else as [`Isbn::parse`] reads it.
    pub fn normalised(text: Option<&str>) -> Result<Option<String>, String> {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        text.map(|t| Isbn::parse(t).map(|isbn| isbn.as_str().to_string())).transpose()
    }

    /// Reads an ISBN as people write it: hyphens and spaces between the digits are dropped,
    /// an ISBN-10's check character may be `x` or `X`, and `ISBN` in front is allowed. The
    /// error says what is wrong.
    pub fn parse(text: &str) -> Result<Isbn, String> {
        if text.chars().count() > MAX_WRITTEN {
            return Err(format!("an ISBN is written in at most {MAX_WRITTEN} characters"));
        }
        let body = text.trim();
        let body = body.strip_prefix("ISBN").or_else(|| body.strip_prefix("isbn")).unwrap_or(body);
        let body = body.trim_start_matches([':', ' ']);
        let mut s = String::new();
        for ch in body.chars() {
            match ch {
                '-' | ' ' => {}
                '0'..='9' => s.push(ch),
                'x' | 'X' => s.push('X'),
                other => return Err(format!("an ISBN holds digits, hyphens and spaces only, not {other:?}")),
            }
        }
        let x_at = s.find('X');
        match s.len() {
            10 if x_at.is_none_or(|i| i == 9) => {
                let sum: u32 = s.chars().enumerate().map(|(i, c)| (10 - i as u32) * digit_or_ten(c)).sum();
                if !sum.is_multiple_of(11) {
                    return Err(format!("{s} is not an ISBN-10: its check digit should be {}", isbn10_check(&s)));
                }
            }
            13 if x_at.is_none() => {
                if !s.starts_with("978") && !s.starts_with("979") {
                    return Err(format!("{s} is not an ISBN-13: those begin with 978 or 979"));
                }
                let check = ean13_check(&s[..12]);
                if s.as_bytes()[12] - b'0' != check {
                    return Err(format!("{s} is not an ISBN-13: its check digit should be {check}"));
                }
            }
            10 | 13 => return Err("X may only be the last character of an ISBN-10".to_string()),
            n => return Err(format!("an ISBN has 10 or 13 digits, not {n}")),
        }
        Ok(Isbn(s))
    }

    /// The normalised form: 10 or 13 characters.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The 13 digits of its barcode: an ISBN-10 is 978, its first nine digits and a new
    /// check digit.
    pub fn ean13(&self) -> [u8; 13] {
        let twelve: String = if self.0.len() == 10 { format!("978{}", &self.0[..9]) } else { self.0[..12].to_string() };
        let mut digits = [0u8; 13];
        for (d, b) in digits.iter_mut().zip(twelve.bytes()) {
            *d = b - b'0';
        }
        digits[12] = ean13_check(&twelve);
        digits
    }
}

fn digit_or_ten(c: char) -> u32 {
    c.to_digit(10).unwrap_or(10)
}

/// The check character an ISBN-10's first nine digits call for.
fn isbn10_check(s: &str) -> char {
    let sum: u32 = s.chars().take(9).enumerate().map(|(i, c)| (10 - i as u32) * digit_or_ten(c)).sum();
    match (11 - sum % 11) % 11 {
        10 => 'X',
        d => char::from_digit(d, 10).unwrap_or('?'),
    }
}

/// The EAN-13 check digit of twelve digits: weights 1, 3, 1, 3, … from the left.
fn ean13_check(twelve: &str) -> u8 {
    let sum: u32 = twelve.bytes().enumerate().map(|(i, b)| (b - b'0') as u32 * if i % 2 == 0 { 1 } else { 3 }).sum();
    ((10 - sum % 10) % 10) as u8
}

/// The L (odd parity) codes of the digits 0–9, seven modules each, a bar as `1`; the R codes
/// are their complements and the G codes the R codes reversed.
const L_CODES: [u8; 10] =
    [0b0001101, 0b0011001, 0b0010011, 0b0111101, 0b0100011, 0b0110001, 0b0101111, 0b0111011, 0b0110111, 0b0001011];

/// Which of the left half's six digits use G codes (a set bit, first digit highest), by
/// the first digit, which is encoded only this way.
const PARITY: [u8; 10] =
    [0b000000, 0b001011, 0b001101, 0b001110, 0b010011, 0b011001, 0b011100, 0b010101, 0b010110, 0b011010];

/// Modules of an EAN-13 symbol without its quiet zones.
pub const MODULES: usize = 95;

fn push_code(modules: &mut Vec<bool>, code: u8) {
    modules.extend((0..7).rev().map(|bit| code >> bit & 1 == 1));
}

fn r_code(digit: u8) -> u8 {
    !L_CODES[digit as usize] & 0x7f
}

fn g_code(digit: u8) -> u8 {
    // Seven bits reversed.
    r_code(digit).reverse_bits() >> 1
}

/// The 95 modules of `digits` (true: a bar), left to right: the start guard, six digits in
/// L and G codes as the first digit says, the centre guard, six in R codes, the end guard.
pub fn ean13_modules(digits: &[u8; 13]) -> Vec<bool> {
    let mut m = Vec::with_capacity(MODULES);
    let guard = |m: &mut Vec<bool>, bits: &[u8]| m.extend(bits.iter().map(|&b| b == 1));
    guard(&mut m, &[1, 0, 1]);
    let parity = PARITY[digits[0] as usize];
    for (i, &d) in digits[1..7].iter().enumerate() {
        let g = parity >> (5 - i) & 1 == 1;
        push_code(&mut m, if g { g_code(d) } else { L_CODES[d as usize] });
    }
    guard(&mut m, &[0, 1, 0, 1, 0]);
    for &d in &digits[7..] {
        push_code(&mut m, r_code(d));
    }
    guard(&mut m, &[1, 0, 1]);
    m
}

/// Nominal module width (100 % magnification, 0.33 mm), in points.
const MODULE: f32 = 0.33 / 25.4 * 72.0;
/// Quiet zones, in modules: left (where the first digit is printed) and right.
const QUIET: (f32, f32) = (11.0, 7.0);

/// Draws the ISBN's barcode in `area` on a white ground: `ISBN …` above, the bars (at most
/// nominal size, smaller if the area is), the 13 digits under them as EAN-13 prints them.
pub fn draw_barcode(c: &mut Canvas, isbn: &Isbn, area: Area) {
    c.rect(area.x, area.y, area.w, area.h, Paint::Fill(Rgb(1.0, 1.0, 1.0)));
    let digits = isbn.ean13();
    let modules = ean13_modules(&digits);
    let pad = 4.0;
    let m = MODULE.min((area.w - 2.0 * pad) / (MODULES as f32 + QUIET.0 + QUIET.1));
    let digit_size = 9.0 * m / MODULE;
    let label_size = 8.0 * m / MODULE;
    let left = area.center_x() - (MODULES as f32 + QUIET.0 + QUIET.1) * m / 2.0 + QUIET.0 * m;
    // From the bottom: the digits, the guard bars reaching down between them, the bars, the label.
    let digits_y = area.y + pad;
    let bars_y = digits_y + digit_size * 0.9;
    let guard_y = digits_y + digit_size * 0.25;
    let label_y = area.top() - pad - label_size * 0.8;
    let top = label_y - 3.0;
    let black = Paint::Fill(Rgb::BLACK);
    let is_guard = |i: usize| i < 3 || (45..50).contains(&i) || i >= 92;
    for (s, e) in runs(MODULES, |i| modules[i]) {
        let y = if is_guard(s) { guard_y } else { bars_y };
        c.rect(left + s as f32 * m, y, (e - s) as f32 * m, top - y, black);
    }
    let label = Style::new(Font::Sans, label_size).color(Rgb::BLACK);
    c.text_centered(label, left + MODULES as f32 * m / 2.0, label_y, &format!("ISBN {}", isbn.as_str()));
    let style = Style::new(Font::Mono, digit_size).color(Rgb::BLACK);
    let text = |d: &[u8]| d.iter().map(|d| char::from(b'0' + d)).collect::<String>();
    c.text(style, left - QUIET.0 * m + m, digits_y, &text(&digits[..1]));
    c.text_centered(style, left + 24.0 * m, digits_y, &text(&digits[1..7]));
    c.text_centered(style, left + 71.0 * m, digits_y, &text(&digits[7..]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isbns_are_checked_and_normalised() {
        let ok = [
            ("978-0-306-40615-7", "9780306406157"),
            ("ISBN 978 0 306 40615 7", "9780306406157"),
            ("0-306-40615-2", "0306406152"),
            ("0-8044-2957-x", "080442957X"),
            ("979-10-90636-07-1", "9791090636071"),
        ];
        for (given, stored) in ok {
            assert_eq!(Isbn::parse(given).map(|i| i.as_str().to_string()), Ok(stored.to_string()), "{given}");
        }
        let bad: [(&str, &str); 8] = [
            ("978-0-306-40615-8", "check digit should be 7"),
            ("0-306-40615-3", "check digit should be 2"),
            ("977-0-306-40615-7", "begin with 978 or 979"),
            ("12345", "10 or 13 digits, not 5"),
            ("978-0-306-4061a-7", "not 'a'"),
            ("0X06406152", "X may only be the last"),
            ("", "10 or 13 digits, not 0"),
            (&"-".repeat(41), "at most 40 characters"),
        ];
        for (given, why) in bad {
            let e = Isbn::parse(given).unwrap_err();
            assert!(e.contains(why), "{given}: {e}");
        }
    }

    #[test]
    fn an_isbn_10_is_barcoded_as_its_isbn_13() {
        let ten = Isbn::parse("0-306-40615-2").unwrap();
        assert_eq!(ten.ean13(), Isbn::parse("9780306406157").unwrap().ean13());
        assert_eq!(ten.ean13(), [9, 7, 8, 0, 3, 0, 6, 4, 0, 6, 1, 5, 7]);
        // 080442957X: its ISBN-13 is 978-0-8044-2957-3.
        assert_eq!(Isbn::parse("080442957X").unwrap().ean13(), [9, 7, 8, 0, 8, 0, 4, 4, 2, 9, 5, 7, 3]);
    }

    /// The code tables as the EAN-13 specification (GS1 General Specifications, ISO/IEC
    /// 15420) prints them, a bar as 1.
    const SPEC_L: [&str; 10] =
        ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"];
    const SPEC_G: [&str; 10] =
        ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"];
    const SPEC_R: [&str; 10] =
        ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"];
    /// The left half's codes by the first digit.
    const SPEC_PARITY: [&str; 10] =
        ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"];

    fn bits(modules: &[bool]) -> String {
        modules.iter().map(|&b| if b { '1' } else { '0' }).collect()
    }

    /// What the specification's tables make of `digits`, written out independently.
    fn by_the_tables(digits: &[u8; 13]) -> String {
        let mut s = String::from("101");
        for (i, &d) in digits[1..7].iter().enumerate() {
            let table = if SPEC_PARITY[digits[0] as usize].as_bytes()[i] == b'G' { &SPEC_G } else { &SPEC_L };
            s.push_str(table[d as usize]);
        }
        s.push_str("01010");
        for &d in &digits[7..] {
            s.push_str(SPEC_R[d as usize]);
        }
        s.push_str("101");
        s
    }

    #[test]
    fn ean13_codes_match_the_specification_tables() {
        for d in 0..10u8 {
            let code = |c: u8| {
                let mut m = Vec::new();
                push_code(&mut m, c);
                bits(&m)
            };
            assert_eq!(code(L_CODES[d as usize]), SPEC_L[d as usize], "L {d}");
            assert_eq!(code(g_code(d)), SPEC_G[d as usize], "G {d}");
            assert_eq!(code(r_code(d)), SPEC_R[d as usize], "R {d}");
        }
        // Every first digit's parity, and known ISBNs.
        let isbns = ["9780306406157", "9791090636071", "0306406152", "080442957X", "9781861972712", "9784873113685"];
        for isbn in isbns {
            let digits = Isbn::parse(isbn).unwrap().ean13();
            let modules = ean13_modules(&digits);
            assert_eq!(modules.len(), MODULES);
            assert_eq!(bits(&modules), by_the_tables(&digits), "{isbn}");
        }
        for first in 0..10u8 {
            let mut digits = [first, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 0];
            digits[12] = ean13_check(&digits[..12].iter().map(|d| char::from(b'0' + d)).collect::<String>());
            assert_eq!(bits(&ean13_modules(&digits)), by_the_tables(&digits), "first digit {first}");
        }
        // 978-0-306-40615-7 written out by hand from the tables: 9 = LGGLGL.
        assert_eq!(
            bits(&ean13_modules(&Isbn::parse("9780306406157").unwrap().ean13())),
            [
                "101", "0111011", // 7 L
                "0001001", // 8 G
                "0100111", // 0 G
                "0111101", // 3 L
                "0100111", // 0 G
                "0101111", // 6 L
                "01010", "1011100", // 4
                "1110010", // 0
                "1010000", // 6
                "1100110", // 1
                "1001110", // 5
                "1000100", // 7
                "101",
            ]
            .concat()
        );
    }
}
