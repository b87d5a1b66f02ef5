//! The durable job queue's tables: insert, claim with a lease, heartbeat, finish, cancel,
//! rescue of jobs whose worker died, and the record of every attempt.
//!
//! Every time is taken from the store's [`Clock`](super::Clock) inside the SQL (`{NOW}`,
//! bound as `$1`), never from the calling process.

use serde::Serialize;
use sqlx::postgres::PgListener;
use sqlx::{FromRow, Row};

use super::books::{NewBook, PrintedBook};
use super::listings::ENDED;
use super::wordlists::{upsert_content, NewWordList, CONTENT_IN_USE, CONTENT_UPSERT};
use super::{decode_via, with_pool, Backend, CorruptValue, Pool, Result, Store, StoreError};

/// Lifecycle of a job. Terminal states are `succeeded`, `failed` and `cancelled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
}

impl JobState {
    pub const ALL: [JobState; 5] =
        [JobState::Queued, JobState::Running, JobState::Succeeded, JobState::Failed, JobState::Cancelled];

    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Succeeded => "succeeded",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<JobState> {
        JobState::ALL.into_iter().find(|st| st.as_str() == s)
    }

    pub fn is_terminal(self) -> bool {
        matches!(self, JobState::Succeeded | JobState::Failed | JobState::Cancelled)
    }
}

/// A state read back: one this version does not know means the row is corrupt.
impl TryFrom<String> for JobState {
    type Error = CorruptValue;
    fn try_from(s: String) -> std::result::Result<JobState, CorruptValue> {
        JobState::parse(&s).ok_or_else(|| CorruptValue(format!("unknown job state {s:?}")))
    }
}

decode_via!(String => JobState);

/// A job as stored. `params` and `result` are JSON text, served as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Job {
    pub id: String,
    pub kind: String,
    /// Who queued it: `key:ID` or `anon:ADDRESS`.
    pub owner: String,
    pub params: String,
    pub state: JobState,
    pub attempts: i64,
    pub cancel_requested: bool,
    pub progress_done: i64,
    pub progress_total: i64,
    pub error: Option<String>,
    pub result: Option<String>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// The layout its files are printed with (`render::print::LayoutVersion`'s number).
    pub layout_version: i64,
}

/// Which limits a job was accepted under, and so runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tier {
    /// A key holder's (or anyone's, while no key is in use).
    #[default]
    Publisher,
    /// A caller without a key, once keys are in use.
    Anonymous,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Publisher => "publisher",
            Tier::Anonymous => "anonymous",
        }
    }

    pub fn parse(s: &str) -> Option<Tier> {
        match s {
            "publisher" => Some(Tier::Publisher),
            "anonymous" => Some(Tier::Anonymous),
            _ => None,
        }
    }
}

/// A tier read back: one this version does not know means the row is corrupt.
impl TryFrom<String> for Tier {
    type Error = CorruptValue;
    fn try_from(s: String) -> std::result::Result<Tier, CorruptValue> {
        Tier::parse(&s).ok_or_else(|| CorruptValue(format!("unknown tier {s:?}")))
    }
}

decode_via!(String => Tier);

/// A job to be queued.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: String,
    /// Who queues it (`key:ID`, `anon:ADDRESS`): idempotency keys are theirs alone, and
    /// workers take turns between owners.
    pub owner: String,
    /// JSON text.
    pub params: String,
    /// A client's `Idempotency-Key`: a second order with the same key returns the first job.
    pub idempotency_key: Option<String>,
    /// Runs (counting crashed ones) before the job is failed.
    pub max_attempts: i64,
    pub tier: Tier,
    /// The word list the job reads (its text is kept while the job is).
    pub wordlist: Option<String>,
    /// Rows kept beside the job, inserted in the same transaction.
    pub on_insert: Vec<OnInsert>,
    /// The limits the job is admitted under, checked in the transaction that queues it.
    pub admission: Admission,
    /// The layout its files will be printed with.
    pub layout_version: i64,
}

/// How many jobs may be waiting when one more is queued: checked atomically with the
/// insert (PostgreSQL serializes the check with an advisory lock, SQLite with its write
/// lock), so concurrent orders never take the queue or a caller past a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admission {
    /// Queued jobs of all callers.
    pub queued: i64,
    /// The owner's jobs queued or running.
    pub active: i64,
    /// Queued jobs of callers without a key (tier `anonymous`), checked for such callers'
    /// jobs only: the rest of the queue is kept for key holders.
    pub anonymous: i64,
}

impl Admission {
    /// No limits (tests, and jobs whose caller's limits were checked elsewhere).
    pub const UNLIMITED: Admission = Admission { queued: i64::MAX, active: i64::MAX, anonymous: i64::MAX };
}

/// Jobs counted against an [`Admission`], each only up to its limit (plus one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, sqlx::FromRow)]
pub struct Occupancy {
    pub queued: i64,
    pub active: i64,
    pub anonymous: i64,
}

/// Why a job was not queued: a limit of its [`Admission`] is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the job queue is full ({queued} jobs waiting)")]
    Full { queued: i64 },
    #[error("you have {active} jobs queued or running, the most allowed at once; wait for some to finish")]
    Quota { active: i64, limit: i64 },
    #[error(
        "the queue's share for callers without an API key is full ({queued} jobs waiting); \
         try again later, or order with a key"
    )]
    AnonymousFull { queued: i64 },
}

