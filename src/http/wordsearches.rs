//! Word searches: `POST /wordsearches` queues one puzzle (its words each exactly once,
//! nothing blocked), `GET /wordsearches/{id}` follows it, `GET /wordsearches` lists the
//! caller's; `POST /wordsearches/books` queues a print-ready book of them, followed,
//! listed, deleted and downloaded (interior and cover) under `/wordsearches/books`.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Serialize;

use super::books::CoverQuery;
use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::files::{self, Asked, Download, File, Product, Query};
use super::jobs::JobSummaryView;
use super::listing::Next;
use super::resource::{self, finished_result, Resource};
use super::respond::{blocking, bounded, short_id, CHECK_TIME};
use super::AppState;
use crate::jobs::kinds::wordsearch::{WordSearchBookOutput, WordSearchBookRequest, WordSearchRequest};
use crate::jobs::kinds::{WordSearchBooks, WordSearches};
use crate::puzzles::wordsearch;
use crate::service::policy::Idempotency;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/wordsearches", post(create).get(list))
        .route("/wordsearches/{id}", get(show))
        .route("/wordsearches/books", post(create_book).get(list_books))
        .route("/wordsearches/books/{id}", get(show_book).delete(delete_book))
        .merge(files::routes::<WordSearchBooks>("/wordsearches/books/{id}"))
}

impl Product for WordSearchBooks {
    const FILES: &'static [File] = &[File::pdf("book.pdf", Query::None), File::pdf("cover.pdf", Query::Paper)];

    async fn make<'a>(
        state: &'a AppState,
        caller: &'a Caller,
        id: &'a str,
        file: &'static File,
        asked: Asked,
    ) -> Result<Download<'a>, ApiError> {
        let job = resource::find::<WordSearchBooks>(state, caller, id).await?;
        let book: WordSearchBookOutput = finished_result(&job)?;
        let req = resource::stored_params::<WordSearchBooks>(&job)?;
        let (id, layout) = (short_id(&job.id), resource::layout_of(&job)?);
        if file.name == "book.pdf" {
            let key = format!("wordsearch/{}", job.id);
            let render = move || req.book_pdf(&book, layout).map_err(stored_request);
            return Ok(Download::rendered(format!("wordsearch-book-{id}.pdf"), key, render));
        }
        let paper = asked.paper.unwrap_or_default();
        let key = format!("wordsearch/{}/cover-{paper:?}", job.id);
        let render = move || req.cover_pdf(&book, paper, layout).map_err(stored_request);
        Ok(Download::rendered(format!("wordsearch-cover-{id}.pdf"), key, render))
    }
}

impl Resource for WordSearchBooks {
    const WHAT: &'static str = "word-search book";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("book_pdf", format!("{base}/book.pdf")), ("cover_pdf", format!("{base}/cover.pdf"))]
    }
}

resource::show_resource!(
    show_book,
    WordSearchBooks,
    WordSearchBook,
    "/wordsearches/books/{id}",
    "wordsearches",
    "A word-search book's state and progress (puzzles made of all) and, once made, its puzzles."
);

impl Resource for WordSearches {
    const WHAT: &'static str = "word search";
}

resource::show_resource!(
    show,
    WordSearches,
    WordSearch,
    "/wordsearches/{id}",
    "wordsearches",
    "A word search's state and, once made, its grid and where each word is."
);

