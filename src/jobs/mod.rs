//! The durable job queue: handlers submit jobs here; the worker pool claims them from the
//! database with a lease, runs them in `spawn_blocking`, and stores the outcome.

pub mod kinds;
pub mod model;
pub mod pool;
mod wake;

use std::sync::Arc;

use crate::store::{Store, StoreError};
use model::{now_ms, Job, NewJob};

pub use wake::Wake;

/// Why a job was not queued.
#[derive(Debug)]
pub enum SubmitError {
    /// `queue_limit` jobs are already waiting.
    Full {
        queued: i64,
    },
    Store(StoreError),
}

impl From<StoreError> for SubmitError {
    fn from(e: StoreError) -> Self {
        SubmitError::Store(e)
    }
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

    /// Queues a job (or finds the one an idempotency key already made) and wakes a worker.
    /// Returns the job and whether it was newly created.
    pub async fn submit(&self, new: NewJob) -> Result<(Job, bool), SubmitError> {
        // The limit is checked before inserting, so concurrent submits may overshoot it by
        // a few; it bounds the queue, it is not an exact quota.
        let queued = self.store.queued_count(self.limit).await?;
        if queued >= self.limit {
            if let Some(key) = &new.idempotency_key {
                // A retried order whose job already exists is not new work.
                if let Some(job) = self.store.job_by_idempotency_key(&new.kind, key).await? {
                    return Ok((job, false));
                }
            }
            return Err(SubmitError::Full { queued });
        }
        let (job, created) = self.store.insert_job(&new, self.max_attempts, now_ms()).await?;
        if created {
            self.wake.job_queued(&self.store).await;
        }
        Ok((job, created))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// Shared handle type for the queue.
pub type SharedQueue = Arc<Queue>;
