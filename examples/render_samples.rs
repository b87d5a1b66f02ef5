//! Writes sample One Up and crossword PDFs (puzzle and solution of each; the crossword also
//! with clues) to a directory and
//! prints how long each render took: `cargo run --release --example render_samples [out_dir] [trim]`.
use puzzlepress::puzzles::crossword::clues::{key, Texts};
use puzzlepress::puzzles::crossword::fill::{fill_grid, FillOptions};
use puzzlepress::puzzles::crossword::{Grid, WordList};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::{solve, Puzzle, EXAMPLE};
use puzzlepress::render::layouts::{crossword, oneup};
use puzzlepress::render::print::{LayoutVersion, SheetSpec, Trim};
use std::time::Instant;

/// The 15 x 15 pattern used in the crossword engine's tests.
const PATTERN: &str = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg";

/// Best of `runs` timings of `render` (to see through a busy machine), in milliseconds,
/// with its output.
fn timed(runs: usize, render: &dyn Fn() -> Vec<u8>) -> (f64, Vec<u8>) {
    let mut best = f64::MAX;
    let mut out = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        out = render();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    (best, out)
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let puzzle = Puzzle::from_text(EXAMPLE).expect("the example parses");
    let solution =
        solve(&puzzle, 1, &mut Unmonitored).expect("not cancelled").solution.expect("the example has a solution");
    let grid = Grid::from_hex(PATTERN).expect("the pattern decodes");
    let fill =
        fill_grid(&grid, WordList::english(), &FillOptions::default(), &mut Unmonitored).expect("the pattern fills");

    let write = |name: &str, render: &dyn Fn() -> Vec<u8>| {
        let (ms, pdf) = timed(50, render);
        let path = format!("{dir}/{name}");
        std::fs::write(&path, &pdf).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("{name:24} {ms:7.3} ms  {:6} bytes", pdf.len());
    };
    let trim = Trim::parse(&std::env::args().nth(2).unwrap_or_else(|| "letter".into())).unwrap();
    let one_up = SheetSpec { title: "One Up, 7 July 2024", id: "example", trim, prose: LayoutVersion::CURRENT.prose() };
    let cross = SheetSpec { title: "Crossword", id: "example", trim, prose: LayoutVersion::CURRENT.prose() };
    write("oneup.pdf", &|| oneup::puzzle_pdf(&puzzle, &one_up));
    write("oneup-solution.pdf", &|| oneup::solution_pdf(&puzzle, &solution, &one_up));
    write("crossword.pdf", &|| crossword::grid_pdf(&grid, &cross, &Texts::default()));
    let clues = grid.slots().iter().map(|s| (key(s.dir, s.number), format!("The clue of {}", s.label()))).collect();
    let clued = Texts { clues: Some(&clues), author: "A. Setter", ..Texts::default() };
    write("crossword-clues.pdf", &|| crossword::grid_pdf(&grid, &cross, &clued));
    write("crossword-solution.pdf", &|| crossword::solution_pdf(&fill, &cross, &clued));
}
