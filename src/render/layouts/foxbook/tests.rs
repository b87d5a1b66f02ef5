use super::*;
use crate::puzzles::monitor::Unmonitored;
use crate::puzzles::wordbook::{book_for, WordSpec};
use crate::render::pdf::testing::{listing, numbers, ops, pages, shown, Shown};
use crate::render::print::{CustomTrim, Imprint, MIN_PAGES};

fn sample(spec: BookSpec) -> WordBook {
    sample_word(WordSpec { pages: spec.pages, rows: spec.rows, cols: spec.cols, ..WordSpec::default() })
}

fn sample_word(spec: WordSpec) -> WordBook {
    book_for(b"render", "0000000000A", &spec.validate().unwrap(), &mut Unmonitored).unwrap().book
}

fn opts(trim: Trim) -> PrintOptions {
    PrintOptions {
        trim,
        title: "Find the Fox".into(),
        lookup_url: "https://example.com/find".into(),
        ..Default::default()
    }
}

fn all_trims() -> Vec<Trim> {
    let mut t: Vec<Trim> = TrimName::ALL.into_iter().map(Trim::Named).collect();
    t.push(Trim::Custom(CustomTrim { width_in: 4.0, height_in: 6.0 }));
    t.push(Trim::Custom(CustomTrim { width_in: 8.5, height_in: 11.69 }));
    t
}

/// Each page's MediaBox and TrimBox, read back with lopdf.
fn boxes(pdf: &[u8]) -> Vec<([f32; 4], [f32; 4])> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let rect = |d: &lopdf::Dictionary, key: &[u8]| -> [f32; 4] {
        let a = d.get(key).unwrap().as_array().unwrap();
        [0, 1, 2, 3].map(|i| a[i].as_float().unwrap())
    };
    doc.page_iter()
        .map(|id| {
            let d = doc.get_dictionary(id).unwrap();
            (rect(d, b"MediaBox"), rect(d, b"TrimBox"))
        })
        .collect()
}