#[utoipa::path(
    post,
    path = "/wordsearches",
    tag = "wordsearches",
    summary = "Queue a word search: every word of the list exactly once, nothing blocked.",
    description = "Words are placed by `level` (easy: across and down; medium: and the diagonals read left to \
                   right; hard: all eight directions; expert: all eight, crossing often); a solver may read any \
                   of the eight, and each word occurs exactly once along all of them. No word of the block list \
                   (unless `allow_offensive`) or of `avoid` occurs outside a list word's own cells. The other \
                   cells are drawn from the uniform law over the fillings that keep these rules (A-Z, or the \
                   list's letters with `filler: word-letters`), or spell `message` in reading order. Checked \
                   when queued: a word part of another (422 naming both, unless `allow_contained`), and, as far \
                   as a short run of the search tells, words that do not fit (422 naming them), a message of the \
                   wrong length or spelling a forbidden word, a filler that cannot be drawn; what the short run \
                   cannot tell fails the job with the same reason. Without a `seed` the server draws one (from \
                   the `Idempotency-Key` if given, so a retry is the same job). The result: `rows` (a space \
                   where the shape has no cell) and each word's cells and direction.",
    params(super::openapi::IdempotencyKey),
    request_body(content = WordSearchRequest, content_type = "application/json", example = json!({
        "words": ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl"],
        "rows": 12, "cols": 12, "level": "hard", "seed": 7})),
    responses(
        (status = 202, description = "Queued; follow it at `Location`.", body = WordSearch,
            headers(("Location" = String, description = "`/wordsearches/{id}`"))),
        (status = 400, response = super::openapi::BadRequest),
        (status = 413, response = super::openapi::TooLarge),
        (status = 415, response = super::openapi::UnsupportedMediaType),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    request: Idempotency,
    Json(mut req): Json<WordSearchRequest>,
) -> Result<Response, ApiError> {
    // Stored, so the job (and a retry with the same key) makes the same puzzle.
    let seed = request.seed(req.seed);
    req.seed = Some(seed);
    state.queue.admit(&caller.submitter(&state.quotas)).await?;
    req.check_bytes(&caller.limits(&state).wordsearch).map_err(|(field, detail)| ApiError::invalid(field, detail))?;
    // What a short run shows cannot be made is refused now; what it cannot tell in that
    // time, the job tells (counted in the caller's queue), making the same puzzle from the
    // same seed.
    let spec = req.spec();
    match bounded(CHECK_TIME, move |monitor| wordsearch::generate(&spec, seed, monitor)).await? {
        Ok(_) | Err(wordsearch::Error::Cancelled) => {}
        Err(wordsearch::Error::Invalid { field, detail }) => {
            let detail = format!("{field}: {detail}");
            return Err(ApiError::invalid(field, detail));
        }
        Err(wordsearch::Error::NoRoom { words }) => {
            return Err(ApiError::invalid(
                "words",
                format!("these words did not fit in the grid: {}; try a larger grid or fewer words", words.join(", ")),
            ))
        }
    }
    resource::enqueue::<WordSearches>(&state, &caller, &request, &req).await
}

/// A page of the caller's word searches.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct WordSearchList {
    /// Newest first.
    wordsearches: Vec<JobSummaryView>,
    #[serde(flatten)]
    next: Next,
}