impl Admission {
    /// The first limit `now` has reached, if any, when `adding` more jobs are to be queued
    /// (0 when the counts already include the new job).
    pub fn refusal(&self, tier: Tier, now: Occupancy, adding: i64) -> Option<Refusal> {
        if now.queued + adding > self.queued {
            return Some(Refusal::Full { queued: now.queued });
        }
        if tier == Tier::Anonymous && now.anonymous + adding > self.anonymous {
            return Some(Refusal::AnonymousFull { queued: now.anonymous });
        }
        if now.active + adding > self.active {
            return Some(Refusal::Quota { active: now.active, limit: self.active });
        }
        None
    }
}

/// Rows created with a job, in its transaction.
#[derive(Debug, Clone)]
pub enum OnInsert {
    /// Boxed: a book's row is far larger than a word list's.
    Book(Box<NewBook>),
    /// A request's inline word list, stored once by its hash (the job's `wordlist`).
    WordList(NewWordList),
}

/// Rows written when a job succeeds, in the transaction that marks it done.
#[derive(Debug, Clone)]
pub enum OnSuccess {
    Book(PrintedBook),
    /// A file the job made, kept with it under `name` (read with [`Store::file`]).
    File {
        name: String,
        bytes: Vec<u8>,
    },
}

/// A job handed to a worker: everything needed to run it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: String,
    pub kind: String,
    /// JSON text.
    pub params: String,
    pub attempts: i64,
    pub tier: Tier,
}

/// How a claimed job ended, as the worker reports it.
#[derive(Debug)]
pub enum Outcome {
    /// `result` is JSON text.
    Succeeded {
        result: String,
        on_success: Option<OnSuccess>,
    },
    /// The engine refused the job; running it again would fail the same way.
    Failed(String),
    Cancelled,
}

impl Outcome {
    fn label(&self) -> &'static str {
        match self {
            Outcome::Succeeded { .. } => "succeeded",
            Outcome::Failed(_) => "failed",
            Outcome::Cancelled => "cancelled",
        }
    }
}

/// What a heartbeat learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lease {
    /// We still hold the job; `cancel_requested` tells whether a client asked it to stop.
    Held { cancel_requested: bool },
    /// Another worker took the job over (our lease had expired) or it was finished elsewhere.
    Lost,
}

impl Lease {
    /// From the job's `cancel_requested`, read where the holder still holds it (`None`:
    /// no such row, the lease is lost).
    fn from_row(cancel_requested: Option<bool>) -> Lease {
        match cancel_requested {
            Some(cancel_requested) => Lease::Held { cancel_requested },
            None => Lease::Lost,
        }
    }
}

/// One run of a job and how it ended (`outcome` is None while it runs): `succeeded`,
/// `failed` (the engine refused), `cancelled`, `released` (handed back at shutdown, not
/// counted) or `lost` (the worker stopped renewing its lease: the process died).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Attempt {
    pub attempt: i64,
    pub owner: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub outcome: Option<String>,
    pub error: Option<String>,
}

const JOB_COLUMNS: &str = "id, kind, owner, params, state, attempts, cancel_requested, progress_done, \
     progress_total, error, result, created_at, started_at, finished_at, layout_version";

/// Number of jobs of one kind in one state.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobCount {
    pub kind: String,
    pub state: String,
    pub count: i64,
}

/// The owner whose turn it is and their oldest claimable job: owners take turns by the
/// time a worker last took one of their jobs, so one owner's thousand queued jobs delay
/// another's single job by at most one job; and key holders (owners `key:…`) as a group
/// take turns with everyone else as a group, so a crowd of callers without a key gets at
/// most every other job while key holders have work. Each owner costs one index probe
/// (`jobs_owner_claimable`); the queue itself is never sorted.
const NEXT_TURN: &str = "SELECT owner, seq FROM (SELECT owner, last_claimed, seq, \
       MAX(last_claimed) OVER (PARTITION BY owner LIKE 'key:%') AS group_last_claimed \
     FROM (SELECT o.owner, o.last_claimed, \
       (SELECT j.seq FROM jobs j WHERE j.owner = o.owner AND j.state = 'queued' AND j.run_after <= {NOW} \
          AND NOT j.cancel_requested ORDER BY j.seq LIMIT 1 {LOCK}) AS seq \
       FROM job_owners o) AS owners WHERE seq IS NOT NULL) AS turns \
     ORDER BY group_last_claimed, last_claimed, owner LIMIT 1";

/// Hands job `$4` to `$2` with a lease of `$3` ms, if it is still queued.
const CLAIM: &str = "UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = $2, \
     lease_expires_at = {NOW} + $3, started_at = COALESCE(started_at, {NOW}) \
     WHERE seq = $4 AND state = 'queued' RETURNING id, kind, params, attempts, tier";

const TAKE_TURN: &str = "UPDATE job_owners SET last_claimed = {NOW} WHERE owner = $2";

const RECORD_ATTEMPT: &str = "INSERT INTO job_attempts (job_id, attempt, owner, started_at) VALUES ($2, $3, $4, {NOW})";

/// Ends `owner`'s open attempt at job `$2` with outcome `$4` and error `$5`.
const END_ATTEMPT: &str = "UPDATE job_attempts SET ended_at = {NOW}, outcome = $4, error = $5 \
     WHERE job_id = $2 AND owner = $3 AND ended_at IS NULL";

