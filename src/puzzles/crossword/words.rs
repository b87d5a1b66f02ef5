//! Word lists: the bundled English list (from Debian's `wamerican`, see
//! `data/words.LICENSE`) or one supplied by the request, and the per-length
//! letter-position bitset index the fill search filters candidates with.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::puzzles::rng::Rng;

use super::error::CrosswordError;
use super::grid::MAX_SIZE;

/// Lowercase ASCII words of `/usr/share/dict/american-english` (wamerican 2020.12.07-2),
/// 3..=21 letters, no apostrophes, uppercased, one per line.
pub const DEFAULT_WORDS: &str = include_str!("../../../data/words.txt");

/// Distinct uppercase words (`A-Z` only), grouped by length, each group in first-seen order.
#[derive(Clone, Debug)]
pub struct WordList {
    /// Words of length `len`, concatenated, at `by_len[len]`.
    by_len: Vec<Vec<u8>>,
    total: usize,
}

impl WordList {
    /// The bundled English list (parsed once).
    pub fn english() -> &'static WordList {
        static LIST: OnceLock<WordList> = OnceLock::new();
        LIST.get_or_init(|| {
            let lines: Vec<&str> = DEFAULT_WORDS.lines().collect();
            WordList::from_words(&lines).expect("bundled word list is valid")
        })
    }

    /// A request's own list (validated), or the bundled English one when it gives none.
    /// The length of a request's list is checked against [`super::Limits::max_words`]
    /// before this is called.
    pub fn chosen(words: Option<&[String]>) -> Result<std::borrow::Cow<'static, WordList>, CrosswordError> {
        Ok(match words {
            Some(words) => std::borrow::Cow::Owned(WordList::from_words(words)?),
            None => std::borrow::Cow::Borrowed(WordList::english()),
        })
    }

    /// Validates and uppercases a supplied list: every word must be non-empty ASCII
    /// letters; duplicates (after uppercasing) and words longer than 21 letters (they fit
    /// no grid) are dropped.
    pub fn from_words<S: AsRef<str>>(words: &[S]) -> Result<WordList, CrosswordError> {
        let mut seen: HashSet<Vec<u8>> = HashSet::with_capacity(words.len());
        let mut list = WordList { by_len: Vec::new(), total: 0 };
        for (index, word) in words.iter().enumerate() {
            let word = word.as_ref();
            if word.is_empty() {
                return Err(CrosswordError::BadWord { index, message: "empty word".into() });
            }
            if let Some(ch) = word.chars().find(|c| !c.is_ascii_alphabetic()) {
                return Err(CrosswordError::BadWord {
                    index,
                    message: format!("{word:?} contains {ch:?}; words may only contain the letters A-Z"),
                });
            }
            if word.len() > MAX_SIZE {
                continue; // fits no slot of any grid
            }
            let upper = word.to_ascii_uppercase().into_bytes();
            if list.by_len.len() <= upper.len() {
                list.by_len.resize(upper.len() + 1, Vec::new());
            }
            list.by_len[upper.len()].extend_from_slice(&upper);
            if seen.insert(upper) {
                list.total += 1;
            } else {
                let group = &mut list.by_len[word.len()];
                group.truncate(group.len() - word.len());
            }
        }
        Ok(list)
    }

    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub fn contains(&self, word: &str) -> bool {
        self.of_len(word.len()).any(|w| w == word.as_bytes())
    }

    /// Words with exactly `len` letters, in list order.
    pub fn of_len(&self, len: usize) -> impl Iterator<Item = &[u8]> + '_ {
        let group = match self.by_len.get(len) {
            Some(g) if len > 0 => &g[..],
            _ => &[],
        };
        group.chunks_exact(len.max(1))
    }

    pub fn count_of_len(&self, len: usize) -> usize {
        self.by_len.get(len).map_or(0, |g| g.len() / len.max(1))
    }
}

/// All words of one length with, for every (position, letter), the bitset of the words
/// that have that letter there.
pub(crate) struct LengthIndex {
    pub len: usize,
    pub count: usize,
    /// u64 words per bitset.
    pub chunks: usize,
    /// Letters (0..26) of word `i` at `i * len ..`.
    letters: Vec<u8>,
    /// Bitset of (pos, letter) at `(pos * 26 + letter) * chunks ..`.
    bits: Vec<u64>,
}

impl LengthIndex {
    /// Indexes the words of length `len`, in list order or shuffled by `rng`.
    pub fn build(list: &WordList, len: usize, rng: Option<&mut Rng>) -> LengthIndex {
        let mut words: Vec<&[u8]> = list.of_len(len).collect();
        if let Some(rng) = rng {
            rng.shuffle(&mut words);
        }
        let count = words.len();
        let chunks = count.div_ceil(64);
        let mut letters = Vec::with_capacity(count * len);
        let mut bits = vec![0u64; len * 26 * chunks];
        for (i, w) in words.iter().enumerate() {
            for (p, &ch) in w.iter().enumerate() {
                let a = (ch - b'A') as usize;
                letters.push(a as u8);
                bits[(p * 26 + a) * chunks + i / 64] |= 1 << (i % 64);
            }
        }
        LengthIndex { len, count, chunks, letters, bits }
    }

    /// Letters (0..26) of word `i`.
    #[inline]
    pub fn word(&self, i: usize) -> &[u8] {
        &self.letters[i * self.len..(i + 1) * self.len]
    }

    pub fn word_string(&self, i: usize) -> String {
        self.word(i).iter().map(|&a| (b'A' + a) as char).collect()
    }

    /// Words with `letter` (0..26) at `pos`.
    #[inline]
    pub fn bits(&self, pos: usize, letter: usize) -> &[u64] {
        let start = (pos * 26 + letter) * self.chunks;
        &self.bits[start..start + self.chunks]
    }
}
