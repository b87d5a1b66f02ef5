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

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::caller::Caller;
use super::error::ApiError;
use super::respond::echo;
use super::AppState;
use crate::puzzles::crossword::words::{LineError, ListReader};
use crate::puzzles::crossword::{self as crossword, WordList};
use crate::service::timestamp;
use crate::store::{NewWordList, Saved, WordListQuota, WordListRecord};

/// Largest list the route reads at all, in bytes; each tier has its own maximum within it
/// (`crossword.wordlist_max_bytes`).
pub const MAX_BYTES: usize = 64 << 20;
/// Bytes of uploads being read at once by this process, all callers together: past it an
/// upload is refused with 503 (each is held in memory until it is stored).
const IN_FLIGHT_BYTES: i64 = 256 << 20;
/// Uploads at least this large hand the allocator's free memory back once stored.
const RELEASE_AFTER_BYTES: usize = 4 << 20;
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

/// Uploads being read, counted per owner as their bytes arrive, so that one owner's
/// concurrent uploads are held to its quota together and refused as soon as they would
/// pass it (the store checks the quota again, atomically, when one is saved).
#[derive(Debug, Default)]
pub struct Uploads(Mutex<InFlight>);

#[derive(Debug, Default)]
struct InFlight {
    /// Owner → (uploads, bytes received).
    by_owner: HashMap<String, (i64, i64)>,
    /// Bytes received by every upload being read.
    bytes: i64,
}

/// One upload's place in [`Uploads`], given back when dropped.
struct Reservation<'a> {
    uploads: &'a Uploads,
    owner: String,
    bytes: i64,
    /// Whether it still counts against its owner's quota (see [`Reservation::settle`]).
    owned: bool,
}

impl Uploads {
    fn lock(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more upload of `owner`, who keeps `stored` lists already (429 past
    /// `quota`, counting the owner's other uploads being read).
    fn reserve(&self, owner: &str, stored: i64, quota: WordListQuota) -> Result<Reservation<'_>, ApiError> {
        let mut in_flight = self.lock();
        let uploading = in_flight.by_owner.get(owner).map_or(0, |e| e.0);
        if stored + uploading >= quota.lists {
            let detail = if uploading == 0 {
                format!("you have {stored} word lists, the most kept per caller; delete one first")
            } else {
                format!(
                    "you have {stored} word lists and {uploading} uploads under way; a caller keeps at most {}",
                    quota.lists
                )
            };
            return Err(ApiError::TooMany { detail, retry_after: 60 });
        }
        in_flight.by_owner.entry(owner.to_string()).or_default().0 += 1;
        Ok(Reservation { uploads: self, owner: owner.to_string(), bytes: 0, owned: true })
    }
}

impl Reservation<'_> {
    /// Counts the upload as `total` bytes (never less than before): 413 if with the
    /// owner's `stored` bytes and its other uploads it would pass `quota`, 503 if uploads
    /// in all would hold too much memory.
    fn grow(&mut self, total: i64, stored: i64, quota: WordListQuota) -> Result<(), ApiError> {
        let more = total - self.bytes;
        if more <= 0 {
            return Ok(());
        }
        let mut in_flight = self.uploads.lock();
        let owner = in_flight.by_owner.get(&self.owner).map_or(0, |e| e.1);
        if stored + owner + more > quota.bytes {
            return Err(ApiError::TooLarge {
                detail: format!(
                    "your word lists hold {stored} bytes and your uploads under way {}; this one would pass the {} \
                     bytes ({}) kept per caller: delete one first",
                    owner + more,
                    quota.bytes,
                    mib(quota.bytes as usize)
                ),
            });
        }
        if in_flight.bytes + more > IN_FLIGHT_BYTES {
            return Err(ApiError::Unavailable {
                detail: "too many word lists are being uploaded at once; try again shortly".into(),
                retry_after: 5,
            });
        }
        in_flight.bytes += more;
        if let Some(e) = in_flight.by_owner.get_mut(&self.owner) {
            e.1 += more;
        }
        self.bytes = total;
        Ok(())
    }

    /// Stops counting the upload against its owner's quota, as it is about to be saved
    /// (its bytes stay counted against the memory uploads hold until it is dropped). Once
    /// the saved list can be seen, an upload reading the owner's usage would count it
    /// twice, stored and under way, and be refused short of the quota; settled first, it
    /// is counted at most once, and the store's own check, atomic with the save, holds
    /// concurrent uploads to the quota.
    fn settle(&mut self) {
        let mut in_flight = self.uploads.lock();
        self.leave_owner(&mut in_flight);
    }

