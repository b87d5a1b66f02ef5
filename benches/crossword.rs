//! Crossword engine benchmarks: patterns per second (15x15), fill times (the two
//! example patterns and 50 generated ones; median and p90 are printed), word squares
//! per second (sides 4 and 5).
//!
//! Run: `cargo bench --bench crossword`

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzlepress::puzzles::crossword::fill::{fill_grid, FillOptions};
use puzzlepress::puzzles::crossword::*;
use puzzlepress::puzzles::monitor::Unmonitored;

const EXAMPLES: [&str; 2] = [
    "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg",
    "BEFB4516BFAFAAF8FE27573BFBDD5DEFEE75723F8FAAFAFEB4516FBEh",
];

fn patterns(c: &mut Criterion) {
    let mut group = c.benchmark_group("patterns");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, symmetry) in [("15x15_mirror", Symmetry::Mirror), ("15x15_rotational", Symmetry::Rotational)] {
        group.throughput(Throughput::Elements(100));
        group.bench_function(name, |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let req =
                    PatternRequest { count: Count::N(100), seed, symmetry: Some(symmetry), ..PatternRequest::new(15) };
                search(&req, &mut Unmonitored).unwrap()
            })
        });
    }
    group.finish();
}

/// The two examples and 50 generated 15x15 patterns (mirror, max_len 9, seed 1).
fn fill_grids() -> Vec<Grid> {
    let req = PatternRequest { count: Count::N(50), seed: 1, max_len: Some(9), ..PatternRequest::new(15) };
    let generated = search(&req, &mut Unmonitored).unwrap().patterns;
    EXAMPLES
        .iter()
        .map(|h| Grid::from_hex(h).unwrap())
        .chain(generated.iter().map(|p| Grid::from_hex(p.hex.as_deref().expect("square")).unwrap()))
        .collect()
}

fn fill_once(grid: &Grid, seed: u64) -> Duration {
    let t = Instant::now();
    let opts = FillOptions { seed, ..Default::default() };
    fill_grid(grid, WordList::english(), &opts, &mut Unmonitored).expect("fillable");
    t.elapsed()
}

fn fills(c: &mut Criterion) {
    let grids = fill_grids();
    WordList::english();
    // Distribution over the 52 patterns (each: median of 5 seeds).
    let mut per_pattern: Vec<Duration> = grids
        .iter()
        .map(|g| {
            let mut t: Vec<Duration> = (0..5).map(|seed| fill_once(g, seed)).collect();
            t.sort();
            t[2]
        })
        .collect();
    println!("fill examples: {:?} and {:?}", per_pattern[0], per_pattern[1]);
    per_pattern.sort();
    let q = |f: f64| per_pattern[((per_pattern.len() - 1) as f64 * f).round() as usize];
    println!("fill over {} patterns: median {:?}, p90 {:?}, max {:?}", per_pattern.len(), q(0.5), q(0.9), q(1.0));

    let mut group = c.benchmark_group("fill");
    group.sample_size(20).measurement_time(Duration::from_secs(5));
    for (i, grid) in grids.iter().take(2).enumerate() {
        group.bench_function(format!("example_{}", i + 1), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                fill_once(grid, seed)
            })
        });
    }
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.bench_function("all_52_patterns", |b| b.iter(|| grids.iter().map(|g| fill_once(g, 7)).sum::<Duration>()));
    group.finish();
}

fn word_squares_bench(c: &mut Criterion) {
    WordList::english();
    let mut group = c.benchmark_group("word_squares");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for size in [4, 5] {
        group.throughput(Throughput::Elements(10));
        group.bench_function(format!("sample_{size}x{size}"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let req = WordSquareRequest { count: Count::N(10), seed, ..WordSquareRequest::new(size) };
                search(&req, &mut Unmonitored).unwrap()
            })
        });
    }
    // Enumeration speed: all 82,680 distinct 3x3 squares of the bundled list.
    group.throughput(Throughput::Elements(82_680));
    group.bench_function("count_all_3x3", |b| {
        b.iter(|| {
            let req = WordSquareRequest { count: Count::All, limit: Some(0), ..WordSquareRequest::new(3) };
            search(&req, &mut Unmonitored).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, patterns, fills, word_squares_bench);
criterion_main!(benches);
