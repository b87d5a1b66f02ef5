//! A book of word searches: puzzles each made from its own list, or from lists drawn out
//! of one themed pool; every puzzle's seed is derived from the book's, so the book is a
//! pure function of its puzzles' requests and one seed, whatever order they are made in.

use super::{generate_counted, inside, invalid, Error, Puzzle, Spec, Work, LETTERS_RANGE, WORDS_RANGE};
use crate::puzzles::crossword::words::normalise;
use crate::puzzles::monitor::{Monitor, Within};
use crate::puzzles::rng::Rng;

/// Puzzles a book holds.
pub const PUZZLES_RANGE: std::ops::RangeInclusive<usize> = 1..=500;
/// Words a pool holds at most.
pub const MAX_POOL: usize = 5_000;

/// The seed of puzzle `index` (from 0) of the book drawn from `seed`: stream `index` of a
/// key set apart from the pool's draw.
pub fn puzzle_seed(seed: u64, index: usize) -> u64 {
    Rng::stream(key(seed, b"puzzles\0"), index as u64).next_u64() >> 11
}

fn key(seed: u64, purpose: &[u8; 8]) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(purpose);
    key
}

/// `count` lists of `per_puzzle` words drawn from `pool`: the pool is dealt in a shuffled
/// order, a new shuffle when it runs out, so every word is used about as often as any
/// other; a word that is part of one already in the list (or contains it, forwards or
/// backwards) waits for the next list unless `allow_contained`. Refused naming the field:
/// a pool word that is not a word (`pool[i]`), too small a pool (`words_per_puzzle`).
pub fn draw_lists(
    pool: &[String],
    count: usize,
    per_puzzle: usize,
    allow_contained: bool,
    seed: u64,
) -> Result<Vec<Vec<String>>, Error> {
    if pool.len() > MAX_POOL {
        return Err(invalid("pool", format!("{} words; a pool holds at most {MAX_POOL}", pool.len())));
    }
    if !PUZZLES_RANGE.contains(&count) {
        return Err(invalid(
            "count",
            format!("{count} puzzles; a book holds {} to {}", PUZZLES_RANGE.start(), PUZZLES_RANGE.end()),
        ));
    }
    if !WORDS_RANGE.contains(&per_puzzle) {
        return Err(invalid(
            "words_per_puzzle",
            format!("{per_puzzle}; a puzzle takes {} to {} words", WORDS_RANGE.start(), WORDS_RANGE.end()),
        ));
    }
    // The pool's words, each once (by their letters), in the order given.
    let mut words: Vec<(String, Vec<u8>)> = Vec::with_capacity(pool.len());
    for (i, given) in pool.iter().enumerate() {
        let field = format!("pool[{i}]");
        let letters = normalise(given).map_err(|e| invalid(&field, e))?;
        if !LETTERS_RANGE.contains(&letters.len()) {
            return Err(invalid(&field, format!("{given:?} has {} letters; a word has 3 to 20", letters.len())));
        }
        if !words.iter().any(|(_, l)| *l == letters) {
            words.push((given.trim().to_string(), letters));
        }
    }
    if words.len() < per_puzzle {
        return Err(invalid(
            "words_per_puzzle",
            format!("{per_puzzle} words a puzzle, but the pool has {} different words", words.len()),
        ));
    }
    // Either inside the other, forwards or backwards, as the puzzle's own check reads them.
    let clash = |a: &[u8], b: &[u8]| inside(a, b) || inside(b, a);
    let mut rng = Rng::stream(key(seed, b"pool\0\0\0\0"), 0);
    let shuffle = |rng: &mut Rng| {
        let mut order: Vec<usize> = (0..words.len()).collect();
        rng.shuffle(&mut order);
        order
    };
    let mut deck: std::collections::VecDeque<usize> = shuffle(&mut rng).into();
    let mut lists = Vec::with_capacity(count);
    for _ in 0..count {
        let mut chosen: Vec<usize> = Vec::with_capacity(per_puzzle);
        let mut waiting: Vec<usize> = Vec::new();
        // Every word looked at twice (two decks) without filling the list: it cannot be.
        let mut looked = 0;
        while chosen.len() < per_puzzle {
            if looked > 2 * words.len() {
                return Err(invalid(
                    "words_per_puzzle",
                    format!(
                        "{per_puzzle} words a puzzle, but the pool has fewer words none of which is part of \
                         another; set allow_contained, or give a smaller words_per_puzzle"
                    ),
                ));
            }
            looked += 1;
            let w = match deck.pop_front() {
                Some(w) => w,
                None => {
                    deck = shuffle(&mut rng).into();
                    continue;
                }
            };
            let fits =
                !chosen.contains(&w) && (allow_contained || chosen.iter().all(|&c| !clash(&words[w].1, &words[c].1)));
            if fits {
                chosen.push(w);
            } else {
                waiting.push(w);
            }
        }
        // Words set aside come first in the next list.
        for w in waiting.into_iter().rev() {
            deck.push_front(w);
        }
        lists.push(chosen.into_iter().map(|w| words[w].0.clone()).collect());
    }
    Ok(lists)
}

/// Why a book was not made: the puzzle at fault (from 0) and why, the work it was allowed
/// done by the end of puzzle `index`, or cancelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    Puzzle { index: usize, error: Error },
    OverBudget { index: usize, units: u64 },
    Cancelled,
}

