//! Dictionaries: `POST /dictionaries` queues entries to be typeset as a book (JSON, or a
//! `text/plain` body of one entry a line with the other members as query parameters),
//! `GET /dictionaries/{id}` follows it, `GET /dictionaries/{id}/book.pdf` is the book once
//! set (the PDF its job kept), `GET /dictionaries` lists the caller's and
//! `DELETE /dictionaries/{id}` deletes one (with its PDF).

use axum::extract::{DefaultBodyLimit, RawQuery, Request};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::{body_error, media_type, parse_json};
use super::files::{self, Asked, Download, File, Id, Product, Query};
use super::listing::{self, Listing};
use super::resource::{self, finished_result, Kept, Resource, Submit};
use super::respond::{blocking, echo};
use super::AppState;
use crate::jobs::kinds::dictionary::{DictionaryOutput, DictionaryRequest, EntryRequest, HeadsRequest, BOOK_PDF};
use crate::jobs::kinds::Dictionaries;
use crate::puzzles::monitor::Unmonitored;
use crate::puzzles::DictionaryLimits;
use crate::render::typeset::parse_lines;

/// Largest body the route reads at all; each tier has its own maximum within it
/// (`dictionary.max_bytes`).
pub const MAX_BYTES: usize = 4 << 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dictionaries", post(create).layer(DefaultBodyLimit::max(MAX_BYTES)).get(listing::list::<Dictionaries>))
        .route("/dictionaries/{id}", get(show).delete(resource::delete::<Dictionaries>))
        .merge(files::routes::<Dictionaries>())
}

impl Product for Dictionaries {
    const BASE: &'static str = "/dictionaries/{id}";
    const ID: Id = Id::Uuid("The dictionary's id.");
    const FILES: &'static [File] = &[File::pdf(
        "book.pdf",
        Query::None,
        "The dictionary as a print-ready PDF (409 until it is set).",
    )
    .described(
        "The PDF its job set and kept: the same bytes as `puzzlepress dictionary` gives for the same entries, title, \
         author, language, trim and heads.",
    )];

    async fn make(Asked { state, caller, id, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        let job = resource::find::<Dictionaries>(state, caller, id).await?;
        let _: DictionaryOutput = finished_result(&job)?;
        let filename = "dictionary.pdf".to_string();
        if let Some(pdf) = state.store.file(&job.id, BOOK_PDF).await? {
            return Ok(Download::kept(filename, pdf));
        }
        // Set before its job kept the PDF: set from the stored request, once (the render cache).
        let req = resource::stored_params::<Dictionaries>(&job)?;
        let layout = resource::layout_of(&job)?;
        let key = format!("dictionary/{}", job.id);
        let id = id.to_string();
        Ok(Download::rendered(filename, key, move || {
            req.pdf(&DictionaryLimits::UNLIMITED, layout, &mut Unmonitored)
                .map(|(pdf, _)| pdf)
                .map_err(|e| ApiError::Internal(format!("dictionary {id}: its stored request no longer sets: {e}")))
        }))
    }
}

impl Resource for Dictionaries {
    const WHAT: &'static str = "dictionary";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("book_pdf", format!("{base}/book.pdf"))]
    }
}

impl Kept for Dictionaries {
    const LISTING: Listing = Listing::of(
        "dictionaries",
        "DictionaryList",
        "The dictionaries you asked for, newest first, a page at a time.",
    )
    .described(
        "Publishers see their own, admins everyone's: each one's state and links. Dictionaries are kept until \
                 their owner deletes them. Follow `next` for the following page. A request whose `Accept` names \
                 `text/html` (a browser's visit) gets the web page that makes dictionaries.",
    )
    // A browser's visit is the page that makes dictionaries.
    .web_page("dictionaries.html")
    .deleted(
        "The dictionary's id.",
        "Delete a dictionary you asked for.",
        "204; the dictionary is gone (404 from then on). One still queued or being set is 409: cancel its job \
                 first (`DELETE /jobs/{id}`).",
    );
}

resource::show_resource!(
    show,
    Dictionaries,
    Dictionary,
    "/dictionaries/{id}",
    "dictionaries",
    "A dictionary's state and progress (entries set of all) and, once set, how it was set."
);

/// The query of a `text/plain` `POST /dictionaries`: the request's members besides the entries.
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub(crate) struct TextQuery {
    /// The book's title.
    title: Option<String>,
    /// The author on the title page.
    author: Option<String>,
    /// The copyright line on the title page's back.
    copyright: Option<String>,
    /// The ISBN on the title page's back.
    isbn: Option<String>,
    /// The preface, its paragraphs separated by blank lines (none: no preface).
    preface: Option<String>,
    /// ISO 639-1 code of the language: its hyphenation patterns and its alphabetical order (default `en`).
    language: Option<String>,
    /// A named trim (default `5.25x8`) or `WxH` in inches.
    trim: Option<String>,
    /// `outer` (default) or `both`.
    heads: Option<HeadsRequest>,
}

