//! Mixing figures for the README: `cargo run --release --example foxbook_stats [sweeps]`.
use puzzlepress::puzzles::foxbook::diagnostics::{autocorrelation_times, one_fox_share, ChainKind};
use puzzlepress::puzzles::foxbook::lambda_log2;

fn main() {
    let sweeps: usize = std::env::args().nth(1).map_or(4000, |a| a.parse().expect("sweeps"));
    println!("shape    k  P(one FOX)");
    for (r, c) in [(3, 3), (3, 12), (4, 8), (3, 64), (64, 3), (8, 8), (16, 16), (32, 20), (40, 40), (64, 64)] {
        println!("{r:>2}x{c:<3} {:>3}  {:.3}", lambda_log2(r, c), one_fox_share(r, c, 400, 7));
    }
    for kind in [ChainKind::FoxFree, ChainKind::AtMostOneFox] {
        for (r, c) in [(32, 20), (64, 64), (3, 64)] {
            let t = autocorrelation_times(kind, r, c, sweeps, 11);
            println!("{kind:?} {r}x{c}: {t:?}  max {:.2}", t.max());
        }
    }
}
