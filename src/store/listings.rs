//! Listings of a caller's things, newest first, a page at a time (`GET /jobs`,
//! `/oneup/books`, `/crosswords/fills`), and the deletion of a finished product by its owner.
//! Pages are walked by sequence number: a page holds the items ordered before the
//! position `before` (a value of the items' `position`; `None` starts at the newest).

use super::jobs::JobState;
use super::{with_pool, Result, Store};

/// Which jobs a listing shows; every member given narrows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobFilter {
    /// Only this owner's (`None`: everyone's, for admins).
    pub owner: Option<String>,
    pub kind: Option<String>,
    pub state: Option<JobState>,
}

/// A job as listings show it: no request or result, which may be large.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct JobSummary {
    /// Where the job stands in the order jobs were queued (a cursor for listings).
    #[sqlx(rename = "seq")]
    pub position: i64,
    pub id: String,
    pub kind: String,
    pub owner: String,
    pub state: JobState,
    pub progress_done: i64,
    pub progress_total: i64,
    pub error: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// The serial of the book a `books` job prints (its resource is `/books/{serial}`).
    pub serial: Option<String>,
}

/// The rows of one page of a listing: those matching every condition given, ordered
/// before the cursor, newest first. Its clause binds the cursor as `$1`, the page's length
/// as `$2` and the values of the conditions after them.
pub(super) struct Page<'a> {
    /// The column of the items' order (their `position`).
    seq: &'static str,
    conditions: Vec<String>,
    values: Vec<&'a str>,
}

impl<'a> Page<'a> {
    pub(super) fn new(seq: &'static str) -> Self {
        Page { seq, conditions: Vec::new(), values: Vec::new() }
    }

    /// Also `condition`, fixed SQL.
    pub(super) fn with(mut self, condition: &str) -> Self {
        self.conditions.push(condition.to_string());
        self
    }

    /// Also `column = value` where a value is given: only the conditions given are in the
    /// statement, so that each combination uses its index.
    pub(super) fn matching(mut self, column: &str, value: Option<&'a str>) -> Self {
        if let Some(value) = value {
            self.values.push(value);
            self.conditions.push(format!("{column} = ${}", self.values.len() + 2));
        }
        self
    }

    /// The clause from the conditions on: `… AND seq < $1 ORDER BY seq DESC LIMIT $2`.
    pub(super) fn clause(&self) -> String {
        let seq = self.seq;
        let conditions: String = self.conditions.iter().map(|c| format!("{c} AND ")).collect();
        format!("{conditions}{seq} < $1 ORDER BY {seq} DESC LIMIT $2")
    }

    /// The rows `sql` (which holds the clause) reads for the page of `limit` items ordered
    /// before `before` (`None` starts at the newest).
    pub(super) async fn fetch<R>(&self, store: &Store, sql: &str, before: Option<i64>, limit: i64) -> Result<Vec<R>>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
            + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
            + Send
            + Unpin,
    {
        let before = before.unwrap_or(i64::MAX);
        Ok(with_pool!(store, p => {
            let mut q = sqlx::query_as(sql).bind(before).bind(limit);
            for value in &self.values {
                q = q.bind(*value);
            }
            q.fetch_all(p).await?
        }))
    }
}

/// The states in which a job has ended, as SQL.
pub(super) const ENDED: &str = "('succeeded', 'failed', 'cancelled')";

impl Store {
    /// A page of jobs matching `filter`, newest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn jobs_page(&self, filter: &JobFilter, before: Option<i64>, limit: i64) -> Result<Vec<JobSummary>> {
        // Indexed: owner + seq, owner + kind + seq, owner + state + seq, kind + seq, state + seq.
        let page = Page::new("j.seq")
            .matching("j.owner", filter.owner.as_deref())
            .matching("j.kind", filter.kind.as_deref())
            .matching("j.state", filter.state.map(JobState::as_str));
        let sql = format!(
            "SELECT j.seq, j.id, j.kind, j.owner, j.state, j.progress_done, j.progress_total, j.error, \
             j.created_at, j.finished_at, b.serial FROM jobs j LEFT JOIN books b ON b.job_id = j.id \
             WHERE {}",
            page.clause()
        );
        page.fetch(self, &sql, before, limit).await
    }

    /// Deletes job `id` once it has ended, with its attempts and the book it printed (a
    /// copy of a print run goes only with its run). Returns whether it was deleted: false
    /// when there is no such job, it has not ended, or it printed a copy of a run.
    #[tracing::instrument(skip(self), err)]
    pub async fn delete_ended_job(&self, id: &str) -> Result<bool> {
        let ended = format!("SELECT id FROM jobs WHERE id = $1 AND state IN {ENDED}");
        let book = format!("DELETE FROM books WHERE job_id = $1 AND printrun IS NULL AND job_id IN ({ended})");
        // Its attempts go with it (ON DELETE CASCADE).
        let job = format!(
            "DELETE FROM jobs WHERE id IN ({ended}) AND NOT EXISTS (SELECT 1 FROM books b WHERE b.job_id = $1)"
        );
        let deleted = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            sqlx::query(&book).bind(id).execute(&mut *tx).await?;
            let n = sqlx::query(&job).bind(id).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            Ok::<bool, sqlx::Error>(n == 1)
        }
        .await)?;
        Ok(deleted)
    }
}
