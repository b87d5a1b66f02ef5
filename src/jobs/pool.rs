//! The worker pool: `workers` tasks, each claiming one job at a time from the database and
//! running it on Tokio's blocking threads while it watches the job.
//!
//! While an engine runs, its worker looks at the job every `tick` (250 ms by default):
//! progress the engine reported since the last look is written together with a lease
//! extension, and otherwise a read-only look tells whether a client cancelled the job. So
//! progress and cancellation are seen within a tick, with at most one write per tick.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::kind::Completed;
use super::{Context, Registry, RunError, TierLimits, Wake};
use crate::metrics::Metrics;
use crate::puzzles::monitor::Monitor;
use crate::store::{Claimed, Lease, Outcome, Store};

#[derive(Clone)]
pub struct PoolConfig {
    pub workers: usize,
    /// How long a claim lasts without a heartbeat; a dead worker's job is re-run after it.
    pub lease: Duration,
    /// How often idle workers look for jobs when nobody woke them.
    pub poll: Duration,
    /// How often a running job's progress is published and its cancellation looked for.
    pub tick: Duration,
    /// A job whose worker died waits this long times its attempts before it runs again.
    pub backoff: Duration,
    /// Key from which per-book seeds are derived.
    pub secret: Arc<[u8]>,
    /// Each job runs with the limits of the tier it was queued under.
    pub limits: TierLimits,
    /// Uploaded word lists, loaded by id.
    pub wordlists: Arc<super::WordLists>,
    pub registry: Registry,
}

/// Signals from the process to its workers.
#[derive(Clone, Default)]
pub struct Shutdown {
    /// Stop claiming new jobs; let running ones finish.
    pub drain: CancellationToken,
    /// Stop running jobs now and hand them back to the queue.
    pub abandon: CancellationToken,
}

/// Shared between a running engine (blocking thread) and its worker (async task).
#[derive(Default)]
struct Control {
    done: AtomicU64,
    total: AtomicU64,
    stop: AtomicBool,
}

impl Control {
    fn progress(&self) -> (i64, i64) {
        (self.done.load(Ordering::Relaxed) as i64, self.total.load(Ordering::Relaxed) as i64)
    }
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
    fn lease_ms(&self) -> i64 {
        self.config.lease.as_millis() as i64
    }

