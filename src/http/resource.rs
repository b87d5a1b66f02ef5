//! Resources computed by a job (a fill, a solve, a generated puzzle…): each kind has its
//! route (`/` + the kind's name with `.` read as `/`), a `POST` there that queues the job
//! and answers 202 with `Location: {route}/{id}`, and a `GET {route}/{id}` view — the
//! job's state and progress, the request, and the result once there is one, served from
//! its stored JSON without re-parsing.

use std::collections::BTreeMap;

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::openapi::schema::{Schema, SchemaType};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::jobs::JobSummaryView;
use super::listing::{listed_owner, Listed, Listing, Next, Page};
use super::respond::{accepted, echo};
use super::AppState;
use crate::jobs::JobKind;
use crate::puzzles::Limits;
use crate::render::print::LayoutVersion;
use crate::service::policy::{Idempotency, Policy, Settled};
use crate::service::timestamp;
use crate::store::{Job, JobFilter, JobState, OnInsert};

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
    route_of(K::NAME)
}

/// The route of the resources of the kind named `kind`.
pub fn route_of(kind: &str) -> String {
    format!("/{}", kind.replace('.', "/"))
}

pub fn location<K: JobKind>(id: &str) -> String {
    format!("{}/{id}", route::<K>())
}

/// How far a job has come: `done` of `total` units (`total` 0: not known yet).
#[derive(Serialize, utoipa::ToSchema)]
pub struct Progress {
    #[schema(minimum = 0)]
    pub done: i64,
    #[schema(minimum = 0)]
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

/// The links of resource `id` of kind `K`: `self`, `job` and the kind's own.
fn links<K: Resource>(id: &str) -> BTreeMap<&'static str, String> {
    let base = location::<K>(id);
    let mut links: BTreeMap<&'static str, String> = K::links(&base).into_iter().collect();
    links.insert("job", super::jobs::location(id));
    links.insert("self", base);
    links
}

pub fn view<K: Resource>(job: Job) -> Result<ResourceView, ApiError> {
    let links = links::<K>(&job.id);
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

/// What a request that queues a job brings besides its body: the server, its caller, and
/// its idempotency (its key and the seed drawn for it).
pub struct Submit {
    pub state: AppState,
    pub caller: Caller,
    request: Idempotency,
}

impl FromRequestParts<AppState> for Submit {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Call { state, caller } = Call::from_request_parts(parts, state).await?;
        let request = Idempotency::from_request_parts(parts, &state).await?;
        Ok(Submit { state, caller, request })
    }
}

impl Submit {
    /// The request's `Idempotency-Key`: an order that draws a serial at random (a book, a
    /// print run) is found again by it rather than settled to the same parameters.
    pub fn key(&self) -> Option<String> {
        self.request.key()
    }

    /// The caller's limits.
    pub fn limits(&self) -> &Limits {
        self.caller.limits(&self.state)
    }

    /// 503 or 429 now if the queue or the caller's quota is full: before a costly check.
    pub async fn admit(&self) -> Result<(), ApiError> {
        Ok(self.state.queue.admit(&self.caller.submitter(&self.state.quotas)).await?)
    }

    /// `request` as its kind's policy settles it for this caller (defaults, the seed drawn
    /// for this request, budgets): 422 naming the field at fault.
    pub fn settle<R: Policy>(&self, request: R) -> Result<Settled<R::Params>, ApiError> {
        self.request.settle(request, self.limits())
    }

    /// Queues a job of kind `K` with settled and checked `params`: 202 with the resource
    /// and its `Location`, honouring `Idempotency-Key`.
    pub async fn enqueue<K: Resource>(&self, params: Settled<K::Params>) -> Result<Response, ApiError> {
        self.enqueue_with::<K>(params, Vec::new()).await
    }

    /// [`Submit::enqueue`], storing `rows` with the job.
    pub async fn enqueue_with<K: Resource>(
        &self,
        params: Settled<K::Params>,
        rows: Vec<OnInsert>,
    ) -> Result<Response, ApiError> {
        let params = params.params();
        let submitter = self.caller.submitter(&self.state.quotas);
        let (job, _) = self.state.queue.submit_with::<K>(&submitter, params, self.request.key(), rows).await?;
        let view = view::<K>(job)?;
        let location = view.links["self"].clone();
        Ok(accepted(&location, view))
    }
}

