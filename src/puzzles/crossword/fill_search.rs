//! The fill search. Each slot keeps a bitset of its candidate entries (per-length
//! letter-position index, `words::LengthIndex`, best scores first) and each square a
//! 26-bit set of letters still possible (one letter where it is fixed). After every
//! choice the constraints are propagated to a fixpoint (arc consistency between slots
//! and squares, plus "all entries distinct"), so every crossing slot keeps at least one
//! candidate. The search takes the slot with the fewest candidates per failure weight
//! first (dom/wdeg: a slot's weight counts the choices that emptied it or that it made
//! and that emptied another, over all restarts, so the stacks that keep failing are
//! filled first). It branches two ways: a candidate is tried, and when that fails it is
//! refuted in the node's own state and the refutation propagated before the slot to
//! branch on is chosen again (see [`Solver::search`]). It restarts with doubling node
//! caps. The first fill is sought by two
//! searches at once, each with its own weights, restarts and node count, one per order of
//! a slot's candidates: best score first (equal scores in a seeded order), and least
//! constraining first (the most candidates left to the crossing slots). The conclusion
//! reached in the fewest nodes wins, so the fill is the same on one thread or two (see
//! [`first_fill`]); the winner goes on alone, its later rounds taking turns between the
//! orders. An attempt that finishes under its cap has searched everything and so proves
//! that no fill exists. (The weights took the benchmark's themeless grids from 2 of 6
//! filled in 10 s to 4 of 6; the two orders racing, 15 to 17 of 24 over seeds 0-3; see
//! the README.)
//!
//! **Quality**: once a fill is found, the search runs again allowing only entries that
//! score above the fill's lowest score, while its budget and an improvement allowance
//! last (each round may spend [`IMPROVE_FACTOR`] times the nodes the first fill took, at
//! least [`IMPROVE_MIN_NODES`]); the last fill found is returned. So the lowest score is
//! raised first. Then, for one more allowance, branch and bound on the sum of the scores
//! (the mean): fills keeping that lowest score whose sum beats the best so far, a node
//! pruned when its open slots' best candidates cannot beat it.
//!
//! **Shared substrings**: with `max_shared_substring` N, a candidate that shares a run of
//! more than N letters with an entry already placed (or given) is skipped.

use std::sync::Arc;

use crate::puzzles::rng::Rng;

use crate::puzzles::monitor::Unmonitored;

use super::budget::{Budget, Race, Stop};
use super::error::CrosswordError;
use super::fill::{slot_pattern, FillOptions};
use super::grid::{Grid, Slot};
use super::words::LengthIndex;

/// Node cap of the first attempt of each order; each of its restarts doubles it.
const FIRST_ATTEMPT_NODES: u64 = 500;
/// Nodes the best-score-first search spends alone before the other order joins the race
/// for the first fill: most grids fill sooner (the 52 patterns of the crossword bench all
/// do), where a second search only costs time (it made them 57 % slower).
const SOLO_NODES: u64 = 2_000;
/// Each improvement round may spend this many times the nodes of the first fill...
const IMPROVE_FACTOR: u64 = 4;
/// ...and at least this many.
const IMPROVE_MIN_NODES: u64 = 10_000;
const ALL_LETTERS: u32 = (1 << 26) - 1;
const NONE: u32 = u32::MAX;

/// A slot wholly of fixed letters and its word (`A`–`Z`).
pub(crate) struct Given {
    pub slot: Slot,
    pub word: Vec<u8>,
}

/// Finds one entry per open slot (in `slots` order), or says why there is none.
pub(crate) fn solve(
    grid: &Grid,
    slots: &[Slot],
    given: &[Given],
    indexes: &[Option<Arc<LengthIndex>>],
    opts: &FillOptions,
    rng: Rng,
    budget: &mut Budget,
) -> Result<Vec<String>, CrosswordError> {
    let problem = Problem::new(grid, slots.to_vec(), given, indexes, opts.max_shared_substring);
    let min = opts.filter.min_score;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut solver, first) = first_fill(&problem, min, rng, budget, threads, SOLO_NODES);
    let first = match first {
        Run::Found(words) => words,
        Run::Unfit(s) => {
            let slot = &problem.slots[s];
            return Err(CrosswordError::NoSolution(format!(
                "{} {} has no entry with score >= {min} that fits its crossings",
                slot.label(),
                slot_pattern(grid, slot)
            )));
        }
        Run::Failed => {
            let nodes = budget.nodes;
            return Err(CrosswordError::NoSolution(format!(
                "an exhaustive search ({nodes} nodes) found no fill of this grid with this word list and min_score {min}"
            )));
        }
        Run::Capped => return Err(budget.exhausted("no fill found")),
    };
    let allowance = (budget.nodes * IMPROVE_FACTOR).max(IMPROVE_MIN_NODES);
    let mut best = first;
    while let Some(low) = problem.lowest_score(&best).filter(|&low| low < u8::MAX && !opts.first_fill) {
        match solver.run(budget, low + 1, allowance) {
            Run::Found(words) => best = words,
            Run::Capped if budget.stop == Some(Stop::Cancelled) => return Err(CrosswordError::Cancelled),
            _ => break,
        }
    }
    // Then the mean: fills that keep that lowest score and sum to more, while one more
    // allowance lasts (shared by these rounds).
    if !opts.first_fill {
        let low = problem.lowest_score(&best).unwrap_or(0);
        let until = budget.nodes.saturating_add(allowance);
        while budget.nodes < until {
            solver.better_than = Some(problem.total_score(&best));
            match solver.run(budget, low, until - budget.nodes) {
                Run::Found(words) => best = words,
                Run::Capped if budget.stop == Some(Stop::Cancelled) => return Err(CrosswordError::Cancelled),
                _ => break,
            }
        }
    }
    Ok((0..problem.slots.len()).map(|s| problem.index[s].word_string(best[s] as usize)).collect())
}

