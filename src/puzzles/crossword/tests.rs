//! Engine-level tests. The checkers here are deliberately naive and independent of the
//! generator's bitset code.

use std::collections::HashSet;

use proptest::prelude::*;

use super::fill::{fill_grid, FillOptions, PatternInput};
use super::*;
use crate::puzzles::monitor::{Monitor, Unmonitored};

const EX1: &str = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg";
const EX2: &str = "BEFB4516BFAFAAF8FE27573BFBDD5DEFEE75723F8FAAFAFEB4516FBEh";

fn cells(g: &Grid) -> Vec<Vec<bool>> {
    let n = g.size();
    (0..n).map(|r| (0..n).map(|c| g.is_white(r, c)).collect()).collect()
}

/// Every line of the grid (rows, then columns) as booleans (true = white).
fn lines(w: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let n = w.len();
    let mut out: Vec<Vec<bool>> = w.to_vec();
    out.extend((0..n).map(|c| (0..n).map(|r| w[r][c]).collect::<Vec<bool>>()));
    out
}

/// Maximal runs of one colour in a line: (colour, length).
fn runs(line: &[bool]) -> Vec<(bool, usize)> {
    let mut out: Vec<(bool, usize)> = Vec::new();
    for &x in line {
        match out.last_mut() {
            Some((colour, len)) if *colour == x => *len += 1,
            _ => out.push((x, 1)),
        }
    }
    out
}

/// All rule violations of `g` (empty when it is a valid pattern).
fn violations(g: &Grid, sym: Symmetry, max_len: usize) -> Vec<String> {
    let w = cells(g);
    let n = w.len();
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let ok = match sym {
                Symmetry::Mirror => w[r][c] == w[r][n - 1 - c] && w[r][c] == w[n - 1 - r][c],
                Symmetry::Rotational => w[r][c] == w[n - 1 - r][n - 1 - c],
                Symmetry::None => true,
            };
            if !ok {
                v.push(format!("asymmetric at {r},{c}"));
            }
        }
    }
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            let block = [w[r][c], w[r][c + 1], w[r + 1][c], w[r + 1][c + 1]];
            if block.iter().all(|&x| x) || block.iter().all(|&x| !x) {
                v.push(format!("2x2 block at {r},{c}"));
            }
        }
    }
    for (i, line) in lines(&w).iter().enumerate() {
        for (white, len) in runs(line) {
            if white && len == 2 {
                v.push(format!("2-letter word in line {i}"));
            }
            if white && len > max_len {
                v.push(format!("word of {len} > {max_len} in line {i}"));
            }
            if !white && len > 3 {
                v.push(format!("{len} black squares in a row in line {i}"));
            }
        }
    }
    let white_at =
        |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n && w[r as usize][c as usize];
    for r in 0..n as isize {
        for c in 0..n as isize {
            if white_at(r, c) && ![(-1, 0), (1, 0), (0, -1), (0, 1)].iter().any(|(dr, dc)| white_at(r + dr, c + dc)) {
                v.push(format!("white square {r},{c} in no word"));
            }
        }
    }
    // Connectivity by breadth-first search.
    let whites: Vec<(usize, usize)> =
        (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).filter(|&(r, c)| w[r][c]).collect();
    if let Some(&start) = whites.first() {
        let mut seen = HashSet::from([start]);
        let mut queue = vec![start];
        while let Some((r, c)) = queue.pop() {
            for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if white_at(rr, cc) && seen.insert((rr as usize, cc as usize)) {
                    queue.push((rr as usize, cc as usize));
                }
            }
        }
        if seen.len() != whites.len() {
            v.push("white squares not connected".into());
        }
    } else {
        v.push("no white squares".into());
    }
    v
}

fn longest_word(g: &Grid) -> usize {
    lines(&cells(g)).iter().flat_map(|l| runs(l)).filter(|r| r.0).map(|r| r.1).max().unwrap_or(0)
}

fn pattern_grid(p: &Pattern) -> Grid {
    let g = Grid::from_hex(p.hex.as_deref().expect("square pattern")).unwrap();
    assert_eq!(g.to_rows(), p.rows, "hex and rows disagree");
    assert_eq!(g.black_count(), p.black);
    assert_eq!(g.slots().len(), p.words);
    g
}

fn request(size: usize, sym: Symmetry, max_len: Option<usize>, count: Count, seed: u64) -> PatternRequest {
    PatternRequest { symmetry: Some(sym), max_len, count, seed, ..PatternRequest::new(size) }
}

// ---------------------------------------------------------------- hex and rows forms

