//! Every product's files (`book.pdf`, `cover.pdf`, `puzzle.puz`, …) served by one handler.
//! A product declares its files (each one's name, content type and query) and makes each
//! from what it has stored; this route finds the file (404 for a name the product does not
//! have; `routes` routes only its names), reads its query, makes it (a render within the render slots, once per key and
//! kept for later downloads; a small export off the async threads; or a file kept whole)
//! and answers with it: PDFs shown inline, other files saved.

use std::future::Future;
use std::pin::Pin;

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use utoipa::openapi::path::{HttpMethod, Paths};

use super::books::CoverQuery;
use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::respond::{blocking, body_response, trim_query};
use super::AppState;
use crate::render::print::Trim;

/// One of a product's files, and what the API description says of it.
pub struct File {
    /// Its name in the product's URL (`book.pdf`).
    pub name: &'static str,
    pub content_type: &'static str,
    pub query: Query,
    /// The file in a few words (`PDF.`), its summary and its description (empty: none).
    pub what: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    /// Made only once its product is (409 until then).
    pub waits: bool,
    /// Only for the product's publisher (403 for others).
    pub publisher_only: bool,
}

impl File {
    pub const fn pdf(name: &'static str, query: Query, summary: &'static str) -> File {
        File::of(name, "application/pdf", "PDF.", summary).query(query)
    }

    pub const fn svg(name: &'static str, query: Query, summary: &'static str) -> File {
        File::of(name, "image/svg+xml", "SVG.", summary).query(query)
    }

    /// A file of `content_type` without a query.
    pub const fn of(name: &'static str, content_type: &'static str, what: &'static str, summary: &'static str) -> File {
        File {
            name,
            content_type,
            query: Query::None,
            what,
            summary,
            description: "",
            waits: true,
            publisher_only: false,
        }
    }

    const fn query(self, query: Query) -> File {
        File { query, ..self }
    }

    pub const fn described(self, description: &'static str) -> File {
        File { description, ..self }
    }

    /// A file made as soon as its product is asked for.
    pub const fn at_once(self) -> File {
        File { waits: false, ..self }
    }

    pub const fn publisher_only(self) -> File {
        File { publisher_only: true, ..self }
    }
}

/// How a product's id stands in its URL.
pub enum Id {
    /// `{id}`, a job's uuid, described.
    Uuid(&'static str),
    /// `{serial}`, a book's serial number.
    Serial,
}

/// What a file's query may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Nothing (a query given is not read).
    None,
    /// `trim`, the page size of a one-page PDF.
    Trim,
    /// A cover's `paper`, which sets its spine, and `palette`.
    Cover,
}

/// A file asked for: `file` of product `id`, for `caller`, and what its query holds.
pub struct Asked<'a> {
    pub state: &'a AppState,
    pub caller: &'a Caller,
    pub id: &'a str,
    pub file: &'static File,
    pub trim: Trim,
    /// A cover's paper and palette.
    pub cover: CoverQuery,
}

impl Query {
    /// The trim, paper and palette `raw` asks for (422 naming what is wrong).
    fn parse(self, raw: Option<&str>) -> Result<(Trim, CoverQuery), ApiError> {
        Ok(match self {
            Query::None => (Trim::default(), CoverQuery::default()),
            Query::Trim => (trim_query(raw)?, CoverQuery::default()),
            Query::Cover => (Trim::default(), CoverQuery::parse(raw)?),
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
    /// Sent as it is made, by a task of the product's own (a print run's archive).
    Streamed(Body),
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

    pub fn streamed(filename: String, body: Body) -> Self {
        Download { made: Made::Streamed(body), filename }
    }
}

/// A product with files.
pub trait Product: Send + Sync + 'static {
    /// The product's URL (its id a path parameter), under which its files are; its first
    /// segment is their tag in the API description.
    const BASE: &'static str;
    const ID: Id;
    /// The response while it is not made (`NotPrinted` for a book).
    const NOT_MADE: &'static str = "Conflict";
    const FILES: &'static [File];

    /// The file `asked` for: 404 for a product the caller may not see, 409 while it is
    /// not made yet.
    fn make(asked: Asked<'_>) -> impl Future<Output = Result<Download<'_>, ApiError>> + Send + '_;
}

/// `GET {base}/{file}` for each of `P`'s files.
pub fn routes<P: Product>() -> Router<AppState> {
    P::FILES
        .iter()
        .fold(Router::new(), |router, file| router.route(&format!("{}/{}", P::BASE, file.name), get(download::<P>)))
}

/// Documents `GET {base}/{file}` for each of `P`'s files in `paths`.
pub fn document<P: Product>(paths: &mut Paths) {
    use utoipa::openapi::path::OperationBuilder;
    use utoipa::openapi::{Content, Ref, RefOr, ResponseBuilder, Responses};
    use utoipa::IntoParams;
    let id = match P::ID {
        Id::Uuid(description) => vec![super::openapi::uuid_id(description)],
        Id::Serial => super::books::SerialParam::into_params(|| None),
    };
    for file in P::FILES {
        let mut params = id.clone();
        params.extend(match file.query {
            Query::None => Vec::new(),
            Query::Trim => super::respond::TrimQuery::into_params(|| None),
            Query::Cover => CoverQuery::into_params(|| None),
        });
        let ok =
            ResponseBuilder::new().description(file.what).content(file.content_type, Content::new(None::<RefOr<_>>));
        let mut responses = Responses::new();
        responses.responses.insert("200".into(), ok.build().into());
        let refs = [
            ("403", file.publisher_only.then_some("NotYours")),
            ("409", file.waits.then_some(P::NOT_MADE)),
            ("422", (file.query != Query::None).then_some("Invalid")),
        ];
        for (status, name) in refs {
            if let Some(name) = name {
                responses.responses.insert(status.into(), RefOr::Ref(Ref::from_response_name(name)));
            }
        }
        let operation = OperationBuilder::new()
            .tag(P::BASE.split('/').nth(1).unwrap_or_default())
            .summary(Some(file.summary))
            .description((!file.description.is_empty()).then_some(file.description))
            .parameters(Some(params))
            .responses(responses);
        paths.add_path_operation(format!("{}/{}", P::BASE, file.name), vec![HttpMethod::Get], operation.build());
    }
}

/// The one handler of every product's files: the file is the path's last segment.
async fn download<P: Product>(
    Call { state, caller }: Call,
    Path(id): Path<String>,
    uri: Uri,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let name = uri.path().rsplit('/').next().unwrap_or_default();
    let file = P::FILES.iter().find(|f| f.name == name).ok_or_else(super::no_route)?;
    let (trim, cover) = file.query.parse(query.as_deref())?;
    let download = P::make(Asked { state: &state, caller: &caller, id: &id, file, trim, cover }).await?;
    let body = match download.made {
        Made::Kept(bytes) => Body::from(bytes),
        Made::Rendered { key, load } => {
            Body::from(state.renders.pdf(&caller.owner(), Some(&key), load, |render| render()).await?)
        }
        Made::Written(write) => Body::from(blocking(write).await??),
        Made::Streamed(body) => body,
    };
    let disposition = if file.content_type == "application/pdf" { "inline" } else { "attachment" };
    Ok(body_response(body, file.content_type, disposition, &download.filename))
}