/// Every text run's box on a page: (x0, y0, x1, y1) from its text position, font, size and
/// glyph widths (ascent above the baseline, descent below).
fn text_boxes(page: &[lopdf::content::Operation]) -> Vec<(String, [f32; 4])> {
    let mut out = Vec::new();
    let (mut font, mut size) = (Font::Sans, 0.0f32);
    let (mut line, mut tc, mut leading) = ((0.0f32, 0.0f32), 0.0f32, 0.0f32);
    for op in page {
        let n = || crate::render::pdf::testing::numbers(op);
        match op.operator.as_str() {
            "BT" => line = (0.0, 0.0),
            "Tf" => {
                let name = op.operands[0].as_name().unwrap().to_vec();
                font = Font::ALL.into_iter().find(|f| f.index() + 1 == (name[1] - b'0') as usize).unwrap();
                size = op.operands[1].as_float().unwrap();
            }
            "Tc" => tc = n()[0],
            "Td" | "TD" => {
                let v = n();
                if op.operator == "TD" {
                    leading = -v[1];
                }
                line = (line.0 + v[0], line.1 + v[1]);
            }
            "T*" => line.1 -= leading,
            "TL" => leading = n()[0],
            "Tm" => {
                let v = n();
                line = (v[4], v[5]);
            }
            "Tj" | "TJ" | "'" => {
                if op.operator == "'" {
                    line.1 -= leading;
                }
                let mut width = 0.0f32;
                let mut text = String::new();
                let items = match &op.operands[0] {
                    lopdf::Object::Array(a) => a.clone(),
                    other => vec![other.clone()],
                };
                for item in items {
                    match item {
                        lopdf::Object::String(bytes, _) => {
                            for b in bytes {
                                text.push(b as char);
                                width += font.char_width(b as char) as f32 * size / 1000.0 + tc;
                            }
                        }
                        other => width -= other.as_float().unwrap() * size / 1000.0,
                    }
                }
                let m = font.metrics();
                let (x0, y0) = line;
                out.push((text, [x0, y0 + m.descent * size / 1000.0, x0 + width, y0 + m.ascent * size / 1000.0]));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn interiors_fit_every_trim() {
    let book = sample(BookSpec { pages: 23, rows: 12, cols: 10 });
    for (trim, version) in all_trims().into_iter().flat_map(|t| VERSIONS.map(|v| (t, v))) {
        let o = opts(trim);
        let pdf = book_pdf(&book, "0000000000A", &o, version);
        assert_eq!(pdf, book_pdf(&book, "0000000000A", &o, version), "byte-stable");
        let total = interior_pages(23, version);
        assert!(total >= MIN_PAGES && total.is_multiple_of(2));
        let (w, h) = trim.size();
        let b = boxes(&pdf);
        assert_eq!(b.len(), total);
        for (media, trim_box) in &b {
            assert_eq!(*media, [0.0, 0.0, w, h], "{trim:?}");
            assert_eq!(media, trim_box);
        }
        let layout = Layout::new(trim, total);
        for (i, page) in pages(&pdf).iter().enumerate() {
            let n = i + 1;
            let area = layout.area(n);
            // The gutter is on the left of odd (right-hand) pages.
            let gutter_left = !n.is_multiple_of(2);
            assert_eq!(area.x, if gutter_left { layout.gutter } else { layout.outside });
            for (text, [x0, y0, x1, y1]) in text_boxes(page) {
                let e = 0.05;
                assert!(
                    x0 >= area.x - e && x1 <= area.right() + e && y0 >= area.y - e && y1 <= area.top() + e,
                    "{trim:?} page {n}: {text:?} at {x0},{y0}-{x1},{y1} outside {area:?}"
                );
            }
        }
    }
}

const VERSIONS: [InteriorVersion; 4] = InteriorVersion::ALL;

/// The index (from 0) of the first puzzle's page.
fn first_puzzle(version: InteriorVersion) -> usize {
    if version == InteriorVersion::V4 {
        4
    } else {
        2
    }
}

#[test]
fn book_pages_in_order_with_guides_and_footers() {
    for version in VERSIONS {
        pages_in_order(version);
    }
}

fn pages_in_order(version: InteriorVersion) {
    let book = sample(BookSpec { pages: 4, rows: 6, cols: 9 });
    let serial = Serial::from_bits(77).to_string();
    let pdf = book_pdf(&book, &serial, &opts(Trim::default()), version);
    let pages = pages(&pdf);
    assert_eq!(pages.len(), 24);
    let text = |i: usize| shown(&pages[i]);
    let grouped = Serial::from_bits(77).grouped();
    // The title page's back has the serial and the lookup address (the title page itself,
    // before the book frame).
    assert_eq!(text(0).iter().any(|s| s.text == grouped), version != InteriorVersion::V4);
    assert!(text(1).iter().any(|s| s.text == grouped));
    assert!(text(1).iter().any(|s| s.text == "https://example.com/find"));
    // A puzzle a page: one TJ per row, guides 1..=9 and 1..=6, the page number and the
    // serial in the footer.
    let first = first_puzzle(version);
    for p in 0..4 {
        let t = text(first + p);
        // The rows, as the book has them.
        let rows: Vec<String> =
            t.iter().filter(|s| s.font == GRID_FONT && s.text.len() == 9).map(|s| s.text.clone()).collect();
        assert_eq!(rows, book.pages[p].rows_text(), "{version:?} page {}", p + 1);
        for k in 1..=9 {
            let guides = t.iter().filter(|s| s.font == GRID_FONT && s.text == k.to_string()).count();
            assert_eq!(guides, if k <= 6 { 4 } else { 2 });
        }
        if version == InteriorVersion::V4 {
            assert!(t.iter().any(|s| s.text == format!("Puzzle {}", p + 1)));
            assert!(t.iter().any(|s| s.text == (first + p + 1).to_string() && s.font == Font::Sans));
        } else {
            assert!(t.iter().any(|s| s.text == format!("Page {}", p + 1)));
        }
    }
    // Every page carries the serial in its footer (from the first puzzle in the book frame).
    let footed = if version == InteriorVersion::V4 { first } else { 0 };
    for (i, _) in pages.iter().enumerate().skip(footed) {
        assert!(text(i).iter().any(|s| s.text.contains(&grouped)), "page {}", i + 1);
    }
    // The rest are notes pages.
    assert!(text(first + 4).iter().any(|s| s.text == "Notes") && text(23).iter().any(|s| s.text == "Notes"));
    // The grid's letters are the mono face at 8 pt or more.
    let letters: Vec<Shown> = text(first).into_iter().filter(|s| s.font == GRID_FONT && s.text.len() == 9).collect();
    assert_eq!(letters.len(), 6);
    assert!(letters.iter().all(|s| s.size >= LETTER_PT));
}

#[test]
fn the_book_frame_holds_a_fox_book() {
    let book = sample(BookSpec { pages: 30, rows: 32, cols: 20 });
    let serial = Serial::from_bits(77).to_string();
    let grouped = Serial::from_bits(77).grouped();
    for trim in all_trims() {
        let pdf = book_pdf(&book, &serial, &opts(trim), InteriorVersion::V4);
        let trace = format!("Find the Fox - serial {grouped}");
        let text = crate::render::frame::checks::assert_framed(&pdf, "Find the Fox", &trace, &grouped, true);
        assert_eq!(text.len(), interior_pages(30, InteriorVersion::V4));
        assert!(text[0].contains("30 pages of 32 x 20 letters"), "{}", text[0]);
        assert!(text[2].contains("The word FOX appears exactly once") && text[2].contains("Stuck?"), "{}", text[2]);
        assert!(!text[2].contains("Solutions from"), "no solutions pages: {}", text[2]);
        for p in 0..30 {
            let heading = format!("Puzzle {}", p + 1);
            assert!(text[4 + p].split(" | ").any(|t| t == heading), "{}", text[4 + p]);
        }
        let a = &book.answer;
        assert_eq!(InteriorVersion::V4.printed_page(a.page), a.page + 4);
    }
}

#[test]
fn answer_key_outlines_fox_in_bold() {
    let book = sample(BookSpec { pages: 3, rows: 8, cols: 8 });
    for trim in all_trims() {
        let pdf = answer_pdf(&book, "not-a-serial", &opts(trim), InteriorVersion::V4);
        let pages = pages(&pdf);
        assert_eq!(pages.len(), 1);
        let text = shown(&pages[0]);
        assert!(text.iter().any(|s| s.text.contains("not-a-serial")));
        let a = &book.answer;
        let sentence: String = text.iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" ");
        assert!(
            sentence.contains(&format!(
                "The fox is on page {} (puzzle {}), row {}, column {}",
                a.page + 4,
                a.page,
                a.row,
                a.col
            )),
            "{sentence}"
        );
        assert!(sentence.contains(direction_words(a.direction)));
        let bold: Vec<&Shown> = text.iter().filter(|s| s.font == FOX_FONT).collect();
        let mut letters: Vec<char> = bold.iter().flat_map(|s| s.text.chars()).collect();
        letters.sort();
        assert_eq!(letters, ['F', 'O', 'X']);
        assert!(bold.iter().all(|s| s.color == FOX_RED));
        let area = Layout::new(trim, 1).area(1);
        for (text, [x0, y0, x1, y1]) in text_boxes(&pages[0]) {
            assert!(
                x0 >= area.x - 0.05 && x1 <= area.right() + 0.05 && y0 >= area.y - 0.05 && y1 <= area.top() + 0.05,
                "{trim:?}: {text:?} at {x0},{y0}-{x1},{y1} outside {area:?}"
            );
        }
        // The outline: one closed path of two lines and four quarter circles, stroked.
        let page = &pages[0];
        assert_eq!(ops(page, "c").count(), 4);
        assert_eq!(ops(page, "s").count(), 1);
    }
}

#[test]
fn small_letters_are_refused_with_what_fits() {
    let big = BookSpec { pages: 200, rows: 64, cols: 64 };
    assert!(check_letter_size(big, Trim::Named(TrimName::Letter)).is_ok());
    assert!(printed_letter_size(big, Trim::Named(TrimName::Letter)) >= LETTER_PT);
    let e = check_letter_size(big, Trim::Named(TrimName::SixByNine)).unwrap_err();
    assert!(e.contains("64 x 64") && e.contains("trim letter") && e.contains("on 6x9"), "{e}");
    assert!(check_letter_size(BookSpec::default(), Trim::Named(TrimName::A5)).is_ok());
    assert!(printed_letter_size(BookSpec::default(), Trim::Named(TrimName::A5)) >= LETTER_PT);
}

#[test]
fn fox_book_pdfs_are_byte_stable() {
    // Rendering changes that alter a FOX book's PDFs must be deliberate: these are the
    // files every earlier printing of this book produced (generator version 1).
    let plan = WordSpec { pages: 3, rows: 8, cols: 9, ..WordSpec::default() }.validate().unwrap();
    let book =
        crate::puzzles::wordbook::book_for_version(b"render", "0000000000A", &plan, 1, &mut Unmonitored).unwrap().book;
    let sha = |bytes: Vec<u8>| crate::render::layouts::printrun::sha256_hex(&bytes);
    let o = opts(Trim::Named(TrimName::SixByNine));
    assert_eq!(
        sha(book_pdf(&book, "0000000000A", &o, InteriorVersion::V1)),
        "b07a5bcbfcd2c7451bb91d6793bcbc6e685fdc47f11b9f8eb9c95fc5b89ba136"
    );
    assert_eq!(
        sha(book_pdf(&book, "0000000000A", &o, InteriorVersion::V2)),
        "b2ed36170d2b44fb48ce713173e5b63a78a8c1ec961fab723654b14ce9419e4b"
    );
    assert_eq!(
        sha(answer_pdf(&book, "0000000000A", &o, InteriorVersion::V2)),
        "794ae68fe57ecbd49c550c71ae3df8398963a37456c6086786f6191ce42838d6"
    );
    let cover = crate::render::layouts::cover::cover(
        &book,
        "0000000000A",
        &o,
        crate::render::layouts::cover::Paper::Cream,
        InteriorVersion::V2,
        None,
    )
    .pdf();
    assert_eq!(sha(cover), "f00ebdc349aacd7470c93b283556ec28bacca5c8f0779d471bb469f0abea8932");
}

#[test]
fn word_books_print_their_word_shape_and_letters() {
    let spec = WordSpec {
        word: "CAT".into(),
        letters: Some("CATS".into()),
        shape: crate::puzzles::wordbook::Shape::Heart,
        pages: 3,
        rows: 14,
        cols: 14,
    };
    let book = sample_word(spec);
    let o = PrintOptions { title: "Find the Cat".into(), ..opts(Trim::default()) };
    for version in VERSIONS {
        shaped_interior(&book, &o, version);
    }
    let answer = answer_pdf(&book, "0000000000A", &o, InteriorVersion::V3);
    let key = shown(&pages(&answer)[0]);
    let text = key.iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" ");
    assert!(text.contains(&format!("The word CAT is on page {},", book.answer.page)), "{text}");
    let mut bold: Vec<char> = key.iter().filter(|s| s.font == FOX_FONT).flat_map(|s| s.text.chars()).collect();
    bold.sort();
    assert_eq!(bold, ['A', 'C', 'T']);
    let cover = crate::render::layouts::cover::cover(
        &book,
        "0000000000A",
        &o,
        crate::render::layouts::cover::Paper::White,
        InteriorVersion::CURRENT,
        None,
    )
    .pdf();
    let cover_text = shown(&pages(&cover)[0]).iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" ");
    assert!(cover_text.contains("One CAT in 3 pages") && cover_text.contains("C, A, T and S"), "{cover_text}");
}

fn shaped_interior(book: &WordBook, o: &PrintOptions, version: InteriorVersion) {
    let pdf = book_pdf(book, "0000000000A", o, version);
    let interior = pages(&pdf);
    let all = |i: usize| shown(&interior[i]).iter().map(|s| s.text.clone()).collect::<Vec<_>>().join(" ");
    // The title page, and how to play in the book frame.
    let title = format!("{} {}", all(0), all(2));
    assert!(title.contains("Find the Cat") && title.contains("The word CAT appears exactly once"), "{title}");
    assert!(title.contains("letters C, A, T and S") && title.contains("3 heart-shaped pages of 14 x 14"), "{title}");
    // A heart leaves its corners blank: the page's letters are fewer than its 14 x 14 cells.
    let grid: Vec<Shown> = shown(&interior[first_puzzle(version)])
        .into_iter()
        .filter(|s| s.font == GRID_FONT && s.size >= LETTER_PT)
        .collect();
    let letters: usize = grid.iter().map(|s| s.text.chars().filter(char::is_ascii_uppercase).count()).sum();
    let cells = book.plan.mask.count();
    assert_eq!(letters, cells, "{version:?}: one letter per cell of the heart, none outside it");
}

#[test]
fn version_two_puts_every_row_where_version_one_did() {
    let book = sample(BookSpec { pages: 3, rows: 32, cols: 20 });
    for trim in all_trims() {
        let o = opts(trim);
        let rows = |version| {
            let pdf = book_pdf(&book, "0000000000A", &o, version);
            pages(&pdf)[2..5]
                .iter()
                .map(|page| {
                    let grid = |t: &str| t.len() == 20 && t.bytes().all(|b| b"FOX".contains(&b));
                    text_boxes(page).into_iter().filter(|(t, _)| grid(t)).collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        let (one, two) = (rows(InteriorVersion::V1), rows(InteriorVersion::V2));
        for (p, (a, b)) in one.iter().zip(&two).enumerate() {
            assert_eq!(a.len(), 32, "{trim:?} page {}", p + 3);
            assert_eq!(a.len(), b.len());
            for ((ta, ba), (tb, bb)) in a.iter().zip(b) {
                assert_eq!(ta, tb);
                for k in 0..4 {
                    assert!((ba[k] - bb[k]).abs() < 0.02, "{trim:?} page {}: {ta} at {ba:?} and {bb:?}", p + 3);
                }
            }
        }
    }
}

#[test]
fn version_two_draws_the_furniture_once_a_side() {
    let book = sample(BookSpec { pages: 30, rows: 32, cols: 20 });
    let o = opts(Trim::default());
    let pdf = book_pdf(&book, "0000000000A", &o, InteriorVersion::V2);
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let forms = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| s.dict.get(b"Subtype").and_then(lopdf::Object::as_name).is_ok_and(|n| n == b"Form"));
    assert_eq!(forms.count(), 2, "one for right-hand pages, one for left-hand pages");
    // What a puzzle page adds to the file (beyond fonts and front matter).
    let per_page = |version| {
        let size = |pages| book_pdf(&sample(BookSpec { pages, rows: 32, cols: 20 }), "0000000000A", &o, version).len();
        (size(60) - size(30)) / 30
    };
    let (one, two, four) =
        (per_page(InteriorVersion::V1), per_page(InteriorVersion::V2), per_page(InteriorVersion::V4));
    assert!(two * 2 < one, "a page takes {two} bytes against {one}");
    // Its heading ("Puzzle 17") aside.
    assert!(four <= two + 48, "in the book frame a page takes {four} bytes against {two}");
}

#[test]
fn the_imprint_prints_where_books_print_it_and_only_when_given() {
    let book = sample(BookSpec { pages: 3, rows: 8, cols: 9 });
    let plain = opts(Trim::Named(TrimName::SixByNine));
    let imprint = Imprint {
        author: Some("Ada Fox".into()),
        copyright: Some("\u{a9} 2026 Example Press".into()),
        isbn: Some("0306406152".into()),
    };
    let with = PrintOptions { imprint, ..plain.clone() };
    let text = |page: &[lopdf::content::Operation]| shown(page).iter().map(|s| s.text.clone()).collect::<Vec<_>>();
    for version in VERSIONS {
        let (a, b) = (book_pdf(&book, "0000000000A", &plain, version), book_pdf(&book, "0000000000A", &with, version));
        let (a, b) = (pages(&a), pages(&b));
        assert_eq!(a.len(), b.len(), "{version:?}: the imprint adds no page");
        let title = text(&b[0]);
        let at = |s: &str| title.iter().position(|t| t == s);
        assert!(at("Find the Fox") < at("Ada Fox") && at("Ada Fox").is_some(), "{title:?}");
        let back = text(&b[1]).join(" | ");
        // The © is drawn: a circle around a small C, then the rest of the line.
        assert!(back.contains("C |  2026 Example Press") && back.contains("ISBN 0306406152 |"), "{back}");
        assert!(!text(&a[0]).join(" ").contains("Ada") && !text(&a[1]).join(" ").contains("ISBN"));
        // The copyright notice keeps clear of the QR code above it.
        let qr_bottom = ops(&b[1], "re").map(|op| numbers(op)[1]).fold(f32::MAX, f32::min);
        let notice_top =
            text_boxes(&b[1]).iter().filter(|(t, _)| t.contains("Example")).map(|(_, r)| r[3]).fold(0.0, f32::max);
        assert!(qr_bottom > notice_top + 4.0, "QR from {qr_bottom}, notice to {notice_top}");
        let listings = |doc: &[Vec<lopdf::content::Operation>]| doc.iter().map(|p| listing(p)).collect::<Vec<_>>();
        assert_eq!(listings(&a[2..]), listings(&b[2..]), "{version:?}: the puzzle pages are the same");
    }
    let cover = |o: &PrintOptions| {
        crate::render::layouts::cover::cover(
            &book,
            "0000000000A",
            o,
            crate::render::layouts::cover::Paper::White,
            InteriorVersion::CURRENT,
            None,
        )
        .pdf()
    };
    let front = text(&pages(&cover(&with))[0]).join(" | ");
    assert!(front.contains("Find the Fox | Ada Fox"), "{front}");
    assert!(front.contains("ISBN 0306406152") && front.contains("9 | 780306 | 406157"), "{front}");
    let bare = text(&pages(&cover(&plain))[0]).join(" | ");
    assert!(!bare.contains("ISBN") && !bare.contains("Ada"), "{bare}");
}
