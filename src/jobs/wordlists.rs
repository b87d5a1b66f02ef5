//! Uploaded word lists as the engines use them: read from the store by id, parsed and
//! indexed once per process and kept in a small least-recently-used cache, shared by
//! the HTTP handlers (which check requests) and the jobs (which load the list named by
//! their params: the params hold the id, never the words).

use std::sync::{Arc, Mutex};

use crate::puzzles::crossword::WordList;
use crate::store::{Store, StoreError};

/// Lists kept parsed per process: a 300,000-entry list takes about 4 MB.
pub const CACHED_LISTS: usize = 8;

/// Lists at least this large hand the allocator's free memory back once parsed.
const RELEASE_AFTER_BYTES: usize = 4 << 20;

pub struct WordLists {
    store: Store,
    /// Most recently used last.
    cache: Mutex<Vec<(String, Arc<WordList>)>>,
    capacity: usize,
}

/// Why a stored list could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Stored text that no longer parses (it parsed when uploaded): a bug or tampering.
    #[error("stored word list {id} does not parse: {message}")]
    Corrupt { id: String, message: String },
}

impl WordLists {
    pub fn new(store: Store, capacity: usize) -> WordLists {
        WordLists { store, cache: Mutex::new(Vec::new()), capacity: capacity.max(1) }
    }

    /// The parsed list, if this process has it.
    pub fn cached(&self, id: &str) -> Option<Arc<WordList>> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let at = cache.iter().position(|(k, _)| k == id)?;
        let entry = cache.remove(at);
        let list = entry.1.clone();
        cache.push(entry);
        Some(list)
    }

    /// Keeps `list` as the most recently used, dropping the least recently used beyond
    /// the capacity.
    pub fn insert(&self, id: &str, list: Arc<WordList>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(k, _)| k != id);
        cache.push((id.to_string(), list));
        let excess = cache.len().saturating_sub(self.capacity);
        cache.drain(..excess);
    }

    pub fn forget(&self, id: &str) {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).retain(|(k, _)| k != id);
    }

    /// List `id` from the cache or the store (parsed on a blocking thread); `None` when
    /// no owner has it.
    pub async fn load(self: &Arc<Self>, id: &str) -> Result<Option<Arc<WordList>>, LoadError> {
        if let Some(list) = self.cached(id) {
            return Ok(Some(list));
        }
        let Some(body) = self.store.wordlist_body(id).await? else { return Ok(None) };
        let (me, id) = (self.clone(), id.to_string());
        tokio::task::spawn_blocking(move || me.parse_and_keep(&id, &body))
            .await
            .map_err(|e| LoadError::Corrupt { id: "?".into(), message: e.to_string() })?
            .map(Some)
    }

    /// [`WordLists::load`] for a blocking thread inside the runtime (a job's engine).
    pub fn load_blocking(&self, id: &str) -> Result<Option<Arc<WordList>>, LoadError> {
        if let Some(list) = self.cached(id) {
            return Ok(Some(list));
        }
        let handle = tokio::runtime::Handle::current();
        let Some(body) = handle.block_on(self.store.wordlist_body(id))? else { return Ok(None) };
        self.parse_and_keep(id, &body).map(Some)
    }

    fn parse_and_keep(&self, id: &str, body: &[u8]) -> Result<Arc<WordList>, LoadError> {
        let corrupt = |message: String| LoadError::Corrupt { id: id.to_string(), message };
        let text = std::str::from_utf8(body).map_err(|e| corrupt(e.to_string()))?;
        let list = Arc::new(WordList::parse(text).map_err(|e| corrupt(e.to_string()))?);
        if body.len() >= RELEASE_AFTER_BYTES {
            // The parse's scratch (its index of entries) is freed: hand it back.
            crate::memory::release();
        }
        self.insert(id, list.clone());
        Ok(list)
    }
}
