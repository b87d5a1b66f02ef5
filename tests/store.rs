//! Conformance suite for the job store: every test runs against a real SQLite file and a
//! real PostgreSQL database, with the store's clock set by hand so that lease expiry and
//! back-off are tested without sleeping.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::{on_both, TestDb};
use puzzlepress::store::{
    Admission, Clock, JobFilter, JobState, Lease, NewBook, NewJob, NewPrintRun, NewWordList, Occupancy, OnInsert,
    OnSuccess, OrderedBook, Outcome, Refusal, Saved, Store, StoreError, Tier, WordListQuota,
};

async fn store(db: &TestDb, clock: &Clock) -> Store {
    let store = Store::connect(&db.url).await.unwrap().with_clock(clock.clone());
    store.migrate().await.unwrap();
    // Migrating twice (a second process starting) is harmless.
    store.migrate().await.unwrap();
    store
}

fn job(n: u64) -> NewJob {
    NewJob {
        kind: "foxhole.strategies".into(),
        owner: "anon:127.0.0.1".into(),
        params: format!("{{\"holes\":{n}}}"),
        idempotency_key: None,
        max_attempts: 3,
        tier: Tier::Publisher,
        wordlist: None,
        on_insert: Vec::new(),
        admission: Admission::UNLIMITED,
        layout_version: 1,
    }
}

const LEASE: i64 = 30_000;

fn done(result: &str) -> Outcome {
    Outcome::Succeeded { result: result.into(), on_success: None }
}

