//! The API description, generated from the handlers' `#[utoipa::path]` annotations and the
//! request and response types themselves. `openapi.yaml` at the top of the repository is
//! this document, committed (`cargo run --release -- openapi > openapi.yaml`); a test
//! fails when the two differ. `GET /openapi.yaml` serves it.

use std::sync::OnceLock;

use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::path::Operation;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, Ref, RefOr, Required};
use utoipa::OpenApi;

use super::error::{Problem, PROBLEM_JSON};
use super::{
    books, crosswords, dictionaries, files, foxhole, graycodes, health, jobs, listing, oneup, printruns, wordlists,
    wordsearches,
};
use crate::jobs::kinds::{
    Books, CrosswordFills, Dictionaries, OneUpBooks, OneUpPuzzles, WordSearchBooks, WordSearches,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "puzzlepress",
        description = "Prints unique Find-the-Fox books and solves puzzles. CPU-bound work is queued as a job: the \
                       POST answers 202 with a `Location` to poll. Every error is RFC 9457 \
                       `application/problem+json`. Request bodies never hold `null`: leave a member out to take its \
                       default."
    ),
    servers((url = "http://127.0.0.1:8080")),
    tags(
        (name = "pages", description = "The web pages for readers and publishers."),
        (name = "service", description = "Health, metrics and this document."),
        (name = "jobs", description = "Every queued job, whatever its kind."),
        (name = "books", description = "Find the Fox books."),
        (name = "oneup", description = "One Up puzzles."),
        (name = "crosswords", description = "Crossword patterns, fills and word squares."),
        (name = "foxhole", description = "Fox in a hole."),
        (name = "graycodes", description = "Gray codes."),
        (name = "dictionaries", description = "Dictionaries and glossaries typeset as print-ready books."),
        (name = "wordsearches", description = "Word searches: every word of the list exactly once, nothing else by accident."),
    ),
    paths(
        page_find_the_fox, page_order, page_book_viewer, page_foxhole, page_oneup, page_crosswords, page_wordsearch, static_file,
        health::healthz, health::readyz, health::metrics, health::openapi_yaml,
        jobs::show, jobs::cancel,
        books::order, books::show, books::delete, books::page, books::answer,
        printruns::order, printruns::show, printruns::delete, printruns::manifest_json,
        oneup::create_solve, oneup::show_solve, oneup::create_puzzle, oneup::show_puzzle, oneup::create_hint,
        oneup::create_book, oneup::show_book,
        crosswords::patterns, crosswords::show_patterns, crosswords::fills, crosswords::show_fill, crosswords::word_squares, crosswords::show_word_squares,
        wordlists::upload, wordlists::list, wordlists::show, wordlists::remove,
        foxhole::strategy, foxhole::show_strategy, foxhole::check,
        graycodes::create, graycodes::show,
        dictionaries::create, dictionaries::show,
        wordsearches::create, wordsearches::show, wordsearches::create_book, wordsearches::show_book,
    ),
    components(
        schemas(Problem),
        responses(
            BadRequest, BadSerial, Invalid, NotFound, Conflict, NotPrinted, TooLarge, UnsupportedMediaType, Unavailable,
            Unauthorized, TooMany, CrossSite, RequestTimeout, MisdirectedRequest, NotYours, InsufficientStorage
        ),
    ),
)]
struct ApiDoc;

/// The API description.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.info.license = None;
    if let Some(components) = doc.components.as_mut() {
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("pp_…").build()),
        );
    }
    doc.info.contact = None;
    // Every product's files, from what it declares of them.
    files::document::<Books>(&mut doc.paths);
    files::document::<CrosswordFills>(&mut doc.paths);
    files::document::<Dictionaries>(&mut doc.paths);
    files::document::<OneUpPuzzles>(&mut doc.paths);
    files::document::<OneUpBooks>(&mut doc.paths);
    files::document::<WordSearchBooks>(&mut doc.paths);
    files::document::<printruns::PrintRuns>(&mut doc.paths);
    // Every listing (and the deletion of job-backed resources).
    listing::document::<Books>(&mut doc);
    listing::document::<jobs::Jobs>(&mut doc);
    listing::document::<printruns::PrintRuns>(&mut doc);
    listing::document::<CrosswordFills>(&mut doc);
    listing::document::<Dictionaries>(&mut doc);
    listing::document::<OneUpBooks>(&mut doc);
    listing::document::<WordSearches>(&mut doc);
    listing::document::<WordSearchBooks>(&mut doc);
    queued_responses(&mut doc.paths);
    for (path, item) in doc.paths.paths.iter_mut() {
        // Print runs are documented with books, word lists with the crosswords they fill.
        let tag =
            [("/printruns", "books"), ("/wordlists", "crosswords")].into_iter().find(|(p, _)| path.starts_with(p));
        for (method, op) in [("get", &mut item.get), ("post", &mut item.post), ("delete", &mut item.delete)] {
            if let Some(op) = op {
                if let Some((_, tag)) = tag {
                    op.tags = Some(vec![tag.to_string()]);
                }
                op.operation_id = Some(operation_id(method, path));
                idempotent(op);
                accepted_has_location(op);
                body_responses(op);
                caller_responses(path, op);
                edge_responses(path, method, op);
            }
        }
        // A body is optional where a missing one means "all defaults".
        if matches!(path.as_str(), "/books" | "/oneup/puzzles" | "/oneup/books") {
            if let Some(RefOr::T(body)) = item.post.as_mut().and_then(|op| op.request_body.as_mut()) {
                body.required = Some(Required::False);
            }
        }
    }
    doc
}

