//! `/jobs/{id}`: the state, progress and result of any queued job, and cancellation.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value;

use super::error::ApiError;
use super::{accepted, idempotency_key, key_reused, submit, timestamp, AppState};
use crate::jobs::model::{Job, JobState, NewJob};

pub fn router() -> Router<AppState> {
    Router::new().route("/jobs/{id}", get(show).delete(cancel))
}

#[derive(Serialize)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
}

/// A job as clients see it.
#[derive(Serialize)]
pub struct JobView {
    pub id: String,
    pub kind: String,
    pub state: JobState,
    pub progress: Progress,
    pub attempts: i64,
    pub cancel_requested: bool,
    pub error: Option<String>,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub result: Option<Value>,
    pub links: Links,
}

#[derive(Serialize)]
pub struct Links {
    #[serde(rename = "self")]
    pub this: String,
}

impl From<Job> for JobView {
    fn from(job: Job) -> JobView {
        JobView {
            links: Links { this: location(&job.id) },
            progress: Progress { done: job.progress_done, total: job.progress_total },
            created_at: timestamp(job.created_at),
            started_at: job.started_at.map(timestamp),
            finished_at: job.finished_at.map(timestamp),
            id: job.id,
            kind: job.kind,
            state: job.state,
            attempts: job.attempts,
            cancel_requested: job.cancel_requested,
            error: job.error,
            result: job.result,
        }
    }
}

pub fn location(id: &str) -> String {
    format!("/jobs/{id}")
}

/// Queues a job of `kind` with already validated `params`: 202 with the job and
/// `Location: /jobs/{id}`, honouring `Idempotency-Key`.
pub async fn queue(
    state: &AppState,
    headers: &HeaderMap,
    kind: &str,
    params: impl Serialize,
) -> Result<Response, ApiError> {
    queue_at(state, headers, kind, params, location).await
}

/// Like [`queue`], for jobs whose result is read at a resource URL of their own.
pub async fn queue_at(
    state: &AppState,
    headers: &HeaderMap,
    kind: &str,
    params: impl Serialize,
    resource: impl Fn(&str) -> String,
) -> Result<Response, ApiError> {
    let params = serde_json::to_value(params).map_err(|e| ApiError::Internal(e.to_string()))?;
    let new =
        NewJob { kind: kind.into(), params: params.clone(), idempotency_key: idempotency_key(headers)?, book: None };
    let (job, created) = submit(state, new).await?;
    if !created && job.params != params {
        return Err(key_reused());
    }
    Ok(accepted(&resource(&job.id), JobView::from(job)))
}

async fn find(state: &AppState, id: &str) -> Result<Job, ApiError> {
    state.store.job(id).await?.ok_or_else(|| ApiError::not_found(format!("there is no job {id:?}")))
}

/// A job of the given kind (another kind's id is as unknown here as a made-up one).
pub async fn find_kind(state: &AppState, id: &str, kind: &str, what: &str) -> Result<Job, ApiError> {
    match state.store.job(id).await? {
        Some(job) if job.kind == kind => Ok(job),
        _ => Err(ApiError::not_found(format!("there is no {what} {id:?}"))),
    }
}

/// The result of a job that has succeeded; 409 (with `Retry-After` while it may still
/// succeed) otherwise.
pub fn finished_result(job: &Job) -> Result<&Value, ApiError> {
    match (&job.state, &job.result) {
        (JobState::Succeeded, Some(result)) => Ok(result),
        (state, _) => Err(ApiError::Conflict {
            detail: format!(
                "job {} is {}; its output is not ready{}",
                job.id,
                state.as_str(),
                if state.is_terminal() { " and never will be" } else { " yet" }
            ),
            retry_after: (!state.is_terminal()).then_some(1),
        }),
    }
}

/// A resource computed by a job: the job's id, state, progress and times, with the fields
/// of its result (once it has one) alongside, `fields` null until then, and `links`.
pub fn resource_view(job: Job, fields: &[&str], links: Value) -> Value {
    let view = JobView::from(job);
    let mut out = serde_json::json!({
        "id": view.id,
        "state": view.state,
        "progress": view.progress,
        "error": view.error,
        "created_at": view.created_at,
        "finished_at": view.finished_at,
    });
    if let Value::Object(out) = &mut out {
        for field in fields {
            out.insert(field.to_string(), Value::Null);
        }
        if let Some(Value::Object(result)) = view.result {
            out.extend(result);
        }
    }
    out["links"] = links;
    out["links"]["job"] = Value::String(view.links.this);
    out
}

async fn show(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    Ok(Json(find(&state, &id).await?.into()))
}

/// Cancels a queued job (200 with the cancelled job) or asks a running one to stop at its
/// next progress point (202 with the job still running). A finished job cannot be
/// cancelled (409).
async fn cancel(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let before = find(&state, &id).await?;
    if before.state.is_terminal() {
        return Err(ApiError::Conflict {
            detail: format!("job {id} has already ended ({}); there is nothing to cancel", before.state.as_str()),
            retry_after: None,
        });
    }
    let after = state
        .store
        .cancel(&id, crate::jobs::model::now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(format!("there is no job {id:?}")))?;
    let status = if after.state.is_terminal() { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(JobView::from(after))).into_response())
}