#[tokio::test]
async fn lifecycle_of_a_job() {
    on_both(|db| async move {
        let clock = Clock::manual(1_000);
        let store = store(&db, &clock).await;
        let (queued, created) = store.insert_job(&job(5)).await.unwrap();
        assert!(created);
        assert_eq!((queued.state, queued.created_at), (JobState::Queued, 1_000));
        let limit = |queued| Admission { queued, ..Admission::UNLIMITED };
        let waiting = |queued| Occupancy { queued, ..Occupancy::default() };
        let owner = "anon:127.0.0.1";
        assert_eq!(store.occupancy(owner, Tier::Publisher, &limit(100)).await.unwrap(), waiting(1));
        store.insert_job(&job(6)).await.unwrap();
        let extra = store.insert_job(&job(7)).await.unwrap().0.id;
        let counted = store.occupancy(owner, Tier::Publisher, &limit(1)).await.unwrap();
        assert_eq!(counted, waiting(2), "counted one past the limit, no further");
        assert_eq!(store.occupancy(owner, Tier::Publisher, &limit(100)).await.unwrap(), waiting(3));
        store.cancel(&extra).await.unwrap();

        clock.set(2_000);
        let claimed = store.claim("w1", LEASE).await.unwrap().expect("a job to claim");
        assert_eq!((claimed.id.as_str(), claimed.attempts), (queued.id.as_str(), 1));
        assert_eq!(claimed.params, r#"{"holes":5}"#);
        let other = store.claim("w2", LEASE).await.unwrap().expect("the second job");
        assert_ne!(other.id, claimed.id, "a running job is not claimed twice");
        assert!(store.claim("w3", LEASE).await.unwrap().is_none());

        clock.set(3_000);
        let beat = store.heartbeat(&claimed.id, "w1", LEASE, 4, 10).await.unwrap();
        assert_eq!(beat, Lease::Held { cancel_requested: false });
        assert_eq!(store.lease(&claimed.id, "w1").await.unwrap(), Lease::Held { cancel_requested: false });
        assert_eq!(store.lease(&claimed.id, "w2").await.unwrap(), Lease::Lost);
        let running = store.job(&claimed.id).await.unwrap().unwrap();
        assert_eq!((running.state, running.progress_done, running.progress_total), (JobState::Running, 4, 10));
        assert_eq!(running.started_at, Some(2_000));

        clock.set(4_000);
        assert!(store.finish(&claimed.id, "w1", &done(r#"{"days":6}"#), (9, 10), false).await.unwrap());
        let finished = store.job(&claimed.id).await.unwrap().unwrap();
        assert_eq!(finished.state, JobState::Succeeded);
        assert_eq!(finished.result.as_deref(), Some(r#"{"days":6}"#));
        assert_eq!((finished.progress_done, finished.progress_total), (10, 10), "a succeeded job is complete");
        assert_eq!(finished.finished_at, Some(4_000));
        assert!(!store.finish(&claimed.id, "w1", &Outcome::Failed("again".into()), (0, 0), false).await.unwrap());

        let attempts = store.attempts(&claimed.id).await.unwrap();
        assert_eq!(attempts.len(), 1);
        assert_eq!((attempts[0].attempt, attempts[0].owner.as_str()), (1, "w1"));
        assert_eq!((attempts[0].started_at, attempts[0].ended_at), (2_000, Some(4_000)));
        assert_eq!(attempts[0].outcome.as_deref(), Some("succeeded"));
    })
    .await;
}

#[tokio::test]
async fn a_job_keeps_the_layout_version_it_was_queued_with() {
    on_both(|db| async move {
        let store = store(&db, &Clock::manual(1_000)).await;
        let old = store.insert_job(&job(1)).await.unwrap().0;
        let new = store.insert_job(&NewJob { layout_version: 2, ..job(2) }).await.unwrap().0;
        assert_eq!((old.layout_version, new.layout_version), (1, 2));
        assert_eq!(store.job(&new.id).await.unwrap().unwrap().layout_version, 2);
    })
    .await;
}

#[tokio::test]
async fn a_file_a_job_made_is_kept_with_it_and_deleted_with_it() {
    on_both(|db| async move {
        let clock = Clock::manual(1_000);
        let store = store(&db, &clock).await;
        let id = store.insert_job(&job(1)).await.unwrap().0.id;
        clock.set(1_001);
        let other = store.insert_job(&job(2)).await.unwrap().0.id;
        // Every byte value, and more than a page of them.
        let bytes: Vec<u8> = (0..70_000u32).map(|i| (i % 251) as u8).collect();
        let kept = |bytes: &[u8]| Outcome::Succeeded {
            result: "{}".into(),
            on_success: Some(OnSuccess::File { name: "book.pdf".into(), bytes: bytes.to_vec() }),
        };
        for (job, owner) in [(&id, "w1"), (&other, "w2")] {
            assert_eq!(&store.claim(owner, LEASE).await.unwrap().unwrap().id, job);
        }
        assert_eq!(store.file(&id, "book.pdf").await.unwrap(), None, "nothing before it is done");
        // A run that lost its lease keeps nothing.
        assert!(!store.finish(&id, "w2", &kept(b"stale"), (0, 0), false).await.unwrap());
        assert_eq!(store.file(&id, "book.pdf").await.unwrap(), None);
        assert!(store.finish(&id, "w1", &kept(&bytes), (0, 0), true).await.unwrap());
        assert!(store.finish(&other, "w2", &done("{}"), (0, 0), false).await.unwrap());
        assert_eq!(store.file(&id, "book.pdf").await.unwrap().as_deref(), Some(bytes.as_slice()));
        // The file counts against its owner's storage, with the request and result.
        let stored = (r#"{"holes":1}"#.len() + "{}".len() + bytes.len()) as i64;
        assert_eq!(store.stored_bytes("anon:127.0.0.1").await.unwrap(), stored);
        assert_eq!(store.file(&id, "other.pdf").await.unwrap(), None);
        assert_eq!(store.file(&other, "book.pdf").await.unwrap(), None, "a job without a file");
        assert!(store.delete_ended_job(&id).await.unwrap());
        assert_eq!(store.file(&id, "book.pdf").await.unwrap(), None, "deleted with its job");
        assert_eq!(store.stored_bytes("anon:127.0.0.1").await.unwrap(), 0);
    })
    .await;
}

#[tokio::test]
async fn times_come_from_the_database_clock() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let (job, _) = store.insert_job(&job(1)).await.unwrap();
        let after = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        // The database server runs on this machine, so its clock agrees with ours here.
        assert!(
            (before - 1_000..=after + 1_000).contains(&job.created_at),
            "{before} <= {} <= {after}",
            job.created_at
        );
    })
    .await;
}

#[tokio::test]
async fn jobs_are_claimed_oldest_first() {
    on_both(|db| async move {
        let store = store(&db, &Clock::manual(1)).await;
        let a = store.insert_job(&job(1)).await.unwrap().0;
        let b = store.insert_job(&job(2)).await.unwrap().0;
        assert_eq!(store.claim("w", LEASE).await.unwrap().unwrap().id, a.id);
        assert_eq!(store.claim("w", LEASE).await.unwrap().unwrap().id, b.id);
    })
    .await;
}

#[tokio::test]
async fn concurrent_workers_never_claim_one_job_twice() {
    on_both(|db| async move {
        let store = store(&db, &Clock::manual(100)).await;
        for n in 0..60 {
            store.insert_job(&job(n % 9 + 1)).await.unwrap();
        }
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for w in 0..8 {
            let (store, seen) = (store.clone(), seen.clone());
            tasks.push(tokio::spawn(async move {
                let owner = format!("worker-{w}");
                while let Some(job) = store.claim(&owner, LEASE).await.unwrap() {
                    seen.lock().unwrap().push(job.id.clone());
                    assert!(store.finish(&job.id, &owner, &done(&w.to_string()), (0, 0), false).await.unwrap());
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
    })
    .await;
}

#[tokio::test]
async fn a_dead_workers_job_is_rerun_after_a_back_off_once_its_lease_expires() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        let id = store.insert_job(&job(5)).await.unwrap().0.id;
        clock.set(1_000);
        store.claim("dead", LEASE).await.unwrap().unwrap();
        // Before the lease expires nobody else may take it, and the rescue leaves it be.
        clock.set(1_000 + LEASE - 1);
        assert_eq!(store.rescue_expired(5_000).await.unwrap(), 0);
        assert!(store.claim("alive", LEASE).await.unwrap().is_none());
        // Expired: the attempt is recorded as lost, the job waits out its back-off.
        clock.set(1_000 + LEASE + 1);
        assert_eq!(store.rescue_expired(5_000).await.unwrap(), 1);
        let waiting = store.job(&id).await.unwrap().unwrap();
        assert_eq!((waiting.state, waiting.attempts), (JobState::Queued, 1));
        assert!(store.claim("alive", LEASE).await.unwrap().is_none(), "not before the back-off is over");
        clock.set(1_000 + LEASE + 1 + 5_000);
        let second = store.claim("alive", LEASE).await.unwrap().expect("re-run after the back-off");
        assert_eq!((second.id.as_str(), second.attempts), (id.as_str(), 2));
        // The dead worker comes back: its lease is gone, it can neither heartbeat nor finish.
        assert_eq!(store.heartbeat(&id, "dead", LEASE, 1, 1).await.unwrap(), Lease::Lost);
        assert!(!store.finish(&id, "dead", &done("\"stale\""), (0, 0), false).await.unwrap());
        assert!(store.finish(&id, "alive", &done("\"fresh\""), (0, 0), false).await.unwrap());
        let finished = store.job(&id).await.unwrap().unwrap();
        assert_eq!((finished.state, finished.result.as_deref()), (JobState::Succeeded, Some("\"fresh\"")));
        let outcomes: Vec<_> =
            store.attempts(&id).await.unwrap().into_iter().map(|a| (a.owner, a.outcome.unwrap())).collect();
        assert_eq!(outcomes, [("dead".into(), "lost".into()), ("alive".into(), "succeeded".into())]);
    })
    .await;
}

#[tokio::test]
async fn a_job_whose_workers_keep_dying_fails_after_max_attempts() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        let id = store.insert_job(&NewJob { max_attempts: 2, ..job(5) }).await.unwrap().0.id;
        store.claim("a", 10).await.unwrap().unwrap();
        clock.set(20);
        assert_eq!(store.rescue_expired(0).await.unwrap(), 1);
        store.claim("b", 10).await.unwrap().unwrap();
        clock.set(40);
        assert_eq!(store.rescue_expired(0).await.unwrap(), 1);
        assert!(store.claim("c", 10).await.unwrap().is_none(), "attempts exhausted");
        let failed = store.job(&id).await.unwrap().unwrap();
        assert_eq!((failed.state, failed.attempts), (JobState::Failed, 2));
        assert!(failed.error.unwrap().contains("stopped responding 2 times"));
        let lost = store.attempts(&id).await.unwrap().iter().filter(|a| a.outcome.as_deref() == Some("lost")).count();
        assert_eq!(lost, 2);
    })
    .await;
}

#[tokio::test]
async fn cancelling_queued_and_running_jobs() {
    on_both(|db| async move {
        let store = store(&db, &Clock::manual(0)).await;
        let queued = store.insert_job(&job(3)).await.unwrap().0.id;
        let running = store.insert_job(&job(4)).await.unwrap().0.id;
        assert_eq!(store.claim("w", LEASE).await.unwrap().unwrap().id, queued);
        // First claim took `queued`; release it so the names match their states.
        assert!(store.release(&queued, "w").await.unwrap());
        let r = store.claim("w", LEASE).await.unwrap().unwrap();
        assert_eq!(r.id, queued, "a released job is claimable again, oldest first");
        assert_eq!(r.attempts, 1, "a released run does not count as an attempt");
        assert!(store.release(&queued, "w").await.unwrap());
        let outcomes: Vec<_> = store.attempts(&queued).await.unwrap().into_iter().map(|a| a.outcome).collect();
        assert_eq!(outcomes, [Some("released".to_string()), Some("released".to_string())]);

        let cancelled = store.cancel(&queued).await.unwrap().unwrap();
        assert_eq!(cancelled.state, JobState::Cancelled);
        assert_eq!(store.claim("w", LEASE).await.unwrap().unwrap().id, running);
        let asked = store.cancel(&running).await.unwrap().unwrap();
        assert_eq!((asked.state, asked.cancel_requested), (JobState::Running, true));
        assert_eq!(store.lease(&running, "w").await.unwrap(), Lease::Held { cancel_requested: true });
        assert_eq!(store.heartbeat(&running, "w", LEASE, 0, 0).await.unwrap(), Lease::Held { cancel_requested: true });
        assert!(store.finish(&running, "w", &Outcome::Cancelled, (0, 0), false).await.unwrap());
        assert_eq!(store.job(&running).await.unwrap().unwrap().state, JobState::Cancelled);
        assert!(store.cancel("no-such-job").await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn a_cancelled_job_whose_worker_died_is_not_rerun() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        let id = store.insert_job(&job(3)).await.unwrap().0.id;
        store.claim("dead", 10).await.unwrap().unwrap();
        store.cancel(&id).await.unwrap();
        clock.set(100);
        store.rescue_expired(0).await.unwrap();
        assert!(store.claim("w", LEASE).await.unwrap().is_none());
        assert_eq!(store.job(&id).await.unwrap().unwrap().state, JobState::Cancelled);
    })
    .await;
}

#[tokio::test]
async fn idempotency_keys_return_the_first_job() {
    on_both(|db| async move {
        let store = store(&db, &Clock::manual(0)).await;
        let keyed = NewJob { idempotency_key: Some("order-1".into()), ..job(5) };
        let (first, created) = store.insert_job(&keyed).await.unwrap();
        let (again, created_again) = store.insert_job(&keyed).await.unwrap();
        assert!(created && !created_again);
        assert_eq!(first.id, again.id);
        // The same key for another kind is another order.
        let other = NewJob { kind: "other".into(), ..keyed.clone() };
        assert!(store.insert_job(&other).await.unwrap().1);
        // Racing inserts with one key make one job.
        let racing = NewJob { idempotency_key: Some("order-2".into()), ..job(6) };
        let handles: Vec<_> = (0..6)
            .map(|_| {
                let (store, racing) = (store.clone(), racing.clone());
                tokio::spawn(async move { store.insert_job(&racing).await.unwrap().0.id })
            })
            .collect();
        let mut ids = HashSet::new();
        for h in handles {
            ids.insert(h.await.unwrap());
        }
        assert_eq!(ids.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn settings_keep_the_first_value() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        assert_eq!(store.setting_or_insert("book_secret", "first").await.unwrap(), "first");
        assert_eq!(store.setting_or_insert("book_secret", "second").await.unwrap(), "first");
    })
    .await;
}

#[tokio::test]
async fn job_counts_group_by_kind_and_state() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        store.insert_job(&job(1)).await.unwrap();
        store.insert_job(&job(2)).await.unwrap();
        let counts = store.job_counts().await.unwrap();
        assert_eq!(counts.len(), 1);
        assert_eq!(
            (counts[0].kind.as_str(), counts[0].state.as_str(), counts[0].count),
            ("foxhole.strategies", "queued", 2)
        );
    })
    .await;
}

#[tokio::test]
async fn owners_take_turns_so_a_long_queue_does_not_starve_a_single_job() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        let mut a = Vec::new();
        for n in 0..50 {
            a.push(store.insert_job(&NewJob { owner: "key:a".into(), ..job(n) }).await.unwrap().0.id);
        }
        let b = store.insert_job(&NewJob { owner: "key:b".into(), ..job(99) }).await.unwrap().0.id;
        let c = store.insert_job(&NewJob { owner: "key:c".into(), ..job(98) }).await.unwrap().0.id;
        let mut order = Vec::new();
        for t in 1..=5 {
            clock.set(t);
            order.push(store.claim("w", LEASE).await.unwrap().unwrap().id);
        }
        // a's oldest, then b and c (who have waited longest for a turn), then a again.
        assert_eq!(order, [a[0].clone(), b, c, a[1].clone(), a[2].clone()]);
        // Idempotency keys belong to their owner: the same key from another owner is another job.
        let keyed = NewJob { owner: "key:a".into(), idempotency_key: Some("k".into()), ..job(1) };
        let first = store.insert_job(&keyed).await.unwrap();
        let other = store.insert_job(&NewJob { owner: "key:b".into(), ..keyed.clone() }).await.unwrap();
        assert!(first.1 && other.1 && first.0.id != other.0.id);
        assert_eq!(store.insert_job(&keyed).await.unwrap().0.id, first.0.id);
    })
    .await;
}

