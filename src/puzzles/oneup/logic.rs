//! A human-style solver: the techniques a person uses, easiest first, each step recorded in
//! words. A puzzle's grade is the hardest technique its logical solution needs.
//!
//! A cell's candidates start as 1 to the smaller of its two regions' sizes (the rule
//! itself), less the digits given in its regions. The ladder:
//! 1. [`Technique::HiddenSingle`]: a digit has one possible cell in a region.
//! 2. [`Technique::NakedSingle`]: a cell has one possible digit.
//! 3. [`Technique::Subset`]: k cells of a region that can hold only the same k digits (a
//!    naked pair or triple) take those digits from the region's other cells; k digits of a
//!    region that fit only the same k cells (a hidden pair or triple) leave those cells no
//!    other digit.
//! 4. [`Technique::RegionWing`]: two row regions that each need a digit and can place it
//!    only in the same two column regions (one cell of each in each) claim it there, so the
//!    two column regions' other cells cannot hold it (and the same with rows and columns
//!    swapped).
//! 5. [`Technique::Trial`]: assuming a digit in a cell leads, by techniques 1 to 4 within
//!    [`TRIAL_STEPS`] steps, to a contradiction, so the cell does not hold it.
//!
//! Levels: `easy` needs only 1 and 2, `medium` 3, `hard` 4, `expert` 5.

use serde::{Deserialize, Serialize};

use super::puzzle::{Layout, Puzzle};

/// Steps a trial may take before it is given up (without concluding anything).
pub const TRIAL_STEPS: usize = 40;

/// A technique of the ladder, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    HiddenSingle,
    NakedSingle,
    Subset,
    RegionWing,
    Trial,
}

impl Technique {
    pub const ALL: [Technique; 5] =
        [Technique::HiddenSingle, Technique::NakedSingle, Technique::Subset, Technique::RegionWing, Technique::Trial];

    /// The level a puzzle needing this technique is graded.
    pub fn level(self) -> Level {
        match self {
            Technique::HiddenSingle | Technique::NakedSingle => Level::Easy,
            Technique::Subset => Level::Medium,
            Technique::RegionWing => Level::Hard,
            Technique::Trial => Level::Expert,
        }
    }
}

pub use crate::puzzles::level::Level;

impl Level {
    /// The hardest technique a One Up puzzle of this level may need.
    pub fn hardest(self) -> Technique {
        match self {
            Level::Easy => Technique::NakedSingle,
            Level::Medium => Technique::Subset,
            Level::Hard => Technique::RegionWing,
            Level::Expert => Technique::Trial,
        }
    }
}

/// A cell, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = OneUpCell)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

/// A digit taken out of a cell's candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = OneUpElimination)]
pub struct Elimination {
    pub row: usize,
    pub col: usize,
    pub digit: u8,
}

/// A placed digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = OneUpPlacement)]
pub struct Placement {
    pub row: usize,
    pub col: usize,
    pub digit: u8,
}

/// One step of a logical solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = OneUpStep)]
pub struct Step {
    pub technique: Technique,
    /// The step in words ("row 3, column 5 is 2: the only place for 2 in row 3's left
    /// region (columns 1-4)").
    pub text: String,
    /// The digit it places, if any.
    #[schema(required = true)]
    pub place: Option<Placement>,
    /// The candidates it rules out.
    pub eliminate: Vec<Elimination>,
    /// The cells the reasoning looks at.
    pub cells: Vec<Cell>,
}

/// A logical solution attempt: the steps taken and where they ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logical {
    pub steps: Vec<Step>,
    /// The grid reached, row-major (0 for an empty cell).
    pub grid: Vec<u8>,
    pub solved: bool,
}

impl Logical {
    /// The hardest technique used (`None` for no steps).
    pub fn hardest(&self) -> Option<Technique> {
        self.steps.iter().map(|s| s.technique).max()
    }

    /// The techniques used, easiest first.
    pub fn techniques(&self) -> Vec<Technique> {
        let mut t: Vec<Technique> = self.steps.iter().map(|s| s.technique).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The grade, when the ladder solved the puzzle.
    pub fn level(&self) -> Option<Level> {
        self.solved.then(|| self.hardest().map_or(Level::Easy, Technique::level))
    }
}

/// Where the digits contradict the rules: the cells at fault and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    pub cells: Vec<Cell>,
    pub detail: String,
}

