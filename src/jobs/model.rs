//! What a job is, independent of where it is stored or how it runs.

use serde::Serialize;

/// Lifecycle of a job. Terminal states are `succeeded`, `failed` and `cancelled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

/// A job as stored.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: String,
    pub kind: String,
    pub params: serde_json::Value,
    pub state: JobState,
    pub attempts: i64,
    pub cancel_requested: bool,
    pub progress_done: i64,
    pub progress_total: i64,
    pub error: Option<String>,
    pub result: Option<serde_json::Value>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
}

/// A job handed to a worker: everything needed to run it.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: String,
    pub kind: String,
    pub params: serde_json::Value,
    pub attempts: i64,
}

/// A job to be queued.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: String,
    pub params: serde_json::Value,
    /// A client's `Idempotency-Key`: a second order with the same key returns the first job.
    pub idempotency_key: Option<String>,
    /// A book row to create in the same transaction (book orders).
    pub book: Option<NewBook>,
}

/// The row of a book ordered with a job; its contents arrive when the job succeeds.
#[derive(Debug, Clone)]
pub struct NewBook {
    pub serial: String,
    pub generator_version: i64,
    pub pages: i64,
    pub rows: i64,
    pub cols: i64,
}

/// What a succeeded run produced: the job's JSON result, and data stored beside it.
#[derive(Debug)]
pub struct Output {
    pub result: serde_json::Value,
    pub artifact: Option<Artifact>,
}

/// Data a job stores outside its result, in the same transaction that marks it done.
#[derive(Debug)]
pub enum Artifact {
    Book { serial: String, letters: Vec<u8>, answer: serde_json::Value, content_hash: String },
}

/// How a claimed job ended, as the worker reports it.
#[derive(Debug)]
pub enum Outcome {
    Succeeded(Output),
    Failed(String),
    Cancelled,
}

/// What a heartbeat learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lease {
    /// We still hold the job; `cancel_requested` tells whether a client asked it to stop.
    Held { cancel_requested: bool },
    /// Another worker took the job over (our lease had expired) or it was finished elsewhere.
    Lost,
}

/// Milliseconds since the Unix epoch, the unit of every stored time.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