/// The job behind resource `id` of kind `K` (another kind's id is as unknown here as a
/// made-up one, and so is another caller's).
pub async fn find<K: Resource>(state: &AppState, caller: &Caller, id: &str) -> Result<Job, ApiError> {
    match state.store.job(id).await? {
        Some(job) if job.kind == K::NAME && caller.may_see(&job.owner) => Ok(job),
        _ => Err(ApiError::not_found(format!("there is no {} {}", K::WHAT, echo(id)))),
    }
}

/// `GET {route}/{id}`.
pub async fn show<K: Resource>(
    Call { state, caller }: Call,
    Path(id): Path<String>,
) -> Result<Json<ResourceView>, ApiError> {
    Ok(Json(view::<K>(find::<K>(&state, &caller, &id).await?)?))
}

/// A job kind whose resources their owner lists (`GET {route}`), and perhaps deletes.
pub trait Kept: Resource {
    const LISTING: Listing;
}

impl<K: Kept> Listed for K {
    type Item = JobSummaryView;
    const LISTING: Listing = K::LISTING;

    fn route() -> String {
        route::<K>()
    }

    async fn items(state: &AppState, caller: &Caller, page: &Page) -> Result<(Vec<JobSummaryView>, Next), ApiError> {
        let filter = JobFilter { owner: listed_owner(caller), kind: Some(K::NAME.into()), state: None };
        let jobs = state.store.jobs_page(&filter, page.before, page.fetch()).await?;
        let (jobs, next) = page.finish(&route::<K>(), jobs, |j| j.position);
        let items = jobs
            .into_iter()
            .map(|job| {
                let links = links::<K>(&job.id);
                JobSummaryView::new(job, links)
            })
            .collect();
        Ok((items, next))
    }
}

/// `DELETE {route}/{id}`: deletes the caller's resource of kind `K` once its job has ended.
pub async fn delete<K: Kept>(Call { state, caller }: Call, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let job = find::<K>(&state, &caller, &id).await?;
    delete_ended(&state, &format!("{} {}", K::WHAT, job.id), &job.id, job.state).await
}

