//! The durable job queue's tables: insert, claim with a lease, heartbeat, finish, cancel,
//! and rescue of jobs whose worker died.

use serde_json::Value;

use super::{with_pool, Pool, Result, Store, StoreError};
use crate::jobs::model::{Artifact, Claimed, Job, JobState, Lease, NewJob, Outcome};

const JOB_COLUMNS: &str = "id, kind, params, state, attempts, cancel_requested, progress_done, \
     progress_total, error, result, created_at, started_at, finished_at";

#[derive(sqlx::FromRow)]
struct JobRow {
    id: String,
    kind: String,
    params: String,
    state: String,
    attempts: i64,
    cancel_requested: bool,
    progress_done: i64,
    progress_total: i64,
    error: Option<String>,
    result: Option<String>,
    created_at: i64,
    started_at: Option<i64>,
    finished_at: Option<i64>,
}

fn parse_json(what: &str, text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

impl TryFrom<JobRow> for Job {
    type Error = StoreError;
    fn try_from(r: JobRow) -> Result<Job> {
        Ok(Job {
            state: JobState::parse(&r.state)
                .ok_or_else(|| StoreError::Corrupt(format!("job {} has state {:?}", r.id, r.state)))?,
            params: parse_json("job params", &r.params)?,
            result: r.result.as_deref().map(|t| parse_json("job result", t)).transpose()?,
            id: r.id,
            kind: r.kind,
            attempts: r.attempts,
            cancel_requested: r.cancel_requested,
            progress_done: r.progress_done,
            progress_total: r.progress_total,
            error: r.error,
            created_at: r.created_at,
            started_at: r.started_at,
            finished_at: r.finished_at,
        })
    }
}

#[derive(sqlx::FromRow)]
struct ClaimRow {
    id: String,
    kind: String,
    params: String,
    attempts: i64,
}

/// Number of jobs of one kind in one state.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobCount {
    pub kind: String,
    pub state: String,
    pub count: i64,
}

/// Hands the oldest claimable job to `owner`: a queued one, or a running one whose lease
/// expired (its worker died). A cancelled-while-running job is never re-run.
const CLAIM: &str = "UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1, \
     lease_expires_at = $2, started_at = COALESCE(started_at, $3) \
     WHERE seq = (SELECT seq FROM jobs \
                  WHERE (state = 'queued' OR (state = 'running' AND lease_expires_at < $3)) \
                    AND attempts < max_attempts AND NOT cancel_requested \
                  ORDER BY seq LIMIT 1 {LOCK}) \
     RETURNING id, kind, params, attempts";

impl Store {
    /// Queues a job. With an idempotency key that was used before for this kind, returns the
    /// existing job and `false` instead of queuing a second one.
    pub async fn insert_job(&self, new: &NewJob, max_attempts: i64, now: i64) -> Result<(Job, bool)> {
        if let Some(key) = &new.idempotency_key {
            if let Some(job) = self.job_by_idempotency_key(&new.kind, key).await? {
                return Ok((job, false));
            }
        }
        let id = uuid::Uuid::new_v4().to_string();
        let params = new.params.to_string();
        let inserted = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            sqlx::query(
                "INSERT INTO jobs (id, kind, params, state, max_attempts, idempotency_key, created_at) \
                 VALUES ($1, $2, $3, 'queued', $4, $5, $6)",
            )
            .bind(&id)
            .bind(&new.kind)
            .bind(&params)
            .bind(max_attempts)
            .bind(&new.idempotency_key)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if let Some(book) = &new.book {
                sqlx::query(
                    "INSERT INTO books (serial, job_id, generator_version, pages, rows, cols, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&book.serial)
                .bind(&id)
                .bind(book.generator_version)
                .bind(book.pages)
                .bind(book.rows)
                .bind(book.cols)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await
        }
        .await);
        match inserted.map_err(StoreError::from) {
            Ok(()) => {}
            // Two requests with one key raced; the other one's job is the answer.
            Err(e) if e.is_unique_violation() && new.idempotency_key.is_some() => {
                let key = new.idempotency_key.as_deref().unwrap_or_default();
                if let Some(job) = self.job_by_idempotency_key(&new.kind, key).await? {
                    return Ok((job, false));
                }
                return Err(e);
            }
            Err(e) => return Err(e),
        }
        let job = self.job(&id).await?.ok_or_else(|| StoreError::Corrupt(format!("job {id} vanished after insert")))?;
        Ok((job, true))
    }