#[test]
fn examples_decode_and_round_trip() {
    for ex in [EX1, EX2] {
        let g = Grid::from_hex(ex).unwrap();
        assert_eq!(g.size(), 15);
        assert_eq!(g.to_hex(), ex);
        assert_eq!(Grid::from_rows(&g.to_rows()).unwrap(), g);
        let max = longest_word(&g);
        assert_eq!(max, 7, "longest word of {ex}");
        assert_eq!(violations(&g, Symmetry::Mirror, 7), Vec::<String>::new(), "{ex}");
        assert!(!violations(&g, Symmetry::Mirror, 6).is_empty());
    }
    let g = Grid::from_hex(EX1).unwrap();
    assert_eq!(g.to_rows()[0], "##.....#.....##");
    assert_eq!(g.to_rows()[1], "...###.#.###...");
}

#[test]
fn hex_tail_symbols() {
    // 5x5 = 25 bits = six groups of four and one final bit.
    let g = Grid::from_hex("FFFFFFh").unwrap();
    assert!(g.is_white(4, 4));
    let g = Grid::from_hex("FFFFFFg").unwrap();
    assert!(!g.is_white(4, 4) && g.is_white(4, 3));
    // 6x6 = 36 bits: no tail.
    assert_eq!(Grid::from_hex("000000000").unwrap().size(), 6);
    assert_eq!(Grid::from_hex("000000000").unwrap().to_hex(), "000000000");
}

#[test]
fn hex_errors_name_the_problem() {
    let err = |s: &str| Grid::from_hex(s).unwrap_err().to_string();
    assert_eq!(err(""), "hex pattern: empty string");
    assert!(err("FFFxFFh").contains("symbol 'x' at position 4"), "{}", err("FFFxFFh"));
    assert!(err("FFFFFFa").contains("symbol 'a' at position 7"));
    assert!(err("FFgFFFh").contains("tail symbol 'g' at position 3"), "{}", err("FFgFFFh"));
    assert!(err("FFFFFF").contains("24 bits, which is not the square"), "{}", err("FFFFFF"));
    assert!(err("FFFF").contains("side 4 is outside 5..=21"), "{}", err("FFFF"));
    let long = "F".repeat(121); // 484 bits = 22 x 22
    assert!(err(&long).contains("side 22 is outside"), "{}", err(&long));
    assert!(err("FFFFFFu").contains("symbol 'u' at position 7"));
}

#[test]
fn rows_errors_name_the_row() {
    let err = |rows: &[&str]| Grid::from_rows(rows).unwrap_err().to_string();
    assert!(err(&["....."; 2]).contains("number of rows 2"));
    assert!(err(&["................................"; 5]).contains("row 1 has 32 squares"));
    let e = err(&[".....", ".....", "....", ".....", "....."]);
    assert!(e.contains("row 3 has 4 squares"), "{e}");
    let e = err(&[".....", ".....", ".....", "..x..", "....."]);
    assert!(e.contains("row 4, column 3: symbol 'x'"), "{e}");
    let g = Grid::from_rows(&["#...#", ".....", ".....", ".....", "#...#"]).unwrap();
    assert_eq!(g.black_count(), 4);
}

#[test]
fn numbering_is_standard() {
    let g = Grid::from_rows(&["#...#", ".....", "..#..", ".....", "#...#"]).unwrap();
    let got: Vec<(u32, Direction, usize, usize, usize)> =
        g.slots().iter().map(|s| (s.number, s.dir, s.row, s.col, s.len)).collect();
    use Direction::*;
    assert_eq!(
        got,
        vec![
            (1, Across, 0, 1, 3),
            (4, Across, 1, 0, 5),
            (6, Across, 2, 0, 2),
            (7, Across, 2, 3, 2),
            (8, Across, 3, 0, 5),
            (10, Across, 4, 1, 3),
            (1, Down, 0, 1, 5),
            (2, Down, 0, 2, 2),
            (3, Down, 0, 3, 5),
            (4, Down, 1, 0, 3),
            (5, Down, 1, 4, 3),
            (9, Down, 3, 2, 2),
        ]
    );
}

// ---------------------------------------------------------------- patterns

#[test]
fn all_5x5_mirror_patterns() {
    let res = search(&request(5, Symmetry::Mirror, Some(5), Count::All, 0), &mut Unmonitored).unwrap();
    assert_eq!(res.total, Some(21));
    assert_eq!(res.patterns.len(), 21);
    // Independent brute force over the 2^9 colourings of the top-left 3x3 quadrant.
    let mut expected = HashSet::new();
    for bits in 0u32..512 {
        let mut g = Grid::black(5).unwrap();
        for r in 0..5 {
            for c in 0..5 {
                let (qr, qc) = (r.min(4 - r), c.min(4 - c));
                g.set_white(r, c, bits >> (qr * 3 + qc) & 1 == 1);
            }
        }
        if violations(&g, Symmetry::Mirror, 5).is_empty() {
            expected.insert(g.to_hex());
        }
    }
    let got: HashSet<String> = res.patterns.iter().map(|p| p.hex.clone().unwrap()).collect();
    assert_eq!(got, expected);
}

