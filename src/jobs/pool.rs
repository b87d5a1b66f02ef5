//! The worker pool: `workers` tasks, each claiming one job at a time from the database and
//! running it on Tokio's blocking threads while it heartbeats the lease.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::kinds::{self, Context, RunError};
use super::model::{now_ms, Claimed, Lease, Outcome, Output};
use super::Wake;
use crate::metrics::Metrics;
use crate::puzzles::monitor::Monitor;
use crate::store::Store;

#[derive(Debug, Clone)]
pub struct PoolConfig {
    pub workers: usize,
    /// How long a claim lasts without a heartbeat; a dead worker's job is re-run after it.
    pub lease: Duration,
    /// How often idle workers look for jobs when nobody woke them.
    pub poll: Duration,
    pub context: Context,
}

/// Signals from the process to its workers.
#[derive(Clone, Default)]
pub struct Shutdown {
    /// Stop claiming new jobs; let running ones finish.
    pub drain: CancellationToken,
    /// Stop running jobs now and hand them back to the queue.
    pub abandon: CancellationToken,
}

/// Shared between a running engine (blocking thread) and its heartbeat (async task).
#[derive(Default)]
struct Control {
    done: AtomicU64,
    total: AtomicU64,
    stop: AtomicBool,
}

struct JobMonitor(Arc<Control>);

impl Monitor for JobMonitor {
    fn update(&mut self, done: u64, total: u64) -> bool {
        self.0.done.store(done, Ordering::Relaxed);
        self.0.total.store(total, Ordering::Relaxed);
        !self.0.stop.load(Ordering::Relaxed)
    }
}

/// Starts the workers; the returned set finishes when they all have stopped.
pub fn start(store: Store, wake: Wake, config: PoolConfig, metrics: Arc<Metrics>, shutdown: Shutdown) -> JoinSet<()> {
    let mut set = JoinSet::new();
    for n in 0..config.workers {
        let worker = Worker {
            owner: format!("{}-{}-{n}", hostname(), uuid::Uuid::new_v4().simple()),
            store: store.clone(),
            wake: wake.clone(),
            config: config.clone(),
            metrics: metrics.clone(),
            shutdown: shutdown.clone(),
        };
        set.spawn(worker.run());
    }
    set
}

fn hostname() -> String {
    std::env::var("HOSTNAME").unwrap_or_else(|_| "worker".into())
}

struct Worker {
    owner: String,
    store: Store,
    wake: Wake,
    config: PoolConfig,
    metrics: Arc<Metrics>,
    shutdown: Shutdown,
}

/// How this worker's run of a job ended, before it is recorded.
enum Ending {
    Done(Outcome),
    /// Shutting down: give the job back without counting the attempt.
    Release,
    /// Another worker holds the job now; record nothing.
    Lost,
}

impl Worker {
    async fn run(self) {
        let lease_ms = self.config.lease.as_millis() as i64;
        let mut last_rescue: Option<Instant> = None;
        while !self.shutdown.drain.is_cancelled() {
            // Dead workers are rare: look for their jobs once a poll interval, not per claim.
            if last_rescue.is_none_or(|t| t.elapsed() >= self.config.poll) {
                last_rescue = Some(Instant::now());
                if let Err(e) = self.store.rescue_expired(now_ms()).await {
                    tracing::warn!(error = %e, "rescue of expired jobs failed");
                }
            }
            match self.store.claim(&self.owner, now_ms(), lease_ms).await {
                Ok(Some(job)) => self.run_job(job).await,
                Ok(None) => {
                    tokio::select! {
                        _ = self.wake.wait() => {}
                        _ = tokio::time::sleep(self.config.poll) => {}
                        _ = self.shutdown.drain.cancelled() => {}
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "claiming a job failed; retrying");
                    tokio::time::sleep(self.config.poll).await;
                }
            }
        }
    }

