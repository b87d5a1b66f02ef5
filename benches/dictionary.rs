//! `cargo bench --bench dictionary`: the 2,000 entries of `scripts/bench-dictionary`
//! typeset on the template's 5.25 x 8 in page into a PDF, in this process (no start-up,
//! no file), on the cores there are, as `puzzlepress dictionary` does.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::render::print::LayoutVersion;
use puzzlepress::render::print::Trim;
use puzzlepress::render::typeset::{sample, Book, Heads, Language};
use std::hint::black_box;
use std::time::Duration;

fn dictionary(c: &mut Criterion) {
    let book = Book {
        title: "A Dictionary of Invented Words".into(),
        author: "Puzzlepress".into(),
        copyright: None,
        isbn: None,
        preface: vec![
            "Entries typeset by puzzlepress, to compare with pdflatex and the Latex Dictionary Template.".into()
        ],
        entries: sample::entries(2000, 7),
        language: Language::ENGLISH,
    };
    let trim = Trim::parse("5.25x8").expect("a named trim");
    let pdf = || {
        puzzlepress::render::layouts::dictionary::pdf(
            &book,
            trim,
            Heads::Outer,
            LayoutVersion::CURRENT,
            &mut Unmonitored,
        )
        .expect("not stopped")
    };
    // The book the script times (its report: the same pages and lines).
    let (_, layout) = pdf();
    assert_eq!((layout.report.pages, layout.report.lines), (198, 17_050), "the script's book");
    let mut g = c.benchmark_group("dictionary");
    g.bench_function("2000 entries to PDF", |b| b.iter(|| black_box(pdf())));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(5));
    targets = dictionary
}
criterion_main!(benches);