/// The first fill, sought by two searches at once, one per candidate order (best score
/// first; least constraining first), each with its own weights, restarts and node count:
/// the conclusion reached in the fewest nodes wins, best score first on a tie (see
/// [`Race`]), so with one thread, running one after the other, the answer is the same. The
/// best-score search runs alone for its first `solo` nodes; if it ends within them, it
/// wins without a race. Each order alone fills a different four of the benchmark's six themeless grids (see
/// the README). Returns the winner, to go on with; `budget` counts the winner's nodes.
fn first_fill<'a>(
    problem: &'a Problem<'a>,
    min: u8,
    rng: Rng,
    budget: &mut Budget,
    threads: usize,
    solo: u64,
) -> (Solver<'a>, Run) {
    let race = Race::new(solo);
    let start = budget.nodes;
    // The best-score search draws what one search alone would; the rival its own stream.
    let rival_rng = Rng::from_u64(rng.clone().next_u64());
    let mut ours = Solver::new(problem, rng, Order::BestScore);
    let mut rival = Solver::new(problem, rival_rng, Order::LeastConstraining);
    let race_in = |solver: &mut Solver, budget: &mut Budget| {
        let run = solver.run(budget, min, u64::MAX);
        if !matches!(run, Run::Capped) {
            race.conclude(budget.race_nodes());
        }
        (run, budget.race_nodes())
    };
    budget.join_race(Some(&race));
    let terms = budget.terms();
    let (our_run, their_run) = if threads >= 2 {
        std::thread::scope(|scope| {
            let (caller, rival, race_in, race) = (std::thread::current(), &mut rival, &race_in, &race);
            let rival_thread = scope.spawn(move || {
                let mut quiet = Unmonitored;
                let run = if race.wait_to_start() {
                    race_in(rival, &mut Budget::racing(terms, race, &mut quiet))
                } else {
                    (Run::Capped, 0)
                };
                caller.unpark();
                run
            });
            // Should this search panic, the rival must not wait at the gate, nor search on,
            // while the scope waits for it.
            struct Unwinding<'r>(&'r Race);
            impl Drop for Unwinding<'_> {
                fn drop(&mut self) {
                    if std::thread::panicking() {
                        self.0.halt();
                        self.0.open();
                    }
                }
            }
            let _unwinding = Unwinding(race);
            let run = race_in(&mut ours, budget);
            race.open();
            // Only the caller's monitor can cancel the rival while it catches up.
            while !rival_thread.is_finished() && budget.poll() {
                std::thread::park_timeout(std::time::Duration::from_millis(10));
            }
            (run, rival_thread.join().expect("the search does not panic"))
        })
    } else {
        let run = race_in(&mut ours, budget);
        race.open();
        let theirs = if race.wait_to_start() {
            race_in(&mut rival, &mut Budget::racing(terms, &race, budget.monitor()))
        } else {
            (Run::Capped, 0)
        };
        (run, theirs)
    };
    let stop = budget.stop;
    budget.join_race(None);
    let conclusive = |run: &Run| !matches!(run, Run::Capped);
    let (mut winner, (run, nodes)) = if race.halted() {
        budget.stop = Some(Stop::Cancelled);
        return (ours, Run::Capped);
    } else if conclusive(&their_run.0) && (!conclusive(&our_run.0) || their_run.1 < our_run.1) {
        (rival, their_run)
    } else if conclusive(&our_run.0) {
        (ours, our_run)
    } else {
        budget.stop = stop;
        return (ours, Run::Capped);
    };
    budget.nodes = start + nodes;
    // The rounds after the first fill take turns between the orders.
    winner.order = Order::Alternate;
    (winner, run)
}

