//! A whole book: generated entries typeset into pages and a PDF.

use super::book::Mark;
use super::pages::PageKind;
use super::*;
use crate::puzzles::monitor::{Monitor, Unmonitored};
use crate::render::fonts::serif::Style;

fn inner(pages: usize) -> f32 {
    // As books' gutters grow with their page count.
    let min: f32 = if pages > 150 { 0.5 } else { 0.375 };
    ((min + 0.125).max(0.95)) * 72.0
}

pub(super) fn sample(count: usize) -> (Book, Design) {
    let mut entries = sample::entries(count, 7);
    // A homograph pair and a long word.
    entries.push(entries[3].clone());
    entries.push(Entry {
        headword: "pneumonoultramicroscopicsilicovolcanoconiosis".into(),
        senses: vec![Sense { pos: "n.".into(), definition: "a lung disease caused by fine silica dust.".into() }],
    });
    let book = Book {
        title: "A Dictionary of Invented Words".into(),
        author: "Puzzlepress".into(),
        copyright: None,
        isbn: None,
        preface: vec![
            "This dictionary was typeset by puzzlepress, with paragraphs broken into lines by the total-fit \
             algorithm of Knuth and Plass, words hyphenated by Liang's patterns, and columns balanced on the \
             last page."
                .into(),
            "Its entries are generated: the words are invented and their definitions are assembled from a \
             short list of ordinary words, so that every run gives the same book."
                .into(),
        ],
        entries,
        language: Language::ENGLISH,
    };
    (book, Design::template((378.0, 576.0), inner))
}

#[test]
fn a_book_of_two_hundred_entries() {
    let (book, design) = sample(200);
    let t = typeset(&book, &design).unwrap();
    let pages = &t.pages;
    assert_eq!(pages.len() % 2, 0);
    assert!((8..40).contains(&pages.len()), "{} pages", pages.len());
    assert_eq!(t.report.overfull, 0);
    assert!(t.report.split_words >= 1, "the long word is split and reported");
    assert_eq!(pages[0].kind, PageKind::Title);
    assert_eq!(pages[2].kind, PageKind::Contents);
    assert!(pages[1].marks.is_empty(), "no imprint, a blank title page back");

    // Nothing outside the margins: no line as laid out, and no mark as drawn.
    for p in pages {
        let (x0, y0, x1, y1) = p.area;
        for m in &p.marks.iter().copied().chain(t.marks(p)).collect::<Vec<_>>() {
            let (a, b) = t.extent(m);
            let y = match m {
                Mark::Text { y, .. } | Mark::Rule { y, .. } | Mark::Lines { top: y, .. } => *y,
            };
            assert!(a >= x0 - 0.01 && b <= x1 + 0.01 && y >= y0 && y <= y1, "page {}: {m:?}", p.number);
        }
    }

    // Every entry once, in dictionary order.
    let sections = entries::sort(&entries::placed(&book.entries), book.language);
    let expected: Vec<String> = sections.iter().flat_map(|s| &s.entries).map(entries::printed_headword).collect();
    let printed: Vec<String> = pages.iter().flat_map(|p| p.headwords.clone()).collect();
    assert_eq!(printed, expected);
    assert!(printed.iter().any(|h| h.ends_with('²')));

    // Guide words: the first headword of a left-hand page, the last of a right-hand one.
    let dict: Vec<_> = pages.iter().filter(|p| p.kind == PageKind::Dictionary).collect();
    assert!(dict.len() >= 3);
    for p in &dict {
        if p.headwords.is_empty() {
            continue;
        }
        let (first, last) = (p.headwords.first().cloned(), p.headwords.last().cloned());
        if p.number % 2 == 0 {
            assert_eq!(p.heads, (first, None), "page {}", p.number);
        } else {
            assert_eq!(p.heads, (None, last), "page {}", p.number);
        }
    }

    // The last page's columns balanced; the others full to within an entry's lines.
    let last = dict.last().unwrap();
    assert!(last.columns[0].abs_diff(last.columns[1]) <= 2, "{:?}", last.columns);
    assert!(last.columns[0] >= last.columns[1]);

    // Contents: the preface, then every letter on the page its heading is on.
    assert_eq!(t.contents[0].0, "Preface");
    assert_eq!(pages[t.contents[0].1 - 1].kind, PageKind::Preface);
    let letters: Vec<&str> = t.contents[1..].iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(letters, sections.iter().map(|s| s.letter.as_str()).collect::<Vec<_>>());
    for (letter, page) in &t.contents[1..] {
        let p = &pages[page - 1];
        let heading =
            t.marks(p).any(|m| matches!(m, Mark::Text { size, text, .. } if size == 12.0 && t.text(text) == letter));
        assert!(heading, "{letter} on page {page}");
    }
}

