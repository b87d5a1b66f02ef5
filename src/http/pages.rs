//! The web pages for readers and publishers: plain HTML, CSS and JavaScript modules
//! embedded in the binary (no CDN, no build step). The pages talk to the JSON API.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use super::AppState;

/// Every file under `web/static/`, and the One Up example the engine tests use too:
/// name, media type, contents.
const ASSETS: &[(&str, &str, &[u8])] = &[
    ("oneup-example.txt", "text/plain; charset=utf-8", include_bytes!("../../data/oneup-2024-07-07.txt")),
    ("app.css", "text/css; charset=utf-8", include_bytes!("../../web/static/app.css")),
    ("app.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/app.js")),
    ("books.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/books.js")),
    ("crosswords.html", "text/html; charset=utf-8", include_bytes!("../../web/static/crosswords.html")),
    ("crosswords.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/crosswords.js")),
    ("favicon.svg", "image/svg+xml", include_bytes!("../../web/static/favicon.svg")),
    ("find.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/find.js")),
    ("foxhole.html", "text/html; charset=utf-8", include_bytes!("../../web/static/foxhole.html")),
    ("foxhole.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/foxhole.js")),
    ("index.html", "text/html; charset=utf-8", include_bytes!("../../web/static/index.html")),
    ("letters.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/letters.js")),
    ("oneup.html", "text/html; charset=utf-8", include_bytes!("../../web/static/oneup.html")),
    ("oneup.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/oneup.js")),
    ("order.html", "text/html; charset=utf-8", include_bytes!("../../web/static/order.html")),
    ("order.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/order.js")),
    ("serial.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/serial.js")),
    ("view.html", "text/html; charset=utf-8", include_bytes!("../../web/static/view.html")),
    ("view.js", "text/javascript; charset=utf-8", include_bytes!("../../web/static/view.js")),
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(|| page("index.html")))
        .route("/order", get(|| page("order.html")))
        .route("/books/{serial}/view", get(|| page("view.html")))
        .route("/foxhole", get(|| page("foxhole.html")))
        .route("/oneup", get(|| page("oneup.html")))
        .route("/crosswords", get(|| page("crosswords.html")))
        .route("/static/{file}", get(|Path(file): Path<String>| async move { asset(&file) }))
}

fn asset(name: &str) -> Result<Response, ApiError> {
    let (_, media_type, body) = ASSETS
        .iter()
        .find(|(file, _, _)| *file == name)
        .ok_or_else(|| ApiError::not_found(format!("there is no file {name:?}")))?;
    Ok(([(header::CONTENT_TYPE, *media_type), (header::CACHE_CONTROL, "no-cache")], *body).into_response())
}

async fn page(name: &'static str) -> Result<Response, ApiError> {
    asset(name)
}
