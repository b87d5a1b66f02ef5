//! Every product's files (`book.pdf`, `cover.pdf`, `puzzle.puz`, …) served by one handler.
//! A product declares its files (each one's name, content type and query) and makes each
//! from what it has stored; this route finds the file (404 for a name the product does not
//! have; `routes` routes only its names), reads its query, makes it (a render within the render slots, once per key and
//! kept for later downloads; a small export off the async threads; or a file kept whole)
//! and answers with it: PDFs shown inline, other files saved.

use std::future::Future;
use std::pin::Pin;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use super::books::CoverQuery;
use super::edge::caller::Caller;
use super::error::ApiError;
use super::respond::{blocking, body_response, trim_query};
use super::AppState;
use crate::render::layouts::cover::Paper;
use crate::render::print::Trim;

/// One of a product's files.
pub struct File {
    /// Its name in the product's URL (`book.pdf`).
    pub name: &'static str,
    pub content_type: &'static str,
    pub query: Query,
}

impl File {
    pub const fn pdf(name: &'static str, query: Query) -> File {
        File { name, content_type: "application/pdf", query }
    }
}

/// What a file's query may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Nothing (a query given is not read).
    None,
    /// `trim`, the page size of a one-page PDF.
    Trim,
    /// `paper`, which sets a cover's spine.
    Paper,
}

/// What a file's query asked for.
#[derive(Debug, Default, Clone, Copy)]
pub struct Asked {
    pub trim: Trim,
    pub paper: Option<Paper>,
}

impl Query {
    fn parse(self, raw: Option<&str>) -> Result<Asked, ApiError> {
        Ok(match self {
            Query::None => Asked::default(),
            Query::Trim => Asked { trim: trim_query(raw)?, ..Asked::default() },
            Query::Paper => Asked { paper: CoverQuery::parse(raw)?.paper, ..Asked::default() },
        })
    }
}

/// Makes a file's bytes from what was read for it.
pub type Render = Box<dyn FnOnce() -> Result<Vec<u8>, ApiError> + Send>;

type Load<'a> = Pin<Box<dyn Future<Output = Result<Render, ApiError>> + Send + 'a>>;

/// How a file's bytes come.
enum Made<'a> {
    /// Kept whole by its job.
    Kept(Bytes),
    /// Rendered within the render slots once `load` has read what it needs; `key` names
    /// the bytes exactly, so that one render serves every download of them.
    Rendered { key: String, load: Load<'a> },
    /// Written off the async threads: small, not worth a render slot.
    Written(Render),
}

/// A file as its product makes it, and the name it is saved as.
pub struct Download<'a> {
    made: Made<'a>,
    filename: String,
}

impl<'a> Download<'a> {
    pub fn kept(filename: String, bytes: impl Into<Bytes>) -> Self {
        Download { made: Made::Kept(bytes.into()), filename }
    }

    pub fn rendered(
        filename: String,
        key: String,
        render: impl FnOnce() -> Result<Vec<u8>, ApiError> + Send + 'static,
    ) -> Self {
        let render: Render = Box::new(render);
        Download::loaded(filename, key, async { Ok(render) })
    }

    /// [`Download::rendered`], reading what the render needs only if its bytes are not
    /// kept already (a book's pages).
    pub fn loaded(
        filename: String,
        key: String,
        load: impl Future<Output = Result<Render, ApiError>> + Send + 'a,
    ) -> Self {
        Download { made: Made::Rendered { key, load: Box::pin(load) }, filename }
    }

    pub fn written(filename: String, write: impl FnOnce() -> Result<Vec<u8>, ApiError> + Send + 'static) -> Self {
        Download { made: Made::Written(Box::new(write)), filename }
    }
}

/// A product with files.
pub trait Product: Send + Sync + 'static {
    const FILES: &'static [File];

    /// `file` of product `id` for `caller`, as `asked`: 404 for a product the caller may
    /// not see, 409 while it is not made yet.
    fn make<'a>(
        state: &'a AppState,
        caller: &'a Caller,
        id: &'a str,
        file: &'static File,
        asked: Asked,
    ) -> impl Future<Output = Result<Download<'a>, ApiError>> + Send + 'a;
}

/// `GET {base}/{file}` for each of `P`'s files (`base` ends with the product's id).
pub fn routes<P: Product>(base: &str) -> Router<AppState> {
    P::FILES
        .iter()
        .fold(Router::new(), |router, file| router.route(&format!("{base}/{}", file.name), get(download::<P>)))
}

/// The one handler of every product's files: the file is the path's last segment.
async fn download<P: Product>(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    uri: Uri,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let name = uri.path().rsplit('/').next().unwrap_or_default();
    let file = P::FILES.iter().find(|f| f.name == name).ok_or_else(super::no_route)?;
    let asked = file.query.parse(query.as_deref())?;
    let download = P::make(&state, &caller, &id, file, asked).await?;
    let bytes = match download.made {
        Made::Kept(bytes) => bytes,
        Made::Rendered { key, load } => state.renders.pdf(&caller.owner(), Some(&key), load, |render| render()).await?,
        Made::Written(write) => Bytes::from(blocking(write).await??),
    };
    let disposition = if file.content_type == "application/pdf" { "inline" } else { "attachment" };
    Ok(body_response(bytes, file.content_type, disposition, &download.filename))
}
