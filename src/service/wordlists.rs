//! Word-list ingestion: an upload's bytes read as a stream, a line at a time, counted
//! against its owner's quota as they arrive, parsed on a blocking thread, stored once per
//! content, and the parsed list kept for fills.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use axum::body::Bytes;
use futures_util::{Stream, StreamExt};
use sha2::{Digest, Sha256};

use super::error::ApiError;
use crate::jobs::WordLists;
use crate::puzzles::crossword::words::{LineError, ListReader};
use crate::puzzles::crossword::{self as crossword, WordList};
use crate::store::{NewWordList, Saved, Store, WordListQuota, WordListRecord};

/// Largest list the route reads at all, in bytes; each tier has its own maximum within it
/// (`crossword.wordlist_max_bytes`).
pub const MAX_BYTES: usize = 64 << 20;
/// Bytes of uploads being read at once by this process, all callers together: past it an
/// upload is refused with 503 (each is held in memory until it is stored).
const IN_FLIGHT_BYTES: i64 = 256 << 20;
/// Uploads at least this large hand the allocator's free memory back once stored.
const RELEASE_AFTER_BYTES: usize = 4 << 20;

/// An upload to read: whose, its name, its owner's tier's limits, and its declared length.
pub struct Upload<'a> {
    pub owner: String,
    pub name: String,
    pub limits: &'a crossword::Limits,
    /// `Content-Length`, if the client sent one.
    pub declared: Option<u64>,
}

/// Reads, checks and stores an upload's `body`: the stored list and whether it is new to
/// its owner. `body_error` tells what a failed read of the body means (given the detail
/// of a too large upload); any other failure is an unreadable body.
pub async fn ingest<E: std::error::Error + 'static>(
    store: &Store,
    uploads: &Uploads,
    cache: &WordLists,
    upload: Upload<'_>,
    body: impl Stream<Item = Result<Bytes, E>>,
    body_error: impl Fn(&(dyn std::error::Error + 'static), &str) -> Option<ApiError>,
) -> Result<(WordListRecord, bool), ApiError> {
    let owner = upload.owner;
    let limits = UploadLimits::of(upload.limits);
    if upload.declared.is_some_and(|n| n > limits.max_bytes as u64) {
        return Err(limits.too_large());
    }
    let (lists, kept) = store.wordlist_usage(&owner).await?;
    let mut reservation = uploads.reserve(&owner, lists, limits.quota)?;
    let declared = upload.declared.unwrap_or(0) as usize;
    // A declared length past the quota is refused before the body is read.
    reservation.grow(declared as i64, kept, limits.quota)?;

    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let max_words = limits.max_words;
    let parsed = tokio::task::spawn_blocking(move || read_list(rx, declared, max_words));
    let mut stream = std::pin::pin!(body);
    let mut received = 0usize;
    let refused = loop {
        let chunk = match stream.next().await {
            None => break tx.send(None).await.err().map(|_| None),
            Some(Ok(chunk)) => chunk,
            Some(Err(e)) => {
                let limit = limits.too_large().to_string();
                break Some(Some(
                    body_error(&e, &limit).unwrap_or_else(|| ApiError::bad_request("Unreadable body", e.to_string())),
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
    let saved = store.save_wordlist(&owner, &upload.name, &new, limits.quota).await;
    drop(new);
    drop(reservation);
    if received >= RELEASE_AFTER_BYTES {
        // The upload's bytes are freed: hand the memory back rather than keep it.
        crate::memory::release();
    }
    let (record, created) = match saved? {
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
    cache.insert(&record.id, std::sync::Arc::new(list));
    Ok((record, created))
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
pub fn stored(body: Vec<u8>, list: &WordList) -> Result<NewWordList, ApiError> {
    let sha256: String = Sha256::digest(&body).iter().map(|b| format!("{b:02x}")).collect();
    let by_length: BTreeMap<usize, usize> = list.by_length().into_iter().enumerate().filter(|&(_, n)| n > 0).collect();
    let by_length = serde_json::to_string(&by_length).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(NewWordList { id: sha256[..32].to_string(), sha256, body, entries: list.len() as i64, by_length })
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