/// `getBooksSerialBookPdf` for `GET /books/{serial}/book.pdf`: unique, as handler names
/// are not.
fn operation_id(method: &str, path: &str) -> String {
    let mut id = method.to_string();
    for word in path.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        id.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        id.extend(chars);
    }
    if path == "/" {
        id.push_str("Index");
    }
    id
}

/// The description as YAML, generated once.
pub fn yaml() -> &'static str {
    static YAML: OnceLock<String> = OnceLock::new();
    YAML.get_or_init(|| openapi().to_yaml().expect("the API description serializes"))
}

/// The path parameter `{id}` of a job-backed resource, described.
pub(crate) fn uuid_id(description: &str) -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::schema::{KnownFormat, SchemaFormat};
    let uuid =
        ObjectBuilder::new().schema_type(Type::String).format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid)));
    ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .description(Some(description))
        .required(Required::True)
        .schema(Some(uuid))
        .build()
}

/// utoipa's `Header` has no `required`: it is carried as an extension, which serializes
/// as a member of the header object like any other.
fn required(mut header: Header) -> Header {
    header.extensions = Some(Extensions::from_iter([("required", true)]));
    header
}

/// Operations that know their caller read `Authorization: Bearer` (a bad token is 401)
/// and the database (503 while it is unreachable), and those on one resource answer 404
/// when there is none (or the caller may not see it), 400 for a serial mistyped;
/// those that queue a job do so for their caller, who may have too many already (429).
fn caller_responses(path: &str, op: &mut Operation) {
    let knows_caller = [
        "/books",
        "/printruns",
        "/jobs",
        "/oneup",
        "/crosswords",
        "/wordsquares",
        "/wordlists",
        "/foxhole/strategies",
        "/graycodes",
        "/dictionaries",
        "/wordsearches",
        "/metrics",
    ]
    .iter()
    .any(|prefix| path.starts_with(prefix))
        && !path.ends_with("/view");
    if knows_caller {
        op.responses.responses.insert("401".into(), RefOr::Ref(Ref::from_response_name("Unauthorized")));
        // Knowing the caller reads the database (is the service closed? whose token?).
        let mut add = |status: &str, name: &str| {
            op.responses.responses.entry(status.into()).or_insert_with(|| RefOr::Ref(Ref::from_response_name(name)));
        };
        add("503", "Unavailable");
        if path.contains('{') {
            add("404", "NotFound");
        }
        if path.contains("{serial}") {
            add("400", "BadSerial");
        }
        op.security =
            Some(vec![SecurityRequirement::default(), SecurityRequirement::new("bearer", Vec::<String>::new())]);
    }
    if op.responses.responses.contains_key("202") {
        op.responses.responses.insert("429".into(), RefOr::Ref(Ref::from_response_name("TooMany")));
        // Those that make a kept product count it against the caller's storage.
        let product =
            ["/books", "/printruns", "/dictionaries", "/oneup/books", "/crosswords/fills", "/wordsearches/books"];
        if product.contains(&path) {
            op.responses.responses.insert("507".into(), RefOr::Ref(Ref::from_response_name("InsufficientStorage")));
        }
    }
}

