//! Depth-first walk over Gray-code prefixes from one start code, stoppable at any
//! node and resumable from a recorded position.

use crate::puzzles::monitor::Monitor;

/// Which codes are on the current path: register-sized masks for small codes.
pub(super) trait Visited {
    fn empty(bits: u32) -> Self;
    fn has(&self, code: u32) -> bool;
    fn set(&mut self, code: u32);
    fn clear(&mut self, code: u32);
}

/// Up to 7 bits: one register (`u64`, `u128`), a code's bit its mark.
impl<M> Visited for M
where
    M: Copy
        + From<u8>
        + PartialEq
        + std::ops::Shl<u32, Output = M>
        + std::ops::Shr<u32, Output = M>
        + std::ops::BitAnd<Output = M>
        + std::ops::BitOrAssign
        + std::ops::BitAndAssign
        + std::ops::Not<Output = M>,
{
    fn empty(_: u32) -> Self {
        M::from(0)
    }
    fn has(&self, code: u32) -> bool {
        *self >> code & M::from(1) != M::from(0)
    }
    fn set(&mut self, code: u32) {
        *self |= M::from(1) << code;
    }
    fn clear(&mut self, code: u32) {
        *self &= !(M::from(1) << code);
    }
}

/// For 8 bits and more.
pub(super) struct Wide(Vec<u64>);

impl Visited for Wide {
    fn empty(bits: u32) -> Self {
        Wide(vec![0; ((1usize << bits) / 64).max(1)])
    }
    fn has(&self, code: u32) -> bool {
        self.0[(code >> 6) as usize] >> (code & 63) & 1 != 0
    }
    fn set(&mut self, code: u32) {
        self.0[(code >> 6) as usize] |= 1 << (code & 63);
    }
    fn clear(&mut self, code: u32) {
        self.0[(code >> 6) as usize] &= !(1 << (code & 63));
    }
}

/// Why a walk stopped before finishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    Budget,
    Cancelled,
}

/// Counts search nodes against the budget and reports progress.
pub(super) struct Meter<'p> {
    pub nodes: u64,
    pub budget: u64,
    progress: &'p mut dyn Monitor,
}

/// Nodes between progress reports (a few ms).
const REPORT_EVERY: u64 = 1 << 18;

impl<'p> Meter<'p> {
    pub fn new(budget: u64, progress: &'p mut dyn Monitor) -> Self {
        Meter { nodes: 0, budget, progress }
    }

    fn node(&mut self) -> Result<(), Stop> {
        if self.nodes >= self.budget {
            return Err(Stop::Budget);
        }
        self.nodes += 1;
        if self.nodes & (REPORT_EVERY - 1) == 0 && !self.progress.update(self.nodes, self.budget) {
            return Err(Stop::Cancelled);
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// Children by increasing code, so sequences come out in lexicographic order.
    Lex,
    /// Only bits already flipped plus the lowest unflipped one: one representative per
    /// relabelling of the bits (for counting; see `count`).
    Canonical,
}

/// What the walk is looking for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub bits: u32,
    pub length: usize,
    pub circular: bool,
}

struct Frame {
    code: u32,
    /// Flips still to try from here: only those leading to a free code that can still
    /// close up, worked out once when the frame is pushed. The path above this frame
    /// is the same whenever the walk is back here, so the mask stays valid.
    rest: u32,
    /// Canonical order: bits `0..used` have been flipped somewhere on the path.
    used: u32,
}

/// Where a stopped or paused walk stands: the path so far, and, unless the path is
/// a complete sequence (resume after it), the next flip to try at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Position {
    pub path: Vec<u32>,
    pub pending: Option<u32>,
}

pub(super) struct Walk<V> {
    shape: Shape,
    order: Order,
    start: u32,
    stack: Vec<Frame>,
    visited: V,
    /// A walk whose paths are a single code yields its root once.
    root_yielded: bool,
    /// Paths of this many codes are yielded: `shape.length`, or one less for
    /// `counting` walks.
    yield_len: usize,
}

impl<V: Visited> Walk<V> {
    /// All sequences from `start`, in order.
    pub fn new(shape: Shape, order: Order, start: u32) -> Self {
        Self::build(shape, order, start, shape.length)
    }

    /// Canonical paths from 0 one code short of complete, so the caller can add up
    /// the last steps without placing them (most nodes of a search are last steps).
    /// Needs `shape.length >= 2`.
    pub fn counting(shape: Shape) -> Self {
        Self::build(shape, Order::Canonical, 0, shape.length - 1)
    }

