//! Knuth and Plass's total-fit line breaking ("Breaking paragraphs into lines", 1981), as
//! TeX does it: a paragraph is a list of boxes, glue and penalties; among every way of
//! breaking it into lines no looser than a tolerance, the one with the least total
//! demerits is chosen, demerits growing with each line's badness, with penalties, with
//! hyphenated lines in a row and with a very loose line next to a tight one. Beyond TeX, a
//! hard limit on consecutive hyphenated lines (by default three, book typography's usual
//! rule: a limit of two left a fifth more lines of a dictionary's narrow columns loose).

/// A penalty this large forbids a break; its negative forces one.
pub const INFINITY: f32 = 10_000.0;

/// The largest badness: a line that cannot stretch enough.
pub const AWFUL: f32 = 10_000.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Item {
    /// Something of fixed width (a word or part of one).
    Box { width: f32 },
    /// Space that may stretch or shrink, and a break (if a box precedes it). `fill` glue
    /// stretches without limit (the ragged end of a paragraph's last line).
    Glue { width: f32, stretch: f32, shrink: f32, fill: bool },
    /// A possible break costing `penalty`, adding `width` (a hyphen) to a line it ends;
    /// `flagged` breaks are hyphens (two in a row cost extra).
    Penalty { width: f32, penalty: f32, flagged: bool },
}

/// How lines are judged. The defaults are plain TeX's, with at most three hyphenated lines in
/// a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Largest badness a line may have.
    pub tolerance: f32,
    /// Added to every line's badness before squaring (fewer lines are better).
    pub line_penalty: f32,
    /// Two hyphenated lines in a row.
    pub double_hyphen_demerits: f32,
    /// A hyphen on the last line but one.
    pub final_hyphen_demerits: f32,
    /// Lines of fitness classes more than one apart next to each other.
    pub adj_demerits: f32,
    /// At most this many hyphenated lines in a row.
    pub max_hyphens_in_a_row: usize,
    /// Extra stretch every line is assumed to have when judging its badness (TeX's
    /// \emergencystretch): lines may then be set looser than the tolerance.
    pub emergency_stretch: f32,
    /// Whether a line may end at a hyphenation point (a flagged penalty that adds a
    /// hyphen's width); TeX's first pass has none. Explicit hyphens (adding nothing) stay.
    pub hyphenation: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            tolerance: 200.0,
            line_penalty: 10.0,
            double_hyphen_demerits: 10_000.0,
            final_hyphen_demerits: 5_000.0,
            adj_demerits: 10_000.0,
            max_hyphens_in_a_row: 3,
            emergency_stretch: 0.0,
            hyphenation: true,
        }
    }
}

/// One line of the chosen breaking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Break {
    /// The item the line ends at (a glue or penalty, or the paragraph's last item).
    pub at: usize,
    /// How far the line's glue is stretched (> 0, 1 = all its stretch) or shrunk (< 0);
    /// beyond 1 a line is looser than its glue allows (an underfull line), 0 for a line
    /// with fill glue.
    pub ratio: f32,
    /// TeX's badness of the line as set: 100 |ratio|³, at most [`AWFUL`].
    pub badness: f32,
    /// Whether the line ends at a flagged penalty (a hyphen).
    pub hyphenated: bool,
}

/// TeX's badness of a line stretched or shrunk by `ratio`.
pub fn badness(ratio: f32) -> f32 {
    if !ratio.is_finite() {
        return AWFUL;
    }
    (100.0 * ratio.abs().powi(3)).min(AWFUL)
}

/// The fitness class of a line: 0 tight, 1 decent, 2 loose, 3 very loose.
fn fitness(ratio: f32) -> u8 {
    if ratio < -0.5 {
        0
    } else if ratio <= 0.5 {
        1
    } else if ratio <= 1.0 {
        2
    } else {
        3
    }
}

/// Sums of widths, stretch, shrink and fill glue of the items before a position. The
/// count of fill glue is a float too, and an item is added to all four at once
/// ([`Sums::plus`]): the sums are then written whole, as they are read (a field written on
/// its own and the whole read back next stalled the read).
/// They are `f64`: a line is the difference of two sums, and past some 100,000 points (a
/// long paragraph) an `f32` sum's rounding nears the hundredth of a point a line may be
/// over its width.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct Sums {
    width: f64,
    stretch: f64,
    shrink: f64,
    fill: f64,
}