#[test]
fn all_counts_match_brute_force_rotational_5x5() {
    // 13 free squares under a half turn: brute force is cheap.
    let mut expected = 0;
    for bits in 0u32..(1 << 13) {
        let mut g = Grid::black(5).unwrap();
        for k in 0..25usize {
            let rep = k.min(24 - k);
            g.set_white(k / 5, k % 5, bits >> rep & 1 == 1);
        }
        if violations(&g, Symmetry::Rotational, 4).is_empty() {
            expected += 1;
        }
    }
    let res = search(&request(5, Symmetry::Rotational, Some(4), Count::All, 0), &mut Unmonitored).unwrap();
    assert_eq!(res.total, Some(expected));
    assert!(expected > 0);
}

#[test]
fn all_with_limit_and_filters() {
    let mut req = request(7, Symmetry::Mirror, None, Count::All, 0);
    req.limit = Some(1000);
    let all = search(&req, &mut Unmonitored).unwrap();
    req.limit = Some(5);
    req.max_black_share = Some(0.2);
    let some = search(&req, &mut Unmonitored).unwrap();
    assert_eq!(some.patterns.len(), 5.min(some.total.unwrap() as usize));
    let expected = all.patterns.iter().filter(|p| p.black as f64 <= 0.2 * 49.0).count() as u64;
    assert_eq!(all.total, Some(all.patterns.len() as u64), "limit 1000 covers all 7x7");
    assert_eq!(all.total, Some(313));
    assert_eq!(some.total, Some(expected));
}

#[test]
fn even_mirror_is_refused_at_once() {
    for n in [6, 10, 16, 20] {
        let err = search(&request(n, Symmetry::Mirror, None, Count::N(1), 0), &mut Unmonitored).unwrap_err();
        assert!(matches!(err, CrosswordError::Impossible(_)), "{err}");
        assert!(err.to_string().contains("even side"), "{err}");
    }
}

#[test]
fn bad_pattern_requests() {
    let err = |req: PatternRequest| search(&req, &mut Unmonitored).unwrap_err().to_string();
    assert!(err(PatternRequest::new(4)).starts_with("size:"));
    assert!(err(PatternRequest::new(23)).starts_with("size:"));
    assert!(err(request(9, Symmetry::Mirror, Some(2), Count::N(1), 0)).starts_with("max_len:"));
    assert!(err(request(9, Symmetry::Mirror, Some(10), Count::N(1), 0)).starts_with("max_len:"));
    let mut req = PatternRequest::new(9);
    req.max_black_share = Some(1.5);
    assert!(err(req).starts_with("max_black_share:"));
    let mut req = PatternRequest::new(9);
    req.min_words = Some(10);
    req.max_words = Some(5);
    assert!(err(req).starts_with("min_words:"));
}

#[test]
fn sampled_patterns_satisfy_every_rule() {
    let cases = [
        (5, Symmetry::Mirror, None),
        (7, Symmetry::Mirror, Some(5)),
        (9, Symmetry::Mirror, None),
        (11, Symmetry::Mirror, Some(7)),
        (13, Symmetry::Mirror, None),
        (15, Symmetry::Mirror, Some(9)),
        (15, Symmetry::Mirror, None),
        (17, Symmetry::Mirror, Some(8)),
        (21, Symmetry::Mirror, Some(11)),
        (6, Symmetry::Rotational, None),
        (8, Symmetry::Rotational, Some(6)),
        (10, Symmetry::Rotational, None),
        (15, Symmetry::Rotational, Some(10)),
        (16, Symmetry::Rotational, None),
        (21, Symmetry::Rotational, Some(15)),
    ];
    for (seed, &(n, sym, max_len)) in cases.iter().enumerate() {
        let res = search(&request(n, sym, max_len, Count::N(20), seed as u64), &mut Unmonitored)
            .unwrap_or_else(|e| panic!("{n} {sym}: {e}"));
        let mut distinct = HashSet::new();
        for p in &res.patterns {
            let g = pattern_grid(p);
            assert_eq!(g.size(), n);
            let v = violations(&g, sym, max_len.unwrap_or(n));
            assert!(v.is_empty(), "{n} {sym} {}: {v:?}\n{}", p.rows[0], p.rows.join("\n"));
            assert!(distinct.insert(p.rows.clone()), "duplicate pattern");
        }
        // Only 5x5 (20 of 21 asked) and 7x7 with max_len 5 (15 exist) have fewer.
        match (n, max_len) {
            (5, None) => assert_eq!(res.patterns.len(), 20),
            (7, Some(5)) => {
                assert_eq!(res.patterns.len(), 15);
                assert!(res.note.as_deref().unwrap().starts_with("only 15 distinct 7x7"), "{:?}", res.note);
            }
            _ => assert_eq!((res.patterns.len(), &res.note), (20, &None), "{n} {sym}"),
        }
    }
}

