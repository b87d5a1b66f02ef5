//! Find the Fox books (or Find the Cat, on heart-shaped pages, …): order one (`POST
//! /books`), follow it, read its pages and answer, and download the printable PDFs — all
//! keyed by the book's serial number.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::extract::OptionalJson;
use super::files::{self, Asked, Download, File, Id, Product, Query};
use super::jobs::location as job_location;
use super::listing::{self, listed_owner, Listed, Listing, Next, Page};
use super::resource::{Progress, Submit};
use super::respond::{accepted, echo};
use super::AppState;
use crate::jobs::kinds::books::BookParams;
use crate::jobs::kinds::Books;
use crate::jobs::SubmitError;
use crate::puzzles::foxbook::{Serial, SerialError};
use crate::puzzles::wordbook::{self, Shape, WordSpec};
use crate::render;
use crate::render::layouts::cover::{Palette, Paper};
use crate::render::print::Trim;
use crate::service::books::{
    ensure_printed, interior_version, plan_of, print_options, stored_answer, unpack, AnswerView,
};
use crate::service::policy::fox_book;
use crate::service::timestamp;
use crate::store::{BookRecord, JobState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/books", post(order).get(listing::list::<Books>))
        .route("/books/{serial}", get(show).delete(delete))
        .route("/books/{serial}/pages/{n}", get(page))
        .route("/books/{serial}/answer", get(answer))
        .merge(files::routes::<Books>())
}

/// The serial number in a book's URL.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub(crate) struct SerialParam {
    /// The book's serial number: 11 Crockford base-32 symbols, the last a check symbol.
    /// Case, spaces and hyphens are ignored, and I, L and O are read as 1, 1 and 0, so
    /// `ncb5-919r-tqp` is `NCB5919RTQP`. A mistyped serial (its check symbol does not
    /// match) is answered 400.
    #[param(pattern = r"^[ -]*([0-9A-TV-Za-tv-z][ -]*){11}$", example = "NCB5919RTQP")]
    serial: String,
}

/// A book as clients see it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Book)]
pub(crate) struct BookView {
    /// The book's serial number (canonical form).
    #[schema(pattern = "^[0-9A-HJKMNP-TV-Z]{11}$", example = "NCB5919RTQP")]
    serial: String,
    state: JobState,
    /// The word hidden once in the book.
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    word: String,
    /// The letters the pages are made of.
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    letters: String,
    shape: Shape,
    #[schema(minimum = 1, maximum = 1000)]
    pages: i64,
    #[schema(minimum = 3, maximum = 64)]
    rows: i64,
    #[schema(minimum = 3, maximum = 64)]
    cols: i64,
    trim: Trim,
    title: String,
    /// Printed with the serial on the back of the title page (empty: none).
    lookup_url: String,
    /// On the title page and the front cover; null: none.
    #[schema(required = true)]
    author: Option<String>,
    /// On the back of the title page; null: none.
    #[schema(required = true)]
    copyright: Option<String>,
    /// ISBN-10 or ISBN-13, normalised (no hyphens): on the back of the title page, and as
    /// an EAN-13 barcode on the back cover; null: none.
    #[schema(required = true, pattern = "^([0-9]{9}[0-9X]|97[89][0-9]{10})$")]
    isbn: Option<String>,
    /// What to know before printing: e.g. that the lookup address names the server's own
    /// machine, so readers of the printed book cannot reach it. Empty when all is well.
    warnings: Vec<String>,
    /// Pages sampled so far, of all of them.
    progress: Progress,
    generator_version: i64,
    /// The renderer of its interior PDF: a book keeps the one it was printed with, so its
    /// PDF keeps its bytes (1: books printed before version 2).
    #[schema(minimum = 1)]
    interior_version: i64,
    /// SHA-256 (hex) of the book's text, once printed.
    #[schema(required = true, pattern = "^[0-9a-f]{64}$")]
    content_hash: Option<String>,
    /// Why printing failed.
    #[schema(required = true)]
    error: Option<String>,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(required = true, format = DateTime)]
    finished_at: Option<String>,
    /// The job printing the book (`/jobs/{id}`); null for callers other than the one who
    /// ordered it (once API keys are in use).
    #[schema(required = true)]
    job: Option<String>,
    links: Links,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BookLinks)]
