//! The fill search. Each slot keeps a bitset of its candidate words (per-length
//! letter-position index, `words::LengthIndex`) and each square a 26-bit set of letters
//! still possible. After every choice the constraints are propagated to a fixpoint (arc
//! consistency between slots and squares, plus "all words distinct"), so every crossing
//! slot keeps at least one candidate. The search takes the slot with the fewest
//! candidates first, tries its candidates in a seeded random order, and restarts with
//! doubling node caps; an attempt that finishes under its cap has searched everything
//! and so proves that no fill exists.

use crate::puzzles::rng::Rng;

use super::budget::Budget;
use super::error::CrosswordError;
use super::grid::{Grid, Slot};
use super::words::LengthIndex;

/// Node cap of the first attempt; each restart doubles it.
const FIRST_ATTEMPT_NODES: u64 = 500;
const ALL_LETTERS: u32 = (1 << 26) - 1;
const NONE: u32 = u32::MAX;

/// Finds one word per slot (in `slots` order), or says why there is none.
pub(crate) fn solve(
    grid: &Grid,
    slots: &[Slot],
    indexes: &[Option<LengthIndex>],
    rng: Rng,
    budget: &mut Budget,
) -> Result<Vec<String>, CrosswordError> {
    let problem = Problem::new(grid, slots.to_vec(), indexes);
    let mut root = problem.initial_state();
    let mut scratch = Scratch::new(&problem);
    let everything = (0..problem.slots.len()).collect();
    if let Err(slot) = problem.propagate(&mut root, &mut scratch, everything) {
        let slot = problem.slots[slot].label();
        return Err(CrosswordError::NoSolution(format!(
            "no word of the list fits {slot} once the crossing letters are taken into account"
        )));
    }
    let mut solver = Solver {
        problem: &problem,
        states: vec![root],
        scratch,
        rng,
        priority: vec![0; problem.slots.len()],
        attempt_left: 0,
        budget,
    };
    let mut cap = FIRST_ATTEMPT_NODES;
    loop {
        solver.attempt_left = cap;
        for p in solver.priority.iter_mut() {
            *p = solver.rng.next_u32();
        }
        match solver.search(0) {
            Outcome::Found(depth) => {
                let st = &solver.states[depth];
                let words =
                    (0..problem.slots.len()).map(|s| problem.index[s].word_string(st.word[s] as usize)).collect();
                return Ok(words);
            }
            Outcome::Failed => {
                let nodes = solver.budget.nodes;
                return Err(CrosswordError::NoSolution(format!(
                    "an exhaustive search ({nodes} nodes) found no fill of this pattern with this word list"
                )));
            }
            Outcome::Stopped if solver.budget.stop.is_some() => {
                return Err(solver.budget.exhausted("no fill found"));
            }
            Outcome::Stopped => cap = cap.saturating_mul(2),
        }
    }
}

/// The fixed structure of one fill problem.
struct Problem<'a> {
    size: usize,
    slots: Vec<Slot>,
    index: Vec<&'a LengthIndex>,
    /// Square index (r * size + c) of each slot letter, at `pos_off[s] + p`.
    cells: Vec<usize>,
    /// The other slot through that square, if any.
    crossing: Vec<u32>,
    pos_off: Vec<usize>,
    dom_off: Vec<usize>,
    /// Slots of the same length as slot `s` (other than `s`).
    same_len: Vec<Vec<usize>>,
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

