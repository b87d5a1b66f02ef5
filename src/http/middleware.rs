//! Cross-cutting request handling: tracing with the request id, request metrics, and
//! problem+json bodies for errors produced outside handlers (405, timeouts, …), security
//! headers, cross-site refusal and the anonymous rate limit.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use super::error::{problem, ApiError, PROBLEM_JSON};
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
        413 => "the request body is larger than this route accepts (1 MiB; word list uploads 64 MiB)",
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

/// Longest request target answered normally; longer ones get 414.
const MAX_URI_BYTES: usize = 8 * 1024;
/// Most header bytes (names and values) answered normally; more get 431. Heads above
/// `listen::MAX_HEAD_BYTES` never get here: hyper answers them with a bare 431.
const MAX_HEADER_BYTES: usize = 16 * 1024;

/// 414 and 431 as problem+json for heads that hyper accepted but we will not serve.
pub async fn head_limits(req: Request, next: Next) -> Response {
    let uri = req.uri().to_string().len();
    if uri > MAX_URI_BYTES {
        return problem(
            StatusCode::URI_TOO_LONG,
            "URI Too Long",
            &format!("the request target is {uri} bytes; at most {MAX_URI_BYTES} are accepted"),
            None,
        );
    }
    let headers: usize = req.headers().iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    if headers > MAX_HEADER_BYTES {
        return problem(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "Request Header Fields Too Large",
            &format!("the request headers are {headers} bytes; at most {MAX_HEADER_BYTES} are accepted"),
            None,
        );
    }
    next.run(req).await
}

/// The pages' policy: scripts, styles and images from this origin only, no inline code, no
/// framing, no plugins. API responses get the tightest policy (they are never documents).
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                           connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; \
                           frame-ancestors 'none'";
const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// Security headers on every response.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let is_page = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    // A 304 has no content type, and its headers replace the cached ones: it keeps the
    // policy the full response carried.
    let revalidated = response.status() == StatusCode::NOT_MODIFIED;
    let headers = response.headers_mut();
    if !revalidated {
        let policy = if is_page { PAGE_POLICY } else { API_POLICY };
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    headers.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    response
}

/// Refuses state-changing requests that a browser sends on another site's behalf: another
/// site may make a visitor's browser POST a "simple" request (no body, `text/plain`) here.
/// Requests with a key cannot be forged that way (a browser adds no `Authorization`
/// header across sites without a CORS preflight, which this service never grants), and
/// clients that are not browsers send neither header.
pub async fn same_site_only(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if safe || req.headers().contains_key(header::AUTHORIZATION) {
        return next.run(req).await;
    }
    let fetch_site = req.headers().get("sec-fetch-site").map(|v| v.as_bytes());
    let foreign = match fetch_site {
        Some(site) => !matches!(site, b"same-origin" | b"none"),
        None => match req.headers().get(header::ORIGIN) {
            Some(origin) => {
                let host = req.headers().get(header::HOST).map(|h| h.as_bytes()).unwrap_or_default();
                origin_host(origin.as_bytes()) != Some(host)
            }
            None => false,
        },
    };
    if foreign {
        return problem(
            StatusCode::FORBIDDEN,
            "Cross-site request",
            "this request came from another web site; send it from this site's pages, or with an API key",
            None,
        );
    }
    next.run(req).await
}

/// `host[:port]` of an `Origin` value (`null` and malformed origins have none).
fn origin_host(origin: &[u8]) -> Option<&[u8]> {
    let s = std::str::from_utf8(origin).ok()?;
    let rest = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://"))?;
    Some(rest.trim_end_matches('/').as_bytes())
}

/// The anonymous request budget: a token bucket per client network (IPv4 address, IPv6
/// /64), so serials cannot be scanned and one client cannot crowd out the rest.
pub struct AnonymousRate {
    limiter: governor::DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU64,
}

impl AnonymousRate {
    pub fn per_minute(n: u32) -> AnonymousRate {
        let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        // A burst of a quarter of the minute's budget: a page and its scripts load at once.
        let burst = NonZeroU32::new((n.get() / 4).max(1)).unwrap_or(NonZeroU32::MIN);
        AnonymousRate {
            limiter: governor::RateLimiter::keyed(governor::Quota::per_minute(n).allow_burst(burst)),
            checks: AtomicU64::new(0),
        }
    }

    /// `Err(seconds to wait)` when `address` is over its budget.
    fn check(&self, address: IpAddr) -> Result<(), u64> {
        let key = match address {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !((1u128 << 64) - 1))),
            },
            v4 => v4,
        };
        // Forget idle clients now and then, so the table stays the size of the active set.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 4096 == 4095 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(&governor::clock::DefaultClock::default()));
            wait.as_secs() + 1
        })
    }
}

/// 429 with `Retry-After` for anonymous clients over their budget.
pub async fn anonymous_rate(State(rate): State<Arc<AnonymousRate>>, req: Request, next: Next) -> Response {
    let address = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(a)| a.ip());
    if let (false, Some(address)) = (req.headers().contains_key(header::AUTHORIZATION), address) {
        if let Err(wait) = rate.check(address) {
            return ApiError::TooMany {
                detail: "too many requests without an API key from your address; slow down".into(),
                retry_after: wait,
            }
            .into_response();
        }
    }
    next.run(req).await
}
