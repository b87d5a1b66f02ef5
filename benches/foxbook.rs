//! `cargo bench --bench foxbook`: chain throughput, book sampling and rendering.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use puzzlepress::puzzles::foxbook::diagnostics::{run_book_chain, run_chain, ChainKind};
use puzzlepress::puzzles::foxbook::{book_seed, book_seed_version, generate, generate_version, BookSpec, Serial};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::wordbook::{self, WordSpec};
use puzzlepress::render::layouts::cover::{cover, Paper};
use puzzlepress::render::layouts::foxbook::{answer_pdf, book_pdf, InteriorVersion};
use puzzlepress::render::print::PrintOptions;
use std::hint::black_box;
use std::time::Duration;

fn chains(c: &mut Criterion) {
    let mut g = c.benchmark_group("foxbook/chain-32x20");
    let sweeps = 100;
    g.throughput(Throughput::Elements((64 * 32 * 20 * sweeps) as u64));
    for (name, kind) in [("fox-free", ChainKind::FoxFree), ("at-most-one-fox", ChainKind::AtMostOneFox)] {
        g.bench_function(name, |b| b.iter(|| black_box(run_chain(kind, 32, 20, sweeps, 1))));
    }
    g.finish();
    // Version 2's chain: four words (16 at-most-one-FOX lanes, 240 FOX-free), 256 grids.
    let mut g = c.benchmark_group("foxbook/chain-32x20-4-words");
    g.throughput(Throughput::Elements((256 * 32 * 20 * sweeps) as u64));
    g.bench_function("book", |b| b.iter(|| black_box(run_book_chain(32, 20, sweeps, 1))));
    g.finish();
}

fn books(c: &mut Criterion) {
    let spec = BookSpec::default();
    let serial = Serial::from_bits(0x0BAD_F00D).to_string();
    let mut g = c.benchmark_group("foxbook/default-book");
    let mut n = 0u64;
    g.bench_function("sample", |b| {
        b.iter(|| {
            n += 1;
            let seed = book_seed(b"bench", &format!("{serial}{n}"), spec);
            black_box(generate(spec, seed, &mut Unmonitored).unwrap())
        })
    });
    // As generator version 1 did it (two one-word chains).
    g.bench_function("sample-v1", |b| {
        b.iter(|| {
            n += 1;
            let seed = book_seed_version(b"bench", &format!("{serial}{n}"), spec, 1);
            black_box(generate_version(spec, seed, 1, &mut Unmonitored).unwrap())
        })
    });
    // As the service samples it: the FOX engine's book as a word book, and its packed form.
    let plan = WordSpec::default().validate().unwrap();
    g.bench_function("sample-as-served", |b| {
        b.iter(|| {
            n += 1;
            black_box(wordbook::book_for(b"bench", &format!("{serial}{n}"), &plan, &mut Unmonitored).unwrap())
        })
    });
    let book = wordbook::book_for(b"bench", &serial, &plan, &mut Unmonitored).unwrap().book;
    let opts = PrintOptions { lookup_url: "http://localhost:8080/".into(), ..Default::default() };
    g.bench_function("text", |b| b.iter(|| black_box(book.text())));
    // The current renderer beside the one before the book frame, and the first.
    let versions = [
        ("book-pdf", InteriorVersion::CURRENT),
        ("book-pdf-v3", InteriorVersion::V3),
        ("book-pdf-v1", InteriorVersion::V1),
    ];
    for (name, version) in versions {
        g.bench_function(name, |b| b.iter(|| black_box(book_pdf(&book, &serial, &opts, version))));
    }
    g.bench_function("answer-pdf", |b| {
        b.iter(|| black_box(answer_pdf(&book, &serial, &opts, InteriorVersion::CURRENT)))
    });
    g.bench_function("cover-pdf", |b| {
        b.iter(|| black_box(cover(&book, &serial, &opts, Paper::White, InteriorVersion::CURRENT, None).pdf()))
    });
    g.bench_function("sample+text+pdfs", |b| {
        b.iter_batched(
            || {
                n += 1;
                format!("{serial}{n}")
            },
            |serial| {
                let book = wordbook::book_for(b"bench", &serial, &plan, &mut Unmonitored).unwrap().book;
                black_box((
                    book.text(),
                    book_pdf(&book, &serial, &opts, InteriorVersion::CURRENT),
                    answer_pdf(&book, &serial, &opts, InteriorVersion::CURRENT),
                ))
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = chains, books
}
criterion_main!(benches);
