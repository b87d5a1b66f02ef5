//! Book serial numbers: 50 random bits as 10 Crockford base-32 symbols plus a check symbol.
//!
//! The check symbol uses the Damm algorithm over the quasigroup x∘y = α·x + y in GF(32)
//! (field polynomial x⁵ + x² + 1, α = x). Reading symbols d₁..d₁₁ from state 0 with
//! s ← α·s + d, a valid serial ends in state 0. Every single substitution is caught because
//! each step is a bijection in both d and s. Every swap of two adjacent different symbols
//! (including the check symbol) is caught because α(α·s + x) + y = α(α·s + y) + x would need
//! (α + 1)(x + y) = 0, i.e. x = y, as α ≠ 1 (addition in GF(32) is XOR).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Crockford's base-32 alphabet: digits and letters without I, L, O, U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const DATA_SYMBOLS: usize = 10;
const DATA_BITS: u32 = 5 * DATA_SYMBOLS as u32;
/// Symbols in the canonical form.
pub const SERIAL_LEN: usize = DATA_SYMBOLS + 1;

/// A serial number: 50 data bits. Displays as 11 uppercase symbols, the last a check symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Serial(u64);

/// Multiplication by α = x in GF(2⁵) modulo x⁵ + x² + 1.
fn times_alpha(v: u8) -> u8 {
    let w = v << 1;
    if w & 0x20 != 0 {
        w ^ 0x25
    } else {
        w
    }
}

/// The Damm state after reading `symbols` (values 0..32) from state 0.
fn damm(symbols: impl IntoIterator<Item = u8>) -> u8 {
    symbols.into_iter().fold(0, |s, d| times_alpha(s) ^ d)
}

impl Serial {
    /// A serial from the low 50 bits of `bits` (higher bits are ignored).
    pub fn from_bits(bits: u64) -> Serial {
        Serial(bits & ((1 << DATA_BITS) - 1))
    }

    /// The 50 data bits.
    pub fn bits(self) -> u64 {
        self.0
    }

    fn data_symbols(self) -> impl Iterator<Item = u8> {
        (0..DATA_SYMBOLS).rev().map(move |i| ((self.0 >> (5 * i)) & 31) as u8)
    }

    fn symbols(self) -> [u8; SERIAL_LEN] {
        let mut out = [0u8; SERIAL_LEN];
        for (slot, d) in out.iter_mut().zip(self.data_symbols()) {
            *slot = d;
        }
        // The check symbol brings the state back to 0: α·s + c = 0 means c = α·s.
        out[DATA_SYMBOLS] = times_alpha(damm(self.data_symbols()));
        out
    }

    /// The canonical form grouped for printing: `ABCD-EFGH-JKM`.
    pub fn grouped(self) -> String {
        let s = self.to_string();
        format!("{}-{}-{}", &s[..4], &s[4..8], &s[8..])
    }

    /// Parses a serial typed by a person: case, spaces and hyphens are ignored, and the
    /// look-alikes I, L (→ 1) and O (→ 0) are accepted.
    pub fn parse(input: &str) -> Result<Serial, SerialError> {
        let mut symbols = Vec::with_capacity(SERIAL_LEN);
        for (i, ch) in input.chars().enumerate() {
            if ch == '-' || ch.is_whitespace() {
                continue;
            }
            let mapped = match ch.to_ascii_uppercase() {
                'I' | 'L' => '1',
                'O' => '0',
                c => c,
            };
            let value = ALPHABET.iter().position(|&a| a as char == mapped);
            match value {
                Some(v) => symbols.push(v as u8),
                None => return Err(SerialError::BadCharacter { character: ch, position: i + 1 }),
            }
        }
        if symbols.len() != SERIAL_LEN {
            return Err(SerialError::WrongLength { found: symbols.len() });
        }
        if damm(symbols.iter().copied()) != 0 {
            return Err(SerialError::CheckFailed);
        }
        let bits = symbols[..DATA_SYMBOLS].iter().fold(0u64, |acc, &d| (acc << 5) | d as u64);
        Ok(Serial(bits))
    }
}

impl fmt::Display for Serial {
    /// The canonical form: 11 uppercase symbols, no separators.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self.symbols().iter().map(|&d| ALPHABET[d as usize] as char).collect();
        f.write_str(&s)
    }
}

impl FromStr for Serial {
    type Err = SerialError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Serial::parse(s)
    }
}

