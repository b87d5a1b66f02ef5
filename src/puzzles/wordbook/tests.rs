//! Statistical and end-to-end tests of the word sampler. Seeds are fixed and every threshold
//! was set before looking at the results: a goodness-of-fit test fails at p < 0.001.

use super::*;
use crate::puzzles::chisq::fit;
use crate::puzzles::monitor::Unmonitored;
use std::collections::{HashMap, HashSet};

fn seed_from(i: u64, salt: u8) -> [u8; 32] {
    let mut s = [salt; 32];
    s[..8].copy_from_slice(&i.to_le_bytes());
    s
}

fn spec(word: &str, letters: &str, shape: Shape, pages: u32, rows: u32, cols: u32) -> WordSpec {
    WordSpec { word: word.into(), letters: Some(letters.into()), shape, pages, rows, cols }
}

/// An occurrence counter written independently of [`occurrences`]: read `len` cells from
/// every cell in each of the 8 directions and collect the cell sets that read the word.
fn count_independently(page: &WordPage, word: &[u8]) -> usize {
    let mut sets: HashSet<Vec<(isize, isize)>> = HashSet::new();
    for r in 0..page.rows() as isize {
        for c in 0..page.cols() as isize {
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if (dr, dc) == (0, 0) {
                        continue;
                    }
                    let cells: Vec<(isize, isize)> =
                        (0..word.len() as isize).map(|k| (r + k * dr, c + k * dc)).collect();
                    if cells.iter().zip(word).all(|(&(r, c), &w)| page.letter(r, c) == Some(w)) {
                        let mut set = cells;
                        set.sort();
                        sets.insert(set);
                    }
                }
            }
        }
    }
    sets.len()
}

/// Every grid of the plan's shape over its letters, by index (letter cells in row-major
/// order, the first the least significant base-K digit).
struct Space {
    plan: Plan,
    sites: Vec<usize>,
}

impl Space {
    fn new(s: &WordSpec) -> Space {
        let plan = s.validate().unwrap();
        let sites = (0..plan.mask.cells.len()).filter(|&i| plan.mask.cells[i]).collect();
        Space { plan, sites }
    }

    fn size(&self) -> usize {
        self.plan.letters.len().pow(self.sites.len() as u32)
    }

    fn page(&self, index: usize) -> WordPage {
        let k = self.plan.letters.len();
        let mut cells = vec![NO_CELL; self.plan.mask.cells.len()];
        let mut v = index;
        for &i in &self.sites {
            cells[i] = self.plan.letters[v % k];
            v /= k;
        }
        WordPage::from_cells(self.plan.mask.rows, self.plan.mask.cols, cells).unwrap()
    }

    fn index(&self, page: &WordPage) -> usize {
        let k = self.plan.letters.len();
        self.sites.iter().rev().fold(0, |v, &i| {
            v * k + self.plan.letters.iter().position(|&l| l == page.cells()[i]).expect("a letter of the alphabet")
        })
    }

    /// (occurrence-free indices, one-occurrence indices), counted independently.
    fn enumerate(&self) -> (Vec<usize>, Vec<usize>) {
        let (mut free, mut one) = (Vec::new(), Vec::new());
        for i in 0..self.size() {
            match count_independently(&self.page(i), &self.plan.word) {
                0 => free.push(i),
                1 => one.push(i),
                _ => {}
            }
        }
        (free, one)
    }
}

