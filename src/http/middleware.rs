//! Cross-cutting request handling: tracing with the request id, request metrics, and
//! problem+json bodies for errors produced outside handlers (405, timeouts, …).

use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use super::error::{problem, PROBLEM_JSON};
use crate::metrics::Metrics;

/// A span per request carrying the `x-request-id` set by the request-id layer.
pub fn trace_layer() -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, impl Fn(&Request) -> tracing::Span + Clone>
{
    TraceLayer::new_for_http()
        .make_span_with(|req: &Request| {
            let request_id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id)
        })
        .on_response(DefaultOnResponse::new().level(Level::INFO))
}

pub async fn count_requests(State(metrics): State<Arc<Metrics>>, req: Request, next: Next) -> Response {
    // Invented methods would each add a metrics series: only the standard ones are named.
    let method = match req.method().as_str() {
        m @ ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS") => m.to_string(),
        _ => "other".to_string(),
    };
    let route =
        req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()).unwrap_or_else(|| "unmatched".into());
    let response = next.run(req).await;
    metrics.http_request(&method, &route, response.status().as_u16());
    response
}

/// Gives bare error responses from axum and tower layers a problem+json body.
pub async fn problem_bodies(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    let is_problem =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let detail = match status.as_u16() {
        405 => "this route does not accept that method; see the Allow header",
        408 => "the request took too long and was abandoned",
        413 => "the request body is larger than 1 MiB",
        _ => "the request could not be handled",
    };
    let title = status.canonical_reason().unwrap_or("Error");
    let mut replacement = problem(status, title, detail, None);
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = response.headers().get(&name) {
            replacement.headers_mut().insert(name, v.clone());
        }
    }
    replacement
}
