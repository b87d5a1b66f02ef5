//! Prints the One Up engine figures for the README:
//! `cargo run --release --example oneup_stats [count] [size]` (defaults 1000, 8).
//! Exact-solve time for the 7 July 2024 example and for `count` generated puzzles
//! (median, max; each puzzle timed as the best of 5 runs), generation rate, and
//! Metropolis success rate / median steps and time over 100 seeds on the example.

use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::*;
use std::time::{Duration, Instant};

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().map_or(1000, |s| s.parse().expect("count"));
    let size: usize = args.next().map_or(8, |s| s.parse().expect("size"));

    let example = Puzzle::from_text(EXAMPLE).unwrap();
    let reps = 2000;
    let start = Instant::now();
    for _ in 0..reps {
        solve(&example, 2, &mut Unmonitored).unwrap();
    }
    println!("example exact solve (unique proof): {:?} mean over {reps}", start.elapsed() / reps);

    let start = Instant::now();
    let generated: Vec<Generated> = (0..count).map(|seed| generate(size, seed, &mut Unmonitored).unwrap()).collect();
    let gen_time = start.elapsed();
    println!(
        "generated {count} {size}x{size} puzzles in {gen_time:?}: {:.0} puzzles/s",
        count as f64 / gen_time.as_secs_f64()
    );
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    let mut clues = Vec::new();
    let mut levels = std::collections::BTreeMap::<String, usize>::new();
    for g in &generated {
        // Best of 5 runs per puzzle, so the max reflects the puzzle, not the scheduler.
        let mut best = Duration::MAX;
        let mut out = None;
        for _ in 0..5 {
            let start = Instant::now();
            out = Some(solve(&g.puzzle, 2, &mut Unmonitored).unwrap());
            best = best.min(start.elapsed());
        }
        let out = out.unwrap();
        times.push(best);
        assert_eq!(out.unique, Some(true));
        assert_eq!(out.solution.as_ref(), Some(&g.solution));
        nodes.push(out.stats.nodes);
        clues.push(g.difficulty.clues);
        *levels.entry(format!("{:?}", g.difficulty.level)).or_default() += 1;
    }
    nodes.sort();
    clues.sort();
    let max = *times.iter().max().unwrap();
    println!(
        "exact solve of generated puzzles: median {:?}, max {max:?}; nodes median {} max {}; clues median {} min {} max {}; levels {levels:?}",
        median(&mut times),
        nodes[nodes.len() / 2],
        nodes[nodes.len() - 1],
        clues[clues.len() / 2],
        clues[0],
        clues[clues.len() - 1],
    );

    let mut steps = Vec::new();
    let mut mtimes = Vec::new();
    let mut solved = 0;
    for seed in 0..100 {
        let start = Instant::now();
        let out = metropolis(&example, &MetropolisOptions { seed, ..Default::default() }, &mut Unmonitored).unwrap();
        mtimes.push(start.elapsed());
        if out.solution.is_some() {
            solved += 1;
            steps.push(out.stats.steps);
        }
    }
    steps.sort();
    println!(
        "metropolis on the example, 100 seeds, T = {DEFAULT_TEMPERATURE}, budget {DEFAULT_MAX_STEPS}: solved {solved}/100, median steps {}, max steps {}, median time {:?}",
        steps.get(steps.len() / 2).copied().unwrap_or(0),
        steps.last().copied().unwrap_or(0),
        median(&mut mtimes)
    );
}