#[test]
fn sampling_is_seeded() {
    let a = search(&request(15, Symmetry::Mirror, None, Count::N(5), 7), &mut Unmonitored).unwrap();
    let b = search(&request(15, Symmetry::Mirror, None, Count::N(5), 7), &mut Unmonitored).unwrap();
    let c = search(&request(15, Symmetry::Mirror, None, Count::N(5), 8), &mut Unmonitored).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.patterns, c.patterns);
}

#[test]
fn sampling_more_than_exist_says_so() {
    let res = search(&request(5, Symmetry::Mirror, None, Count::N(100), 1), &mut Unmonitored).unwrap();
    assert_eq!(res.patterns.len(), 21);
    assert!(res.note.as_deref().unwrap().contains("only 21 distinct"), "{:?}", res.note);
}

#[test]
fn sampling_filters_hold() {
    let mut req = request(15, Symmetry::Mirror, Some(9), Count::N(10), 3);
    req.max_black_share = Some(0.3);
    req.max_three_letter_words = Some(16);
    req.min_words = Some(48);
    req.max_words = Some(60);
    let res = search(&req, &mut Unmonitored).unwrap();
    assert_eq!(res.patterns.len(), 10);
    for p in &res.patterns {
        let g = pattern_grid(p);
        assert!(violations(&g, Symmetry::Mirror, 9).is_empty());
        assert!(p.black as f64 <= 0.3 * 225.0);
        let slots = g.slots();
        assert!(slots.iter().filter(|s| s.len == 3).count() <= 16);
        assert!((48..=60).contains(&slots.len()), "{}", slots.len());
    }
}

#[test]
fn impossible_filters_end_with_a_reason() {
    // Known at once: rule 2 needs 49 black squares in 15x15.
    let mut req = request(15, Symmetry::Mirror, None, Count::N(1), 0);
    req.max_black_share = Some(0.2);
    let err = search(&req, &mut Unmonitored).unwrap_err();
    assert!(matches!(err, CrosswordError::Impossible(_)), "{err}");
    assert!(err.to_string().contains("at least 49"), "{err}");
    // Exhaustive: no 7x7 pattern has 100 words.
    let mut req = request(7, Symmetry::Mirror, None, Count::N(1), 0);
    req.min_words = Some(100);
    let err = search(&req, &mut Unmonitored).unwrap_err();
    assert!(matches!(err, CrosswordError::NoSolution(_)), "{err}");
    // Budget: 21x21 with a tiny node budget.
    let mut req = request(21, Symmetry::Rotational, None, Count::N(1), 0);
    req.max_nodes = Some(50);
    let err = search(&req, &mut Unmonitored).unwrap_err();
    assert!(matches!(err, CrosswordError::BudgetExhausted(_)), "{err}");
    assert!(err.to_string().contains("max_nodes = 50"), "{err}");
    // Budget in an enumeration.
    let mut req = request(15, Symmetry::Mirror, None, Count::All, 0);
    req.max_nodes = Some(10_000);
    let err = search(&req, &mut Unmonitored).unwrap_err();
    assert!(err.to_string().contains("enumeration of all 15x15 patterns not finished"), "{err}");
}

struct CancelAfter(u32);
impl Monitor for CancelAfter {
    fn update(&mut self, _: u64, _: u64) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 > 0
    }
}

#[test]
fn cancellation_is_reported() {
    let req = request(15, Symmetry::Mirror, None, Count::All, 0);
    let err = search(&req, &mut CancelAfter(2)).unwrap_err();
    assert_eq!(err, CrosswordError::Cancelled);
}

// ---------------------------------------------------------------- fills

