//! The original generator's hex form: the grid row by row as bits (white = 1),
//! four bits per symbol `0-9A-F`, and a final group of 1–3 bits written with one of
//! `g`..`t` (`0 1 00 01 10 11 000 … 111`).

use super::error::CrosswordError;
use super::grid::{check_size, Grid};

const HEX: &[u8; 16] = b"0123456789ABCDEF";
/// Tail symbols are laid out by group length: `g h` (1 bit), `i..l` (2), `m..t` (3).
const TAIL_OFFSET: [u8; 4] = [0, 0, 2, 6];

/// Bits of a tail symbol as (value, bit count).
fn tail_bits(ch: char) -> Option<(u32, usize)> {
    let i = (ch as u32).checked_sub('g' as u32)? as u8;
    match i {
        0..=1 => Some((i as u32, 1)),
        2..=5 => Some(((i - 2) as u32, 2)),
        6..=13 => Some(((i - 6) as u32, 3)),
        _ => None,
    }
}

impl Grid {
    /// Decodes the hex form; the bit count must be `size * size` with `size` in 5..=21.
    pub fn from_hex(s: &str) -> Result<Grid, CrosswordError> {
        let bad = |m: String| CrosswordError::BadHex(m);
        if s.is_empty() {
            return Err(bad("empty string".into()));
        }
        let count = s.chars().count();
        let mut bits: Vec<bool> = Vec::new();
        for (i, ch) in s.chars().enumerate() {
            let pos = i + 1;
            if let Some(v) = ch.to_digit(16).filter(|_| !ch.is_ascii_lowercase()) {
                bits.extend((0..4).rev().map(|k| v >> k & 1 == 1));
            } else if let Some((v, n)) = tail_bits(ch) {
                if pos != count {
                    return Err(bad(format!(
                        "tail symbol {ch:?} at position {pos} may only be the last symbol (it encodes a final group of {n} bit(s))"
                    )));
                }
                bits.extend((0..n).rev().map(|k| v >> k & 1 == 1));
            } else {
                return Err(bad(format!(
                    "symbol {ch:?} at position {pos} is not one of 0-9, A-F or the tail symbols g-t"
                )));
            }
            if bits.len() > 32 * 32 {
                return Err(bad(format!("too long: more than {} bits by position {pos}", 32 * 32)));
            }
        }
        let size = (bits.len() as f64).sqrt().round() as usize;
        if size * size != bits.len() {
            return Err(bad(format!(
                "{count} symbols decode to {} bits, which is not the square of a side length",
                bits.len()
            )));
        }
        check_size(size, "side").map_err(bad)?;
        let mut grid = Grid::black(size)?;
        for (k, &b) in bits.iter().enumerate() {
            grid.set_white(k / size, k % size, b);
        }
        Ok(grid)
    }

    pub fn to_hex(&self) -> String {
        let n = self.size();
        let bits: Vec<u32> = (0..n * n).map(|k| self.is_white(k / n, k % n) as u32).collect();
        let mut out = String::with_capacity(bits.len() / 4 + 1);
        for group in bits.chunks(4) {
            let v = group.iter().fold(0, |acc, b| acc << 1 | b);
            if group.len() == 4 {
                out.push(HEX[v as usize] as char);
            } else {
                out.push((b'g' + TAIL_OFFSET[group.len()] + v as u8) as char);
            }
        }
        out
    }
}