/// Compares sampled pages with the uniform law on `support`: the whole grid (when there are
/// at least 5 samples per grid), each letter's count, and the first, middle and last cell.
fn check_law(label: &str, space: &Space, pages: &[&WordPage], support: &[usize]) {
    let letters_count = |p: &WordPage| {
        space.plan.letters.iter().map(|l| p.cells().iter().filter(|&c| c == l).count()).collect::<Vec<_>>()
    };
    let cell = |k: usize| {
        let i = space.sites[k];
        move |p: &WordPage| p.cells()[i]
    };
    let law = |stat: &dyn Fn(&WordPage) -> Vec<u8>| {
        let mut exact = HashMap::new();
        for &i in support {
            *exact.entry(stat(&space.page(i))).or_insert(0.0) += 1.0 / support.len() as f64;
        }
        let mut seen = HashMap::new();
        for p in pages {
            *seen.entry(stat(p)).or_insert(0) += 1;
        }
        fit(&seen, &exact)
    };
    let n = space.sites.len();
    let mut checks: Vec<(&str, f64)> = vec![
        ("letter counts", law(&|p| letters_count(p).into_iter().map(|c| c as u8).collect())),
        ("first cell", law(&|p| vec![cell(0)(p)])),
        ("middle cell", law(&|p| vec![cell(n / 2)(p)])),
        ("last cell", law(&|p| vec![cell(n - 1)(p)])),
    ];
    if pages.len() >= 5 * support.len() {
        checks.push(("whole grid", law(&|p| space.index(p).to_le_bytes().to_vec())));
    }
    for (name, p) in checks {
        assert!(p >= 0.001, "{label}: {name} fails goodness of fit (p = {p:.2e})");
    }
}

/// Compares a spec's sampled pages with its exactly enumerated laws: occurrence-free pages
/// from `free_books` books of 1000 pages, word pages from `word_books` books of one page.
fn check_exact(s: WordSpec, free_books: u64, word_books: u64, salt: u8) {
    let space = Space::new(&WordSpec { pages: 1, ..s.clone() });
    let (free, one) = space.enumerate();
    assert!(!free.is_empty() && !one.is_empty());
    let label = format!("{} on {:?}", s.word, s.letters);

    let books: Vec<WordBook> = (0..free_books)
        .map(|i| generate(&WordSpec { pages: 1000, ..s.clone() }, seed_from(i, salt), &mut Unmonitored).unwrap())
        .collect();
    let pages: Vec<&WordPage> = books
        .iter()
        .flat_map(|b| b.pages.iter().enumerate().filter(|(i, _)| *i + 1 != b.answer.page as usize).map(|(_, p)| p))
        .collect();
    check_law(&format!("{label}, occurrence-free"), &space, &pages, &free);

    let books: Vec<WordBook> = (0..word_books)
        .map(|i| generate(&WordSpec { pages: 1, ..s.clone() }, seed_from(i, salt ^ 0x55), &mut Unmonitored).unwrap())
        .collect();
    let pages: Vec<&WordPage> = books.iter().map(|b| &b.pages[0]).collect();
    check_law(&format!("{label}, one occurrence"), &space, &pages, &one);
    // Where the word is and which way it reads.
    let place = |p: &WordPage| {
        let o = &occurrences(p, &space.plan.word)[0];
        (o.cells[0], o.direction)
    };
    let mut exact = HashMap::new();
    for &i in &one {
        *exact.entry(place(&space.page(i))).or_insert(0.0) += 1.0 / one.len() as f64;
    }
    let mut seen = HashMap::new();
    for p in &pages {
        *seen.entry(place(p)).or_insert(0) += 1;
    }
    let p = fit(&seen, &exact);
    assert!(p >= 0.001, "{label}: position/direction fails goodness of fit (p = {p:.2e})");
    for b in books.iter().take(300) {
        b.verify().unwrap();
        assert_eq!(count_independently(&b.pages[0], &space.plan.word), 1);
    }
}

/// Small books sampled exactly: a word on its own letters, palindromes (DAD, NOON), a
/// letter the word lacks, and a mask.
#[test]
fn exact_small_books() {
    let mask = Shape::Mask(vec!["....".into(), ".#..".into(), "... ".into()]);
    let cases = [
        ("CAT", "CAT", Shape::Rectangle, 3, 3),
        ("DAD", "AD", Shape::Rectangle, 4, 4),
        ("NOON", "NO", Shape::Rectangle, 4, 4),
        ("FOX", "FOXZ", Shape::Rectangle, 3, 3),
        ("CAT", "CAT", mask, 3, 4),
    ];
    for (salt, (word, letters, shape, rows, cols)) in (1..).zip(cases) {
        check_exact(spec(word, letters, shape, 1, rows, cols), 100, 30_000, salt);
    }
}

