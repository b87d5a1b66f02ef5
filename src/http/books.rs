//! Find the Fox books: order one (`POST /books`), follow it, read its pages and answer,
//! and download the printable PDFs — all keyed by the book's serial number.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;

use super::caller::Caller;
use super::error::ApiError;
use super::extract::OptionalJson;
use super::jobs::location as job_location;
use super::resource::Progress;
use super::respond::{accepted, blocking, idempotency_key, pdf_response, timestamp};
use super::AppState;
use crate::jobs::kinds::books::BookParams;
use crate::jobs::kinds::Books;
use crate::jobs::SubmitError;
use crate::puzzles::foxbook::{Answer, Book, BookSpec, Serial, SerialError};
use crate::render;
use crate::store::{BookRecord, JobState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/books", post(order))
        .route("/books/{serial}", get(show))
        .route("/books/{serial}/pages/{n}", get(page))
        .route("/books/{serial}/answer", get(answer))
        .route("/books/{serial}/book.pdf", get(book_pdf))
        .route("/books/{serial}/answer.pdf", get(answer_pdf))
}

/// A book as clients see it.
#[derive(Serialize)]
struct BookView {
    serial: String,
    state: JobState,
    pages: i64,
    rows: i64,
    cols: i64,
    progress: Progress,
    generator_version: i64,
    content_hash: Option<String>,
    error: Option<String>,
    created_at: String,
    finished_at: Option<String>,
    job: String,
    links: Links,
}

#[derive(Serialize)]
struct Links {
    #[serde(rename = "self")]
    this: String,
    job: String,
    pages: String,
    answer: String,
    book_pdf: String,
    answer_pdf: String,
}

impl From<BookRecord> for BookView {
    fn from(b: BookRecord) -> BookView {
        let base = format!("/books/{}", b.serial);
        BookView {
            links: Links {
                job: job_location(&b.job_id),
                pages: format!("{base}/pages/{{n}}"),
                answer: format!("{base}/answer"),
                book_pdf: format!("{base}/book.pdf"),
                answer_pdf: format!("{base}/answer.pdf"),
                this: base,
            },
            job: job_location(&b.job_id),
            progress: Progress { done: b.progress_done, total: b.progress_total },
            created_at: timestamp(b.created_at),
            finished_at: b.finished_at.map(timestamp),
            serial: b.serial,
            state: b.state,
            pages: b.pages,
            rows: b.rows,
            cols: b.cols,
            generator_version: b.generator_version,
            content_hash: b.content_hash,
            error: b.error,
        }
    }
}

/// Orders a book: a fresh random serial, the book row and its job in one transaction.
async fn order(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    OptionalJson(spec): OptionalJson<BookSpec>,
) -> Result<Response, ApiError> {
    spec.validate().map_err(|e| {
        let crate::puzzles::foxbook::SpecError::OutOfRange { field, .. } = &e;
        ApiError::invalid(*field, e.to_string())
    })?;
    let key = idempotency_key(&headers)?;
    // 50 random bits make a collision rare; the primary key makes it harmless: try again.
    for _ in 0..5 {
        let params = BookParams { serial: Serial::from_bits(rand::random::<u64>()).to_string(), spec };
        let (job, _) =
            match state.queue.submit::<Books>(&caller.owner(), caller.quota(&state.quotas), &params, key.clone()).await
            {
                Err(SubmitError::Store(e)) if e.is_unique_violation() => continue,
                other => other?,
            };
        let book = state
            .store
            .book_by_job(&job.id)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("job {} has no book", job.id)))?;
        let view = BookView::from(book);
        return Ok(accepted(&view.links.this.clone(), view));
    }
    Err(ApiError::Internal("could not find a free serial number in 5 tries".into()))
}

/// Reads a serial as people type it: 400 if mistyped or malformed.
fn parse_serial(raw: &str) -> Result<Serial, ApiError> {
    Serial::parse(raw).map_err(|e| match e {
        SerialError::CheckFailed => ApiError::bad_request(
            "Mistyped serial",
            format!("{raw:?} is not a valid serial number: its check symbol does not match, so it was probably mistyped; check each character"),
        ),
        other => ApiError::bad_request("Malformed serial", format!("{raw:?} is not a serial number: {other}")),
    })
}

async fn find(state: &AppState, raw: &str, with_letters: bool) -> Result<BookRecord, ApiError> {
    let serial = parse_serial(raw)?;
    state
        .store
        .book(&serial.to_string(), with_letters)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("there is no book with serial number {serial}")))
}

async fn show(State(state): State<AppState>, Path(serial): Path<String>) -> Result<Json<BookView>, ApiError> {
    Ok(Json(find(&state, &serial, false).await?.into()))
}

/// The stored book, or 409 while it is not printed.
fn printed(record: BookRecord) -> Result<Book, ApiError> {
    if record.state != JobState::Succeeded {
        let pending = !record.state.is_terminal();
        let detail = if pending {
            format!("book {} is still printing ({}); try again shortly", record.serial, record.state.as_str())
        } else {
            format!(
                "book {} was not printed: its job is {}{}",
                record.serial,
                record.state.as_str(),
                record.error.map(|e| format!(" ({e})")).unwrap_or_default()
            )
        };
        return Err(ApiError::Conflict { detail, retry_after: pending.then_some(1) });
    }
    let corrupt = |what: String| ApiError::Internal(format!("book {}: {what}", record.serial));
    let spec = BookSpec { pages: record.pages as u32, rows: record.rows as u32, cols: record.cols as u32 };
    let answer: Answer = serde_json::from_value(record.answer.clone().ok_or_else(|| corrupt("no answer".into()))?)
        .map_err(|e| corrupt(e.to_string()))?;
    let letters = record.letters.as_deref().ok_or_else(|| corrupt("no letters".into()))?;
    Book::unpack(spec, letters, answer).map_err(|e| corrupt(format!("{e:?}")))
}

#[derive(Serialize)]
struct PageView {
    page: usize,
    rows: Vec<String>,
}

async fn page(
    State(state): State<AppState>,
    Path((serial, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let book = printed(find(&state, &serial, true).await?)?;
    let pages = book.pages.len();
    let index =
        n.parse::<usize>().ok().filter(|n| (1..=pages).contains(n)).ok_or_else(|| {
            ApiError::not_found(format!("page {n:?} is not in this book; its pages are 1 to {pages}"))
        })?;
    let rows = book.pages[index - 1].rows_text();
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

async fn answer(State(state): State<AppState>, Path(serial): Path<String>) -> Result<Json<Answer>, ApiError> {
    Ok(Json(printed(find(&state, &serial, true).await?)?.answer))
}

async fn book_pdf(State(state): State<AppState>, Path(serial): Path<String>) -> Result<Response, ApiError> {
    pdf(&state, &serial, "book", render::foxbook::book_pdf).await
}

async fn answer_pdf(State(state): State<AppState>, Path(serial): Path<String>) -> Result<Response, ApiError> {
    pdf(&state, &serial, "answer", render::foxbook::answer_pdf).await
}

/// Renders a printed book's PDF off the async threads (a 200-page book takes milliseconds).
async fn pdf(
    state: &AppState,
    raw: &str,
    name: &str,
    render: fn(&Book, &str) -> Vec<u8>,
) -> Result<Response, ApiError> {
    let record = find(state, raw, true).await?;
    let serial = record.serial.clone();
    let book = printed(record)?;
    let bytes = {
        let serial = serial.clone();
        blocking(move || render(&book, &serial)).await?
    };
    Ok(pdf_response(bytes, &format!("{name}-{serial}.pdf")))
}