#[utoipa::path(
    post,
    path = "/dictionaries",
    summary = "Queue typesetting a dictionary as a print-ready book.",
    description = "The entries as JSON (`entries`: headwords with senses, each a part of speech and a \
                   definition), or as a `text/plain; charset=utf-8` body, one entry a line, \
                   `headword;pos;definition` with further `;pos;definition` pairs for more senses, the other \
                   members then as query parameters (a line that cannot be read is 422 naming `line`). Entries are \
                   sorted as a dictionary in `language` sorts them (case and accents count only after the letters; \
                   Spanish Ñ after N, Swedish Å Ä Ö after Z), in sections per initial letter, set in two \
                   justified columns with hyphenation in `language`, running heads (`heads`: `outer` \
                   or `both`), a title page (its back holding `copyright` and `isbn`, when given), contents and \
                   preface. At most 20,000 entries and 4 MiB with a key, \
                   500 entries and 256 KiB without (422 naming `entries`; 413 for the body). An entry with a \
                   character the font (DejaVu Serif Condensed: Latin-1 and Latin Extended-A) lacks is 422 naming \
                   `entries[i]`. The PDF is at `book_pdf` of its links once set.",
    params(TextQuery),
    request_body(
        content(
            (DictionaryRequest = "application/json", example = json!({"title": "A Small Glossary", "author": "A. Compiler",
                "preface": ["Words the puzzles use."], "entries": [
                    {"headword": "abandon", "senses": [{"pos": "v.", "definition": "to give up completely"}]},
                    {"headword": "abase", "senses": [{"pos": "v.", "definition": "to lower in rank"}]}]})),
            (String = "text/plain", example = "abandon;v.;to give up completely\nabase;v.;to lower in rank\n"),
        )
    ),
)]
pub(crate) async fn create(submit: Submit, RawQuery(query): RawQuery, request: Request) -> Result<Response, ApiError> {
    let limits = submit.limits().dictionary;
    let req = read_request(request, query.as_deref(), &limits).await?;
    submit.admit().await?;
    let req = submit.settle(req)?;
    let req =
        blocking(move || req.params().book(&limits).map(|_| req)).await?.map_err(|(f, d)| ApiError::invalid(f, d))?;
    submit.enqueue::<Dictionaries>(req).await
}

/// A text body and its query as a request (422 naming `line` or the query parameter).
fn text_request(query: Option<&str>, body: &[u8]) -> Result<DictionaryRequest, ApiError> {
    let q: TextQuery = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|e| ApiError::invalid("query", format!("query string: {}", echo(&e.to_string()))))?;
    let text =
        std::str::from_utf8(body).map_err(|e| ApiError::invalid("body", format!("the body is not UTF-8: {e}")))?;
    let entries = parse_lines(text).map_err(|e| ApiError::invalid("line", e.to_string()))?;
    Ok(DictionaryRequest {
        title: q.title.unwrap_or_default(),
        author: q.author.unwrap_or_default(),
        copyright: q.copyright,
        isbn: q.isbn,
        preface: q.preface.as_deref().map(paragraphs).unwrap_or_default(),
        language: q.language.unwrap_or_else(|| "en".into()),
        trim: q.trim.unwrap_or_else(|| "5.25x8".into()),
        heads: q.heads.unwrap_or_default(),
        entries: entries.into_iter().map(EntryRequest::from).collect(),
    })
}

/// Paragraphs of `text` separated by blank lines, each one line.
fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim).chain([""]) {
        if line.is_empty() {
            if !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    out
}

/// A dictionary request from its body: JSON, or `text/plain` lines with the other members
/// in the query; 413 past the caller's limit, 415 for another media type.
async fn read_request(
    request: Request,
    query: Option<&str>,
    limits: &DictionaryLimits,
) -> Result<DictionaryRequest, ApiError> {
    let kind = media_type(&request);
    let too_large = format!(
        "the body is larger than {} KiB, the most a dictionary request of yours may be",
        limits.max_bytes.min(MAX_BYTES) >> 10
    );
    let body = axum::body::to_bytes(request.into_body(), limits.max_bytes.min(MAX_BYTES)).await.map_err(|e| {
        body_error(&e, &too_large).unwrap_or_else(|| {
            // The reader's own limit (a body without a declared length).
            if e.to_string().contains("length limit") {
                ApiError::TooLarge { detail: too_large.clone() }
            } else {
                ApiError::bad_request("Unreadable body", e.to_string())
            }
        })
    })?;
    Ok(match kind.as_str() {
        "text/plain" => text_request(query, &body)?,
        "application/json" => {
            if query.is_some_and(|q| !q.is_empty()) {
                return Err(ApiError::invalid("query", "with a JSON body, give every member in the body"));
            }
            parse_json::<DictionaryRequest>(&body)?
        }
        _ => {
            return Err(ApiError::UnsupportedMediaType {
                detail: "send the dictionary as JSON (application/json) or as text/plain lines".into(),
            })
        }
    })
}