#[tokio::test]
async fn key_holders_take_turns_with_the_crowd_of_callers_without_a_key() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        // Twenty addresses queue two jobs each before a key holder queues three.
        for n in 0..40 {
            let owner = format!("anon:10.0.0.{}", n % 20);
            store.insert_job(&NewJob { owner, tier: Tier::Anonymous, ..job(n) }).await.unwrap();
        }
        let mut keyed = Vec::new();
        for n in 0..3 {
            keyed.push(store.insert_job(&NewJob { owner: "key:k".into(), ..job(100 + n) }).await.unwrap().0.id);
        }
        let mut order = Vec::new();
        for t in 1..=8 {
            clock.set(t);
            order.push(store.claim("w", LEASE).await.unwrap().unwrap().id);
        }
        let taken: Vec<usize> = (0..8).filter(|i| keyed.contains(&order[*i])).collect();
        assert_eq!(taken, [1, 3, 5], "the key holder's jobs go every other claim, not after 20 addresses");
    })
    .await;
}

/// Queues `orders` all at once; returns how many were queued and how many `refusal`
/// turned away (any other outcome fails the test).
async fn race(store: &Arc<Store>, orders: Vec<NewJob>, refusal: Refusal) -> (usize, usize) {
    let mut racing = tokio::task::JoinSet::new();
    for new in orders {
        let store = store.clone();
        racing.spawn(async move { store.insert_job(&new).await });
    }
    let (mut created, mut refused) = (0, 0);
    while let Some(result) = racing.join_next().await {
        match result.unwrap() {
            Ok(_) => created += 1,
            Err(StoreError::Refused(r)) if r == refusal => refused += 1,
            Err(e) => panic!("unexpected {e}"),
        }
    }
    (created, refused)
}

