//! Statistical and end-to-end tests of the sampler. Seeds are fixed and every threshold was
//! set before looking at the results: a goodness-of-fit test fails at p < 0.001.

use super::*;
use crate::puzzles::chisq::fit;
use crate::puzzles::monitor::{Cancelled, Monitor, Unmonitored};
use std::collections::HashMap;

fn seed_from(i: u64, salt: u8) -> [u8; 32] {
    let mut s = [salt; 32];
    s[..8].copy_from_slice(&i.to_le_bytes());
    s
}

fn book(pages: u32, rows: u32, cols: u32, i: u64) -> Book {
    let spec = BookSpec { pages, rows, cols };
    generate(spec, seed_from(i, 7), &mut Unmonitored).unwrap()
}

// ---------------------------------------------------------------- exact small-grid laws

/// Letters of a 3x3 grid from its base-3 index (cell 0 = least significant digit).
fn grid3(index: usize) -> Page {
    let mut v = index;
    let letters: Vec<Letter> = (0..9)
        .map(|_| {
            let d = v % 3;
            v /= 3;
            Letter::from_digit(d as u8).unwrap()
        })
        .collect();
    Page::from_letters(3, 3, &letters).unwrap()
}

fn index3(page: &Page) -> usize {
    page.letters().enumerate().map(|(i, l)| l.digit() as usize * 3usize.pow(i as u32)).sum()
}

/// Exact enumeration of all 3^9 grids: (FOX-free indices, one-FOX indices).
fn enumerate3() -> (Vec<usize>, Vec<usize>) {
    let (mut free, mut one) = (Vec::new(), Vec::new());
    for i in 0..3usize.pow(9) {
        match count_fox(&grid3(i)).len() {
            0 => free.push(i),
            1 => one.push(i),
            _ => {}
        }
    }
    (free, one)
}

#[test]
fn exact_counts_3x3() {
    let (free, one) = enumerate3();
    assert_eq!(free.len(), 11_645);
    assert_eq!(one.len(), 5_216);
    let centre_o = free.iter().filter(|&&i| grid3(i).letter(1, 1) == Letter::O).count();
    assert_eq!(centre_o, 1_879);
}

/// The law of `stat` under the uniform distribution on `support`.
fn exact_law<K: std::hash::Hash + Eq>(support: &[usize], stat: impl Fn(&Page) -> K) -> HashMap<K, f64> {
    let mut law = HashMap::new();
    for &i in support {
        *law.entry(stat(&grid3(i))).or_insert(0.0) += 1.0 / support.len() as f64;
    }
    law
}

fn observed<K: std::hash::Hash + Eq>(pages: &[&Page], stat: impl Fn(&Page) -> K) -> HashMap<K, usize> {
    let mut counts = HashMap::new();
    for p in pages {
        *counts.entry(stat(p)).or_insert(0) += 1;
    }
    counts
}

/// Statistics compared for both laws: the whole grid, the number of O, and single cells.
fn check_3x3_law(label: &str, pages: &[&Page], support: &[usize]) {
    let checks: Vec<(&str, f64)> = vec![
        ("whole grid", fit(&observed(pages, index3), &exact_law(support, index3))),
        ("O count", fit(&observed(pages, |p| p.count(Letter::O)), &exact_law(support, |p| p.count(Letter::O)))),
        ("centre", fit(&observed(pages, |p| p.letter(1, 1)), &exact_law(support, |p| p.letter(1, 1)))),
        ("corner", fit(&observed(pages, |p| p.letter(0, 0)), &exact_law(support, |p| p.letter(0, 0)))),
        ("edge", fit(&observed(pages, |p| p.letter(0, 1)), &exact_law(support, |p| p.letter(0, 1)))),
    ];
    for (name, p) in checks {
        assert!(p >= 0.001, "{label}: {name} fails goodness of fit (p = {p:.2e})");
    }
}

#[test]
fn fox_free_3x3_pages_are_uniform() {
    let (free, _) = enumerate3();
    let books: Vec<Book> = (0..100).map(|i| book(1000, 3, 3, i)).collect();
    let pages: Vec<&Page> = books
        .iter()
        .flat_map(|b| b.pages.iter().enumerate().filter(|(i, _)| *i + 1 != b.answer.page as usize).map(|(_, p)| p))
        .collect();
    assert_eq!(pages.len(), 99_900);
    check_3x3_law("FOX-free 3x3", &pages, &free);
}