enum Run {
    /// The chosen word (index) per slot.
    Found(Vec<u32>),
    /// Propagation at the root left this slot without candidates.
    Unfit(usize),
    /// The search space is exhausted.
    Failed,
    /// The allowance or the budget ran out.
    Capped,
}

/// The fixed structure of one fill problem.
struct Problem<'a> {
    slots: Vec<Slot>,
    index: Vec<&'a LengthIndex>,
    /// Square index (r * width + c) of each slot letter, at `pos_off[s] + p`.
    cells: Vec<usize>,
    /// The other open slot through that square, if any.
    crossing: Vec<u32>,
    /// The square's position in that crossing slot.
    crossing_pos: Vec<u32>,
    pos_off: Vec<usize>,
    dom_off: Vec<usize>,
    /// Slots of the same length as slot `s` (other than `s`).
    same_len: Vec<Vec<usize>>,
    /// Fixed letter (0..26) per square, or NONE.
    fixed: Vec<u32>,
    /// Per slot: the index of each given entry of its length (they are taken).
    taken: Vec<Vec<usize>>,
    /// Given entries as letters 0..26 (for the shared substring rule).
    given: Vec<Vec<u8>>,
    /// Longest run of letters two entries may share.
    max_shared: Option<usize>,
}

#[derive(Clone)]
struct State {
    /// Letters still possible per square.
    mask: Vec<u32>,
    /// Candidate bitsets of all slots, slot `s` at `dom_off[s]..`.
    dom: Vec<u64>,
    count: Vec<u32>,
    /// Square masks already applied to each slot letter's candidates.
    applied: Vec<u32>,
    /// Chosen word per slot, or NONE.
    word: Vec<u32>,
}

/// Work buffers reused across nodes.
struct Scratch {
    queue: Vec<usize>,
    queued: Vec<bool>,
    union: Vec<u64>,
    support: Vec<u32>,
    /// Per slot letter and letter (`(pos_off[s] + p) * 26 + a`): the chunk where a
    /// candidate with that letter was last seen, checked first (a hint only: it needs no
    /// undoing when the search backtracks).
    residue: Vec<u32>,
}

impl Scratch {
    fn new(p: &Problem) -> Scratch {
        let max_chunks = p.index.iter().map(|i| i.chunks).max().unwrap_or(0);
        let max_len = p.slots.iter().map(|s| s.len).max().unwrap_or(0);
        Scratch {
            queue: Vec::new(),
            queued: vec![false; p.slots.len()],
            union: vec![0; max_chunks],
            support: vec![0; max_len],
            residue: vec![0; p.cells.len() * 26],
        }
    }
}

enum Outcome {
    /// Solved; the full state is at this depth of the state stack.
    Found(usize),
    Failed,
    /// A node cap or budget stopped the attempt.
    Stopped,
}

fn letters(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            a
        })
    })
}

fn bits_of(chunks: &[u64]) -> impl Iterator<Item = usize> + '_ {
    chunks.iter().enumerate().flat_map(|(k, &word)| {
        let mut x = word;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let i = k * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                i
            })
        })
    })
}

/// Whether `a` and `b` share a run of more than `max` letters.
fn share_run(a: &[u8], b: &[u8], max: usize) -> bool {
    let k = max + 1;
    a.len() >= k && b.len() >= k && a.windows(k).any(|x| b.windows(k).any(|y| x == y))
}