    pub async fn job_by_idempotency_key(&self, kind: &str, key: &str) -> Result<Option<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs WHERE kind = $1 AND idempotency_key = $2");
        let row: Option<JobRow> = with_pool!(self, p => {
            sqlx::query_as(&sql).bind(kind).bind(key).fetch_optional(p).await?
        });
        row.map(Job::try_from).transpose()
    }

    pub async fn job(&self, id: &str) -> Result<Option<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1");
        let row: Option<JobRow> = with_pool!(self, p => {
            sqlx::query_as(&sql).bind(id).fetch_optional(p).await?
        });
        row.map(Job::try_from).transpose()
    }

    /// Jobs waiting for a worker (the backpressure measure), counted up to `cap` so the
    /// check stays cheap however long the queue grows.
    pub async fn queued_count(&self, cap: i64) -> Result<i64> {
        let n: i64 = with_pool!(self, p => {
            sqlx::query_scalar("SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE state = 'queued' LIMIT $1) AS waiting")
                .bind(cap)
                .fetch_one(p)
                .await?
        });
        Ok(n)
    }

    /// Claims the oldest claimable job for `owner` with a lease until `now + lease_ms`.
    pub async fn claim(&self, owner: &str, now: i64, lease_ms: i64) -> Result<Option<Claimed>> {
        let row: Option<ClaimRow> = match &self.pool {
            // An immediate transaction takes SQLite's write lock before reading, so two
            // processes can never pick the same row.
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await?;
                let row = sqlx::query_as(&CLAIM.replace("{LOCK}", ""))
                    .bind(owner)
                    .bind(now + lease_ms)
                    .bind(now)
                    .fetch_optional(&mut *tx)
                    .await?;
                tx.commit().await?;
                row
            }
            // Row locks with SKIP LOCKED let many workers claim different rows concurrently.
            Pool::Postgres(p) => {
                sqlx::query_as(&CLAIM.replace("{LOCK}", "FOR UPDATE SKIP LOCKED"))
                    .bind(owner)
                    .bind(now + lease_ms)
                    .bind(now)
                    .fetch_optional(p)
                    .await?
            }
        };
        row.map(|r| {
            Ok(Claimed { params: parse_json("job params", &r.params)?, id: r.id, kind: r.kind, attempts: r.attempts })
        })
        .transpose()
    }

    /// Ends jobs whose worker died and that may not be tried again: cancelled ones whose
    /// cancellation was requested, failed ones that used up their attempts. Returns how many.
    pub async fn rescue_expired(&self, now: i64) -> Result<u64> {
        let n = with_pool!(self, p => {
            let cancelled = sqlx::query(
                "UPDATE jobs SET state = 'cancelled', finished_at = $1, lease_owner = NULL, lease_expires_at = NULL \
                 WHERE state = 'running' AND lease_expires_at < $1 AND cancel_requested",
            )
            .bind(now)
            .execute(p)
            .await?
            .rows_affected();
            let failed = sqlx::query(
                "UPDATE jobs SET state = 'failed', finished_at = $1, lease_owner = NULL, lease_expires_at = NULL, \
                 error = 'the worker running this job stopped responding ' || CAST(attempts AS TEXT) || ' times; giving up' \
                 WHERE state = 'running' AND lease_expires_at < $1 AND attempts >= max_attempts",
            )
            .bind(now)
            .execute(p)
            .await?
            .rows_affected();
            cancelled + failed
        });
        Ok(n)
    }

    /// Extends `owner`'s lease and records progress; tells whether the lease is still held
    /// and whether a client asked the job to stop.
    pub async fn heartbeat(
        &self,
        id: &str,
        owner: &str,
        now: i64,
        lease_ms: i64,
        done: i64,
        total: i64,
    ) -> Result<Lease> {
        let cancel: Option<bool> = with_pool!(self, p => {
            sqlx::query_scalar(
                "UPDATE jobs SET lease_expires_at = $1, progress_done = $2, progress_total = $3 \
                 WHERE id = $4 AND lease_owner = $5 AND state = 'running' RETURNING cancel_requested",
            )
            .bind(now + lease_ms)
            .bind(done)
            .bind(total)
            .bind(id)
            .bind(owner)
            .fetch_optional(p)
            .await?
        });
        Ok(match cancel {
            Some(cancel_requested) => Lease::Held { cancel_requested },
            None => Lease::Lost,
        })
    }

    /// Records how `owner`'s run of a job ended, with its artifact, in one transaction.
    /// Returns false (and changes nothing) when the lease was lost meanwhile, so a job is
    /// finished once, by its current holder.
    pub async fn finish(
        &self,
        id: &str,
        owner: &str,
        outcome: &Outcome,
        progress: (i64, i64),
        now: i64,
    ) -> Result<bool> {
        let (state, result, error, artifact) = match outcome {
            Outcome::Succeeded(out) => (JobState::Succeeded, Some(out.result.to_string()), None, out.artifact.as_ref()),
            Outcome::Failed(error) => (JobState::Failed, None, Some(error.as_str()), None),
            Outcome::Cancelled => (JobState::Cancelled, None, None, None),
        };
        // A succeeded job is complete whatever its engine last reported.
        let (done, total) = match state {
            JobState::Succeeded => (progress.1.max(1), progress.1.max(1)),
            _ => progress,
        };
        let finished = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            let updated = sqlx::query(
                "UPDATE jobs SET state = $1, result = $2, error = $3, finished_at = $4, \
                 progress_done = $5, progress_total = $6, lease_owner = NULL, lease_expires_at = NULL \
                 WHERE id = $7 AND lease_owner = $8 AND state = 'running'",
            )
            .bind(state.as_str())
            .bind(result)
            .bind(error)
            .bind(now)
            .bind(done)
            .bind(total)
            .bind(id)
            .bind(owner)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated != 1 {
                return Ok::<bool, sqlx::Error>(false);
            }
            if let Some(Artifact::Book { serial, letters, answer, content_hash }) = artifact {
                sqlx::query(
                    "UPDATE books SET letters = $1, answer = $2, content_hash = $3, finished_at = $4 \
                     WHERE serial = $5 AND job_id = $6",
                )
                .bind(letters)
                .bind(answer.to_string())
                .bind(content_hash)
                .bind(now)
                .bind(serial)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        }
        .await)?;
        Ok(finished)
    }

    /// Hands a running job back to the queue without counting the attempt (used at
    /// shutdown, so another process picks it up at once instead of waiting for the lease).
    pub async fn release(&self, id: &str, owner: &str) -> Result<bool> {
        let updated = with_pool!(self, p => {
            sqlx::query(
                "UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_owner = NULL, \
                 lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
            )
            .bind(id)
            .bind(owner)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(updated == 1)
    }

    /// Cancels a queued job at once, or asks a running one to stop at its next progress
    /// report. Returns the job as it is afterwards (None if there is no such job).
    pub async fn cancel(&self, id: &str, now: i64) -> Result<Option<Job>> {
        with_pool!(self, p => {
            sqlx::query(
                "UPDATE jobs SET state = 'cancelled', finished_at = $1 WHERE id = $2 AND state = 'queued'",
            )
            .bind(now)
            .bind(id)
            .execute(p)
            .await?;
            sqlx::query("UPDATE jobs SET cancel_requested = TRUE WHERE id = $1 AND state = 'running'")
                .bind(id)
                .execute(p)
                .await?;
        });
        self.job(id).await
    }

    /// Jobs by kind and state, for metrics.
    pub async fn job_counts(&self) -> Result<Vec<JobCount>> {
        let rows = with_pool!(self, p => {
            sqlx::query_as("SELECT kind, state, COUNT(*) AS count FROM jobs GROUP BY kind, state ORDER BY kind, state")
                .fetch_all(p)
                .await?
        });
        Ok(rows)
    }
}
