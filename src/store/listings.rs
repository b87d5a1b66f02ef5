//! Listings of a caller's things, newest first, a page at a time (`GET /jobs`,
//! `/oneup/books`, `/crosswords/fills`), and the deletion of a finished product by its owner.
//! Pages are walked by sequence number: a page holds the items ordered before the
//! position `before` (a value of the items' `position`; `None` starts at the newest).

use super::jobs::JobState;
use super::{with_pool, Result, Store, StoreError};

/// Which jobs a listing shows; every member given narrows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobFilter {
    /// Only this owner's (`None`: everyone's, for admins).
    pub owner: Option<String>,
    pub kind: Option<String>,
    pub state: Option<JobState>,
}

/// A job as listings show it: no request or result, which may be large.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobSummary {
    /// Where the job stands in the order jobs were queued (a cursor for listings).
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

#[derive(sqlx::FromRow)]
struct SummaryRow {
    seq: i64,
    id: String,
    kind: String,
    owner: String,
    state: String,
    progress_done: i64,
    progress_total: i64,
    error: Option<String>,
    created_at: i64,
    finished_at: Option<i64>,
    serial: Option<String>,
}

impl TryFrom<SummaryRow> for JobSummary {
    type Error = StoreError;
    fn try_from(r: SummaryRow) -> Result<JobSummary> {
        Ok(JobSummary {
            state: JobState::parse(&r.state)
                .ok_or_else(|| StoreError::Corrupt(format!("job {} has state {:?}", r.id, r.state)))?,
            position: r.seq,
            id: r.id,
            kind: r.kind,
            owner: r.owner,
            progress_done: r.progress_done,
            progress_total: r.progress_total,
            error: r.error,
            created_at: r.created_at,
            finished_at: r.finished_at,
            serial: r.serial,
        })
    }
}

/// The states in which a job has ended, as SQL.
pub(super) const ENDED: &str = "('succeeded', 'failed', 'cancelled')";

impl Store {
    /// A page of jobs matching `filter`, newest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn jobs_page(&self, filter: &JobFilter, before: Option<i64>, limit: i64) -> Result<Vec<JobSummary>> {
        // Only the conditions given, so that each combination uses its index
        // (owner + seq, owner + kind + seq, owner + state + seq, kind + seq, state + seq).
        let mut conditions = vec!["j.seq < $1".to_string()];
        let mut values: Vec<&str> = Vec::new();
        let given = [
            ("j.owner", filter.owner.as_deref()),
            ("j.kind", filter.kind.as_deref()),
            ("j.state", filter.state.map(JobState::as_str)),
        ];
        for (column, value) in given {
            if let Some(value) = value {
                values.push(value);
                conditions.push(format!("{column} = ${}", values.len() + 2));
            }
        }
        let sql = format!(
            "SELECT j.seq, j.id, j.kind, j.owner, j.state, j.progress_done, j.progress_total, j.error, \
             j.created_at, j.finished_at, b.serial FROM jobs j LEFT JOIN books b ON b.job_id = j.id \
             WHERE {} ORDER BY j.seq DESC LIMIT $2",
            conditions.join(" AND ")
        );
        let before = before.unwrap_or(i64::MAX);
        let rows: Vec<SummaryRow> = with_pool!(self, p => {
            let mut q = sqlx::query_as(&sql).bind(before).bind(limit);
            for value in &values {
                q = q.bind(*value);
            }
            q.fetch_all(p).await?
        });
        rows.into_iter().map(JobSummary::try_from).collect()
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