/// Checks a fill independently: grid matches the pattern (fixed letters kept), entries
/// are the grid's runs with standard numbering and their scores, every entry not wholly
/// fixed is in the list (and admitted by `filter`), all distinct.
pub(super) fn check_fill_with(g: &Grid, f: &Fill, list: &WordList, filter: &WordFilter) {
    let (h, w) = (g.height(), g.width());
    let rows: Vec<Vec<u8>> = f.rows.iter().map(|r| r.as_bytes().to_vec()).collect();
    assert_eq!(rows.len(), h);
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), w);
        for (c, &x) in row.iter().enumerate() {
            assert_eq!(x == b'#', !g.is_white(r, c), "square {r},{c}");
            assert!(x == b'#' || x.is_ascii_uppercase());
            if let Some(l) = g.letter(r, c) {
                assert_eq!(x, l, "fixed letter at {r},{c}");
            }
        }
    }
    let letter = |r: usize, c: usize| if r < h && c < w { rows[r][c] } else { b'#' };
    let fixed = |r: usize, c: usize| g.letter(r, c).is_some();
    let mut number = 0;
    let (mut across, mut down) = (Vec::new(), Vec::new());
    let mut given = HashSet::new();
    for r in 0..h {
        for c in 0..w {
            if letter(r, c) == b'#' {
                continue;
            }
            let a = (c == 0 || letter(r, c - 1) == b'#') && letter(r, c + 1) != b'#';
            let d = (r == 0 || letter(r - 1, c) == b'#') && letter(r + 1, c) != b'#';
            if a || d {
                number += 1;
            }
            if a {
                let word: String = (c..w).map(|k| letter(r, k)).take_while(|&x| x != b'#').map(char::from).collect();
                if (c..c + word.len()).all(|k| fixed(r, k)) {
                    given.insert(word.clone());
                }
                let score = list.score(word.as_bytes());
                across.push(Entry { number, row: r + 1, col: c + 1, word, score });
            }
            if d {
                let word: String = (r..h).map(|k| letter(k, c)).take_while(|&x| x != b'#').map(char::from).collect();
                if (r..r + word.len()).all(|k| fixed(k, c)) {
                    given.insert(word.clone());
                }
                let score = list.score(word.as_bytes());
                down.push(Entry { number, row: r + 1, col: c + 1, word, score });
            }
        }
    }
    assert_eq!(f.across, across);
    assert_eq!(f.down, down);
    let mut seen = HashSet::new();
    for e in across.iter().chain(&down) {
        if !given.contains(&e.word) {
            let score = list.score(e.word.as_bytes()).unwrap_or_else(|| panic!("{} not in list", e.word));
            assert!(filter.admits(e.word.as_bytes(), score), "{} ({score}) not admitted by {filter:?}", e.word);
        }
        assert!(seen.insert(e.word.clone()), "{} used twice", e.word);
    }
    let scores: Vec<u8> = across.iter().chain(&down).filter_map(|e| e.score).collect();
    if let Some(q) = f.quality {
        assert_eq!(q.min_score, *scores.iter().min().unwrap());
        let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / scores.len() as f64;
        assert!((q.mean_score - mean).abs() < 0.006, "{q:?} {mean}");
    } else {
        assert!(scores.is_empty());
    }
}

fn check_fill(g: &Grid, f: &Fill, list: &WordList) {
    check_fill_with(g, f, list, &WordFilter::default())
}

#[test]
fn examples_fill() {
    for ex in [EX1, EX2] {
        for seed in 0..3 {
            let req = FillRequest { seed, ..FillRequest::new(PatternInput::Hex(ex.into())) };
            let f = search(&req, &mut Unmonitored).unwrap();
            check_fill(&Grid::from_hex(ex).unwrap(), &f, WordList::english());
        }
    }
}

