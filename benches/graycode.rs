//! `cargo bench --bench graycode`: exact counting, search-node rate, listing rate.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use puzzlepress::puzzles::graycode::{gray_codes, GrayRequest};
use puzzlepress::puzzles::monitor::Unmonitored;

fn request(bits: u32, length: usize) -> GrayRequest {
    GrayRequest {
        bits,
        length,
        circular: false,
        start_at_zero: true,
        count_only: false,
        limit: None,
        cursor: None,
        node_budget: None,
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("graycode");
    group.sample_size(20);

    let count = GrayRequest { count_only: true, ..request(4, 16) };
    group.bench_function("count bits 4 length 16 (5712)", |b| b.iter(|| gray_codes(&count, &mut Unmonitored).unwrap()));

    // A count that cannot finish, cut at 10M nodes: the raw search rate.
    let nodes = 10_000_000;
    let budgeted = GrayRequest { count_only: true, node_budget: Some(nodes), ..request(5, 32) };
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("count bits 5 length 32, 10M-node budget (nodes/s)", |b| {
        b.iter(|| gray_codes(&budgeted, &mut Unmonitored).unwrap())
    });

    // Listing: all 5712 sequences from 0 in one page.
    let list = GrayRequest { limit: Some(10_000), ..request(4, 16) };
    assert_eq!(gray_codes(&list, &mut Unmonitored).unwrap().sequences.len(), 5712);
    group.throughput(Throughput::Elements(5712));
    group.bench_function("list bits 4 length 16 (sequences/s)", |b| {
        b.iter(|| gray_codes(&list, &mut Unmonitored).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