/// PostgreSQL's claim in one statement: the turn (rows locked with SKIP LOCKED, so
/// concurrent claims take different jobs), the job handed to `$2` with a lease of `$3` ms,
/// the owner's turn taken and the attempt opened. The claim commits without waiting for
/// the WAL to reach the disk (~2 ms here, idling the worker): a claim lost in a crash
/// leaves the job queued, its worker's ending is then refused (the lease is not its own),
/// and the job just runs again.
const PG_CLAIM: &str = "WITH turn AS ({NEXT_TURN}), \
     claimed AS (UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = $2, \
       lease_expires_at = {NOW} + $3, started_at = COALESCE(started_at, {NOW}) \
       FROM turn WHERE jobs.seq = turn.seq AND jobs.state = 'queued' \
       RETURNING jobs.id, jobs.kind, jobs.params, jobs.attempts, jobs.tier, turn.owner AS job_owner), \
     took_turn AS (UPDATE job_owners SET last_claimed = {NOW} FROM claimed WHERE job_owners.owner = claimed.job_owner), \
     opened AS (INSERT INTO job_attempts (job_id, attempt, owner, started_at) \
       SELECT id, attempts, $2, {NOW} FROM claimed) \
     SELECT id, kind, params, attempts, tier, set_config('synchronous_commit', 'off', true) AS async_commit \
     FROM claimed";

/// Counts for [`Store::occupancy`]: queued jobs up to `$1`, owner `$2`'s queued or running
/// ones up to `$3`, queued jobs of callers without a key up to `$4` (each an index range).
const OCCUPANCY: &str = "SELECT \
     (SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE state = 'queued' LIMIT $1) AS q) AS queued, \
     (SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE owner = $2 AND state IN ('queued', 'running') LIMIT $3) AS a) \
       AS active, \
     (SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE tier = 'anonymous' AND state = 'queued' LIMIT $4) AS n) \
       AS anonymous";

/// How far a count for a limit goes: one past it shows it reached; no limit, no count.
fn cap(limit: i64) -> i64 {
    if limit == i64::MAX {
        0
    } else {
        limit.saturating_add(1)
    }
}

/// Why a job's admission was not settled by one try.
enum Admit {
    Refused(Refusal),
    /// Within one connection's worth of a limit under shared locks: try again exclusively.
    NearLimit,
}

/// PostgreSQL's advisory locks for admitting a job, taken in a fixed order so admissions
/// never deadlock. Each limit has its lock: taken shared while the count is more than
/// `connections` (the most orders that can be in flight) below the limit, so orders run
/// side by side, and exclusively near it (or when `exclusive`), when the count must be
/// exact. Owners' locks are keyed by a hash of the owner.
///
/// The same statement tells every process listening on the database that a job was queued
/// (delivered when the order commits, not at all when it rolls back).
fn admission_locks(admission: &Admission, tier: Tier, connections: i64, exclusive: bool) -> String {
    let lock = |limit: i64, key: String| {
        let shared = !exclusive && shared(limit, connections);
        format!("pg_advisory_xact_lock{}({key})", if shared { "_shared" } else { "" })
    };
    let mut locks = vec![format!("pg_notify('{QUEUE_CHANNEL}', '')")];
    if admission.active != i64::MAX {
        locks.push(lock(admission.active, format!("{OWNER_LOCKS}, hashtext($1)")));
    }
    if admission.queued != i64::MAX {
        locks.push(lock(admission.queued, QUEUE_LOCK.to_string()));
    }
    if tier == Tier::Anonymous && admission.anonymous != i64::MAX {
        locks.push(lock(admission.anonymous, ANONYMOUS_LOCK.to_string()));
    }
    format!("SELECT {}", locks.join(", "))
}

/// Whether a limit's lock is first taken shared: when it is more than one order per
/// connection away, so orders in flight cannot pass it.
fn shared(limit: i64, connections: i64) -> bool {
    connections > 0 && limit > connections.saturating_add(1)
}

/// Upper bounds of the counts of [`OCCUPANCY`] (see [`BOUNDS`]).
#[derive(sqlx::FromRow)]
struct Bounds {
    last: i64,
    first_queued: Option<i64>,
    first_active: Option<i64>,
    first_anonymous: Option<i64>,
}

/// The newest job's sequence number and the oldest of: all queued jobs, owner `$1`'s queued
/// or running ones, queued jobs of callers without a key. Every job counted lies between.
const BOUNDS: &str = "SELECT (SELECT MAX(seq) FROM jobs) AS last, \
     (SELECT MIN(seq) FROM jobs WHERE state = 'queued') AS first_queued, \
     LEAST((SELECT MIN(seq) FROM jobs WHERE owner = $1 AND state = 'queued'), \
       (SELECT MIN(seq) FROM jobs WHERE owner = $1 AND state = 'running')) AS first_active, \
     (SELECT MIN(seq) FROM jobs WHERE tier = 'anonymous' AND state = 'queued') AS first_anonymous";

/// Advisory lock keys (any fixed numbers; they name these uses in `pg_locks`): the queue's,
/// the anonymous share's, and the class of owners' locks (keyed by a hash of the owner).
const QUEUE_LOCK: i64 = 0x7075_7a7a_6c65_7175; // "puzzlequ"
const ANONYMOUS_LOCK: i64 = 0x7075_7a7a_6c65_616e; // "puzzlean"
const OWNER_LOCKS: i32 = 0x7070_6f77; // "ppow"

