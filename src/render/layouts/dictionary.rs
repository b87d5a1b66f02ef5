//! A dictionary printed as a book: the template's page design ([`typeset::Design`]) on a
//! trim, its inner margin at least the gutter books of its page count need.

use crate::puzzles::monitor::Monitor;
use crate::render::print::{min_gutter_in, LayoutVersion, Trim, INCH};
use crate::render::typeset::{self, Design, Heads};

/// The template's binding offset and margin together (0.2 in + 0.75 in), or the gutter a
/// book of `pages` pages needs if wider (as [`crate::render::print::Layout`] has it).
fn inner_margin(pages: usize) -> f32 {
    (min_gutter_in(pages) + 0.125).max(0.95) * INCH
}

/// The design of a dictionary on `trim` in `layout` (from version 4, padded with notes
/// pages to an even count of at least 24, as the book frame pads every book).
pub fn design(trim: Trim, heads: Heads, layout: LayoutVersion) -> Design {
    let notes = !matches!(layout, LayoutVersion::V1 | LayoutVersion::V2 | LayoutVersion::V3);
    Design { heads, notes, ..Design::template(trim.size(), inner_margin) }
}

/// The dictionary's PDF in `layout` and how it was laid out (how well it was set: its
/// `report`); `monitor` follows the entries set.
pub fn pdf(
    book: &typeset::Book,
    trim: Trim,
    heads: Heads,
    layout: LayoutVersion,
    monitor: &mut dyn Monitor,
) -> Result<(Vec<u8>, typeset::Typeset), typeset::Stopped> {
    typeset::dictionary_pdf(book, &design(trim, heads, layout), monitor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::print::TrimName;

    #[test]
    fn the_gutter_grows_past_the_binding_offset_only_for_thick_books() {
        assert_eq!(inner_margin(24), 0.95 * INCH);
        assert_eq!(inner_margin(700), 0.95 * INCH);
        assert_eq!(inner_margin(701), 1.0 * INCH);
        let d = design(Trim::Named(TrimName::Pocket), Heads::Both, LayoutVersion::V3);
        assert_eq!((d.page, d.heads, d.outside), ((378.0, 576.0), Heads::Both, 54.0));
    }
}
