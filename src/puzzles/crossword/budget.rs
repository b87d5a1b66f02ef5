//! Node and time budgets shared by the searches. Nodes decide *which* result is found
//! (deterministic); the optional wall-clock limit only decides *whether* it is found in time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::puzzles::monitor::Monitor;

use super::error::CrosswordError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Nodes,
    Time,
    Cancelled,
    /// A search racing this one came to its conclusion in fewer nodes (see [`Race`]).
    Settled,
}

/// Searches racing for one answer, each counting its own nodes: the conclusion reached in
/// the fewest nodes wins, so the answer does not depend on which finished first in time.
/// A search stops once it has spent as many nodes as the best conclusion so far; after a
/// conclusion it may run past the time limit, up to twice it, to know the winner.
///
/// The first search runs alone for its first `solo` nodes (most problems end sooner, and a
/// second search would only cost time): the others wait at the gate until it has spent them
/// or has ended, and do not start if it ended within them.
#[derive(Debug)]
pub(crate) struct Race {
    settled: AtomicU64,
    halted: AtomicBool,
    solo: u64,
    open: AtomicBool,
    gate: (std::sync::Mutex<bool>, std::sync::Condvar),
}

impl Race {
    pub fn new(solo: u64) -> Arc<Race> {
        Arc::new(Race {
            settled: AtomicU64::new(u64::MAX),
            halted: AtomicBool::new(false),
            solo,
            open: AtomicBool::new(false),
            gate: Default::default(),
        })
    }

    /// Lets the other searches start (the first has spent its solo nodes, or has ended).
    pub fn open(&self) {
        if !self.open.swap(true, Ordering::Relaxed) {
            *self.gate.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.gate.1.notify_all();
        }
    }

    /// Waits at the gate; false when the first search ended within its solo nodes (or was
    /// halted), so that this one need not run.
    pub fn wait_to_start(&self) -> bool {
        let mut open = self.gate.0.lock().unwrap_or_else(|e| e.into_inner());
        while !*open {
            open = self.gate.1.wait(open).unwrap_or_else(|e| e.into_inner());
        }
        self.settled.load(Ordering::Relaxed) > self.solo && !self.halted()
    }

    /// A search came to its conclusion after `nodes` of its own.
    pub fn conclude(&self, nodes: u64) {
        self.settled.fetch_min(nodes, Ordering::Relaxed);
    }

    /// Every search stops as cancelled at its next check.
    pub fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }
}

/// See [`Budget::terms`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Terms {
    max_nodes: u64,
    started: Instant,
    time_limit: Option<Duration>,
    check_every: u64,
}

pub(crate) struct Budget<'p> {
    pub nodes: u64,
    max_nodes: u64,
    started: Instant,
    time_limit: Option<Duration>,
    progress: &'p mut dyn Monitor,
    /// How often (in nodes) the clock and the progress callback are consulted: a few ms of work.
    check_every: u64,
    pub stop: Option<Stop>,
    /// The race this budget's search is in, and its node count when it joined.
    race: Option<(Arc<Race>, u64)>,
}

impl<'p> Budget<'p> {
    pub fn new(max_nodes: u64, time_limit_ms: Option<u64>, check_every: u64, progress: &'p mut dyn Monitor) -> Self {
        Budget {
            nodes: 0,
            max_nodes,
            started: Instant::now(),
            time_limit: time_limit_ms.map(Duration::from_millis),
            progress,
            check_every,
            stop: None,
            race: None,
        }
    }

    /// What a search racing this one's may spend: the nodes this one has left, by the
    /// same clock and time limit.
    pub fn terms(&self) -> Terms {
        Terms {
            max_nodes: self.max_nodes.saturating_sub(self.nodes),
            started: self.started,
            time_limit: self.time_limit,
            check_every: self.check_every,
        }
    }