/// Deletes `what`, a product made by job `job_id` now in `job_state`: 204, or 409 while the
/// job is queued or running (it is cancelled first, with `DELETE /jobs/{id}`).
pub async fn delete_ended(
    state: &AppState,
    what: &str,
    job_id: &str,
    job_state: JobState,
) -> Result<StatusCode, ApiError> {
    if !job_state.is_terminal() {
        return Err(ApiError::Conflict {
            detail: format!(
                "{what} is {}; cancel it first (DELETE {}), then delete it",
                job_state.as_str(),
                super::jobs::location(job_id)
            ),
            retry_after: None,
        });
    }
    match state.store.delete_ended_job(job_id).await? {
        true => Ok(StatusCode::NO_CONTENT),
        // Deleted by a concurrent request.
        false => Err(ApiError::not_found(format!("there is no {what}"))),
    }
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

/// The request stored with a job of kind `K`, parsed.
pub fn stored_params<K: JobKind>(job: &Job) -> Result<K::Params, ApiError> {
    serde_json::from_str(&job.params)
        .map_err(|e| ApiError::Internal(format!("job {}: stored request does not parse: {e}", job.id)))
}

/// The layout a job's files are printed with (the one it was queued under).
pub fn layout_of(job: &Job) -> Result<LayoutVersion, ApiError> {
    LayoutVersion::from_number(job.layout_version)
        .ok_or_else(|| ApiError::Internal(format!("job {}: unknown layout version {}", job.id, job.layout_version)))
}

/// The schema of kind `K`'s [`ResourceView`]: `request` is a `P` (the kind's params, as
/// stored) and `result` an `O` (its output) or null, with the kind's links.
pub fn view_schema<K: Resource, P: ToSchema, O: ToSchema>(what: &str) -> RefOr<Schema> {
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, Type};
    use utoipa::openapi::Ref;
    let string = || ObjectBuilder::new().schema_type(Type::String);
    let time = |nullable: bool| {
        let t =
            if nullable { SchemaType::from_iter([Type::String, Type::Null]) } else { SchemaType::new(Type::String) };
        ObjectBuilder::new().schema_type(t).format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
    };
    let mut links = ObjectBuilder::new()
        .property("self", string().description(Some("This resource.")))
        .required("self")
        .property("job", string().description(Some("The job behind it (`/jobs/{id}`).")))
        .required("job");
    for (name, _) in K::links("") {
        links = links.property(name, string()).required(name);
    }
    let fields: [(&str, RefOr<Schema>); 11] = [
        ("id", string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))).into()),
        ("state", Ref::from_schema_name(JobState::name()).into()),
        ("progress", Ref::from_schema_name(Progress::name()).into()),
        (
            "attempts",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .description(Some("Runs started, including ones whose worker died."))
                .into(),
        ),
        (
            "error",
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .description(Some("Why the job failed."))
                .into(),
        ),
        ("created_at", time(false).into()),
        ("started_at", time(true).into()),
        ("finished_at", time(true).into()),
        ("request", {
            let mut request = Ref::from_schema_name(P::name());
            request.description = "The request, as stored with the job.".into();
            request.into()
        }),
        (
            "result",
            OneOfBuilder::new()
                .item(Ref::from_schema_name(O::name()))
                .item(ObjectBuilder::new().schema_type(Type::Null))
                .description(Some("The job's result once it has succeeded, else null."))
                .into(),
        ),
        ("links", links.into()),
    ];
    let mut view = ObjectBuilder::new()
        .description(Some(format!("A {what}: its job's state and progress, the request and, once done, the result.")));
    for (name, schema) in fields {
        view = view.property(name, schema).required(name);
    }
    view.into()
}

/// The schemas a resource view of `P` and `O` refers to.
pub fn view_schemas<P: ToSchema, O: ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    schemas.push((JobState::name().into(), JobState::schema()));
    schemas.push((Progress::name().into(), Progress::schema()));
    schemas.push((P::name().into(), P::schema()));
    P::schemas(schemas);
    schemas.push((O::name().into(), O::schema()));
    O::schemas(schemas);
}

/// `GET {route}/{id}` for one kind, documented: defines `$view` (the schema of the kind's
/// resource view, named after it) and the handler `$handler`, which serves
/// [`show::<$kind>`](show).
macro_rules! show_resource {
    ($handler:ident, $kind:ty, $view:ident, $path:tt, $tag:tt, $summary:tt) => {
        #[doc = concat!("The schema of `GET ", $path, "`.")]
        pub struct $view;

        impl utoipa::PartialSchema for $view {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $crate::http::resource::view_schema::<
                    $kind,
                    <$kind as $crate::jobs::JobKind>::Params,
                    <$kind as $crate::jobs::JobKind>::Output,
                >(<$kind as $crate::http::resource::Resource>::WHAT)
            }
        }

        impl utoipa::ToSchema for $view {
            fn name() -> std::borrow::Cow<'static, str> {
                stringify!($view).into()
            }

            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                $crate::http::resource::view_schemas::<
                    <$kind as $crate::jobs::JobKind>::Params,
                    <$kind as $crate::jobs::JobKind>::Output,
                >(schemas)
            }
        }

        #[utoipa::path(
            get,
            path = $path,
            tag = $tag,
            summary = $summary,
            params(("id" = uuid::Uuid, Path, description = "The resource's id (the id of its job).")),
            responses(
                (status = 200, description = "The resource: its job's state and progress, the request and, once done, the result.", body = $view),
            )
        )]
        pub(crate) async fn $handler(
            call: $crate::http::extract::Call,
            id: axum::extract::Path<String>,
        ) -> Result<axum::Json<$crate::http::resource::ResourceView>, $crate::http::error::ApiError> {
            $crate::http::resource::show::<$kind>(call, id).await
        }
    };
}

pub(crate) use show_resource;
