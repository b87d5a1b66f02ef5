//! The one typed job abstraction, shared by the side that enqueues and the side that runs.

use std::collections::HashMap;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::puzzles::monitor::{Cancelled, Monitor};
use crate::puzzles::Limits;
use crate::store::{OnInsert, OnSuccess, Tier};

/// A kind of job. Its name is its resource's route without the leading slash, with `/`
/// read as `.` (`books`, `oneup.solves`, `crosswords.fills`): the same word in the API,
/// the code and the database.
pub trait JobKind: Send + Sync + 'static {
    const NAME: &'static str;
    /// What a client asked for, as stored with the job.
    type Params: Serialize + DeserializeOwned + Send + 'static;
    /// The job's result, as stored and served.
    type Output: Serialize + Send + 'static;

    /// Whether finished jobs of this kind are kept for good (their rows are the product, as
    /// a book's are) instead of being deleted once the retention time has passed.
    const KEPT: bool = false;

    /// Bytes of stored params this kind may keep beyond the operator's `--max-params-kib`
    /// (the larger applies): for kinds whose request is their product and is bounded by
    /// its own limits (a dictionary's entries).
    const MAX_PARAMS_BYTES: usize = 0;

    /// Runs the job on the current (blocking) thread, reporting to `monitor`.
    fn run(ctx: &Context, params: Self::Params, monitor: &mut dyn Monitor) -> Result<Self::Output, RunError>;

    /// Rows to create with the job, in the transaction that queues it.
    fn on_insert(_params: &Self::Params) -> Option<OnInsert> {
        None
    }

    /// The stored word list the job reads (its text is kept while the job is).
    fn wordlist(_params: &Self::Params) -> Option<&str> {
        None
    }

    /// Rows to write besides the result, in the transaction that marks the job done.
    fn on_success(_output: &mut Self::Output) -> Option<OnSuccess> {
        None
    }

    /// Whether a retried request (same `Idempotency-Key`) asks for the same thing as the
    /// stored one.
    fn same_request(stored: &Self::Params, retried: &Self::Params) -> bool {
        serde_json::to_value(stored).ok() == serde_json::to_value(retried).ok()
    }
}

/// The engines' limits of each [`Tier`], as `serve --limits FILE` configures them: JSON
/// `{"publisher": {…}, "anonymous": {…}}`, each a partial [`Limits`].
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TierLimits {
    pub publisher: Arc<Limits>,
    pub anonymous: Arc<Limits>,
}

impl Default for TierLimits {
    fn default() -> Self {
        TierLimits { publisher: Arc::new(Limits::default()), anonymous: Arc::new(Limits::anonymous()) }
    }
}

impl TierLimits {
    pub fn of(&self, tier: Tier) -> &Arc<Limits> {
        match tier {
            Tier::Publisher => &self.publisher,
            Tier::Anonymous => &self.anonymous,
        }
    }
}

/// What jobs may use besides their params.
#[derive(Clone)]
pub struct Context {
    /// Key from which per-book seeds are derived.
    pub secret: Arc<[u8]>,
    /// The limits of the job's tier (checked when it was queued, and again as it runs).
    pub limits: Arc<Limits>,
    /// Uploaded word lists, loaded by id.
    pub wordlists: Arc<super::WordLists>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").field("secret", &"<hidden>").field("limits", &self.limits).finish()
    }
}

/// Why a run produced no result.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The engine stopped because it was asked to (client cancel, shutdown, lost lease).
    #[error("cancelled")]
    Cancelled,
    /// The job cannot succeed; re-running it would fail the same way (engines are
    /// deterministic), so it is not retried.
    #[error("{0}")]
    Failed(String),
}

impl From<Cancelled> for RunError {
    fn from(_: Cancelled) -> Self {
        RunError::Cancelled
    }
}

/// A succeeded run: the result as JSON text and the rows its kind writes with it.
#[derive(Debug)]
pub struct Completed {
    pub result: String,
    pub on_success: Option<OnSuccess>,
}

type RunFn = fn(&Context, &str, &mut dyn Monitor) -> Result<Completed, RunError>;

/// Decodes stored params as `K::Params` (the type `Queue::submit::<K>` encoded), runs
/// the job and encodes its output.
fn run_kind<K: JobKind>(ctx: &Context, params: &str, monitor: &mut dyn Monitor) -> Result<Completed, RunError> {
    let params: K::Params = serde_json::from_str(params)
        .map_err(|e| RunError::Failed(format!("stored {} params do not parse: {e}", K::NAME)))?;
    let mut output = K::run(ctx, params, monitor)?;
    let on_success = K::on_success(&mut output);
    let result = serde_json::to_string(&output)
        .map_err(|e| RunError::Failed(format!("{} result does not serialize: {e}", K::NAME)))?;
    Ok(Completed { result, on_success })
}

/// The kinds this process runs, by name: built from the [`JobKind`] implementations.
#[derive(Default, Clone)]
pub struct Registry(HashMap<&'static str, (RunFn, bool)>);

impl Registry {
    pub fn with<K: JobKind>(mut self) -> Registry {
        self.0.insert(K::NAME, (run_kind::<K>, K::KEPT));
        self
    }

    /// The kinds whose finished jobs are deleted after the retention time.
    pub fn swept(&self) -> Vec<&'static str> {
        let mut names: Vec<_> = self.0.iter().filter(|(_, (_, kept))| !kept).map(|(name, _)| *name).collect();
        names.sort_unstable();
        names
    }

    /// Whether finished jobs of `kind` are kept products (counted against their owner's
    /// storage).
    pub fn kept(&self, kind: &str) -> bool {
        self.0.get(kind).is_some_and(|(_, kept)| *kept)
    }

    /// Every kind's name, sorted.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<_> = self.0.keys().copied().collect();
        names.sort_unstable();
        names
    }

    /// Runs a stored job of `kind` on the current (blocking) thread.
    pub fn run(
        &self,
        ctx: &Context,
        kind: &str,
        params: &str,
        monitor: &mut dyn Monitor,
    ) -> Result<Completed, RunError> {
        let (run, _) =
            self.0.get(kind).ok_or_else(|| RunError::Failed(format!("this server does not know job kind {kind:?}")))?;
        run(ctx, params, monitor)
    }
}