#[test]
fn fox_3x3_pages_are_uniform() {
    let (_, one) = enumerate3();
    let books: Vec<Book> = (0..40_000).map(|i| book(1, 3, 3, i)).collect();
    let pages: Vec<&Page> = books.iter().map(|b| &b.pages[0]).collect();
    check_3x3_law("one-FOX 3x3", &pages, &one);
    // Where the fox is and which way it points.
    let place = |p: &Page| {
        let s = count_fox(p)[0];
        (s.cells[0], s.direction)
    };
    let p = fit(&observed(&pages, place), &exact_law(&one, place));
    assert!(p >= 0.001, "fox position/direction fails goodness of fit (p = {p:.2e})");
    // The answer agrees with the page.
    for b in books.iter().take(500) {
        assert_eq!(Answer::new(0, &count_fox(&b.pages[0])[0]), b.answer);
    }
}

// ------------------------------------------------------- transfer-matrix marginals of strips

/// Exact P(cell is O) for every cell of a FOX-free `h` x `w` grid, by a transfer matrix over
/// columns whose state is the last two columns (each column a base-3 number, row 0 lowest).
fn strip_o_marginals(h: usize, w: usize) -> Vec<Vec<f64>> {
    let ncol = 3usize.pow(h as u32);
    let digit = |col: usize, r: usize| (col / 3usize.pow(r as u32)) % 3;
    let fox = |a: usize, b: usize, c: usize| b == 1 && ((a == 0 && c == 2) || (a == 2 && c == 0));
    let vertical_ok = |c: usize| (0..h.saturating_sub(2)).all(|r| !fox(digit(c, r), digit(c, r + 1), digit(c, r + 2)));
    // Segments spanning three consecutive columns a, b, c: rows and both diagonals.
    let across_ok = |a: usize, b: usize, c: usize| {
        (0..h).all(|r| !fox(digit(a, r), digit(b, r), digit(c, r)))
            && (0..h.saturating_sub(2)).all(|r| {
                !fox(digit(a, r), digit(b, r + 1), digit(c, r + 2))
                    && !fox(digit(a, r + 2), digit(b, r + 1), digit(c, r))
            })
    };
    let cols: Vec<usize> = (0..ncol).filter(|&c| vertical_ok(c)).collect();
    let pos: HashMap<usize, usize> = cols.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let n = cols.len();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for (ia, &a) in cols.iter().enumerate() {
        for (ib, &b) in cols.iter().enumerate() {
            next[ia * n + ib] = cols.iter().filter(|&&c| across_ok(a, b, c)).map(|c| pos[c]).collect();
        }
    }
    // Counts by state after each of the w - 2 steps that add a column, from all ones.
    let sweep = |step: &dyn Fn(&[u128]) -> Vec<u128>| {
        let mut counts = vec![vec![1u128; n * n]];
        for _ in 2..w {
            let after = step(counts.last().unwrap());
            counts.push(after);
        }
        counts
    };
    // forward[j][(a, b)]: valid prefixes whose columns j-1, j are a, b.
    let forward = sweep(&|prev| {
        let mut f = vec![0u128; n * n];
        for s in 0..n * n {
            for &ic in &next[s] {
                f[(s % n) * n + ic] += prev[s];
            }
        }
        f
    });
    // backward[j][(a, b)], once reversed: valid suffixes whose columns j, j+1 are a, b.
    let mut backward =
        sweep(&|later| (0..n * n).map(|s| next[s].iter().map(|&ic| later[(s % n) * n + ic]).sum()).collect());
    backward.reverse();
    let z: u128 = forward[w - 2].iter().sum();
    let mut marg = vec![vec![0.0; w]; h];
    for j in 0..w - 1 {
        // State j covers columns j, j+1.
        for s in 0..n * n {
            let weight = forward[j][s] * backward[j][s];
            if weight == 0 {
                continue;
            }
            let (a, b) = (cols[s / n], cols[s % n]);
            for (r, row) in marg.iter_mut().enumerate() {
                if j == 0 && digit(a, r) == 1 {
                    row[0] += weight as f64 / z as f64;
                }
                if digit(b, r) == 1 {
                    row[j + 1] += weight as f64 / z as f64;
                }
            }
        }
    }
    marg
}

