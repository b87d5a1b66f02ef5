//! Waking idle workers when a job is queued: at once in this process, and in other
//! processes sharing a PostgreSQL database through the store's notifications. Workers also
//! poll, so a lost notification only delays a job by one poll interval.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::store::Store;

#[derive(Clone, Default)]
pub struct Wake(Arc<Notify>);

impl Wake {
    /// Tells one idle worker here that a job is waiting (other processes on a PostgreSQL
    /// database hear of it from the transaction that queued it).
    pub fn job_queued(&self) {
        self.0.notify_one();
    }

    /// Resolves when a job may be waiting.
    pub async fn wait(&self) {
        self.0.notified().await
    }

    /// Forwards other processes' notifications to this process's workers until the
    /// process ends, reconnecting after errors (PostgreSQL only; SQLite has none).
    pub fn listen(&self, store: &Store) {
        let (store, notify) = (store.clone(), self.0.clone());
        tokio::spawn(async move {
            loop {
                match store.queue_listener().await {
                    Ok(None) => return,
                    Ok(Some(mut listener)) => {
                        while listener.recv().await.is_ok() {
                            notify.notify_one();
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "could not connect the job listener"),
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        });
    }
}
