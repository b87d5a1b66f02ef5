//! The durable job queue: handlers submit typed jobs here; the worker pool claims them
//! from the database with a lease, runs them in `spawn_blocking`, and stores the outcome.
//!
//! A job kind is a type implementing [`JobKind`]: its name, its `Params`, its `Output` and
//! how to run it. Handlers submit `K::Params` and workers decode the same type, so the two
//! sides cannot disagree about what a job means.

mod kind;
pub mod kinds;
pub mod pool;
pub mod printruns;
mod wake;
pub mod wordlists;

use crate::store::{Admission, Job, NewJob, OnInsert, Store, StoreError};

pub use crate::store::{Refusal, Tier};
pub use kind::{Context, JobKind, Registry, RunError, TierLimits};
pub use pool::sweep_finished;
pub use wake::Wake;
pub use wordlists::WordLists;

/// Why a job was not queued.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The queue, its share for callers without a key, or the caller's quota is full.
    #[error(transparent)]
    Refused(Refusal),
    /// The stored params would be larger than the queue keeps.
    #[error("the request is {bytes} bytes once stored; at most {limit} are kept per job")]
    ParamsTooLarge { bytes: usize, limit: usize },
    /// The owner keeps as many bytes of products as they may.
    #[error(
        "you keep {} of products (their requests, results and pages), and may keep {}; delete some to make room",
        mib(*kept),
        mib(*quota)
    )]
    StorageFull { kept: i64, quota: i64 },
    /// An `Idempotency-Key` already used for a different request of the same kind.
    #[error("this Idempotency-Key was already used for a request with a different body")]
    KeyReused,
    #[error("params do not serialize: {0}")]
    Params(#[from] serde_json::Error),
    #[error(transparent)]
    Store(StoreError),
}

fn mib(bytes: i64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

impl From<StoreError> for SubmitError {
    fn from(e: StoreError) -> SubmitError {
        match e {
            StoreError::Refused(refusal) => SubmitError::Refused(refusal),
            e => SubmitError::Store(e),
        }
    }
}

/// How much the queue takes.
#[derive(Debug, Clone, Copy)]
pub struct QueueLimits {
    /// Queued jobs (all callers) before new ones are refused.
    pub queued: i64,
    /// Queued jobs of callers without a key (once keys are in use), all of them together:
    /// the rest of the queue is kept for key holders.
    pub anonymous: i64,
    /// Bytes of stored params per job.
    pub params_bytes: usize,
    /// Runs of a job (counting crashed ones) before it is failed.
    pub max_attempts: i64,
}

/// The submitting side of the queue, shared by every handler.
#[derive(Clone)]
pub struct Queue {
    store: Store,
    wake: Wake,
    limits: QueueLimits,
}

/// Who queues a job: its owner (`key:ID`, `anon:ADDRESS`), how many jobs they may have
/// queued or running at once, and the limits they get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitter {
    pub owner: String,
    pub quota: i64,
    pub tier: Tier,
    /// Bytes of kept products (books, dictionaries, fills…) the owner may keep: a product
    /// is refused once they keep this many.
    pub storage: i64,
}

impl Queue {
    pub fn new(store: Store, wake: Wake, limits: QueueLimits) -> Queue {
        Queue { store, wake, limits }
    }

    /// The limits `by`'s jobs are admitted under.
    fn admission(&self, by: &Submitter) -> Admission {
        Admission { queued: self.limits.queued, active: by.quota, anonymous: self.limits.anonymous }
    }

    /// Whether `by` may queue one more job now: cheap, so handlers ask before any costly
    /// validation. Queuing checks again, atomically.
    pub async fn admit(&self, by: &Submitter) -> Result<(), SubmitError> {
        let admission = self.admission(by);
        let now = self.store.occupancy(&by.owner, by.tier, &admission).await?;
        match admission.refusal(by.tier, now, 1) {
            Some(refusal) => Err(SubmitError::Refused(refusal)),
            None => Ok(()),
        }
    }

    /// Whether `by` may keep a product of `bytes` more: the bytes their ended products keep,
    /// as counted when each ended (a few being made are not counted yet; their number is
    /// bounded by the caller's quota of jobs).
    pub async fn check_storage(&self, by: &Submitter, bytes: usize) -> Result<(), SubmitError> {
        if by.storage == i64::MAX {
            return Ok(());
        }
        let kept = self.store.stored_bytes(&by.owner).await?;
        if kept.saturating_add(bytes as i64) > by.storage {
            return Err(SubmitError::StorageFull { kept, quota: by.storage });
        }
        Ok(())
    }

    /// Queues a job of kind `K` for `by` (or finds the one `by`'s idempotency key already
    /// made), and wakes a worker. Returns the job and whether it was newly created.
    pub async fn submit<K: JobKind>(
        &self,
        by: &Submitter,
        params: &K::Params,
        idempotency_key: Option<String>,
    ) -> Result<(Job, bool), SubmitError> {
        self.submit_with::<K>(by, params, idempotency_key, Vec::new()).await
    }

    /// [`Queue::submit`], storing `rows` with a new job (in its transaction) besides the
    /// rows its kind keeps.
    pub async fn submit_with<K: JobKind>(
        &self,
        by: &Submitter,
        params: &K::Params,
        idempotency_key: Option<String>,
        rows: Vec<OnInsert>,
    ) -> Result<(Job, bool), SubmitError> {
        let owner = by.owner.as_str();
        let earlier = match &idempotency_key {
            Some(key) => self.store.job_by_idempotency_key(owner, K::NAME, key).await?,
            None => None,
        };
        let (job, created) = match earlier {
            // A retried order whose job already exists is not new work, even in a full queue.
            Some(job) => (job, false),
            None => {
                // No separate look first: the insert checks the limits, atomically.
                let params_text = serde_json::to_string(params)?;
                let limit = self.limits.params_bytes.max(K::MAX_PARAMS_BYTES);
                if params_text.len() > limit {
                    return Err(SubmitError::ParamsTooLarge { bytes: params_text.len(), limit });
                }
                if K::KEPT {
                    self.check_storage(by, params_text.len()).await?;
                }
                let new = NewJob {
                    kind: K::NAME.to_string(),
                    owner: owner.to_string(),
                    params: params_text,
                    idempotency_key,
                    max_attempts: self.limits.max_attempts,
                    tier: by.tier,
                    wordlist: K::wordlist(params).map(str::to_string),
                    on_insert: K::on_insert(params).into_iter().chain(rows).collect(),
                    admission: self.admission(by),
                    layout_version: crate::render::print::LayoutVersion::CURRENT.number(),
                };
                self.store.insert_job(&new).await?
            }
        };
        if created {
            self.wake.job_queued();
        } else {
            let same = serde_json::from_str::<K::Params>(&job.params).is_ok_and(|p| K::same_request(&p, params));
            if !same {
                return Err(SubmitError::KeyReused);
            }
        }
        Ok((job, created))
    }
}