/// What the limits in front of the routes answer: 421 on every route (the probes too) for
/// a `Host` this server does not serve; on every route but the probes, 408 for a request
/// that takes too long, 429 past the anonymous rate limit; for a request that changes
/// something, 403 when a browser sends it for another site and 413 for a body over the
/// limit.
fn edge_responses(path: &str, method: &str, op: &mut Operation) {
    let responses = &mut op.responses.responses;
    let mut add = |status: &str, name: &str| {
        responses.entry(status.into()).or_insert_with(|| RefOr::Ref(Ref::from_response_name(name)));
    };
    add("421", "MisdirectedRequest");
    if matches!(path, "/healthz" | "/readyz") {
        return;
    }
    add("408", "RequestTimeout");
    add("429", "TooMany");
    if method != "get" {
        add("403", "CrossSite");
    }
    if method == "post" {
        add("413", "TooLarge");
    }
}

/// A POST that declares no answer queues a job-backed resource: 202 with the resource (as
/// `GET {path}/{id}` shows it) at `Location`.
fn queued_responses(paths: &mut utoipa::openapi::path::Paths) {
    let mut queued = Vec::new();
    for (path, item) in &paths.paths {
        let Some(post) = item.post.as_ref().filter(|op| op.responses.responses.is_empty()) else { continue };
        let shown = paths.paths.get(&format!("{path}/{{id}}")).and_then(|item| item.get.as_ref());
        let Some(RefOr::T(view)) = shown.and_then(|op| op.responses.responses.get("200")) else {
            panic!("POST {path} declares no answer, and there is no GET {path}/{{id}} to say what it queues")
        };
        let location = HeaderBuilder::new()
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .description(Some(format!("`{path}/{{id}}`")))
            .build();
        let mut accepted =
            ResponseBuilder::new().description("Queued; follow it at `Location`.").header("Location", location).build();
        accepted.content = view.content.clone();
        let mut post = post.clone();
        post.responses.responses.insert("202".into(), accepted.into());
        queued.push((path.clone(), post));
    }
    for (path, post) in queued {
        if let Some(item) = paths.paths.get_mut(&path) {
            item.post = Some(post);
        }
    }
}

/// An operation that queues a job (202) takes an `Idempotency-Key`.
fn idempotent(op: &mut Operation) {
    use utoipa::IntoParams;
    if op.responses.responses.contains_key("202") && op.request_body.is_some() {
        let params = op.parameters.get_or_insert_with(Vec::new);
        if !params.iter().any(|p| matches!(p, RefOr::T(p) if p.name == "Idempotency-Key")) {
            params.extend(IdempotencyKey::into_params(|| None).into_iter().map(RefOr::T));
        }
    }
}

/// What reading a request body may answer: 400 (unreadable), 413 (too large), 415 (a media
/// type the operation does not read) and 422 (a member at fault).
fn body_responses(op: &mut Operation) {
    if op.request_body.is_none() {
        return;
    }
    for (status, name) in
        [("400", "BadRequest"), ("413", "TooLarge"), ("415", "UnsupportedMediaType"), ("422", "Invalid")]
    {
        op.responses.responses.entry(status.into()).or_insert_with(|| RefOr::Ref(Ref::from_response_name(name)));
    }
}

/// A 202 that queued a job always sends `Location`.
fn accepted_has_location(op: &mut Operation) {
    if let Some(RefOr::T(response)) = op.responses.responses.get_mut("202") {
        if let Some(RefOr::T(location)) = response.headers.remove("Location") {
            response.headers.insert("Location".into(), RefOr::T(required(location)));
        }
    }
}

fn integer_header(description: &str) -> Header {
    HeaderBuilder::new()
        .schema(Some(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0))))
        .description(Some(description))
        .build()
}

/// How a problem response carries `Retry-After`.
enum RetryAfter {
    Never,
    Sometimes,
    Always,
}

fn problem_response(description: &str, retry_after: RetryAfter) -> Response {
    use utoipa::ToSchema;
    let mut response = ResponseBuilder::new()
        .description(description)
        .content(PROBLEM_JSON, Content::new(Some(Ref::from_schema_name(Problem::name()))));
    match retry_after {
        RetryAfter::Never => {}
        RetryAfter::Sometimes => {
            response = response
                .header("Retry-After", integer_header("Seconds to wait before asking again, while it may change."))
        }
        RetryAfter::Always => {
            response = response.header("Retry-After", required(integer_header("Seconds to wait before retrying.")))
        }
    }
    response.build()
}

/// Reusable problem+json responses (`#/components/responses/…`).
macro_rules! problem_responses {
    ($($name:ident: $retry_after:ident, $description:literal;)*) => {$(
        #[doc = $description]
        pub struct $name;

        impl<'r> utoipa::ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), problem_response($description, RetryAfter::$retry_after).into())
            }
        }
    )*};
}