/// Candidate sets (bit d for digit d) and placed digits, with the puzzle's regions.
#[derive(Clone)]
pub(crate) struct Board<'a> {
    layout: &'a Layout,
    names: &'a [String],
    pub cand: Vec<u16>,
    pub grid: Vec<u8>,
}

fn bit(d: u8) -> u16 {
    1 << d
}

fn digits(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |&d| mask & bit(d) != 0)
}

/// Region names in words, by region id ("row 3's left region (columns 1-4)").
pub(crate) fn region_names(layout: &Layout) -> Vec<String> {
    let n = layout.size;
    layout
        .regions
        .iter()
        .enumerate()
        .map(|(id, cells)| {
            let (first, last) = (cells[0], cells[cells.len() - 1]);
            let is_row = layout.cell_regions[first][0] == id;
            let (line, from, to) =
                if is_row { (first / n, first % n, last % n) } else { (first % n, first / n, last / n) };
            let siblings: Vec<usize> = (0..n)
                .map(|k| if is_row { line * n + k } else { k * n + line })
                .map(|cell| layout.cell_regions[cell][usize::from(!is_row)])
                .fold(Vec::new(), |mut v, r| {
                    if v.last() != Some(&r) {
                        v.push(r);
                    }
                    v
                });
            let (kind, span) = if is_row { ("row", "columns") } else { ("column", "rows") };
            if siblings.len() == 1 {
                return format!("{kind} {}", line + 1);
            }
            let place = siblings.iter().position(|&r| r == id).unwrap_or(0);
            let words: &[&str] = match (is_row, siblings.len()) {
                (true, 2) => &["left", "right"],
                (true, _) => &["left", "middle", "right"],
                (false, 2) => &["upper", "lower"],
                (false, _) => &["upper", "middle", "lower"],
            };
            format!(
                "{kind} {}'s {} region ({span} {}-{})",
                line + 1,
                words[place.min(words.len() - 1)],
                from + 1,
                to + 1
            )
        })
        .collect()
}

