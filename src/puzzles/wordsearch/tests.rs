use std::collections::{HashMap, HashSet};

use super::fill::Chain;
use super::grid::{Grid, Trie, FREE};
use super::*;
use crate::puzzles::chisq;
use crate::puzzles::monitor::Unmonitored;

/// Every occurrence of `word` in `rows` along the eight directions, as sets of cells
/// (a palindrome read both ways is one): a scanner of its own, sharing nothing with the
/// engine's trie.
fn scan(rows: &[String], word: &[u8]) -> HashSet<Vec<(usize, usize)>> {
    let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
    let mut out = HashSet::new();
    for r in 0..grid.len() {
        for c in 0..grid[r].len() {
            for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let mut cells = Vec::new();
                for (k, &b) in word.iter().enumerate() {
                    let (rr, cc) = (r as isize + dr * k as isize, c as isize + dc * k as isize);
                    if rr < 0 || cc < 0 || rr as usize >= grid.len() || cc as usize >= grid[rr as usize].len() {
                        break;
                    }
                    if grid[rr as usize][cc as usize] != b {
                        break;
                    }
                    cells.push((rr as usize, cc as usize));
                }
                if cells.len() == word.len() {
                    cells.sort_unstable();
                    out.insert(cells);
                }
            }
        }
    }
    out
}

fn blocked_words() -> Vec<Vec<u8>> {
    BLOCKLIST
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| normalise(l.trim()).ok())
        .filter(|w| w.len() >= 3)
        .collect()
}

/// Checks the rules with the scanner: each list word once (copies inside another placed
/// word's cells aside), no blocked or avoided word outside a placed word's cells.
fn assert_exact(p: &Puzzle, avoid: &[Vec<u8>], blocked: &[Vec<u8>]) {
    let placed: Vec<HashSet<(usize, usize)>> =
        p.words.iter().map(|w| w.cells.iter().map(|c| (c[0], c[1])).collect()).collect();
    let inside_a_word = |cells: &Vec<(usize, usize)>| placed.iter().any(|s| cells.iter().all(|c| s.contains(c)));
    for (i, w) in p.words.iter().enumerate() {
        let found = scan(&p.rows, w.letters.as_bytes());
        let own: Vec<(usize, usize)> = {
            let mut v: Vec<_> = placed[i].iter().copied().collect();
            v.sort_unstable();
            v
        };
        assert!(found.contains(&own), "{} not where it is said to be\n{}", w.letters, p.rows.join("\n"));
        let others = found.iter().filter(|c| **c != own && !inside_a_word(c)).count();
        assert_eq!(others, 0, "{} found twice\n{}", w.letters, p.rows.join("\n"));
    }
    for word in avoid.iter().chain(blocked) {
        let bad: Vec<_> = scan(&p.rows, word).into_iter().filter(|c| !inside_a_word(c)).collect();
        assert!(bad.is_empty(), "{} spelled at {bad:?}\n{}", text(word), p.rows.join("\n"));
    }
}

fn spec(words: &[&str], side: usize, level: Level) -> Spec {
    Spec { words: words.iter().map(|w| w.to_string()).collect(), rows: side, cols: side, level, ..Spec::default() }
}

const BIRDS: [&str; 12] =
    ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl", "heron", "swift", "finch", "raven"];

#[test]
fn thousands_of_puzzles_hold_each_word_once_and_nothing_blocked() {
    let blocked = blocked_words();
    let avoid = vec![b"ROW".to_vec(), b"NEST".to_vec()];
    let levels = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];
    let mut shared = 0;
    for seed in 0..1200u64 {
        let level = levels[seed as usize % 4];
        let mut s = spec(&BIRDS, 12 + (seed % 3) as usize, level);
        s.avoid = vec!["row".into(), "nest".into()];
        if seed % 5 == 0 {
            s.filler = Filler::WordLetters;
        }
        // "crow" holds ROW, an avoided word: inside its own cells it does not count.
        let p = generate(&s, seed, &mut Unmonitored).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_exact(&p, &avoid, &blocked);
        assert_eq!(p.words.len(), BIRDS.len());
        for w in &p.words {
            let d = grid::DIRECTIONS.iter().position(|d| d.0 == w.direction).unwrap();
            assert!(level.directions().contains(&d), "{level:?} placed {} {}", w.letters, w.direction);
        }
        let cells: Vec<[usize; 2]> = p.words.iter().flat_map(|w| w.cells.clone()).collect();
        let distinct: HashSet<[usize; 2]> = cells.iter().copied().collect();
        if level == Level::Easy {
            assert_eq!(distinct.len(), cells.len(), "easy puzzles share no letters");
        }
        if level == Level::Expert {
            shared += cells.len() - distinct.len();
        }
        if s.filler == Filler::WordLetters {
            let letters: HashSet<char> =
                BIRDS.iter().flat_map(|w| w.to_uppercase().chars().collect::<Vec<_>>()).collect();
            assert!(p.rows.iter().flat_map(|r| r.chars()).all(|c| letters.contains(&c)));
        }
    }
    assert!(shared > 300, "expert puzzles cross often: {shared} shared cells in 300");
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    let s = spec(&BIRDS, 13, Level::Hard);
    let a = generate(&s, 42, &mut Unmonitored).unwrap();
    assert_eq!(a, generate(&s, 42, &mut Unmonitored).unwrap());
    assert_ne!(a.rows, generate(&s, 43, &mut Unmonitored).unwrap().rows);
    assert_eq!(a.words[2].word, "blue tit");
    assert_eq!(a.words[2].letters, "BLUETIT");
}