struct Links {
    #[serde(rename = "self")]
    this: String,
    #[schema(required = true)]
    job: Option<String>,
    /// Template: replace `{n}` by a page number. Null for callers other than its publisher
    /// (once API keys are in use): they may see only the answer's page.
    #[schema(required = true)]
    pages: Option<String>,
    answer: String,
    /// Null for callers other than its publisher (once API keys are in use).
    #[schema(required = true)]
    book_pdf: Option<String>,
    answer_pdf: String,
    /// The cover (on its print run's paper, else white; `?paper=cream` or `white` to
    /// choose). Null for callers other than its publisher (once API keys are in use).
    #[schema(required = true)]
    cover_pdf: Option<String>,
}

impl BookView {
    /// The book as `caller` sees it: the job only for those who may see it.
    fn new(b: BookRecord, caller: &Caller) -> BookView {
        let base = format!("/books/{}", b.serial);
        // The trim was validated when ordered; a row from before trims reads as the default.
        let trim = serde_json::from_str(&b.order.trim).unwrap_or_default();
        let publisher = caller.may_see(&b.owner);
        let job = publisher.then(|| job_location(&b.job_id));
        BookView {
            links: Links {
                job: job.clone(),
                pages: publisher.then(|| format!("{base}/pages/{{n}}")),
                answer: format!("{base}/answer"),
                book_pdf: publisher.then(|| format!("{base}/book.pdf")),
                answer_pdf: format!("{base}/answer.pdf"),
                cover_pdf: publisher.then(|| format!("{base}/cover.pdf")),
                this: base,
            },
            job,
            progress: Progress { done: b.progress_done, total: b.progress_total },
            created_at: timestamp(b.created_at),
            finished_at: b.finished_at.map(timestamp),
            serial: b.serial,
            state: b.state,
            // Validated when ordered; a row from before shapes reads as a rectangle.
            shape: serde_json::from_str(&b.order.shape).unwrap_or_default(),
            word: b.order.word,
            letters: b.order.letters,
            pages: b.order.pages,
            rows: b.order.rows,
            cols: b.order.cols,
            trim,
            title: b.order.title,
            warnings: render::print::unreachable_lookup(&b.order.lookup_url).into_iter().collect(),
            lookup_url: b.order.lookup_url,
            author: b.order.author,
            copyright: b.order.copyright,
            isbn: b.order.isbn,
            generator_version: b.order.generator_version,
            interior_version: b.order.interior_version,
            content_hash: b.content_hash,
            error: b.error,
        }
    }
}

crate::fields::api_struct! {
    /// A book order: its word, letters and pages, and how it is printed; every member is
    /// optional.
    #[derive(Deserialize, Default, utoipa::ToSchema)]
    #[serde(default, deny_unknown_fields)]
    pub(crate) struct BookOrder {
        /// The word hidden exactly once in the book: 2 to 8 letters A-Z (lower case is read
        /// as upper).
        #[schema(pattern = "^[A-Za-z]{2,8}$", default = "FOX")]
        word: Option<String>,
        /// The letters the pages are made of: distinct, at most 8, containing the word's
        /// (default: the word's own letters). A word that could not be avoided on them is
        /// refused, saying which letter to add.
        #[schema(pattern = "^[A-Za-z]{1,8}$", example = "CATS")]
        letters: Option<String>,
        /// Default `rectangle`.
        shape: Option<Shape>,
        /// Pages of puzzles.
        #[schema(minimum = 1, maximum = 1000, default = 200)]
        pages: Option<u32>,
        /// Rows of letters on a page (default 32, or a mask's rows).
        #[schema(minimum = 3, maximum = 64, default = 32)]
        rows: Option<u32>,
        /// Columns of letters on a page (default 20, or a mask's width).
        #[schema(minimum = 3, maximum = 64, default = 20)]
        cols: Option<u32>,
        /// The printed page size (default `letter`). A grid whose letters would print below
        /// 7 pt on it is refused, naming the trims and sizes that fit.
        #[schema(default = "letter")]
        trim: Trim,
        /// Printed on the title page, the answer key and the cover: 1 to 60 printable ASCII
        /// characters. Default: "Find the" and the word ("Find the Cat").
        #[schema(default = "Find the Fox", min_length = 1, max_length = 60)]
        title: Option<String>,
        /// Where readers look the answer up (http:// or https://, at most 200 characters),
        /// printed with the serial and as a QR code for `lookup_url?serial=SERIAL`; an empty
        /// string prints none. Default: the server's `--lookup-url`.
        #[schema(max_length = 200)]
        lookup_url: Option<String>,
        ..imprint,
    }
}

