//! Small pieces shared by the resource modules: request headers read the same way, and
//! responses built the same way.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::ApiError;

/// The optional `Idempotency-Key` header: a retried POST with the same key returns the
/// resource the first one created.
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
    let key = value.to_str().ok().map(str::trim).filter(|k| !k.is_empty() && k.len() <= 255).ok_or_else(|| {
        ApiError::invalid("Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters")
    })?;
    Ok(Some(key.to_string()))
}

/// 202 Accepted with a `Location` header and a JSON body.
pub fn accepted(location: &str, body: impl Serialize) -> Response {
    let mut response = (StatusCode::ACCEPTED, axum::Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// A PDF shown inline, saved as `filename` if the reader downloads it.
pub fn pdf_response(bytes: impl Into<axum::body::Bytes>, filename: &str) -> Response {
    body_response(bytes, "application/pdf", "inline", filename)
}

/// A file to save (`Content-Disposition: attachment`) as `filename`.
pub fn file_response(bytes: Vec<u8>, content_type: &'static str, filename: &str) -> Response {
    body_response(bytes, content_type, "attachment", filename)
}

/// `bytes` (shared, not copied, when they are a rendered PDF kept for other downloads).
fn body_response(
    bytes: impl Into<axum::body::Bytes>,
    content_type: &'static str,
    disposition: &str,
    filename: &str,
) -> Response {
    let mut response = (StatusCode::OK, axum::body::Body::from(bytes.into())).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(v) = HeaderValue::from_str(&format!("{disposition}; filename=\"{filename}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

/// The query of a one-page puzzle PDF: its trim.
#[derive(serde::Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub(crate) struct TrimQuery {
    /// The page size: `letter` (default), `6x9`, `5.5x8.5`, `7x10`, `a4`, `a5`, `5.25x8`, or `WxH` in
    /// inches within 4–8.5 x 6–11.69.
    #[param(default = "letter", example = "6x9")]
    trim: Option<String>,
}

/// The trim a PDF's query asks for (422 naming `trim` if it is not one).
pub fn trim_query(query: Option<&str>) -> Result<crate::render::print::Trim, ApiError> {
    let q: TrimQuery = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|e| ApiError::invalid("query", format!("query string: {}", echo(&e.to_string()))))?;
    q.trim
        .as_deref()
        .map(crate::render::print::Trim::parse)
        .transpose()
        .map(Option::unwrap_or_default)
        .map_err(|detail| ApiError::invalid("trim", detail))
}

/// The short id a puzzle PDF carries in its title and footer, so a puzzle pairs with its
/// solution: the first 8 characters of the job's id.
pub fn short_id(id: &str) -> String {
    id.chars().take(8).collect::<String>().to_ascii_lowercase()
}

/// Runs CPU work (rendering, unpacking) off the async threads.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::Internal(format!("blocking task failed: {e}")))
}

/// RFC 3339 form of a stored millisecond time.
pub fn timestamp(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_quotes_short_input_and_cuts_long_input() {
        assert_eq!(echo("AB-12"), "\"AB-12\"");
        let long = "x".repeat(16_000);
        let echoed = echo(&long);
        assert!(echoed.len() < 250, "{echoed}");
        assert!(echoed.ends_with("… (16000 characters)"));
    }
}
