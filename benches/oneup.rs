//! One Up engine benchmarks: `cargo bench --bench oneup`.
//! Distribution figures (median/max over 1,000 generated puzzles, Metropolis over 100 seeds)
//! are printed by `cargo run --release --example oneup_stats`.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::{generate, metropolis, solve, MetropolisOptions, Puzzle, EXAMPLE};
use std::hint::black_box;
use std::time::Duration;

fn exact(c: &mut Criterion) {
    let example = Puzzle::from_text(EXAMPLE).unwrap();
    c.bench_function("oneup exact solve example (unique proof)", |b| {
        b.iter(|| solve(black_box(&example), 2, &mut Unmonitored).unwrap())
    });
    for size in [8, 9] {
        let puzzles: Vec<Puzzle> =
            (0..200).map(|seed| generate(size, seed, &mut Unmonitored).unwrap().puzzle).collect();
        let mut i = 0;
        c.bench_function(&format!("oneup exact solve generated {size}x{size} (200 cycled)"), |b| {
            b.iter(|| {
                i = (i + 1) % puzzles.len();
                solve(black_box(&puzzles[i]), 2, &mut Unmonitored).unwrap()
            })
        });
    }
}

fn sampler(c: &mut Criterion) {
    let example = Puzzle::from_text(EXAMPLE).unwrap();
    let mut seed = 0;
    let mut group = c.benchmark_group("oneup metropolis");
    group.sample_size(100).measurement_time(Duration::from_secs(10));
    group.bench_function("example to solution (seeds cycled)", |b| {
        b.iter(|| {
            seed += 1;
            let out =
                metropolis(black_box(&example), &MetropolisOptions { seed, ..Default::default() }, &mut Unmonitored);
            assert!(out.unwrap().solution.is_some());
        })
    });
    group.finish();
}

fn generator(c: &mut Criterion) {
    let mut group = c.benchmark_group("oneup generate");
    for size in [6, 8, 9] {
        let mut seed = 0;
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                seed += 1;
                generate(size, seed, &mut Unmonitored).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, exact, sampler, generator);
criterion_main!(benches);