#[test]
fn fills_are_seeded() {
    let g = Grid::from_hex(EX1).unwrap();
    let opts = |seed| FillOptions { seed, ..Default::default() };
    let a = fill_grid(&g, WordList::english(), &opts(1), &mut Unmonitored).unwrap();
    let b = fill_grid(&g, WordList::english(), &opts(1), &mut Unmonitored).unwrap();
    let c = fill_grid(&g, WordList::english(), &opts(2), &mut Unmonitored).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn generated_patterns_fill() {
    let cases = [
        (9, Symmetry::Mirror),
        (11, Symmetry::Mirror),
        (13, Symmetry::Mirror),
        (15, Symmetry::Mirror),
        (21, Symmetry::Mirror),
        (15, Symmetry::Rotational),
        (12, Symmetry::Rotational),
    ];
    for (seed, &(n, sym)) in cases.iter().enumerate() {
        let mut req = request(n, sym, Some(n.min(11)), Count::N(3), seed as u64);
        req.max_three_letter_words = Some(n * 2);
        let res = search(&req, &mut Unmonitored).unwrap();
        for p in &res.patterns {
            let g = pattern_grid(p);
            let opts = FillOptions { seed: 5, ..Default::default() };
            let f = fill_grid(&g, WordList::english(), &opts, &mut Unmonitored)
                .unwrap_or_else(|e| panic!("{}: {e}", p.rows.join("/")));
            check_fill(&g, &f, WordList::english());
        }
    }
}

#[test]
fn fill_with_own_list_and_rows() {
    let req = |rows: &[&str], words: &[&str]| FillRequest {
        words: Some(words.iter().map(|w| w.to_lowercase()).collect()),
        ..FillRequest::new(PatternInput::Rows(rows.iter().map(|r| r.to_string()).collect()))
    };
    // The only 5x5 square from these words is symmetric (rows = columns), so it would
    // repeat every word: the search proves that no fill exists.
    let square = ["HEART", "EMBER", "ABUSE", "RESIN", "TREND", "HEARTS"];
    let err = search(&req(&["....."; 5], &square), &mut Unmonitored).unwrap_err();
    assert!(matches!(err, CrosswordError::NoSolution(_)), "{err}");
    // Two crossing words from a two-word list: one goes across, the other down.
    let rows = [".....", ".####", ".####", ".####", ".####"];
    let f = search(&req(&rows, &["heart", "house"]), &mut Unmonitored).unwrap();
    check_fill(&Grid::from_rows(&rows).unwrap(), &f, &WordList::from_words(&["HEART", "HOUSE"]).unwrap());
    assert_ne!(f.across[0].word, f.down[0].word);
}

#[test]
fn fill_small_custom_fills() {
    // A ring of four 5-letter slots.
    let g = Grid::from_bits(5, &[0b11111, 0b10001, 0b10001, 0b10001, 0b11111]);
    let list = WordList::from_words(&["cat", "arc", "tan"]).unwrap();
    let err = fill_grid(&g, &list, &FillOptions::default(), &mut Unmonitored).unwrap_err();
    assert!(err.to_string().contains("1-Across ????? has no entry with score >= 50"), "{err}");
    let list = WordList::from_words(&["abcde", "aghij", "eklmn", "jopqn", "zzzzz"]).unwrap();
    let f = fill_grid(&g, &list, &FillOptions::default(), &mut Unmonitored).unwrap();
    check_fill(&g, &f, &list);
    let transposed = ["AGHIJ", "B###O", "C###P", "D###Q", "EKLMN"];
    assert!(f.rows == ["ABCDE", "G###K", "H###L", "I###M", "JOPQN"] || f.rows == transposed);
}

#[test]
fn fills_raise_the_lowest_score_then_the_sum() {
    // Every 3-letter string over five letters, scored 50-95 by a seeded LCG: many 3x3
    // fills, few of them best. The search is small enough to be exhaustive, so the fill
    // must have the highest lowest score of all fills and, among those, the highest sum.
    const L: &[u8] = b"AERST";
    let word = |i: usize| String::from_utf8(vec![L[i / 25], L[i / 5 % 5], L[i % 5]]).unwrap();
    let g = Grid::from_rows(&["...", "...", "..."]).unwrap();
    let mut improved = 0;
    for seed in 1..=6u64 {
        let mut state = seed;
        let score: Vec<u32> = (0..125)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                50 + 5 * ((state >> 33) % 10) as u32
            })
            .collect();
        let words: Vec<String> = (0..125).map(|i| format!("{};{}", word(i), score[i])).collect();
        let list = WordList::from_words(&words).unwrap();
        let mut best = (0, 0);
        for rows in (0..125 * 125 * 125).map(|n| [n / 15625, n / 125 % 125, n % 125]) {
            let digit = |w: usize, k: usize| w / [25, 5, 1][k] % 5;
            let cols: Vec<usize> =
                (0..3).map(|c| 25 * digit(rows[0], c) + 5 * digit(rows[1], c) + digit(rows[2], c)).collect();
            let mut six: Vec<usize> = rows.iter().chain(&cols).copied().collect();
            let scores: Vec<u32> = six.iter().map(|&w| score[w]).collect();
            six.sort_unstable();
            six.dedup();
            if six.len() == 6 {
                best = best.max((*scores.iter().min().unwrap(), scores.iter().sum::<u32>()));
            }
        }
        let sum = |f: &Fill| f.across.iter().chain(&f.down).map(|e| e.score.unwrap() as u32).sum::<u32>();
        let quality = |f: &Fill| (f.quality.as_ref().unwrap().min_score as u32, sum(f));
        let opts = FillOptions { seed, first_fill: true, ..Default::default() };
        let first = fill_grid(&g, &list, &opts, &mut Unmonitored).unwrap();
        let f = fill_grid(&g, &list, &FillOptions { first_fill: false, ..opts }, &mut Unmonitored).unwrap();
        check_fill(&g, &f, &list);
        assert_eq!(quality(&f), best, "seed {seed}");
        improved += (quality(&first) < best) as usize;
    }
    assert!(improved > 0, "no first fill was improved on");
}

