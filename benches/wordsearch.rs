//! `cargo bench --bench wordsearch`: word searches, placement and filler, one core.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::wordsearch::{generate, Level, Spec};
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = puzzles
}
criterion_main!(benches);