impl Sums {
    #[inline]
    fn plus(self, width: f32, stretch: f32, shrink: f32, fill: bool) -> Sums {
        Sums {
            width: self.width + width as f64,
            stretch: self.stretch + stretch as f64,
            shrink: self.shrink + shrink as f64,
            fill: self.fill + fill as u32 as f64,
        }
    }
}

/// An active node (`node` in `nodes`) with what trying a line from it needs, read in
/// order at each break rather than looked up in the node and the sums, and its reach.
#[derive(Clone, Copy, Debug)]
struct Active {
    /// The sums at the start of its line.
    after: Sums,
    demerits: f64,
    node: u32,
    reach: f64,
    at: u32,
    line: u32,
    hyphens: u32,
    fitness: u8,
    stricter: u8,
}

/// No previous node: the paragraph's start.
const START: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The item broken at (0 for the paragraph's start).
    at: u32,
    /// Lines before this break.
    line: u32,
    fitness: u8,
    /// Hyphenated lines in a row ending here.
    hyphens: u32,
    demerits: f64,
    /// The node of the previous break (in `nodes`), [`START`] at the start.
    prev: u32,
    /// The first item after the break that is kept (a line starts there).
    start: u32,
    ratio: f32,
    /// Which of the stricter passes followed (bit k: `stricter[k]` of
    /// [`Breaker::breaks_and_stricter`]) reach this break with these hyphens in a row.
    stricter: u8,
}

/// Breaks `items` into lines of widths `widths[0]` (the first line) and `widths[1]` (every
/// other line). The paragraph must end with a forced break (a penalty of -[`INFINITY`]).
/// None when no breaking keeps every line within the tolerance and no wider than its
/// width; with `allow_overfull`, a line may be too wide (at enormous demerits) rather than
/// there being no breaking at all.
pub fn break_lines(items: &[Item], widths: [f32; 2], params: &Params, allow_overfull: bool) -> Option<Vec<Break>> {
    let mut breaker = Breaker::default();
    breaker.measure(items);
    breaker.breaks(items, widths, params, allow_overfull)
}

/// Line breaking of one paragraph in several passes (at several tolerances): the items are
/// measured once, and the buffers serve every pass and paragraph after.
#[derive(Debug, Default)]
pub struct Breaker {
    /// `sums[i]`: of the items before `i`.
    sums: Vec<Sums>,
    /// Of the items pushed so far, and whether the last was a box.
    sum: Sums,
    after_box: bool,
    /// `next[i]`: the first item from `i` on that a line keeps at its start (a box or a
    /// forced break): glue and penalties after a break are discarded up to it.
    next: Vec<u32>,
    /// The items measured (their address and count), to check each pass is given them.
    measured: (usize, usize),
    /// Every legal break, in order: (item, penalty, width added, flagged). A pass visits
    /// these only, not the boxes between (half the items).
    legal: Vec<(u32, f32, f32, bool)>,
    nodes: Vec<Node>,
    /// The active nodes in the order made, each with the reach (see
    /// [`Breaker::breaks_and_stricter`]) below which a line from it is too loose for sure:
    /// those reached (a prefix) are tried at each break, the rest wait.
    active: Vec<Active>,
    best: Vec<Node>,
    /// (active node, break) pairs tried by the last pass: its work.
    work: usize,
    /// Every active node tried at every break, none waiting: the same breaks, slower (a
    /// test's yardstick).
    try_every_node: bool,
    /// At the break being tried: (hyphens in a row, the stricter passes reaching it so).
    reached_by: Vec<(u32, u8)>,
}

impl Breaker {
    /// Measures `items` for the passes that follow: [`Breaker::begin`], each item
    /// [pushed](Breaker::push), [`Breaker::end`].
    pub fn measure(&mut self, items: &[Item]) {
        self.begin();
        for &item in items {
            self.push(item);
        }
        self.end(items);
    }