    async fn run(self) {
        let mut last_rescue: Option<Instant> = None;
        // Endings being stored while the next job runs: the worker does not sit idle while
        // the database makes an ending durable, and at most this many wait at once.
        let mut recording: JoinSet<()> = JoinSet::new();
        while !self.shutdown.drain.is_cancelled() {
            while recording.len() >= MAX_RECORDING {
                recording.join_next().await;
            }
            // Dead workers are rare: look for their jobs once a poll interval, not per claim.
            if last_rescue.is_none_or(|t| t.elapsed() >= self.config.poll) {
                last_rescue = Some(Instant::now());
                if let Err(e) = self.store.rescue_expired(self.config.backoff.as_millis() as i64).await {
                    tracing::warn!(error = %e, "rescue of expired jobs failed");
                }
            }
            match self.store.claim(&self.owner, self.lease_ms()).await {
                Ok(Some(job)) => {
                    let ending = self.run_job(&job).await;
                    recording.spawn(self.recorder().record(job, ending));
                }
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
        while recording.join_next().await.is_some() {}
    }

    fn recorder(&self) -> Recorder {
        Recorder {
            store: self.store.clone(),
            owner: self.owner.clone(),
            metrics: self.metrics.clone(),
            registry: self.config.registry.clone(),
        }
    }

    /// Runs a claimed job to its end, watching it; the ending is stored by [`Recorder`].
    #[tracing::instrument(skip_all, fields(job = %job.id, kind = %job.kind, attempt = job.attempts))]
    async fn run_job(&self, job: &Claimed) -> Finished {
        tracing::info!("job started");
        let started = Instant::now();
        let control = Arc::new(Control::default());
        let engine = {
            let (kind, params, control) = (job.kind.clone(), job.params.clone(), control.clone());
            let context = Context {
                secret: self.config.secret.clone(),
                limits: self.config.limits.of(job.tier).clone(),
                wordlists: self.config.wordlists.clone(),
            };
            let registry = self.config.registry.clone();
            tokio::task::spawn_blocking(move || {
                let mut monitor = JobMonitor(control);
                guarded(|| registry.run(&context, &kind, &params, &mut monitor))
            })
        };
        tokio::pin!(engine);
        let mut tick = tokio::time::interval(self.config.tick);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        let mut published = (0, 0);
        let mut renewed = Instant::now();
        let (mut releasing, mut lost) = (false, false);
        let finished = loop {
            tokio::select! {
                finished = &mut engine => break finished,
                _ = tick.tick(), if !control.stop.load(Ordering::Relaxed) => {
                    let progress = control.progress();
                    // Write only when there is news or the lease needs renewing; else just look.
                    let lease = if progress != published || renewed.elapsed() >= self.config.lease / 3 {
                        let beat = self.store.heartbeat(&job.id, &self.owner, self.lease_ms(), progress.0, progress.1).await;
                        if beat.is_ok() {
                            (published, renewed) = (progress, Instant::now());
                        }
                        beat
                    } else {
                        self.store.lease(&job.id, &self.owner).await
                    };
                    match lease {
                        Ok(Lease::Held { cancel_requested: true }) => control.stop.store(true, Ordering::Relaxed),
                        Ok(Lease::Held { .. }) => {}
                        Ok(Lease::Lost) => {
                            lost = true;
                            control.stop.store(true, Ordering::Relaxed);
                        }
                        Err(e) => tracing::warn!(error = %e, "looking at the running job failed"),
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
            Ok(Ok(Completed { result, on_success })) => Ending::Done(Outcome::Succeeded { result, on_success }),
            Ok(Err(RunError::Cancelled)) if releasing => Ending::Release,
            Ok(Err(RunError::Cancelled)) => Ending::Done(Outcome::Cancelled),
            Ok(Err(RunError::Failed(msg))) => Ending::Done(Outcome::Failed(msg)),
            Err(join) => Ending::Done(Outcome::Failed(format!("the engine task failed: {join}"))),
        };
        Finished { ending, progress: control.progress(), started }
    }
}

/// How a job's run ended, to be stored.
struct Finished {
    ending: Ending,
    progress: (i64, i64),
    started: Instant,
}

/// Stores jobs' endings for a worker.
struct Recorder {
    store: Store,
    owner: String,
    metrics: Arc<Metrics>,
    registry: Registry,
}

/// Endings a worker may have in flight to the database while it runs its next job.
const MAX_RECORDING: usize = 4;

impl Recorder {
    #[tracing::instrument(skip_all, fields(job = %job.id, kind = %job.kind, attempt = job.attempts))]
    async fn record(self, job: Claimed, finished: Finished) {
        let label = self.store_ending(&job, finished.ending, finished.progress).await;
        let seconds = finished.started.elapsed().as_secs_f64();
        self.metrics.job_run(&job.kind, label, seconds);
        tracing::info!(outcome = label, seconds, "job ended");
    }

    /// Stores the ending; returns its label for metrics and logs.
    async fn store_ending(&self, job: &Claimed, ending: Ending, progress: (i64, i64)) -> &'static str {
        let stored = match &ending {
            Ending::Lost => return "lost",
            Ending::Release => self.store.release(&job.id, &self.owner).await,
            Ending::Done(outcome) => {
                let kept = self.registry.kept(&job.kind);
                self.store.finish(&job.id, &self.owner, outcome, progress, kept).await
            }
        };
        match (stored, &ending) {
            (Ok(true), Ending::Release) => "released",
            (Ok(true), Ending::Done(Outcome::Succeeded { .. })) => "succeeded",
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
fn guarded(run: impl FnOnce() -> Result<Completed, RunError>) -> Result<Completed, RunError> {
    std::panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(RunError::Failed(format!("the engine crashed: {message}")))
    })
}

/// Deletes finished jobs of the `kinds` given once they ended more than `retention` ago,
/// every `every`, until `stop` (several processes sweeping at once is harmless).
pub async fn sweep_finished(
    store: Store,
    kinds: Vec<&'static str>,
    retention: Duration,
    every: Duration,
    stop: CancellationToken,
) {
    loop {
        match store.delete_finished(&kinds, retention.as_millis() as i64).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(jobs = n, "deleted finished jobs past their retention time"),
            Err(e) => tracing::warn!(error = %e, "sweeping finished jobs failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = stop.cancelled() => return,
        }
    }
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
        let ok = guarded(|| Ok(Completed { result: "1".into(), on_success: None }));
        assert!(matches!(ok, Ok(out) if out.result == "1"));
    }
}
