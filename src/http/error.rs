//! The API's one error type (defined in the service layer, which reports the same
//! problems) rendered as RFC 9457 `application/problem+json`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::jobs::{Refusal, SubmitError};
pub use crate::service::error::ApiError;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// The longest `detail` a problem carries.
const DETAIL_CHARS: usize = 1_000;

/// RFC 9457 problem details.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Problem<'a> {
    /// A URI reference naming the kind of problem (`/problems/invalid-field`…).
    #[serde(rename = "type")]
    kind: String,
    /// Short summary of the kind of problem.
    title: &'a str,
    /// The HTTP status code.
    #[schema(minimum = 400, maximum = 599)]
    status: u16,
    /// What went wrong with this request.
    detail: &'a str,
    /// The request member at fault (422): a JSON path such as `graph[2]`, a query
    /// parameter or a header name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    field: Option<&'a str>,
    /// The 1-based line of a text body at fault (422).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1)]
    line: Option<usize>,
}

impl ApiError {
    /// Store and queue errors as the answer they give clients.
    fn classified(self) -> ApiError {
        match self {
            ApiError::Submit(SubmitError::Refused(Refusal::Full { queued })) => ApiError::Unavailable {
                detail: format!("the job queue is full ({queued} jobs waiting); retry later"),
                retry_after: 5,
            },
            ApiError::Submit(SubmitError::Refused(e @ Refusal::AnonymousFull { .. })) => {
                ApiError::Unavailable { detail: e.to_string(), retry_after: 5 }
            }
            ApiError::Submit(e @ SubmitError::KeyReused) => ApiError::invalid("Idempotency-Key", e.to_string()),
            ApiError::Submit(SubmitError::Refused(e @ Refusal::Quota { .. })) => {
                ApiError::TooMany { detail: e.to_string(), retry_after: 5 }
            }
            ApiError::Submit(e @ SubmitError::ParamsTooLarge { .. }) => ApiError::TooLarge { detail: e.to_string() },
            ApiError::Submit(e @ SubmitError::StorageFull { .. }) => ApiError::InsufficientStorage {
                detail: format!(
                    "{e} (--storage-per-key-mib with a key, --storage-per-address-mib without; products made \
                     without a key are deleted --retention-days after they were made)"
                ),
            },
            ApiError::Submit(SubmitError::Store(e)) => ApiError::Store(e).classified(),
            ApiError::Submit(e @ SubmitError::Params(_)) => ApiError::Internal(e.to_string()),
            // The database being unreachable is an outage, not a bug: tell clients to retry.
            ApiError::Store(e) if e.is_unavailable() => {
                tracing::warn!(error = %e, "database unavailable");
                ApiError::Unavailable {
                    detail: "the database is unavailable; try again shortly".into(),
                    retry_after: 5,
                }
            }
            ApiError::Store(e) => ApiError::Internal(e.to_string()),
            other => other,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Invalid { .. } | ApiError::InvalidLine { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::TooSlow { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::InsufficientStorage { .. } => StatusCode::INSUFFICIENT_STORAGE,
            ApiError::Store(e) if e.is_unavailable() => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Submit(SubmitError::Refused(Refusal::Full { .. } | Refusal::AnonymousFull { .. })) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Submit(SubmitError::Refused(Refusal::Quota { .. })) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Submit(SubmitError::KeyReused) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Store(_) | ApiError::Submit(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Builds a problem+json response; also used to dress up bare error responses from layers.
pub fn problem(status: StatusCode, title: &str, detail: &str, field: Option<&str>) -> Response {
    problem_at(status, title, detail, field, None)
}

fn problem_at(status: StatusCode, title: &str, detail: &str, field: Option<&str>, line: Option<usize>) -> Response {
    let slug = title.to_ascii_lowercase().replace([' ', '\''], "-");
    // A backstop for messages that repeat input (serde's "unknown field …"): none grows
    // past a screenful whatever the request held.
    let detail = match detail.char_indices().nth(DETAIL_CHARS) {
        Some((cut, _)) => &detail[..cut],
        None => detail,
    };
    let body = Problem { kind: format!("/problems/{slug}"), title, status: status.as_u16(), detail, field, line };
    let json = serde_json::to_vec(&body).unwrap_or_default();
    let mut response = (status, json).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let this = self.classified();
        let status = this.status();
        if let ApiError::InvalidLine { line, detail } = &this {
            return problem_at(status, "Invalid input", detail, None, Some(*line));
        }
        let (title, detail, field, retry_after) = match &this {
            ApiError::BadRequest { title, detail } => (*title, detail.as_str(), None, None),
            ApiError::Invalid { field, detail } => ("Invalid field", detail.as_str(), Some(field.as_str()), None),
            ApiError::InvalidLine { detail, .. } => ("Invalid input", detail.as_str(), None, None),
            ApiError::Unauthorized { detail } => ("Unauthorized", detail.as_str(), None, None),
            ApiError::Forbidden { detail } => ("Forbidden", detail.as_str(), None, None),
            ApiError::NotFound { detail } => ("Not found", detail.as_str(), None, None),
            ApiError::Conflict { detail, retry_after } => ("Conflict", detail.as_str(), None, *retry_after),
            ApiError::TooSlow { detail } => ("Request timeout", detail.as_str(), None, None),
            ApiError::TooLarge { detail } => ("Payload too large", detail.as_str(), None, None),
            ApiError::UnsupportedMediaType { detail } => ("Unsupported media type", detail.as_str(), None, None),
            ApiError::TooMany { detail, retry_after } => {
                ("Too many requests", detail.as_str(), None, Some(*retry_after))
            }
            ApiError::Unavailable { detail, retry_after } => {
                ("Service unavailable", detail.as_str(), None, Some(*retry_after))
            }
            ApiError::InsufficientStorage { detail } => ("Insufficient storage", detail.as_str(), None, None),
            ApiError::Internal(msg) => {
                tracing::error!(error = %msg, "internal error");
                ("Internal server error", "something went wrong on our side; it has been logged", None, None)
            }
            ApiError::Store(_) | ApiError::Submit(_) => {
                tracing::error!(error = %this, "internal error");
                ("Internal server error", "something went wrong on our side; it has been logged", None, None)
            }
        };
        let mut response = problem(status, title, detail, field);
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(secs) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
