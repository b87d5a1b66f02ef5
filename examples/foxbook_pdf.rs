//! Writes a sample book (interior), answer key and cover and prints timings:
//! `cargo run --release --example foxbook_pdf [out_dir] [trim] [word] [shape] [interior]`
//! (trim as in an order, default letter; word default FOX; shape a built-in name, default
//! rectangle; interior the renderer's version, default the current one).
use puzzlepress::puzzles::foxbook::Serial;
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::wordbook::{book_for, Shape, WordSpec};
use puzzlepress::render::layouts::cover::{cover, Paper};
use puzzlepress::render::layouts::foxbook::{answer_pdf, book_pdf, InteriorVersion};
use puzzlepress::render::print::{default_title, PrintOptions, Trim};
use std::time::Instant;

fn main() {
    let arg = |i: usize, default: &str| std::env::args().nth(i).unwrap_or_else(|| default.into());
    let dir = arg(1, ".");
    let trim = Trim::parse(&arg(2, "letter")).unwrap();
    let word = arg(3, "FOX");
    let shape = Shape::parse(&arg(4, "rectangle")).unwrap();
    let version = match arg(5, "") {
        v if v.is_empty() => InteriorVersion::CURRENT,
        v => InteriorVersion::from_number(v.parse().unwrap()).expect("an interior version"),
    };
    let (rows, cols) = if shape == Shape::Rectangle { (32, 20) } else { (28, 28) };
    let spec = WordSpec { word: word.clone(), shape, rows, cols, ..WordSpec::default() };
    let plan = spec.validate().unwrap();
    let opts = PrintOptions {
        trim,
        title: default_title(&word),
        lookup_url: "http://localhost:8080/".into(),
        ..Default::default()
    };
    let serial = Serial::from_bits(0x1234_5678_9ABC).to_string();
    // Best of 20 runs, to see through a busy machine.
    let mut best = [f64::MAX; 4];
    let mut out = None;
    for _ in 0..20 {
        let t = Instant::now();
        let book = book_for(b"demo", &serial, &plan, &mut Unmonitored).unwrap().book;
        let t1 = t.elapsed().as_secs_f64();
        let text = book.text();
        let t2 = t.elapsed().as_secs_f64();
        let b = book_pdf(&book, &serial, &opts, version);
        let t3 = t.elapsed().as_secs_f64();
        let a = answer_pdf(&book, &serial, &opts, version);
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
    let book = book_for(b"demo", &serial, &plan, &mut Unmonitored).unwrap().book;
    std::fs::write(format!("{dir}/cover.pdf"), cover(&book, &serial, &opts, Paper::White, version, None).pdf())
        .unwrap();
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
