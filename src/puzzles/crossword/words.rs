//! Scored word lists: the bundled English list (built from SCOWL through Debian's
//! `wamerican` packages by `scripts/build-wordlist`, see `data/words.LICENSE`), a client's
//! uploaded list or the request's own `words`; the block list of offensive words; and the
//! per-length letter-position bitset index the fill search filters candidates with.
//!
//! **Format**: one entry a line, `entry;score` with a score of 0..=100 (a line without a
//! score gets [`DEFAULT_SCORE`]); blank lines and lines starting with `#` are skipped.
//! Entries are normalised to `A`–`Z`: letters are uppercased, accents dropped (Unicode
//! canonical decomposition, combining marks removed: `crème brûlée` → `CREMEBRULEE`, and
//! `ß æ œ ø ł` read as `SS AE OE O L`), spaces and punctuation dropped. Any other
//! character (a digit, a letter of another script) makes the line an error. An entry
//! that appears twice keeps its highest score. Entries of 1 letter or longer than
//! [`MAX_ENTRY`] fit no slot and are skipped.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use super::error::CrosswordError;

/// The bundled list, gzipped (`scripts/build-wordlist` writes it; `data/words.LICENSE`).
const DEFAULT_WORDS_GZ: &[u8] = include_bytes!("../../../data/words.txt.gz");
/// Offensive and crude words left out of every fill unless `allow_offensive` (one a line).
pub const BLOCKLIST: &str = include_str!("../../../data/blocklist.txt");

/// The score of an entry given without one.
pub const DEFAULT_SCORE: u8 = 50;
/// The longest entry kept: the longest slot of the largest grid.
pub const MAX_ENTRY: usize = super::grid::FILL_MAX_SIDE;

/// Distinct entries (`A-Z` only) with their scores, grouped by length, each group in
/// first-seen order.
#[derive(Clone, Debug, Default)]
pub struct WordList {
    /// Entries of length `len`, concatenated, at `by_len[len]`.
    by_len: Vec<Vec<u8>>,
    /// Their scores, at `scores[len]`.
    scores: Vec<Vec<u8>>,
    total: usize,
    indexes: IndexCache,
}

/// The list's search indexes, built once per length and filter (for the few filters
/// used last: each may take megabytes).
#[derive(Default)]
struct IndexCache(Mutex<Vec<(WordFilter, ByLength)>>);

/// A filter's index per length (built when first used).
type ByLength = Vec<Option<Arc<LengthIndex>>>;

/// Filters whose indexes a list keeps.
const CACHED_FILTERS: usize = 4;

impl Clone for IndexCache {
    fn clone(&self) -> Self {
        IndexCache::default()
    }
}

impl std::fmt::Debug for IndexCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IndexCache")
    }
}

/// Which entries of a list a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WordFilter {
    /// Entries scoring below are left out.
    pub min_score: u8,
    /// Whether the block list's entries may be used.
    pub allow_offensive: bool,
}

impl Default for WordFilter {
    fn default() -> Self {
        WordFilter { min_score: DEFAULT_SCORE, allow_offensive: false }
    }
}

impl WordFilter {
    pub fn admits(&self, word: &[u8], score: u8) -> bool {
        score >= self.min_score && (self.allow_offensive || !blocked(word))
    }
}

/// Whether `word` (normalised) is on the block list.
pub fn blocked(word: &[u8]) -> bool {
    static SET: OnceLock<HashSet<Vec<u8>>> = OnceLock::new();
    SET.get_or_init(|| {
        let list = WordList::parse(BLOCKLIST).expect("the block list parses");
        (0..=MAX_ENTRY).flat_map(|len| list.of_len(len).map(<[u8]>::to_vec).collect::<Vec<_>>()).collect()
    })
    .contains(word)
}

/// Why a line of a list is refused (`line` is 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

/// Reads one entry (`entry` or `entry;score`): the normalised letters and the score, or
/// `None` for a comment or blank line.
pub fn parse_entry(line: &str) -> Result<Option<(Vec<u8>, u8)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (entry, score) = match line.rsplit_once(';') {
        Some((entry, score)) => {
            let score = score.trim();
            let value: u32 = score
                .parse()
                .map_err(|_| format!("score {:?} is not a whole number 0..100", super::error::clip(score)))?;
            if value > 100 {
                return Err(format!("score {value} is not 0..100"));
            }
            (entry, value as u8)
        }
        None => (line, DEFAULT_SCORE),
    };
    let letters = normalise(entry)?;
    if letters.is_empty() {
        return Err(format!("entry {:?} has no letters", super::error::clip(entry)));
    }
    Ok(Some((letters, score)))
}

