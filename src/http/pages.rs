//! The web pages for readers and publishers: plain HTML, CSS and JavaScript modules
//! embedded in the binary (no CDN, no build step). The pages talk to the JSON API.
//!
//! Every file carries a strong `ETag` (its SHA-256, computed at build time) and
//! `Cache-Control: no-cache`: browsers keep their copy but ask each time, and a matching
//! `If-None-Match` gets an empty 304, so a new binary's pages are never stale.

use axum::body::Body;
use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use axum::Router;
use headers::{ETag, HeaderMapExt, IfNoneMatch};
use rust_embed::{EmbeddedFile, RustEmbed};

use super::error::ApiError;

/// Everything under `web/static/`, served under its own name.
#[derive(RustEmbed)]
#[folder = "web/static/"]
struct Static;

/// The One Up example the engine tests use too, served as `oneup-example.txt`.
#[derive(RustEmbed)]
#[folder = "data/"]
#[include = "oneup-2024-07-07.txt"]
struct Data;

/// The grid's typeface as the PDFs print it, so the web page draws the same letter shapes.
#[derive(RustEmbed)]
#[folder = "fonts/"]
#[include = "DejaVuSansMono*.ttf"]
struct Fonts;

/// The pages and their files; they need no state, so any router can merge them.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", page("index.html"))
        .route("/order", page("order.html"))
        .route("/books/{serial}/view", page("view.html"))
        .route("/foxhole", page("foxhole.html"))
        .route("/oneup", page("oneup.html"))
        .route("/crosswords", page("crosswords.html"))
        .route("/wordsearch", page("wordsearch.html"))
        .route("/static/{file}", get(static_file))
}

async fn static_file(Path(file): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    asset(&file, &headers)
}

fn page<S: Clone + Send + Sync + 'static>(name: &'static str) -> MethodRouter<S> {
    get(move |headers: HeaderMap| async move { asset(name, &headers) })
}

/// Whether a GET asks for a page rather than JSON: a browser's navigation (its `Accept`
/// names `text/html`). For addresses that are both a page and an API listing.
pub fn wants_page(request: &HeaderMap) -> bool {
    request.get_all(header::ACCEPT).iter().any(|v| v.to_str().is_ok_and(|v| v.contains("text/html")))
}

/// The page `name` at an address that also answers JSON: said to caches with `Vary`.
pub fn negotiated_page(name: &str, request: &HeaderMap) -> Result<Response, ApiError> {
    let mut response = asset(name, request)?;
    response.headers_mut().insert(header::VARY, HeaderValue::from_static("accept"));
    Ok(response)
}

fn lookup(name: &str) -> Option<EmbeddedFile> {
    match name {
        "oneup-example.txt" => Data::get("oneup-2024-07-07.txt"),
        _ if name.ends_with(".ttf") => Fonts::get(name),
        _ => Static::get(name),
    }
}