    /// A budget of its own, on `terms`, for a search in `race`.
    pub fn racing<'q>(terms: Terms, race: &Arc<Race>, progress: &'q mut dyn Monitor) -> Budget<'q> {
        let mut budget = Budget::new(terms.max_nodes, None, terms.check_every, progress);
        (budget.started, budget.time_limit) = (terms.started, terms.time_limit);
        budget.join_race(Some(race));
        budget
    }

    /// Enters this budget's search in `race`, or (None) takes it out; its stop is cleared.
    pub fn join_race(&mut self, race: Option<&Arc<Race>>) {
        self.race = race.map(|r| (r.clone(), self.nodes));
        self.stop = None;
    }

    /// The nodes spent since the search joined its race.
    pub fn race_nodes(&self) -> u64 {
        self.nodes - self.race.as_ref().map_or(0, |r| r.1)
    }

    /// Consults the progress monitor (and a race's halt) between other work; false when the
    /// search must stop, as cancelled, and then every racing search is halted.
    pub fn poll(&mut self) -> bool {
        let halted = self.race.as_ref().is_some_and(|(r, _)| r.halted());
        if halted || !self.progress.update(self.nodes, self.max_nodes) {
            self.stop = Some(Stop::Cancelled);
            if let Some((r, _)) = &self.race {
                r.halt();
            }
            return false;
        }
        true
    }

    /// Counts one node; false once the search must stop (see `stop`).
    #[inline]
    pub fn tick(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.stop = Some(Stop::Nodes);
            return false;
        }
        if self.nodes.is_multiple_of(self.check_every) {
            return self.check();
        }
        true
    }

    #[cold]
    fn check(&mut self) -> bool {
        if let Some((r, _)) = &self.race {
            if !r.open.load(Ordering::Relaxed) && self.race_nodes() >= r.solo {
                r.open();
            }
        }
        let settled = self.race.as_ref().map_or(u64::MAX, |(r, _)| r.settled.load(Ordering::Relaxed));
        if self.race_nodes() >= settled {
            self.stop = Some(Stop::Settled);
            return false;
        }
        // Once a racing search has concluded, the others may go on past the time limit, to
        // as many nodes, so that the winner is known; but not past twice the limit.
        let limit = |t: Duration| if settled == u64::MAX { t } else { t * 2 };
        if self.time_limit.is_some_and(|t| self.started.elapsed() >= limit(t)) {
            self.stop = Some(Stop::Time);
            return false;
        }
        self.poll()
    }

    /// The progress monitor, for a search run inside this one (a pattern's fill).
    pub fn monitor(&mut self) -> &mut dyn Monitor {
        &mut *self.progress
    }

    /// "the node budget (max_nodes = N)" or "the time limit (time_limit_ms = T)".
    pub fn describe(&self) -> String {
        match self.stop {
            Some(Stop::Time) => format!(
                "the time limit (time_limit_ms = {}) ran out after {} nodes",
                self.time_limit.map_or(0, |t| t.as_millis()),
                self.nodes
            ),
            _ => format!("the node budget (max_nodes = {}) ran out", self.max_nodes),
        }
    }

    /// The error for a search that stopped early; `what` says what was not achieved.
    pub fn exhausted(&self, what: &str) -> CrosswordError {
        match self.stop {
            Some(Stop::Cancelled) => CrosswordError::Cancelled,
            _ => CrosswordError::BudgetExhausted(format!("{what}: {}", self.describe())),
        }
    }
}

/// Validates an optional time limit: a limit of 0 ms would end every search at once.
pub(crate) fn time_limit_ms(value: Option<u64>) -> Result<Option<u64>, CrosswordError> {
    match value {
        Some(0) => Err(CrosswordError::field("time_limit_ms", "must be at least 1")),
        other => Ok(other),
    }
}

/// What one randomized attempt of a sampler produced.
pub(crate) enum Attempt<T> {
    Found(T),
    /// The attempt searched its whole tree: nothing new exists.
    Exhausted,
    /// The attempt hit its own node cap (or the budget ran out); try again.
    Capped,
}

impl<T: Eq + std::hash::Hash> Attempt<T> {
    /// One attempt's search: `search` offers the items it meets to the closure it is given,
    /// which answers whether to stop (the item is accepted and not `seen`), and says whether
    /// it stopped before its tree was done; the item it stopped at is the attempt's find.
    pub(crate) fn first_new(
        seen: &std::collections::HashSet<T>,
        accept: impl Fn(&T) -> bool,
        search: impl FnOnce(&mut dyn FnMut(T) -> bool) -> bool,
    ) -> Attempt<T> {
        let mut found = None;
        let stopped = search(&mut |item| {
            let new = accept(&item) && !seen.contains(&item);
            if new {
                found = Some(item);
            }
            new
        });
        match found {
            Some(item) => Attempt::Found(item),
            None if stopped => Attempt::Capped,
            None => Attempt::Exhausted,
        }
    }
}

/// Runs attempts until `count` distinct items are found, the search space is known to
/// hold no more, or the budget runs out. Returns the items and, when fewer than
/// `count`, a note saying why; an error when there are none. `what` names the items
/// ("5x5 word squares").
pub(crate) fn sample_distinct<T: Clone + Eq + std::hash::Hash>(
    count: usize,
    what: &str,
    budget: &mut Budget,
    mut attempt: impl FnMut(&mut Budget, &std::collections::HashSet<T>) -> Attempt<T>,
) -> Result<(Vec<T>, Option<String>), CrosswordError> {
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    let mut exhausted = false;
    while found.len() < count && budget.stop.is_none() {
        match attempt(budget, &seen) {
            Attempt::Found(item) => {
                seen.insert(item.clone());
                found.push(item);
            }
            Attempt::Exhausted => {
                exhausted = true;
                break;
            }
            Attempt::Capped => {}
        }
    }
    if budget.stop == Some(Stop::Cancelled) {
        return Err(CrosswordError::Cancelled);
    }
    if found.is_empty() {
        return Err(if exhausted {
            CrosswordError::NoSolution(format!("an exhaustive search found no {what}"))
        } else {
            budget.exhausted(&format!("no {what} found"))
        });
    }
    let note = (found.len() < count).then(|| {
        if exhausted {
            format!("only {} distinct {what} exist", found.len())
        } else {
            format!("found {} of the {count} requested {what} before {}", found.len(), budget.describe())
        }
    });
    Ok((found, note))
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (i from 1): restart caps that are
/// within a log factor of the best fixed cap for heavy-tailed search times.
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i.max(1);
    loop {
        // Smallest k with 2^k - 1 >= i.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}