/// `entry` as the letters `A`–`Z` (see the module comment).
pub fn normalise(entry: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(entry.len());
    if entry.is_ascii() {
        for b in entry.bytes() {
            push_ascii(&mut out, b, entry)?;
        }
        return Ok(out);
    }
    for ch in entry.nfd() {
        if is_combining_mark(ch) {
            continue;
        }
        if ch.is_ascii() {
            push_ascii(&mut out, ch as u8, entry)?;
            continue;
        }
        let folded: &[u8] = match ch {
            'ß' => b"SS",
            'æ' | 'Æ' => b"AE",
            'œ' | 'Œ' => b"OE",
            'ø' | 'Ø' => b"O",
            'ł' | 'Ł' => b"L",
            'đ' | 'Đ' => b"D",
            'þ' | 'Þ' => b"TH",
            'ı' => b"I",
            _ if !ch.is_alphanumeric() => b"",
            other => {
                return Err(format!(
                    "entry {:?} has {other:?}, which is not a letter A-Z once accents are dropped",
                    super::error::clip(entry)
                ))
            }
        };
        out.extend_from_slice(folded);
    }
    Ok(out)
}

fn push_ascii(out: &mut Vec<u8>, b: u8, entry: &str) -> Result<(), String> {
    if b.is_ascii_alphabetic() {
        out.push(b.to_ascii_uppercase());
    } else if b.is_ascii_digit() {
        return Err(format!(
            "entry {:?} has the digit {:?}; entries hold letters (spaces, punctuation and accents are dropped)",
            super::error::clip(entry),
            b as char
        ));
    }
    Ok(())
}

/// Collects entries, keeping the first position and the highest score of each.
#[derive(Default)]
struct Builder {
    list: WordList,
    /// Entry → its index within its length group.
    seen: HashMap<Vec<u8>, u32>,
}

impl Builder {
    fn with_capacity(n: usize) -> Builder {
        Builder { list: WordList::default(), seen: HashMap::with_capacity(n) }
    }

    fn add(&mut self, word: Vec<u8>, score: u8) {
        let len = word.len();
        if !(2..=MAX_ENTRY).contains(&len) {
            return; // fits no slot of any grid
        }
        let list = &mut self.list;
        if list.by_len.len() <= len {
            list.by_len.resize(len + 1, Vec::new());
            list.scores.resize(len + 1, Vec::new());
        }
        match self.seen.get(&word) {
            Some(&i) => {
                let s = &mut list.scores[len][i as usize];
                *s = (*s).max(score);
            }
            None => {
                let i = list.scores[len].len() as u32;
                list.by_len[len].extend_from_slice(&word);
                list.scores[len].push(score);
                list.total += 1;
                self.seen.insert(word, i);
            }
        }
    }
}

/// Reads a list in the text format as its bytes arrive, a line at a time (an upload
/// read as a stream): it holds the list being built and one unfinished line, never the
/// text or its lines.
#[derive(Default)]
pub struct ListReader {
    builder: Builder,
    /// Lines read so far.
    lines: usize,
    /// The last line's bytes while its line break has not arrived.
    partial: Vec<u8>,
}

/// Entries a reader makes room for at once, however large the text (a guess from a huge
/// text must not allocate hundreds of megabytes before any line is read).
const MAX_CAPACITY_HINT: usize = 1 << 16;

impl ListReader {
    /// A reader expecting about `entries` entries.
    pub fn with_capacity(entries: usize) -> ListReader {
        ListReader { builder: Builder::with_capacity(entries.min(MAX_CAPACITY_HINT)), ..ListReader::default() }
    }

    /// Reads the next bytes of the text (any split, even inside a line or a character);
    /// errors name the line.
    pub fn read(&mut self, mut bytes: &[u8]) -> Result<(), LineError> {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                self.line(&bytes[..end])?;
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.extend_from_slice(&bytes[..end]);
                self.line(&line)?;
                line.clear();
                self.partial = line;
            }
            bytes = &bytes[end + 1..];
        }
        self.partial.extend_from_slice(bytes);
        Ok(())
    }

    /// Distinct entries read so far.
    pub fn entries(&self) -> usize {
        self.builder.list.total
    }

    /// The list, once the last line (which needs no line break) is read.
    pub fn finish(mut self) -> Result<WordList, LineError> {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line)?;
        }
        let mut list = self.builder.list;
        // Groups grew by doubling: give back what they will never use.
        list.by_len.iter_mut().chain(list.scores.iter_mut()).for_each(|g| g.shrink_to_fit());
        Ok(list)
    }

    fn line(&mut self, line: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let error = |message: String| LineError { line: self.lines, message };
        let line = std::str::from_utf8(line).map_err(|_| error("the text is not UTF-8".into()))?;
        // A line break of `\r\n` leaves a `\r`, which the entry's trimming drops.
        match parse_entry(line) {
            Ok(Some((word, score))) => self.builder.add(word, score),
            Ok(None) => {}
            Err(message) => return Err(error(message)),
        }
        Ok(())
    }
}