#[test]
fn both_heads_on_every_page_when_asked() {
    let (book, mut design) = sample(120);
    design.heads = Heads::Both;
    let t = typeset(&book, &design).unwrap();
    for p in t.pages.iter().filter(|p| p.kind == PageKind::Dictionary && !p.headwords.is_empty()) {
        assert_eq!(p.heads, (p.headwords.first().cloned(), p.headwords.last().cloned()));
    }
}

#[test]
fn no_heading_alone_at_a_foot_and_no_line_alone_at_a_head() {
    let (book, design) = sample(400);
    let t = typeset(&book, &design).unwrap();
    // The grid lines between the running head's two lines and the folio's two.
    let rows = {
        let (_, y0, _, y1) = t.pages[0].area;
        ((y1 - y0 - 4.0 * design.leading - design.size) / design.leading).floor() as usize + 1
    };
    for p in t.pages.iter().filter(|p| p.kind == PageKind::Dictionary) {
        // A heading's letter (12 pt) is followed by entry lines in the same column.
        let marks: Vec<Mark> = t.marks(p).collect();
        let headings: Vec<&Mark> =
            marks.iter().filter(|m| matches!(m, Mark::Text { size, .. } if *size == 12.0)).collect();
        for h in headings {
            let Mark::Text { x, y, .. } = h else { unreachable!() };
            let below = marks.iter().any(|m| {
                matches!(m, Mark::Text { size, y: my, x: mx, .. }
                    if *size == design.size && *my < *y - 1.0 && (*mx - *x).abs() < 120.0)
            });
            assert!(below, "page {}: a heading alone at the foot", p.number);
        }
        assert!(p.columns.iter().all(|&c| c <= rows));
    }
    // Lines of each column in order, as (starts an entry, indented): an entry's first
    // line starts at the column's edge, its others at the hanging indent.
    let mut columns: Vec<Vec<(bool, bool)>> = Vec::new();
    for p in t.pages.iter().filter(|p| p.kind == PageKind::Dictionary) {
        let (x0, ..) = p.area;
        let column = (p.area.2 - x0 - design.gap) / 2.0;
        for c in 0..2 {
            let cx = x0 + c as f32 * (column + design.gap);
            let mut lines: Vec<(f32, f32)> = Vec::new();
            for m in &t.marks(p).collect::<Vec<_>>() {
                if let Mark::Text { size, x, y, .. } = m {
                    if *size == design.size && *x >= cx - 0.01 && *x < cx + column && *y < p.area.3 - design.size - 1.0
                    {
                        match lines.iter_mut().find(|l| (l.0 - *y).abs() < 0.01) {
                            Some(l) => l.1 = l.1.min(*x),
                            None => lines.push((*y, *x)),
                        }
                    }
                }
            }
            lines.sort_by(|a, b| b.0.total_cmp(&a.0));
            columns.push(
                lines.iter().map(|&(_, x)| ((x - cx).abs() < 0.01, (x - cx - design.hang).abs() < 0.01)).collect(),
            );
        }
    }
    for (i, pair) in columns.windows(2).enumerate() {
        let (this, next) = (&pair[0], &pair[1]);
        let continues = next.first().is_some_and(|l| l.1);
        if continues {
            // Two lines at least of the entry at this column's foot and the next's head.
            let foot = this.iter().rev().take_while(|l| l.1).count() + 1;
            let head = next.iter().take_while(|l| l.1).count();
            assert!(foot >= 2 && head >= 2, "column {i}: {foot} line(s) at the foot, {head} at the head");
        }
    }
}

#[test]
fn bad_entries_are_refused_by_index() {
    let (mut book, design) = sample(20);
    book.entries[11].senses[0].definition = "from 東京".into();
    // Set before the 11th (it sorts first), but given after it.
    book.entries[15].headword = "Aaaa".into();
    book.entries[15].senses[0].definition = " ".into();
    let e = typeset(&book, &design).unwrap_err();
    assert_eq!(e.index, 11);
    assert!(book.check_front().is_ok());
    book.preface.push("Written in 東京.".into());
    assert_eq!(book.check_front().unwrap_err().0, "preface");
    book.title = "☃".into();
    let (field, detail) = book.check_front().unwrap_err();
    assert_eq!((field, detail.contains("U+2603")), ("title", true));
}

