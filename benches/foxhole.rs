//! `cargo bench --bench foxhole`: shortest strategies on lines and a random tree.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use puzzlepress::puzzles::foxhole::{shortest_strategy, Graph};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::rng::Rng;

/// Hole `i` joined to a uniformly chosen earlier hole (seeded, so the same tree every run).
fn random_tree(n: usize, seed: u64) -> Graph {
    let mut rng = Rng::from_u64(seed);
    let mut adj = vec![Vec::new(); n];
    for i in 1..n {
        let j = rng.index(i);
        adj[i].push(j);
        adj[j].push(i);
    }
    Graph::from_adjacency(adj).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("foxhole");
    group.sample_size(20);
    for n in [10, 20, 30] {
        let g = Graph::line(n).unwrap();
        group.bench_with_input(BenchmarkId::new("line", n), &g, |b, g| {
            b.iter(|| shortest_strategy(g, &mut Unmonitored).unwrap())
        });
    }
    let tree = random_tree(20, 1);
    let days = shortest_strategy(&tree, &mut Unmonitored).unwrap().days;
    group.bench_function(format!("random_tree_20 (days {days:?})"), |b| {
        b.iter(|| shortest_strategy(&tree, &mut Unmonitored).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
