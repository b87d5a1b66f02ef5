//! Paging cursors: a walk position written as text.
//!
//! `gc1-b{bits}-n{length}-{o|c}{a|z}-s{start hex}-f{one hex digit per flipped bit}`,
//! plus `-p{digit}` when the position is inside the search (a budget stop) rather
//! than just after a returned sequence. The request's parameters are repeated so a
//! cursor cannot silently be applied to a different listing.

use super::walk::Position;
use super::{GrayError, Spec};

fn header(spec: &Spec) -> String {
    format!(
        "gc1-b{}-n{}-{}{}",
        spec.bits,
        spec.length,
        if spec.circular { 'c' } else { 'o' },
        if spec.start_at_zero { 'z' } else { 'a' }
    )
}

pub(super) fn encode(spec: &Spec, at: &Position) -> String {
    let flips: String =
        at.path.windows(2).map(|p| char::from_digit((p[0] ^ p[1]).trailing_zeros(), 16).expect("bits <= 16")).collect();
    let mut out = format!("{}-s{:x}-f{flips}", header(spec), at.path[0]);
    if let Some(k) = at.pending {
        out.push_str(&format!("-p{k:x}"));
    }
    out
}

pub(super) fn decode(spec: &Spec, cursor: &str) -> Result<Position, GrayError> {
    let bad = |why: &str| GrayError::BadCursor { why: why.to_string() };
    let head = header(spec);
    let rest = cursor.strip_prefix(&head).and_then(|r| r.strip_prefix("-s")).ok_or_else(|| {
        if cursor.starts_with("gc1-") {
            bad("it was made for a request with different bits, length, circular or start_at_zero")
        } else {
            bad("it is not a cursor returned by this service")
        }
    })?;
    let (start, rest) = rest.split_once("-f").ok_or_else(|| bad("it is truncated"))?;
    let (flips, pending) = match rest.split_once("-p") {
        Some((flips, p)) => (flips, Some(p)),
        None => (rest, None),
    };
    let start = u32::from_str_radix(start, 16).map_err(|_| bad("its start code is not hexadecimal"))?;
    if start >= 1 << spec.bits {
        return Err(bad("its start code does not fit in the bits"));
    }
    if spec.start_at_zero && start != 0 {
        return Err(bad("it does not start at code 0"));
    }
    let digit =
        |c: char| c.to_digit(16).filter(|&k| k < spec.bits).ok_or_else(|| bad("it flips a bit the codes do not have"));
    let mut path = vec![start];
    let mut seen = vec![false; 1 << spec.bits];
    seen[start as usize] = true;
    for c in flips.chars() {
        let next = path.last().expect("start") ^ (1 << digit(c)?);
        if std::mem::replace(&mut seen[next as usize], true) {
            return Err(bad("it repeats a code"));
        }
        path.push(next);
    }
    let pending = match pending {
        Some(p) => {
            let mut chars = p.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(digit(c)?),
                _ => return Err(bad("its pending bit is not one hex digit")),
            }
        }
        None => None,
    };
    match pending {
        None if path.len() != spec.length => Err(bad("its sequence has the wrong length")),
        None if spec.circular && (path[path.len() - 1] ^ start).count_ones() != 1 => {
            Err(bad("its sequence does not close up"))
        }
        Some(_) if path.len() >= spec.length => Err(bad("its search position is too deep")),
        _ => Ok(Position { path, pending }),
    }
}