impl<'a> Board<'a> {
    /// The empty board of `layout`: every cell's candidates 1 to its regions' smaller size.
    pub fn new(layout: &'a Layout, names: &'a [String]) -> Board<'a> {
        let cand = (0..layout.size * layout.size).map(|c| (1u16 << (layout.max_digit(c) + 1)) - 2).collect();
        Board { layout, names, cand, grid: vec![0; layout.size * layout.size] }
    }

    /// Words for a step, unless the board is quiet (grading needs no words).
    fn words(&self, f: impl FnOnce() -> String) -> String {
        if self.names.is_empty() {
            String::new()
        } else {
            f()
        }
    }

    fn cell(&self, i: usize) -> Cell {
        Cell { row: i / self.layout.size + 1, col: i % self.layout.size + 1 }
    }

    fn at(&self, i: usize) -> String {
        let c = self.cell(i);
        format!("row {}, column {}", c.row, c.col)
    }

    /// Places `d` in cell `i` and removes it from the cell's regions; `Err` if it cannot go
    /// there.
    pub fn place(&mut self, i: usize, d: u8) -> Result<(), Contradiction> {
        if self.grid[i] == d {
            return Ok(());
        }
        if self.grid[i] != 0 || self.cand[i] & bit(d) == 0 {
            return Err(self.cannot_hold(i, d));
        }
        self.grid[i] = d;
        self.cand[i] = 0;
        for region in self.layout.cell_regions[i] {
            for &j in &self.layout.regions[region] {
                self.cand[j] &= !bit(d);
            }
        }
        Ok(())
    }

    fn cannot_hold(&self, i: usize, d: u8) -> Contradiction {
        if self.names.is_empty() {
            return Contradiction { cells: vec![self.cell(i)], detail: String::new() };
        }
        let max = self.layout.max_digit(i);
        let detail = if d as usize > max {
            format!("{} cannot hold {d}: its regions hold at most {max} digits", self.at(i))
        } else if self.grid[i] != 0 {
            format!("{} already holds {}", self.at(i), self.grid[i])
        } else {
            let [rr, cr] = self.layout.cell_regions[i];
            let other = [rr, cr]
                .into_iter()
                .flat_map(|r| self.layout.regions[r].iter().map(move |&j| (r, j)))
                .find(|&(_, j)| self.grid[j] == d);
            match other {
                Some((r, j)) => {
                    format!("{} cannot hold {d}: {} already has it at {}", self.at(i), self.names[r], self.at(j))
                }
                None => format!("{} cannot hold {d}", self.at(i)),
            }
        };
        Contradiction { cells: vec![self.cell(i)], detail }
    }

    pub fn solved(&self) -> bool {
        self.grid.iter().all(|&d| d != 0)
    }

    /// A region that has lost every place for a digit it needs, or a cell with no digit
    /// left.
    fn contradiction(&self) -> Option<Contradiction> {
        if let Some(i) = (0..self.grid.len()).find(|&i| self.grid[i] == 0 && self.cand[i] == 0) {
            return Some(Contradiction {
                cells: vec![self.cell(i)],
                detail: self.words(|| format!("{} has no digit left", self.at(i))),
            });
        }
        for (r, cells) in self.layout.regions.iter().enumerate() {
            for d in 1..=cells.len() as u8 {
                if cells.iter().all(|&j| self.grid[j] != d && self.cand[j] & bit(d) == 0) {
                    return Some(Contradiction {
                        cells: cells.iter().map(|&j| self.cell(j)).collect(),
                        detail: self.words(|| format!("{} has no place left for {d}", self.names[r])),
                    });
                }
            }
        }
        None
    }

    /// The easiest step that makes progress, up to `hardest`; `Err` on a contradiction.
    pub fn next_step(&self, hardest: Technique) -> Result<Option<Step>, Contradiction> {
        if let Some(c) = self.contradiction() {
            return Err(c);
        }
        for t in Technique::ALL.into_iter().filter(|&t| t <= hardest) {
            let step = match t {
                Technique::HiddenSingle => self.hidden_single(),
                Technique::NakedSingle => self.naked_single(),
                Technique::Subset => self.subset(),
                Technique::RegionWing => self.region_wing(),
                Technique::Trial => self.trial(),
            };
            if step.is_some() {
                return Ok(step);
            }
        }
        Ok(None)
    }

    /// Applies a step's placement and eliminations.
    pub fn apply(&mut self, step: &Step) -> Result<(), Contradiction> {
        for e in &step.eliminate {
            let i = (e.row - 1) * self.layout.size + e.col - 1;
            self.cand[i] &= !bit(e.digit);
        }
        if let Some(p) = step.place {
            self.place((p.row - 1) * self.layout.size + p.col - 1, p.digit)?;
        }
        Ok(())
    }

    fn placement(&self, i: usize, d: u8) -> Option<Placement> {
        let c = self.cell(i);
        Some(Placement { row: c.row, col: c.col, digit: d })
    }

    fn hidden_single(&self) -> Option<Step> {
        for (r, cells) in self.layout.regions.iter().enumerate() {
            for d in 1..=cells.len() as u8 {
                if cells.iter().any(|&j| self.grid[j] == d) {
                    continue;
                }
                let mut places = cells.iter().filter(|&&j| self.cand[j] & bit(d) != 0);
                if let (Some(&i), None) = (places.next(), places.next()) {
                    return Some(Step {
                        technique: Technique::HiddenSingle,
                        text: self
                            .words(|| format!("{} is {d}: the only place for {d} in {}", self.at(i), self.names[r])),
                        place: self.placement(i, d),
                        eliminate: Vec::new(),
                        cells: cells.iter().map(|&j| self.cell(j)).collect(),
                    });
                }
            }
        }
        None
    }

    fn naked_single(&self) -> Option<Step> {
        let i = (0..self.grid.len()).find(|&i| self.grid[i] == 0 && self.cand[i].count_ones() == 1)?;
        let d = digits(self.cand[i]).next()?;
        let [rr, cr] = self.layout.cell_regions[i];
        Some(Step {
            technique: Technique::NakedSingle,
            text: self.words(|| {
                format!(
                    "{} is {d}: the only digit it can still hold, given {} and {}",
                    self.at(i),
                    self.names[rr],
                    self.names[cr]
                )
            }),
            place: self.placement(i, d),
            eliminate: Vec::new(),
            cells: [rr, cr].iter().flat_map(|&r| self.layout.regions[r].iter().map(|&j| self.cell(j))).collect(),
        })
    }

    fn elimination(&self, i: usize, d: u8) -> Elimination {
        let c = self.cell(i);
        Elimination { row: c.row, col: c.col, digit: d }
    }

    fn list(ds: impl Iterator<Item = u8>) -> String {
        let v: Vec<String> = ds.map(|d| d.to_string()).collect();
        match v.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => v.concat(),
        }
    }

    /// A subset step on `cells` removing `eliminate` (none: no step), told by `say` from the
    /// cells' places.
    fn subset_step(
        &self,
        cells: &[usize],
        eliminate: Vec<Elimination>,
        say: impl FnOnce(&str) -> String,
    ) -> Option<Step> {
        if eliminate.is_empty() {
            return None;
        }
        Some(Step {
            technique: Technique::Subset,
            text: self.words(|| say(&cells.iter().map(|&j| self.at(j)).collect::<Vec<_>>().join("; "))),
            place: None,
            eliminate,
            cells: cells.iter().map(|&j| self.cell(j)).collect(),
        })
    }

    /// Naked, then hidden, pairs and triples inside a region.
    fn subset(&self) -> Option<Step> {
        for (r, cells) in self.layout.regions.iter().enumerate() {
            let open: Vec<usize> = cells.iter().copied().filter(|&j| self.grid[j] == 0).collect();
            for k in 2..=3usize {
                if open.len() <= k {
                    continue;
                }
                for combo in combinations(open.len(), k) {
                    let chosen: Vec<usize> = combo.iter().map(|&x| open[x]).collect();
                    let union = chosen.iter().fold(0u16, |m, &j| m | self.cand[j]);
                    if union.count_ones() as usize != k {
                        continue;
                    }
                    let eliminate: Vec<Elimination> = open
                        .iter()
                        .filter(|j| !chosen.contains(j))
                        .flat_map(|&j| digits(self.cand[j] & union).map(move |d| (j, d)))
                        .map(|(j, d)| self.elimination(j, d))
                        .collect();
                    let step = self.subset_step(&chosen, eliminate, |places| {
                        format!(
                            "{places} can hold only {} between them, so no other cell of {} holds {}",
                            Self::list(digits(union)),
                            self.names[r],
                            if k == 2 { "either" } else { "any of them" }
                        )
                    });
                    if step.is_some() {
                        return step;
                    }
                }
            }
            // Hidden: k digits the region still needs that fit only k cells.
            let needed: Vec<u8> =
                (1..=cells.len() as u8).filter(|&d| !cells.iter().any(|&j| self.grid[j] == d)).collect();
            for k in 2..=3usize {
                if needed.len() <= k {
                    continue;
                }
                for combo in combinations(needed.len(), k) {
                    let ds: Vec<u8> = combo.iter().map(|&x| needed[x]).collect();
                    let mask = ds.iter().fold(0u16, |m, &d| m | bit(d));
                    let places: Vec<usize> = open.iter().copied().filter(|&j| self.cand[j] & mask != 0).collect();
                    if places.len() != k {
                        continue;
                    }
                    let eliminate: Vec<Elimination> = places
                        .iter()
                        .flat_map(|&j| digits(self.cand[j] & !mask).map(move |d| (j, d)))
                        .map(|(j, d)| self.elimination(j, d))
                        .collect();
                    let step = self.subset_step(&places, eliminate, |at| {
                        format!(
                            "in {}, {} fit only {at}, so those cells hold nothing else",
                            self.names[r],
                            Self::list(ds.iter().copied())
                        )
                    });
                    if step.is_some() {
                        return step;
                    }
                }
            }
        }
        None
    }

    /// Two regions of one direction claiming a digit in two regions of the other.
    fn region_wing(&self) -> Option<Step> {
        let layout = self.layout;
        for axis in 0..2 {
            let other = 1 - axis;
            let bases: Vec<usize> =
                (0..layout.regions.len()).filter(|&r| layout.cell_regions[layout.regions[r][0]][axis] == r).collect();
            for d in 1..=9u8 {
                // Each base region needing d, with the (two) crossing regions its places lie in.
                let pairs: Vec<(usize, [usize; 2], [usize; 2])> = bases
                    .iter()
                    .filter(|&&r| layout.regions[r].len() >= d as usize)
                    .filter(|&&r| !layout.regions[r].iter().any(|&j| self.grid[j] == d))
                    .filter_map(|&r| {
                        let places: Vec<usize> =
                            layout.regions[r].iter().copied().filter(|&j| self.cand[j] & bit(d) != 0).collect();
                        (places.len() == 2).then(|| {
                            let crossing =
                                [layout.cell_regions[places[0]][other], layout.cell_regions[places[1]][other]];
                            (r, crossing, [places[0], places[1]])
                        })
                    })
                    .collect();
                for (a, &(r1, cross1, cells1)) in pairs.iter().enumerate() {
                    for &(r2, cross2, cells2) in &pairs[a + 1..] {
                        // The second region's places, in the order of the first's crossings.
                        let cells2 = if cross2 == cross1 {
                            cells2
                        } else if cross2 == [cross1[1], cross1[0]] {
                            [cells2[1], cells2[0]]
                        } else {
                            continue;
                        };
                        let keep = [cells1[0], cells1[1], cells2[0], cells2[1]];
                        let eliminate: Vec<Elimination> = cross1
                            .iter()
                            .flat_map(|&c| layout.regions[c].iter().copied())
                            .filter(|j| !keep.contains(j) && self.cand[*j] & bit(d) != 0)
                            .map(|j| self.elimination(j, d))
                            .collect();
                        if eliminate.is_empty() {
                            continue;
                        }
                        return Some(Step {
                            technique: Technique::RegionWing,
                            text: self.words(|| {
                                format!(
                                "{d} in {} goes at {} or {}, and in {} at {} or {}; either way {} and {} get their {d} \
                                 from these cells, so their other cells cannot hold {d}",
                                self.names[r1],
                                self.at(cells1[0]),
                                self.at(cells1[1]),
                                self.names[r2],
                                self.at(cells2[0]),
                                self.at(cells2[1]),
                                self.names[cross1[0]],
                                self.names[cross1[1]]
                            )
                            }),
                            place: None,
                            eliminate,
                            cells: keep.iter().map(|&j| self.cell(j)).collect(),
                        });
                    }
                }
            }
        }
        None
    }

    /// A candidate whose assumption leads to a contradiction within [`TRIAL_STEPS`] steps of
    /// techniques 1 to 4; cells with the fewest candidates are tried first.
    fn trial(&self) -> Option<Step> {
        let mut open: Vec<usize> = (0..self.grid.len()).filter(|&i| self.grid[i] == 0).collect();
        open.sort_by_key(|&i| (self.cand[i].count_ones(), i));
        for i in open {
            for d in digits(self.cand[i]) {
                let mut board = self.clone();
                let mut steps = 0;
                let failure = match board.place(i, d) {
                    Err(c) => Some(c),
                    Ok(()) => loop {
                        match board.next_step(Technique::RegionWing) {
                            Err(c) => break Some(c),
                            Ok(None) => break None,
                            Ok(Some(step)) => {
                                steps += 1;
                                if let Err(c) = board.apply(&step) {
                                    break Some(c);
                                }
                                if steps >= TRIAL_STEPS {
                                    break None;
                                }
                            }
                        }
                    },
                };
                if let Some(why) = failure {
                    return Some(Step {
                        technique: Technique::Trial,
                        text: self.words(|| {
                            format!(
                                "{} cannot be {d}: assuming it, {} step{} later {}",
                                self.at(i),
                                steps,
                                if steps == 1 { "" } else { "s" },
                                why.detail
                            )
                        }),
                        place: None,
                        eliminate: vec![self.elimination(i, d)],
                        cells: std::iter::once(self.cell(i)).chain(why.cells).collect(),
                    });
                }
            }
        }
        None
    }
}