impl<'a> Problem<'a> {
    fn new(grid: &Grid, slots: Vec<Slot>, indexes: &'a [Option<LengthIndex>]) -> Problem<'a> {
        let n = grid.size();
        let index: Vec<&LengthIndex> = slots.iter().map(|s| indexes[s.len].as_ref().expect("built")).collect();
        let (mut pos_off, mut dom_off, mut cells) = (Vec::new(), Vec::new(), Vec::new());
        let mut dom_len = 0;
        for (s, slot) in slots.iter().enumerate() {
            pos_off.push(cells.len());
            dom_off.push(dom_len);
            dom_len += index[s].chunks;
            cells.extend(slot.cells().map(|(r, c)| r * n + c));
        }
        let mut owners: Vec<Vec<u32>> = vec![Vec::new(); n * n];
        for (s, slot) in slots.iter().enumerate() {
            for p in 0..slot.len {
                owners[cells[pos_off[s] + p]].push(s as u32);
            }
        }
        let mut crossing = vec![NONE; cells.len()];
        for (s, slot) in slots.iter().enumerate() {
            for p in 0..slot.len {
                let o = &owners[cells[pos_off[s] + p]];
                if let Some(&t) = o.iter().find(|&&t| t != s as u32) {
                    crossing[pos_off[s] + p] = t;
                }
            }
        }
        let same_len = (0..slots.len())
            .map(|s| (0..slots.len()).filter(|&t| t != s && slots[t].len == slots[s].len).collect())
            .collect();
        Problem { size: n, slots, index, cells, crossing, pos_off, dom_off, same_len }
    }

    fn initial_state(&self) -> State {
        let mut dom = Vec::new();
        for idx in &self.index {
            let start = dom.len();
            dom.resize(start + idx.chunks, u64::MAX);
            if idx.count % 64 != 0 {
                dom[start + idx.chunks - 1] = (1u64 << (idx.count % 64)) - 1;
            }
        }
        State {
            mask: vec![ALL_LETTERS; self.size * self.size],
            dom,
            count: self.index.iter().map(|i| i.count as u32).collect(),
            applied: vec![ALL_LETTERS; self.cells.len()],
            word: vec![NONE; self.slots.len()],
        }
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
        // when few, else by one bitset intersection per (position, letter).
        let support = &mut sc.support[..len];
        if (count as usize) <= chunks * 8 {
            support.fill(0);
            for i in bits_of(dom) {
                for (sup, &a) in support.iter_mut().zip(idx.word(i)) {
                    *sup |= 1 << a;
                }
            }
        } else {
            for (p, sup) in support.iter_mut().enumerate() {
                let m = st.mask[self.cells[pos + p]];
                *sup = letters(m)
                    .filter(|&a| dom.iter().zip(idx.bits(p, a)).any(|(d, b)| d & b != 0))
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
}

struct Solver<'a, 'b, 'p> {
    problem: &'a Problem<'a>,
    /// State per search depth (reused to avoid allocation).
    states: Vec<State>,
    scratch: Scratch,
    rng: Rng,
    /// Random tie-break between slots with equally many candidates (varies per attempt).
    priority: Vec<u32>,
    attempt_left: u64,
    budget: &'b mut Budget<'p>,
}

impl Solver<'_, '_, '_> {
    fn search(&mut self, depth: usize) -> Outcome {
        let p = self.problem;
        let st = &self.states[depth];
        let Some(s) =
            (0..p.slots.len()).filter(|&s| st.word[s] == NONE).min_by_key(|&s| (st.count[s], self.priority[s]))
        else {
            return Outcome::Found(depth);
        };
        let idx = p.index[s];
        let dom = &st.dom[p.dom_off[s]..p.dom_off[s] + idx.chunks];
        // Candidates in index order (shuffled per seed), rotated by a random amount.
        let mut candidates: Vec<usize> = bits_of(dom).collect();
        let rot = self.rng.index(candidates.len());
        candidates.rotate_left(rot);
        if self.states.len() == depth + 1 {
            let copy = self.states[depth].clone();
            self.states.push(copy);
        }
        for w in candidates {
            if self.attempt_left == 0 {
                return Outcome::Stopped;
            }
            self.attempt_left -= 1;
            if !self.budget.tick() {
                return Outcome::Stopped;
            }
            let (done, next) = self.states.split_at_mut(depth + 1);
            next[0].clone_from(&done[depth]);
            if p.assign(&mut next[0], &mut self.scratch, s, w).is_err() {
                continue;
            }
            match self.search(depth + 1) {
                Outcome::Failed => {}
                other => return other,
            }
        }
        Outcome::Failed
    }
}
