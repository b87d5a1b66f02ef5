//! Word lists: `POST /wordlists` uploads a scored list (`text/plain`, up to the caller's
//! tier's maximum of bytes and entries — 64 MiB and 1,000,000 entries for key holders —
//! read and parsed as a stream, a line at a time, and not bound by the 1 MiB JSON limit;
//! the bytes count against the caller's quota as they arrive), `GET /wordlists` lists the
//! caller's, `GET` and `DELETE /wordlists/{id}`. Fills and word squares name one by its
//! id (`"wordlist": id`).
//!
//! A list's id is the first 32 hex digits of the SHA-256 of its bytes: the same file gets
//! the same id, and its text is stored once however many owners upload it. Each owner
//! has its own row (and name); deleting it leaves other owners' rows. Access follows the
//! `Caller` rules: once the service is closed a caller sees only its own lists (others are 404).

use std::collections::BTreeMap;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, RawQuery};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::respond::echo;
use super::AppState;
use crate::service::timestamp;
use crate::service::wordlists::{ingest, Upload};
use crate::store::WordListRecord;

/// Longest `name`, in characters.
const MAX_NAME_CHARS: usize = 200;

pub fn router() -> Router<AppState> {
    Router::new()
        // The body is read as a stream with its own limit (MAX_BYTES), not the JSON one.
        .route("/wordlists", post(upload).layer(DefaultBodyLimit::disable()).get(list))
        .route("/wordlists/{id}", get(show).delete(remove))
}

/// An uploaded word list.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct WordListView {
    /// The first 32 hex digits of `sha256`: the same file always gets the same id.
    id: String,
    /// The name given at upload (`?name=`), or empty.
    name: String,
    /// Distinct entries (after normalisation to A-Z).
    entries: i64,
    /// Entries of each length, by length.
    #[schema(value_type = BTreeMap<String, i64>)]
    by_length: BTreeMap<u32, i64>,
    /// SHA-256 of the uploaded bytes, in hex.
    sha256: String,
    /// Size of the uploaded file.
    bytes: i64,
    created_at: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct WordListsView {
    /// The caller's lists, newest first.
    wordlists: Vec<WordListView>,
}

fn view(r: WordListRecord) -> Result<WordListView, ApiError> {
    let by_length = serde_json::from_str(&r.by_length)
        .map_err(|e| ApiError::Internal(format!("word list {}: stored by_length: {e}", r.id)))?;
    Ok(WordListView {
        id: r.id,
        name: r.name,
        entries: r.entries,
        by_length,
        sha256: r.sha256,
        bytes: r.bytes,
        created_at: timestamp(r.created_at),
    })
}

/// The query of `POST /wordlists`.
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub(crate) struct UploadQuery {
    /// A name for the list (up to 200 characters).
    name: Option<String>,
}

#[utoipa::path(
    post,
    path = "/wordlists",
    summary = "Upload a scored word list for fills and word squares.",
    description = "The body is `text/plain` (UTF-8): one entry a line, `entry;score` with a score of \
                   0..100 (a line without one scores 50); blank lines and lines starting with `#` are skipped. \
                   Entries are normalised to A-Z (case, spaces, punctuation and accents dropped: `crème brûlée;60` \
                   is CREMEBRULEE); a duplicate keeps its highest score; entries of 1 letter or over 31 fit no slot \
                   and are left out. A bad line is 422 naming its `line`. The id is the first 32 hex digits of the \
                   SHA-256 of the bytes, so the same file always gets the same id and is stored once: 201 for a list \
                   new to the caller, 200 when the caller has it already.\n\n\
                   Each tier of caller has its limits (`--limits`): a key holder (or anyone, while the service has \
                   no keys) may upload lists of up to 64 MiB and 1,000,000 distinct entries and keep 20 lists and \
                   256 MiB of them; a caller without a key, once the service has keys, 1 MiB and 20,000 entries, \
                   and keeps 10 lists and 4 MiB. The body is refused as soon as it passes a limit: 413 for bytes \
                   (a declared `Content-Length` before any is read; uploads under way count against the quota as \
                   their bytes arrive), 422 for entries, 429 for the count of lists, 503 when the server is \
                   reading too many uploads at once.",
    params(UploadQuery),
    request_body(content = String, content_type = "text/plain",
        example = json!("crème brûlée;60\nheart;70\nhouse\n")),
    responses(
        (status = 201, description = "Stored; it is at `Location`.", body = WordListView,
            headers(("Location" = String, description = "`/wordlists/{id}`"))),
        (status = 200, description = "The caller had this list already.", body = WordListView),
    )
)]
pub(crate) async fn upload(
    Call { state, caller }: Call,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let q: UploadQuery = serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::invalid("query", format!("query string: {e}")))?;
    let name = q.name.unwrap_or_default();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::invalid("name", format!("name may have at most {MAX_NAME_CHARS} characters")));
    }
    let media_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if media_type != "text/plain" {
        return Err(ApiError::UnsupportedMediaType {
            detail: "send the word list as Content-Type: text/plain (one entry;score a line)".into(),
        });
    }
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let limits = &caller.limits(&state).crossword;
    let upload = Upload { owner: caller.owner(), name, limits, declared };
    let body = body.into_data_stream();
    let (record, created) =
        ingest(&state.store, &state.uploads, &state.wordlists, upload, body, super::extract::body_error).await?;
    let location = format!("/wordlists/{}", record.id);
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, [(header::LOCATION, location)], Json(view(record)?)).into_response())
}

#[utoipa::path(
    get,
    path = "/wordlists",
    summary = "The caller's word lists.",
    responses(
        (status = 200, description = "The caller's lists, newest first.", body = WordListsView),
    )
)]
pub(crate) async fn list(Call { state, caller }: Call) -> Result<Response, ApiError> {
    let rows = state.store.wordlists_of(&caller.owner()).await?;
    let wordlists = rows.into_iter().map(view).collect::<Result<_, _>>()?;
    Ok(Json(WordListsView { wordlists }).into_response())
}

/// The row of list `id` the caller may see (its own first), or 404.
pub(crate) async fn visible(state: &AppState, caller: &Caller, id: &str) -> Result<WordListRecord, ApiError> {
    let owner = caller.owner();
    let mut rows = state.store.wordlist_rows(id).await?;
    rows.sort_by_key(|r| r.owner != owner);
    rows.into_iter()
        .find(|r| caller.may_see(&r.owner))
        .ok_or_else(|| ApiError::not_found(format!("no word list {}", echo(id))))
}

#[utoipa::path(
    get,
    path = "/wordlists/{id}",
    summary = "One word list: its name, entries by length and hash.",
    params(("id" = String, Path, description = "The list's id.")),
    responses(
        (status = 200, description = "The list.", body = WordListView),
    )
)]
pub(crate) async fn show(Call { state, caller }: Call, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = visible(&state, &caller, &id).await?;
    Ok(Json(view(record)?).into_response())
}

#[utoipa::path(
    delete,
    path = "/wordlists/{id}",
    summary = "Delete the caller's copy of a word list (other owners keep theirs).",
    params(("id" = String, Path, description = "The list's id.")),
    responses(
        (status = 204, description = "Deleted."),
    )
)]
pub(crate) async fn remove(Call { state, caller }: Call, Path(id): Path<String>) -> Result<Response, ApiError> {
    if !state.store.delete_wordlist(&caller.owner(), &id).await? {
        return Err(ApiError::not_found(format!("you have no word list {}", echo(&id))));
    }
    // Another owner may still have it: it is parsed again when next used.
    state.wordlists.forget(&id);
    Ok(StatusCode::NO_CONTENT.into_response())
}