    #[tracing::instrument(skip_all, fields(job = %job.id, kind = %job.kind, attempt = job.attempts))]
    async fn run_job(&self, job: Claimed) {
        tracing::info!("job started");
        let started = Instant::now();
        let control = Arc::new(Control::default());
        let engine = {
            let (kind, params, control) = (job.kind.clone(), job.params.clone(), control.clone());
            let context = self.config.context.clone();
            tokio::task::spawn_blocking(move || {
                let mut progress = JobMonitor(control);
                guarded(|| kinds::execute(&context, &kind, params, &mut progress))
            })
        };
        tokio::pin!(engine);
        let mut beat = tokio::time::interval(self.config.lease / 3);
        beat.tick().await;
        let (mut releasing, mut lost) = (false, false);
        let finished = loop {
            tokio::select! {
                finished = &mut engine => break finished,
                _ = beat.tick() => {
                    let (done, total) = (control.done.load(Ordering::Relaxed), control.total.load(Ordering::Relaxed));
                    match self.store.heartbeat(&job.id, &self.owner, now_ms(), self.config.lease.as_millis() as i64, done as i64, total as i64).await {
                        Ok(Lease::Held { cancel_requested: true }) => control.stop.store(true, Ordering::Relaxed),
                        Ok(Lease::Held { .. }) => {}
                        Ok(Lease::Lost) => {
                            lost = true;
                            control.stop.store(true, Ordering::Relaxed);
                        }
                        Err(e) => tracing::warn!(error = %e, "heartbeat failed"),
                    }
                }
                _ = self.shutdown.abandon.cancelled(), if !releasing => {
                    releasing = true;
                    control.stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let ending = match finished {
            _ if lost => Ending::Lost,
            Ok(Ok(result)) => Ending::Done(Outcome::Succeeded(result)),
            Ok(Err(RunError::Cancelled)) if releasing => Ending::Release,
            Ok(Err(RunError::Cancelled)) => Ending::Done(Outcome::Cancelled),
            Ok(Err(RunError::Failed(msg))) => Ending::Done(Outcome::Failed(msg)),
            Err(join) => Ending::Done(Outcome::Failed(format!("the engine task failed: {join}"))),
        };
        let progress = (control.done.load(Ordering::Relaxed) as i64, control.total.load(Ordering::Relaxed) as i64);
        let label = self.record(&job, ending, progress).await;
        let seconds = started.elapsed().as_secs_f64();
        self.metrics.job_run(&job.kind, label, seconds);
        tracing::info!(outcome = label, seconds, "job ended");
    }

    /// Stores the ending; returns its label for metrics and logs.
    async fn record(&self, job: &Claimed, ending: Ending, progress: (i64, i64)) -> &'static str {
        let stored = match &ending {
            Ending::Lost => return "lost",
            Ending::Release => self.store.release(&job.id, &self.owner).await,
            Ending::Done(outcome) => self.store.finish(&job.id, &self.owner, outcome, progress, now_ms()).await,
        };
        match (stored, &ending) {
            (Ok(true), Ending::Release) => "released",
            (Ok(true), Ending::Done(Outcome::Succeeded(_))) => "succeeded",
            (Ok(true), Ending::Done(Outcome::Failed(_))) => "failed",
            (Ok(true), Ending::Done(Outcome::Cancelled)) => "cancelled",
            (Ok(_), _) => "lost",
            // The lease will expire and another worker will re-run the job.
            (Err(e), _) => {
                tracing::warn!(error = %e, "could not record the job's end");
                "unrecorded"
            }
        }
    }
}

/// Runs an engine so that a panic fails its job with the panic's message instead of
/// taking a worker down.
fn guarded(run: impl FnOnce() -> Result<Output, RunError>) -> Result<Output, RunError> {
    std::panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(RunError::Failed(format!("the engine crashed: {message}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_engine_fails_its_job_with_the_message() {
        let outcome = guarded(|| panic!("index out of bounds"));
        assert!(matches!(outcome, Err(RunError::Failed(m)) if m == "the engine crashed: index out of bounds"));
        let n = 7;
        let outcome = guarded(|| panic!("formatted {n}"));
        assert!(matches!(outcome, Err(RunError::Failed(m)) if m.ends_with("formatted 7")));
        let ok = guarded(|| Ok(Output { result: serde_json::json!(1), artifact: None }));
        assert!(matches!(ok, Ok(out) if out.result == 1));
    }
}
