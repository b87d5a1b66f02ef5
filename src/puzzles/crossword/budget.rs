//! Node and time budgets shared by the searches. Nodes decide *which* result is found
//! (deterministic); the optional wall-clock limit only decides *whether* it is found in time.

use std::time::{Duration, Instant};

use crate::puzzles::monitor::Monitor;

use super::error::CrosswordError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Nodes,
    Time,
    Cancelled,
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
        }
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
        if self.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            self.stop = Some(Stop::Time);
        } else if !self.progress.update(self.nodes, self.max_nodes) {
            self.stop = Some(Stop::Cancelled);
        }
        self.stop.is_none()
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