/// The file `name`, or 304 when the request's `If-None-Match` names its current ETag.
fn asset(name: &str, request: &HeaderMap) -> Result<Response, ApiError> {
    let file =
        lookup(name).ok_or_else(|| ApiError::not_found(format!("there is no file {}", super::respond::echo(name))))?;
    let hash: String = file.metadata.sha256_hash().iter().map(|b| format!("{b:02x}")).collect();
    let etag: ETag = format!("\"{hash}\"").parse().expect("a quoted hex digest is a valid ETag");
    let mut headers = HeaderMap::new();
    headers.typed_insert(etag.clone());
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // IfNoneMatch compares weakly, as RFC 9110 asks for GET, and understands `*` and lists.
    if request.typed_get::<IfNoneMatch>().is_some_and(|wanted| !wanted.precondition_passes(&etag)) {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    headers.insert(header::CONTENT_TYPE, media_type(file.metadata.mimetype()));
    Ok((headers, Body::from(file.data)).into_response())
}

/// The media type guessed from the file name; text is UTF-8, said so explicitly since
/// browsers otherwise guess (a `.txt` file may show mojibake).
fn media_type(guessed: &str) -> HeaderValue {
    let value = if guessed.starts_with("text/") { format!("{guessed}; charset=utf-8") } else { guessed.to_string() };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;
    use axum::http::Request;
    use tower::ServiceExt;

    async fn get(path: &str, if_none_match: Option<&str>) -> Response {
        let mut request = Request::get(path);
        if let Some(tag) = if_none_match {
            request = request.header(header::IF_NONE_MATCH, tag);
        }
        router::<()>().oneshot(request.body(Body::empty()).unwrap()).await.unwrap()
    }

    fn header_of(response: &Response, name: header::HeaderName) -> &str {
        response.headers().get(name).map_or("", |v| v.to_str().unwrap())
    }

    #[tokio::test]
    async fn assets_revalidate_with_their_etag() {
        let first = get("/static/app.js", None).await;
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(header_of(&first, header::CONTENT_TYPE), "text/javascript; charset=utf-8");
        assert_eq!(header_of(&first, header::CACHE_CONTROL), "no-cache");
        let etag = header_of(&first, header::ETAG).to_string();
        assert!(etag.starts_with('"') && etag.len() == 66, "{etag}");
        let body = to_bytes(first.into_body(), usize::MAX).await.unwrap();
        assert_eq!(&body[..], &std::fs::read("web/static/app.js").unwrap()[..]);

        let again = get("/static/app.js", Some(&etag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(header_of(&again, header::ETAG), etag);
        assert!(to_bytes(again.into_body(), usize::MAX).await.unwrap().is_empty());

        // A list holding the tag, and the weak form of it, match too; another tag does not.
        let list = format!("\"0000\", W/{etag}");
        assert_eq!(get("/static/app.js", Some(&list)).await.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(get("/static/app.js", Some("\"0000\"")).await.status(), StatusCode::OK);
        // Each file has its own tag.
        assert_eq!(get("/static/app.css", Some(&etag)).await.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn pages_and_the_example_are_served() {
        for path in ["/", "/order", "/books/ABC/view", "/foxhole", "/oneup", "/crosswords", "/wordsearch"] {
            let page = get(path, None).await;
            assert_eq!(page.status(), StatusCode::OK, "{path}");
            assert_eq!(header_of(&page, header::CONTENT_TYPE), "text/html; charset=utf-8", "{path}");
            assert!(page.headers().contains_key(header::ETAG), "{path}");
        }
        let example = get("/static/oneup-example.txt", None).await;
        assert_eq!(header_of(&example, header::CONTENT_TYPE), "text/plain; charset=utf-8");
        let body = to_bytes(example.into_body(), usize::MAX).await.unwrap();
        assert_eq!(&body[..], crate::puzzles::oneup::EXAMPLE.as_bytes());
        assert_eq!(header_of(&get("/static/favicon.svg", None).await, header::CONTENT_TYPE), "image/svg+xml");
        let font = get("/static/DejaVuSansMono-Bold.ttf", None).await;
        assert_eq!(header_of(&font, header::CONTENT_TYPE), "font/ttf");
        let body = axum::body::to_bytes(font.into_body(), usize::MAX).await.unwrap();
        assert_eq!(&body[..], &std::fs::read("fonts/DejaVuSansMono-Bold.ttf").unwrap()[..]);
        assert_eq!(header_of(&get("/static/app.css", None).await, header::CONTENT_TYPE), "text/css; charset=utf-8");
    }

    #[tokio::test]
    async fn unknown_files_are_problems() {
        for path in ["/static/nope.js", "/static/oneup-2024-07-07.txt", "/static/words.txt"] {
            let missing = get(path, None).await;
            assert_eq!(missing.status(), StatusCode::NOT_FOUND, "{path}");
            assert_eq!(header_of(&missing, header::CONTENT_TYPE), "application/problem+json");
            let body: serde_json::Value =
                serde_json::from_slice(&to_bytes(missing.into_body(), usize::MAX).await.unwrap()).unwrap();
            assert_eq!(body["status"], 404);
        }
    }
}