impl WordList {
    /// The bundled English list (decompressed and parsed once per process).
    pub fn english() -> &'static WordList {
        static LIST: OnceLock<WordList> = OnceLock::new();
        LIST.get_or_init(|| {
            let text = gunzip(DEFAULT_WORDS_GZ).expect("the bundled word list decompresses");
            let text = std::str::from_utf8(&text).expect("the bundled word list is UTF-8");
            WordList::parse(text).expect("the bundled word list is valid")
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

    /// A list in the text format (see the module comment); errors name the line.
    pub fn parse(text: &str) -> Result<WordList, LineError> {
        let mut reader = ListReader::with_capacity(text.len() / 10);
        reader.read(text.as_bytes())?;
        reader.finish()
    }

    /// A request's `words` (each `entry` or `entry;score`); errors name the index.
    pub fn from_words<S: AsRef<str>>(words: &[S]) -> Result<WordList, CrosswordError> {
        let mut b = Builder::with_capacity(words.len());
        for (index, word) in words.iter().enumerate() {
            match parse_entry(word.as_ref()) {
                Ok(Some((word, score))) => b.add(word, score),
                Ok(None) => return Err(CrosswordError::BadWord { index, message: "empty word".into() }),
                Err(message) => return Err(CrosswordError::BadWord { index, message }),
            }
        }
        Ok(b.list)
    }

    /// The list in the text format, `ENTRY;score` a line by length and in list order:
    /// parsed back it is the same list, so equal lists have equal texts (and hashes).
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(self.by_len.iter().map(|g| g.len()).sum::<usize>() + 5 * self.total);
        for len in 0..self.by_len.len() {
            for (word, score) in self.scored_of_len(len) {
                text.extend(word.iter().map(|&b| b as char));
                text.push(';');
                text.push_str(&score.to_string());
                text.push('\n');
            }
        }
        text
    }

    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The score of `word` (normalised letters), if the list has it.
    pub fn score(&self, word: &[u8]) -> Option<u8> {
        self.of_len(word.len()).position(|w| w == word).map(|i| self.scores[word.len()][i])
    }

    pub fn contains(&self, word: &str) -> bool {
        self.score(word.as_bytes()).is_some()
    }

    /// Entries with exactly `len` letters, in list order.
    pub fn of_len(&self, len: usize) -> impl Iterator<Item = &[u8]> + '_ {
        let group = match self.by_len.get(len) {
            Some(g) if len > 0 => &g[..],
            _ => &[],
        };
        group.chunks_exact(len.max(1))
    }

    /// Entries with exactly `len` letters and their scores, in list order.
    pub fn scored_of_len(&self, len: usize) -> impl Iterator<Item = (&[u8], u8)> + '_ {
        let scores = self.scores.get(len).map_or(&[][..], |s| &s[..]);
        self.of_len(len).zip(scores.iter().copied())
    }

    pub fn count_of_len(&self, len: usize) -> usize {
        self.by_len.get(len).map_or(0, |g| g.len() / len.max(1))
    }

    /// How many entries of each length (index = length, from 0).
    pub fn by_length(&self) -> Vec<usize> {
        (0..self.by_len.len()).map(|len| self.count_of_len(len)).collect()
    }

    /// The search index of the entries of length `len` that `filter` admits (built on
    /// first use, then shared).
    pub(crate) fn index(&self, len: usize, filter: &WordFilter) -> Arc<LengthIndex> {
        let mut cache = self.indexes.0.lock().unwrap_or_else(|e| e.into_inner());
        let at = match cache.iter().position(|(f, _)| f == filter) {
            Some(at) => at,
            None => {
                if cache.len() >= CACHED_FILTERS {
                    cache.remove(0);
                }
                cache.push((*filter, vec![None; MAX_ENTRY + 1]));
                cache.len() - 1
            }
        };
        // The most recently used filter goes last.
        let entry = cache.remove(at);
        cache.push(entry);
        let slot = &mut cache.last_mut().expect("pushed").1[len.min(MAX_ENTRY)];
        slot.get_or_insert_with(|| Arc::new(LengthIndex::build(self, len, filter))).clone()
    }

    /// The entries `filter` admits.
    pub fn filtered(&self, filter: &WordFilter) -> WordList {
        let mut b = Builder::default();
        for len in 0..self.by_len.len() {
            for (w, s) in self.scored_of_len(len).filter(|&(w, s)| filter.admits(w, s)) {
                b.add(w.to_vec(), s);
            }
        }
        b.list
    }
}

