//! Writes a sample book (interior), answer key and cover and prints timings:
//! `cargo run --release --example foxbook_pdf [out_dir] [trim]` (trim as in an order,
//! default letter).
use puzzlepress::puzzles::foxbook::{book_seed, generate, BookSpec, Serial};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::render::cover::{cover_pdf, Paper};
use puzzlepress::render::foxbook::{answer_pdf, book_pdf};
use puzzlepress::render::print::{PrintOptions, Trim};
use std::time::Instant;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let trim = Trim::parse(&std::env::args().nth(2).unwrap_or_else(|| "letter".into())).unwrap();
    let opts = PrintOptions { trim, lookup_url: "http://localhost:8080/".into(), ..Default::default() };
    let spec = BookSpec::default();
    let serial = Serial::from_bits(0x1234_5678_9ABC).to_string();
    // Best of 20 runs, to see through a busy machine.
    let mut best = [f64::MAX; 4];
    let mut out = None;
    for _ in 0..20 {
        let t = Instant::now();
        let book = generate(spec, book_seed(b"demo", &serial, spec), &mut Unmonitored).unwrap();
        let t1 = t.elapsed().as_secs_f64();
        let text = book.text();
        let t2 = t.elapsed().as_secs_f64();
        let b = book_pdf(&book, &serial, &opts);
        let t3 = t.elapsed().as_secs_f64();
        let a = answer_pdf(&book, &serial, &opts);
        let t4 = t.elapsed().as_secs_f64();
        for (k, v) in [t1, t2 - t1, t3 - t2, t4 - t3].into_iter().enumerate() {
            best[k] = best[k].min(v * 1e3);
        }
        out = Some((text, b, a));
    }
    let (text, b, a) = out.unwrap();
    std::fs::write(format!("{dir}/book.txt"), &text).unwrap();
    std::fs::write(format!("{dir}/book.pdf"), &b).unwrap();
    std::fs::write(format!("{dir}/answer.pdf"), &a).unwrap();
    std::fs::write(format!("{dir}/cover.pdf"), cover_pdf(spec, &serial, &opts, Paper::White)).unwrap();
    println!(
        "sample {:.2} ms, text {:.2} ms, book pdf {:.2} ms ({} bytes), answer pdf {:.3} ms ({} bytes); total {:.2} ms",
        best[0],
        best[1],
        best[2],
        b.len(),
        best[3],
        a.len(),
        best.iter().sum::<f64>()
    );
}