    /// Starts measuring a paragraph's items, given one by one as they are made (where
    /// each is made its kind is known: measured afterwards, telling the kinds apart again
    /// was a twentieth of setting a dictionary).
    pub fn begin(&mut self) {
        self.sums.clear();
        self.legal.clear();
        self.next.clear();
        self.sum = Sums::default();
        self.after_box = false;
    }

    /// The next item of the paragraph being measured.
    #[inline]
    pub fn push(&mut self, item: Item) {
        match item {
            Item::Box { width } => self.push_box(width),
            Item::Glue { width, stretch, shrink, fill } => self.push_glue(width, stretch, shrink, fill),
            Item::Penalty { width, penalty, flagged } => self.push_penalty(width, penalty, flagged),
        }
    }

    /// [`Breaker::push`] of glue, given its fields: where the kind is known, it is not told
    /// apart again.
    #[inline]
    pub fn push_glue(&mut self, width: f32, stretch: f32, shrink: f32, fill: bool) {
        let i = self.sums.len();
        self.sums.push(self.sum);
        self.sum = self.sum.plus(width, stretch, shrink, fill);
        if self.after_box {
            self.legal.push((i as u32, 0.0, 0.0, false));
        }
        self.after_box = false;
    }

    /// [`Breaker::push`] of a penalty, given its fields.
    #[inline]
    pub fn push_penalty(&mut self, width: f32, penalty: f32, flagged: bool) {
        let i = self.sums.len();
        self.sums.push(self.sum);
        if penalty < INFINITY {
            self.legal.push((i as u32, penalty, width, flagged));
        }
        if penalty <= -INFINITY {
            self.next.resize(i + 1, i as u32);
        }
        self.after_box = false;
    }

    /// [`Breaker::push`] of a box `width` wide (given its width alone, the box is not
    /// stored on the stack to be read back whole, which stalled the read).
    #[inline]
    pub fn push_box(&mut self, width: f32) {
        let i = self.sums.len();
        self.sums.push(self.sum);
        self.sum = self.sum.plus(width, 0.0, 0.0, false);
        // A line starts here, after a break at any item since the last such.
        self.next.resize(i + 1, i as u32);
        self.after_box = true;
    }

    /// Ends measuring: `items` are those pushed since [`Breaker::begin`].
    pub fn end(&mut self, items: &[Item]) {
        let n = items.len();
        assert_eq!(self.sums.len(), n, "the items pushed");
        self.sums.push(self.sum);
        self.next.resize(n + 1, n as u32);
        self.measured = (items.as_ptr() as usize, n);
    }

    /// One pass over the measured `items`: [`break_lines`].
    pub fn breaks(
        &mut self,
        items: &[Item],
        widths: [f32; 2],
        params: &Params,
        allow_overfull: bool,
    ) -> Option<Vec<Break>> {
        self.breaks_and_stricter(items, widths, params, allow_overfull, &[]).0
    }