    fn leave_owner(&mut self, in_flight: &mut InFlight) {
        if !std::mem::replace(&mut self.owned, false) {
            return;
        }
        if let Some(e) = in_flight.by_owner.get_mut(&self.owner) {
            e.0 -= 1;
            e.1 -= self.bytes;
            if e.0 == 0 {
                in_flight.by_owner.remove(&self.owner);
            }
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut in_flight = self.uploads.lock();
        in_flight.bytes -= self.bytes;
        self.leave_owner(&mut in_flight);
    }
}

/// `bytes` in MiB (or KiB) for messages.
fn mib(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{} KiB", bytes as f64 / 1024.0)
    }
}

/// What a caller's tier allows an upload.
struct UploadLimits {
    max_bytes: usize,
    max_words: usize,
    quota: WordListQuota,
}

impl UploadLimits {
    fn of(limits: &crossword::Limits) -> UploadLimits {
        UploadLimits {
            max_bytes: limits.wordlist_max_bytes.min(MAX_BYTES),
            max_words: limits.wordlist_max_words,
            quota: WordListQuota { lists: limits.wordlists_per_caller, bytes: limits.wordlist_bytes_per_caller },
        }
    }

    fn too_large(&self) -> ApiError {
        ApiError::TooLarge {
            detail: format!("a word list may have at most {} bytes ({})", self.max_bytes, mib(self.max_bytes)),
        }
    }
}

/// Chunks of an upload as they arrive; `None` once the body is complete (a channel closed
/// without it means the upload was abandoned).
type Chunks = tokio::sync::mpsc::Receiver<Option<Bytes>>;

/// Reads an upload's chunks into what is stored of it and its list, a line at a time, on
/// a blocking thread: 422 naming the line, or the most entries, as soon as a line passes
/// it. `None` if the upload was abandoned.
fn read_list(
    mut chunks: Chunks,
    expected: usize,
    max_words: usize,
) -> Result<Option<(NewWordList, WordList)>, ApiError> {
    let line_error = |e: LineError| ApiError::InvalidLine { line: e.line, detail: e.to_string() };
    let mut body = Vec::with_capacity(expected);
    let mut reader = ListReader::with_capacity(expected / 10);
    let too_many = || {
        ApiError::invalid(
            "body",
            format!("a word list may have at most {max_words} distinct entries (this one has more)"),
        )
    };
    loop {
        match chunks.blocking_recv() {
            Some(Some(chunk)) => {
                body.extend_from_slice(&chunk);
                reader.read(&chunk).map_err(line_error)?;
                if reader.entries() > max_words {
                    return Err(too_many());
                }
            }
            Some(None) => break,
            None => return Ok(None),
        }
    }
    let list = reader.finish().map_err(line_error)?;
    if list.len() > max_words {
        return Err(too_many());
    }
    if list.is_empty() {
        return Err(ApiError::invalid("body", "the word list has no entries of 2 to 31 letters"));
    }
    Ok(Some((stored(body, &list)?, list)))
}

/// What is stored of a list: its text, keyed by the first 32 hex digits of its SHA-256.
pub(crate) fn stored(body: Vec<u8>, list: &WordList) -> Result<NewWordList, ApiError> {
    let sha256: String = Sha256::digest(&body).iter().map(|b| format!("{b:02x}")).collect();
    let by_length: BTreeMap<usize, usize> = list.by_length().into_iter().enumerate().filter(|&(_, n)| n > 0).collect();
    let by_length = serde_json::to_string(&by_length).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(NewWordList { id: sha256[..32].to_string(), sha256, body, entries: list.len() as i64, by_length })
}