#[test]
fn fill_errors() {
    let req = |pattern: PatternInput, words: Option<Vec<&str>>| FillRequest {
        words: words.map(|w| w.iter().map(|s| s.to_string()).collect()),
        ..FillRequest::new(pattern)
    };
    let e = search(&req(PatternInput::Hex(EX1.into()), Some(vec!["abc", "de4f"])), &mut Unmonitored).unwrap_err();
    assert_eq!(
        e,
        CrosswordError::BadWord {
            index: 1,
            message: "entry \"de4f\" has the digit '4'; entries hold letters (spaces, punctuation and accents are \
                      dropped)"
                .into()
        }
    );
    let e = search(&req(PatternInput::Hex(EX1.into()), Some(vec!["abc", ""])), &mut Unmonitored).unwrap_err();
    assert_eq!(e.to_string(), "words[1]: empty word");
    let e = search(&req(PatternInput::Hex("XYZ".into()), None), &mut Unmonitored).unwrap_err();
    assert!(e.to_string().starts_with("hex pattern: symbol 'X' at position 1"), "{e}");
    let lonely =
        PatternInput::Rows(vec!["#####".into(), "#.###".into(), "#####".into(), "#####".into(), "#####".into()]);
    let e = search(&req(lonely, None), &mut Unmonitored).unwrap_err();
    assert!(e.to_string().contains("row 2, col 2 belongs to no word"), "{e}");
    let two = PatternInput::Rows(vec!["..###".into(), "#####".into(), "#####".into(), "#####".into(), "#####".into()]);
    let e = search(&req(two, None), &mut Unmonitored).unwrap_err();
    assert!(e.to_string().contains("1-Across ?? has no entry with score >= 50"), "{e}");
    let three =
        PatternInput::Rows(vec!["...##".into(), "#####".into(), "...##".into(), "#####".into(), "...##".into()]);
    let e = search(&req(three, Some(vec!["abc", "def"])), &mut Unmonitored).unwrap_err();
    assert!(e.to_string().contains("3 open slots of length 3 but the word list has only 2"), "{e}");
}

#[test]
fn fill_budget_ends_with_reason() {
    // An all-white 7x7 is far beyond 200 nodes.
    let g = Grid::from_bits(7, &[0x7f; 7]);
    let opts = FillOptions { max_nodes: Some(200), ..Default::default() };
    let e = fill_grid(&g, WordList::english(), &opts, &mut Unmonitored).unwrap_err();
    assert!(matches!(e, CrosswordError::BudgetExhausted(_)), "{e}");
    assert!(e.to_string().contains("max_nodes = 200"), "{e}");
    let opts = FillOptions { time_limit_ms: Some(1), ..Default::default() };
    let e = fill_grid(&g, WordList::english(), &opts, &mut Unmonitored).unwrap_err();
    assert!(e.to_string().contains("time limit (time_limit_ms = 1)"), "{e}");
}

// ---------------------------------------------------------------- word squares

fn check_square(rows: &[String], n: usize, list: &WordList, distinct: bool) {
    assert_eq!(rows.len(), n);
    let cols: Vec<String> = (0..n).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
    let mut seen = HashSet::new();
    for w in rows.iter().chain(&cols) {
        assert_eq!(w.len(), n);
        assert!(list.contains(w), "{w} not a word");
        if distinct {
            assert!(seen.insert(w.clone()), "{w} repeated in {rows:?}");
        }
    }
}

#[test]
fn word_squares_sampled_are_valid() {
    for n in 3..=5 {
        let req = WordSquareRequest { count: Count::N(3), seed: n as u64, ..WordSquareRequest::new(n) };
        let res = search(&req, &mut Unmonitored).unwrap();
        assert_eq!(res.squares.len(), 3);
        for sq in &res.squares {
            check_square(sq, n, WordList::english(), true);
        }
        assert_eq!(res, search(&req, &mut Unmonitored).unwrap(), "seeded");
    }
}