/// Ends job `$7` held by `$8` in state `$2` with result `$3`, error `$4` and progress
/// `$5` of `$6`, if it still holds it; a kept product (`$9` bytes stored besides its
/// request, or NULL) counts what it stores against its owner's storage.
const FINISH: &str = "UPDATE jobs SET state = $2, result = $3, error = $4, finished_at = {NOW}, \
     progress_done = $5, progress_total = $6, lease_owner = NULL, lease_expires_at = NULL, \
     stored_bytes = COALESCE(length(CAST(params AS BLOB)) + $9, 0) \
     WHERE id = $7 AND lease_owner = $8 AND state = 'running'";

/// Binds `$1` to `$8` of [`FINISH`] and [`PG_FINISH`], `$end` being (clock, state, result,
/// error, progress done and total, job id, lease owner).
macro_rules! bind_end {
    ($query:expr, $end:expr) => {{
        let (now, state, result, error, done, total, id, owner) = $end;
        $query.bind(now).bind(state).bind(result).bind(error).bind(done).bind(total).bind(id).bind(owner)
    }};
}

/// Stores a printed book (`$6`, of job `$7`): its packed pages, answer and hashes.
const PRINT_BOOK: &str = "UPDATE books SET packed = $2, answer = $3, content_hash = $4, interior_sha256 = $5, \
     finished_at = {NOW} WHERE serial = $6 AND job_id = $7";

/// PostgreSQL's finish in one statement: [`FINISH`], the attempt ended with outcome `$9`,
/// the book `$14` (if any) stored with `$10`..`$13`, the file `$15` (if any) with its
/// bytes `$16`, and a kept product's bytes (`$17` besides its request, or NULL) counted;
/// counts the jobs ended (0 when the lease was lost, and then nothing changes).
const PG_FINISH: &str = "WITH finished AS (UPDATE jobs SET state = $2, result = $3, error = $4, \
       finished_at = {NOW}, progress_done = $5, progress_total = $6, lease_owner = NULL, lease_expires_at = NULL, \
       stored_bytes = COALESCE(octet_length(params) + $17, 0) \
       WHERE id = $7 AND lease_owner = $8 AND state = 'running' RETURNING id), \
     ended AS (UPDATE job_attempts SET ended_at = {NOW}, outcome = $9, error = $4 \
       WHERE job_id IN (SELECT id FROM finished) AND owner = $8 AND ended_at IS NULL), \
     printed AS (UPDATE books SET packed = $10, answer = $11, content_hash = $12, interior_sha256 = $13, \
       finished_at = {NOW} WHERE serial = $14 AND job_id IN (SELECT id FROM finished)), \
     stored AS (INSERT INTO files (job_id, name, bytes) \
       SELECT id, $15::text, $16::bytea FROM finished WHERE $15::text IS NOT NULL) \
     SELECT COUNT(*) FROM finished";

/// Keeps file `$2` of job `$1`, its bytes `$3`.
const STORE_FILE: &str = "INSERT INTO files (job_id, name, bytes) VALUES ($1, $2, $3)";

/// The channel on which PostgreSQL processes tell each other that a job was queued.
const QUEUE_CHANNEL: &str = "puzzlepress_jobs";