    fn build(shape: Shape, order: Order, start: u32, yield_len: usize) -> Self {
        let mut walk = Walk {
            shape,
            order,
            start,
            stack: Vec::new(),
            visited: V::empty(shape.bits),
            root_yielded: false,
            yield_len,
        };
        walk.push(start, 0);
        walk
    }

    /// Continues from `at` (a path of distinct adjacent codes, checked by the caller).
    pub fn resume(shape: Shape, at: &Position) -> Self {
        let mut walk = Walk::new(shape, Order::Lex, at.path[0]);
        walk.root_yielded = true;
        for pair in at.path.windows(2) {
            walk.drop_flips_before((pair[0] ^ pair[1]).trailing_zeros(), true);
            walk.push(pair[1], 0);
        }
        if let Some(flip) = at.pending {
            walk.drop_flips_before(flip, false);
        }
        walk
    }

    fn push(&mut self, code: u32, used: u32) {
        self.visited.set(code);
        let depth = self.stack.len() + 1;
        let mut rest = 0;
        if depth < self.yield_len {
            let span = match self.order {
                Order::Lex => self.shape.bits,
                Order::Canonical => (used + 1).min(self.shape.bits),
            };
            for k in 0..span {
                let next = code ^ (1 << k);
                // A circular code must end next to its start: never drift further from
                // it than the codes still to place can undo.
                let ok = !self.visited.has(next)
                    && (!self.shape.circular || (next ^ self.start).count_ones() as usize <= self.shape.length - depth);
                rest |= (ok as u32) << k;
            }
        }
        self.stack.push(Frame { code, rest, used });
    }

    /// Removes from the top frame the flips ordered before `flip` (and `flip` too if
    /// `inclusive`), whether or not `flip` itself is a valid step.
    fn drop_flips_before(&mut self, flip: u32, inclusive: bool) {
        let order = self.order;
        let top = self.stack.last_mut().expect("root");
        let mut all = (1u32 << self.shape.bits) - 1;
        while all != 0 {
            let k = next_flip(order, top.code, all);
            if k == flip && !inclusive {
                break;
            }
            all &= !(1 << k);
            top.rest &= !(1 << k);
            if k == flip {
                break;
            }
        }
    }

    /// Advances to the next path (`Ok(true)`, read it with `path`), or `Ok(false)`
    /// once every path from this start has been seen. On `Err` the walk stands still:
    /// `position` says where, nothing is lost.
    pub fn next_sequence(&mut self, meter: &mut Meter) -> Result<bool, Stop> {
        if !self.root_yielded {
            self.root_yielded = true;
            if self.yield_len == 1 {
                return Ok(true);
            }
        }
        loop {
            let Some(top) = self.stack.last_mut() else { return Ok(false) };
            if top.rest == 0 {
                self.visited.clear(top.code);
                self.stack.pop();
                continue;
            }
            let k = next_flip(self.order, top.code, top.rest);
            meter.node()?;
            top.rest &= !(1 << k);
            let (next, used) = (top.code ^ (1 << k), top.used.max(k + 1));
            self.push(next, used);
            if self.stack.len() == self.yield_len {
                return Ok(true);
            }
        }
    }

    /// Codes on the current path (the sequence just found, after `Ok(true)`).
    pub fn path(&self) -> Vec<u32> {
        self.stack.iter().map(|f| f.code).collect()
    }

    /// Canonical order: how many distinct bits the current path flips.
    pub fn bits_used(&self) -> u32 {
        self.stack.last().map_or(0, |f| f.used)
    }

    /// The last code of the current path.
    pub fn end(&self) -> u32 {
        self.stack.last().map_or(self.start, |f| f.code)
    }

    /// Whether `code` is not on the current path.
    pub fn is_free(&self, code: u32) -> bool {
        !self.visited.has(code)
    }

    /// Where to resume: after a found sequence, or at the node a stop interrupted.
    pub fn position(&self) -> Position {
        let top = self.stack.last().expect("a stopped walk has a path");
        let pending = (self.stack.len() < self.shape.length).then(|| next_flip(self.order, top.code, top.rest));
        Position { path: self.path(), pending }
    }
}

/// The next bit to flip among `rest`. Lex: bits that are set in `code` (flipping
/// lowers the code) from the highest down, then clear bits from the lowest up, which
/// visits the children in increasing code order. Canonical: lowest first.
fn next_flip(order: Order, code: u32, rest: u32) -> u32 {
    let down = rest & code;
    match order {
        Order::Lex if down != 0 => 31 - down.leading_zeros(),
        _ => rest.trailing_zeros(),
    }
}