/// Orders a book: a fresh random serial, the book row and its job in one transaction.
#[utoipa::path(
    post,
    path = "/books",
    summary = "Order a unique Find the Fox book (or Find the Cat, on heart-shaped pages, ...).",
    description = "The book gets a random serial number and is printed by a job. The body is optional; missing \
                   members take the defaults (FOX on F, O and X, 200 pages of 32 x 20). The word appears exactly \
                   once in the whole book: along any of the 8 directions through consecutive letter cells. An \
                   `Idempotency-Key` makes a retried order return the same serial.",
    request_body(content = BookOrder, content_type = "application/json", examples(
        ("fox" = (summary = "A small Find the Fox book", value = json!({"pages": 3, "rows": 8, "cols": 8, "trim": "6x9"}))),
        ("cat" = (summary = "Find the Cat on heart-shaped pages", value = json!({"word": "CAT", "letters": "CATS", "shape": "heart", "pages": 24, "rows": 24, "cols": 24}))),
        ("imprint" = (summary = "With an author, a copyright line and an ISBN", value = json!({"pages": 24, "trim": "6x9", "author": "Ada Fox", "copyright": "© 2026 Example Press", "isbn": "978-0-306-40615-7"}))),
    )),
    responses(
        (status = 202, description = "Ordered. Follow the book at `Location` (or its job).", body = BookView,
            headers(("Location" = String, description = "`/books/{serial}`"))),
    )
)]
pub(crate) async fn order(submit: Submit, OptionalJson(order): OptionalJson<BookOrder>) -> Result<Response, ApiError> {
    let key = submit.key();
    let Submit { state, caller, .. } = submit;
    caller.require_key("ordering a book")?;
    let imprint = order.imprint();
    let (spec, print) = fox_book(
        WordSpec::with_defaults(order.word, order.letters, order.shape, order.pages, order.rows, order.cols),
        order.trim,
        order.title,
        order.lookup_url,
        imprint,
        &caller.limits(&state).foxbook,
        &state.lookup_url,
    )?;
    // 50 random bits make a collision rare; the primary key makes it harmless: try again.
    for _ in 0..5 {
        let serial = Serial::from_bits(rand::random::<u64>()).to_string();
        let params = BookParams::new(serial, spec.clone(), print.clone(), None);
        let (job, _) = match state.queue.submit::<Books>(&caller.submitter(&state.quotas), &params, key.clone()).await {
            Err(SubmitError::Store(e)) if e.is_unique_violation() => continue,
            other => other?,
        };
        let book = state
            .store
            .book_by_job(&job.id)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("job {} has no book", job.id)))?;
        let view = BookView::new(book, &caller);
        return Ok(accepted(&view.links.this.clone(), view));
    }
    Err(ApiError::Internal("could not find a free serial number in 5 tries".into()))
}

impl Listed for Books {
    type Item = BookView;
    const LISTING: Listing = Listing::of("books", "BookList", "The books you ordered, newest first, a page at a time.")
        .described(
            "Publishers see their own books, admins everyone's. Follow `next` (or pass `next_cursor` as `cursor`) for \
             the following page.",
        );