/// All `k`-element index combinations of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut combo: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(combo.clone());
        let Some(i) = (0..k).rev().find(|&i| combo[i] < n - k + i) else { return out };
        combo[i] += 1;
        for j in i + 1..k {
            combo[j] = combo[j - 1] + 1;
        }
    }
}

/// Solves `puzzle` with the techniques up to `hardest`, from its clues and `extra` digits
/// (row-major, 0 for none); stops when solved or stuck. `Err` if the digits contradict the
/// rules.
pub fn solve_logically_from(puzzle: &Puzzle, extra: &[u8], hardest: Technique) -> Result<Logical, Contradiction> {
    let layout = puzzle.layout();
    let names = region_names(&layout);
    run(&layout, &names, &givens(puzzle, extra), hardest)
}

/// A puzzle's clues and `extra` digits as (cell, digit), row-major cells.
fn givens(puzzle: &Puzzle, extra: &[u8]) -> Vec<(usize, u8)> {
    let n = puzzle.size();
    let clues = puzzle.clues().iter().map(|c| ((c.row - 1) * n + c.col - 1, c.digit));
    clues.chain(extra.iter().enumerate().filter(|(_, &d)| d != 0).map(|(i, &d)| (i, d))).collect()
}

/// The level of the puzzle of `layout` and `givens` by the ladder up to `hardest`, without
/// words (what grading needs, faster); `None` if the ladder does not solve it.
pub(crate) fn grade_givens(layout: &Layout, givens: &[(usize, u8)], hardest: Technique) -> Option<Level> {
    run(layout, &[], givens, hardest).ok()?.level()
}

