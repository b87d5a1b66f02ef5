//! Cross-cutting request handling: tracing with the request id, request metrics, and
//! problem+json bodies for errors produced outside handlers (405, timeouts, …), security
//! headers, cross-site refusal and the hosts a request may name.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::http::error::{problem, PROBLEM_JSON};
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

/// Longest `x-request-id` taken from a client; longer ones, and ones with anything but
/// visible ASCII, are replaced by a generated id (they end up in every log line).
const MAX_REQUEST_ID: usize = 200;

/// Drops an unfit `x-request-id`, so that the request-id layer generates one.
pub async fn sane_request_id(mut req: Request, next: Next) -> Response {
    let unfit = req
        .headers()
        .get_all("x-request-id")
        .iter()
        .any(|v| v.len() > MAX_REQUEST_ID || v.is_empty() || !v.as_bytes().iter().all(u8::is_ascii_graphic));
    if unfit {
        req.headers_mut().remove("x-request-id");
    }
    next.run(req).await
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

/// The host names requests may be addressed to. A web page on an attacker's domain whose
/// name is made to resolve to this server's address (DNS rebinding) reaches it with the
/// attacker's name in `Host`: such requests are refused. IP addresses are always allowed
/// (rebinding needs a name), as are `localhost` and the configured names.
#[derive(Debug, Clone)]
pub struct AllowedHosts {
    /// `*` was configured: every host.
    any: bool,
    /// Lower case, without a port or a final dot.
    names: Vec<String>,
}

impl AllowedHosts {
    /// `configured` (a `*` among them allows every host) and `localhost`.
    pub fn new(configured: impl IntoIterator<Item = String>) -> AllowedHosts {
        let mut names = vec!["localhost".to_string()];
        let mut any = false;
        for name in configured {
            let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
            match name.as_str() {
                "" => {}
                "*" => any = true,
                _ => names.push(name),
            }
        }
        names.sort();
        names.dedup();
        AllowedHosts { any, names }
    }

    /// Whether a request naming `host` (`name[:port]`, `[v6]:port`) is served.
    pub fn allows(&self, host: &str) -> bool {
        if self.any {
            return true;
        }
        let name =
            match host.strip_prefix('[') {
                Some(rest) => rest.split(']').next().unwrap_or(""),
                None => host.rsplit_once(':').map_or(host, |(name, port)| {
                    if port.bytes().all(|b| b.is_ascii_digit()) {
                        name
                    } else {
                        host
                    }
                }),
            };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        name.parse::<IpAddr>().is_ok() || self.names.contains(&name)
    }

    pub fn names(&self) -> String {
        if self.any {
            "*".into()
        } else {
            self.names.join(", ")
        }
    }
}

/// 421 for requests whose `Host` (or HTTP/2 authority) names a host this server does not
/// answer for; requests that name none (HTTP/1.0) pass.
pub async fn allowed_hosts(State(hosts): State<Arc<AllowedHosts>>, req: Request, next: Next) -> Response {
    let refused = match req.headers().get(header::HOST) {
        Some(value) => match value.to_str() {
            Ok(host) => (!hosts.allows(host)).then(|| host.chars().take(100).collect::<String>()),
            Err(_) => Some("(not text)".to_string()),
        },
        None => req.uri().authority().filter(|a| !hosts.allows(a.as_str())).map(|a| a.to_string()),
    };
    match refused {
        None => next.run(req).await,
        Some(host) => problem(
            StatusCode::MISDIRECTED_REQUEST,
            "Misdirected Request",
            &format!(
                "this server does not answer for the host {host:?}; its operator can allow it with --allowed-hosts"
            ),
            None,
        ),
    }
}

/// The address a server listening on `bind` is known by, for `AllowedHosts`: its own
/// host name when it listens on every interface (IP addresses are allowed anyway).
pub fn own_host_names(bind: SocketAddr) -> Vec<String> {
    if !bind.ip().is_unspecified() {
        return Vec::new();
    }
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| vec![h.trim().to_string()]).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_matched_without_port_case_or_final_dot_and_addresses_always_pass() {
        let hosts = AllowedHosts::new(["Books.Example.com".to_string()]);
        for host in [
            "localhost",
            "localhost:8080",
            "books.example.com:443",
            "BOOKS.example.com.",
            "127.0.0.1:9",
            "[::1]:80",
            "10.1.2.3",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in ["evil.example", "evil.example:8080", "books.example.com.evil.example", "localhost.evil", ""] {
            assert!(!hosts.allows(host), "{host}");
        }
        assert!(AllowedHosts::new(["*".to_string()]).allows("evil.example"));
    }
}