#[test]
fn transfer_matrix_agrees_with_enumeration() {
    let m = strip_o_marginals(3, 3);
    assert!((m[1][1] - 1879.0 / 11645.0).abs() < 1e-12);
}

fn check_strip(rows: u32, cols: u32) {
    let exact = strip_o_marginals(rows as usize, cols as usize);
    let mut o = vec![vec![0usize; cols as usize]; rows as usize];
    let mut n = 0usize;
    for i in 0..200 {
        let b = book(1000, rows, cols, 10_000 + i);
        for (k, p) in b.pages.iter().enumerate() {
            if k + 1 == b.answer.page as usize {
                continue;
            }
            n += 1;
            for (r, row) in o.iter_mut().enumerate() {
                for (c, v) in row.iter_mut().enumerate() {
                    *v += (p.letter(r, c) == Letter::O) as usize;
                }
            }
        }
    }
    // Bonferroni over all cells for a family-wise p < 0.001: |z| <= 4.3.
    for r in 0..rows as usize {
        for c in 0..cols as usize {
            let p = exact[r][c];
            let z = (o[r][c] as f64 / n as f64 - p) / (p * (1.0 - p) / n as f64).sqrt();
            assert!(z.abs() <= 4.3, "{rows}x{cols} cell ({r},{c}): exact {p:.5}, z = {z:.2}");
        }
    }
}

#[test]
fn strip_3x12_marginals() {
    check_strip(3, 12);
}

#[test]
fn strip_4x8_marginals() {
    check_strip(4, 8);
}

// ------------------------------------------------------------------------ whole books

#[test]
fn books_of_many_shapes_hold_exactly_one_fox() {
    for (pages, rows, cols) in
        [(40, 3, 3), (30, 3, 64), (30, 64, 3), (70, 32, 20), (12, 64, 64), (1, 5, 7), (500, 5, 6)]
    {
        for i in 0..3 {
            let b = book(pages, rows, cols, i);
            assert_eq!(b.pages.len(), pages as usize);
            assert!(b.pages.iter().all(|p| p.rows() == rows as usize && p.cols() == cols as usize));
            b.verify().unwrap_or_else(|e| panic!("{pages}x{rows}x{cols} #{i}: {e}"));
        }
    }
}

#[test]
fn letter_shares_of_default_books() {
    let (mut counts, mut n) = ([0usize; 3], 0usize);
    for i in 0..20 {
        let b = book(200, 32, 20, 500 + i);
        for p in &b.pages {
            for (k, l) in Letter::ALL.into_iter().enumerate() {
                counts[k] += p.count(l);
            }
            n += 640;
        }
    }
    let share = counts.map(|c| c as f64 / n as f64);
    // Book-to-book sd of the O share is about 0.0022, so 20 books give sd 0.0005; allow 5 sd.
    assert!((share[1] - 0.3397).abs() < 0.0025, "O share {}", share[1]);
    assert!((share[0] - 0.3301).abs() < 0.0025, "F share {}", share[0]);
    assert!((share[2] - 0.3301).abs() < 0.0025, "X share {}", share[2]);
}

#[test]
fn fox_page_index_is_uniform() {
    let mut counts = HashMap::new();
    for i in 0..4000 {
        *counts.entry(book(5, 3, 3, 90_000 + i).answer.page).or_insert(0usize) += 1;
    }
    let law: HashMap<u32, f64> = (1..=5).map(|p| (p, 0.2)).collect();
    assert!(fit(&counts, &law) >= 0.001);
}