/// A word list ready for use, shared between the jobs that use it.
pub type SharedList = Arc<WordList>;

/// Decompresses a gzip member written without optional header fields (as
/// `scripts/build-wordlist` writes it), checking its length.
pub fn gunzip(gz: &[u8]) -> Result<Vec<u8>, String> {
    if gz.len() < 18 || gz[..3] != [0x1f, 0x8b, 8] {
        return Err("not a gzip stream".into());
    }
    if gz[3] != 0 {
        return Err("gzip header fields (FLG) are not supported".into());
    }
    let body = &gz[10..gz.len() - 8];
    let out = miniz_oxide::inflate::decompress_to_vec(body).map_err(|e| format!("inflate: {e:?}"))?;
    let size = u32::from_le_bytes(gz[gz.len() - 4..].try_into().expect("4 bytes"));
    if out.len() as u32 != size {
        return Err(format!("inflated {} bytes, the trailer says {size}", out.len()));
    }
    Ok(out)
}

/// The entries of one length a search may use, best first, with for every (position,
/// letter) the bitset of the entries that have that letter there.
pub(crate) struct LengthIndex {
    pub len: usize,
    pub count: usize,
    /// u64 words per bitset.
    pub chunks: usize,
    /// Letters (0..26) of word `i` at `i * len ..`.
    letters: Vec<u8>,
    /// Score of word `i` (non-increasing in `i`).
    pub scores: Vec<u8>,
    /// Bitset of (pos, letter) at `(pos * 26 + letter) * chunks ..`.
    bits: Vec<u64>,
}

impl LengthIndex {
    /// Indexes the entries of length `len` that `filter` admits, by score (highest
    /// first), equal scores in list order.
    pub fn build(list: &WordList, len: usize, filter: &WordFilter) -> LengthIndex {
        let mut words: Vec<(&[u8], u8)> = list.scored_of_len(len).filter(|&(w, s)| filter.admits(w, s)).collect();
        words.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let count = words.len();
        let chunks = count.div_ceil(64);
        let mut letters = Vec::with_capacity(count * len);
        let mut bits = vec![0u64; len * 26 * chunks];
        for (i, (w, _)) in words.iter().enumerate() {
            for (p, &ch) in w.iter().enumerate() {
                let a = (ch - b'A') as usize;
                letters.push(a as u8);
                bits[(p * 26 + a) * chunks + i / 64] |= 1 << (i % 64);
            }
        }
        let scores = words.iter().map(|&(_, s)| s).collect();
        LengthIndex { len, count, chunks, letters, scores, bits }
    }

    /// Letters (0..26) of word `i`.
    #[inline]
    pub fn word(&self, i: usize) -> &[u8] {
        &self.letters[i * self.len..(i + 1) * self.len]
    }

    pub fn word_string(&self, i: usize) -> String {
        self.word(i).iter().map(|&a| (b'A' + a) as char).collect()
    }

    /// The index of `word` (uppercase letters), if present.
    pub fn find(&self, word: &[u8]) -> Option<usize> {
        if word.len() != self.len {
            return None;
        }
        (0..self.count).find(|&i| self.word(i).iter().zip(word).all(|(&a, &b)| a + b'A' == b))
    }

    /// How many entries score at least `min` (they come first).
    pub fn count_at_least(&self, min: u8) -> usize {
        self.scores.partition_point(|&s| s >= min)
    }

    /// Words with `letter` (0..26) at `pos`.
    #[inline]
    pub fn bits(&self, pos: usize, letter: usize) -> &[u64] {
        let start = (pos * 26 + letter) * self.chunks;
        &self.bits[start..start + self.chunks]
    }
}

/// Indexes every length of `list` as a fill would (for benchmarks: the time a list
/// takes to become usable); returns how many entries were indexed.
pub fn index_every_length(list: &WordList, filter: &WordFilter) -> usize {
    (0..=MAX_ENTRY).map(|len| LengthIndex::build(list, len, filter).count).sum()
}