/// Every puzzle of a book, puzzle `i` from `specs[i]` and [`puzzle_seed`]`(seed, i)`,
/// stopped once it has taken more than `max_units` of work (see [`super::cost`]), so that
/// a book costs at most its caller's allowance whatever its estimate said; `monitor` sees
/// the puzzles made and may stop it.
pub fn generate_book(
    specs: &[Spec],
    seed: u64,
    max_units: u64,
    monitor: &mut dyn Monitor,
) -> Result<Vec<Puzzle>, BookError> {
    let total = specs.len() as u64;
    let mut puzzles = Vec::with_capacity(specs.len());
    let mut units = 0u64;
    for (index, spec) in specs.iter().enumerate() {
        let mut within = Within { outer: monitor, done: index as u64, total };
        let mut work = Work::default();
        let made = generate_counted(spec, puzzle_seed(seed, index), &mut within, &mut work, u64::MAX);
        units = units.saturating_add(work.units());
        match made {
            Ok(p) => puzzles.push(p),
            Err(Error::Cancelled) => return Err(BookError::Cancelled),
            Err(error) => return Err(BookError::Puzzle { index, error }),
        }
        if units > max_units {
            return Err(BookError::OverBudget { index, units });
        }
    }
    if !monitor.update(total, total) {
        return Err(BookError::Cancelled);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;

    fn pool(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn lists_drawn_from_a_pool_use_every_word_evenly_and_never_one_inside_another() {
        let pool = pool(&[
            "robin", "wren", "owl", "crow", "magpie", "sparrow", "starling", "finch", "thrush", "heron", "swan",
            "goose", "eagle", "hawk", "falcon", "kite", "raven", "rook", "jay", "dove", "pigeon", "swift", "owlet",
            "martin", "lark", "plover", "curlew", "gull", "tern", "puffin",
        ]);
        let lists = draw_lists(&pool, 12, 10, false, 5).unwrap();
        assert_eq!(lists.len(), 12);
        let mut uses = std::collections::HashMap::new();
        for list in &lists {
            assert_eq!(list.len(), 10);
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 10, "{list:?}");
            // OWLET holds OWL: never both in a list.
            assert!(!(list.contains(&"owl".to_string()) && list.contains(&"owlet".to_string())), "{list:?}");
            for w in list {
                *uses.entry(w.clone()).or_insert(0) += 1;
            }
        }
        // 120 draws from 30 words: each used 4 times, give or take the words set aside.
        assert_eq!(uses.len(), 30);
        assert!(uses.values().all(|&n| (3..=5).contains(&n)), "{uses:?}");
        assert_eq!(lists, draw_lists(&pool, 12, 10, false, 5).unwrap(), "deterministic");
        assert_ne!(lists, draw_lists(&pool, 12, 10, false, 6).unwrap());
    }

    #[test]
    fn no_list_drawn_holds_a_word_inside_another_read_backwards() {
        // ROBIN, NIBOR, NIBORS and SNIBOR each read inside the others, some only backwards.
        let pool = pool(&["robin", "nibor", "owl", "crow", "wren", "nibors", "snibor", "heron", "swan", "lark"]);
        for seed in 0..300 {
            for list in draw_lists(&pool, 6, 5, false, seed).unwrap() {
                let spec = Spec { words: list.clone(), rows: 10, cols: 10, ..Spec::default() };
                assert_eq!(super::super::check(&spec), Ok(()), "seed {seed}: {list:?}");
            }
        }
    }

    #[test]
    fn a_pool_too_small_or_not_words_is_refused_naming_the_field() {
        let field = |r: Result<Vec<Vec<String>>, Error>| match r {
            Err(Error::Invalid { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(draw_lists(&pool(&["cat", "dog", "cow"]), 2, 4, false, 1)), "words_per_puzzle");
        assert_eq!(field(draw_lists(&pool(&["cat", "dog", "x1"]), 2, 3, false, 1)), "pool[2]");
        // Four words, but CAT is in CATS and SCAT: no list of 4 without one inside another.
        assert_eq!(field(draw_lists(&pool(&["cat", "cats", "scat", "dog"]), 1, 4, false, 1)), "words_per_puzzle");
        assert!(draw_lists(&pool(&["cat", "cats", "scat", "dog"]), 1, 4, true, 1).is_ok());
        assert_eq!(field(draw_lists(&pool(&["cat", "dog", "cow"]), 501, 3, false, 1)), "count");
    }

    #[test]
    fn a_book_is_the_same_whatever_else_and_names_the_puzzle_at_fault() {
        let spec = |words: &[&str]| Spec { words: pool(words), rows: 10, cols: 10, ..Spec::default() };
        let specs = [spec(&["robin", "wren", "owl"]), spec(&["heron", "swan", "goose", "eagle"])];
        let book = generate_book(&specs, 3, u64::MAX, &mut Unmonitored).unwrap();
        assert_eq!(book[1], super::super::generate(&specs[1], puzzle_seed(3, 1), &mut Unmonitored).unwrap());
        assert_ne!(puzzle_seed(3, 0), puzzle_seed(3, 1));
        let bad = [specs[0].clone(), spec(&["abcdefghijklmnopqrst", "wren", "owl"])];
        match generate_book(&bad, 3, u64::MAX, &mut Unmonitored) {
            Err(BookError::Puzzle { index: 1, error: Error::NoRoom { words } }) => {
                assert_eq!(words, ["abcdefghijklmnopqrst"])
            }
            other => panic!("{other:?}"),
        }
        struct StopAt(u64);
        impl Monitor for StopAt {
            fn update(&mut self, done: u64, _: u64) -> bool {
                done < self.0
            }
        }
        assert_eq!(generate_book(&specs, 3, u64::MAX, &mut StopAt(1)), Err(BookError::Cancelled));
        // Past its work allowance a book stops, naming the puzzle it had come to.
        match generate_book(&specs, 3, 1, &mut Unmonitored) {
            Err(BookError::OverBudget { index: 0, units }) => assert!(units > 1),
            other => panic!("{other:?}"),
        }
    }
}