#[tokio::test]
async fn concurrent_orders_never_take_the_queue_or_a_caller_past_a_limit() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = Arc::new(store(&db, &clock).await);
        // One caller's 30 concurrent orders against a quota of 7.
        let admission = Admission { queued: 1000, active: 7, anonymous: 1000 };
        let orders = (0..30).map(|n| NewJob { owner: "key:q".into(), admission, ..job(n) }).collect();
        assert_eq!(race(&store, orders, Refusal::Quota { active: 7, limit: 7 }).await, (7, 23));
        // Thirty callers at once against a queue of 12 (7 already waiting).
        let admission = Admission { queued: 12, active: 10, anonymous: 1000 };
        let orders = (0..30).map(|n| NewJob { owner: format!("key:{n}"), admission, ..job(n) }).collect();
        assert_eq!(race(&store, orders, Refusal::Full { queued: 12 }).await, (5, 25));
        // A queue with room for more than there are connections admits orders side by side
        // until it is nearly full, then one at a time: 150 orders against room for 130.
        let admission = Admission { queued: 142, active: 10, anonymous: 1000 };
        let orders = (0..150).map(|n| NewJob { owner: format!("key:{n}"), admission, ..job(n) }).collect();
        assert_eq!(race(&store, orders, Refusal::Full { queued: 142 }).await, (130, 20));
        let counted = store.occupancy("key:q", Tier::Publisher, &Admission::UNLIMITED).await.unwrap();
        assert_eq!(counted, Occupancy::default(), "no limit, nothing counted");
        let all = Admission { queued: 100, active: 100, anonymous: 100 };
        let counted = store.occupancy("key:q", Tier::Anonymous, &all).await.unwrap();
        assert_eq!(counted, Occupancy { queued: 101, active: 7, anonymous: 0 }, "counted to one past each limit");
    })
    .await;
}

