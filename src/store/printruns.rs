//! Print runs: one order for many copies, each copy a book printed by its own book job
//! (`books.printrun`, `books.copy`).

use serde_json::Value;

use super::books::StoredAnswer;
use super::jobs::{JobState, Tier};
use super::listings::{Page, ENDED};
use super::{with_pool, Result, Store, StoreError};

/// A print run to be stored, and as it was ordered when read back.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NewPrintRun {
    pub id: String,
    pub owner: String,
    pub tier: Tier,
    /// JSON: what each copy is.
    pub params: String,
    pub copies: i64,
    /// Copies queued or running at once, at most.
    pub at_once: i64,
    pub idempotency_key: Option<String>,
}

/// A stored print run with how far its copies have got.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrintRunRecord {
    /// Where the run stands in the order runs were ordered (a cursor for listings).
    #[sqlx(rename = "seq")]
    pub position: i64,
    #[sqlx(flatten)]
    pub order: NewPrintRun,
    pub created_at: i64,
    /// Copies whose book job exists.
    pub queued: i64,
    /// Copies printed.
    pub done: i64,
    /// Copies whose book job failed or was cancelled.
    pub failed: i64,
    /// Copies queued or running now.
    pub active: i64,
    /// Copies running now.
    pub running: i64,
}

/// One copy of a run, as its manifest and archive need it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrintRunCopy {
    pub copy: i64,
    pub serial: String,
    pub state: JobState,
    pub pages: i64,
    #[sqlx(try_from = "StoredAnswer")]
    pub answer: Option<Value>,
    pub interior_sha256: Option<String>,
    /// The renderer its interior is printed with (`render::layouts::foxbook::InteriorVersion`).
    pub interior_version: i64,
}

/// A run with its copies counted by the state of their jobs.
const RUN_SELECT: &str = "SELECT r.seq, r.id, r.owner, r.tier, r.params, r.copies, r.at_once, r.idempotency_key, \
     r.created_at, \
     CAST(COUNT(b.serial) AS BIGINT) AS queued, \
     CAST(COALESCE(SUM(CASE WHEN j.state = 'succeeded' THEN 1 ELSE 0 END), 0) AS BIGINT) AS done, \
     CAST(COALESCE(SUM(CASE WHEN j.state IN ('failed', 'cancelled') THEN 1 ELSE 0 END), 0) AS BIGINT) AS failed, \
     CAST(COALESCE(SUM(CASE WHEN j.state IN ('queued', 'running') THEN 1 ELSE 0 END), 0) AS BIGINT) AS active, \
     CAST(COALESCE(SUM(CASE WHEN j.state = 'running' THEN 1 ELSE 0 END), 0) AS BIGINT) AS running \
     FROM printruns r LEFT JOIN books b ON b.printrun = r.id LEFT JOIN jobs j ON j.id = b.job_id";

const RUN_GROUP: &str =
    "GROUP BY r.id, r.owner, r.tier, r.params, r.copies, r.at_once, r.idempotency_key, r.created_at, r.seq";

impl Store {
    /// Stores a print run, or returns the one `owner` already made with this idempotency
    /// key (and `false`).
    #[tracing::instrument(skip_all, fields(id = %run.id), err)]
    pub async fn insert_printrun(&self, run: &NewPrintRun) -> Result<(PrintRunRecord, bool)> {
        if let Some(key) = &run.idempotency_key {
            if let Some(earlier) = self.printrun_by_idempotency_key(&run.owner, key).await? {
                return Ok((earlier, false));
            }
        }
        let sql = self.sql(
            "INSERT INTO printruns (id, owner, tier, params, copies, at_once, idempotency_key, created_at) \
             VALUES ($2, $3, $4, $5, $6, $7, $8, {NOW})",
        );
        let now = self.clock_param();
        let inserted: Result<()> = with_pool!(self, p => {
            sqlx::query(&sql)
                .bind(now)
                .bind(&run.id)
                .bind(&run.owner)
                .bind(run.tier.as_str())
                .bind(&run.params)
                .bind(run.copies)
                .bind(run.at_once)
                .bind(&run.idempotency_key)
                .execute(p)
                .await
                .map(drop)
                .map_err(StoreError::from)
        });
        match inserted {
            Ok(()) => {}
            // Two requests with one key raced; the other one's run is the answer.
            Err(e) if e.is_unique_violation() && run.idempotency_key.is_some() => {
                let key = run.idempotency_key.as_deref().unwrap_or_default();
                if let Some(earlier) = self.printrun_by_idempotency_key(&run.owner, key).await? {
                    return Ok((earlier, false));
                }
                return Err(e);
            }
            Err(e) => return Err(e),
        }
        let stored = self.printrun(&run.id).await?;
        let stored =
            stored.ok_or_else(|| StoreError::Corrupt(format!("print run {} vanished after insert", run.id)))?;
        Ok((stored, true))
    }

