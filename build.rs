//! Subsets the bundled fonts once, at build time, rather than in every process: each font
//! cut to the 95 printable ASCII glyphs in code order (so glyph `code - 31` is the character
//! `code`), zlib-deflated at level 9, with the metrics a PDF needs. `src/render/font.rs`
//! includes what this writes to `OUT_DIR/fonts.rs`.
//!
//! The subset files are byte for byte what the renderer embedded when it subset at run
//! time (the golden PDF tests pin them): the same `subsetter` release, glyph order and
//! compression level.

use std::fmt::Write as _;

use skrifa::instance::{LocationRef, Size};
use skrifa::raw::tables::os2::SelectionFlags;
use skrifa::raw::TableProvider;
use skrifa::{FontRef, MetadataProvider};

/// (file in fonts/, PostScript name, subset tag, the `Font` variant it backs).
const FONTS: [(&str, &str, &str); 4] = [
    ("DejaVuSans.ttf", "DejaVuSans", "PZPRSA"),
    ("DejaVuSans-Bold.ttf", "DejaVuSans-Bold", "PZPRSB"),
    ("DejaVuSansMono.ttf", "DejaVuSansMono", "PZPRMA"),
    ("DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Bold", "PZPRMB"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=fonts");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut rust = String::from("// Written by build.rs: the bundled fonts' metrics and subsets.\n[\n");
    for (file, base, tag) in FONTS {
        let data = std::fs::read(format!("fonts/{file}")).unwrap_or_else(|e| panic!("fonts/{file}: {e}"));
        let font = FontRef::new(&data).unwrap_or_else(|e| panic!("fonts/{file} does not parse: {e}"));
        let metrics = font.metrics(Size::unscaled(), LocationRef::default());
        let glyphs = font.glyph_metrics(Size::unscaled(), LocationRef::default());
        let charmap = font.charmap();
        let per_mille = 1000.0 / metrics.units_per_em as f32;
        let scale = |v: f32| (v * per_mille).round();

        let mut remapper = subsetter::GlyphRemapper::new();
        remapper.remap(0);
        let mut widths = Vec::new();
        for (i, code) in (b' '..=b'~').enumerate() {
            let gid = charmap.map(code as char).unwrap_or_else(|| panic!("{file} lacks {:?}", code as char));
            let gid16 = u16::try_from(gid.to_u32()).expect("a TrueType glyph id");
            assert_eq!(remapper.remap(gid16) as usize, i + 1, "{file}: ASCII glyphs are distinct");
            widths.push(scale(glyphs.advance_width(gid).unwrap_or(0.0)) as u16);
        }
        let subset = subsetter::subset(&data, 0, &remapper).expect("the bundled font subsets");
        let deflated = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 9);
        let subset_file = out.join(format!("{base}.subset.z"));
        std::fs::write(&subset_file, deflated).expect("write the subset");

        let b = metrics.bounds.expect("a head table");
        // DejaVu's OS/2 table predates the capital height: measure H.
        let cap = charmap.map('H').and_then(|g| glyphs.bounds(g)).map_or(metrics.ascent, |b| b.y_max);
        let bold = font.os2().is_ok_and(|os2| os2.fs_selection().contains(SelectionFlags::BOLD));
        writeln!(
            rust,
            "    Metrics {{ name: {name:?}, widths: {widths:?}, bbox: [{:?}, {:?}, {:?}, {:?}], ascent: {:?}, \
             descent: {:?}, cap_height: {:?}, monospace: {}, bold: {bold}, file: include_bytes!({path:?}) }},",
            scale(b.x_min),
            scale(b.y_min),
            scale(b.x_max),
            scale(b.y_max),
            scale(metrics.ascent),
            scale(metrics.descent),
            scale(cap),
            metrics.is_monospace,
            name = format!("{tag}+{base}"),
            path = subset_file.display().to_string(),
        )
        .expect("write to a string");
    }
    rust.push_str("]\n");
    std::fs::write(out.join("fonts.rs"), rust).expect("write fonts.rs");
    serif_faces(&out);
}

/// (file in fonts/, PostScript name, subset tag) of the dictionary's text face: regular,
/// italic, bold (`src/render/typeset/fonts.rs`).
const SERIF: [(&str, &str, &str); 3] = [
    ("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed", "PZPRTR"),
    ("DejaVuSerifCondensed-Italic.ttf", "DejaVuSerifCondensed-Italic", "PZPRTI"),
    ("DejaVuSerifCondensed-Bold.ttf", "DejaVuSerifCondensed-Bold", "PZPRTB"),
];

