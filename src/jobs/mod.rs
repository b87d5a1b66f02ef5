//! The durable job queue: handlers submit typed jobs here; the worker pool claims them
//! from the database with a lease, runs them in `spawn_blocking`, and stores the outcome.
//!
//! A job kind is a type implementing [`JobKind`]: its name, its `Params`, its `Output` and
//! how to run it. Handlers submit `K::Params` and workers decode the same type, so the two
//! sides cannot disagree about what a job means.

mod kind;
pub mod kinds;
pub mod pool;
mod wake;

use std::sync::Arc;

use crate::store::{Job, NewJob, Store, StoreError};

pub use kind::{Context, JobKind, Registry, RunError};
pub use wake::Wake;

/// Why a job was not queued.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// `queue_limit` jobs are already waiting.
    #[error("the job queue is full ({queued} jobs waiting)")]
    Full { queued: i64 },
    /// An `Idempotency-Key` already used for a different request of the same kind.
    #[error("this Idempotency-Key was already used for a request with a different body")]
    KeyReused,
    #[error("params do not serialize: {0}")]
    Params(#[from] serde_json::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The submitting side of the queue, shared by every handler.
#[derive(Clone)]
pub struct Queue {
    store: Store,
    wake: Wake,
    limit: i64,
    max_attempts: i64,
}

impl Queue {
    pub fn new(store: Store, wake: Wake, limit: i64, max_attempts: i64) -> Queue {
        Queue { store, wake, limit, max_attempts }
    }

    /// Queues a job of kind `K` for `owner` (or finds the one `owner`'s idempotency key
    /// already made) and wakes a worker. Returns the job and whether it was newly created.
    pub async fn submit<K: JobKind>(
        &self,
        owner: &str,
        params: &K::Params,
        idempotency_key: Option<String>,
    ) -> Result<(Job, bool), SubmitError> {
        // The limit is checked before inserting, so concurrent submits may overshoot it by
        // a few; it bounds the queue, it is not an exact quota.
        let queued = self.store.queued_count(self.limit).await?;
        let earlier = match &idempotency_key {
            Some(key) => self.store.job_by_idempotency_key(owner, K::NAME, key).await?,
            None => None,
        };
        let (job, created) = match earlier {
            // A retried order whose job already exists is not new work, even in a full queue.
            Some(job) => (job, false),
            None if queued >= self.limit => return Err(SubmitError::Full { queued }),
            None => {
                let new = NewJob {
                    kind: K::NAME.to_string(),
                    owner: owner.to_string(),
                    params: serde_json::to_string(params)?,
                    idempotency_key,
                    max_attempts: self.max_attempts,
                    on_insert: K::on_insert(params),
                };
                self.store.insert_job(&new).await?
            }
        };
        if created {
            self.wake.job_queued(&self.store).await;
        } else {
            let same = serde_json::from_str::<K::Params>(&job.params).is_ok_and(|p| K::same_request(&p, params));
            if !same {
                return Err(SubmitError::KeyReused);
            }
        }
        Ok((job, created))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// Shared handle type for the queue.
pub type SharedQueue = Arc<Queue>;