impl<'a> Problem<'a> {
    fn new(
        grid: &Grid,
        slots: Vec<Slot>,
        given: &[Given],
        indexes: &'a [Option<Arc<LengthIndex>>],
        max_shared: Option<usize>,
    ) -> Problem<'a> {
        let (height, width) = (grid.height(), grid.width());
        let index: Vec<&LengthIndex> = slots.iter().map(|s| &**indexes[s.len].as_ref().expect("built")).collect();
        let (mut pos_off, mut dom_off, mut cells) = (Vec::new(), Vec::new(), Vec::new());
        let mut dom_len = 0;
        for (s, slot) in slots.iter().enumerate() {
            pos_off.push(cells.len());
            dom_off.push(dom_len);
            dom_len += index[s].chunks;
            cells.extend(slot.cells().map(|(r, c)| r * width + c));
        }
        let mut owners: Vec<Vec<u32>> = vec![Vec::new(); height * width];
        for (s, slot) in slots.iter().enumerate() {
            for p in 0..slot.len {
                owners[cells[pos_off[s] + p]].push(s as u32);
            }
        }
        let mut crossing = vec![NONE; cells.len()];
        let mut crossing_pos = vec![NONE; cells.len()];
        for (s, slot) in slots.iter().enumerate() {
            for p in 0..slot.len {
                let cell = cells[pos_off[s] + p];
                if let Some(&t) = owners[cell].iter().find(|&&t| t != s as u32) {
                    crossing[pos_off[s] + p] = t;
                    let t = t as usize;
                    crossing_pos[pos_off[s] + p] =
                        (0..slots[t].len).position(|q| cells[pos_off[t] + q] == cell).expect("owner") as u32;
                }
            }
        }
        let same_len = (0..slots.len())
            .map(|s| (0..slots.len()).filter(|&t| t != s && slots[t].len == slots[s].len).collect())
            .collect();
        let fixed = (0..height * width)
            .map(|i| grid.letter(i / width, i % width).map_or(NONE, |l| (l - b'A') as u32))
            .collect();
        let taken = index.iter().map(|idx| given.iter().filter_map(|g| idx.find(&g.word)).collect()).collect();
        let given = given.iter().map(|g| g.word.iter().map(|&l| l - b'A').collect()).collect();
        Problem {
            slots,
            index,
            cells,
            crossing,
            crossing_pos,
            pos_off,
            dom_off,
            same_len,
            fixed,
            taken,
            given,
            max_shared,
        }
    }

    /// The root state: the candidates scoring at least `min`, the fixed letters, the
    /// given entries taken.
    fn initial_state(&self, min: u8) -> State {
        let mut dom = Vec::new();
        let mut count = Vec::new();
        for (s, idx) in self.index.iter().enumerate() {
            let start = dom.len();
            let n = idx.count_at_least(min);
            dom.resize(start + idx.chunks, 0);
            dom[start..start + n / 64].fill(u64::MAX);
            if n % 64 != 0 {
                dom[start + n / 64] = (1u64 << (n % 64)) - 1;
            }
            for &w in &self.taken[s] {
                dom[start + w / 64] &= !(1 << (w % 64));
            }
            count.push(dom[start..].iter().map(|d| d.count_ones()).sum());
        }
        State {
            mask: self.fixed.iter().map(|&f| if f == NONE { ALL_LETTERS } else { 1 << f }).collect(),
            dom,
            count,
            applied: vec![ALL_LETTERS; self.cells.len()],
            word: vec![NONE; self.slots.len()],
        }
    }

    /// The lowest score of the chosen words, if any slot is open.
    fn lowest_score(&self, words: &[u32]) -> Option<u8> {
        words.iter().enumerate().map(|(s, &w)| self.index[s].scores[w as usize]).min()
    }

    /// The sum of the chosen words' scores.
    fn total_score(&self, words: &[u32]) -> u32 {
        words.iter().enumerate().map(|(s, &w)| self.index[s].scores[w as usize] as u32).sum()
    }

    /// The highest sum of scores a fill below `st` can reach: each open slot's best
    /// candidate (candidates are indexed best first).
    fn score_bound(&self, st: &State) -> u32 {
        (0..self.slots.len())
            .map(|s| {
                let idx = self.index[s];
                let w = if st.word[s] != NONE {
                    st.word[s] as usize
                } else {
                    let dom = &st.dom[self.dom_off[s]..self.dom_off[s] + idx.chunks];
                    match dom.iter().position(|&d| d != 0) {
                        Some(k) => k * 64 + dom[k].trailing_zeros() as usize,
                        None => return 0,
                    }
                };
                idx.scores[w] as u32
            })
            .sum()
    }

    /// Whether word `w` of slot `s` shares too long a run with an entry placed or given.
    fn shares_too_much(&self, st: &State, s: usize, w: usize) -> bool {
        let Some(max) = self.max_shared else { return false };
        let word = self.index[s].word(w);
        self.given.iter().any(|g| share_run(word, g, max))
            || (0..self.slots.len())
                .filter(|&t| t != s && st.word[t] != NONE)
                .any(|t| share_run(word, self.index[t].word(st.word[t] as usize), max))
    }

    /// Puts word `w` in slot `s` and propagates; Err(slot) names a slot left without candidates.
    fn assign(&self, st: &mut State, sc: &mut Scratch, s: usize, w: usize) -> Result<(), usize> {
        let idx = self.index[s];
        let (off, pos) = (self.dom_off[s], self.pos_off[s]);
        let mut dirty = Vec::new();
        for (p, &a) in idx.word(w).iter().enumerate() {
            let m = 1u32 << a;
            st.mask[self.cells[pos + p]] = m;
            st.applied[pos + p] = m;
            let t = self.crossing[pos + p];
            if t != NONE && st.word[t as usize] == NONE {
                dirty.push(t as usize);
            }
        }
        st.dom[off..off + idx.chunks].fill(0);
        st.dom[off + w / 64] = 1 << (w % 64);
        st.count[s] = 1;
        st.word[s] = w as u32;
        // All words distinct: nobody else may take w.
        for &t in &self.same_len[s] {
            let chunk = &mut st.dom[self.dom_off[t] + w / 64];
            if st.word[t] == NONE && *chunk >> (w % 64) & 1 == 1 {
                *chunk &= !(1 << (w % 64));
                dirty.push(t);
            }
        }
        self.propagate(st, sc, dirty)
    }

    /// Takes word `w` from open slot `s`'s candidates and propagates; Err(slot) names a
    /// slot left without candidates (`s` itself when `w` was its last).
    fn exclude(&self, st: &mut State, sc: &mut Scratch, s: usize, w: usize) -> Result<(), usize> {
        st.dom[self.dom_off[s] + w / 64] &= !(1 << (w % 64));
        self.propagate(st, sc, vec![s])
    }

    /// Revises the given slots and everything their changes reach, to a fixpoint.
    fn propagate(&self, st: &mut State, sc: &mut Scratch, start: Vec<usize>) -> Result<(), usize> {
        sc.queue.clear();
        sc.queued.fill(false);
        for s in start {
            if !sc.queued[s] {
                sc.queued[s] = true;
                sc.queue.push(s);
            }
        }
        while let Some(s) = sc.queue.pop() {
            sc.queued[s] = false;
            self.revise(st, sc, s)?;
        }
        Ok(())
    }
    /// Narrows slot `s` to the words its squares allow, then its squares to the letters
    /// its words allow, queueing crossing slots whose squares shrank.
    fn revise(&self, st: &mut State, sc: &mut Scratch, s: usize) -> Result<(), usize> {
        let idx = self.index[s];
        let (off, pos, len, chunks) = (self.dom_off[s], self.pos_off[s], idx.len, idx.chunks);
        let dom = &mut st.dom[off..off + chunks];
        for p in 0..len {
            let m = st.mask[self.cells[pos + p]];
            let removed = st.applied[pos + p] & !m;
            if removed == 0 {
                continue;
            }
            st.applied[pos + p] = m;
            if m.count_ones() < removed.count_ones() {
                let union = &mut sc.union[..chunks];
                union.fill(0);
                for a in letters(m) {
                    for (u, b) in union.iter_mut().zip(idx.bits(p, a)) {
                        *u |= b;
                    }
                }
                for (d, u) in dom.iter_mut().zip(union.iter()) {
                    *d &= u;
                }
            } else {
                for a in letters(removed) {
                    for (d, b) in dom.iter_mut().zip(idx.bits(p, a)) {
                        *d &= !b;
                    }
                }
            }
        }
        let count: u32 = dom.iter().map(|d| d.count_ones()).sum();
        st.count[s] = count;
        if count == 0 {
            return Err(s);
        }
        // Letters each square still gets from some candidate: by listing the candidates
        // when very few, else per (position, letter) by a bitset intersection that starts
        // at the chunk that last had support (usually found there at once).
        let support = &mut sc.support[..len];
        if (count as usize) <= chunks / 2 {
            support.fill(0);
            let full =
                |support: &[u32]| support.iter().enumerate().all(|(p, &sup)| sup == st.mask[self.cells[pos + p]]);
            // A chunk at a time, until every letter still possible is seen.
            for (k, &word) in dom.iter().enumerate() {
                for i in bits_of(std::slice::from_ref(&word)) {
                    for (sup, &a) in support.iter_mut().zip(idx.word(k * 64 + i)) {
                        *sup |= 1 << a;
                    }
                }
                if word != 0 && full(support) {
                    break;
                }
            }
        } else {
            for (p, sup) in support.iter_mut().enumerate() {
                let m = st.mask[self.cells[pos + p]];
                // Every candidate has a letter of `m` here (applied above): one letter is
                // supported as it is.
                if m.count_ones() == 1 {
                    *sup = m;
                    continue;
                }
                let residue = &mut sc.residue[(pos + p) * 26..(pos + p + 1) * 26];
                *sup = letters(m)
                    .filter(|&a| {
                        let bits = idx.bits(p, a);
                        let k = residue[a] as usize;
                        if dom[k] & bits[k] != 0 {
                            return true;
                        }
                        match dom.iter().zip(bits).position(|(d, b)| d & b != 0) {
                            Some(k) => {
                                residue[a] = k as u32;
                                true
                            }
                            None => false,
                        }
                    })
                    .fold(0, |acc, a| acc | 1 << a);
            }
        }
        for (p, &sup) in support.iter().enumerate() {
            let cell = self.cells[pos + p];
            let narrowed = st.mask[cell] & sup;
            if narrowed == st.mask[cell] {
                continue;
            }
            st.mask[cell] = narrowed;
            st.applied[pos + p] = narrowed;
            if narrowed == 0 {
                return Err(s);
            }
            let t = self.crossing[pos + p] as usize;
            if self.crossing[pos + p] != NONE && st.word[t] == NONE && !sc.queued[t] {
                sc.queued[t] = true;
                sc.queue.push(t);
            }
        }
        Ok(())
    }
    /// Orders `candidates` of open slot `s` least constraining first: by the product over
    /// its squares of the candidates the crossing slot keeps with the candidate's letter
    /// there. Stable, so equals keep their (score, seeded) order. A fill found this way
    /// comes sooner where best-score-first runs into dead ends deep in open corners.
    fn order_by_freedom(&self, st: &State, s: usize, candidates: &mut [usize]) {
        let idx = self.index[s];
        let pos = self.pos_off[s];
        // log2 of what the crossing slot keeps, per (position, letter).
        let mut free = vec![0f32; idx.len * 26];
        for q in 0..idx.len {
            let t = self.crossing[pos + q];
            if t == NONE || st.word[t as usize] != NONE {
                continue;
            }
            let (t, tp) = (t as usize, self.crossing_pos[pos + q] as usize);
            let tidx = self.index[t];
            let tdom = &st.dom[self.dom_off[t]..self.dom_off[t] + tidx.chunks];
            for a in letters(st.mask[self.cells[pos + q]]) {
                let n: u32 = tdom.iter().zip(tidx.bits(tp, a)).map(|(d, b)| (d & b).count_ones()).sum();
                free[q * 26 + a] = (n.max(1) as f32).log2();
            }
        }
        let key = |w: usize| -> f32 { idx.word(w).iter().enumerate().map(|(q, &a)| free[q * 26 + a as usize]).sum() };
        let mut keyed: Vec<(f32, usize)> = candidates.iter().map(|&w| (key(w), w)).collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (c, (_, w)) in candidates.iter_mut().zip(keyed) {
            *c = w;
        }
    }
}