#[test]
fn pdf_is_byte_stable_and_embeds_the_serif() {
    let (book, design) = sample(200);
    let (a, layout) = dictionary_pdf(&book, &design, &mut Unmonitored).unwrap();
    let report = layout.report;
    let (b, _) = dictionary_pdf(&book, &design, &mut Unmonitored).unwrap();
    assert_eq!(a, b);
    let s = String::from_utf8_lossy(&a);
    assert!(s.starts_with("%PDF-") && s.trim_end().ends_with("%%EOF"));
    // Each face encoded by its own CMap stream (one-byte ASCII, two-byte other glyphs).
    assert_eq!(s.matches("/Encoding ").count(), 3);
    assert_eq!(s.matches("/CMapName /PZPR-Serif-H def").count(), 3);
    for face in
        ["PZPRTR+DejaVuSerifCondensed", "PZPRTI+DejaVuSerifCondensed-Italic", "PZPRTB+DejaVuSerifCondensed-Bold"]
    {
        assert!(s.contains(&format!("/BaseFont /{face}")), "{face}");
    }
    assert!(s.contains("/FontFile2") && s.contains("/ToUnicode"));
    assert!(s.contains(&format!("/Count {}", report.pages)));
    if let Ok(path) = std::env::var("TYPESET_SAMPLE") {
        std::fs::write(path, &a).unwrap();
    }
}

#[test]
fn two_thousand_entries_set_mostly_within_tolerance() {
    // The figures of scripts/bench-dictionary's set: with half the space to stretch and
    // no space factors, over a third of the lines were underfull (6,222 of 18,457 at
    // 8.5/10 pt); now under a fifth, none overfull.
    let (book, design) = sample(2000);
    let r = typeset(&book, &design).unwrap().report;
    assert_eq!(r.overfull, 0);
    assert!(r.underfull * 5 < r.lines, "{} of {} lines underfull", r.underfull, r.lines);
    assert!(r.hyphens > r.lines / 5, "hyphenation is offered: {} of {}", r.hyphens, r.lines);
}

#[test]
fn progress_is_reported_and_a_stop_is_heeded() {
    struct Watch {
        seen: Vec<(u64, u64)>,
        stop_after: usize,
    }
    impl Monitor for Watch {
        fn update(&mut self, done: u64, total: u64) -> bool {
            self.seen.push((done, total));
            self.seen.len() <= self.stop_after
        }
    }
    // 2,500 entries and sample's two more.
    let (book, design) = sample(2500);
    let mut all = Watch { seen: Vec::new(), stop_after: usize::MAX };
    let whole = typeset_monitored(&book, &design, &mut all).unwrap();
    // Entries set of all, rising to the whole (how often between is a matter of time:
    // work_in_parallel_comes_back_in_order sees it told while slow items are set).
    assert_eq!(all.seen.first(), Some(&(0, 2502)));
    assert_eq!(all.seen.last(), Some(&(2502, 2502)));
    assert!(all.seen.windows(2).all(|w| w[0].0 < w[1].0), "{:?}", all.seen);
    assert_eq!(whole.report.entries, 2502);
    let mut stop = Watch { seen: Vec::new(), stop_after: 1 };
    assert_eq!(typeset_monitored(&book, &design, &mut stop).unwrap_err(), Stopped::Cancelled);
    assert_eq!(stop.seen.len(), 2, "nothing is set after the stop");
}

#[test]
fn words_no_line_can_hold_are_split_in_linear_time() {
    // Hostile entries: a thousand-letter word (a headword as long as one may be), and
    // definitions of many words each wider than the column. They are split between letters,
    // no line wider than its column (how long it takes is bounded by linebreak's work test;
    // this one ends quickly).
    let long = "a".repeat(1000);
    let wide = vec!["pneumonoultramicroscopicsilicovolcanoconiosisxyz"; 40].join(" ");
    let (mut book, design) = sample(4);
    book.entries.truncate(3);
    book.entries[0].senses[0].definition = long.clone();
    book.entries[1].headword = long[..entries::MAX_LINE_CHARS].to_string();
    book.entries[2].senses[0].definition = wide;
    let t = typeset(&book, &design).unwrap();
    assert_eq!(t.report.overfull, 0);
    assert!(t.report.split_words > 40, "{:?}", t.report);
}