#[tokio::test]
async fn callers_without_a_key_share_part_of_the_queue_and_key_holders_keep_the_rest() {
    on_both(|db| async move {
        let clock = Clock::manual(0);
        let store = store(&db, &clock).await;
        let admission = Admission { queued: 10, active: 3, anonymous: 4 };
        let mut outcomes = Vec::new();
        for n in 0..6 {
            let new = NewJob { owner: format!("anon:10.0.0.{n}"), tier: Tier::Anonymous, admission, ..job(n) };
            outcomes.push(store.insert_job(&new).await.map(|_| ()).map_err(|e| e.to_string()));
        }
        let full = Refusal::AnonymousFull { queued: 4 }.to_string();
        assert_eq!(outcomes, [Ok(()), Ok(()), Ok(()), Ok(()), Err(full.clone()), Err(full)]);
        // A key holder is not refused: the rest of the queue is theirs.
        let keyed = NewJob { owner: "key:k".into(), admission, ..job(9) };
        assert!(store.insert_job(&keyed).await.unwrap().1);
    })
    .await;
}

fn text(id: &str, body: &str) -> NewWordList {
    NewWordList {
        id: id.into(),
        sha256: format!("{id:0<64}"),
        body: body.as_bytes().to_vec(),
        entries: 1,
        by_length: "{}".into(),
    }
}

/// A fill that reads list `id`, stored with it when `inline`.
fn fill_reading(id: &str, inline: Option<&NewWordList>) -> NewJob {
    NewJob {
        kind: "crosswords.fills".into(),
        wordlist: Some(id.into()),
        on_insert: inline.into_iter().cloned().map(OnInsert::WordList).collect(),
        ..job(1)
    }
}

async fn run_to_the_end(store: &Store) {
    while let Some(claimed) = store.claim("w", LEASE).await.unwrap() {
        assert!(store.finish(&claimed.id, "w", &done("{}"), (1, 1), false).await.unwrap());
    }
}

#[tokio::test]
async fn finished_jobs_and_unread_list_texts_are_swept_after_the_retention_time() {
    on_both(|db| async move {
        let clock = Clock::manual(1_000);
        let store = store(&db, &clock).await;
        let kept = NewJob { kind: "books".into(), ..job(2) };
        store.insert_job(&kept).await.unwrap();
        // Two requests send the same inline list: its text is stored once.
        let inline = text("aaaa", "HEART;70\n");
        let (first, _) = store.insert_job(&fill_reading("aaaa", Some(&inline))).await.unwrap();
        store.insert_job(&fill_reading("aaaa", Some(&inline))).await.unwrap();
        // An uploaded list that a queued job reads, deleted by its owner.
        store.save_wordlist("key:1", "mine", &text("bbbb", "HOUSE;50\n"), ROOMY).await.unwrap();
        store.insert_job(&fill_reading("bbbb", None)).await.unwrap();
        assert!(store.delete_wordlist("key:1", "bbbb").await.unwrap());
        assert!(store.wordlist_body("bbbb").await.unwrap().is_some(), "kept while a job reads it");
        assert_eq!(store.wordlist_body("aaaa").await.unwrap().as_deref(), Some(&b"HEART;70\n"[..]));

        clock.set(2_000);
        run_to_the_end(&store).await;
        clock.set(2_500);
        assert_eq!(store.delete_finished(&["crosswords.fills"], 1_000).await.unwrap(), 0, "within the retention");
        assert!(store.wordlist_body("aaaa").await.unwrap().is_some());

        clock.set(3_500);
        assert_eq!(store.delete_finished(&["crosswords.fills"], 1_000).await.unwrap(), 3);
        assert!(store.job(&first.id).await.unwrap().is_none());
        assert!(store.wordlist_body("aaaa").await.unwrap().is_none(), "no job reads the inline text any more");
        assert!(store.wordlist_body("bbbb").await.unwrap().is_none(), "no owner has the deleted list any more");
        let books = store.job_counts().await.unwrap();
        assert!(books.iter().any(|c| c.kind == "books" && c.count == 1), "books are kept: {books:?}");
    })
    .await;
}