#[test]
fn refusals_name_the_words_at_fault() {
    let field = |r: Result<Puzzle, Error>| match r {
        Err(Error::Invalid { field, detail }) => (field, detail),
        other => panic!("{other:?}"),
    };
    let (f, d) = field(generate(&spec(&["cat", "dog", "cats"], 10, Level::Hard), 1, &mut Unmonitored));
    assert_eq!(f, "words[0]");
    assert!(d.contains("CAT is part of CATS (words[2])"), "{d}");
    // Reversed too: TAC in ATTACK.
    let (f, d) = field(generate(&spec(&["attack", "dog", "tac"], 10, Level::Hard), 1, &mut Unmonitored));
    assert_eq!((f.as_str(), d.contains("TAC is part of ATTACK")), ("words[2]", true));
    let mut allowed = spec(&["cat", "dog", "cats", "emu"], 10, Level::Hard);
    allowed.allow_contained = true;
    let p = generate(&allowed, 1, &mut Unmonitored).unwrap();
    assert_exact(&p, &[], &blocked_words());
    let (f, _) = field(generate(&spec(&["cat", "dog", "Cat"], 10, Level::Hard), 1, &mut Unmonitored));
    assert_eq!(f, "words[2]");
    let (f, _) = field(generate(&spec(&["cat", "ox", "dog"], 10, Level::Hard), 1, &mut Unmonitored));
    assert_eq!(f, "words[1]");
    let (f, _) = field(generate(&spec(&["cat", "dog"], 10, Level::Hard), 1, &mut Unmonitored));
    assert_eq!(f, "words");
    let (f, _) = field(generate(&spec(&["cat", "dog", "emu"], 4, Level::Hard), 1, &mut Unmonitored));
    assert_eq!(f, "rows");
    // A word longer than any line: named at once.
    let r = generate(&spec(&["cat", "dog", "hippopotamuses"], 6, Level::Easy), 1, &mut Unmonitored);
    assert_eq!(r, Err(Error::NoRoom { words: vec!["hippopotamuses".into()] }));
    // Too many letters for the cells: the search gives up within its budget and names
    // the words it could not place.
    let many: Vec<String> = (0..40)
        .map(|i| format!("{}{}", ["lark", "kite", "rook", "teal"][i % 4], "abcdefghij".chars().nth(i / 4).unwrap()))
        .collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    match generate(&spec(&many, 8, Level::Easy), 1, &mut Unmonitored) {
        Err(Error::NoRoom { words }) => assert!(!words.is_empty() && words.len() < 40, "{words:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_message_fills_the_leftover_cells_or_is_refused() {
    let mut s = spec(&["cat", "dog", "emu", "yak", "gnu"], 5, Level::Easy);
    s.message = Some("x".repeat(100));
    let (f, d) = match generate(&s, 3, &mut Unmonitored) {
        Err(Error::Invalid { field, detail }) => (field, detail),
        other => panic!("{other:?}"),
    };
    assert_eq!(f, "message");
    assert!(d.contains("100 letters, but 10 cells are left"), "{d}");
    s.message = Some("Hidden bird".into());
    let p = generate(&s, 3, &mut Unmonitored).unwrap();
    let placed: HashSet<[usize; 2]> = p.words.iter().flat_map(|w| w.cells.clone()).collect();
    let rest: String = p
        .rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| row.chars().enumerate().map(move |(c, ch)| ([r, c], ch)))
        .filter(|(rc, _)| !placed.contains(rc))
        .map(|(_, ch)| ch)
        .collect();
    assert_eq!(rest, "HIDDENBIRD");
    assert_exact(&p, &[], &blocked_words());
}

/// All fillings of the free cells over `alphabet`, keeping those that spell nothing.
fn enumerate(grid: &Grid, trie: &Trie, alphabet: &[u8]) -> Vec<Vec<u8>> {
    let free: Vec<usize> = (0..grid.cells.len()).filter(|&p| grid.cells[p] == FREE).collect();
    let mut out = Vec::new();
    let mut g = grid.clone();
    let n = free.len() as u32;
    for code in 0..(alphabet.len() as u64).pow(n) {
        let mut x = code;
        for &p in &free {
            g.cells[p] = alphabet[(x % alphabet.len() as u64) as usize];
            x /= alphabet.len() as u64;
        }
        if free.iter().all(|&p| !trie.any_through(&g, p)) {
            out.push(free.iter().map(|&p| g.cells[p]).collect());
        }
    }
    out
}

#[test]
fn the_filler_is_uniform_over_the_allowed_fillings() {
    // 4 x 4, ABC and BCA placed, a three-letter alphabet: every filling of the other ten
    // cells enumerated, those spelling ABC or BCA again (or CAB, avoided) dropped, and the
    // chain's draws compared with the uniform law on what is left, cell triples at a time.
    let mut grid = Grid::new(4, 4, &[true; 16]);
    for (p, b) in [(0, b'A'), (1, b'B'), (2, b'C'), (7, b'B'), (11, b'C'), (15, b'A')] {
        grid.cells[p] = b;
    }
    let trie = Trie::new([&b"ABC"[..], b"BCA", b"CAB"]);
    let alphabet = [b'A', b'B', b'C'];
    let allowed = enumerate(&grid, &trie, &alphabet);
    assert!(allowed.len() > 100 && allowed.len() < 59_049, "{} allowed", allowed.len());
    let free: Vec<usize> = (0..16).filter(|&p| grid.cells[p] == FREE).collect();
    let triples = [[0, 1, 2], [3, 5, 9], [4, 6, 8], [1, 7, 9]];
    let mut observed: Vec<HashMap<[u8; 3], usize>> = vec![HashMap::new(); triples.len()];
    let draws = 6000;
    for seed in 0..draws {
        let mut chain = Chain::new(grid.clone(), &trie, &alphabet);
        let mut rng = Rng::from_u64(seed);
        let mut budget = u64::MAX;
        chain.run(&mut rng, &mut budget, |_| false).expect("a filling");
        let x: Vec<u8> = free.iter().map(|&p| chain.grid.cells[p]).collect();
        assert!(allowed.contains(&x));
        for (t, cells) in triples.iter().enumerate() {
            *observed[t].entry(cells.map(|i| x[i])).or_default() += 1;
        }
    }
    for (t, cells) in triples.iter().enumerate() {
        let mut exact: HashMap<[u8; 3], f64> = HashMap::new();
        for x in &allowed {
            *exact.entry(cells.map(|i| x[i])).or_default() += 1.0 / allowed.len() as f64;
        }
        let p = chisq::fit(&observed[t], &exact);
        assert!(p > 1e-4, "cells {cells:?}: p = {p}");
    }
}

#[test]
fn the_chain_mixes_within_a_few_sweeps() {
    // A 15 x 15 hard puzzle's filler: the integrated autocorrelation time of a cell's
    // letter (as a vowel indicator) and of the count of E, in sweeps.
    let s = spec(&BIRDS, 15, Level::Hard);
    let words = check_words(&s).unwrap();
    let letters: Vec<&[u8]> = words.iter().map(|w| w.letters.as_slice()).collect();
    let trie = Trie::new(forbidden(&s, &words).unwrap().iter().map(Vec::as_slice));
    let mut rng = Rng::from_u64(9);
    let empty = cells(&s).unwrap();
    let placed =
        place::place(&empty, &letters, s.level, &trie, &mut rng, &mut PLACEMENT_BUDGET.clone(), &mut |_| true).unwrap();
    let mut grid = empty.clone();
    for p in &placed {
        for (k, &q) in p.cells.iter().enumerate() {
            grid.cells[q] = letters[p.word][k];
        }
    }
    let alphabet: Vec<u8> = (b'A'..=b'Z').collect();
    let mut chain = Chain::new(grid, &trie, &alphabet);
    for _ in 0..fill::BURN_IN {
        chain.sweep(&mut rng);
    }
    let cell = chain.free()[chain.free().len() / 2];
    let (mut vowel, mut es) = (Vec::new(), Vec::new());
    for _ in 0..4000 {
        chain.sweep(&mut rng);
        vowel.push(b"AEIOU".contains(&chain.grid.cells[cell]) as u8 as f64);
        es.push(chain.grid.cells.iter().filter(|&&b| b == b'E').count() as f64);
    }
    let (t1, t2) = (fill::autocorrelation(&vowel), fill::autocorrelation(&es));
    assert!(t1 < 4.0 && t2 < 4.0, "tau: {t1:.2}, {t2:.2} sweeps");
    assert!(fill::BURN_IN as f64 > 5.0 * t1.max(t2));
    assert!(chain.refused * 20 < chain.proposals, "{} of {} refused", chain.refused, chain.proposals);
}