    /// [`Breaker::breaks`], and whether a pass with each of the `stricter` parameters (at
    /// most 8) would find a breaking (bit k for `stricter[k]`): one whose lines are each
    /// feasible in this pass too (no more emergency stretch, no higher tolerance, the same
    /// limit on hyphens in a row) finds one exactly where the lines feasible by its own
    /// judgement reach the end, which this pass follows on its way at little cost. Only
    /// known when this pass finds a breaking (0 otherwise).
    pub fn breaks_and_stricter(
        &mut self,
        items: &[Item],
        widths: [f32; 2],
        params: &Params,
        allow_overfull: bool,
        stricter: &[Params],
    ) -> (Option<Vec<Break>>, u8) {
        assert_eq!(self.measured, (items.as_ptr() as usize, items.len()), "the items measured");
        assert!(stricter.len() <= 8 && !allow_overfull || stricter.is_empty());
        for q in stricter {
            let within = q.emergency_stretch <= params.emergency_stretch
                && q.tolerance <= params.tolerance
                && (params.hyphenation || !q.hyphenation)
                && q.max_hyphens_in_a_row == params.max_hyphens_in_a_row;
            assert!(within, "{q:?} is not stricter than {params:?}");
        }
        let n = items.len();
        self.work = 0;
        let Breaker { sums, next, legal, nodes, active, best, work, try_every_node, reached_by, .. } = self;
        // Where a line after a break at `b` starts.
        let start = |b: usize| if b == 0 { 0 } else { next[b + 1] };
        // Most lines tried are too loose (the break is less than a line from the node), and
        // a line from a node stays too loose until its width plus `reach` times its stretch
        // comes within the line's width less `reach` times the emergency stretch, both
        // growing with the break: its reach. So each node waits for the breaks before
        // its reach and is tried from there on. `reach` is the largest ratio the tolerance
        // allows and a little more (only a line too loose for sure waits); any line is
        // within the tolerance of AWFUL or with `allow_overfull`, a line with fill glue is
        // never too loose and none goes past a forced break: then every node is tried. (The
        // margin, a hundredth of a point and a hundred thousandth, outweighs rounding.)
        let reach = 1.001 * (params.tolerance as f64 / 100.0).cbrt() + 1e-4;
        let waits = params.tolerance < AWFUL && !allow_overfull && !*try_every_node;
        let from = |node: &Node| {
            let after = sums[node.start as usize];
            let width = widths[(node.line as usize).min(1)] as f64;
            let reach = after.width + reach * after.stretch + width - reach * params.emergency_stretch as f64;
            reach - 0.01 - reach.abs() * 1e-5
        };
        let every = (1u16 << stricter.len()).wrapping_sub(1) as u8;
        let first = Node {
            at: 0,
            line: 0,
            fitness: 1,
            hyphens: 0,
            demerits: 0.0,
            prev: START,
            start: start(0),
            ratio: 0.0,
            stricter: every,
        };
        nodes.clear();
        nodes.push(first);
        active.clear();
        let activate = |i: u32, node: &Node, reach: f64| Active {
            after: sums[node.start as usize],
            demerits: node.demerits,
            node: i,
            reach,
            at: node.at,
            line: node.line,
            hyphens: node.hyphens,
            fitness: node.fitness,
            stricter: node.stricter,
        };
        active.push(activate(0, &first, from(&first)));
        // Active nodes before this one have been reached.
        let mut reached = 0;

        for &(b, penalty, pwidth, flagged) in legal.iter() {
            if flagged && pwidth != 0.0 && !params.hyphenation {
                continue;
            }
            let b = b as usize;
            let forced = penalty <= -INFINITY;
            let s = sums[b];
            let here = s.width + pwidth as f64 + reach * s.stretch;
            let tries_waiting = waits && s.fill == 0.0 && !forced;
            // No node tried and none reached yet (most breaks in a line's middle, once the
            // nodes before have gone too wide): nothing to do here.
            if tries_waiting && reached == 0 && active[0].reach > here {
                continue;
            }
            reached = if tries_waiting {
                reached + active[reached..].iter().take_while(|a| a.reach <= here).count()
            } else {
                active.len()
            };
            // Best new node per (fitness class, hyphens in a row), and the stricter passes
            // reaching this break per hyphens in a row.
            best.clear();
            reached_by.clear();
            *work += reached;
            // The nodes kept are moved down over those dropped, in order.
            let mut kept = 0;
            for i in 0..reached {
                let a = active[i];
                if a.at as usize == b {
                    active[kept] = a;
                    kept += 1;
                    continue;
                }
                let width = widths[(a.line as usize).min(1)];
                let after = a.after;
                // The line's own sums are small: `f32` from here on, as before.
                let length = (s.width - after.width) as f32 + pwidth;
                let fill = s.fill > after.fill;
                let stretch = (s.stretch - after.stretch) as f32;
                let shrink = (s.shrink - after.shrink) as f32;
                // The ratio as set, and as judged (with the emergency stretch).
                let (ratio, judged) = if length > width {
                    let r = if shrink > 0.0 { (width - length) / shrink } else { f32::NEG_INFINITY };
                    (r, r)
                } else if fill {
                    (0.0, 0.0)
                } else if length < width {
                    let r = |y: f32| if y > 0.0 { (width - length) / y } else { f32::INFINITY };
                    (r(stretch), r(stretch + params.emergency_stretch))
                } else {
                    (0.0, 0.0)
                };
                let overfull = judged < -1.0;
                // A line already too wide only gets wider, and none goes past a forced break:
                // the node is done. (With `allow_overfull`, the overfull line ending here is
                // still made below: it is the least overfull one from this node, as TeX's
                // final pass makes it. Keeping the node would make every later break try it,
                // quadratic in the paragraph's length.)
                if !forced && !overfull {
                    active[kept] = a;
                    kept += 1;
                }
                let bad = if overfull { AWFUL } else { badness(judged) };
                let hyphens = if flagged { a.hyphens.saturating_add(1) } else { 0 };
                // Without a limit, only "after a hyphen or not" matters to what follows: one
                // node per fitness class then, however many hyphenated lines precede (one per
                // count would grow the active list with every line of a word split letter by
                // letter).
                let hyphens = if params.max_hyphens_in_a_row == usize::MAX { hyphens.min(1) } else { hyphens };
                let feasible = if overfull { allow_overfull } else { bad <= params.tolerance || allow_overfull };
                if !feasible || hyphens as usize > params.max_hyphens_in_a_row {
                    continue;
                }
                if a.stricter != 0 {
                    // The line as the stricter passes judge it: no more than its own stretch
                    // (or their smaller emergency stretch), their tolerance, their breaks.
                    let mut by = 0;
                    for (k, q) in stricter.iter().enumerate() {
                        let judged = if length < width && !fill && q.emergency_stretch > 0.0 {
                            (width - length) / (stretch + q.emergency_stretch)
                        } else {
                            ratio
                        };
                        let allowed = q.hyphenation || !(flagged && pwidth != 0.0);
                        if a.stricter & (1 << k) != 0 && allowed && badness(judged) <= q.tolerance {
                            by |= 1 << k;
                        }
                    }
                    match reached_by.iter_mut().find(|r| r.0 == hyphens) {
                        Some(r) => r.1 |= by,
                        None => reached_by.push((hyphens, by)),
                    }
                }
                let mut d = (params.line_penalty + bad) as f64;
                d *= d;
                if penalty >= 0.0 {
                    d += (penalty as f64).powi(2);
                } else if !forced {
                    d -= (penalty as f64).powi(2);
                }
                if flagged && a.hyphens > 0 {
                    d += params.double_hyphen_demerits as f64;
                }
                if forced && a.hyphens > 0 {
                    d += params.final_hyphen_demerits as f64;
                }
                let class = fitness(judged);
                if class.abs_diff(a.fitness) > 1 {
                    d += params.adj_demerits as f64;
                }
                if overfull {
                    d += 1e12 * (length - width) as f64;
                }
                let total = a.demerits + d;
                match best.iter_mut().find(|n| n.fitness == class && n.hyphens == hyphens) {
                    Some(n) if n.demerits <= total => {}
                    Some(n) => {
                        *n = Node { demerits: total, prev: a.node, line: a.line + 1, ratio, ..*n };
                    }
                    None => best.push(Node {
                        at: b as u32,
                        line: a.line + 1,
                        fitness: class,
                        hyphens,
                        demerits: total,
                        prev: a.node,
                        start: start(b),
                        ratio,
                        stricter: 0,
                    }),
                }
            }
            if kept < reached {
                active.drain(kept..reached);
                reached = kept;
            }
            for &node in best.iter() {
                let stricter = reached_by.iter().find(|r| r.0 == node.hyphens).map_or(0, |r| r.1);
                let node = Node { stricter, ..node };
                nodes.push(node);
                // Reaches stay in order (the nodes wait their turn): a node reaching less
                // far than those waiting before it (a line of another width) brings theirs
                // down to its own, which only tries them sooner.
                let mine = from(&node);
                for waiting in active[reached..].iter_mut().rev() {
                    if waiting.reach <= mine {
                        break;
                    }
                    waiting.reach = mine;
                }
                active.push(activate(nodes.len() as u32 - 1, &node, mine));
            }
            if active.is_empty() {
                return (None, 0);
            }
        }
        // The best node at the final (forced) break.
        let ends = || {
            active
                .iter()
                .map(|a| a.node)
                .filter(|&i| nodes[i as usize].at as usize == n - 1 && nodes[i as usize].prev != START)
        };
        let Some(last) = ends().min_by(|&x, &y| nodes[x as usize].demerits.total_cmp(&nodes[y as usize].demerits))
        else {
            return (None, 0);
        };
        let found_by = ends().fold(0, |by, i| by | nodes[i as usize].stricter);
        let mut out = Vec::with_capacity(nodes[last as usize].line as usize);
        let mut i = last;
        while i != START {
            let node = nodes[i as usize];
            if node.prev == START {
                break;
            }
            let hyphenated = matches!(items[node.at as usize], Item::Penalty { flagged: true, .. });
            out.push(Break { at: node.at as usize, ratio: node.ratio, badness: badness(node.ratio), hyphenated });
            i = node.prev;
        }
        out.reverse();
        (Some(out), found_by)
    }
}