/// A quota no test list comes near.
const ROOMY: WordListQuota = WordListQuota { lists: 100, bytes: 1 << 20 };

#[tokio::test]
async fn concurrent_word_list_saves_never_pass_the_owners_quota_together() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        // Room for three 100-byte lists; ten are saved at once.
        let quota = WordListQuota { lists: 20, bytes: 300 };
        let saves = (0..10).map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                let list = text(&format!("{n:04}"), &format!("{:<99}\n", format!("WORD{}", "X".repeat(n))));
                store.save_wordlist("anon:1", "", &list, quota).await.unwrap()
            })
        });
        let mut kept = 0;
        for save in saves.collect::<Vec<_>>() {
            match save.await.unwrap() {
                Saved::Kept { created: true, .. } => kept += 1,
                Saved::OverQuota { bytes, .. } => assert!(bytes <= 300, "{bytes}"),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(kept, 3);
        assert_eq!(store.wordlist_usage("anon:1").await.unwrap(), (3, 300));
        // Saving a list the owner has is no new bytes: kept, not over the quota.
        let had = store.wordlists_of("anon:1").await.unwrap()[0].id.clone();
        let again = text(&had, "ignored\n");
        assert!(matches!(
            store.save_wordlist("anon:1", "", &again, quota).await.unwrap(),
            Saved::Kept { created: false, .. }
        ));
        // The count is a quota too; another owner is not held to this one's.
        let one = WordListQuota { lists: 3, bytes: 1 << 20 };
        assert_eq!(
            store.save_wordlist("anon:1", "", &text("zzzz", "Z\n"), one).await.unwrap(),
            Saved::OverQuota { lists: 3, bytes: 300 }
        );
        assert!(matches!(
            store.save_wordlist("anon:2", "", &text("zzzz", "Z\n"), one).await.unwrap(),
            Saved::Kept { .. }
        ));
    })
    .await;
}

/// A book job of `owner`'s with serial `serial`, a copy of `run` when given.
fn book_job(owner: &str, serial: &str, run: Option<(&str, i64)>) -> NewJob {
    NewJob {
        kind: "books".into(),
        owner: owner.into(),
        params: format!("{{\"serial\":\"{serial}\"}}"),
        on_insert: vec![OnInsert::Book(Box::new(NewBook {
            serial: serial.into(),
            printrun: run.map(|(id, copy)| (id.to_string(), copy)),
            order: OrderedBook {
                generator_version: 2,
                pages: 1,
                rows: 3,
                cols: 3,
                word: "FOX".into(),
                letters: "FOX".into(),
                shape: "\"rectangle\"".into(),
                trim: "\"letter\"".into(),
                title: "Find the Fox".into(),
                lookup_url: String::new(),
                interior_version: 2,
                author: None,
                copyright: None,
                isbn: None,
            },
        }))],
        ..job(0)
    }
}