fn run(
    layout: &Layout,
    names: &[String],
    givens: &[(usize, u8)],
    hardest: Technique,
) -> Result<Logical, Contradiction> {
    let mut board = Board::new(layout, names);
    for &(i, d) in givens {
        board.place(i, d)?;
    }
    let mut steps = Vec::new();
    while !board.solved() {
        match board.next_step(hardest)? {
            None => break,
            Some(step) => {
                board.apply(&step)?;
                steps.push(step);
            }
        }
    }
    Ok(Logical { solved: board.solved(), grid: board.grid, steps })
}

/// [`solve_logically_from`] the clues alone, with every technique, each step in words.
pub fn solve_logically(puzzle: &Puzzle) -> Result<Logical, Contradiction> {
    solve_logically_from(puzzle, &[], Technique::Trial)
}

/// The grade of `puzzle`: the level of the hardest technique its logical solution needs
/// (`None` when the ladder does not solve it).
pub fn grade(puzzle: &Puzzle) -> Option<Level> {
    grade_within(puzzle, Technique::Trial)
}

/// [`grade`] with techniques up to `hardest` only (`None` if they do not solve it).
pub fn grade_within(puzzle: &Puzzle, hardest: Technique) -> Option<Level> {
    grade_givens(&puzzle.layout(), &givens(puzzle, &[]), hardest)
}

