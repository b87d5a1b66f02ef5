//! Conformance suite for the job store: every test runs against a real SQLite file and a
//! real PostgreSQL database.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::TestDb;
use puzzlepress::jobs::model::{JobState, Lease, NewJob, Outcome, Output};
use puzzlepress::store::Store;
use serde_json::json;

async fn stores() -> Vec<(TestDb, Store)> {
    let mut out = Vec::new();
    for db in TestDb::both() {
        let store = Store::connect(&db.url).await.unwrap();
        store.migrate().await.unwrap();
        // Migrating twice (a second process starting) is harmless.
        store.migrate().await.unwrap();
        out.push((db, store));
    }
    out
}

fn job(n: u64) -> NewJob {
    NewJob { kind: "foxhole.strategy".into(), params: json!({ "holes": n }), idempotency_key: None, book: None }
}

const LEASE: i64 = 30_000;

fn done(result: serde_json::Value) -> Outcome {
    Outcome::Succeeded(Output { result, artifact: None })
}

#[tokio::test]
async fn lifecycle_of_a_job() {
    for (_db, store) in stores().await {
        let (queued, created) = store.insert_job(&job(5), 3, 1_000).await.unwrap();
        assert!(created);
        assert_eq!(queued.state, JobState::Queued);
        assert_eq!(store.queued_count(100).await.unwrap(), 1);
        store.insert_job(&job(6), 3, 1_000).await.unwrap();
        assert_eq!(store.queued_count(1).await.unwrap(), 1, "counted up to the cap");
        assert_eq!(store.queued_count(100).await.unwrap(), 2);

        let claimed = store.claim("w1", 2_000, LEASE).await.unwrap().expect("a job to claim");
        assert_eq!((claimed.id.as_str(), claimed.attempts), (queued.id.as_str(), 1));
        assert_eq!(claimed.params, json!({"holes": 5}));
        let other = store.claim("w2", 2_000, LEASE).await.unwrap().expect("the second job");
        assert_ne!(other.id, claimed.id, "a running job is not claimed twice");
        assert!(store.claim("w3", 2_000, LEASE).await.unwrap().is_none());

        let beat = store.heartbeat(&claimed.id, "w1", 3_000, LEASE, 4, 10).await.unwrap();
        assert_eq!(beat, Lease::Held { cancel_requested: false });
        let running = store.job(&claimed.id).await.unwrap().unwrap();
        assert_eq!((running.state, running.progress_done, running.progress_total), (JobState::Running, 4, 10));
        assert_eq!(running.started_at, Some(2_000));

        assert!(store.finish(&claimed.id, "w1", &done(json!({"days": 6})), (9, 10), 4_000).await.unwrap());
        let done = store.job(&claimed.id).await.unwrap().unwrap();
        assert_eq!(done.state, JobState::Succeeded);
        assert_eq!(done.result, Some(json!({"days": 6})));
        assert_eq!((done.progress_done, done.progress_total), (10, 10), "a succeeded job is complete");
        assert_eq!(done.finished_at, Some(4_000));
        assert!(!store.finish(&claimed.id, "w1", &Outcome::Failed("again".into()), (0, 0), 5_000).await.unwrap());
    }
}

#[tokio::test]
async fn jobs_are_claimed_oldest_first() {
    for (_db, store) in stores().await {
        let a = store.insert_job(&job(1), 3, 1).await.unwrap().0;
        let b = store.insert_job(&job(2), 3, 2).await.unwrap().0;
        assert_eq!(store.claim("w", 10, LEASE).await.unwrap().unwrap().id, a.id);
        assert_eq!(store.claim("w", 10, LEASE).await.unwrap().unwrap().id, b.id);
    }
}

