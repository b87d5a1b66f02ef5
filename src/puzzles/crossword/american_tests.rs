//! Tests of the American-rules patterns. The checker here reads only a pattern's `rows`
//! strings and checks every rule naively, independent of the generator's code.

use std::collections::{HashMap, HashSet};

use super::american::check_legal;
use super::*;
use crate::puzzles::monitor::Unmonitored;

/// What a pattern must satisfy.
struct Rules {
    symmetry: Symmetry,
    max_len: usize,
    max_black_share: f64,
    max_words: usize,
}

/// Maximal runs of white squares (anything but `#`) in a line: (start, length).
fn white_runs(line: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i] == '#' {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && line[i] != '#' {
            i += 1;
        }
        out.push((start, i - start));
    }
    out
}

/// All rule violations of a pattern given as rows (empty when it is valid).
fn violations(p: &Pattern, rules: &Rules) -> Vec<String> {
    let g: Vec<Vec<char>> = p.rows.iter().map(|r| r.chars().collect()).collect();
    let (h, w) = (g.len(), g[0].len());
    let mut v = Vec::new();
    if g.iter().any(|r| r.len() != w) {
        return vec!["not rectangular".into()];
    }
    let white = |r: usize, c: usize| g[r][c] != '#';
    for (r, row) in g.iter().enumerate() {
        for (c, &square) in row.iter().enumerate() {
            if !(square == '#' || square == '.' || square.is_ascii_uppercase()) {
                v.push(format!("bad symbol at {r},{c}"));
            }
            let mut images = vec![];
            match rules.symmetry {
                Symmetry::Rotational => images.push((h - 1 - r, w - 1 - c)),
                Symmetry::Mirror => images.extend([(r, w - 1 - c), (h - 1 - r, c), (h - 1 - r, w - 1 - c)]),
                Symmetry::None => {}
            }
            for (rr, cc) in images {
                if white(r, c) != white(rr, cc) {
                    v.push(format!("{} asymmetric at {r},{c}", rules.symmetry));
                }
            }
        }
    }
    // Every white square's across and down runs: at least 3 (so no unchecked square, no
    // short entry), at most max_len.
    let columns: Vec<Vec<char>> = (0..w).map(|c| (0..h).map(|r| g[r][c]).collect()).collect();
    let mut words = 0;
    let mut in_across = vec![vec![0; w]; h];
    let mut in_down = vec![vec![0; w]; h];
    for (r, row) in g.iter().enumerate() {
        for (start, len) in white_runs(row) {
            words += (len >= 2) as usize;
            in_across[r][start..start + len].fill(len);
        }
    }
    for (c, col) in columns.iter().enumerate() {
        for (start, len) in white_runs(col) {
            words += (len >= 2) as usize;
            for row in in_down.iter_mut().skip(start).take(len) {
                row[c] = len;
            }
        }
    }
    for r in 0..h {
        for c in 0..w {
            if white(r, c) {
                for (dir, len) in [("across", in_across[r][c]), ("down", in_down[r][c])] {
                    if len < 3 {
                        v.push(format!("square {r},{c} is in a {dir} run of {len}"));
                    }
                    if len > rules.max_len {
                        v.push(format!("square {r},{c} is in a {dir} run of {len} > {}", rules.max_len));
                    }
                }
            }
        }
    }
    let black = g.iter().flatten().filter(|&&x| x == '#').count();
    if black as f64 > rules.max_black_share * (h * w) as f64 + 1e-9 {
        v.push(format!("{black} black squares of {}", h * w));
    }
    if words > rules.max_words {
        v.push(format!("{words} words > {}", rules.max_words));
    }
    if black != p.black || words != p.words {
        v.push(format!("counts say {} black, {} words; the rows have {black}, {words}", p.black, p.words));
    }
    // Connected, by flood fill.
    let whites: Vec<(usize, usize)> =
        (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).filter(|&(r, c)| white(r, c)).collect();
    match whites.first() {
        None => v.push("no white squares".into()),
        Some(&start) => {
            let mut seen = HashSet::from([start]);
            let mut stack = vec![start];
            while let Some((r, c)) = stack.pop() {
                let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                for (rr, cc) in near {
                    if rr < h && cc < w && white(rr, cc) && seen.insert((rr, cc)) {
                        stack.push((rr, cc));
                    }
                }
            }
            if seen.len() != whites.len() {
                v.push("white squares not connected".into());
            }
        }
    }
    v
}

/// The entries of a filled grid (runs of >= 2 letters across, then down).
fn entries(rows: &[String]) -> Vec<String> {
    let g: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let columns: Vec<Vec<char>> = (0..g[0].len()).map(|c| g.iter().map(|r| r[c]).collect()).collect();
    let mut out = Vec::new();
    for line in g.iter().chain(columns.iter()) {
        for (start, len) in white_runs(line) {
            if len >= 2 {
                out.push(line[start..start + len].iter().collect());
            }
        }
    }
    out
}