#[tokio::test]
async fn finished_products_survive_the_retention_sweep_and_scratch_jobs_do_not() {
    on_both(|db| async move {
        let clock = Clock::manual(1_000);
        let store = store(&db, &clock).await;
        // The kinds the server sweeps, as it computes them.
        let swept = puzzlepress::jobs::kinds::registry().swept();
        for kept in ["books", "crosswords.fills", "oneup.books"] {
            assert!(!swept.contains(&kept), "{kept} is a product: {swept:?}");
        }
        let inline = text("cccc", "HEART;70\n");
        let (fill, _) = store.insert_job(&fill_reading("cccc", Some(&inline))).await.unwrap();
        let (book, _) = store.insert_job(&NewJob { kind: "oneup.books".into(), ..job(2) }).await.unwrap();
        let (scratch, _) = store.insert_job(&job(3)).await.unwrap();
        let (squares, _) = store.insert_job(&NewJob { kind: "wordsquares".into(), ..job(4) }).await.unwrap();
        run_to_the_end(&store).await;

        clock.set(1_000_000);
        assert_eq!(store.delete_finished(&swept, 1_000).await.unwrap(), 2, "the scratch jobs");
        assert!(store.job(&scratch.id).await.unwrap().is_none());
        assert!(store.job(&squares.id).await.unwrap().is_none());
        assert_eq!(store.job(&fill.id).await.unwrap().unwrap().state, JobState::Succeeded, "the fill is kept");
        assert!(store.job(&book.id).await.unwrap().is_some(), "the One Up book is kept");
        assert!(store.wordlist_body("cccc").await.unwrap().is_some(), "the kept fill's list is kept with it");

        // Deleted by its owner, the fill's list goes with the next sweep.
        assert!(store.delete_ended_job(&fill.id).await.unwrap());
        assert!(store.job(&fill.id).await.unwrap().is_none());
        store.delete_finished(&swept, 1_000).await.unwrap();
        assert!(store.wordlist_body("cccc").await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn jobs_are_listed_newest_first_by_owner_kind_and_state_a_page_at_a_time() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        let mine = |n, kind: &str| NewJob { owner: "key:a".into(), kind: kind.into(), ..job(n) };
        let mut ids = Vec::new();
        for (n, kind) in [(1, "foxhole.strategies"), (2, "crosswords.fills"), (3, "crosswords.fills"), (4, "graycodes")]
        {
            ids.push(store.insert_job(&mine(n, kind)).await.unwrap().0.id);
        }
        store.insert_job(&book_job("key:a", "SERIAL00001", None)).await.unwrap();
        store.insert_job(&NewJob { owner: "key:b".into(), ..job(9) }).await.unwrap();
        store.cancel(&ids[1]).await.unwrap();

        let owner = JobFilter { owner: Some("key:a".into()), ..JobFilter::default() };
        let all = store.jobs_page(&owner, None, 100).await.unwrap();
        assert_eq!(all.len(), 5, "{all:?}");
        assert!(all.windows(2).all(|w| w[0].position > w[1].position), "newest first");
        assert_eq!((all[0].kind.as_str(), all[0].serial.as_deref()), ("books", Some("SERIAL00001")));
        assert!(all[1..].iter().all(|j| j.serial.is_none()));
        // Two at a time, each page after the last one's position, covers the same jobs.
        let mut walked = Vec::new();
        let mut before = None;
        loop {
            let page = store.jobs_page(&owner, before, 2).await.unwrap();
            let Some(last) = page.last() else { break };
            before = Some(last.position);
            walked.extend(page.into_iter().map(|j| j.id));
        }
        assert_eq!(walked, all.iter().map(|j| j.id.clone()).collect::<Vec<_>>());

        let fills = JobFilter { kind: Some("crosswords.fills".into()), ..owner.clone() };
        let listed: Vec<_> = store.jobs_page(&fills, None, 100).await.unwrap().into_iter().map(|j| j.id).collect();
        assert_eq!(listed, [ids[2].clone(), ids[1].clone()]);
        let cancelled = JobFilter { state: Some(JobState::Cancelled), ..fills.clone() };
        let listed: Vec<_> = store.jobs_page(&cancelled, None, 100).await.unwrap().into_iter().map(|j| j.id).collect();
        assert_eq!(listed, [ids[1].clone()]);
        let queued = JobFilter { state: Some(JobState::Queued), ..JobFilter::default() };
        assert_eq!(store.jobs_page(&queued, None, 100).await.unwrap().len(), 5, "everyone's, for an admin");
        let other = JobFilter { owner: Some("key:c".into()), ..JobFilter::default() };
        assert!(store.jobs_page(&other, None, 100).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn an_ended_product_is_deleted_with_its_book_and_a_copy_only_with_its_ended_run() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        let (book, _) = store.insert_job(&book_job("key:a", "SERIAL00002", None)).await.unwrap();
        assert!(!store.delete_ended_job(&book.id).await.unwrap(), "a queued job is not deleted");
        assert!(store.book("SERIAL00002", false).await.unwrap().is_some());

        let run = |id: &str, copies| NewPrintRun {
            id: id.into(),
            owner: "key:a".into(),
            tier: Tier::Publisher,
            params: "{}".into(),
            copies,
            at_once: 2,
            idempotency_key: None,
        };
        store.insert_printrun(&run("run-1", 2)).await.unwrap();
        store.insert_printrun(&run("run-2", 1)).await.unwrap();
        store.insert_printrun(&NewPrintRun { owner: "key:b".into(), ..run("run-3", 1) }).await.unwrap();
        let (copy, _) = store.insert_job(&book_job("key:a", "SERIAL00003", Some(("run-1", 1)))).await.unwrap();
        assert!(!store.delete_printrun("run-1").await.unwrap(), "a copy is still to be queued");
        store.insert_job(&book_job("key:a", "SERIAL00004", Some(("run-1", 2)))).await.unwrap();
        assert!(!store.delete_printrun("run-1").await.unwrap(), "copies are queued");
        run_to_the_end(&store).await;

        assert!(!store.delete_ended_job(&copy.id).await.unwrap(), "a copy goes only with its run");
        assert!(store.delete_ended_job(&book.id).await.unwrap());
        assert!(store.book("SERIAL00002", false).await.unwrap().is_none());
        assert!(store.job(&book.id).await.unwrap().is_none());
        assert!(store.attempts(&book.id).await.unwrap().is_empty(), "its attempts go with it");
        assert!(!store.delete_ended_job(&book.id).await.unwrap(), "deleted once");

        let runs = store.printruns_page(Some("key:a"), None, 10).await.unwrap();
        assert_eq!(runs.iter().map(|r| r.order.id.as_str()).collect::<Vec<_>>(), ["run-2", "run-1"]);
        assert_eq!((runs[1].queued, runs[1].done), (2, 2));
        let older = store.printruns_page(Some("key:a"), Some(runs[0].position), 10).await.unwrap();
        assert_eq!(older.iter().map(|r| r.order.id.as_str()).collect::<Vec<_>>(), ["run-1"]);
        assert_eq!(store.printruns_page(None, None, 10).await.unwrap().len(), 3, "everyone's, for an admin");

        assert!(store.delete_printrun("run-1").await.unwrap());
        assert!(store.printrun("run-1").await.unwrap().is_none());
        assert!(store.book("SERIAL00003", false).await.unwrap().is_none());
        assert!(store.book("SERIAL00004", false).await.unwrap().is_none());
        assert!(store.job(&copy.id).await.unwrap().is_none(), "the copies' jobs go with them");
        assert!(!store.delete_printrun("run-1").await.unwrap());
        assert!(store.printrun("run-3").await.unwrap().is_some(), "another run is left alone");
    })
    .await;
}

/// Runs `sql` on the test's database behind the store's back, to damage a row.
async fn tamper(db: &TestDb, sql: &str) {
    if db.pg_database().is_some() {
        common::psql(&db.url, sql);
    } else {
        let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
        sqlx::query(sql).execute(&pool).await.unwrap();
        pool.close().await;
    }
}

#[tokio::test]
async fn a_stored_value_that_does_not_read_back_is_reported_corrupt() {
    on_both(|db| async move {
        let store = store(&db, &Clock::Database).await;
        let run = NewPrintRun {
            id: "run-1".into(),
            owner: "key:a".into(),
            tier: Tier::Publisher,
            params: "{}".into(),
            copies: 1,
            at_once: 1,
            idempotency_key: None,
        };
        store.insert_printrun(&run).await.unwrap();
        store.insert_job(&book_job("key:a", "SERIAL00005", None)).await.unwrap();
        tamper(&db, "UPDATE printruns SET tier = 'gold'").await;
        tamper(&db, "UPDATE books SET answer = 'not json'").await;
        let e = store.printrun("run-1").await.unwrap_err();
        assert!(matches!(&e, StoreError::Corrupt(m) if m.contains("tier \"gold\"")), "{e}");
        let e = store.book("SERIAL00005", false).await.unwrap_err();
        assert!(matches!(&e, StoreError::Corrupt(m) if m.contains("answer")), "{e}");
    })
    .await;
}

#[tokio::test]
async fn kept_products_count_against_their_owners_storage_and_anonymous_ones_are_swept() {
    on_both(|db| async move {
        let clock = Clock::manual(1_000);
        let store = store(&db, &clock).await;
        let product = |owner: &str, tier: Tier, n: u64| NewJob {
            kind: "oneup.books".into(),
            owner: owner.into(),
            tier,
            ..job(n)
        };
        let (publishers, _) = store.insert_job(&product("key:1", Tier::Publisher, 10)).await.unwrap();
        let (anonymous, _) = store.insert_job(&product("anon:10.0.0.1", Tier::Anonymous, 11)).await.unwrap();
        let (second, _) = store.insert_job(&product("key:1", Tier::Publisher, 12)).await.unwrap();
        assert_eq!(store.stored_bytes("key:1").await.unwrap(), 0, "nothing is counted before it ends");
        let result = "{\"puzzles\":[1,2,3]}";
        while let Some(claimed) = store.claim("w", LEASE).await.unwrap() {
            assert!(store.finish(&claimed.id, "w", &done(result), (1, 1), true).await.unwrap());
        }
        // A scratch job (not kept) counts nothing.
        let (scratch, _) = store.insert_job(&NewJob { owner: "key:1".into(), ..job(13) }).await.unwrap();
        let claimed = store.claim("w", LEASE).await.unwrap().unwrap();
        assert_eq!(claimed.id, scratch.id);
        assert!(store.finish(&claimed.id, "w", &done(result), (1, 1), false).await.unwrap());

        let each = (r#"{"holes":10}"#.len() + result.len()) as i64;
        assert_eq!(store.stored_bytes("key:1").await.unwrap(), 2 * each);
        assert_eq!(store.stored_bytes("anon:10.0.0.1").await.unwrap(), each);
        // Deleting a product gives its bytes back.
        assert!(store.delete_ended_job(&second.id).await.unwrap());
        assert_eq!(store.stored_bytes("key:1").await.unwrap(), each);

        // Past the retention time the anonymous tier's products go; key holders' stay.
        clock.set(1_000_000);
        assert_eq!(store.delete_finished(&["foxhole.strategies"], 1_000).await.unwrap(), 2);
        assert!(store.job(&anonymous.id).await.unwrap().is_none(), "the anonymous product is swept");
        assert!(store.job(&scratch.id).await.unwrap().is_none());
        assert!(store.job(&publishers.id).await.unwrap().is_some(), "the publisher's product is kept");
        assert_eq!(store.stored_bytes("anon:10.0.0.1").await.unwrap(), 0);
        assert_eq!(store.stored_bytes("key:1").await.unwrap(), each);
    })
    .await;
}