    fn route() -> String {
        "/books".into()
    }

    async fn items(state: &AppState, caller: &Caller, page: &Page) -> Result<(Vec<BookView>, Next), ApiError> {
        let books = state.store.books(listed_owner(caller).as_deref(), page.before, page.fetch()).await?;
        let (books, next) = page.finish("/books", books, |b| b.position);
        Ok((books.into_iter().map(|b| BookView::new(b, caller)).collect(), next))
    }
}

/// Reads a serial as people type it: 400 if mistyped or malformed.
fn parse_serial(raw: &str) -> Result<Serial, ApiError> {
    Serial::parse(raw).map_err(|e| match e {
        SerialError::CheckFailed => ApiError::bad_request(
            "Mistyped serial",
            format!("{} is not a valid serial number: its check symbol does not match, so it was probably mistyped; check each character", echo(raw)),
        ),
        other => ApiError::bad_request("Malformed serial", format!("{} is not a serial number: {other}", echo(raw))),
    })
}

async fn find(state: &AppState, raw: &str, with_pages: bool) -> Result<BookRecord, ApiError> {
    let serial = parse_serial(raw)?;
    state
        .store
        .book(&serial.to_string(), with_pages)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("there is no book with serial number {serial}")))
}

#[utoipa::path(
    get,
    path = "/books/{serial}",
    summary = "A book's state and printing progress.",
    params(SerialParam),
    responses(
        (status = 200, description = "The book.", body = BookView),
    )
)]
pub(crate) async fn show(Call { state, caller }: Call, Path(serial): Path<String>) -> Result<Json<BookView>, ApiError> {
    Ok(Json(BookView::new(find(&state, &serial, false).await?, &caller)))
}

#[utoipa::path(
    delete,
    path = "/books/{serial}",
    summary = "Delete a book you ordered.",
    description = "204; the book, its pages, answer and PDFs are gone (404 from then on). A copy of a print run \
                   is 409: it is deleted with its run (`DELETE /printruns/{id}`). A book still printing is 409: \
                   cancel its job first (`DELETE /jobs/{id}`). Only the book's publisher (or an admin) may; to \
                   others it is 404, as a book they may not see.",
    params(SerialParam),
    responses(
        (status = 204, description = "Deleted."),
        (status = 409, response = super::openapi::Conflict),
    )
)]
pub(crate) async fn delete(Call { state, caller }: Call, Path(serial): Path<String>) -> Result<StatusCode, ApiError> {
    let record = find(&state, &serial, false).await?;
    if !caller.may_see(&record.owner) {
        return Err(ApiError::not_found(format!("there is no book with serial number {}", record.serial)));
    }
    if let Some(run) = &record.printrun {
        return Err(ApiError::Conflict {
            detail: format!(
                "book {} is a copy of print run {run}; a copy is deleted with its run (DELETE /printruns/{run})",
                record.serial
            ),
            retry_after: None,
        });
    }
    let what = format!("book with serial number {}", record.serial);
    super::resource::delete_ended(&state, &what, &record.job_id, record.state).await
}

/// One page of a book.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BookPage)]
pub(crate) struct PageView {
    /// The page number (1-based).
    #[schema(minimum = 1)]
    page: usize,
    /// The page's rows of letters; a space where the page's shape has no cell.
    #[schema(pattern = "^[A-Z ]+$")]
    rows: Vec<String>,
}