    /// The run `owner` made with this idempotency key.
    #[tracing::instrument(skip(self), err)]
    pub async fn printrun_by_idempotency_key(&self, owner: &str, key: &str) -> Result<Option<PrintRunRecord>> {
        self.find_printrun("r.owner = $1 AND r.idempotency_key = $2", &[owner, key]).await
    }

    /// The print run with this id.
    #[tracing::instrument(skip(self), err)]
    pub async fn printrun(&self, id: &str) -> Result<Option<PrintRunRecord>> {
        self.find_printrun("r.id = $1", &[id]).await
    }

    async fn find_printrun(&self, condition: &str, binds: &[&str]) -> Result<Option<PrintRunRecord>> {
        let sql = format!("{RUN_SELECT} WHERE {condition} {RUN_GROUP}");
        let run = with_pool!(self, p => {
            let mut q = sqlx::query_as(&sql);
            for b in binds {
                q = q.bind(*b);
            }
            q.fetch_optional(p).await?
        });
        Ok(run)
    }

    /// Runs with copies still to queue, oldest first (at most `limit`).
    #[tracing::instrument(skip(self), err)]
    pub async fn printruns_to_feed(&self, limit: i64) -> Result<Vec<PrintRunRecord>> {
        let sql = format!(
            "{RUN_SELECT} WHERE r.seq IN (SELECT seq FROM printruns WHERE fed < copies ORDER BY seq LIMIT $1) \
             {RUN_GROUP} ORDER BY r.seq"
        );
        Ok(with_pool!(self, p => sqlx::query_as(&sql).bind(limit).fetch_all(p).await?))
    }

    /// Records how many copies of run `id` are queued (its books), so that a run whose
    /// copies are all queued is no longer visited by the feeder.
    #[tracing::instrument(skip(self), err)]
    pub async fn note_printrun_fed(&self, id: &str) -> Result<()> {
        let sql = "UPDATE printruns SET fed = (SELECT COUNT(*) FROM books b WHERE b.printrun = $1) WHERE id = $1";
        with_pool!(self, p => sqlx::query(sql).bind(id).execute(p).await.map(drop)?);
        Ok(())
    }

    /// Copies of run `id` after copy number `after`, in copy order (at most `limit`).
    #[tracing::instrument(skip(self), err)]
    pub async fn printrun_copies(&self, id: &str, after: i64, limit: i64) -> Result<Vec<PrintRunCopy>> {
        let sql = "SELECT b.copy, b.serial, j.state, b.pages, b.answer, b.interior_sha256, b.interior_version \
                   FROM books b JOIN jobs j ON j.id = b.job_id \
                   WHERE b.printrun = $1 AND b.copy > $2 ORDER BY b.copy LIMIT $3";
        Ok(with_pool!(self, p => sqlx::query_as(sql).bind(id).bind(after).bind(limit).fetch_all(p).await?))
    }

    /// A page of print runs, newest first: `owner`'s (or everyone's when `None`), ordered
    /// before the position `before` (a value of [`PrintRunRecord::position`]; `None` starts
    /// at the newest).
    #[tracing::instrument(skip(self), err)]
    pub async fn printruns_page(
        &self,
        owner: Option<&str>,
        before: Option<i64>,
        limit: i64,
    ) -> Result<Vec<PrintRunRecord>> {
        // The page's runs first, then their copies counted: only those runs' books are read.
        let page = Page::new("seq").matching("owner", owner);
        let sql = format!(
            "{RUN_SELECT} WHERE r.seq IN (SELECT seq FROM printruns WHERE {}) {RUN_GROUP} ORDER BY r.seq DESC",
            page.clause()
        );
        page.fetch(self, &sql, before, limit).await
    }

    /// Deletes run `id` with its copies (their books, jobs and attempts) once it has ended:
    /// every copy queued and none queued or running. Returns whether it was deleted.
    #[tracing::instrument(skip(self), err)]
    pub async fn delete_printrun(&self, id: &str) -> Result<bool> {
        let run = "DELETE FROM printruns WHERE id = $1 \
                   AND (SELECT COUNT(*) FROM books b WHERE b.printrun = $1) >= copies \
                   AND NOT EXISTS (SELECT 1 FROM books b JOIN jobs j ON j.id = b.job_id \
                     WHERE b.printrun = $1 AND j.state IN ('queued', 'running'))";
        let books = "DELETE FROM books WHERE printrun = $1 RETURNING job_id";
        let deleted = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            if sqlx::query(run).bind(id).execute(&mut *tx).await?.rows_affected() == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
            // The books first (they refer to their jobs), then the jobs they named, a
            // bounded number of bound ids at a time; attempts go with their jobs.
            let jobs: Vec<String> = sqlx::query_scalar(books).bind(id).fetch_all(&mut *tx).await?;
            for chunk in jobs.chunks(500) {
                let ids: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
                let sql = format!("DELETE FROM jobs WHERE state IN {ENDED} AND id IN ({})", ids.join(", "));
                let mut q = sqlx::query(&sql);
                for job in chunk {
                    q = q.bind(job);
                }
                q.execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<bool, sqlx::Error>(true)
        }
        .await)?;
        Ok(deleted)
    }
}
