//! The real binary under real conditions: several processes on one database, crashes,
//! restarts and a full queue.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::{get, metric_sum, post, wait_job, Server, TestDb};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn two_processes_on_one_postgres_drain_100_jobs_each_exactly_once() {
    let db = TestDb::postgres();
    let a = Server::start(&db.url, &["--workers", "2", "--poll-ms", "200"]);
    let b = Server::start(&db.url, &["--workers", "2", "--poll-ms", "200"]);
    let mut locations = Vec::new();
    for n in 0..100 {
        let server = if n % 2 == 0 { &a } else { &b };
        let (status, location, body) = post(server, "/foxhole/strategies", json!({ "holes": n % 24 + 1 })).await;
        assert_eq!(status, 202, "{body}");
        locations.push(location.unwrap());
    }
    assert_eq!(locations.iter().collect::<HashSet<_>>().len(), 100);
    for location in &locations {
        let job = wait_job(&a, location, Duration::from_secs(60)).await;
        assert_eq!(job["state"], "succeeded", "{job}");
        assert_eq!(job["attempts"], 1, "each job ran once: {job}");
    }
    let runs_a = metric_sum(&a, "puzzlepress_job_runs_total", "outcome=\"succeeded\"").await;
    let runs_b = metric_sum(&b, "puzzlepress_job_runs_total", "outcome=\"succeeded\"").await;
    assert_eq!(runs_a + runs_b, 100.0, "runs completed: {runs_a} by a, {runs_b} by b");
    assert_eq!(metric_sum(&a, "puzzlepress_job_runs_total", "outcome=\"lost\"").await, 0.0);
    assert_eq!(metric_sum(&b, "puzzlepress_job_runs_total", "outcome=\"lost\"").await, 0.0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_full_queue_answers_503_and_accepts_again_once_drained() {
    for db in TestDb::both() {
        // An API-only process (no workers) fills the queue.
        let mut api = Server::start(&db.url, &["--workers", "0", "--queue-limit", "3"]);
        let mut accepted = Vec::new();
        for n in 1..=3 {
            let (status, location, _) = post(&api, "/foxhole/strategies", json!({ "holes": n })).await;
            assert_eq!(status, 202);
            accepted.push(location.unwrap());
        }
        let response = common::client()
            .post(api.url("/foxhole/strategies"))
            .json(&json!({"holes": 4}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 503);
        assert!(response.headers().get("retry-after").is_some(), "503 says when to retry");
        assert_eq!(response.headers()["content-type"], "application/problem+json");
        let (_, job) = get(&api, &accepted[0]).await;
        assert_eq!(job["state"], "queued");

        // A worker process on the same database drains the queue; the retry then succeeds.
        let worker = Server::start(&db.url, &["--workers", "1", "--poll-ms", "100"]);
        for location in &accepted {
            assert_eq!(wait_job(&worker, location, Duration::from_secs(30)).await["state"], "succeeded");
        }
        let (status, location, _) = post(&api, "/foxhole/strategies", json!({ "holes": 4 })).await;
        assert_eq!(status, 202);
        let job = wait_job(&worker, &location.unwrap(), Duration::from_secs(30)).await;
        assert_eq!(job["result"]["days"], 4);
        assert!(api.terminate().success());
    }
}