#[utoipa::path(
    post,
    path = "/wordlists",
    tag = "crosswords",
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
        (status = 400, response = super::openapi::BadRequest),
        (status = 413, response = super::openapi::TooLarge),
        (status = 415, response = super::openapi::UnsupportedMediaType),
        (status = 422, response = super::openapi::Invalid),
        (status = 429, response = super::openapi::TooMany),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn upload(
    State(state): State<AppState>,
    caller: Caller,
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
    let owner = caller.owner();
    let limits = UploadLimits::of(&caller.limits(&state).crossword);
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_bytes as u64) {
        return Err(limits.too_large());
    }
    let (lists, kept) = state.store.wordlist_usage(&owner).await?;
    let mut reservation = state.uploads.reserve(&owner, lists, limits.quota)?;
    let declared = declared.unwrap_or(0) as usize;
    // A declared length past the quota is refused before the body is read.
    reservation.grow(declared as i64, kept, limits.quota)?;

    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let max_words = limits.max_words;
    let parsed = tokio::task::spawn_blocking(move || read_list(rx, declared, max_words));
    let mut stream = body.into_data_stream();
    let mut received = 0usize;
    let refused = loop {
        let chunk = match stream.next().await {
            None => break tx.send(None).await.err().map(|_| None),
            Some(Ok(chunk)) => chunk,
            Some(Err(e)) => {
                let limit = limits.too_large().to_string();
                break Some(Some(
                    super::extract::body_error(&e, &limit)
                        .unwrap_or_else(|| ApiError::bad_request("Unreadable body", e.to_string())),
                ));
            }
        };
        received += chunk.len();
        if received > limits.max_bytes {
            break Some(Some(limits.too_large()));
        }
        if let Err(e) = reservation.grow(received as i64, kept, limits.quota) {
            break Some(Some(e));
        }
        // The reader stopped (a bad line): its error is the answer.
        if tx.send(Some(chunk)).await.is_err() {
            break Some(None);
        }
    };
    drop(tx);
    let parsed = parsed.await.map_err(|e| ApiError::Internal(format!("reading a word list failed: {e}")))?;
    if let Some(Some(e)) = refused {
        return Err(e);
    }
    let Some((new, list)) = parsed? else {
        return Err(ApiError::Internal("a word list's reader stopped without an answer".into()));
    };
    reservation.settle();
    let saved = state.store.save_wordlist(&owner, &name, &new, limits.quota).await;
    drop(new);
    drop(reservation);
    if received >= RELEASE_AFTER_BYTES {
        // The upload's bytes are freed: hand the memory back rather than keep it.
        crate::memory::release();
    }
    let saved = saved?;
    let (record, created) = match saved {
        Saved::Kept { record, created } => (record, created),
        Saved::OverQuota { lists, .. } if lists >= limits.quota.lists => {
            return Err(ApiError::TooMany {
                detail: format!("you have {lists} word lists, the most kept per caller; delete one first"),
                retry_after: 60,
            })
        }
        Saved::OverQuota { bytes, .. } => {
            return Err(ApiError::TooLarge {
                detail: format!(
                    "your word lists hold {bytes} bytes; with this one ({received} bytes) they would pass the {} \
                     bytes ({}) kept per caller: delete one first",
                    limits.quota.bytes,
                    mib(limits.quota.bytes as usize)
                ),
            })
        }
    };
    state.wordlists.insert(&record.id, std::sync::Arc::new(list));
    let location = format!("/wordlists/{}", record.id);
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, [(header::LOCATION, location)], Json(view(record)?)).into_response())
}

#[utoipa::path(
    get,
    path = "/wordlists",
    tag = "crosswords",
    summary = "The caller's word lists.",
    responses(
        (status = 200, description = "The caller's lists, newest first.", body = WordListsView),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn list(State(state): State<AppState>, caller: Caller) -> Result<Response, ApiError> {
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
    tag = "crosswords",
    summary = "One word list: its name, entries by length and hash.",
    params(("id" = String, Path, description = "The list's id.")),
    responses(
        (status = 200, description = "The list.", body = WordListView),
        (status = 404, response = super::openapi::NotFound),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = visible(&state, &caller, &id).await?;
    Ok(Json(view(record)?).into_response())
}

#[utoipa::path(
    delete,
    path = "/wordlists/{id}",
    tag = "crosswords",
    summary = "Delete the caller's copy of a word list (other owners keep theirs).",
    params(("id" = String, Path, description = "The list's id.")),
    responses(
        (status = 204, description = "Deleted."),
        (status = 404, response = super::openapi::NotFound),
        (status = 503, response = super::openapi::Unavailable),
    )
)]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if !state.store.delete_wordlist(&caller.owner(), &id).await? {
        return Err(ApiError::not_found(format!("you have no word list {}", echo(&id))));
    }
    // Another owner may still have it: it is parsed again when next used.
    state.wordlists.forget(&id);
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_upload_being_saved_no_longer_counts_against_its_owners_quota() {
        let uploads = Uploads::default();
        let quota = WordListQuota { lists: 3, bytes: 300 };
        let mut first = uploads.reserve("a", 0, quota).unwrap();
        first.grow(100, 0, quota).unwrap();
        // Under way, it counts: with another 100 stored, a second upload has 100 left.
        let mut second = uploads.reserve("a", 1, quota).unwrap();
        assert!(second.grow(101, 100, quota).is_err());
        second.grow(100, 100, quota).unwrap();
        drop(second);
        // Being saved (its list about to be seen as stored), it no longer counts: an
        // upload that reads it as stored is not charged for it twice.
        first.settle();
        let mut third = uploads.reserve("a", 2, quota).unwrap();
        third.grow(100, 200, quota).unwrap();
        assert!(third.grow(101, 200, quota).is_err());
        // Its bytes stay counted against the memory uploads hold until it is dropped.
        assert_eq!(uploads.lock().bytes, 200);
        drop(first);
        assert_eq!(uploads.lock().bytes, 100);
        drop(third);
        let in_flight = uploads.lock();
        assert_eq!((in_flight.bytes, in_flight.by_owner.len()), (0, 0));
    }
}