#[test]
fn golden_book() {
    // Version 1, as printed before version 2 existed: enough pages that both chains
    // contribute (pages harvested from the fox chain, the rest from the FOX-free chain).
    let spec = BookSpec { pages: 100, rows: 4, cols: 7 };
    let serial = Serial::from_bits(0x2_0240_F0C5).to_string();
    let b = generate_version(spec, book_seed_version(b"golden secret", &serial, spec, 1), 1, &mut Unmonitored).unwrap();
    let hex: String = b.content_hash().iter().map(|x| format!("{x:02x}")).collect();
    assert_eq!(hex, "15c0dfbc91218b8d1bfc7c7ab6fe72c95c1120be918dd84fc7c222f07cdf5915", "answer {:?}", b.answer);
    assert_eq!((b.answer.page, b.answer.row, b.answer.col, b.answer.direction), (34, 4, 7, Direction::Left));
    assert_eq!(book_for_version(b"golden secret", &serial, spec, 1, &mut Unmonitored).unwrap(), b);
}

#[test]
fn golden_book_v2() {
    // Version 2: 300 pages need a second reading of the four-word chain after a spacing.
    let spec = BookSpec { pages: 300, rows: 4, cols: 7 };
    let serial = Serial::from_bits(0x2_0240_F0C5).to_string();
    let b = generate(spec, book_seed(b"golden secret", &serial, spec), &mut Unmonitored).unwrap();
    b.verify().unwrap();
    assert_eq!(generate_version(spec, book_seed(b"golden secret", &serial, spec), 2, &mut Unmonitored), Ok(b.clone()));
    assert_eq!(book_for_version(b"golden secret", &serial, spec, GENERATOR_VERSION, &mut Unmonitored), Ok(b.clone()));
    assert_eq!(generate_version(spec, [0; 32], 3, &mut Unmonitored), Err(BookError::Version(3)));
    let hex: String = b.content_hash().iter().map(|x| format!("{x:02x}")).collect();
    assert_eq!(hex, "2b1bee37a258c75752a74253285de8e225f6842518bd8b2e61190e2198d586b4", "answer {:?}", b.answer);
    assert_eq!((b.answer.page, b.answer.row, b.answer.col, b.answer.direction), (66, 4, 6, Direction::Left));
}

#[test]
fn same_seed_same_book() {
    let spec = BookSpec { pages: 90, rows: 9, cols: 11 };
    let seed = book_seed(b"k", "0000000000A", spec);
    let a = generate(spec, seed, &mut Unmonitored).unwrap();
    // A progress watcher that records calls must not change the result.
    struct Log(Vec<(u64, u64)>);
    impl Monitor for Log {
        fn update(&mut self, done: u64, total: u64) -> bool {
            self.0.push((done, total));
            true
        }
    }
    let mut log = Log(Vec::new());
    let b = generate(spec, seed, &mut log).unwrap();
    assert_eq!(a, b);
    assert!(log.0.windows(2).all(|w| w[0].0 <= w[1].0));
    assert_eq!(log.0.last(), Some(&(90, 90)));
    let c = generate(spec, book_seed(b"k", "0000000001B", spec), &mut Unmonitored).unwrap();
    assert_ne!(a.text(), c.text());
}

#[test]
fn cancellation_stops_generation() {
    struct StopAt(u32);
    impl Monitor for StopAt {
        fn update(&mut self, _: u64, _: u64) -> bool {
            self.0 = self.0.saturating_sub(1);
            self.0 > 0
        }
    }
    let spec = BookSpec { pages: 1000, rows: 64, cols: 64 };
    assert_eq!(generate(spec, [1; 32], &mut StopAt(3)), Err(Cancelled));
}

#[test]
fn text_form() {
    let b = book(2, 3, 4, 1);
    let t = b.text();
    let lines: Vec<&str> = t.split('\n').collect();
    // 3 rows, blank, 3 rows, then the empty string after the final newline.
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[3], "");
    assert_eq!(lines[7], "");
    assert_eq!(lines[..3], b.pages[0].rows_text()[..]);
    assert_eq!(lines[4..7], b.pages[1].rows_text()[..]);
}