/// [`break_lines`], and how many (active node, break) pairs it tried: the work, which
/// must grow linearly with the paragraph (the active list is bounded by what fits on a
/// line), whatever the paragraph holds.
#[cfg(test)]
fn search(items: &[Item], widths: [f32; 2], params: &Params, allow_overfull: bool) -> (Option<Vec<Break>>, usize) {
    let mut breaker = Breaker::default();
    breaker.measure(items);
    let breaks = breaker.breaks(items, widths, params, allow_overfull);
    (breaks, breaker.work)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of these widths separated by spaces of width 2 (stretch 1, shrink 0.5), a
    /// hyphenation point (hyphen 1 wide) where a width is negative (before its word).
    fn para(words: &[f32]) -> Vec<Item> {
        let mut items = Vec::new();
        for (i, &w) in words.iter().enumerate() {
            if w < 0.0 {
                items.push(Item::Penalty { width: 1.0, penalty: 50.0, flagged: true });
                items.push(Item::Box { width: -w });
                continue;
            }
            if i > 0 {
                items.push(Item::Glue { width: 2.0, stretch: 1.0, shrink: 0.5, fill: false });
            }
            items.push(Item::Box { width: w });
        }
        items.push(Item::Penalty { width: 0.0, penalty: INFINITY, flagged: false });
        items.push(Item::Glue { width: 0.0, stretch: 0.0, shrink: 0.0, fill: true });
        items.push(Item::Penalty { width: 0.0, penalty: -INFINITY, flagged: false });
        items
    }

    #[test]
    fn badness_and_fitness_as_tex() {
        assert_eq!(badness(0.0), 0.0);
        assert_eq!(badness(1.0), 100.0);
        assert_eq!(badness(-0.5), 12.5);
        assert_eq!(badness(5.0), AWFUL);
        assert_eq!(badness(f32::INFINITY), AWFUL);
        assert_eq!([-0.9, 0.0, 0.7, 2.0].map(fitness), [0, 1, 2, 3]);
    }

    #[test]
    fn breaks_end_at_the_forced_break_and_set_each_line() {
        // Width 20: "8 8" (18, its one unit of stretch used twice), "9 9" (exactly 20),
        // then "4" on the ragged last line.
        let items = para(&[8.0, 8.0, 9.0, 9.0, 4.0]);
        let p = Params { tolerance: AWFUL, ..Params::default() };
        let breaks = break_lines(&items, [20.0, 20.0], &p, false).unwrap();
        assert_eq!(breaks.len(), 3);
        assert_eq!(breaks.last().unwrap().at, items.len() - 1);
        assert_eq!((breaks[0].ratio, breaks[0].badness, breaks[1].ratio), (2.0, 800.0, 0.0));
        // A first line of its own width: "5 5 5" (19) exactly, then "12" ragged.
        let items = para(&[5.0, 5.0, 5.0, 12.0]);
        let breaks = break_lines(&items, [19.0, 25.0], &p, false).unwrap();
        assert_eq!(breaks.len(), 2);
        assert_eq!(breaks[0].ratio, 0.0);
        // The same words on a narrower first line: it shrinks ("5 5 5" in 18.5 needs all
        // the shrink), never further.
        let breaks = break_lines(&items, [18.0, 25.0], &p, false).unwrap();
        assert!(breaks[0].ratio >= -1.0);
    }

    #[test]
    fn a_forced_end_and_no_feasible_breaking() {
        // A box wider than the line: nothing feasible, unless overfull lines are allowed.
        let items = para(&[5.0, 30.0, 5.0]);
        assert_eq!(break_lines(&items, [20.0, 20.0], &Params::default(), false), None);
        let breaks = break_lines(&items, [20.0, 20.0], &Params::default(), true).unwrap();
        assert_eq!(breaks.len(), 3);
        // Tolerance: lines that must stretch past it are refused.
        let items = para(&[10.0, 10.0, 10.0]);
        assert_eq!(break_lines(&items, [28.0, 28.0], &Params { tolerance: 100.0, ..Params::default() }, false), None);
        assert!(break_lines(&items, [28.0, 28.0], &Params { tolerance: AWFUL, ..Params::default() }, false).is_some());
        // Emergency stretch makes the loose line acceptable while it is set as loose.
        let p = Params { tolerance: 200.0, emergency_stretch: 20.0, ..Params::default() };
        let b = break_lines(&items, [28.0, 28.0], &p, false).unwrap();
        assert!(b[0].ratio > 1.0 && b[0].badness > 200.0);
    }

    #[test]
    fn the_work_is_linear_in_the_paragraph_even_split_letter_by_letter() {
        // A word of `letters` letters 5 wide, a break between any two (as a word wider
        // than the column is split), lines of 100: unlimited hyphens in a row, and the
        // pass that allows overfull lines (a letter wider than the line among them).
        let word = |letters: usize, wide: usize| {
            let mut items = Vec::new();
            for i in 0..letters {
                if i > 0 {
                    items.push(Item::Penalty { width: 3.0, penalty: 50.0, flagged: true });
                }
                items.push(Item::Box { width: if i % 500 == wide { 150.0 } else { 5.0 } });
            }
            items.push(Item::Penalty { width: 0.0, penalty: INFINITY, flagged: false });
            items.push(Item::Glue { width: 0.0, stretch: 0.0, shrink: 0.0, fill: true });
            items.push(Item::Penalty { width: 0.0, penalty: -INFINITY, flagged: false });
            items
        };
        let split = Params { tolerance: AWFUL, max_hyphens_in_a_row: usize::MAX, ..Params::default() };
        for (wide, overfull) in [(usize::MAX, false), (7, true)] {
            let per_item: Vec<f64> = [1_000, 10_000]
                .map(|letters| {
                    let items = word(letters, wide);
                    let (breaks, work) = search(&items, [100.0, 100.0], &split, overfull);
                    let breaks = breaks.expect("a breaking");
                    assert!(breaks.len() >= letters * 5 / 100, "{letters}: {} lines", breaks.len());
                    work as f64 / items.len() as f64
                })
                .into();
            // About a line's worth of letters (20) times the fitness classes and the two
            // hyphen states, at most, per item; the same for ten times the letters.
            assert!(per_item.iter().all(|&w| w < 200.0), "{per_item:?}");
            assert!(per_item[1] < per_item[0] * 1.5, "{per_item:?}");
        }
    }

    /// Random paragraphs of words with hyphenation points (and now and then an explicit
    /// hyphen), spaces after sentences stretching more, and their line widths, a first
    /// line wider or narrower than the rest.
    fn random_paragraphs(count: usize) -> Vec<(Vec<Item>, [f32; 2])> {
        let mut generator = crate::render::typeset::sample::Lcg(11);
        let mut next = |n: u64| generator.below(n as usize) as u64;
        (0..count)
            .map(|_| {
                let mut items = Vec::new();
                for w in 0..5 + next(60) {
                    if w > 0 {
                        let factor = if next(6) == 0 { 3.0 } else { 1.0 };
                        items.push(Item::Glue { width: 2.5, stretch: 1.5 * factor, shrink: 0.8 / factor, fill: false });
                    }
                    for piece in 0..1 + next(3) {
                        if piece > 0 {
                            let width = if next(8) == 0 { 0.0 } else { 2.0 };
                            items.push(Item::Penalty { width, penalty: 50.0, flagged: true });
                        }
                        items.push(Item::Box { width: 3.0 + next(25) as f32 });
                    }
                }
                items.push(Item::Penalty { width: 0.0, penalty: INFINITY, flagged: false });
                items.push(Item::Glue { width: 0.0, stretch: 0.0, shrink: 0.0, fill: true });
                items.push(Item::Penalty { width: 0.0, penalty: -INFINITY, flagged: false });
                let measure = 60.0 + next(120) as f32;
                (items, [measure - 12.0 + next(24) as f32, measure])
            })
            .collect()
    }

    #[test]
    fn nodes_waiting_for_their_reach_change_nothing() {
        // At each pass's settings: the same breaks (or none) whether nodes wait or every
        // one is tried.
        let (mut waited, mut every) = (0, 0);
        for (i, (items, widths)) in random_paragraphs(300).into_iter().enumerate() {
            for params in [
                Params { tolerance: 100.0, hyphenation: false, ..Params::default() },
                Params::default(),
                Params { emergency_stretch: 4.0 * (i % 4) as f32, ..Params::default() },
                Params { tolerance: AWFUL, ..Params::default() },
            ] {
                for allow_overfull in [false, true] {
                    let mut breaker = Breaker::default();
                    breaker.measure(&items);
                    let fast = breaker.breaks(&items, widths, &params, allow_overfull);
                    let work = breaker.work;
                    breaker.try_every_node = true;
                    let slow = breaker.breaks(&items, widths, &params, allow_overfull);
                    // Nodes wait only where some line is too loose.
                    if params.tolerance < AWFUL && !allow_overfull {
                        (waited, every) = (waited + work, every + breaker.work);
                    }
                    assert_eq!(fast, slow, "{params:?} {allow_overfull} {widths:?}");
                }
            }
        }
        assert!(waited < every * 3 / 4, "{waited} pairs tried, {every} with every node");
    }

    #[test]
    fn a_pass_knows_which_stricter_passes_would_find_a_breaking() {
        // With a third of an emergency stretch: would none, or none and no hyphenation at
        // a lower tolerance (TeX's first pass), find one? As they find when run.
        let third = Params { emergency_stretch: 4.0, ..Params::default() };
        let stricter = [
            Params { emergency_stretch: 0.0, ..third },
            Params { emergency_stretch: 0.0, tolerance: 100.0, hyphenation: false, ..third },
        ];
        let mut seen = [0; 4];
        for (items, widths) in random_paragraphs(400) {
            let mut breaker = Breaker::default();
            breaker.measure(&items);
            let (found, by) = breaker.breaks_and_stricter(&items, widths, &third, false, &stricter);
            if found.is_none() {
                assert_eq!(by, 0);
                continue;
            }
            let run = stricter.map(|q| breaker.breaks(&items, widths, &q, false).is_some());
            assert_eq!([by & 1 != 0, by & 2 != 0], run, "{widths:?}");
            seen[by as usize] += 1;
        }
        // Each outcome met: neither, the second pass only, both.
        assert!(seen[0] > 0 && seen[1] > 0 && seen[3] > 0, "{seen:?}");
    }

    #[test]
    fn hyphens_in_a_row_are_capped() {
        // Words of two syllables of 5 with a hyphenation point between, lines of 17: a
        // syllable, a word and a syllable with its hyphen fill a line exactly, so every
        // line would end with a hyphen if it could.
        let words: Vec<f32> = (0..12).flat_map(|_| [5.0, -5.0]).collect();
        let items = para(&words);
        let loose = Params { tolerance: AWFUL, max_hyphens_in_a_row: 10, ..Params::default() };
        let runs = |cap: usize| {
            let breaks = break_lines(&items, [17.0, 17.0], &Params { max_hyphens_in_a_row: cap, ..loose }, false);
            let mut longest = 0;
            let mut run = 0;
            for b in breaks.expect("a breaking within the cap") {
                run = if b.hyphenated { run + 1 } else { 0 };
                longest = longest.max(run);
            }
            longest
        };
        assert!(runs(10) >= 5);
        assert_eq!(runs(2), 2);
        assert_eq!(runs(1), 1);
        // The paragraph's end is no hyphen.
        let last = break_lines(&items, [17.0, 17.0], &loose, false).unwrap();
        assert!(!last.last().unwrap().hyphenated);
    }
}