/// A fill matches its pattern (same black squares, theme letters kept), and every entry
/// is in `list` with at least `min_score` (or is a theme entry), with none twice.
fn fill_violations(p: &Pattern, list: &WordList, min_score: u8, theme: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    let Some(fill) = &p.fill else { return vec!["no fill".into()] };
    for (pr, fr) in p.rows.iter().zip(&fill.rows) {
        for (a, b) in pr.chars().zip(fr.chars()) {
            let ok = match a {
                '#' => b == '#',
                '.' => b.is_ascii_uppercase(),
                letter => b == letter,
            };
            if !ok {
                v.push(format!("pattern square {a:?} filled with {b:?}"));
            }
        }
    }
    let words = entries(&fill.rows);
    let mut seen = HashSet::new();
    for word in &words {
        if !seen.insert(word.clone()) {
            v.push(format!("{word} twice"));
        }
        if theme.contains(&word.as_str()) {
            continue;
        }
        match list.score(word.as_bytes()) {
            Some(s) if s >= min_score => {}
            Some(s) => v.push(format!("{word} scores {s} < {min_score}")),
            None => v.push(format!("{word} is not in the list")),
        }
    }
    let listed: Vec<&String> = fill.across.iter().chain(&fill.down).map(|e| &e.word).collect();
    if listed.len() != words.len() {
        v.push(format!("{} entries listed, {} in the grid", listed.len(), words.len()));
    }
    v
}

fn generate(req: &PatternRequest) -> PatternResult {
    search(req, &mut Unmonitored).unwrap_or_else(|e| panic!("{req:?}: {e}"))
}

fn request(rows: usize, cols: usize, symmetry: Option<Symmetry>, count: u64, seed: u64) -> PatternRequest {
    PatternRequest { symmetry, count: Count::N(count), seed, ..PatternRequest::american(rows, cols) }
}

fn defaults(rows: usize, cols: usize, symmetry: Symmetry) -> Rules {
    // The documented defaults, written out here rather than taken from the generator.
    let max_words = ((78.0 * (rows * cols) as f64 / 225.0).round() as usize).max(rows + cols);
    Rules { symmetry, max_len: rows.max(cols), max_black_share: 0.16, max_words }
}

#[test]
fn sampled_patterns_meet_every_rule() {
    use Symmetry as S;
    let cases = [
        (15, 15, None, S::Rotational),
        (15, 15, Some(S::Mirror), S::Mirror),
        (15, 15, Some(S::None), S::None),
        (21, 21, None, S::Rotational),
        (3, 3, None, S::Rotational),
        (5, 5, None, S::Rotational),
        (4, 7, Some(S::None), S::None),
        (11, 13, None, S::Rotational),
        (16, 16, Some(S::Mirror), S::Mirror),
        (9, 12, Some(S::Mirror), S::Mirror),
        (17, 31, None, S::Rotational),
        (31, 31, None, S::Rotational),
    ];
    for (seed, &(rows, cols, asked, symmetry)) in cases.iter().enumerate() {
        let res = generate(&request(rows, cols, asked, 4, seed as u64));
        // Only the all-white grid has no entry shorter than 3 at 3x3.
        let expected = if rows == 3 && cols == 3 { 1 } else { 4 };
        assert_eq!(res.patterns.len(), expected, "{rows}x{cols} {symmetry}: {:?}", res.note);
        let rules = defaults(rows, cols, symmetry);
        let mut distinct = HashSet::new();
        for p in &res.patterns {
            assert_eq!((p.rows.len(), p.rows[0].len()), (rows, cols));
            let v = violations(p, &rules);
            assert!(v.is_empty(), "{rows}x{cols} {symmetry}: {v:?}\n{}", p.rows.join("\n"));
            assert!(distinct.insert(p.rows.clone()), "duplicate pattern");
            let square = rows == cols && (5..=21).contains(&rows);
            assert_eq!(p.hex.is_some(), square);
            if let Some(hex) = &p.hex {
                assert_eq!(Grid::from_hex(hex).unwrap().to_rows(), p.rows);
            }
        }
    }
}

