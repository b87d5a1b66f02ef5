//! Columns on a baseline grid: how many lines of the flow's blocks a column takes (an
//! entry's lines kept together where a split would leave one alone, a heading kept with
//! its first lines), and the running heads cut to the room they have.

use super::paragraph::Paragraph;
use crate::render::fonts::serif::Style;

/// A block of the dictionary's flow.
#[derive(Clone, Debug)]
pub(super) enum Block {
    Heading(String),
    /// An entry's paragraph, its text the book's text `source`.
    Entry {
        headword: String,
        para: Paragraph,
        source: u32,
    },
}

/// A block's lines placed in a column: block, first line, line count, first grid line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) block: usize,
    pub(super) from: usize,
    pub(super) count: usize,
    pub(super) row: usize,
}

/// Grid lines of a section heading: a blank line, the letter, a blank line (at the top of
/// a column, no blank line above).
pub(super) const HEADING_LINES: usize = 3;

/// `headword` as a running head at `size` at most `room` points wide: cut where it would
/// be wider, an ellipsis after the letters that fit. Measured no further than it prints, so
/// a head costs what it prints however long the headword.
pub(super) fn head(headword: &str, size: f32, room: f32) -> String {
    let face = Style::Bold.face();
    let ellipsis = if face.has('\u{2026}') { "\u{2026}" } else { "..." };
    // In whole units (1/1000 em), as widths add up exactly.
    let room = (room * 1000.0 / size).max(0.0) as u64;
    let with_ellipsis = room.saturating_sub(Style::Bold.units(ellipsis));
    let (mut units, mut fits) = (0u64, 0);
    for (at, c) in headword.char_indices() {
        units += u64::from(face.advance(c));
        if units > room {
            return format!("{}{ellipsis}", headword[..fits].trim_end());
        }
        if units <= with_ellipsis {
            fits = at + c.len_utf8();
        }
    }
    headword.to_string()
}

/// The two running heads of a page with both, in `room` points with at least `gap` between
/// them: each whole if they fit together, else the shorter whole (if within half) and the
/// other cut to what is left, or both cut to half.
pub(super) fn both_heads(
    first: Option<&str>,
    last: Option<&str>,
    size: f32,
    room: f32,
    gap: f32,
) -> (Option<String>, Option<String>) {
    let (Some(first), Some(last)) = (first, last) else {
        return (first.map(|h| head(h, size, room)), last.map(|h| head(h, size, room)));
    };
    let (a, b) = (head(first, size, room), head(last, size, room));
    let (wa, wb) = (Style::Bold.width(&a, size), Style::Bold.width(&b, size));
    let half = (room - gap) / 2.0;
    let (a, b) = if wa + gap + wb <= room {
        (a, b)
    } else if wa <= half {
        (a, head(last, size, room - gap - wa))
    } else if wb <= half {
        (head(first, size, room - gap - wb), b)
    } else {
        (head(first, size, half), head(last, size, half))
    };
    (Some(a), Some(b))
}

/// The lines a column of `cap` grid lines takes from `pos` (block, line within it), and
/// where the next column starts.
pub(super) fn fill(blocks: &[Block], mut pos: (usize, usize), cap: usize) -> (Vec<Slot>, (usize, usize)) {
    let mut slots = Vec::new();
    let mut used = 0;
    while pos.0 < blocks.len() {
        match &blocks[pos.0] {
            Block::Heading(_) => {
                let h = if used == 0 { HEADING_LINES - 1 } else { HEADING_LINES };
                // Never alone at the foot: with the first lines of the first entry.
                let next = match blocks.get(pos.0 + 1) {
                    Some(Block::Entry { para, .. }) => keep_first(para.lines.len()),
                    _ => 0,
                };
                if used + h + next > cap && used > 0 {
                    break;
                }
                slots.push(Slot { block: pos.0, from: 0, count: h, row: used });
                used += h;
                pos = (pos.0 + 1, 0);
            }
            Block::Entry { para, .. } => {
                let left = para.lines.len() - pos.1;
                let room = cap.saturating_sub(used);
                if left <= room {
                    slots.push(Slot { block: pos.0, from: pos.1, count: left, row: used });
                    used += left;
                    pos = (pos.0 + 1, 0);
                    continue;
                }
                // Split so that at least two lines stay at the foot and two go over; a
                // column of its own splits where it must.
                let k = (2..=room).rev().find(|&k| left - k >= 2).or((used == 0).then_some(room.max(1)));
                if let Some(k) = k {
                    slots.push(Slot { block: pos.0, from: pos.1, count: k, row: used });
                    pos.1 += k;
                }
                break;
            }
        }
    }
    (slots, pos)
}

/// Lines of an entry of `n` lines that must stay with a heading above it: all of a short
/// entry (it is not split), else two.
pub(super) fn keep_first(n: usize) -> usize {
    if n <= 3 {
        n
    } else {
        2
    }
}