/// Which order a search tries a slot's candidates in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Best score first (equal scores in a seeded order).
    BestScore,
    /// Least constraining first (see [`Problem::order_by_freedom`]).
    LeastConstraining,
    /// The two take turns, attempt by attempt, each with its own doubling caps.
    Alternate,
}

struct Solver<'a> {
    problem: &'a Problem<'a>,
    /// State per search depth (reused to avoid allocation).
    states: Vec<State>,
    scratch: Scratch,
    rng: Rng,
    /// Random tie-break between slots with equally many candidates (varies per attempt).
    priority: Vec<u32>,
    /// Per slot: 1 + the times propagation left it without candidates (kept across
    /// restarts and rounds), so the slots that keep failing are filled first.
    weight: Vec<u64>,
    /// When set, only fills whose scores sum to more than this are sought (branch and
    /// bound: a node whose best completion cannot beat it is not searched).
    better_than: Option<u32>,
    attempt_left: u64,
    order: Order,
    /// This attempt tries candidates least constraining first.
    freedom_first: bool,
}

impl<'a> Solver<'a> {
    fn new(problem: &'a Problem<'a>, rng: Rng, order: Order) -> Solver<'a> {
        Solver {
            problem,
            states: Vec::new(),
            scratch: Scratch::new(problem),
            rng,
            priority: vec![0; problem.slots.len()],
            weight: vec![1; problem.slots.len()],
            better_than: None,
            attempt_left: 0,
            order,
            freedom_first: false,
        }
    }

    /// Searches for a fill using entries scoring at least `min`, spending at most
    /// `allowance` nodes (and what the budget has left), restarting with doubling caps.
    fn run(&mut self, budget: &mut Budget, min: u8, allowance: u64) -> Run {
        let p = self.problem;
        let mut root = p.initial_state(min);
        let everything = (0..p.slots.len()).collect();
        if let Err(slot) = p.propagate(&mut root, &mut self.scratch, everything) {
            return Run::Unfit(slot);
        }
        self.states.clear();
        self.states.push(root);
        let start = budget.nodes;
        let mut cap = FIRST_ATTEMPT_NODES;
        let mut attempt = 0;
        loop {
            let spent = budget.nodes - start;
            if spent >= allowance {
                return Run::Capped;
            }
            self.attempt_left = cap.min(allowance - spent);
            let capped_by_allowance = self.attempt_left < cap;
            for (s, prio) in self.priority.iter_mut().enumerate() {
                // The first attempt breaks ties in slot order; later ones at random.
                *prio = if attempt == 0 { s as u32 } else { self.rng.next_u32() };
            }
            self.freedom_first = match self.order {
                Order::BestScore => false,
                Order::LeastConstraining => true,
                Order::Alternate => attempt % 2 == 1,
            };
            match self.search(budget, 0) {
                Outcome::Found(depth) => return Run::Found(self.states[depth].word.clone()),
                Outcome::Failed => return Run::Failed,
                Outcome::Stopped if budget.stop.is_some() || capped_by_allowance => return Run::Capped,
                // Taking turns, each order's cap doubles every other attempt.
                Outcome::Stopped if self.order == Order::Alternate && !self.freedom_first => {}
                Outcome::Stopped => cap = cap.saturating_mul(2),
            }
            attempt += 1;
        }
    }

    /// The open slot to fill next: the fewest candidates per failure weight (dom/wdeg,
    /// compared cross-multiplied), ties by priority; None when every slot is filled.
    fn pick(&self, depth: usize) -> Option<usize> {
        let st = &self.states[depth];
        let (count, weight, priority) = (&st.count, &self.weight, &self.priority);
        (0..self.problem.slots.len()).filter(|&s| st.word[s] == NONE).min_by(|&a, &b| {
            (count[a] as u64 * weight[b]).cmp(&(count[b] as u64 * weight[a])).then(priority[a].cmp(&priority[b]))
        })
    }

    /// A choice at slot `s` (a candidate tried, or refuted) left slot `failed` without
    /// candidates: both ends of the failure gain weight.
    fn blame(&mut self, failed: usize, s: usize) {
        self.weight[failed] += 1;
        self.weight[s] += 1;
    }

    /// Two-way branching: a candidate is tried (slot = word), and when that fails it is
    /// refuted (slot != word) in this node's own state and the refutation propagated,
    /// which may empty another slot (this node fails) or narrow others, and may raise
    /// their weights: the slot to branch on is then chosen again, and it is another slot
    /// when that one is now the most constrained. (Trying the same slot's candidates one
    /// after the other, d-way, learnt nothing from each failure until all had failed.)
    fn search(&mut self, budget: &mut Budget, depth: usize) -> Outcome {
        let p = self.problem;
        'node: loop {
            if self.better_than.is_some_and(|total| p.score_bound(&self.states[depth]) <= total) {
                return Outcome::Failed;
            }
            let Some(s) = self.pick(depth) else {
                return Outcome::Found(depth);
            };
            let st = &self.states[depth];
            let idx = p.index[s];
            let dom = &st.dom[p.dom_off[s]..p.dom_off[s] + idx.chunks];
            // Candidates best score first (index order), each band of equal scores rotated by
            // a random amount: the seed decides among equals, and restarts differ.
            let mut candidates: Vec<usize> = bits_of(dom).collect();
            {
                let mut from = 0;
                while from < candidates.len() {
                    let score = idx.scores[candidates[from]];
                    let to = from + candidates[from..].partition_point(|&w| idx.scores[w] == score);
                    let rot = self.rng.index(to - from);
                    candidates[from..to].rotate_left(rot);
                    from = to;
                }
            }
            if self.freedom_first {
                p.order_by_freedom(&self.states[depth], s, &mut candidates);
            }
            if self.states.len() == depth + 1 {
                let copy = self.states[depth].clone();
                self.states.push(copy);
            }
            for w in candidates {
                let off = p.dom_off[s] + w / 64;
                if self.states[depth].dom[off] >> (w % 64) & 1 == 0 {
                    // Refuted by what an earlier refutation propagated.
                    continue;
                }
                if self.attempt_left == 0 {
                    return Outcome::Stopped;
                }
                self.attempt_left -= 1;
                if !budget.tick() {
                    return Outcome::Stopped;
                }
                if p.shares_too_much(&self.states[depth], s, w) {
                    continue;
                }
                let (done, next) = self.states.split_at_mut(depth + 1);
                next[0].clone_from(&done[depth]);
                match p.assign(&mut next[0], &mut self.scratch, s, w) {
                    Err(failed) => self.blame(failed, s),
                    Ok(()) => match self.search(budget, depth + 1) {
                        Outcome::Failed => {}
                        other => return other,
                    },
                }
                if let Err(failed) = p.exclude(&mut self.states[depth], &mut self.scratch, s, w) {
                    self.blame(failed, s);
                    return Outcome::Failed;
                }
                if self.pick(depth) != Some(s) {
                    continue 'node;
                }
            }
            // Every candidate left was one that shares too much.
            return Outcome::Failed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::crossword::{Direction, WordFilter, WordList};

    /// The first fill of each order searching alone: (words, nodes).
    fn alone(p: &Problem, rng: Rng, order: Order) -> (Option<Vec<u32>>, u64) {
        let mut quiet = crate::puzzles::monitor::Unmonitored;
        let mut budget = Budget::new(u64::MAX, None, 128, &mut quiet);
        let run = Solver::new(p, rng, order).run(&mut budget, 50, u64::MAX);
        (if let Run::Found(w) = run { Some(w) } else { None }, budget.nodes)
    }

    #[test]
    fn the_race_is_won_in_the_fewest_nodes_on_one_thread_or_two() {
        // Open grids the bundled list fills, some at once, some after restarts.
        let grids: [&[&str]; 3] = [
            &["....#", ".....", ".....", ".....", "#...."],
            &["...#...", ".......", ".......", "###.###", ".......", ".......", "...#..."],
            &["#....#", "......", "......", "......", "......", "#....#"],
        ];
        let filter = WordFilter { min_score: 50, allow_offensive: false };
        let mut winners = std::collections::BTreeSet::new();
        for rows in grids {
            let grid = Grid::from_rows(rows).expect("grid");
            let slots = grid.slots();
            let mut indexes = vec![None; 8];
            for s in &slots {
                indexes[s.len] = Some(WordList::english().index(s.len, &filter));
            }
            let p = Problem::new(&grid, slots.clone(), &[], &indexes, None);
            for seed in 0..6 {
                let rng = Rng::from_u64(seed);
                let best = alone(&p, rng.clone(), Order::BestScore);
                let rival = alone(&p, Rng::from_u64(rng.clone().next_u64()), Order::LeastConstraining);
                for (threads, solo) in [(1, 0), (2, 0), (1, 200), (2, 200)] {
                    let (expected, winner) = if best.1 > solo && rival.1 < best.1 {
                        (rival.clone(), "rival")
                    } else {
                        (best.clone(), if best.1 <= solo { "best score alone" } else { "best score" })
                    };
                    winners.insert(winner);
                    let mut quiet = crate::puzzles::monitor::Unmonitored;
                    let mut budget = Budget::new(u64::MAX, None, 128, &mut quiet);
                    let (solver, run) = first_fill(&p, 50, rng.clone(), &mut budget, threads, solo);
                    let Run::Found(words) = run else { panic!("{rows:?} seed {seed}: no fill") };
                    let case = format!("{rows:?} seed {seed}, {threads} threads, solo {solo}");
                    assert_eq!((Some(words), budget.nodes), expected, "{case}");
                    assert_eq!(solver.order, Order::Alternate);
                }
            }
        }
        assert_eq!(winners.len(), 3, "each order wins somewhere, and the first alone: {winners:?}");
    }

    #[test]
    fn least_constraining_first_counts_what_the_crossings_keep() {
        // A ring of four slots: 1-Across crosses the two downs at their first letters.
        let list = WordList::parse(
            "ZZZ;90\nCAT;60\nCOT;60\nCAR;60\nARE;60\nATE;60\nTEA;60\nTOE;60\nOAT;55\nEAT;50\nRAT;50\nEAR;50\n",
        )
        .expect("list");
        let grid = Grid::from_rows(&["...", ".#.", "..."]).expect("grid");
        let slots = grid.slots();
        let filter = WordFilter { min_score: 0, allow_offensive: true };
        let mut indexes = vec![None; 4];
        indexes[3] = Some(Arc::new(LengthIndex::build(&list, 3, &filter)));
        let p = Problem::new(&grid, slots.clone(), &[], &indexes, None);
        let mut st = p.initial_state(0);
        let mut sc = Scratch::new(&p);
        p.propagate(&mut st, &mut sc, (0..slots.len()).collect()).expect("consistent");
        let s = slots.iter().position(|x| x.dir == Direction::Across && x.row == 0).expect("1-Across");
        let idx = p.index[s];
        let candidates: Vec<usize> = bits_of(&st.dom[p.dom_off[s]..p.dom_off[s] + idx.chunks]).collect();
        let mut order = candidates.clone();
        p.order_by_freedom(&st, s, &mut order);

        // Counted directly: per square, the crossing slot's candidates with that letter there.
        let keeps = |w: usize| -> usize {
            (0..3)
                .map(|q| {
                    let cell = slots[s].cell(q);
                    let Some(t) = (0..slots.len()).find(|&t| t != s && slots[t].cells().any(|c| c == cell)) else {
                        return 1;
                    };
                    let tp = slots[t].cells().position(|c| c == cell).expect("crosses");
                    bits_of(&st.dom[p.dom_off[t]..p.dom_off[t] + p.index[t].chunks])
                        .filter(|&v| p.index[t].word(v)[tp] == idx.word(w)[q])
                        .count()
                })
                .product()
        };
        let mut expected = candidates.clone();
        expected.sort_by_key(|&w| std::cmp::Reverse(keeps(w)));
        assert_eq!(order, expected, "most kept first, equals in their given order");
        let zzz = idx.find(b"ZZZ").expect("ZZZ");
        assert!(candidates.contains(&zzz) && candidates[0] == zzz, "ZZZ scores best");
        assert_eq!(keeps(zzz), 1);
        assert_eq!(*order.last().expect("some"), zzz, "and leaves the downs the least");
        assert!(keeps(order[0]) > 1);
    }
}