#[test]
fn scan_agrees_with_the_independent_counter() {
    let mut rng = crate::puzzles::rng::Rng::from_u64(17);
    for (word, letters) in [("CAT", "CAT"), ("DAD", "AD"), ("NOON", "NO"), ("AB", "ABC"), ("ZEBRA", "ZEBRA")] {
        let k = letters.len();
        for _ in 0..300 {
            let (rows, cols) = (3 + rng.index(5), 3 + rng.index(5));
            let cells = (0..rows * cols)
                .map(|_| if rng.index(8) == 0 { NO_CELL } else { letters.as_bytes()[rng.index(k)] })
                .collect();
            let page = WordPage::from_cells(rows, cols, cells).unwrap();
            let found = occurrences(&page, word.as_bytes());
            assert_eq!(found.len(), count_independently(&page, word.as_bytes()), "{word}: {:?}", page.rows_text());
            for o in &found {
                let read: Vec<u8> =
                    o.cells.iter().map(|&(r, c)| page.letter(r as isize, c as isize).unwrap()).collect();
                assert_eq!(read, word.as_bytes());
                let (dr, dc) = o.direction.step();
                assert!(o
                    .cells
                    .windows(2)
                    .all(|w| (w[1].0 as isize - w[0].0 as isize, w[1].1 as isize - w[0].1 as isize) == (dr, dc)));
            }
        }
    }
}

#[test]
fn books_respect_every_shape() {
    let masks = Shape::Mask(vec!["..........".into(), ".########.".into(), ".#  ..  #.".into(), "..........".into()]);
    for (word, letters, shape, rows, cols) in [
        ("CAT", "CAT", Shape::Rectangle, 32, 20),
        ("OWL", "OWL", Shape::Heart, 24, 24),
        ("BEE", "BEZ", Shape::Circle, 20, 30),
        ("FOX", "FOX", Shape::Star, 30, 30),
        ("FOX", "FOXZ", Shape::Fox, 28, 28),
        ("NOON", "NO", masks, 4, 10),
        ("GIRAFFE", "GIRAFE", Shape::Circle, 40, 40),
    ] {
        let s = spec(word, letters, shape, 70, rows, cols);
        let plan = s.validate().unwrap();
        let b = generate(&s, seed_from(3, 9), &mut Unmonitored).unwrap();
        b.verify().unwrap_or_else(|e| panic!("{word} {:?}: {e}", s.shape));
        for page in &b.pages {
            assert!(page.fits(&plan.mask, &plan.letters));
            let no_cells = page.cells().iter().filter(|&&c| c == NO_CELL).count();
            assert_eq!(no_cells, rows as usize * cols as usize - plan.mask.count());
        }
        let hits: usize = b.pages.iter().map(|p| count_independently(p, word.as_bytes())).sum();
        assert_eq!(hits, 1, "{word}");
        assert_eq!(b.answer.word, word);
    }
}

#[test]
fn built_in_shapes_look_like_their_names() {
    let at = |m: &Mask, r: usize, c: usize| m.cells[r * m.cols + c];
    let circle = Shape::Circle.cells(21, 21).unwrap();
    assert!(at(&circle, 10, 10) && at(&circle, 0, 10) && at(&circle, 10, 0) && !at(&circle, 0, 0));
    let heart = Shape::Heart.cells(21, 21).unwrap();
    // Two lobes with a notch between them at the top, a point at the bottom.
    assert!(at(&heart, 3, 5) && at(&heart, 3, 15) && !at(&heart, 1, 10) && at(&heart, 19, 10) && !at(&heart, 19, 3));
    let star = Shape::Star.cells(21, 21).unwrap();
    assert!(at(&star, 1, 10) && !at(&star, 1, 4) && at(&star, 10, 10) && !at(&star, 20, 10));
    let fox = Shape::Fox.cells(21, 21).unwrap();
    // Ears at the top corners, a gap between them, the snout at the bottom middle.
    assert!(at(&fox, 1, 1) && at(&fox, 1, 19) && !at(&fox, 1, 10) && at(&fox, 20, 10) && !at(&fox, 20, 3));
    for shape in [Shape::Heart, Shape::Circle, Shape::Star, Shape::Fox] {
        let m = shape.cells(32, 20).unwrap();
        assert!(m.count() > 200 && m.count() < 640, "{shape:?}: {}", m.count());
    }
}

