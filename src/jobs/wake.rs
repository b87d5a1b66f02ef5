//! Waking idle workers when a job is queued: at once in this process, and in other
//! processes sharing a PostgreSQL database through LISTEN/NOTIFY. Workers also poll, so a
//! lost notification only delays a job by one poll interval.

use std::sync::Arc;

use sqlx::postgres::PgListener;
use tokio::sync::Notify;

use crate::store::Store;

const CHANNEL: &str = "puzzlepress_jobs";

#[derive(Clone, Default)]
pub struct Wake(Arc<Notify>);

impl Wake {
    /// Tells one idle worker here, and every process listening on PostgreSQL, that a job
    /// is waiting.
    pub async fn job_queued(&self, store: &Store) {
        self.0.notify_one();
        if let Some(pool) = store.postgres_pool() {
            if let Err(e) = sqlx::query("SELECT pg_notify($1, '')").bind(CHANNEL).execute(pool).await {
                tracing::warn!(error = %e, "could not notify other processes; they will poll");
            }
        }
    }

    /// Resolves when a job may be waiting.
    pub async fn wait(&self) {
        self.0.notified().await
    }

    /// On PostgreSQL, forwards notifications from other processes to this process's workers
    /// until the process ends. Reconnects after errors.
    pub fn listen(&self, store: &Store) {
        if store.postgres_pool().is_none() {
            return;
        }
        let url = store.url().to_string();
        let notify = self.0.clone();
        tokio::spawn(async move {
            loop {
                match PgListener::connect(&url).await {
                    Ok(mut listener) => {
                        if let Err(e) = listener.listen(CHANNEL).await {
                            tracing::warn!(error = %e, "LISTEN failed");
                        } else {
                            while listener.recv().await.is_ok() {
                                notify.notify_one();
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "could not connect the job listener"),
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        });
    }
}