problem_responses! {
    BadRequest: Never, "The body is not valid JSON (or otherwise unreadable).";
    BadSerial: Never, "The serial is malformed, or mistyped (its check symbol does not match).";
    Invalid: Never, "A member is missing, null, of the wrong type or out of range (`field` names it), a line of a \
                     text body is wrong (`line` names it), or the Idempotency-Key was used for a different request.";
    NotFound: Never, "No such resource (or route).";
    Conflict: Sometimes, "The resource is not in a state that allows this (yet); while it may still change, \
                          `Retry-After` says when to look again.";
    NotPrinted: Sometimes, "The book is not printed (yet); while it is printing, `Retry-After` says when to look again.";
    TooLarge: Never, "The body is larger than this operation reads (1 MiB of JSON; a word list: the caller's \
                      tier's maximum), or with it the caller's stored word lists would pass their quota.";
    UnsupportedMediaType: Never, "The body is not sent with a media type this operation reads.";
    Unavailable: Always, "The job queue is full, every PDF renderer is busy, too many word lists are being uploaded, \
                          every connection has a request in flight, or the database is unreachable; retry after \
                          `Retry-After` seconds.";
    InsufficientStorage: Never, "The caller keeps as many bytes of products as it may (`--storage-per-key-mib`, \
                                 `--storage-per-address-mib`); delete some to make room.";
    Unauthorized: Never, "The `Authorization: Bearer` token is malformed, unknown or revoked (or one is needed); \
                          `WWW-Authenticate: Bearer` says how to send one.";
    TooMany: Always, "The caller is at one of its limits: requests a minute without a key, jobs queued or running, \
                      PDFs rendering at once, or word lists kept; retry after `Retry-After` seconds.";
    CrossSite: Never, "A browser sent this request for another web site (`Sec-Fetch-Site` or `Origin`); send it from \
                       this site's pages, or with an API key.";
    RequestTimeout: Never, "The request took too long: its body stopped arriving, or the answer was not ready in \
                            time.";
    MisdirectedRequest: Never, "The `Host` header names a host this server does not serve (`--allowed-hosts`).";
    NotYours: Never, "The book is another publisher's: its pages other than the answer's and its PDFs are theirs \
                      (a caller without a key gets 401: the publisher's key may help).";
}

/// The optional `Idempotency-Key` header of the POSTs that queue a job.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)]
pub struct IdempotencyKey {
    /// A retried POST with the same key (and body) returns the resource the first one
    /// created instead of queuing another; 1 to 255 visible ASCII characters.
    #[param(
        rename = "Idempotency-Key",
        nullable = false,
        min_length = 1,
        max_length = 255,
        pattern = "^[!-~]([ -~]*[!-~])?$"
    )]
    idempotency_key: Option<String>,
}

// The web pages (served by `pages`): documented here, where the rest of the API is.

/// An HTML page.
macro_rules! page {
    ($name:ident, $path:literal, $summary:literal) => {
        #[utoipa::path(get, path = $path, tag = "pages", summary = $summary,
                    responses((status = 200, description = "HTML page.", body = String, content_type = "text/html")))]
        #[allow(dead_code)]
        fn $name() {}
    };
}

page!(page_find_the_fox, "/", "Web page - Find the Fox: type a serial, see where the fox is.");
page!(page_order, "/order", "Web page - order a book and watch it print.");
page!(page_foxhole, "/foxhole", "Web page - play fox in a hole.");
page!(page_oneup, "/oneup", "Web page - draw, solve and generate One Up puzzles.");
page!(page_crosswords, "/crosswords", "Web page - generate and fill crossword patterns.");
page!(page_wordsearch, "/wordsearch", "Web page - play word searches and make books of them.");

#[utoipa::path(get, path = "/books/{serial}/view", tag = "pages",
    summary = "Web page - browse a printed book page by page.",
    params(books::SerialParam),
    responses((status = 200, description = "HTML page (whatever the serial: the page itself reads the book).", body = String, content_type = "text/html")))]
#[allow(dead_code)]
fn page_book_viewer() {}

#[utoipa::path(get, path = "/static/{file}", tag = "pages",
    summary = "The pages' CSS, JavaScript and images.",
    params(("file" = String, Path, example = "app.css", description = "A file name.")),
    responses(
        (status = 200, description = "The file.", content(
            (String = "text/css"), (String = "text/javascript"), (String = "image/svg+xml"),
            (String = "text/html"), (String = "text/plain"),
        )),
        (status = 404, response = NotFound),
    ))]
#[allow(dead_code)]
fn static_file() {}
