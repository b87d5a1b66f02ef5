//! Resources computed by a job (a fill, a solve, a generated puzzle…): each kind has its
//! route (`/` + the kind's name with `.` read as `/`), a `POST` there that queues the job
//! and answers 202 with `Location: {route}/{id}`, and a `GET {route}/{id}` view — the
//! job's state and progress, the request, and the result once there is one, served from
//! its stored JSON without re-parsing.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Serialize;
use serde_json::value::RawValue;

use super::caller::Caller;
use super::error::ApiError;
use super::respond::{accepted, idempotency_key, timestamp};
use super::AppState;
use crate::jobs::JobKind;
use crate::store::{Job, JobState};

/// A job kind served as a resource of its own.
pub trait Resource: JobKind {
    /// What clients call one of these, in messages ("crossword fill").
    const WHAT: &'static str;

    /// Links besides `self` and `job`, from the resource's URL (its PDFs…).
    fn links(_base: &str) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

/// The route of kind `K`'s resources.
pub fn route<K: JobKind>() -> String {
    format!("/{}", K::NAME.replace('.', "/"))
}

pub fn location<K: JobKind>(id: &str) -> String {
    format!("{}/{id}", route::<K>())
}

/// How far a job has come: `done` of `total` units (`total` 0: not known yet).
#[derive(Serialize)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
}

/// A job-backed resource as clients see it.
#[derive(Serialize)]
pub struct ResourceView {
    pub id: String,
    pub state: JobState,
    pub progress: Progress,
    pub attempts: i64,
    pub error: Option<String>,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    /// The request, as stored with the job.
    pub request: Box<RawValue>,
    /// The job's result, once it has succeeded.
    pub result: Option<Box<RawValue>>,
    pub links: BTreeMap<&'static str, String>,
}

fn raw(what: &str, id: &str, text: String) -> Result<Box<RawValue>, ApiError> {
    RawValue::from_string(text).map_err(|e| ApiError::Internal(format!("job {id}: stored {what} is not JSON: {e}")))
}

pub fn view<K: Resource>(job: Job) -> Result<ResourceView, ApiError> {
    let base = location::<K>(&job.id);
    let mut links: BTreeMap<&'static str, String> = K::links(&base).into_iter().collect();
    links.insert("job", super::jobs::location(&job.id));
    links.insert("self", base);
    Ok(ResourceView {
        request: raw("request", &job.id, job.params)?,
        result: job.result.map(|r| raw("result", &job.id, r)).transpose()?,
        progress: Progress { done: job.progress_done, total: job.progress_total },
        created_at: timestamp(job.created_at),
        started_at: job.started_at.map(timestamp),
        finished_at: job.finished_at.map(timestamp),
        id: job.id,
        state: job.state,
        attempts: job.attempts,
        error: job.error,
        links,
    })
}

/// Queues a job of kind `K` for `caller` with already validated `params`: 202 with the resource and its
/// `Location`, honouring `Idempotency-Key`.
pub async fn enqueue<K: Resource>(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    params: &K::Params,
) -> Result<Response, ApiError> {
    let (job, _) = state
        .queue
        .submit::<K>(&caller.owner(), caller.quota(&state.quotas), params, idempotency_key(headers)?)
        .await?;
    let view = view::<K>(job)?;
    let location = view.links["self"].clone();
    Ok(accepted(&location, view))
}

/// The job behind resource `id` of kind `K` (another kind's id is as unknown here as a
/// made-up one).
pub async fn find<K: Resource>(state: &AppState, id: &str) -> Result<Job, ApiError> {
    match state.store.job(id).await? {
        Some(job) if job.kind == K::NAME => Ok(job),
        _ => Err(ApiError::not_found(format!("there is no {} {id:?}", K::WHAT))),
    }
}

/// `GET {route}/{id}`.
pub async fn show<K: Resource>(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ResourceView>, ApiError> {
    Ok(Json(view::<K>(find::<K>(&state, &id).await?)?))
}

/// The result of a job that has succeeded, parsed as `T`; 409 (with `Retry-After` while
/// it may still succeed) otherwise.
pub fn finished_result<T: serde::de::DeserializeOwned>(job: &Job) -> Result<T, ApiError> {
    match (&job.state, &job.result) {
        (JobState::Succeeded, Some(result)) => serde_json::from_str(result)
            .map_err(|e| ApiError::Internal(format!("job {}: stored result does not parse: {e}", job.id))),
        (state, _) => Err(ApiError::Conflict {
            detail: format!(
                "{} is {}; its output is not ready{}",
                job.id,
                state.as_str(),
                if state.is_terminal() { " and never will be" } else { " yet" }
            ),
            retry_after: (!state.is_terminal()).then_some(1),
        }),
    }
}
