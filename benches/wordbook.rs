//! `cargo bench --bench wordbook`: sampling word books against the FOX engine.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlepress::puzzles::foxbook::{book_seed, BookSpec};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::wordbook::{generate, Shape, WordSpec};
use std::hint::black_box;
use std::time::Duration;

fn books(c: &mut Criterion) {
    let mut g = c.benchmark_group("wordbook/default-book");
    let mut n = 0u64;
    let mut seed = move || {
        n += 1;
        book_seed(b"bench", &format!("serial{n}"), BookSpec::default())
    };
    g.bench_function("fox-engine FOX", |b| {
        b.iter(|| {
            black_box(puzzlepress::puzzles::foxbook::generate(BookSpec::default(), seed(), &mut Unmonitored).unwrap())
        })
    });
    for (name, word, letters, shape, rows, cols) in [
        ("CAT on CAT", "CAT", "CAT", Shape::Rectangle, 32, 20),
        ("FOX on FOX", "FOX", "FOX", Shape::Rectangle, 32, 20),
        ("FOX on FOXZ", "FOX", "FOXZ", Shape::Rectangle, 32, 20),
        ("NOON on NO", "NOON", "NO", Shape::Rectangle, 32, 20),
        ("OWL on OWL heart", "OWL", "OWL", Shape::Heart, 32, 20),
        ("ELEPHANT on ELPHANTS", "ELEPHANT", "ELPHANTS", Shape::Rectangle, 32, 20),
    ] {
        let spec = WordSpec { word: word.into(), letters: Some(letters.into()), shape, pages: 200, rows, cols };
        g.bench_function(name, |b| b.iter(|| black_box(generate(&spec, seed(), &mut Unmonitored).unwrap())));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = books
}
criterion_main!(benches);
