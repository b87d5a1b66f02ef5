//! What a request can fail with, whether the HTTP layer or the service below it finds
//! the fault: one type, so that a service step reports the field or limit at fault the
//! way a handler would (the HTTP layer renders it as problem+json).

use crate::jobs::SubmitError;
use crate::store::StoreError;

/// Everything a handler can answer besides success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request cannot be read (malformed JSON, a mistyped serial…).
    #[error("{title}: {detail}")]
    BadRequest { title: &'static str, detail: String },
    /// 422: well-formed, but a field is missing, of the wrong type or out of range.
    #[error("{field}: {detail}")]
    Invalid { field: String, detail: String },
    /// 422: a line of a text body is not what was expected.
    #[error("line {line}: {detail}")]
    InvalidLine { line: usize, detail: String },
    /// 401: a token is needed, or the one sent is unknown or revoked.
    #[error("{detail}")]
    Unauthorized { detail: String },
    /// 403: the caller's key is valid, but what it asks for is another publisher's.
    #[error("{detail}")]
    Forbidden { detail: String },
    /// 404: no such resource.
    #[error("{detail}")]
    NotFound { detail: String },
    /// 409: the resource is not in a state that allows this (yet).
    #[error("{detail}")]
    Conflict { detail: String, retry_after: Option<u64> },
    /// 408: the client sent its request too slowly.
    #[error("{detail}")]
    TooSlow { detail: String },
    /// 413
    #[error("{detail}")]
    TooLarge { detail: String },
    /// 415
    #[error("{detail}")]
    UnsupportedMediaType { detail: String },
    /// 429: this caller has too much going on; try again later.
    #[error("{detail}")]
    TooMany { detail: String, retry_after: u64 },
    /// 503: try again later.
    #[error("{detail}")]
    Unavailable { detail: String, retry_after: u64 },
    /// 507: the caller keeps as much as they may.
    #[error("{detail}")]
    InsufficientStorage { detail: String },
    /// The database failed: 503 when it is unreachable, else 500.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The queue refused a job: 503 when full, 422 for a reused idempotency key.
    #[error(transparent)]
    Submit(#[from] SubmitError),
    /// 500: a bug; details go to the log, not the client.
    #[error("{0}")]
    Internal(String),
}

impl From<super::books::Corrupt> for ApiError {
    fn from(e: super::books::Corrupt) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl ApiError {
    pub fn invalid(field: impl Into<String>, detail: impl Into<String>) -> Self {
        ApiError::Invalid { field: field.into(), detail: detail.into() }
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        ApiError::NotFound { detail: detail.into() }
    }

    pub fn bad_request(title: &'static str, detail: impl Into<String>) -> Self {
        ApiError::BadRequest { title, detail: detail.into() }
    }
}

/// How much of a client's input an error message repeats.
pub const ECHO_CHARS: usize = 200;

/// `input` quoted for an error message, cut after [`ECHO_CHARS`] characters so that a huge
/// input does not make a huge answer.
pub fn echo(input: &str) -> String {
    match input.char_indices().nth(ECHO_CHARS) {
        Some((cut, _)) => format!("{:?}… ({} characters)", &input[..cut], input.chars().count()),
        None => format!("{input:?}"),
    }
}
