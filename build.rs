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
}
