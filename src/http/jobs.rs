//! `/jobs/{id}`: the state, progress, attempts and result of any queued job, and
//! cancellation.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::value::RawValue;

use super::caller::Caller;
use super::error::ApiError;
use super::resource::Progress;
use super::respond::{echo, timestamp};
use super::AppState;
use crate::store::{Attempt, Job, JobState};

pub fn router() -> Router<AppState> {
    Router::new().route("/jobs/{id}", get(show).delete(cancel))
}

/// A job as clients see it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Job)]
pub struct JobView {
    #[schema(format = Uuid)]
    pub id: String,
    /// The job's kind: its resource's route with `/` read as `.` (`books`, `oneup.solves`…).
    #[schema(example = "foxhole.strategies")]
    pub kind: String,
    pub state: JobState,
    pub progress: Progress,
    /// Runs started, including ones whose worker died.
    #[schema(minimum = 0)]
    pub attempts: i64,
    /// Every run so far and how it ended.
    pub attempt_log: Vec<AttemptView>,
    pub cancel_requested: bool,
    /// Why the job failed.
    #[schema(required = true)]
    pub error: Option<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(required = true, format = DateTime)]
    pub started_at: Option<String>,
    #[schema(required = true, format = DateTime)]
    pub finished_at: Option<String>,
    /// The job's output once it has succeeded (the `result` of its resource), else null.
    #[schema(required = true, value_type = Option<Value>)]
    pub result: Option<Box<RawValue>>,
    pub links: Links,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = JobAttempt)]
pub struct AttemptView {
    #[schema(minimum = 1)]
    pub attempt: i64,
    #[schema(format = DateTime)]
    pub started_at: String,
    #[schema(required = true, format = DateTime)]
    pub ended_at: Option<String>,
    /// `succeeded`, `failed`, `cancelled`, `released` (handed back at shutdown) or `lost`
    /// (the worker's process died); null while it runs.
    #[schema(required = true)]
    pub outcome: Option<String>,
    #[schema(required = true)]
    pub error: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = JobLinks)]
pub struct Links {
    #[serde(rename = "self")]
    pub this: String,
}

fn job_view(job: Job, attempts: Vec<Attempt>) -> Result<JobView, ApiError> {
    let result = job
        .result
        .map(RawValue::from_string)
        .transpose()
        .map_err(|e| ApiError::Internal(format!("job {}: stored result is not JSON: {e}", job.id)))?;
    Ok(JobView {
        links: Links { this: location(&job.id) },
        progress: Progress { done: job.progress_done, total: job.progress_total },
        attempt_log: attempts
            .into_iter()
            .map(|a| AttemptView {
                attempt: a.attempt,
                started_at: timestamp(a.started_at),
                ended_at: a.ended_at.map(timestamp),
                outcome: a.outcome,
                error: a.error,
            })
            .collect(),
        created_at: timestamp(job.created_at),
        started_at: job.started_at.map(timestamp),
        finished_at: job.finished_at.map(timestamp),
        id: job.id,
        kind: job.kind,
        state: job.state,
        attempts: job.attempts,
        cancel_requested: job.cancel_requested,
        error: job.error,
        result,
    })
}

pub fn location(id: &str) -> String {
    format!("/jobs/{id}")
}

/// The job, if this caller may see it (another caller's job is as unknown as a made-up one).
async fn find(state: &AppState, caller: &Caller, id: &str) -> Result<Job, ApiError> {
    match state.store.job(id).await? {
        Some(job) if caller.may_see(&job.owner) => Ok(job),
        _ => Err(ApiError::not_found(format!("there is no job {}", echo(id)))),
    }
}

#[utoipa::path(
    get,
    path = "/jobs/{id}",
    tag = "jobs",
    summary = "A job's state, progress, attempts and result.",
    params(("id" = uuid::Uuid, Path, description = "The job's id.")),
    responses(
        (status = 200, description = "The job.", body = JobView),
        (status = 404, response = super::openapi::NotFound),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let job = find(&state, &caller, &id).await?;
    let attempts = state.store.attempts(&id).await?;
    Ok(Json(job_view(job, attempts)?))
}

/// Cancels a queued job (200 with the cancelled job) or asks a running one to stop, which
/// its worker sees within a fraction of a second (202 with the job still running). A
/// finished job cannot be cancelled (409).
#[utoipa::path(
    delete,
    path = "/jobs/{id}",
    tag = "jobs",
    summary = "Cancel a job.",
    description = "A queued job is cancelled at once (200). A running job is asked to stop at its next progress \
                   point (202; poll until it is `cancelled`). A finished job gives 409.",
    params(("id" = uuid::Uuid, Path, description = "The job's id.")),
    responses(
        (status = 200, description = "Cancelled.", body = JobView),
        (status = 202, description = "Cancellation requested; the job is still running.", body = JobView),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::Conflict),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let before = find(&state, &caller, &id).await?;
    if before.state.is_terminal() {
        return Err(ApiError::Conflict {
            detail: format!("job {id} has already ended ({}); there is nothing to cancel", before.state.as_str()),
            retry_after: None,
        });
    }
    let after =
        state.store.cancel(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no job {}", echo(&id))))?;
    let attempts = state.store.attempts(&id).await?;
    let status = if after.state.is_terminal() { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(job_view(after, attempts)?)).into_response())
}