impl Serialize for Serial {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Serial {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Serial::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Why a typed serial was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SerialError {
    /// Malformed: not 11 symbols once spaces and hyphens are removed.
    #[error("a serial number has {SERIAL_LEN} characters (spaces and hyphens aside); found {found}")]
    WrongLength { found: usize },
    /// Malformed: a character outside the alphabet (`position` counts characters from 1).
    #[error(
        "character {position} ({character:?}) cannot appear in a serial number, which uses \
         digits and the letters A-Z except U"
    )]
    BadCharacter { character: char, position: usize },
    /// Well-formed but the check symbol disagrees: probably mistyped.
    #[error(
        "this serial number fails its check character; please compare it with the cover \
         again (one character is probably mistyped or two are swapped)"
    )]
    CheckFailed,
}

impl SerialError {
    /// True when the input looks like a serial but fails the check (a typo), false when it
    /// is not shaped like a serial at all.
    pub fn is_mistyped(&self) -> bool {
        matches!(self, SerialError::CheckFailed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rng::Rng;

    #[test]
    fn canonical_form_round_trips() {
        let s = Serial::from_bits(0x0123_4567_89AB_CDEF);
        let text = s.to_string();
        assert_eq!(text.len(), SERIAL_LEN);
        assert!(text.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(Serial::parse(&text), Ok(s));
        assert_eq!(s.bits(), 0x0123_4567_89AB_CDEF & ((1 << 50) - 1));
        let g = s.grouped();
        assert_eq!(g.len(), 13);
        assert_eq!(&g[4..5], "-");
        assert_eq!(Serial::parse(&g), Ok(s));
        assert_eq!(Serial::parse(&format!(" {} ", g.to_lowercase())), Ok(s));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<Serial>(&json).unwrap(), s);
    }

    #[test]
    fn look_alikes_map_to_digits() {
        // Find a serial whose canonical form contains 0 and 1, then type them as O and I/L.
        let mut rng = Rng::from_u64(1);
        let s = loop {
            let s = Serial::from_bits(rng.next_u64());
            let t = s.to_string();
            if t.contains('0') && t.contains('1') {
                break s;
            }
        };
        let typed = s.to_string().replacen('0', "o", 1).replacen('1', "I", 1);
        assert_eq!(Serial::parse(&typed), Ok(s));
        assert_eq!(Serial::parse(&s.to_string().replace('1', "l")), Ok(s));
    }

    #[test]
    fn malformed_and_mistyped_are_distinguished() {
        let s = Serial::from_bits(42).to_string();
        assert_eq!(Serial::parse(&s[..10]), Err(SerialError::WrongLength { found: 10 }));
        assert_eq!(Serial::parse(""), Err(SerialError::WrongLength { found: 0 }));
        let bad = format!("{}U{}", &s[..3], &s[4..]);
        assert_eq!(Serial::parse(&bad), Err(SerialError::BadCharacter { character: 'U', position: 4 }));
        assert!(!Serial::parse(&bad).unwrap_err().is_mistyped());
        let mut chars: Vec<char> = s.chars().collect();
        chars[2] = if chars[2] == 'Z' { 'Y' } else { 'Z' };
        let typo: String = chars.into_iter().collect();
        assert_eq!(Serial::parse(&typo), Err(SerialError::CheckFailed));
        assert!(SerialError::CheckFailed.is_mistyped());
        assert!(SerialError::CheckFailed.to_string().contains("mistyped"));
    }

    #[test]
    fn every_substitution_and_adjacent_swap_is_caught() {
        let mut rng = Rng::from_u64(2024);
        for _ in 0..400 {
            let serial = Serial::from_bits(rng.next_u64());
            let good: Vec<u8> = serial.to_string().into_bytes();
            for pos in 0..SERIAL_LEN {
                for &sym in ALPHABET.iter().filter(|&&a| a != good[pos]) {
                    let mut t = good.clone();
                    t[pos] = sym;
                    let r = Serial::parse(std::str::from_utf8(&t).unwrap());
                    assert_eq!(r, Err(SerialError::CheckFailed), "{serial} pos {pos}");
                }
            }
            for pos in 0..SERIAL_LEN - 1 {
                if good[pos] != good[pos + 1] {
                    let mut t = good.clone();
                    t.swap(pos, pos + 1);
                    let r = Serial::parse(std::str::from_utf8(&t).unwrap());
                    assert_eq!(r, Err(SerialError::CheckFailed), "{serial} swap {pos}");
                }
            }
        }
    }

    #[test]
    fn quasigroup_is_totally_anti_symmetric() {
        // Exhaustive over the algebra: (s∘x)∘y = (s∘y)∘x only when x = y.
        for s in 0..32u8 {
            for x in 0..32u8 {
                for y in 0..32u8 {
                    let a = times_alpha(times_alpha(s) ^ x) ^ y;
                    let b = times_alpha(times_alpha(s) ^ y) ^ x;
                    assert_eq!(a == b, x == y);
                }
            }
        }
    }
}
