//! Word squares: n x n letters (3 <= n <= 7) whose n rows and n columns are all words of
//! the list. Rows need not equal columns. With `distinct` (the default) the 2n words must
//! be pairwise different, which excludes symmetric squares (row i = column i); with
//! `distinct: false` any words may repeat, as in the original counts.
//!
//! Search: squares are filled letter by letter in reading order while every row and
//! every column follows a path in a trie of the n-letter words, so a letter is allowed
//! only where both its row prefix and its column prefix continue some word.

use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::Monitor;
use crate::puzzles::rng::Rng;

use super::budget::{self, Attempt, Budget};
use super::error::{CrosswordError, Result};
use super::limits::{square_bytes, Limits};
use super::words::{WordFilter, WordList};
use super::Count;

pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 7;
/// About half a minute of search on one core; enough to count all 5x5 squares.
pub const DEFAULT_MAX_NODES: u64 = 500_000_000;
pub const DEFAULT_LIMIT: usize = 100;
/// Node cap unit of the sampling attempts (restarts follow the Luby sequence).
const ATTEMPT_UNIT: u64 = 100_000;

crate::fields::api_struct! {
    #[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct WordSquareRequest {
        /// Side length.
        #[schema(minimum = 3, maximum = 7)]
        pub size: usize,
        /// Squares to sample (distinct, at most 10000), or `"all"` to count every square.
        #[serde(default)]
        pub count: Count,
        /// With `"all"`: how many squares to return besides the total (default 100).
        #[schema(minimum = 0, maximum = 10000)]
        pub limit?: usize,
        ..word_source,
        #[serde(default)]
        #[schema(default = 0)]
        pub seed: u64,
        /// All 2n row and column words pairwise different.
        #[serde(default = "default_distinct")]
        #[schema(default = true)]
        pub distinct: bool,
        /// Letters placed, over the whole request.
        #[schema(minimum = 1, default = 500000000)]
        pub max_nodes?: u64,
        /// Milliseconds the search may take.
        #[schema(minimum = 1)]
        pub time_limit_ms?: u64,
    }
}

fn default_distinct() -> bool {
    true
}

impl WordSquareRequest {
    pub fn new(size: usize) -> Self {
        WordSquareRequest {
            size,
            count: Count::N(1),
            limit: None,
            words: None,
            wordlist: None,
            min_score: None,
            allow_offensive: false,
            seed: 0,
            distinct: true,
            max_nodes: None,
            time_limit_ms: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordSquareResult {
    /// Each square as its rows.
    pub squares: Vec<Vec<String>>,
    /// With `"all"`: the number of squares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Why fewer squares than requested are returned, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Prefix tree of the n-letter words; node 0 is the root, a node at depth n is a word.
struct Trie {
    child: Vec<[u32; 26]>,
    /// Letters with a child, per node.
    mask: Vec<u32>,
    /// Letter leading into each node, and its parent (for spelling words back).
    letter: Vec<u8>,
    parent: Vec<u32>,
    /// Letters at position `j` of the words below node `v`, at `v * len + j`.
    ahead: Vec<u32>,
    len: usize,
}

impl Trie {
    fn new<'a>(len: usize, words: impl Iterator<Item = &'a [u8]>) -> Trie {
        let mut t =
            Trie { child: vec![[0; 26]], mask: vec![0], letter: vec![0], parent: vec![0], ahead: Vec::new(), len };
        let mut depth = vec![0usize];
        for w in words {
            let mut node = 0;
            for &ch in w {
                let a = (ch - b'A') as usize;
                if t.mask[node] >> a & 1 == 0 {
                    t.mask[node] |= 1 << a;
                    t.child[node][a] = t.child.len() as u32;
                    t.child.push([0; 26]);
                    t.mask.push(0);
                    t.letter.push(a as u8);
                    t.parent.push(node as u32);
                    depth.push(depth[node] + 1);
                }
                node = t.child[node][a] as usize;
            }
        }
        // Children have larger ids than their parents: fold the sets upwards.
        t.ahead = vec![0; t.child.len() * len];
        for v in (1..t.child.len()).rev() {
            let (p, d) = (t.parent[v] as usize, depth[v]);
            t.ahead[p * len + d - 1] |= 1 << t.letter[v];
            for j in d..len {
                t.ahead[p * len + j] |= t.ahead[v * len + j];
            }
        }
        t
    }

    /// Whether some word below node `v` (at depth `j`) has, at every later position k,
    /// a letter of `masks[k]`.
    fn exists(&self, v: u32, j: usize, masks: &[u32]) -> bool {
        if j == self.len {
            return true;
        }
        let mut m = self.mask[v as usize] & masks[j];
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            let next = self.child[v as usize][a];
            if (j + 1..self.len).all(|k| self.ahead(next, k) & masks[k] != 0) && self.exists(next, j + 1, masks) {
                return true;
            }
        }
        false
    }

    /// Letters at position `j` of the words that continue prefix node `v`.
    #[inline]
    fn ahead(&self, v: u32, j: usize) -> u32 {
        self.ahead[v as usize * self.len + j]
    }
}

/// One depth-first search over the n*n squares.
struct Search<'a, 'b, 'p> {
    n: usize,
    trie: &'a Trie,
    distinct: bool,
    /// Current trie node of each row and each column prefix.
    row: [u32; MAX_SIDE],
    col: [u32; MAX_SIDE],
    /// Words (leaf nodes) completed so far, for the distinctness rule.
    done: Vec<u32>,
    budget: &'b mut Budget<'p>,
    rng: Option<&'a mut Rng>,
    attempt_left: u64,
}

impl<'a, 'b, 'p> Search<'a, 'b, 'p> {
    fn new(
        n: usize,
        trie: &'a Trie,
        distinct: bool,
        budget: &'b mut Budget<'p>,
        rng: Option<&'a mut Rng>,
        attempt_left: u64,
    ) -> Self {
        Search {
            n,
            trie,
            distinct,
            row: [0; MAX_SIDE],
            col: [0; MAX_SIDE],
            done: Vec::with_capacity(2 * n),
            budget,
            rng,
            attempt_left,
        }
    }