#[utoipa::path(
    get,
    path = "/wordsearches",
    tag = "wordsearches",
    summary = "The word searches you asked for, newest first, a page at a time.",
    params(super::listing::ListQuery),
    responses(
        (status = 200, description = "A page of word searches.", body = WordSearchList),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<WordSearchList>, ApiError> {
    let (wordsearches, next) =
        resource::list::<WordSearches>(&state, &caller, query.as_deref(), "wordsearches").await?;
    Ok(axum::Json(WordSearchList { wordsearches, next }))
}

#[utoipa::path(
    post,
    path = "/wordsearches/books",
    tag = "wordsearches",
    summary = "Queue a print-ready book of word searches (1 to 500 puzzles).",
    description = "Each puzzle as `POST /wordsearches` makes one: its words each exactly once, nothing blocked. Give \
                   the `puzzles`, each with its own list (and a title, grid or level of its own), or one themed \
                   `pool` drawn into `count` lists of `words_per_puzzle` words (every word used about as often, \
                   none inside another in a list). `level` for all, or `spread` over the book in equal runs. The \
                   book prints by the fox books' rules (trim, mirrored margins, gutter by page count, embedded \
                   fonts, an even page count of at least 24): a title page with how to play, a puzzle a page \
                   with its list under the grid, the solutions at the back, several a page, each word looped. \
                   `large_print`: grid letters of at least 18 pt and lists of 16. Checked when queued (422 naming \
                   the field: `puzzles[i].words[j]`, `pool[i]`, `count`, `large_print` with what fits, …; and \
                   `puzzles` or `count` when the book would take longer to make than the caller may have, \
                   estimated from some of its puzzles made then, or its result more bytes); a list whose words \
                   do not fit its grid fails the job naming the puzzle, and so does a book that runs past its \
                   time. Without a `seed` the server draws one (from the `Idempotency-Key` if given, so a retry \
                   is the same job). Every footer prints \
                   the title and the book's `code` (from the request and seed, as `puzzlepress wordsearch` \
                   prints it). Cancel with `DELETE /jobs/{id}`.",
    params(super::openapi::IdempotencyKey),
    request_body(content = WordSearchBookRequest, content_type = "application/json", example = json!({
        "title": "Garden Birds", "trim": "6x9", "level": "hard", "rows": 13, "cols": 13, "seed": 7,
        "puzzles": [
            {"title": "Garden", "words": ["robin", "wren", "blue tit", "magpie", "starling", "sparrow"]},
            {"title": "Water", "words": ["heron", "swan", "mallard", "coot", "moorhen", "grebe"]}]})),
    responses(
        (status = 202, description = "Queued; follow it at `Location`.", body = WordSearchBook,
            headers(("Location" = String, description = "`/wordsearches/books/{id}`"))),
        (status = 400, response = super::openapi::BadRequest),
        (status = 413, response = super::openapi::TooLarge),
        (status = 415, response = super::openapi::UnsupportedMediaType),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn create_book(
    State(state): State<AppState>,
    caller: Caller,
    request: Idempotency,
    Json(mut req): Json<WordSearchBookRequest>,
) -> Result<Response, ApiError> {
    // Stored, so the job (and a retry with the same key) makes the same book.
    req.seed = Some(request.seed(req.seed));
    state.queue.admit(&caller.submitter(&state.quotas)).await?;
    let invalid = |(field, detail): (String, String)| ApiError::invalid(field, detail);
    let (req, planned) = blocking(move || {
        req.print_options()?;
        let planned = req.plan()?;
        Ok((req, planned))
    })
    .await?
    .map_err(invalid)?;
    // Its cost, from some of its puzzles made within the handler's time.
    let limits = caller.limits(&state).wordsearch;
    let req = bounded(CHECK_TIME, move |monitor| req.check_cost(&planned, &limits, monitor).map(|()| req))
        .await?
        .map_err(invalid)?;
    resource::enqueue::<WordSearchBooks>(&state, &caller, &request, &req).await
}

/// A page of the caller's word-search books.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct WordSearchBookList {
    /// Newest first.
    books: Vec<JobSummaryView>,
    #[serde(flatten)]
    next: Next,
}

#[utoipa::path(
    get,
    path = "/wordsearches/books",
    tag = "wordsearches",
    summary = "The word-search books you ordered, newest first, a page at a time.",
    params(super::listing::ListQuery),
    responses(
        (status = 200, description = "A page of books.", body = WordSearchBookList),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn list_books(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<WordSearchBookList>, ApiError> {
    let (books, next) =
        resource::list::<WordSearchBooks>(&state, &caller, query.as_deref(), "word-search books").await?;
    Ok(axum::Json(WordSearchBookList { books, next }))
}

#[utoipa::path(
    delete,
    path = "/wordsearches/books/{id}",
    tag = "wordsearches",
    summary = "Delete a word-search book you ordered.",
    description = "204; the book and its PDFs are gone (404 from then on). A book still queued or being made is \
                   409: cancel its job first (`DELETE /jobs/{id}`).",
    params(("id" = uuid::Uuid, Path, description = "The book's id.")),
    responses(
        (status = 204, description = "Deleted."),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::Conflict),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn delete_book(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    resource::delete::<WordSearchBooks>(&state, &caller, &id).await
}

#[utoipa::path(
    get,
    path = "/wordsearches/books/{id}/book.pdf",
    tag = "wordsearches",
    summary = "The book's interior as a print-ready PDF (409 until it is made).",
    description = "The same bytes as `puzzlepress wordsearch` writes for the same request and seed.",
    params(("id" = uuid::Uuid, Path, description = "The book's id.")),
    responses(
        (status = 200, description = "PDF.", content_type = "application/pdf"),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::Conflict),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
#[allow(dead_code)] // documents a route of the generic file handler
pub(crate) fn book_pdf() {}

#[utoipa::path(
    get,
    path = "/wordsearches/books/{id}/cover.pdf",
    tag = "wordsearches",
    summary = "The book's paperback cover: back, spine and front as one wrap with 0.125 in bleed.",
    description = "As a fox book's cover: the spine's width from the page count and paper (text on it from 79 \
                   pages), the title and author on the front, the book's code and the ISBN's barcode (a blank box \
                   without one) on the back.",
    params(("id" = uuid::Uuid, Path, description = "The book's id."), CoverQuery),
    responses(
        (status = 200, description = "PDF.", content_type = "application/pdf"),
        (status = 404, response = super::openapi::NotFound),
        (status = 409, response = super::openapi::Conflict),
        (status = 422, response = super::openapi::Invalid),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
#[allow(dead_code)] // documents a route of the generic file handler
pub(crate) fn cover_pdf() {}

/// A stored request that no longer checks: a bug, not the caller's fault.
fn stored_request((field, detail): (String, String)) -> ApiError {
    ApiError::Internal(format!("a stored word-search book's {field} no longer checks: {detail}"))
}
