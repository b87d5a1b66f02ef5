//! Puzzles generated per second at each level, and the levels of freely drawn puzzles:
//! `cargo run --release --example oneup_levels [count] [size] [symmetry]` (defaults 200, 8,
//! none). One core.

use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::*;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().map_or(200, |s| s.parse().expect("count"));
    let size: usize = args.next().map_or(8, |s| s.parse().expect("size"));
    let symmetry = match args.next().as_deref() {
        Some("rotational") => ClueSymmetry::Rotational,
        _ => ClueSymmetry::None,
    };
    let example = Puzzle::from_text(EXAMPLE).unwrap();
    let logical = solve_logically(&example).unwrap();
    println!(
        "7 July 2024: {:?}, {} steps, techniques {:?}",
        logical.level(),
        logical.steps.len(),
        logical.techniques()
    );
    let mut free = std::collections::BTreeMap::new();
    let start = Instant::now();
    for seed in 0..count {
        let g = generate_with(&GenerateOptions { size, level: None, symmetry }, seed, &mut Unmonitored).unwrap();
        *free.entry(g.difficulty.level).or_insert(0) += 1;
    }
    println!("{count} puzzles of any level: {:.0}/s; levels {free:?}", count as f64 / start.elapsed().as_secs_f64());
    for level in Level::ALL {
        let n = if level >= Level::Hard { count / 10 } else { count }.max(1);
        let start = Instant::now();
        let mut failed = 0;
        for seed in 0..n {
            let options = GenerateOptions { size, level: Some(level), symmetry };
            if generate_with(&options, seed, &mut Unmonitored).is_err() {
                failed += 1;
            }
        }
        println!(
            "{}: {n} puzzles, {:.1}/s ({failed} not found)",
            level.as_str(),
            n as f64 / start.elapsed().as_secs_f64()
        );
    }
}