#[utoipa::path(
    get,
    path = "/books/{serial}/pages/{n}",
    summary = "One page of a printed book (`Accept: text/plain` for the rows as lines).",
    params(SerialParam, ("n" = u32, Path, minimum = 1, description = "1-based page number; a page the book does not have is answered 404.")),
    responses(
        (status = 200, description = "The page.", content(
            (PageView = "application/json"),
            (String = "text/plain"),
        )),
        (status = 403, response = super::openapi::NotYours),
        (status = 409, response = super::openapi::NotPrinted),
    )
)]
pub(crate) async fn page(
    Call { state, caller }: Call,
    Path((serial, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let record = find(&state, &serial, true).await?;
    let answer = stored_answer(&record)?;
    let pages = record.order.pages as usize;
    let index = n.parse::<usize>().ok().filter(|n| (1..=pages).contains(n)).ok_or_else(|| {
        ApiError::not_found(format!("page {} is not in this book; its pages are 1 to {pages}", echo(&n)))
    })?;
    // A reader holding the book may see the page that holds the word; the rest of the book
    // is its publisher's.
    if index != answer.page as usize {
        caller.require_owner(
            &record.owner,
            &format!("page {index} of book {} (readers may see page {}, the answer's)", record.serial, answer.page),
        )?;
    }
    let plan = plan_of(&record)?;
    let packed =
        record.packed.as_deref().ok_or_else(|| ApiError::Internal(format!("book {}: no pages", record.serial)))?;
    let page = wordbook::unpack_page(&plan, packed, index - 1)
        .map_err(|e| ApiError::Internal(format!("book {}: {e}", record.serial)))?;
    let rows = page.rows_text();
    let wants_text = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/plain") && !a.contains("application/json"));
    if wants_text {
        let mut text = rows.join("\n");
        text.push('\n');
        return Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response());
    }
    Ok(Json(PageView { page: index, rows }).into_response())
}

#[utoipa::path(
    get,
    path = "/books/{serial}/answer",
    summary = "Where the word is (the fox, in a Find the Fox book).",
    params(SerialParam),
    responses(
        (status = 200, description = "The answer.", body = AnswerView),
        (status = 409, response = super::openapi::NotPrinted),
    )
)]
pub(crate) async fn answer(
    State(state): State<AppState>,
    Path(serial): Path<String>,
) -> Result<Json<AnswerView>, ApiError> {
    let record = find(&state, &serial, false).await?;
    Ok(Json(AnswerView::new(stored_answer(&record)?, interior_version(&record)?)))
}

impl Product for Books {
    const BASE: &'static str = "/books/{serial}";
    const ID: Id = Id::Serial;
    const NOT_MADE: &'static str = "NotPrinted";
    const FILES: &'static [File] = &[
        File::pdf(
            "book.pdf",
            Query::None,
            "The printable book: the title page, the serial and lookup help on its back, how to play, a grid a page.",
        )
            .publisher_only(),
        File::pdf("answer.pdf", Query::None, "The answer key (the word's page with the word bold, red and outlined)."),
        File::pdf(
            "cover.pdf",
            Query::Cover,
            "The paperback cover: back, spine and front as one wrap with 0.125 in bleed.",
        )
        .described(
            "The spine's width is the interior's page count times the paper's thickness; it carries text from 79 \
             pages. The front has the title and the author; the back the serial, the lookup address and a 2 x 1.2 in \
             box at its lower right holding the ISBN's EAN-13 barcode (blank without an ISBN). TrimBox and BleedBox \
             are set. From interior version 4 the front shows a page's letters through a fox-shaped window.",
        )
        .publisher_only(),
        File::svg(
            "cover.svg",
            Query::Cover,
            "A preview of the cover's front (trimmed, 360 pixels wide) for web pages; paper and palette as for cover.pdf.").publisher_only(),
    ];

    /// A book's PDFs, each rendered once however many download it at once and kept for
    /// later downloads; its interior and cover only for a caller who may see its job.
    async fn make(
        Asked { state, caller, id: raw, file, cover: query, .. }: Asked<'_>,
    ) -> Result<Download<'_>, ApiError> {
        // The pages are read only if the PDF is not kept already.
        let record = find(state, raw, false).await?;
        let serial = record.serial.clone();
        match file.name {
            "book.pdf" => caller.require_owner(&record.owner, &format!("the book PDF of book {serial}"))?,
            "cover.pdf" | "cover.svg" => return cover(state, caller, record, query, file.name).await,
            _ => {}
        }
        ensure_printed(&record)?;
        let name = file.name.trim_end_matches(".pdf");
        let key = format!("{serial}/{name}");
        let load = async move {
            let record = with_pages(state, &serial).await?;
            let (opts, version) = (print_options(&record), interior_version(&record)?);
            let render: files::Render = Box::new(move || {
                let book = unpack(record)?;
                Ok(match name {
                    "book" => render::layouts::foxbook::book_pdf(&book, &serial, &opts, version),
                    _ => render::layouts::foxbook::answer_pdf(&book, &serial, &opts, version),
                })
            });
            Ok(render)
        };
        Ok(Download::loaded(format!("{name}-{}.pdf", record.serial), key, load))
    }
}