#[test]
fn refusals_name_the_field() {
    let field = |s: WordSpec| s.validate().unwrap_err().field;
    let base = WordSpec::default();
    assert_eq!(base.validate().unwrap().letters, b"FOX");
    assert_eq!(field(WordSpec { word: "F".into(), ..base.clone() }), "word");
    assert_eq!(field(WordSpec { word: "FOXFOXFOX".into(), ..base.clone() }), "word");
    assert_eq!(field(WordSpec { word: "fox".into(), ..base.clone() }), "word");
    assert_eq!(field(WordSpec { letters: Some("FO".into()), ..base.clone() }), "letters");
    assert_eq!(field(WordSpec { letters: Some("FOXX".into()), ..base.clone() }), "letters");
    assert_eq!(field(WordSpec { letters: Some("ABCDEFGHI".into()), ..base.clone() }), "letters");
    // Unavoidable: one letter only.
    let e = WordSpec { word: "AA".into(), ..base.clone() }.validate().unwrap_err();
    assert_eq!(e.field, "letters");
    assert!(e.detail.contains("every page would contain AA"), "{e}");
    // No letter that is neither first nor last: refused, naming a letter to add.
    let e = WordSpec { word: "CAT".into(), letters: Some("CT".into()), ..base.clone() }.validate().unwrap_err();
    assert_eq!(e.field, "letters");
    let e = WordSpec { word: "AB".into(), ..base.clone() }.validate().unwrap_err();
    assert_eq!(e.field, "letters");
    assert!(e.detail.contains("add one, e.g. C"), "{e}");
    // Two different letters on three letters: refused as too slow to mix.
    let e = WordSpec { word: "AB".into(), letters: Some("ABC".into()), ..base.clone() }.validate().unwrap_err();
    assert_eq!(e.field, "letters");
    assert!(e.detail.contains("mixes too slowly") && e.detail.contains("add D"), "{e}");
    assert!(WordSpec { word: "AB".into(), letters: Some("ABCD".into()), ..base.clone() }.validate().is_ok());
    assert!(WordSpec { word: "AA".into(), letters: Some("AB".into()), ..base.clone() }.validate().is_ok());
    // Cannot fit the shape.
    let e = WordSpec { word: "ELEPHANT".into(), rows: 5, cols: 7, ..base.clone() }.validate().unwrap_err();
    assert_eq!(e.field, "shape");
    let mask = Shape::Mask(vec!["..#.".into(), "####".into(), ".#..".into()]);
    assert_eq!(field(WordSpec { word: "CAT".into(), shape: mask, rows: 3, cols: 4, ..base.clone() }), "shape");
    let mask = Shape::Mask(vec!["..x".into(), "...".into(), "...".into()]);
    assert_eq!(field(WordSpec { shape: mask, rows: 3, cols: 3, ..base.clone() }), "shape");
    let mask = Shape::Mask(vec!["...".into(), "...".into()]);
    assert_eq!(field(WordSpec { shape: mask, rows: 3, cols: 3, ..base.clone() }), "shape");
    assert_eq!(field(WordSpec { rows: 65, ..base.clone() }), "rows");
    assert_eq!(field(WordSpec { pages: 0, ..base }), "pages");
    // Shape names parse, and masks as lines; anything else is refused, naming the shapes.
    assert_eq!(Shape::parse("heart"), Ok(Shape::Heart));
    assert_eq!(Shape::parse(".#\n##"), Ok(Shape::Mask(vec![".#".into(), "##".into()])));
    assert!(Shape::parse("hearts").unwrap_err().contains("heart, circle, star, fox"));
}