#[test]
fn running_heads_cost_what_they_print() {
    // Headwords at the cap, of the widest letters: each far wider than a page, and a page
    // of them each. A head is cut to the room it has (an ellipsis after what fits), so the
    // heads of the whole book are a line a page, however long the headwords.
    let (mut book, mut design) = sample(4);
    book.entries = (0..120)
        .map(|i| Entry {
            headword: format!("{}{i:03}", "W".repeat(entries::MAX_LINE_CHARS - 3)),
            senses: vec![Sense { pos: "n.".into(), definition: "a word as wide as a headword may be.".into() }],
        })
        .collect();
    for heads in [Heads::Outer, Heads::Both] {
        design.heads = heads;
        let t = typeset(&book, &design).unwrap();
        let mut cut = 0;
        for p in t.pages.iter().filter(|p| p.kind == PageKind::Dictionary) {
            let (x0, _, x1, _) = p.area;
            let width = |h: &Option<String>| h.as_deref().map_or(0.0, |h| Style::Bold.width(h, design.size));
            let shown = width(&p.heads.0) + width(&p.heads.1);
            let gap = if p.heads.0.is_some() && p.heads.1.is_some() { design.gap } else { 0.0 };
            assert!(shown + gap <= x1 - x0 + 0.01, "{heads:?} page {}: {:?} {shown} pt", p.number, p.heads);
            for h in [&p.heads.0, &p.heads.1].into_iter().flatten() {
                let kept = h.trim_end_matches(['…', '.']);
                assert!(book.entries.iter().any(|e| e.headword.starts_with(kept)), "{h}");
                cut += usize::from(h.len() < entries::MAX_LINE_CHARS);
            }
        }
        assert!(cut > 10, "{heads:?}: {cut} heads cut");
        // The book's own text (heads, folios, contents) is a line or so a page.
        let own = t.texts.last().unwrap().len();
        assert!(own < t.pages.len() * 120, "{heads:?}: {own} bytes of heads and folios, {} pages", t.pages.len());
    }
}

#[test]
fn a_definition_of_100_kb_has_no_overfull_line() {
    // Its items' widths add up to some 400,000 points: the line breaker's running sums
    // must still tell a line's width to a hundredth of a point.
    let (mut book, design) = sample(4);
    let words = sample::entries(40, 3).into_iter().flat_map(|e| e.senses).map(|s| s.definition);
    let mut definition = String::new();
    for w in words.cycle() {
        if definition.len() + w.len() + 1 > entries::MAX_PARAGRAPH_CHARS {
            break;
        }
        definition.push_str(&w);
        definition.push(' ');
    }
    book.entries[1].senses = vec![Sense { pos: "n.".into(), definition }];
    let t = typeset(&book, &design).unwrap();
    assert!(t.report.lines > 3000, "{:?}", t.report);
    assert_eq!(t.report.overfull, 0, "{:?}", t.report);
}

#[test]
fn the_copyright_line_and_isbn_go_on_the_title_pages_back() {
    let (mut book, design) = sample(20);
    book.copyright = Some("© 2026 Éditions Example".into());
    book.isbn = Some("9780306406157".into());
    let t = typeset(&book, &design).unwrap();
    let back: Vec<String> = t
        .marks(&t.pages[1])
        .filter_map(|m| match m {
            Mark::Text { text, .. } => Some(t.text(text).to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(back, ["© 2026 Éditions Example", "ISBN 9780306406157"]);
}

#[test]
fn a_short_dictionary_is_padded_with_ruled_notes_pages_only_when_asked() {
    use crate::render::pdf::testing::{numbers, ops, pages, shown};
    let (book, design) = sample(20);
    let bare = typeset(&book, &design).unwrap();
    assert!(bare.pages.len() < 24 && bare.pages.iter().all(|p| p.kind != PageKind::Notes));
    let notes = Design { notes: true, ..design };
    let t = typeset(&book, &notes).unwrap();
    assert_eq!(t.pages.len(), 24);
    let content = bare.pages.iter().rposition(|p| p.kind != PageKind::Blank).unwrap() + 1;
    assert!(t.pages[content..].iter().all(|p| p.kind == PageKind::Notes), "notes from page {}", content + 1);
    let (pdf, _) = dictionary_pdf(&book, &notes, &mut Unmonitored).unwrap();
    let doc = pages(&pdf);
    assert_eq!(doc.len(), 24);
    let last: Vec<String> = shown(&doc[23]).into_iter().map(|s| s.text).collect();
    assert_eq!((last[0].as_str(), last.last().map(String::as_str)), ("Notes", Some("24")), "{last:?}");
    // Ruled in a light grey, set back to black after.
    let greys: Vec<f32> = ops(&doc[23], "G").map(|op| numbers(op)[0]).collect();
    assert!(greys.len() > 10 && greys.chunks(2).all(|g| g == [0.75, 0.0]), "{greys:?}");
}
