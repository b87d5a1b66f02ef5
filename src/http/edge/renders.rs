//! Rendering PDFs for downloads, bounded so that many downloads at once keep memory flat
//! and leave the async threads free: renders run on blocking threads, at most
//! `in_all` at a time (one a core by default) and at most `per_caller` for one caller
//! (more get 429 with `Retry-After`); a render that cannot start within [`WAIT`] gets 503
//! with `Retry-After`. Every download's render has a key naming its bytes (a book's PDF: its
//! serial and kind; a puzzle's: its job and trim): it happens once however many ask for it
//! at the same time, and its bytes are kept in a small cache shared by every response: a
//! hundred downloads of one book are one render and one copy of its PDF.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::http::error::ApiError;

/// How long a render waits to start (for the same render, or a free renderer) before 503.
pub const WAIT: Duration = Duration::from_secs(10);

/// PDFs at least this large hand the allocator's free memory back when rendered.
const RELEASE_AFTER_BYTES: usize = 4 << 20;

#[derive(Debug, Clone, Copy)]
pub struct RenderLimits {
    /// Renders running at once, all callers together.
    pub in_all: usize,
    /// Renders one caller may have running or waiting to run.
    pub per_caller: usize,
    /// Bytes of rendered PDFs kept; one PDF is kept if it takes at most a quarter.
    pub cache_bytes: usize,
}

impl Default for RenderLimits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        RenderLimits { in_all: cores, per_caller: 2, cache_bytes: 64 << 20 }
    }
}

pub struct Renders {
    limits: RenderLimits,
    permits: Arc<Semaphore>,
    /// Caller → renders running or waiting for a renderer.
    callers: Mutex<HashMap<String, usize>>,
    /// Keys being rendered: requests for the same one wait for it instead of rendering it again.
    rendering: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    cache: Mutex<Cache>,
    /// PDFs rendered (not answered from the cache).
    rendered: AtomicU64,
}

impl Default for Renders {
    fn default() -> Self {
        Renders::new(RenderLimits::default())
    }
}

/// Rendered PDFs, least recently used first.
#[derive(Default)]
struct Cache {
    entries: VecDeque<(String, Bytes)>,
    bytes: usize,
}

impl Cache {
    fn get(&mut self, key: &str) -> Option<Bytes> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        let entry = self.entries.remove(at)?;
        let bytes = entry.1.clone();
        self.entries.push_back(entry);
        Some(bytes)
    }

    fn insert(&mut self, key: String, pdf: Bytes, budget: usize) {
        if pdf.len() > budget / 4 {
            return;
        }
        self.bytes += pdf.len();
        self.entries.push_back((key, pdf));
        while self.bytes > budget {
            let Some((_, old)) = self.entries.pop_front() else { break };
            self.bytes -= old.len();
        }
    }
}

/// A caller's place among the renders, given back when dropped.
struct CallerSlot<'a> {
    renders: &'a Renders,
    caller: &'a str,
}

impl Drop for CallerSlot<'_> {
    fn drop(&mut self) {
        self.renders.give_back(self.caller);
    }
}

/// A caller's place among the renders held by a print run's archive for as long as it
/// streams (its copies take renderers one by one), given back when dropped.
pub struct HeldSlot {
    renders: Arc<Renders>,
    caller: String,
}

impl Drop for HeldSlot {
    fn drop(&mut self) {
        self.renders.give_back(&self.caller);
    }
}

fn busy() -> ApiError {
    ApiError::Unavailable { detail: "every renderer is busy; try again shortly".into(), retry_after: 2 }
}

impl Renders {
    pub fn new(limits: RenderLimits) -> Renders {
        let limits = RenderLimits { in_all: limits.in_all.max(1), per_caller: limits.per_caller.max(1), ..limits };
        Renders {
            permits: Arc::new(Semaphore::new(limits.in_all)),
            limits,
            callers: Mutex::default(),
            rendering: Mutex::default(),
            cache: Mutex::default(),
            rendered: AtomicU64::new(0),
        }
    }