#[test]
fn shapes_are_names_or_arrays_of_rows_in_json() {
    let parse = |json: &str| serde_json::from_str::<Shape>(json).map_err(|e| e.to_string());
    assert_eq!(parse(r#""star""#), Ok(Shape::Star));
    assert_eq!(parse(r###"[".#", "##"]"###), Ok(Shape::Mask(vec![".#".into(), "##".into()])));
    assert!(parse(r#""square""#).unwrap_err().contains("unknown shape"));
    assert!(parse("7").unwrap_err().contains("a shape's name"));
    let huge = serde_json::to_string(&vec!["."; 65]).unwrap();
    assert!(parse(&huge).unwrap_err().contains("at most 64 rows"));
    for shape in [Shape::Heart, Shape::Mask(vec!["..".into()])] {
        assert_eq!(parse(&serde_json::to_string(&shape).unwrap()), Ok(shape));
    }
}

#[test]
fn word_page_index_is_uniform_and_books_are_deterministic() {
    let s = spec("CAT", "CAT", Shape::Rectangle, 5, 3, 3);
    let mut counts = HashMap::new();
    for i in 0..3000 {
        *counts.entry(generate(&s, seed_from(i, 11), &mut Unmonitored).unwrap().answer.page).or_insert(0usize) += 1;
    }
    let law: HashMap<u32, f64> = (1..=5).map(|p| (p, 0.2)).collect();
    assert!(fit(&counts, &law) >= 0.001, "{counts:?}");
    let s = spec("NOON", "NO", Shape::Heart, 90, 12, 12);
    let a = generate(&s, seed_from(1, 1), &mut Unmonitored).unwrap();
    assert_eq!(a, generate(&s, seed_from(1, 1), &mut Unmonitored).unwrap());
    assert_ne!(a.text(), generate(&s, seed_from(2, 1), &mut Unmonitored).unwrap().text());
}

#[test]
fn autocorrelation_times_fit_the_budget() {
    use super::chain::mixing_budget;
    use super::diagnostics::{autocorrelation_times, ChainKind};
    for (word, letters, shape, rows, cols) in [
        ("CAT", "CAT", Shape::Rectangle, 32, 20),
        ("NOON", "NO", Shape::Rectangle, 32, 20),
        ("OWL", "OWLS", Shape::Heart, 24, 24),
        ("AB", "ABCD", Shape::Rectangle, 32, 20),
        ("ELEPHANT", "ELPHANTS", Shape::Rectangle, 32, 20),
    ] {
        let plan = spec(word, letters, shape, 1, rows, cols).validate().unwrap();
        let spacing = mixing_budget(&plan).1 as f64;
        for kind in [ChainKind::Free, ChainKind::AtMostOne] {
            let t = autocorrelation_times(&plan, kind, 1200, 3);
            assert!(5.0 * t.max() <= spacing, "{word} {kind:?}: {t:?}");
        }
    }
}

#[test]
fn weights_by_plan() {
    let w = |word: &str, letters: &str, rows: u32, cols: u32| {
        weight_log2(&spec(word, letters, Shape::Rectangle, 1, rows, cols).validate().unwrap())
    };
    // FOX on 32 x 20: the FOX engine's λ = 2^-7.
    assert_eq!(w("FOX", "FOX", 32, 20), -7);
    // On 3 x 3 the exact counts give Z0 / Z1 = 11645 / 5216, about 2 (the FOX engine caps λ
    // at 1 there).
    assert_eq!(w("FOX", "FOX", 3, 3), 1);
    assert_eq!(w("ELEPHANT", "ELPHANTS", 32, 20), MAX_WEIGHT_LOG2);
}

#[test]
fn built_in_shapes_reach_every_edge_of_the_page_and_are_mirror_symmetric() {
    // Pages of 9 cells or more a side: smaller ones are too coarse for the outlines' tips.
    for shape in [Shape::Heart, Shape::Circle, Shape::Star, Shape::Fox] {
        for rows in [9, 12, 16, 24, 31, 32, 64] {
            // Pages up to twice as wide as high or high as wide.
            for cols in [9, 10, 16, 20, 33, 64].into_iter().filter(|&c| c <= 2 * rows && rows <= 2 * c) {
                let m = shape.cells(rows, cols).unwrap();
                let row = |r: usize| (0..cols).any(|c| m.cells[r * cols + c]);
                let col = |c: usize| (0..rows).any(|r| m.cells[r * cols + c]);
                let edges = [row(0), row(rows - 1), col(0), col(cols - 1)];
                assert_eq!(edges, [true; 4], "{shape:?} {rows}x{cols}:\n{}", m.rows_text().join("\n"));
                for r in 0..rows {
                    let line = &m.cells[r * cols..(r + 1) * cols];
                    assert!(line.iter().eq(line.iter().rev()), "{shape:?} {rows}x{cols} row {r} is not symmetric");
                }
            }
        }
    }
}
