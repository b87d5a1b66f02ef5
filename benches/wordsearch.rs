//! `cargo bench --bench wordsearch`: word searches, placement and filler, one core; and a
//! 100-puzzle book made and printed as the server does it (`taskset -c 0` for one core).

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlepress::jobs::kinds::wordsearch::{BookPuzzleRequest, WordSearchBookRequest};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::wordsearch::cost::Limits;
use puzzlepress::puzzles::wordsearch::{generate, Level, Spec};
use puzzlepress::render::print::LayoutVersion;
use std::hint::black_box;
use std::time::Duration;

/// Twenty words of 4 to 9 letters, none inside another.
const ANIMALS: [&str; 20] = [
    "badger", "beaver", "bison", "camel", "cheetah", "dolphin", "donkey", "falcon", "gazelle", "giraffe", "hedgehog",
    "jaguar", "kangaroo", "lemur", "lobster", "meerkat", "octopus", "panther", "penguin", "walrus",
];

fn puzzles(c: &mut Criterion) {
    let mut g = c.benchmark_group("wordsearch");
    for (name, level, side) in [
        ("15x15 hard, 20 words", Level::Hard, 15),
        ("15x15 expert, 20 words", Level::Expert, 15),
        ("14x14 easy, 20 words", Level::Easy, 14),
        ("30x30 hard, 20 words", Level::Hard, 30),
    ] {
        let spec = Spec {
            words: ANIMALS.iter().map(|w| w.to_string()).collect(),
            rows: side,
            cols: side,
            level,
            ..Spec::default()
        };
        let mut seed = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(generate(&spec, seed, &mut Unmonitored).unwrap())
            })
        });
    }
    g.finish();
}

/// 100 puzzles of 15 x 15 at `hard`, 20 words each (the animals, rotated so every list
/// differs), made and printed: the request checked, the puzzles generated, the interior PDF.
fn book(c: &mut Criterion) {
    let mut g = c.benchmark_group("wordsearch book");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let puzzles: Vec<BookPuzzleRequest> = (0..100)
        .map(|i| BookPuzzleRequest {
            title: Some(format!("Animals {}", i + 1)),
            words: (0..20).map(|k| ANIMALS[(i + k) % 20].to_string()).collect(),
            ..BookPuzzleRequest::default()
        })
        .collect();
    let mut seed = 0u64;
    g.bench_function("100 puzzles 15x15 hard, 20 words: made and printed", |b| {
        b.iter(|| {
            seed += 1;
            let req = WordSearchBookRequest {
                title: "Animals".into(),
                rows: 15,
                cols: 15,
                level: Level::Hard,
                seed: Some(seed),
                puzzles: puzzles.clone(),
                ..WordSearchBookRequest::default()
            };
            let book = req.make(&Limits::UNLIMITED, &mut Unmonitored).unwrap();
            black_box(req.book_pdf(&book, LayoutVersion::CURRENT).unwrap())
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = puzzles, book
}
criterion_main!(benches);