/// Search nodes the exact solver may spend finding the one solution a hint checks the
/// grid against.
pub const HINT_MAX_NODES: u64 = 2_000_000;

/// The next logical step from a partly solved grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The grid, with the clues, is complete (and right).
    pub solved: bool,
    /// The steps up to and including the next placement, easiest techniques first at each
    /// point; eliminations a person may not have noted come before it. Empty when solved,
    /// or when no technique of the ladder applies.
    pub steps: Vec<Step>,
}

/// Why no hint was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintError {
    /// The grid breaks the rules, or disagrees with the puzzle's one solution.
    Contradiction(Contradiction),
    /// The puzzle has no single solution to hint towards (or proving it took too long).
    NotUnique(String),
}

/// The next logical step for `puzzle` from `grid` (row-major digits, 0 for an empty cell).
pub fn hint(puzzle: &Puzzle, grid: &[u8]) -> Result<Hint, HintError> {
    let layout = puzzle.layout();
    let names = region_names(&layout);
    let n = layout.size;
    for c in puzzle.clues() {
        let d = grid[(c.row - 1) * n + c.col - 1];
        if d != 0 && d != c.digit {
            return Err(HintError::Contradiction(Contradiction {
                cells: vec![Cell { row: c.row, col: c.col }],
                detail: format!("row {}, column {} is the clue {}, but the grid has {d} there", c.row, c.col, c.digit),
            }));
        }
    }
    let mut board = Board::new(&layout, &names);
    for (i, d) in givens(puzzle, grid) {
        board.place(i, d).map_err(HintError::Contradiction)?;
    }
    let options = super::solve::ExactOptions { limit_solutions: 2, max_nodes: HINT_MAX_NODES };
    let exact = super::solve::solve_with(puzzle, &options, &mut crate::puzzles::monitor::Unmonitored)
        .map_err(|_| HintError::NotUnique("cancelled".into()))?;
    let solution = match (exact.unique, exact.solution) {
        (Some(true), Some(rows)) => rows.concat().into_bytes().iter().map(|b| b - b'0').collect::<Vec<u8>>(),
        (Some(false), _) => return Err(HintError::NotUnique("the puzzle has more than one solution".into())),
        (_, None) if exact.reason.is_none() => return Err(HintError::NotUnique("the puzzle has no solution".into())),
        (_, _) => {
            return Err(HintError::NotUnique(format!(
                "whether the puzzle has one solution was not decided within {HINT_MAX_NODES} search nodes"
            )))
        }
    };
    if let Some(i) = (0..grid.len()).find(|&i| grid[i] != 0 && grid[i] != solution[i]) {
        return Err(HintError::Contradiction(Contradiction {
            cells: vec![board.cell(i)],
            detail: format!(
                "{} holds {}, which cannot be right: the puzzle has no solution with it",
                board.at(i),
                grid[i]
            ),
        }));
    }
    let solved = board.solved();
    let mut steps = Vec::new();
    while !board.solved() {
        let Some(step) = board.next_step(Technique::Trial).map_err(HintError::Contradiction)? else { break };
        board.apply(&step).map_err(HintError::Contradiction)?;
        let placed = step.place.is_some();
        steps.push(step);
        if placed {
            break;
        }
    }
    Ok(Hint { solved, steps })
}