#[test]
fn the_checker_catches_broken_patterns() {
    let p = |rows: &[&str]| Pattern {
        hex: None,
        rows: rows.iter().map(|r| r.to_string()).collect(),
        words: entries(&rows.iter().map(|r| r.to_string()).collect::<Vec<_>>()).len(),
        black: rows.iter().flat_map(|r| r.chars()).filter(|&c| c == '#').count(),
        fill: None,
    };
    let rules = Rules { symmetry: Symmetry::Rotational, max_len: 5, max_black_share: 0.5, max_words: 100 };
    assert!(violations(&p(&["....", "....", "...."]), &rules).is_empty());
    // An unchecked square (down run of 1), a two-letter entry, asymmetry, disconnection.
    assert!(!violations(&p(&["....", "#..#", "...."]), &rules).is_empty());
    assert!(!violations(&p(&["..#..", ".....", "..#.."]), &rules).is_empty());
    assert!(!violations(&p(&["#....", ".....", "....."]), &rules).is_empty());
    let split = p(&["...#...", "...#...", "...#..."]);
    assert!(violations(&split, &rules).iter().any(|v| v.contains("not connected")));
    let rules = Rules { max_black_share: 0.1, ..rules };
    assert!(violations(&split, &rules).iter().any(|v| v.contains("black squares")));
}

#[test]
fn same_seed_same_patterns() {
    let a = generate(&request(15, 15, None, 3, 7));
    let b = generate(&request(15, 15, None, 3, 7));
    let c = generate(&request(15, 15, None, 3, 8));
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    assert_ne!(a.patterns, c.patterns);
}

#[test]
fn filters_are_met() {
    let req = PatternRequest {
        max_black_share: Some(0.2),
        max_words: Some(70),
        min_words: Some(60),
        max_len: Some(10),
        ..request(15, 15, None, 3, 1)
    };
    let rules = Rules { symmetry: Symmetry::Rotational, max_len: 10, max_black_share: 0.2, max_words: 70 };
    for p in &generate(&req).patterns {
        assert_eq!(violations(p, &rules), Vec::<String>::new(), "{}", p.rows.join("\n"));
        assert!(p.words >= 60);
    }
}

#[test]
fn default_max_words_scales_by_area() {
    assert_eq!(american::default_max_words(15, 15), 78);
    assert_eq!(american::default_max_words(21, 21), 153);
    assert_eq!(american::default_max_words(3, 3), 6);
    assert_eq!(american::default_max_words(15, 30), 156);
}

#[test]
fn theme_entries_are_placed_symmetrically() {
    let theme = ["Mountain goat herd", "HOUSEPLANT", "STAGECOACHROBBER", "lighthouse!"];
    let req = PatternRequest { theme: theme.map(String::from).to_vec(), ..request(16, 16, None, 2, 3) };
    let res = generate(&req);
    let words = ["MOUNTAINGOATHERD", "HOUSEPLANT", "STAGECOACHROBBER", "LIGHTHOUSE"];
    for p in &res.patterns {
        assert!(violations(p, &defaults(16, 16, Symmetry::Rotational)).is_empty(), "{}", p.rows.join("\n"));
        // Each theme entry is an across entry whose squares' half-turn images hold an
        // entry of the theme.
        let mut at: HashMap<(usize, usize), String> = HashMap::new();
        for (r, row) in p.rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            for (start, len) in white_runs(&chars) {
                let word: String = chars[start..start + len].iter().collect();
                if words.contains(&word.as_str()) {
                    at.insert((r, start), word);
                }
            }
        }
        assert_eq!(at.len(), 4, "{}", p.rows.join("\n"));
        for ((r, c), word) in &at {
            let partner = at.get(&(15 - r, 16 - c - word.len())).unwrap_or_else(|| panic!("{word} has no partner"));
            assert_eq!(partner.len(), word.len());
        }
    }
    // An entry without a partner of its length is refused, naming the field.
    let odd = PatternRequest { theme: vec!["ABCD".into(), "ABCDE".into()], ..request(15, 15, None, 1, 0) };
    assert!(matches!(search(&odd, &mut Unmonitored), Err(CrosswordError::InvalidField { field: "theme", .. })));
}

#[test]
fn fillable_patterns_come_with_a_fill_from_the_list() {
    let list = WordList::english();
    for (rows, cols, seed) in [(5, 5, 1), (7, 7, 2), (5, 8, 3)] {
        let req = PatternRequest { fillable: true, max_black_share: Some(0.3), ..request(rows, cols, None, 2, seed) };
        let res = generate(&req);
        let rules = Rules { max_black_share: 0.3, ..defaults(rows, cols, Symmetry::Rotational) };
        for p in &res.patterns {
            assert!(violations(p, &rules).is_empty(), "{}", p.rows.join("\n"));
            let v = fill_violations(p, list, 50, &[]);
            assert!(v.is_empty(), "{v:?}\n{}", p.fill.as_ref().unwrap().rows.join("\n"));
        }
    }
    // An inline list, with a theme entry that the list does not have.
    let words: Vec<String> =
        list.of_len(3).chain(list.of_len(4)).chain(list.of_len(5)).map(|w| String::from_utf8_lossy(w).into()).collect();
    let req = PatternRequest {
        fillable: true,
        words: Some(words.clone()),
        min_score: Some(0),
        max_black_share: Some(0.3),
        theme: vec!["RESTA".into()],
        ..request(5, 5, None, 1, 4)
    };
    let res = generate(&req);
    let inline = WordList::from_words(&words).unwrap();
    for p in &res.patterns {
        assert!(p.rows[2].contains("RESTA"), "{}", p.rows.join("\n"));
        assert!(fill_violations(p, &inline, 0, &["RESTA"]).is_empty());
    }
}