#[tokio::test]
async fn concurrent_workers_never_claim_one_job_twice() {
    for (_db, store) in stores().await {
        for n in 0..60 {
            store.insert_job(&job(n % 9 + 1), 3, n as i64).await.unwrap();
        }
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for w in 0..8 {
            let (store, seen) = (store.clone(), seen.clone());
            tasks.push(tokio::spawn(async move {
                let owner = format!("worker-{w}");
                while let Some(job) = store.claim(&owner, 100, LEASE).await.unwrap() {
                    seen.lock().unwrap().push(job.id.clone());
                    assert!(store.finish(&job.id, &owner, &done(json!(w)), (0, 0), 200).await.unwrap());
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let seen = seen.lock().unwrap();
        let unique: HashSet<_> = seen.iter().collect();
        assert_eq!(seen.len(), 60, "every job claimed");
        assert_eq!(unique.len(), 60, "no job claimed twice");
    }
}

#[tokio::test]
async fn a_dead_workers_job_is_rerun_once_its_lease_expires() {
    for (_db, store) in stores().await {
        let id = store.insert_job(&job(5), 3, 0).await.unwrap().0.id;
        let first = store.claim("dead", 1_000, LEASE).await.unwrap().unwrap();
        // Before the lease expires nobody else may take it.
        assert!(store.claim("alive", 1_000 + LEASE - 1, LEASE).await.unwrap().is_none());
        let second = store.claim("alive", 1_000 + LEASE + 1, LEASE).await.unwrap().expect("rescued");
        assert_eq!((second.id.as_str(), second.attempts), (id.as_str(), 2));
        // The dead worker comes back: its lease is gone, it can neither heartbeat nor finish.
        assert_eq!(store.heartbeat(&first.id, "dead", 40_000, LEASE, 1, 1).await.unwrap(), Lease::Lost);
        assert!(!store.finish(&id, "dead", &done(json!("stale")), (0, 0), 40_000).await.unwrap());
        assert!(store.finish(&id, "alive", &done(json!("fresh")), (0, 0), 40_000).await.unwrap());
        let done = store.job(&id).await.unwrap().unwrap();
        assert_eq!((done.state, done.result), (JobState::Succeeded, Some(json!("fresh"))));
    }
}

#[tokio::test]
async fn a_job_whose_workers_keep_dying_fails_after_max_attempts() {
    for (_db, store) in stores().await {
        let id = store.insert_job(&job(5), 2, 0).await.unwrap().0.id;
        store.claim("a", 0, 10).await.unwrap().unwrap();
        store.claim("b", 20, 10).await.unwrap().unwrap();
        assert!(store.claim("c", 40, 10).await.unwrap().is_none(), "attempts exhausted");
        assert_eq!(store.rescue_expired(40).await.unwrap(), 1);
        let failed = store.job(&id).await.unwrap().unwrap();
        assert_eq!((failed.state, failed.attempts), (JobState::Failed, 2));
        assert!(failed.error.unwrap().contains("stopped responding 2 times"));
    }
}

#[tokio::test]
async fn cancelling_queued_and_running_jobs() {
    for (_db, store) in stores().await {
        let queued = store.insert_job(&job(3), 3, 0).await.unwrap().0.id;
        let running = store.insert_job(&job(4), 3, 1).await.unwrap().0.id;
        assert_eq!(store.claim("w", 10, LEASE).await.unwrap().unwrap().id, queued);
        // First claim took `queued`; release it so the names match their states.
        assert!(store.release(&queued, "w").await.unwrap());
        let r = store.claim("w", 10, LEASE).await.unwrap().unwrap();
        assert_eq!(r.id, queued, "a released job is claimable again, oldest first");
        assert_eq!(r.attempts, 1, "a released run does not count as an attempt");
        assert!(store.release(&queued, "w").await.unwrap());

        let cancelled = store.cancel(&queued, 20).await.unwrap().unwrap();
        assert_eq!(cancelled.state, JobState::Cancelled);
        assert_eq!(store.claim("w", 30, LEASE).await.unwrap().unwrap().id, running);
        let asked = store.cancel(&running, 40).await.unwrap().unwrap();
        assert_eq!((asked.state, asked.cancel_requested), (JobState::Running, true));
        assert_eq!(
            store.heartbeat(&running, "w", 50, LEASE, 0, 0).await.unwrap(),
            Lease::Held { cancel_requested: true }
        );
        assert!(store.finish(&running, "w", &Outcome::Cancelled, (0, 0), 60).await.unwrap());
        assert_eq!(store.job(&running).await.unwrap().unwrap().state, JobState::Cancelled);
        assert!(store.cancel("no-such-job", 70).await.unwrap().is_none());
    }
}

#[tokio::test]
async fn a_cancelled_job_whose_worker_died_is_not_rerun() {
    for (_db, store) in stores().await {
        let id = store.insert_job(&job(3), 3, 0).await.unwrap().0.id;
        store.claim("dead", 0, 10).await.unwrap().unwrap();
        store.cancel(&id, 5).await.unwrap();
        assert!(store.claim("w", 100, LEASE).await.unwrap().is_none());
        store.rescue_expired(100).await.unwrap();
        assert_eq!(store.job(&id).await.unwrap().unwrap().state, JobState::Cancelled);
    }
}

#[tokio::test]
async fn idempotency_keys_return_the_first_job() {
    for (_db, store) in stores().await {
        let keyed = NewJob { idempotency_key: Some("order-1".into()), ..job(5) };
        let (first, created) = store.insert_job(&keyed, 3, 0).await.unwrap();
        let (again, created_again) = store.insert_job(&keyed, 3, 1).await.unwrap();
        assert!(created && !created_again);
        assert_eq!(first.id, again.id);
        // The same key for another kind is another order.
        let other = NewJob { kind: "other".into(), ..keyed.clone() };
        assert!(store.insert_job(&other, 3, 2).await.unwrap().1);
        // Racing inserts with one key make one job.
        let racing = NewJob { idempotency_key: Some("order-2".into()), ..job(6) };
        let handles: Vec<_> = (0..6)
            .map(|_| {
                let (store, racing) = (store.clone(), racing.clone());
                tokio::spawn(async move { store.insert_job(&racing, 3, 3).await.unwrap().0.id })
            })
            .collect();
        let mut ids = HashSet::new();
        for h in handles {
            ids.insert(h.await.unwrap());
        }
        assert_eq!(ids.len(), 1);
    }
}

#[tokio::test]
async fn settings_keep_the_first_value() {
    for (_db, store) in stores().await {
        assert_eq!(store.setting_or_insert("book_secret", "first").await.unwrap(), "first");
        assert_eq!(store.setting_or_insert("book_secret", "second").await.unwrap(), "first");
    }
}

#[tokio::test]
async fn job_counts_group_by_kind_and_state() {
    for (_db, store) in stores().await {
        store.insert_job(&job(1), 3, 0).await.unwrap();
        store.insert_job(&job(2), 3, 0).await.unwrap();
        let counts = store.job_counts().await.unwrap();
        assert_eq!(counts.len(), 1);
        assert_eq!(
            (counts[0].kind.as_str(), counts[0].state.as_str(), counts[0].count),
            ("foxhole.strategy", "queued", 2)
        );
    }
}