/// The characters the serif faces are cut to: Latin-1, Latin Extended-A and the
/// punctuation a dictionary sets (dashes, quotes, daggers, bullet, ellipsis, primes,
/// superscript digits for homographs).
fn serif_chars() -> Vec<char> {
    let ranges: [(u32, u32); 14] = [
        (0x20, 0x7E),
        (0xA0, 0x17F),
        (0x2010, 0x2015),
        (0x2018, 0x201E),
        (0x2020, 0x2022),
        (0x2026, 0x2026),
        (0x2030, 0x2030),
        (0x2032, 0x2033),
        (0x2039, 0x203A),
        (0x2070, 0x2070),
        (0x2074, 0x2079),
        (0x20AC, 0x20AC),
        (0x2122, 0x2122),
        (0x2212, 0x2212),
    ];
    ranges.iter().flat_map(|&(a, b)| (a..=b).filter_map(char::from_u32)).collect()
}

/// Subsets the serif faces to [`serif_chars`] for a two-byte (Identity-H) encoding: glyph
/// ids of the subset are the codes, in character order, and `serif.rs` lists, per face,
/// each character with its glyph id and advance width (1/1000 em), and the kerning pairs
/// between them.
fn serif_faces(out: &std::path::Path) {
    let chars = serif_chars();
    // Only characters every face has: a text's character either prints in any face or is
    // refused.
    let datas: Vec<Vec<u8>> = SERIF
        .iter()
        .map(|(file, _, _)| std::fs::read(format!("fonts/{file}")).unwrap_or_else(|e| panic!("fonts/{file}: {e}")))
        .collect();
    let common: Vec<char> = chars
        .into_iter()
        .filter(|&c| datas.iter().all(|d| FontRef::new(d).expect("the serif faces parse").charmap().map(c).is_some()))
        .collect();
    let mut rust = String::from("// Written by build.rs: the serif faces' glyphs, metrics and subsets.\n[\n");
    for ((file, base, tag), data) in SERIF.iter().zip(&datas) {
        let font = FontRef::new(data).unwrap_or_else(|e| panic!("fonts/{file} does not parse: {e}"));
        let metrics = font.metrics(Size::unscaled(), LocationRef::default());
        let glyphs = font.glyph_metrics(Size::unscaled(), LocationRef::default());
        let charmap = font.charmap();
        let per_mille = 1000.0 / metrics.units_per_em as f32;
        let scale = |v: f32| (v * per_mille).round();
        let mut remapper = subsetter::GlyphRemapper::new();
        remapper.remap(0);
        let mut table = Vec::new();
        for &c in &common {
            let gid = charmap.map(c).expect("a common character");
            let old = u16::try_from(gid.to_u32()).expect("a TrueType glyph id");
            let new = remapper.remap(old);
            table.push((c, new, scale(glyphs.advance_width(gid).unwrap_or(0.0)) as u16));
        }
        let subset = subsetter::subset(data, 0, &remapper).expect("the serif face subsets");
        let deflated = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 9);
        let subset_file = out.join(format!("{base}.subset.z"));
        std::fs::write(&subset_file, deflated).expect("write the subset");
        let b = metrics.bounds.expect("a head table");
        let cap = charmap.map('H').and_then(|g| glyphs.bounds(g)).map_or(metrics.ascent, |b| b.y_max);
        let x_height = charmap.map('x').and_then(|g| glyphs.bounds(g)).map_or(metrics.ascent / 2.0, |b| b.y_max);
        let italic_angle = font.post().map(|p| p.italic_angle().to_f32()).unwrap_or(0.0);
        let bold = font.os2().is_ok_and(|os2| os2.fs_selection().contains(SelectionFlags::BOLD));
        writeln!(
            rust,
            "    Face {{ name: {name:?}, glyphs: &{table:?}, bbox: [{:?}, {:?}, {:?}, {:?}], ascent: {:?}, \
             descent: {:?}, cap_height: {:?}, x_height: {:?}, italic_angle: {italic_angle:?}, bold: {bold}, \
             file: include_bytes!({path:?}) }},",
            scale(b.x_min),
            scale(b.y_min),
            scale(b.x_max),
            scale(b.y_max),
            scale(metrics.ascent),
            scale(metrics.descent),
            scale(cap),
            scale(x_height),
            name = format!("{tag}+{base}"),
            path = subset_file.display().to_string(),
        )
        .expect("write to a string");
    }
    rust.push_str("]\n");
    std::fs::write(out.join("serif.rs"), rust).expect("write serif.rs");
}
