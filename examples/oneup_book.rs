//! Writes a sample One Up book: `cargo run --release --example oneup_book [out.pdf] [trim]`
//! (4 easy, 4 medium, 2 hard, 2 expert 8 x 8 puzzles; trim as in an order, default letter).
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::{generate_book, ClueSymmetry, Level};
use puzzlepress::render::oneup_book::{oneup_book_pdf, Entry};
use puzzlepress::render::print::{PrintOptions, Trim};

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "oneup-book.pdf".into());
    let trim = Trim::parse(&std::env::args().nth(2).unwrap_or_else(|| "letter".into())).unwrap();
    let levels = [(Level::Easy, 4), (Level::Medium, 4), (Level::Hard, 2), (Level::Expert, 2)];
    let book = generate_book(8, &levels, ClueSymmetry::Rotational, 1, &mut Unmonitored).unwrap();
    let entries: Vec<Entry> =
        book.iter().map(|g| Entry { puzzle: &g.puzzle, solution: &g.solution, level: g.difficulty.level }).collect();
    let opts = PrintOptions { trim, title: "One Up".into(), lookup_url: String::new() };
    std::fs::write(&out, oneup_book_pdf(&entries, &opts, "sample")).unwrap();
}
