//! Writes a sample One Up book and times it:
//! `cargo run --release --example oneup_book [out.pdf] [trim] [count]` (8 x 8 puzzles spread
//! evenly over the four levels, rotational clues; trim as in an order, default letter;
//! default 12 puzzles). One core.
use std::time::Instant;

use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::{generate_book, ClueSymmetry, LevelCounts};
use puzzlepress::render::layouts::oneup_book::{oneup_book_pdf, Entry};
use puzzlepress::render::print::{LayoutVersion, PrintOptions, Trim};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "oneup-book.pdf".into());
    let trim = Trim::parse(&args.next().unwrap_or_else(|| "letter".into())).expect("trim");
    let count: usize = args.next().map_or(12, |s| s.parse().expect("count"));
    let start = Instant::now();
    let book = generate_book(8, &LevelCounts::spread(count), ClueSymmetry::Rotational, 1, &mut Unmonitored).unwrap();
    let generated = start.elapsed();
    let entries: Vec<Entry> = book.iter().map(Entry::from).collect();
    let opts = PrintOptions { trim, title: "One Up".into(), lookup_url: String::new(), ..Default::default() };
    let start = Instant::now();
    let pdf = oneup_book_pdf(&entries, &opts, "sample", LayoutVersion::CURRENT);
    let rendered = start.elapsed();
    std::fs::write(&out, &pdf).unwrap();
    println!(
        "{count} puzzles generated in {:.2} s, printed in {:.1} ms ({} KiB) to {out}",
        generated.as_secs_f64(),
        rendered.as_secs_f64() * 1e3,
        pdf.len() / 1024
    );
}
