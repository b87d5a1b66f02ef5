//! Request-body extractors whose rejections speak problem+json and name the field at fault,
//! and [`Call`], what most handlers start from.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::AppState;

/// A call to the API: the server's state and who calls.
pub struct Call {
    pub state: AppState,
    pub caller: Caller,
}

impl FromRequestParts<AppState> for Call {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(Call { state: state.clone(), caller: Caller::from_request_parts(parts, state).await? })
    }
}

/// A JSON body (`Content-Type: application/json`), parsed with the path of any bad field.
pub struct Json<T>(pub T);

/// Like [`Json`], but an empty body means `T::default()`.
pub struct OptionalJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        require_json(&req)?;
        let body = read_body(req, state).await?;
        parse_json(&body).map(Json)
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let has_type = req.headers().contains_key(header::CONTENT_TYPE);
        if has_type {
            require_json(&req)?;
        }
        let body = read_body(req, state).await?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        if !has_type {
            return Err(unsupported());
        }
        parse_json(&body).map(OptionalJson)
    }
}

fn unsupported() -> ApiError {
    ApiError::UnsupportedMediaType { detail: "send the body as JSON with Content-Type: application/json".into() }
}

/// The request's media type without parameters, lower-cased (empty if absent).
pub fn media_type(req: &Request) -> String {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

fn require_json(req: &Request) -> Result<(), ApiError> {
    let mt = media_type(req);
    if mt == "application/json" || (mt.starts_with("application/") && mt.ends_with("+json")) {
        Ok(())
    } else {
        Err(unsupported())
    }
}

/// Reads the whole body, mapping the size limit to 413 and a stalled body to 408.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return too_large("the request body is larger than 1 MiB");
        }
        body_error(&rejection, "the request body is larger than 1 MiB")
            .unwrap_or_else(|| ApiError::bad_request("Unreadable body", rejection.body_text()))
    })
}

fn too_large(detail: &str) -> ApiError {
    ApiError::TooLarge { detail: detail.into() }
}

/// What a failed body read means for the client, found in the error's source chain: the
/// body-limit layer's error (a chunked body past the limit, 413 with `too_large_detail`) or
/// the minimum body rate (408). `None` for anything else (a broken connection).
pub fn body_error(error: &(dyn std::error::Error + 'static), too_large_detail: &str) -> Option<ApiError> {
    let mut source = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return Some(too_large(too_large_detail));
        }
        if e.is::<super::edge::bodyrate::TooSlow>() {
            return Some(ApiError::TooSlow {
                detail: "the request body stopped arriving, or came more slowly than the minimum rate; send it at once"
                    .into(),
            });
        }
        source = e.source();
    }
    None
}

/// Parses JSON, telling syntax errors (400) from data errors (422 naming the field).
/// `null` is never a value in a request body (a member left out takes its default), so a
/// `null` anywhere is refused, naming where it is.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| json_error(".", &e))?;
    if let Some(path) = first_null(&value, "") {
        let field = if path.is_empty() { "body".to_string() } else { path };
        return Err(ApiError::invalid(
            field.clone(),
            format!("{field}: null is not allowed; leave the member out to take its default"),
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let value = match parsed {
        Ok(v) => v,
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            return Err(json_error(&path, &inner));
        }
    };
    de.end().map_err(|e| json_error(".", &e))?;
    Ok(value)
}

/// Where the first `null` in `value` is, as `a.b[2].c` (empty: `value` itself).
fn first_null(value: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Null => Some(at.to_string()),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| first_null(v, &format!("{at}[{i}]"))),
        Value::Object(members) => members.iter().find_map(|(k, v)| {
            let path = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
            first_null(v, &path)
        }),
        _ => None,
    }
}

fn json_error(path: &str, e: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            ApiError::bad_request("Malformed JSON", format!("the body is not valid JSON: {e}"))
        }
        Category::Data => {
            let message = e.to_string();
            // "missing field `x`" is reported at the parent; name the missing field itself.
            let missing = message.strip_prefix("missing field `").and_then(|rest| rest.split('`').next());
            let field = match (path, missing) {
                (".", Some(name)) => name.to_string(),
                (parent, Some(name)) => format!("{parent}.{name}"),
                (".", None) => "body".to_string(),
                (p, None) => p.to_string(),
            };
            let message = message.split(" at line ").next().unwrap_or(&message).to_string();
            ApiError::invalid(field.clone(), format!("{field}: {message}"))
        }
    }
}
