use super::testing;
use super::{Compression, Options};
use crate::render::page::*;

#[test]
fn document_structure() {
    let mut doc = Document::new();
    doc.set_options(Options { compression: Compression::None, compact: false });
    doc.set_title("Test (1)");
    let c = doc.add_page(US_LETTER);
    c.text_centered(Style::new(Font::SansBold, 20.0), 306.0, 700.0, "Hello (world)");
    let red = Style::new(Font::Mono, 12.0).color(Rgb::RED);
    c.cell_row(red, 100.0, 500.0, 18.0, &[Some('F'), None, Some('O'), Some('X')]);
    c.line((10.0, 10.0), (100.0, 10.0), 0.5, Rgb::GREY);
    c.rect(20.0, 20.0, 50.0, 30.0, Paint::Stroke { width: 1.0, color: Rgb::BLACK });
    c.rect(80.0, 20.0, 50.0, 30.0, Paint::Fill(Rgb::GREY));
    doc.add_page(US_LETTER).text(Style::new(Font::Sans, 9.0), 50.0, 50.0, "page 2");
    let bytes = doc.finish();
    let s = String::from_utf8_lossy(&bytes);
    assert!(s.starts_with("%PDF-"));
    assert!(s.contains("/Count 2"));
    assert!(s.contains("/BaseFont /PZPRSB+DejaVuSans-Bold") && s.contains("/BaseFont /PZPRSA+DejaVuSans"));
    assert!(s.contains("/FontFile2") && s.contains("/ToUnicode") && s.contains("/CIDFontType2"));
    assert!(s.contains("/TrimBox [0 0 612 792]") && !s.contains("/BleedBox"));
    assert!(s.contains("/Title (Test "));
    assert!(s.contains("TJ"));
    assert!(s.trim_end().ends_with("%%EOF"));
}

#[test]
fn numbers_are_rounded_and_compact() {
    let mut doc = Document::new();
    doc.set_options(Options { compression: Compression::None, compact: false });
    let c = doc.add_page(US_LETTER);
    c.line((12.5, -0.004), (10.08337, 3.0), 0.1, Rgb::RED);
    c.text(Style::new(Font::Sans, 9.999), -83.0, 1.0 / 3.0, "x");
    let ops = testing::listing(&testing::pages(&doc.finish())[0]);
    assert_eq!(
        ops,
        [
            "0.85 0 0 RG",
            "0.1 w",
            "12.5 0 m",
            "10.08 3 l",
            "S",
            "0 0 0 rg",
            "BT",
            "/F1 10 Tf",
            "-83 0.33 Td",
            "(x) Tj",
            "ET"
        ]
    );
}

#[test]
fn segments_use_square_caps_and_lines_restore_butt_caps() {
    let mut doc = Document::new();
    doc.set_options(Options { compression: Compression::None, compact: false });
    let c = doc.add_page(US_LETTER);
    c.segments(&[], 3.0, Rgb::BLACK);
    c.segments(&[((0.0, 0.0), (10.0, 0.0)), ((10.0, 0.0), (10.0, 5.5))], 3.0, Rgb::BLACK);
    c.segments(&[((1.0, 1.0), (2.0, 2.0))], 3.0, Rgb::BLACK);
    c.line((0.0, 0.0), (1.0, 1.0), 3.0, Rgb::BLACK);
    let ops = testing::listing(&testing::pages(&doc.finish())[0]);
    // One path for both segments of a call, caps set once and reset for the plain line.
    let expected = ["0 0 0 RG", "3 w", "2 J", "0 0 m", "10 0 l", "10 0 m", "10 5.5 l", "S", "1 1 m", "2 2 l", "S"];
    assert_eq!(ops[..11], expected);
    assert_eq!(ops[11..], ["0 J", "0 0 m", "1 1 l", "S"]);
    assert_eq!(ops.iter().filter(|op| op.ends_with(" J")).count(), 2);
}

#[test]
fn runs_are_maximal() {
    let on = [true, true, false, true, false, false, true];
    assert_eq!(runs(on.len(), |i| on[i]), [(0, 2), (3, 4), (6, 7)]);
    assert_eq!(runs(3, |_| false), []);
    assert_eq!(runs(0, |_| true), []);
}

#[test]
fn cell_grid_fits_centred_and_capped() {
    let g = CellGrid::fit(4, 8, (100.0, 50.0, 400.0, 300.0), 40.0);
    assert_eq!((g.pitch, g.left, g.top), (40.0, 140.0, 350.0));
    assert_eq!((g.x(8), g.bottom()), (460.0, 190.0));
    let g = CellGrid::fit(10, 10, (0.0, 0.0, 200.0, 100.0), 40.0);
    assert_eq!((g.pitch, g.left), (10.0, 50.0));
    assert_eq!(g.inner_lines().len(), 18);
    assert_eq!(g.outline()[1], ((150.0, 100.0), (150.0, 0.0)));
    let empty = CellGrid::fit(0, 0, (0.0, 0.0, 200.0, 100.0), 40.0);
    assert!(empty.inner_lines().is_empty());
}