#[test]
fn bad_american_requests_name_the_field() {
    let field = |req: PatternRequest| match search(&req, &mut Unmonitored) {
        Err(CrosswordError::InvalidField { field, .. }) => field,
        other => panic!("{req:?}: {other:?}"),
    };
    let base = || request(15, 15, None, 1, 0);
    assert_eq!(field(PatternRequest { max_black_share: Some(1.5), ..base() }), "max_black_share");
    assert_eq!(field(PatternRequest { max_black_share: Some(-0.1), ..base() }), "max_black_share");
    assert_eq!(field(PatternRequest { min_words: Some(80), ..base() }), "min_words");
    assert_eq!(field(PatternRequest { max_words: Some(10), min_words: Some(20), ..base() }), "min_words");
    assert_eq!(field(PatternRequest::american(2, 15)), "rows");
    assert_eq!(field(PatternRequest::american(15, 32)), "cols");
    assert_eq!(field(PatternRequest { size: Some(15), ..base() }), "rows");
    assert_eq!(field(PatternRequest { count: Count::All, ..base() }), "count");
    assert_eq!(field(PatternRequest { max_len: Some(2), ..base() }), "max_len");
    assert_eq!(field(PatternRequest { words: Some(vec!["CAT".into()]), ..base() }), "words");
    assert_eq!(field(PatternRequest { min_score: Some(10), ..base() }), "min_score");
    assert_eq!(field(PatternRequest { fillable: true, min_score: Some(101), ..base() }), "min_score");
    let limits = Limits::default();
    assert_eq!(field(PatternRequest { max_nodes: Some(limits.pattern_max_nodes + 1), ..base() }), "max_nodes");
    let too_many = PatternRequest { fillable: true, fill_max_nodes: Some(limits.fill_max_nodes + 1), ..base() };
    assert_eq!(field(too_many), "fill_max_nodes");
    assert_eq!(field(PatternRequest { count: Count::N(limits.pattern_max_count + 1), ..base() }), "count");
    // The American fields and `none` are refused under the seed rules.
    assert_eq!(field(PatternRequest { symmetry: Some(Symmetry::None), ..PatternRequest::new(15) }), "symmetry");
    assert_eq!(field(PatternRequest { fillable: true, ..PatternRequest::new(15) }), "fillable");
    assert_eq!(field(PatternRequest { rows: Some(15), ..PatternRequest::new(15) }), "rows");
    // A square grid may be given by its size.
    let square = PatternRequest { rules: pattern::Rules::American, ..PatternRequest::new(9) };
    assert_eq!(generate(&square).patterns[0].rows.len(), 9);
}

#[test]
fn fill_sizes_bound_the_real_results() {
    let req = PatternRequest { fillable: true, max_black_share: Some(0.3), ..request(7, 7, None, 2, 5) };
    for p in &generate(&req).patterns {
        assert!(serde_json::to_string(p).unwrap().len() < limits::pattern_rect_bytes(7, 7, true));
    }
}

#[test]
fn the_benchmark_grids_are_legal() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/grids");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert_eq!(check_legal(&rows), Ok(()), "{name}");
            let slots = Grid::from_rows(&rows).unwrap().slots();
            if name.contains("themeless") {
                // Themeless: 60-72 entries, none longer than 10.
                assert!((60..=72).contains(&slots.len()), "{name}: {} entries", slots.len());
                assert!(slots.iter().all(|s| s.len <= 10), "{name}");
            }
            names.push(name);
        }
    }
    assert!(names.iter().filter(|n| n.contains("themeless")).count() >= 10, "{names:?}");
    assert!(names.iter().filter(|n| n.starts_with("21x21")).count() >= 5, "{names:?}");
    // The checker refuses what breaks each rule.
    let bad = |rows: &[&str]| check_legal(rows).unwrap_err();
    assert!(bad(&["#....", ".....", ".....", ".....", "....."]).starts_with("not rotationally symmetric"));
    assert!(bad(&[".#...", ".....", ".....", ".....", "...#."]).contains("fewer than 3"));
    assert!(bad(&["...#...", "...#...", "...#...", "#######", "...#...", "...#...", "...#..."])
        .starts_with("the white squares are not connected"));
    assert!(bad(&["...", "..", "..."]).starts_with("rows must be"));
    assert_eq!(bad(&["###", "###", "###"]), "no white square");
}