#[test]
fn word_squares_counted() {
    // Words over {A, B}: every 3-letter string over two letters is a word, so there are
    // 2^9 squares, of which those with 6 distinct rows and columns are counted by brute force.
    let words: Vec<String> =
        (0..8).map(|i: u32| (0..3).map(|k| if i >> (2 - k) & 1 == 1 { 'B' } else { 'A' }).collect()).collect();
    let mut req = WordSquareRequest {
        count: Count::All,
        words: Some(words.clone()),
        limit: Some(1000),
        ..WordSquareRequest::new(3)
    };
    req.distinct = false;
    let all = search(&req, &mut Unmonitored).unwrap();
    assert_eq!(all.total, Some(512));
    req.distinct = true;
    let res = search(&req, &mut Unmonitored).unwrap();
    let list = WordList::from_words(&words).unwrap();
    let expected = all
        .squares
        .iter()
        .filter(|sq| {
            let cols: Vec<String> = (0..3).map(|c| sq.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
            sq.iter().chain(&cols).collect::<HashSet<_>>().len() == 6
        })
        .count() as u64;
    assert_eq!(res.total, Some(expected));
    assert_eq!(res.squares.len() as u64, expected);
    for sq in &res.squares {
        check_square(sq, 3, &list, true);
    }
}

#[test]
fn word_squares_english_3x3_count() {
    let req = WordSquareRequest { count: Count::All, limit: Some(10), ..WordSquareRequest::new(3) };
    let res = search(&req, &mut Unmonitored).unwrap();
    assert_eq!(res.total, Some(3_208_604));
    for sq in &res.squares {
        check_square(sq, 3, WordList::english(), true);
    }
    let req = WordSquareRequest { distinct: false, ..req };
    assert_eq!(search(&req, &mut Unmonitored).unwrap().total, Some(4_036_300));
}

#[test]
fn word_square_errors() {
    let e = search(&WordSquareRequest::new(8), &mut Unmonitored).unwrap_err();
    assert!(e.to_string().starts_with("size: word squares have a side of 3..=7"), "{e}");
    let req = WordSquareRequest { max_nodes: Some(100), ..WordSquareRequest::new(6) };
    let e = search(&req, &mut Unmonitored).unwrap_err();
    assert!(matches!(e, CrosswordError::BudgetExhausted(_)), "{e}");
    let req = WordSquareRequest { words: Some(vec!["abc".into(), "a1c".into()]), ..WordSquareRequest::new(3) };
    let e = search(&req, &mut Unmonitored).unwrap_err();
    assert!(e.to_string().starts_with("words[1]:"), "{e}");
    let req = WordSquareRequest { words: Some(vec!["abc".into(), "xyz".into()]), ..WordSquareRequest::new(3) };
    let e = search(&req, &mut Unmonitored).unwrap_err();
    assert!(matches!(e, CrosswordError::NoSolution(_)), "{e}");
}

// ---------------------------------------------------------------- JSON shapes

#[test]
fn json_requests_and_results() {
    let req: PatternRequest = serde_json::from_str(r#"{"size": 5, "count": "all", "max_len": 5}"#).unwrap();
    let res = search(&req, &mut Unmonitored).unwrap();
    let v = serde_json::to_value(&res).unwrap();
    assert_eq!(v["total"], 21);
    assert!(v.get("note").is_none());
    let p = &v["patterns"][0];
    assert!(p["hex"].is_string() && p["rows"].is_array() && p["words"].is_u64() && p["black"].is_u64());
    assert!(serde_json::from_str::<PatternRequest>(r#"{"size": 5, "count": "some"}"#).is_err());
    assert!(serde_json::from_str::<PatternRequest>(r#"{"size": 5, "count": 0}"#).is_err());
    let req: PatternRequest = serde_json::from_str(r#"{"size": 9, "symmetry": "rotational", "count": 2}"#).unwrap();
    assert_eq!((req.symmetry, req.count), (Some(Symmetry::Rotational), Count::N(2)));

    let req: FillRequest = serde_json::from_str(&format!(r#"{{"pattern": "{EX2}", "seed": 3}}"#)).unwrap();
    let f = serde_json::to_value(search(&req, &mut Unmonitored).unwrap()).unwrap();
    // EX2 starts ".#..": 1-down at (1, 1), 2-across at (1, 3).
    let e = &f["down"][0];
    assert_eq!((e["number"].as_u64(), e["row"].as_u64(), e["col"].as_u64()), (Some(1), Some(1), Some(1)));
    let e = &f["across"][0];
    assert_eq!((e["number"].as_u64(), e["row"].as_u64(), e["col"].as_u64()), (Some(2), Some(1), Some(3)));
    assert!(e["word"].is_string());
    assert!(f["rows"][0].as_str().unwrap().starts_with(|c: char| c.is_ascii_uppercase()));
    let req: FillRequest =
        serde_json::from_str(r##"{"pattern": ["#...#", ".....", ".....", ".....", "#...#"]}"##).unwrap();
    assert!(matches!(req.pattern, PatternInput::Rows(_)));

    let req: WordSquareRequest = serde_json::from_str(r#"{"size": 4, "count": 2, "seed": 9}"#).unwrap();
    let v = serde_json::to_value(search(&req, &mut Unmonitored).unwrap()).unwrap();
    assert_eq!(v["squares"].as_array().unwrap().len(), 2);
    assert!(v.get("total").is_none());
}

// ---------------------------------------------------------------- properties

proptest! {
    #[test]
    fn hex_decoder_never_panics(s in "\\PC{0,130}") {
        let _ = Grid::from_hex(&s);
    }

    #[test]
    fn hex_decoder_never_panics_on_its_alphabet(s in "[0-9A-Fg-t]{0,120}") {
        if let Ok(g) = Grid::from_hex(&s) {
            prop_assert_eq!(g.to_hex(), s);
        }
    }

    #[test]
    fn rows_parser_never_panics(rows in proptest::collection::vec("[#. x]{0,23}", 0..24)) {
        let _ = Grid::from_rows(&rows);
    }

    #[test]
    fn hex_and_rows_round_trip(n in 5usize..=21, bits in proptest::collection::vec(any::<u32>(), 21)) {
        let g = Grid::from_bits(n, &bits);
        prop_assert_eq!(Grid::from_hex(&g.to_hex()).unwrap(), g.clone());
        prop_assert_eq!(Grid::from_rows(&g.to_rows()).unwrap(), g);
    }
}