impl Store {
    /// Queues a job. With an idempotency key that was used before for this kind, returns the
    /// existing job and `false` instead of queuing a second one.
    #[tracing::instrument(skip_all, fields(kind = %new.kind), err)]
    pub async fn insert_job(&self, new: &NewJob) -> Result<(Job, bool)> {
        if let Some(key) = &new.idempotency_key {
            if let Some(job) = self.job_by_idempotency_key(&new.owner, &new.kind, key).await? {
                return Ok((job, false));
            }
        }
        let id = uuid::Uuid::new_v4().to_string();
        let insert_job = self.sql(&format!(
            "INSERT INTO jobs (id, kind, params, state, max_attempts, idempotency_key, created_at, owner, tier, wordlist, \
             layout_version) VALUES ($2, $3, $4, 'queued', $5, $6, {{NOW}}, $7, $8, $9, $10) RETURNING {JOB_COLUMNS}"
        ));
        let insert_book = self.sql(
            "INSERT INTO books (serial, job_id, generator_version, pages, rows, cols, trim_size, title, lookup_url, \
             printrun, copy, word, letters, shape, interior_version, author, copyright, isbn, created_at) \
             VALUES ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, {NOW})",
        );
        let insert_content = self.sql(CONTENT_UPSERT);
        let now = self.clock_param();
        let mut exclusive = false;
        let inserted = loop {
            let admission_locks = match self.backend() {
                Backend::Postgres => Some(admission_locks(&new.admission, new.tier, self.connections, exclusive)),
                // SQLite's write lock, taken by the inserts, already serializes the check.
                Backend::Sqlite => None,
            };
            let inserted = with_pool!(self, p => async {
                let mut tx = p.begin().await?;
                let job: Job = sqlx::query_as(&insert_job)
                    .bind(now)
                    .bind(&id)
                    .bind(&new.kind)
                    .bind(&new.params)
                    .bind(new.max_attempts)
                    .bind(&new.idempotency_key)
                    .bind(&new.owner)
                    .bind(new.tier.as_str())
                    .bind(&new.wordlist)
                    .bind(new.layout_version)
                    .fetch_one(&mut *tx)
                    .await?;
                // Read first: a known owner's row is often locked by a claim taking its turn,
                // and an insert that conflicts with it would wait for that claim to commit.
                sqlx::query(
                    "INSERT INTO job_owners (owner) SELECT $1 \
                     WHERE NOT EXISTS (SELECT 1 FROM job_owners WHERE owner = $1) ON CONFLICT (owner) DO NOTHING",
                )
                    .bind(&new.owner)
                    .execute(&mut *tx)
                    .await?;
                for row in &new.on_insert {
                    match row {
                        OnInsert::Book(book) => {
                            sqlx::query(&insert_book)
                                .bind(now)
                                .bind(&book.serial)
                                .bind(&id)
                                .bind(book.order.generator_version)
                                .bind(book.order.pages)
                                .bind(book.order.rows)
                                .bind(book.order.cols)
                                .bind(&book.order.trim)
                                .bind(&book.order.title)
                                .bind(&book.order.lookup_url)
                                .bind(book.printrun.as_ref().map(|(run, _)| run))
                                .bind(book.printrun.as_ref().map(|&(_, copy)| copy))
                                .bind(&book.order.word)
                                .bind(&book.order.letters)
                                .bind(&book.order.shape)
                                .bind(book.order.interior_version)
                                .bind(&book.order.author)
                                .bind(&book.order.copyright)
                                .bind(&book.order.isbn)
                                .execute(&mut *tx)
                                .await?;
                        }
                        OnInsert::WordList(list) => {
                            upsert_content!(&insert_content, now, list, &mut *tx);
                        }
                    }
                }
                // Checked last, so the locks are held only for the count and the commit.
                if let Some(sql) = &admission_locks {
                    let lock = sqlx::query(sql);
                    let lock = if new.admission.active != i64::MAX { lock.bind(&new.owner) } else { lock };
                    lock.execute(&mut *tx).await?;
                }
                // Each count is bounded by the span of sequence numbers from its oldest job
                // to the newest of all, a few index probes: when the bounds leave room, the
                // rows need not be counted (on PostgreSQL, where counting a long queue under
                // a lock costs the most).
                let settled = match &admission_locks {
                    Some(_) if new.admission != Admission::UNLIMITED => {
                        let b: Bounds = sqlx::query_as(BOUNDS).bind(&new.owner).fetch_one(&mut *tx).await?;
                        let room = |first: Option<i64>, limit: i64| {
                            let slack = if !exclusive && shared(limit, self.connections) { self.connections } else { 0 };
                            limit == i64::MAX || first.map_or(0, |f| b.last - f + 1) + slack <= limit
                        };
                        room(b.first_queued, new.admission.queued)
                            && room(b.first_active, new.admission.active)
                            && (new.tier != Tier::Anonymous || room(b.first_anonymous, new.admission.anonymous))
                    }
                    _ => false,
                };
                if new.admission != Admission::UNLIMITED && !settled {
                    let counted: Occupancy = sqlx::query_as(OCCUPANCY)
                        .bind(cap(new.admission.queued))
                        .bind(&new.owner)
                        .bind(cap(new.admission.active))
                        .bind(if new.tier == Tier::Anonymous { cap(new.admission.anonymous) } else { 0 })
                        .fetch_one(&mut *tx)
                        .await?;
                    // The counts include this job.
                    let before = Occupancy {
                        queued: counted.queued - 1,
                        active: counted.active - 1,
                        anonymous: (counted.anonymous - 1).max(0),
                    };
                    if let Some(refusal) = new.admission.refusal(new.tier, before, 1) {
                        tx.rollback().await?;
                        return Ok(Err(Admit::Refused(refusal)));
                    }
                    // Under a shared lock, orders that have not committed are not counted: there
                    // are fewer of them than connections, so room for that many more is enough.
                    let slack = self.connections;
                    let near = |count: i64, limit: i64| shared(limit, slack) && count + 1 + slack > limit;
                    let near = near(before.active, new.admission.active)
                        || near(before.queued, new.admission.queued)
                        || (new.tier == Tier::Anonymous && near(before.anonymous, new.admission.anonymous));
                    if !exclusive && slack > 0 && near {
                        tx.rollback().await?;
                        return Ok(Err(Admit::NearLimit));
                    }
                }
                tx.commit().await?;
                Ok::<_, sqlx::Error>(Ok(job))
            }
            .await);
            match inserted.map_err(StoreError::from) {
                Err(e) => break Err(e),
                Ok(Ok(job)) => break Ok(job),
                Ok(Err(Admit::Refused(refusal))) => break Err(StoreError::Refused(refusal)),
                Ok(Err(Admit::NearLimit)) => exclusive = true,
            }
        };
        match inserted {
            Ok(job) => Ok((job, true)),
            // Two requests with one key raced; the other one's job is the answer.
            Err(e) if e.is_unique_violation() && new.idempotency_key.is_some() => {
                let key = new.idempotency_key.as_deref().unwrap_or_default();
                if let Some(job) = self.job_by_idempotency_key(&new.owner, &new.kind, key).await? {
                    return Ok((job, false));
                }
                Err(e)
            }
            Err(e) => Err(e),
        }
    }

