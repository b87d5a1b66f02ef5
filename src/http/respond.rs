//! Small pieces shared by the resource modules: request headers read the same way, and
//! responses built the same way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::ApiError;
use crate::puzzles::monitor::Monitor;
use crate::service::policy::Idempotency;

/// The optional `Idempotency-Key` header: a retried POST with the same key returns the
/// resource the first one created.
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
    let key = value.to_str().ok().map(str::trim).filter(|k| !k.is_empty() && k.len() <= 255).ok_or_else(|| {
        ApiError::invalid("Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters")
    })?;
    Ok(Some(key.to_string()))
}

/// A request's `Idempotency-Key` (checked: 422 naming the header otherwise) and the
/// seed drawn for it.
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Idempotency {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Self, ApiError> {
        Ok(Idempotency::new(idempotency_key(&parts.headers)?))
    }
}

/// 202 Accepted with a `Location` header and a JSON body.
pub fn accepted(location: &str, body: impl Serialize) -> Response {
    let mut response = (StatusCode::ACCEPTED, axum::Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// `bytes` (shared, not copied, when they are a rendered PDF kept for other downloads)
/// as `content_type`, shown (`inline`) or saved (`attachment`) as `filename`.
pub fn body_response(
    body: impl Into<axum::body::Body>,
    content_type: &'static str,
    disposition: &str,
    filename: &str,
) -> Response {
    let mut response = (StatusCode::OK, body.into()).into_response();
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

pub use crate::service::blocking;
pub use crate::service::error::echo;

/// How long a handler may spend checking a request by running its engine: what it cannot
/// decide by then, a job decides.
pub const CHECK_TIME: Duration = Duration::from_millis(200);

/// Runs an engine's check off the async threads with a monitor that tells it to stop once
/// `within` has passed or the request is dropped (its client gone, or cut off by a
/// timeout), so that a handler's check costs at most its time and nothing after its
/// request is gone. The engine's own result says whether it was stopped.
pub async fn bounded<T: Send + 'static>(
    within: Duration,
    check: impl FnOnce(&mut dyn Monitor) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let dropped = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(dropped.clone());
    let mut deadline = Deadline { until: Instant::now() + within, dropped };
    blocking(move || check(&mut deadline)).await
}

/// Goes on until its time is up or its request is dropped.
struct Deadline {
    until: Instant,
    dropped: Arc<AtomicBool>,
}

impl Monitor for Deadline {
    fn update(&mut self, _: u64, _: u64) -> bool {
        !self.dropped.load(Ordering::Relaxed) && Instant::now() < self.until
    }
}

/// Held by the request's future: dropping it (the request abandoned) stops the check.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check that goes on as long as its monitor lets it; sets `ended` when it stops.
    fn endless(ended: Arc<AtomicBool>) -> impl FnOnce(&mut dyn Monitor) + Send + 'static {
        move |monitor| {
            while monitor.update(0, 0) {
                std::thread::sleep(Duration::from_millis(1));
            }
            ended.store(true, Ordering::Relaxed);
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_bounded_check_stops_at_its_time_or_as_soon_as_its_request_is_dropped() {
        let start = Instant::now();
        let ended = Arc::new(AtomicBool::new(false));
        bounded(Duration::from_millis(50), endless(ended.clone())).await.unwrap();
        assert!(ended.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(2));

        // A request given an hour, abandoned after 50 ms (its client gone): the check stops.
        let ended = Arc::new(AtomicBool::new(false));
        let check = bounded(Duration::from_secs(3600), endless(ended.clone()));
        assert!(tokio::time::timeout(Duration::from_millis(50), check).await.is_err());
        let dropped = Instant::now();
        while !ended.load(Ordering::Relaxed) {
            assert!(dropped.elapsed() < Duration::from_secs(5), "the check went on after its request was dropped");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[test]
    fn echo_quotes_short_input_and_cuts_long_input() {
        assert_eq!(echo("AB-12"), "\"AB-12\"");
        let long = "x".repeat(16_000);
        let echoed = echo(&long);
        assert!(echoed.len() < 250, "{echoed}");
        assert!(echoed.ends_with("… (16000 characters)"));
    }
}