    /// Returns true when the search must stop (leaf said so, or a budget ran out).
    fn dfs(&mut self, k: usize, leaf: &mut dyn FnMut(&Self) -> bool) -> bool {
        let n = self.n;
        if k == n * n {
            return leaf(self);
        }
        let (r, c) = (k / n, k % n);
        let (rn, cn) = (self.row[r] as usize, self.col[c] as usize);
        let allowed = self.trie.mask[rn] & self.trie.mask[cn];
        let mut order = [0u8; 26];
        let mut len = 0;
        for a in 0..26 {
            if allowed >> a & 1 == 1 {
                order[len] = a;
                len += 1;
            }
        }
        if let Some(rng) = self.rng.as_deref_mut() {
            rng.shuffle(&mut order[..len]);
        }
        for &a in &order[..len] {
            if self.attempt_left == 0 {
                return true;
            }
            self.attempt_left -= 1;
            if !self.budget.tick() {
                return true;
            }
            let a = a as usize;
            self.row[r] = self.trie.child[rn][a];
            self.col[c] = self.trie.child[cn][a];
            let before = self.done.len();
            // Forward check: every later square of this row must still have a letter
            // that both the row and that square's column can continue with.
            let row_node = self.row[r];
            let mut ok = (c + 1..n).all(|j| self.trie.ahead(row_node, j) & self.trie.mask[self.col[j] as usize] != 0);
            if ok && c == n - 1 {
                ok &= self.complete(self.row[r]) && self.later_rows_possible(r);
            }
            if r == n - 1 && ok {
                ok &= self.complete(self.col[c]);
            }
            let stop = ok && self.dfs(k + 1, leaf);
            self.done.truncate(before);
            self.row[r] = rn as u32;
            self.col[c] = cn as u32;
            if stop {
                return true;
            }
        }
        false
    }

    /// After row `r` is finished: each later row must still have some word whose letters
    /// all continue their columns.
    fn later_rows_possible(&self, r: usize) -> bool {
        let n = self.n;
        let mut masks = [0u32; MAX_SIDE];
        (r + 1..n).all(|later| {
            for (j, m) in masks[..n].iter_mut().enumerate() {
                *m = self.trie.ahead(self.col[j], later);
            }
            self.trie.exists(0, 0, &masks[..n])
        })
    }

