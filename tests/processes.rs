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
        let response =
            common::client().post(api.url("/foxhole/strategies")).json(&json!({"holes": 4})).send().await.unwrap();
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

/// A deterministic job that keeps a worker busy for a few seconds: counting 5-bit Gray
/// codes, stopped by a node budget. `budget` varies it so every job is distinct.
fn slow_job(budget: u64) -> serde_json::Value {
    json!({"bits": 5, "length": 32, "count_only": true, "node_budget": budget})
}

async fn wait_running(server: &Server, location: &str) -> serde_json::Value {
    let start = std::time::Instant::now();
    loop {
        let (_, job) = get(server, location).await;
        if job["state"] == "running" {
            return job;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "job never started: {job}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_with_jobs_running_then_restart_finishes_every_accepted_job() {
    for db in TestDb::both() {
        let flags = ["--workers", "2", "--lease-secs", "1.5", "--poll-ms", "100"];
        let mut first = Server::start(&db.url, &flags);
        let mut locations = Vec::new();
        for i in 0..6 {
            let (status, location, _) = post(&first, "/graycodes", slow_job(150_000_000 + i)).await;
            assert_eq!(status, 202);
            locations.push(location.unwrap());
        }
        let running = wait_running(&first, &locations[0]).await;
        assert_eq!(running["attempts"], 1);
        first.kill9();

        let second = Server::start(&db.url, &flags);
        for location in &locations {
            let job = wait_job(&second, location, Duration::from_secs(120)).await;
            assert_eq!(job["state"], "succeeded", "{job}");
            assert!(job["result"]["count"].as_u64().unwrap() > 0);
        }
        let (_, rerun) = get(&second, &locations[0]).await;
        assert_eq!(rerun["attempts"], 2, "the job killed mid-run was run again: {rerun}");
        // Re-running is deterministic: the same request counts the same.
        let (_, again, _) = post(&second, "/graycodes", slow_job(150_000_000)).await;
        let again = wait_job(&second, &again.unwrap(), Duration::from_secs(60)).await;
        assert_eq!(again["result"], rerun["result"]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn running_jobs_report_progress_and_can_be_cancelled() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "1", "--lease-secs", "0.6"]);
    let (_, location, _) = post(&server, "/graycodes", slow_job(50_000_000_000)).await;
    let location = location.unwrap();
    wait_running(&server, &location).await;
    let start = std::time::Instant::now();
    loop {
        let (_, job) = get(&server, &location).await;
        if job["progress"]["done"].as_u64().unwrap_or(0) > 0 {
            assert_eq!(job["progress"]["total"], 50_000_000_000u64);
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no progress reported: {job}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let response = common::client().delete(server.url(&location)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 202, "a running job is asked to stop");
    let job = wait_job(&server, &location, Duration::from_secs(10)).await;
    assert_eq!(job["state"], "cancelled");
    assert_eq!(job["result"], serde_json::Value::Null);

    // A queued job is cancelled at once.
    let (_, busy, _) = post(&server, "/graycodes", slow_job(50_000_000_001)).await;
    let (_, queued, _) = post(&server, "/graycodes", slow_job(10)).await;
    let response = common::client().delete(server.url(queued.as_ref().unwrap())).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["state"], "cancelled");
    common::client().delete(server.url(&busy.unwrap())).send().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_short_jobs_finish_and_hands_long_ones_back() {
    let db = TestDb::postgres();
    // A long job outlives the grace period: it goes back to the queue, not lost.
    let mut server = Server::start(&db.url, &["--workers", "1", "--shutdown-grace-secs", "0.5"]);
    let (_, long, _) = post(&server, "/graycodes", slow_job(50_000_000_000)).await;
    let long = long.unwrap();
    wait_running(&server, &long).await;
    let start = std::time::Instant::now();
    assert!(server.terminate().success());
    assert!(start.elapsed() < Duration::from_secs(10), "shutdown took {:?}", start.elapsed());

    // A short job finishes within the grace period before the process exits.
    let mut server = Server::start(&db.url, &["--workers", "1", "--shutdown-grace-secs", "30"]);
    let (_, job) = get(&server, &long).await;
    assert!(job["attempts"].as_i64().unwrap() <= 1, "a released run is not counted: {job}");
    common::client().delete(server.url(&long)).send().await.unwrap();
    wait_job(&server, &long, Duration::from_secs(10)).await;
    let (_, short, _) = post(&server, "/graycodes", slow_job(60_000_000)).await;
    let short = short.unwrap();
    wait_running(&server, &short).await;
    assert!(server.terminate().success());

    let after = Server::start(&db.url, &["--workers", "0"]);
    let (_, job) = get(&after, &short).await;
    assert_eq!(job["state"], "succeeded", "finished during the grace period: {job}");
    let (_, job) = get(&after, &long).await;
    assert_eq!(job["state"], "cancelled");
}