    fn cached(&self, key: &str) -> Option<Bytes> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(key)
    }

    /// The PDF `render` makes of what `load` reads, for `caller`, within the limits. `key`
    /// names the PDF's bytes exactly (same key, same bytes): a cached copy is answered
    /// without loading anything, and requests for a key being rendered wait for that render.
    /// (Every download has one; without, as in tests, nothing is kept.)
    pub async fn pdf<T: Send + 'static>(
        &self,
        caller: &str,
        key: Option<&str>,
        load: impl Future<Output = Result<T, ApiError>>,
        render: impl FnOnce(T) -> Result<Vec<u8>, ApiError> + Send + 'static,
    ) -> Result<Bytes, ApiError> {
        let _same = match key {
            Some(key) => {
                if let Some(pdf) = self.cached(key) {
                    return Ok(pdf);
                }
                let lock =
                    self.rendering.lock().unwrap_or_else(|e| e.into_inner()).entry(key.into()).or_default().clone();
                let guard = tokio::time::timeout(WAIT, lock.lock_owned()).await.map_err(|_| busy())?;
                // Rendered by the request this one waited for.
                if let Some(pdf) = self.cached(key) {
                    return Ok(pdf);
                }
                Some(guard)
            }
            None => None,
        };
        let pdf = self.render(caller, load, render).await;
        if let Some(key) = key {
            if let Ok(pdf) = &pdf {
                let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
                cache.insert(key.into(), pdf.clone(), self.limits.cache_bytes);
            }
            // Waiters find the PDF in the cache, or (if this render failed) try themselves.
            self.rendering.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
        }
        pdf
    }

    /// PDFs rendered so far (not answered from the cache).
    pub fn rendered(&self) -> u64 {
        self.rendered.load(Ordering::Relaxed)
    }

    /// One render for `caller` within the limits, on a blocking thread.
    async fn render<T: Send + 'static>(
        &self,
        caller: &str,
        load: impl Future<Output = Result<T, ApiError>>,
        render: impl FnOnce(T) -> Result<Vec<u8>, ApiError> + Send + 'static,
    ) -> Result<Bytes, ApiError> {
        let _slot = self.caller_slot(caller)?;
        let _permit = tokio::time::timeout(WAIT, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let input = load.await?;
        self.rendered.fetch_add(1, Ordering::Relaxed);
        let pdf = tokio::task::spawn_blocking(move || {
            let pdf = render(input);
            if pdf.as_ref().is_ok_and(|p| p.len() >= RELEASE_AFTER_BYTES) {
                crate::memory::release();
            }
            pdf
        })
        .await
        .map_err(|e| ApiError::Internal(format!("rendering failed: {e}")))??;
        Ok(Bytes::from(pdf))
    }

    /// [`Renders::caller_slot`] held until dropped, by a task that outlives the request.
    pub fn hold_slot(self: &Arc<Self>, caller: &str) -> Result<HeldSlot, ApiError> {
        std::mem::forget(self.caller_slot(caller)?);
        Ok(HeldSlot { renders: self.clone(), caller: caller.to_string() })
    }

    /// A renderer for one copy of an archive: waits as long as it takes, as the archive
    /// streams at the pace of its renders (None only if the renderers were closed).
    pub async fn renderer(&self) -> Option<OwnedSemaphorePermit> {
        self.permits.clone().acquire_owned().await.ok()
    }

    fn give_back(&self, caller: &str) {
        let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = callers.get_mut(caller) {
            *n -= 1;
            if *n == 0 {
                callers.remove(caller);
            }
        }
    }

    /// A place for one more render of `caller`'s, or 429.
    fn caller_slot<'a>(&'a self, caller: &'a str) -> Result<CallerSlot<'a>, ApiError> {
        let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        let n = callers.entry(caller.to_string()).or_default();
        if *n >= self.limits.per_caller {
            return Err(ApiError::TooMany {
                detail: format!(
                    "you have {n} PDFs being rendered, the most at once per caller; wait for one to finish"
                ),
                retry_after: 1,
            });
        }
        *n += 1;
        Ok(CallerSlot { renders: self, caller })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renders(per_caller: usize) -> Arc<Renders> {
        Arc::new(Renders::new(RenderLimits { in_all: 1, per_caller, cache_bytes: 1 << 20 }))
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn concurrent_requests_for_one_key_are_one_render() {
        let renders = renders(1);
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                let (renders, count) = (renders.clone(), count.clone());
                tokio::spawn(async move {
                    renders
                        .pdf("anon:1", Some("book/X"), async { Ok(()) }, move |()| {
                            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(50));
                            Ok(vec![7; 1000])
                        })
                        .await
                })
            })
            .collect();
        for task in tasks {
            assert_eq!(task.await.unwrap().unwrap().len(), 1000);
        }
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_caller_past_its_renders_gets_429_and_others_are_not_held_to_it() {
        let renders = renders(1);
        let (started, release) = (Arc::new(tokio::sync::Notify::new()), Arc::new(std::sync::Barrier::new(2)));
        let slow = {
            let (renders, started, release) = (renders.clone(), started.clone(), release.clone());
            tokio::spawn(async move {
                renders
                    .pdf(
                        "anon:1",
                        None,
                        async move {
                            started.notify_one();
                            Ok(())
                        },
                        move |()| {
                            release.wait();
                            Ok(vec![1])
                        },
                    )
                    .await
            })
        };
        started.notified().await;
        let refused = renders.pdf("anon:1", None, async { Ok(()) }, |()| Ok(vec![2])).await;
        assert!(matches!(refused, Err(ApiError::TooMany { .. })), "{refused:?}");
        // Another caller waits for the one renderer rather than being refused.
        let other = {
            let renders = renders.clone();
            tokio::spawn(async move { renders.pdf("anon:2", None, async { Ok(()) }, |()| Ok(vec![3])).await })
        };
        release.wait();
        assert_eq!(&slow.await.unwrap().unwrap()[..], &[1]);
        assert_eq!(&other.await.unwrap().unwrap()[..], &[3]);
    }
}