#[test]
fn pack_round_trip() {
    for (pages, rows, cols) in [(200, 32, 20), (7, 3, 3), (3, 5, 7)] {
        let b = book(pages, rows, cols, 3);
        let packed = b.pack();
        assert_eq!(packed.len(), b.spec.cells().div_ceil(5));
        let back = Book::unpack(b.spec, &packed, b.answer).unwrap();
        for (i, page) in back.pages.iter().enumerate() {
            assert_eq!(&Book::unpack_page(b.spec, &packed, i).unwrap(), page, "page {i} alone");
        }
        assert!(Book::unpack_page(b.spec, &packed, back.pages.len()).is_err());
        assert_eq!(back, b);
        assert_eq!(back.content_hash(), b.content_hash());
    }
    let b = book(3, 5, 7, 3);
    let packed = b.pack();
    assert!(matches!(Book::unpack(b.spec, &packed[1..], b.answer), Err(UnpackError::Length { .. })));
    let mut bad = packed.clone();
    bad[0] = 250;
    assert_eq!(Book::unpack(b.spec, &bad, b.answer), Err(UnpackError::Byte { offset: 0, value: 250 }));
    let spec = BookSpec { pages: 1, rows: 3, cols: 3 };
    let small = book(1, 3, 3, 4);
    let mut p = small.pack();
    *p.last_mut().unwrap() += 81; // 9 letters: last byte holds 4 letters and one padding digit
    assert_eq!(Book::unpack(spec, &p, small.answer), Err(UnpackError::Padding));
    let mut wrong = b.answer;
    wrong.page = 4;
    assert!(matches!(Book::unpack(b.spec, &packed, wrong), Err(UnpackError::Answer(_))));
    let bad_spec = BookSpec { rows: 2, ..b.spec };
    let err = Book::unpack(bad_spec, &packed, b.answer).unwrap_err();
    assert!(matches!(err, UnpackError::Spec(_)));
    // The spec error is kept as the source, not flattened into the message only.
    let source = std::error::Error::source(&err).expect("a source");
    assert_eq!(source.to_string(), "`rows` must be between 3 and 64 (got 2)");
    assert_eq!(err.to_string(), format!("invalid book spec: {source}"));
}

#[test]
fn answer_json() {
    let b = book(4, 6, 6, 2);
    let json = serde_json::to_value(b.answer).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 5);
    for k in ["page", "row", "col", "direction", "cells"] {
        assert!(keys.contains(&k));
    }
    assert!(Direction::ALL.iter().any(|d| json["direction"] == d.name()));
    assert_eq!(json["cells"][0], serde_json::json!([b.answer.row, b.answer.col]));
    let back: Answer = serde_json::from_value(json).unwrap();
    assert_eq!(back, b.answer);
    assert_eq!(serde_json::to_string(&Direction::DownRight).unwrap(), "\"down-right\"");
}

#[test]
fn autocorrelation_times_fit_the_spacing() {
    use super::chain::SPACING_SWEEPS;
    use super::diagnostics::{autocorrelation_times, ChainKind};
    for kind in [ChainKind::FoxFree, ChainKind::AtMostOneFox] {
        let t = autocorrelation_times(kind, 32, 20, 1500, 3);
        // Expected about 10 sweeps; a sampler that mixes far worse must fail here.
        assert!(t.max() > 2.0 && 5.0 * t.max() <= SPACING_SWEEPS as f64, "{kind:?}: {t:?}");
    }
}

#[test]
fn lambda_keeps_both_states_frequent() {
    for (r, c) in [(3, 3), (3, 64), (64, 3), (32, 20), (64, 64), (9, 40)] {
        let share = diagnostics::one_fox_share(r, c, 150, 5);
        assert!((0.2..=0.8).contains(&share), "{r}x{c}: {share}");
    }
}

#[test]
fn books_above_the_limits_are_refused_before_sampling() {
    let narrow = Limits { max_pages: 2, ..Limits::default() };
    let spec = BookSpec { pages: 3, rows: 8, cols: 8 };
    let e = book_for_within(b"secret", "0123456789A", spec, &narrow, &mut Unmonitored).unwrap_err();
    assert_eq!(e, BookError::Spec(SpecError::OutOfRange { field: "pages", value: 3, min: 1, max: 2 }));
    let two = BookSpec { pages: 2, ..spec };
    let within = book_for_within(b"secret", "0123456789A", two, &narrow, &mut Unmonitored).unwrap();
    assert_eq!(within, book_for(b"secret", "0123456789A", two, &mut Unmonitored).unwrap());
}