    /// Records a finished word; false if it repeats one (when words must be distinct).
    fn complete(&mut self, word: u32) -> bool {
        if self.distinct && self.done.contains(&word) {
            return false;
        }
        self.done.push(word);
        true
    }

    fn rows(&self) -> Vec<String> {
        (0..self.n).map(|r| self.spell(self.row[r])).collect()
    }

    fn spell(&self, leaf: u32) -> String {
        let mut out = Vec::with_capacity(self.n);
        let mut node = leaf as usize;
        while node != 0 {
            out.push(b'A' + self.trie.letter[node]);
            node = self.trie.parent[node] as usize;
        }
        out.reverse();
        String::from_utf8(out).expect("ASCII")
    }
}

impl WordSquareRequest {
    /// Checks the request against `limits` without searching; errors name the field.
    pub fn validate(&self, limits: &Limits) -> Result<(), CrosswordError> {
        self.plan(None, limits).map(drop)
    }

    /// The word list, the node budget, the time limit and how many squares to return
    /// (sample, or list with `"all"`), checked against `limits`.
    #[allow(clippy::type_complexity)]
    fn plan<'a>(
        &self,
        stored: Option<&'a WordList>,
        limits: &Limits,
    ) -> Result<(std::borrow::Cow<'a, WordList>, WordFilter, u64, Option<u64>, usize), CrosswordError> {
        let n = self.size;
        if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
            return Err(CrosswordError::field(
                "size",
                format!("word squares have a side of {MIN_SIDE}..={MAX_SIDE}, got {n}"),
            ));
        }
        let source = self.source();
        let list = source.list(stored, limits)?;
        let filter = source.filter()?;
        let max_nodes = Limits::max_nodes(self.max_nodes, DEFAULT_MAX_NODES, limits.square_max_nodes)?;
        let time_limit_ms = limits.time_limit(self.time_limit_ms)?;
        let items = limits.items(
            self.count,
            self.limit,
            DEFAULT_LIMIT,
            limits.square_max_count,
            square_bytes(n),
            &format!("{n}x{n} word squares"),
        )?;
        Ok((list, filter, max_nodes, time_limit_ms, items))
    }
}

impl super::SearchRequest for WordSquareRequest {
    type Found = WordSquareResult;

    fn search(
        &self,
        stored: Option<&WordList>,
        limits: &Limits,
        progress: &mut dyn Monitor,
    ) -> Result<WordSquareResult> {
        let req = self;
        let n = req.size;
        let (list, filter, max_nodes, time_limit_ms, items) = req.plan(stored, limits)?;
        let mut budget = Budget::new(max_nodes, time_limit_ms, 1 << 14, progress);
        let trie = Trie::new(n, list.scored_of_len(n).filter(|&(w, s)| filter.admits(w, s)).map(|(w, _)| w));
        match req.count {
            Count::All => {
                let limit = items;
                let (mut total, mut squares) = (0u64, Vec::new());
                let mut search = Search::new(n, &trie, req.distinct, &mut budget, None, u64::MAX);
                search.dfs(0, &mut |s| {
                    total += 1;
                    if squares.len() < limit {
                        squares.push(s.rows());
                    }
                    false
                });
                if budget.stop.is_some() {
                    return Err(budget.exhausted(&format!(
                        "counting of all {n}x{n} word squares not finished ({total} found so far)"
                    )));
                }
                Ok(WordSquareResult { squares, total: Some(total), note: None })
            }
            Count::N(_) => {
                let mut rng = Rng::from_u64(req.seed);
                let mut attempt = 0;
                let what = format!("{n}x{n} word squares");
                let (found, note) = budget::sample_distinct(items, &what, &mut budget, |budget, seen| {
                    attempt += 1;
                    let cap = ATTEMPT_UNIT.saturating_mul(budget::luby(attempt));
                    let mut search = Search::new(n, &trie, req.distinct, budget, Some(&mut rng), cap);
                    Attempt::first_new(seen, |_| true, |offer| search.dfs(0, &mut |s| offer(s.rows())))
                })?;
                Ok(WordSquareResult { squares: found, total: None, note })
            }
        }
    }
}