/// A book's cover, on the paper asked for (else a print run's copy on its run's, any other
/// book on white), in the palette asked for.
async fn cover<'a>(
    state: &'a AppState,
    caller: &Caller,
    record: BookRecord,
    CoverQuery { paper, palette }: CoverQuery,
    name: &str,
) -> Result<Download<'a>, ApiError> {
    caller.require_owner(&record.owner, &format!("the cover of book {}", record.serial))?;
    ensure_printed(&record)?;
    let (opts, version) = (print_options(&record), interior_version(&record)?);
    let paper = match (paper, &record.printrun) {
        (Some(paper), _) => paper,
        (None, Some(run)) => match state.store.printrun(run).await? {
            Some(run) => crate::service::printruns::order_of(&run)?.paper,
            None => Paper::default(),
        },
        (None, None) => Paper::default(),
    };
    let serial = record.serial;
    let key = format!("{serial}/{name}-{paper:?}-{palette:?}");
    let svg = name.ends_with(".svg");
    let filename = format!("cover-{serial}.{}", if svg { "svg" } else { "pdf" });
    // The front shows the book's letters: its pages are read only if the cover is not kept already.
    let load = async move {
        let record = with_pages(state, &serial).await?;
        let render: files::Render = Box::new(move || {
            let book = unpack(record)?;
            let cover = render::layouts::cover::cover(&book, &serial, &opts, paper, version, palette);
            Ok(if svg { cover.front_svg().into_bytes() } else { cover.pdf() })
        });
        Ok(render)
    };
    Ok(Download::loaded(filename, key, load))
}

/// Book `serial` with its pages, read only when a file is rendered.
async fn with_pages(state: &AppState, serial: &str) -> Result<BookRecord, ApiError> {
    state
        .store
        .book(serial, true)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("there is no book with serial number {serial}")))
}

/// The query of a cover.
#[derive(Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CoverQuery {
    /// The interior's paper, which sets the spine's width (white 0.002252 in a page,
    /// cream 0.0025 in). Default: a print run's copy is on its run's paper, other books
    /// on white.
    #[param(inline)]
    pub(crate) paper: Option<Paper>,
    /// The front's colours (covers with artwork: books made from Find the Fox interior
    /// version 4 and layout version 4; older covers print as they were). Default: fox for
    /// Find the Fox books, ocean for word-search books, plum for One Up books.
    #[param(inline)]
    pub(crate) palette: Option<Palette>,
}

impl CoverQuery {
    /// A cover's query string, or 422 naming `paper`, `palette` (or `query` for anything
    /// else).
    pub(crate) fn parse(query: Option<&str>) -> Result<CoverQuery, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|e| ApiError::invalid("query", format!("the query does not parse ({})", echo(&e.to_string()))))?;
        let mut cover = CoverQuery::default();
        for (name, value) in pairs {
            match name.as_str() {
                "paper" => cover.paper = Some(Paper::parse(&value).map_err(|e| ApiError::invalid("paper", e))?),
                "palette" => cover.palette = Some(Palette::parse(&value).map_err(|e| ApiError::invalid("palette", e))?),
                _ => {
                    return Err(ApiError::invalid(
                        "query",
                        format!("a cover takes paper and palette, not {}", echo(&name)),
                    ))
                }
            }
        }
        Ok(cover)
    }
}