/// Each technique on a constructed position: candidates set by hand so that it is the
/// easiest technique that makes progress, and its step is exactly the expected one.
#[cfg(test)]
mod positions {
    use super::*;

    /// An n x n layout whose rows and columns are single regions (a Latin square).
    fn open(n: usize) -> Layout {
        let lines = vec!["1".repeat(n); n];
        Layout::from_labels(&lines, &lines)
    }

    /// The board of `layout` with each cell's candidates written as digits, row-major.
    fn board<'a>(layout: &'a Layout, names: &'a [String], cand: &[&str]) -> Board<'a> {
        let cand = cand.iter().map(|ds| ds.bytes().fold(0, |m, b| m | bit(b - b'0'))).collect();
        Board { layout, names, cand, grid: vec![0; layout.size * layout.size] }
    }

    fn full(n: usize) -> String {
        (1..=n).map(|d| d.to_string()).collect()
    }

    /// `cand` with the cells at 1-based `(row, col)` replaced.
    fn with(n: usize, changed: &[((usize, usize), &'static str)]) -> Vec<String> {
        let mut cand = vec![full(n); n * n];
        for &((r, c), ds) in changed {
            cand[(r - 1) * n + c - 1] = ds.to_string();
        }
        cand
    }

    /// The easiest step, checking that no technique easier than its own finds one.
    fn step(layout: &Layout, names: &[String], cand: &[String]) -> Step {
        let cand: Vec<&str> = cand.iter().map(String::as_str).collect();
        let b = board(layout, names, &cand);
        let step = b.next_step(Technique::Trial).unwrap().expect("a step");
        if let Some(easier) = Technique::ALL.into_iter().take_while(|&t| t < step.technique).last() {
            assert_eq!(b.next_step(easier).unwrap(), None, "the easier techniques find nothing");
        }
        step
    }

    fn elims(v: &[(usize, usize, u8)]) -> Vec<Elimination> {
        v.iter().map(|&(row, col, digit)| Elimination { row, col, digit }).collect()
    }

    #[test]
    fn hidden_single() {
        let layout = open(4);
        let names = region_names(&layout);
        let s = step(&layout, &names, &with(4, &[((1, 2), "234"), ((1, 3), "234"), ((1, 4), "234")]));
        assert_eq!(s.technique, Technique::HiddenSingle);
        assert_eq!(s.place, Some(Placement { row: 1, col: 1, digit: 1 }));
        assert_eq!(s.text, "row 1, column 1 is 1: the only place for 1 in row 1");
        assert_eq!(s.cells.len(), 4, "the region's cells");
    }

    #[test]
    fn naked_single() {
        let layout = open(4);
        let names = region_names(&layout);
        let s = step(&layout, &names, &with(4, &[((2, 2), "3")]));
        assert_eq!(s.technique, Technique::NakedSingle);
        assert_eq!(s.place, Some(Placement { row: 2, col: 2, digit: 3 }));
        assert_eq!(s.text, "row 2, column 2 is 3: the only digit it can still hold, given row 2 and column 2");
    }

    #[test]
    fn naked_pair_and_triple() {
        let layout = open(4);
        let names = region_names(&layout);
        let s = step(&layout, &names, &with(4, &[((1, 1), "12"), ((1, 2), "12")]));
        assert_eq!((s.technique, s.place), (Technique::Subset, None));
        assert_eq!(s.eliminate, elims(&[(1, 3, 1), (1, 3, 2), (1, 4, 1), (1, 4, 2)]));
        assert_eq!(
            s.text,
            "row 1, column 1; row 1, column 2 can hold only 1 and 2 between them, so no other cell of row 1 holds either"
        );
        let layout = open(5);
        let names = region_names(&layout);
        let s = step(&layout, &names, &with(5, &[((1, 1), "12"), ((1, 2), "23"), ((1, 3), "13")]));
        assert_eq!(s.technique, Technique::Subset);
        assert_eq!(s.eliminate, elims(&[(1, 4, 1), (1, 4, 2), (1, 4, 3), (1, 5, 1), (1, 5, 2), (1, 5, 3)]));
        assert!(s.text.contains("can hold only 1, 2 and 3 between them"), "{}", s.text);
    }

    #[test]
    fn hidden_pair() {
        let layout = open(6);
        let names = region_names(&layout);
        let rest = [((1, 3), "3456"), ((1, 4), "3456"), ((1, 5), "3456"), ((1, 6), "3456")];
        let s = step(&layout, &names, &with(6, &rest));
        assert_eq!((s.technique, s.place), (Technique::Subset, None));
        let expected: Vec<(usize, usize, u8)> = [1, 2].iter().flat_map(|&c| (3..=6).map(move |d| (1, c, d))).collect();
        assert_eq!(s.eliminate, elims(&expected));
        assert_eq!(
            s.text,
            "in row 1, 1 and 2 fit only row 1, column 1; row 1, column 2, so those cells hold nothing else"
        );
    }

    #[test]
    fn region_wing() {
        // 1 goes in columns 1 or 2 in both row 1 and row 2, so columns 1 and 2 get their 1
        // from rows 1 and 2.
        let layout = open(4);
        let names = region_names(&layout);
        let cand = with(4, &[((1, 3), "234"), ((1, 4), "234"), ((2, 3), "234"), ((2, 4), "234")]);
        let s = step(&layout, &names, &cand);
        assert_eq!((s.technique, s.place), (Technique::RegionWing, None));
        assert_eq!(s.eliminate, elims(&[(3, 1, 1), (4, 1, 1), (3, 2, 1), (4, 2, 1)]));
        assert_eq!(
            s.text,
            "1 in row 1 goes at row 1, column 1 or row 1, column 2, and in row 2 at row 2, column 1 or row 2, \
             column 2; either way column 1 and column 2 get their 1 from these cells, so their other cells \
             cannot hold 1"
        );

        // Between regions, not lines: on 8 x 8 with every row and column split 4 + 4, 1
        // goes in row 1's and row 2's left regions only at columns 1 or 2, so the upper
        // regions of columns 1 and 2 get their 1 there.
        let rows = vec!["11112222".to_string(); 8];
        let cols: Vec<String> = (0..8).map(|r| if r < 4 { "11111111" } else { "22222222" }.to_string()).collect();
        let layout = Layout::from_labels(&rows, &cols);
        let names = region_names(&layout);
        let mut cand = vec!["1234".to_string(); 64];
        for cell in [2, 3, 10, 11] {
            cand[cell] = "234".into();
        }
        let s = step(&layout, &names, &cand);
        assert_eq!((s.technique, s.place), (Technique::RegionWing, None));
        assert_eq!(s.eliminate, elims(&[(3, 1, 1), (4, 1, 1), (3, 2, 1), (4, 2, 1)]));
        assert!(
            s.text.starts_with("1 in row 1's left region (columns 1-4) goes at row 1, column 1 or row 1, column 2")
                && s.text.contains("either way column 1's upper region (rows 1-4) and column 2's upper region"),
            "{}",
            s.text
        );
    }

    #[test]
    fn trial() {
        // A position (found by a random search) on a 4 x 4 Latin square where techniques 1
        // to 4 find nothing; `solution` is a filling its candidates allow.
        let layout = open(4);
        let names = region_names(&layout);
        let solution = [1u8, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let cand = [
            "134", "124", "1234", "1234", "23", "34", "13", "124", "123", "1234", "34", "13", "234", "123", "12", "134",
        ]
        .map(String::from);
        for (i, ds) in cand.iter().enumerate() {
            assert!(ds.contains(char::from(b'0' + solution[i])), "the solution is among the candidates");
        }
        let s = step(&layout, &names, &cand);
        assert_eq!((s.technique, s.place), (Technique::Trial, None));
        assert_eq!(s.eliminate.len(), 1);
        let e = &s.eliminate[0];
        assert_ne!(e.digit, solution[(e.row - 1) * 4 + e.col - 1], "a trial never rules out the solution");
        let prefix = format!("row {}, column {} cannot be {}: assuming it, ", e.row, e.col, e.digit);
        assert!(s.text.starts_with(&prefix), "{}", s.text);
    }
}
