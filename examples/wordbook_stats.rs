//! Mixing figures for word books: `cargo run --release --example wordbook_stats [sweeps [word]]`.
use puzzlepress::puzzles::wordbook::diagnostics::{autocorrelation_times, one_share, ChainKind};
use puzzlepress::puzzles::wordbook::{weight_log2, Shape, WordSpec};

fn main() {
    let sweeps: usize = std::env::args().nth(1).map_or(4000, |a| a.parse().expect("sweeps"));
    let cases = [
        ("FOX", "FOX", Shape::Rectangle, 32, 20),
        ("CAT", "CAT", Shape::Rectangle, 32, 20),
        ("DAD", "AD", Shape::Rectangle, 32, 20),
        ("NOON", "NO", Shape::Rectangle, 32, 20),
        ("FOX", "FOXZ", Shape::Rectangle, 32, 20),
        ("OWL", "OWL", Shape::Heart, 32, 20),
        ("ABA", "AB", Shape::Rectangle, 32, 20),
        ("ABBA", "AB", Shape::Rectangle, 32, 20),
        ("AB", "ABCD", Shape::Rectangle, 32, 20),
        ("AB", "ABCDE", Shape::Rectangle, 32, 20),
        ("AB", "ABCDEF", Shape::Rectangle, 32, 20),
        ("AA", "AB", Shape::Rectangle, 32, 20),
        ("BEE", "BEA", Shape::Circle, 32, 32),
        ("ZEBRA", "ZEBRA", Shape::Star, 40, 40),
        ("GIRAFFE", "GIRAFE", Shape::Fox, 40, 40),
        ("ELEPHANT", "ELPHANTS", Shape::Rectangle, 32, 20),
    ];
    let only = std::env::args().nth(2);
    println!("word     letters  shape      size   w   P(one)  tau free (filler/first/near)   tau one (filler/first/near/one)  max");
    for (word, letters, shape, rows, cols) in cases {
        if only.as_deref().is_some_and(|w| w != word) {
            continue;
        }
        let spec =
            WordSpec { word: word.into(), letters: Some(letters.into()), shape: shape.clone(), pages: 1, rows, cols };
        let plan = spec.validate().expect("a valid spec");
        let free = autocorrelation_times(&plan, ChainKind::Free, sweeps, 11);
        let one = autocorrelation_times(&plan, ChainKind::AtMostOne, sweeps, 12);
        println!(
            "{word:<8} {letters:<8} {:<10} {rows}x{cols:<3} {:>3}  {:.3}   {:>5.1} {:>5.1} {:>5.1}               {:>5.1} {:>5.1} {:>5.1} {:>5.1}     {:>5.1}",
            format!("{shape:?}"),
            weight_log2(&plan),
            one_share(&plan, 400, 7),
            free.filler_count,
            free.first_count,
            free.near_misses,
            one.filler_count,
            one.first_count,
            one.near_misses,
            one.one.unwrap_or(0.0),
            free.max().max(one.max()),
        );
    }
}