    #[tracing::instrument(skip(self), err)]
    pub async fn job_by_idempotency_key(&self, owner: &str, kind: &str, key: &str) -> Result<Option<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs WHERE owner = $1 AND kind = $2 AND idempotency_key = $3");
        let job = with_pool!(self, p => {
            sqlx::query_as(&sql).bind(owner).bind(kind).bind(key).fetch_optional(p).await?
        });
        Ok(job)
    }

    #[tracing::instrument(skip(self), err)]
    pub async fn job(&self, id: &str) -> Result<Option<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1");
        let job = with_pool!(self, p => {
            sqlx::query_as(&sql).bind(id).fetch_optional(p).await?
        });
        Ok(job)
    }

    /// Every run of a job so far, oldest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn attempts(&self, id: &str) -> Result<Vec<Attempt>> {
        let rows = with_pool!(self, p => {
            sqlx::query_as(
                "SELECT attempt, owner, started_at, ended_at, outcome, error FROM job_attempts \
                 WHERE job_id = $1 ORDER BY id",
            )
            .bind(id)
            .fetch_all(p)
            .await?
        });
        Ok(rows)
    }

    /// The jobs `owner` of `tier` would be admitted against, each count going up to its
    /// limit plus one so the check stays cheap however long the queue grows.
    #[tracing::instrument(skip(self), err)]
    pub async fn occupancy(&self, owner: &str, tier: Tier, limits: &Admission) -> Result<Occupancy> {
        let n = with_pool!(self, p => {
            sqlx::query_as(OCCUPANCY)
                .bind(cap(limits.queued))
                .bind(owner)
                .bind(cap(limits.active))
                .bind(if tier == Tier::Anonymous { cap(limits.anonymous) } else { 0 })
                .fetch_one(p)
                .await?
        });
        Ok(n)
    }

    /// Bytes `owner`'s kept products store (requests, results, printed pages), as counted
    /// when each ended.
    #[tracing::instrument(skip(self), err)]
    pub async fn stored_bytes(&self, owner: &str) -> Result<i64> {
        let bytes: Option<i64> = with_pool!(self, p => {
            sqlx::query_scalar("SELECT bytes FROM storage WHERE owner = $1").bind(owner).fetch_optional(p).await?
        });
        Ok(bytes.unwrap_or(0))
    }

    /// Deletes jobs of the given kinds that ended more than `age_ms` ago, and every job
    /// queued in the anonymous tier that did (their products too; a job that printed a
    /// book stays with its book), with their attempts; owners with no jobs left, and
    /// word-list texts no owner has and no job reads. Returns how many jobs were deleted.
    #[tracing::instrument(skip(self), err)]
    pub async fn delete_finished(&self, kinds: &[&str], age_ms: i64) -> Result<u64> {
        // One placeholder per kind; the kinds are the server's own names, bound as values.
        let list: Vec<String> = (0..kinds.len()).map(|i| format!("${}", i + 3)).collect();
        let kinds_or = if kinds.is_empty() { String::new() } else { format!("kind IN ({}) OR ", list.join(", ")) };
        let jobs = self.sql(&format!(
            "DELETE FROM jobs WHERE state IN {ENDED} AND finished_at < {{NOW}} - $2 \
             AND ({kinds_or}tier = 'anonymous') AND NOT EXISTS (SELECT 1 FROM books b WHERE b.job_id = jobs.id)"
        ));
        let owners = "DELETE FROM job_owners WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.owner = job_owners.owner)";
        let storage = "DELETE FROM storage WHERE bytes = 0";
        // Texts no owner has and no job reads (inline lists once their jobs are gone), left
        // alone for the retention time after they were last stored so that a request
        // storing one never loses it to a concurrent sweep.
        let texts = self.sql(&format!(
            "DELETE FROM wordlist_contents AS c WHERE c.used_at < {{NOW}} - $2 AND NOT {CONTENT_IN_USE}"
        ));
        let now = self.clock_param();
        let n = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            let mut delete = sqlx::query(&jobs).bind(now).bind(age_ms);
            for kind in kinds {
                delete = delete.bind(*kind);
            }
            let n = delete.execute(&mut *tx).await?.rows_affected();
            sqlx::query(owners).execute(&mut *tx).await?;
            sqlx::query(storage).execute(&mut *tx).await?;
            sqlx::query(&texts).bind(now).bind(age_ms).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n)
        }
        .await)?;
        Ok(n)
    }

    /// Claims the oldest claimable job for `owner` with a lease of `lease_ms`, and opens
    /// the record of this attempt.
    #[tracing::instrument(skip(self), err)]
    pub async fn claim(&self, owner: &str, lease_ms: i64) -> Result<Option<Claimed>> {
        let now = self.clock_param();
        let claimed: Option<Claimed> = match &self.pool {
            // One statement, one round trip: a worker waits for nothing but the claim itself.
            Pool::Postgres(p) => {
                let claim =
                    self.sql(&PG_CLAIM.replace("{NEXT_TURN}", &NEXT_TURN.replace("{LOCK}", "FOR UPDATE SKIP LOCKED")));
                sqlx::query_as(&claim).bind(now).bind(owner).bind(lease_ms).fetch_optional(p).await?
            }
            // An immediate transaction takes SQLite's write lock before reading, so two
            // processes can never pick the same row (SQLite has no UPDATE in a WITH).
            Pool::Sqlite(p) => {
                let next = self.sql(&NEXT_TURN.replace("{LOCK}", ""));
                let (claim, take_turn, record) = (self.sql(CLAIM), self.sql(TAKE_TURN), self.sql(RECORD_ATTEMPT));
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await?;
                let turn: Option<(String, i64)> = sqlx::query_as(&next).bind(now).fetch_optional(&mut *tx).await?;
                let Some((job_owner, seq)) = turn else {
                    tx.commit().await?;
                    return Ok(None);
                };
                let row =
                    sqlx::query(&claim).bind(now).bind(owner).bind(lease_ms).bind(seq).fetch_optional(&mut *tx).await?;
                if let Some(r) = &row {
                    let (id, attempts): (String, i64) = (r.try_get("id")?, r.try_get("attempts")?);
                    sqlx::query(&take_turn).bind(now).bind(&job_owner).execute(&mut *tx).await?;
                    sqlx::query(&record).bind(now).bind(id).bind(attempts).bind(owner).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                // Decoded once committed, as PostgreSQL's claim is: a job whose row is corrupt is
                // still claimed (and failed by the rescue in the end) instead of blocking its owner.
                row.as_ref().map(Claimed::from_row).transpose()?
            }
        };
        Ok(claimed)
    }

    /// Deals with running jobs whose lease expired (their worker died or hung): records the
    /// attempt as lost, then ends the job if it was cancelled or has used up its attempts,
    /// or queues it again to run after `backoff_ms` times the attempts made so far.
    /// Returns how many jobs it dealt with.
    #[tracing::instrument(skip(self), err)]
    pub async fn rescue_expired(&self, backoff_ms: i64) -> Result<u64> {
        let now = self.clock_param();
        let expired = "state = 'running' AND lease_expires_at < {NOW}";
        let lost = self.sql(&format!(
            "UPDATE job_attempts SET ended_at = {{NOW}}, outcome = 'lost', \
             error = 'the worker stopped renewing its lease (its process died or hung)' \
             WHERE ended_at IS NULL AND job_id IN (SELECT id FROM jobs WHERE {expired})"
        ));
        let cancelled = self.sql(&format!(
            "UPDATE jobs SET state = 'cancelled', finished_at = {{NOW}}, lease_owner = NULL, lease_expires_at = NULL \
             WHERE {expired} AND cancel_requested"
        ));
        let failed = self.sql(&format!(
            "UPDATE jobs SET state = 'failed', finished_at = {{NOW}}, lease_owner = NULL, lease_expires_at = NULL, \
             error = 'the worker running this job stopped responding ' || CAST(attempts AS TEXT) || ' times; giving up' \
             WHERE {expired} AND attempts >= max_attempts"
        ));
        let requeued = self.sql(&format!(
            "UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, \
             run_after = {{NOW}} + $2 * attempts WHERE {expired}"
        ));
        let n = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            sqlx::query(&lost).bind(now).execute(&mut *tx).await?;
            let mut n = sqlx::query(&cancelled).bind(now).execute(&mut *tx).await?.rows_affected();
            n += sqlx::query(&failed).bind(now).execute(&mut *tx).await?.rows_affected();
            n += sqlx::query(&requeued).bind(now).bind(backoff_ms).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n)
        }
        .await)?;
        Ok(n)
    }

    /// Extends `owner`'s lease by `lease_ms` and records progress; tells whether the lease
    /// is still held and whether a client asked the job to stop.
    #[tracing::instrument(skip(self), err)]
    pub async fn heartbeat(&self, id: &str, owner: &str, lease_ms: i64, done: i64, total: i64) -> Result<Lease> {
        let sql = self.sql(
            "UPDATE jobs SET lease_expires_at = {NOW} + $2, progress_done = $3, progress_total = $4 \
             WHERE id = $5 AND lease_owner = $6 AND state = 'running' RETURNING cancel_requested",
        );
        let now = self.clock_param();
        let cancel: Option<bool> = with_pool!(self, p => {
            sqlx::query_scalar(&sql)
                .bind(now)
                .bind(lease_ms)
                .bind(done)
                .bind(total)
                .bind(id)
                .bind(owner)
                .fetch_optional(p)
                .await?
        });
        Ok(Lease::from_row(cancel))
    }

    /// Like [`Store::heartbeat`] without writing: a cheap look, between heartbeats, at
    /// whether `owner` still holds the job and whether a client asked it to stop.
    #[tracing::instrument(skip(self), level = "debug", err)]
    pub async fn lease(&self, id: &str, owner: &str) -> Result<Lease> {
        let cancel: Option<bool> = with_pool!(self, p => {
            sqlx::query_scalar(
                "SELECT cancel_requested FROM jobs WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
            )
            .bind(id)
            .bind(owner)
            .fetch_optional(p)
            .await?
        });
        Ok(Lease::from_row(cancel))
    }

    /// Records how `owner`'s run of a job ended, with the rows its kind writes on success,
    /// in one transaction. Returns false (and changes nothing) when the lease was lost
    /// meanwhile, so a job is finished once, by its current holder.
    #[tracing::instrument(skip(self, outcome), fields(outcome = outcome.label()), err)]
    pub async fn finish(
        &self,
        id: &str,
        owner: &str,
        outcome: &Outcome,
        progress: (i64, i64),
        kept: bool,
    ) -> Result<bool> {
        let (state, result, error, on_success) = match outcome {
            Outcome::Succeeded { result, on_success } => {
                (JobState::Succeeded, Some(result.as_str()), None, on_success.as_ref())
            }
            Outcome::Failed(error) => (JobState::Failed, None, Some(error.as_str()), None),
            Outcome::Cancelled => (JobState::Cancelled, None, None, None),
        };
        // A succeeded job is complete whatever its engine last reported.
        let (done, total) = match state {
            JobState::Succeeded => (progress.1.max(1), progress.1.max(1)),
            _ => progress,
        };
        let book = match on_success {
            Some(OnSuccess::Book(book)) => Some(book),
            _ => None,
        };
        let file = match on_success {
            Some(OnSuccess::File { name, bytes }) => Some((name.as_str(), bytes.as_slice())),
            _ => None,
        };
        // What a kept product stores besides its request (which the database measures).
        let stored = kept.then(|| {
            let printed = book.map_or(0, |b| b.packed.len() + b.answer.len());
            (result.map_or(0, str::len) + printed + file.map_or(0, |f| f.1.len())) as i64
        });
        let now = self.clock_param();
        let end = (now, state.as_str(), result, error, done, total, id, owner);
        let finished = match &self.pool {
            // One statement, one round trip and one commit.
            Pool::Postgres(p) => {
                let finish = self.sql(PG_FINISH);
                let n: i64 = bind_end!(sqlx::query_scalar(&finish), end)
                    .bind(outcome.label())
                    .bind(book.map(|b| &b.packed))
                    .bind(book.map(|b| &b.answer))
                    .bind(book.map(|b| &b.content_hash))
                    .bind(book.and_then(|b| b.interior_sha256.as_ref()))
                    .bind(book.map(|b| &b.serial))
                    .bind(file.map(|f| f.0))
                    .bind(file.map(|f| f.1))
                    .bind(stored)
                    .fetch_one(p)
                    .await?;
                n == 1
            }
            Pool::Sqlite(p) => {
                let (update, end_attempt, print_book) = (self.sql(FINISH), self.sql(END_ATTEMPT), self.sql(PRINT_BOOK));
                let mut tx = p.begin().await?;
                let updated =
                    bind_end!(sqlx::query(&update), end).bind(stored).execute(&mut *tx).await?.rows_affected();
                if updated != 1 {
                    return Ok(false);
                }
                sqlx::query(&end_attempt)
                    .bind(now)
                    .bind(id)
                    .bind(owner)
                    .bind(outcome.label())
                    .bind(error)
                    .execute(&mut *tx)
                    .await?;
                if let Some(book) = book {
                    sqlx::query(&print_book)
                        .bind(now)
                        .bind(&book.packed)
                        .bind(&book.answer)
                        .bind(&book.content_hash)
                        .bind(&book.interior_sha256)
                        .bind(&book.serial)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                if let Some((name, bytes)) = file {
                    sqlx::query(STORE_FILE).bind(id).bind(name).bind(bytes).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                true
            }
        };
        Ok(finished)
    }

    /// The bytes of file `name` that job `id` made and kept ([`OnSuccess::File`]), if any.
    #[tracing::instrument(skip(self), err)]
    pub async fn file(&self, id: &str, name: &str) -> Result<Option<Vec<u8>>> {
        let bytes = with_pool!(self, p => {
            sqlx::query_scalar("SELECT bytes FROM files WHERE job_id = $1 AND name = $2")
                .bind(id)
                .bind(name)
                .fetch_optional(p)
                .await?
        });
        Ok(bytes)
    }

    /// Hands a running job back to the queue without counting the attempt (used at
    /// shutdown, so another process picks it up at once instead of waiting for the lease).
    #[tracing::instrument(skip(self), err)]
    pub async fn release(&self, id: &str, owner: &str) -> Result<bool> {
        let end_attempt = self.sql(END_ATTEMPT);
        let now = self.clock_param();
        let released = with_pool!(self, p => async {
            let mut tx = p.begin().await?;
            let updated = sqlx::query(
                "UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_owner = NULL, \
                 lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
            )
            .bind(id)
            .bind(owner)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 1 {
                sqlx::query(&end_attempt)
                    .bind(now)
                    .bind(id)
                    .bind(owner)
                    .bind("released")
                    .bind(Some("handed back to the queue at shutdown"))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok::<bool, sqlx::Error>(updated == 1)
        }
        .await)?;
        Ok(released)
    }

    /// Cancels a queued job at once, or asks a running one to stop (its worker looks a few
    /// times a second). Returns the job as it is afterwards (None if there is no such job).
    #[tracing::instrument(skip(self), err)]
    pub async fn cancel(&self, id: &str) -> Result<Option<Job>> {
        let sql =
            self.sql("UPDATE jobs SET state = 'cancelled', finished_at = {NOW} WHERE id = $2 AND state = 'queued'");
        let now = self.clock_param();
        with_pool!(self, p => {
            sqlx::query(&sql).bind(now).bind(id).execute(p).await?;
            sqlx::query("UPDATE jobs SET cancel_requested = TRUE WHERE id = $1 AND state = 'running'")
                .bind(id)
                .execute(p)
                .await?;
        });
        self.job(id).await
    }

    /// Jobs by kind and state, for metrics.
    #[tracing::instrument(skip(self), err)]
    pub async fn job_counts(&self) -> Result<Vec<JobCount>> {
        let rows = with_pool!(self, p => {
            sqlx::query_as("SELECT kind, state, COUNT(*) AS count FROM jobs GROUP BY kind, state ORDER BY kind, state")
                .fetch_all(p)
                .await?
        });
        Ok(rows)
    }

    /// On PostgreSQL, a connection that hears every job queued (by [`Store::insert_job`]) from any
    /// process; None on SQLite.
    pub async fn queue_listener(&self) -> Result<Option<QueueListener>> {
        if self.postgres_pool().is_none() {
            return Ok(None);
        }
        let mut listener = PgListener::connect(&self.url).await?;
        listener.listen(QUEUE_CHANNEL).await?;
        Ok(Some(QueueListener(listener)))
    }
}

/// Hears that jobs were queued by other processes.
pub struct QueueListener(PgListener);

impl QueueListener {
    /// Waits for the next notification; an error means the connection broke.
    pub async fn recv(&mut self) -> Result<()> {
        self.0.recv().await?;
        Ok(())
    }
}
