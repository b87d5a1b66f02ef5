//! `/jobs/{id}`: the state, progress, attempts and result of any queued job, and
//! cancellation.

use std::collections::BTreeMap;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::openapi::path::Parameter;
use utoipa::IntoParams;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::listing::{listed_owner, Listed, Listing, Next, Page};
use super::resource::{route_of, Progress};
use super::respond::echo;
use super::AppState;
use crate::jobs::kinds::Books;
use crate::jobs::JobKind;
use crate::service::timestamp;
use crate::store::{Attempt, Job, JobFilter, JobState, JobSummary};

pub fn router() -> Router<AppState> {
    Router::new().route("/jobs", get(super::listing::list::<Jobs>)).route("/jobs/{id}", get(show).delete(cancel))
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
    summary = "A job's state, progress, attempts and result.",
    params(("id" = uuid::Uuid, Path, description = "The job's id.")),
    responses(
        (status = 200, description = "The job.", body = JobView),
    )
)]
pub(crate) async fn show(Call { state, caller }: Call, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
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
    summary = "Cancel a job.",
    description = "A queued job is cancelled at once (200). A running job is asked to stop at its next progress \
                   point (202; poll until it is `cancelled`). A finished job gives 409.",
    params(("id" = uuid::Uuid, Path, description = "The job's id.")),
    responses(
        (status = 200, description = "Cancelled.", body = JobView),
        (status = 202, description = "Cancellation requested; the job is still running.", body = JobView),
        (status = 409, response = super::openapi::Conflict),
    )
)]
pub(crate) async fn cancel(Call { state, caller }: Call, Path(id): Path<String>) -> Result<Response, ApiError> {
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

/// A job as listings show it (its request and result are at its own address).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = JobSummary)]
pub struct JobSummaryView {
    #[schema(format = Uuid)]
    pub id: String,
    /// The job's kind (`books`, `oneup.books`, `crosswords.fills`…).
    #[schema(example = "crosswords.fills")]
    pub kind: String,
    pub state: JobState,
    pub progress: Progress,
    /// Why the job failed.
    #[schema(required = true)]
    pub error: Option<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(required = true, format = DateTime)]
    pub finished_at: Option<String>,
    /// `self`, and where to go from it: in `GET /jobs`, `resource` (what the job makes:
    /// `/crosswords/fills/{id}`, `/books/{serial}`, …); in a resource's listing, `job` and
    /// the resource's downloads.
    #[schema(value_type = BTreeMap<String, String>)]
    pub links: BTreeMap<&'static str, String>,
}

impl JobSummaryView {
    pub fn new(job: JobSummary, links: BTreeMap<&'static str, String>) -> JobSummaryView {
        JobSummaryView {
            progress: Progress { done: job.progress_done, total: job.progress_total },
            created_at: timestamp(job.created_at),
            finished_at: job.finished_at.map(timestamp),
            id: job.id,
            kind: job.kind,
            state: job.state,
            error: job.error,
            links,
        }
    }
}

/// The filters of `GET /jobs` (read with the paging parameters by [`Page::parse`]).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct JobListFilter {
    /// Only jobs of this kind, named as jobs show it (`books`, `crosswords.fills`,
    /// `oneup.books`, …); an unknown kind is 422, naming the kinds there are.
    #[param(example = "crosswords.fills")]
    kind: Option<String>,
    /// Only jobs in this state.
    #[param(inline)]
    state: Option<JobState>,
}

/// The caller's jobs of every kind (an admin's: everyone's), newest first.
pub(crate) struct Jobs;

/// The kind and state a listing of jobs is filtered by, each checked (422 naming it).
fn filters(page: &Page) -> Result<(Option<String>, Option<JobState>), ApiError> {
    let kinds = crate::jobs::kinds::registry().names();
    let kind = page
        .filter("kind")
        .map(|kind| {
            kinds.iter().find(|k| **k == kind).map(|k| k.to_string()).ok_or_else(|| {
                ApiError::invalid("kind", format!("kind must be one of {} (got {})", kinds.join(", "), echo(kind)))
            })
        })
        .transpose()?;
    let job_state = page
        .filter("state")
        .map(|s| {
            JobState::parse(s).ok_or_else(|| {
                let states: Vec<_> = JobState::ALL.iter().map(|s| s.as_str()).collect();
                ApiError::invalid("state", format!("state must be one of {} (got {})", states.join(", "), echo(s)))
            })
        })
        .transpose()?;
    Ok((kind, job_state))
}

impl Listed for Jobs {
    type Item = JobSummaryView;
    const LISTING: Listing = Listing::of("jobs", "JobList", "Your jobs of every kind, newest first, a page at a time.")
        .described(
            "Publishers see their own jobs, admins everyone's; `kind` and `state` narrow the list. Each links to what \
             it makes (`links.resource`). Follow `next` for the following page.",
        );
    const FILTERS: &'static [&'static str] = &["kind", "state"];

    fn route() -> String {
        "/jobs".into()
    }

    fn filters() -> Vec<Parameter> {
        JobListFilter::into_params(|| None)
    }

    async fn items(state: &AppState, caller: &Caller, page: &Page) -> Result<(Vec<JobSummaryView>, Next), ApiError> {
        let (kind, job_state) = filters(page)?;
        let filter = JobFilter { owner: listed_owner(caller), kind, state: job_state };
        let jobs = state.store.jobs_page(&filter, page.before, page.fetch()).await?;
        let (jobs, next) = page.finish("/jobs", jobs, |j| j.position);
        let jobs = jobs
            .into_iter()
            .map(|job| {
                let resource = match &job.serial {
                    Some(serial) if job.kind == Books::NAME => format!("/books/{serial}"),
                    _ => format!("{}/{}", route_of(&job.kind), job.id),
                };
                let links = BTreeMap::from([("self", location(&job.id)), ("resource", resource)]);
                JobSummaryView::new(job, links)
            })
            .collect();
        Ok((jobs, next))
    }
}
