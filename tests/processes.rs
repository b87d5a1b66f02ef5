//! The real binary under real conditions: several processes on one database, crashes,
//! restarts and a full queue.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::{get, metric_sum, on_both, post, wait_job, Server, TestDb};
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

/// A test-only job (the `test-jobs` feature) that runs for `millis`, or until cancelled.
/// The test job's params; without `millis` it runs until cancelled (request bodies hold
/// no null).
fn blocking(millis: Option<u64>, tag: u64) -> serde_json::Value {
    match millis {
        Some(millis) => json!({"millis": millis, "tag": tag}),
        None => json!({"tag": tag}),
    }
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

/// The job record behind a resource (attempt log included).
async fn job_of(server: &Server, resource: &serde_json::Value) -> serde_json::Value {
    get(server, resource["links"]["job"].as_str().unwrap()).await.1
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_with_jobs_running_then_restart_finishes_every_accepted_job() {
    for db in TestDb::both() {
        let flags = ["--workers", "2", "--lease-secs", "1.5", "--poll-ms", "100"];
        let mut first = Server::start(&db.url, &flags);
        let mut locations = Vec::new();
        for i in 0..6 {
            let (status, location, _) = post(&first, "/testing/blocking", blocking(Some(1_000), i)).await;
            assert_eq!(status, 202);
            locations.push(location.unwrap());
        }
        let running = wait_running(&first, &locations[0]).await;
        assert_eq!(running["attempts"], 1);
        first.kill9();

        let second = Server::start(&db.url, &flags);
        for location in &locations {
            let job = wait_job(&second, location, Duration::from_secs(60)).await;
            assert_eq!(job["state"], "succeeded", "{} {job}", db.backend());
        }
        let (_, rerun) = get(&second, &locations[0]).await;
        assert_eq!(rerun["attempts"], 2, "the job killed mid-run was run again: {rerun}");
        let log = job_of(&second, &rerun).await["attempt_log"].clone();
        let outcomes: Vec<_> = log.as_array().unwrap().iter().map(|a| a["outcome"].as_str().unwrap()).collect();
        assert_eq!(outcomes, ["lost", "succeeded"], "{log}");
        assert_eq!(log[0]["error"], "the worker stopped renewing its lease (its process died or hung)");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn progress_and_cancellation_reach_a_running_job_within_a_tick() {
    on_both(|db| async move {
        // The default lease (30 s) renews every 10 s: progress and cancellation must not
        // wait for it.
        let server = Server::start(&db.url, &["--workers", "1"]);
        let (_, location, _) = post(&server, "/testing/blocking", blocking(None, 1)).await;
        let location = location.unwrap();
        wait_running(&server, &location).await;
        let start = std::time::Instant::now();
        loop {
            let (_, job) = get(&server, &location).await;
            if job["progress"]["done"].as_u64().unwrap_or(0) > 0 {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(3), "no progress published: {job}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (_, first) = get(&server, &location).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        let (_, later) = get(&server, &location).await;
        assert!(later["progress"]["done"].as_u64() > first["progress"]["done"].as_u64(), "{first} then {later}");

        let response = common::client()
            .delete(server.url(&format!("/jobs/{}", later["id"].as_str().unwrap())))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 202, "a running job is asked to stop");
        let asked = std::time::Instant::now();
        let job = wait_job(&server, &location, Duration::from_secs(3)).await;
        assert_eq!(job["state"], "cancelled", "cancelled {:?} after the request: {job}", asked.elapsed());
        assert_eq!(job["result"], serde_json::Value::Null);

        // A queued job is cancelled at once.
        let (_, busy, _) = post(&server, "/testing/blocking", blocking(None, 2)).await;
        let (_, queued, body) = post(&server, "/testing/blocking", blocking(None, 3)).await;
        assert_eq!(queued.as_deref(), body["links"]["self"].as_str(), "Location and links.self agree");
        let response =
            common::client().delete(server.url(body["links"]["job"].as_str().unwrap())).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let cancelled: serde_json::Value = response.json().await.unwrap();
        assert_eq!(cancelled["state"], "cancelled");
        let (_, busy) = get(&server, &busy.unwrap()).await;
        common::client().delete(server.url(busy["links"]["job"].as_str().unwrap())).send().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_short_jobs_finish_and_hands_long_ones_back() {
    on_both(|db| async move {
        // A long job outlives the grace period: it goes back to the queue, not lost.
        let mut server = Server::start(&db.url, &["--workers", "1", "--shutdown-grace-secs", "0.5"]);
        let (_, long, _) = post(&server, "/testing/blocking", blocking(None, 1)).await;
        let long = long.unwrap();
        wait_running(&server, &long).await;
        assert!(server.terminate().success());

        // An API-only process reads what the first one left.
        let api = Server::start(&db.url, &["--workers", "0"]);
        let (_, handed_back) = get(&api, &long).await;
        assert_eq!(handed_back["state"], "queued", "{handed_back}");
        assert_eq!(handed_back["attempts"], 0, "a released run is not counted: {handed_back}");
        let log = job_of(&api, &handed_back).await["attempt_log"].clone();
        let outcomes: Vec<_> = log.as_array().unwrap().iter().map(|a| a["outcome"].as_str().unwrap()).collect();
        assert_eq!(outcomes, ["released"], "no attempt completed: {log}");
        common::client().delete(api.url(handed_back["links"]["job"].as_str().unwrap())).send().await.unwrap();

        // A short job finishes within the grace period before the process exits.
        let mut server = Server::start(&db.url, &["--workers", "1", "--shutdown-grace-secs", "30"]);
        let (_, short, _) = post(&server, "/testing/blocking", blocking(Some(1_500), 2)).await;
        let short = short.unwrap();
        wait_running(&server, &short).await;
        assert!(server.terminate().success());
        let (_, job) = get(&api, &short).await;
        assert_eq!(job["state"], "succeeded", "finished during the grace period: {job}");
        let (_, job) = get(&api, &long).await;
        assert_eq!(job["state"], "cancelled");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_single_book_waits_at_most_about_one_job_behind_another_callers_long_queue() {
    on_both(|db| async move {
        let key = |name: &str| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
                .args(["keys", "create", "--name", name, "--database-url", &db.url])
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        let (a, b) = (key("a"), key("b"));
        let server = Server::start(&db.url, &["--workers", "1", "--poll-ms", "50"]);
        let send = |token: &str, path: &str, body: serde_json::Value| {
            let request = common::client().post(server.url(path)).bearer_auth(token).json(&body);
            async move {
                let response = request.send().await.unwrap();
                assert_eq!(response.status(), 202);
                response.headers()["location"].to_str().unwrap().to_string()
            }
        };
        // A queues ten jobs of 700 ms each; once the first runs, B orders one small book.
        let mut queue = Vec::new();
        for tag in 0..10 {
            queue.push(send(&a, "/testing/blocking", blocking(Some(700), tag)).await);
        }
        let start = std::time::Instant::now();
        loop {
            let response = common::client().get(server.url(&queue[0])).bearer_auth(&a).send().await.unwrap();
            if response.json::<serde_json::Value>().await.unwrap()["state"] == "running" {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "A's first job never started");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let book = send(&b, "/books", json!({"pages": 2, "rows": 8, "cols": 8})).await;
        let start = std::time::Instant::now();
        loop {
            let response = common::client().get(server.url(&book)).bearer_auth(&b).send().await.unwrap();
            let view: serde_json::Value = response.json().await.unwrap();
            if view["state"] == "succeeded" {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "{view}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // B's book ran right after A's running job: at most A's next job started meanwhile.
        let mut a_done = 0;
        for location in &queue {
            let response = common::client().get(server.url(location)).bearer_auth(&a).send().await.unwrap();
            let job: serde_json::Value = response.json().await.unwrap();
            a_done += usize::from(job["state"] == "succeeded");
        }
        assert!(a_done <= 2, "{a_done} of A's jobs finished before B's single book");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_print_run_survives_kill_9_mid_run_with_every_copy_printed_once() {
    for db in TestDb::both() {
        let flags = ["--workers", "2", "--lease-secs", "1.5", "--poll-ms", "100"];
        let mut first = Server::start(&db.url, &flags);
        let copies = 150;
        let order = serde_json::json!({"copies": copies, "pages": 300, "rows": 32, "cols": 20});
        let (status, location, _) = post(&first, "/printruns", order).await;
        assert_eq!(status, 202);
        let location = location.unwrap();
        // Kill it once some copies are printed and the rest are not.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (_, run) = get(&first, &location).await;
            let done = run["done"].as_i64().unwrap();
            assert!(done < copies, "{}: the run finished before it could be killed", db.backend());
            if done >= 5 {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "no copy printed: {run}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        first.kill9();

        let second = Server::start(&db.url, &flags);
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        let run = loop {
            let (_, run) = get(&second, &location).await;
            if run["state"] == "succeeded" {
                break run;
            }
            assert!(std::time::Instant::now() < deadline, "{}: the run did not finish: {run}", db.backend());
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let books = run["books"].as_array().unwrap();
        assert_eq!((run["done"].as_i64(), books.len()), (Some(copies), copies as usize), "{}", db.backend());
        let numbers: Vec<i64> = books.iter().map(|b| b["copy"].as_i64().unwrap()).collect();
        assert_eq!(numbers, (1..=copies).collect::<Vec<_>>(), "each copy once, in order");
        let serials: std::collections::HashSet<&str> = books.iter().map(|b| b["serial"].as_str().unwrap()).collect();
        assert_eq!(serials.len(), copies as usize, "every copy its own book");
        let (status, manifest) = get(&second, &format!("{location}/manifest.json")).await;
        assert_eq!(status, 200);
        assert_eq!(manifest["copies"].as_array().unwrap().len(), copies as usize);
    }
}

/// `puzzlepress migrate` against `url` with info logs; returns its success and stdout.
fn migrate(url: &str) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["migrate", "--database-url", url])
        .env("RUST_LOG", "info")
        .env("PUZZLEPRESS_LOG_FORMAT", "json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.success(), format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_postgres_database_is_created_and_served() {
    // Upper case and a hyphen: the name only works quoted as an identifier.
    let db = TestDb::postgres_missing("pp_test_New-");
    let name = db.pg_database().unwrap().to_string();
    let (ok, log) = migrate(&db.url);
    assert!(ok && log.contains("created the PostgreSQL database") && log.contains(&name), "{log}");
    let (ok, log) = migrate(&db.url);
    assert!(ok && !log.contains("created the PostgreSQL database"), "created once only: {log}");

    let server = Server::start(&db.url, &["--workers", "1"]);
    let (status, location, body) = post(&server, "/foxhole/strategies", json!({ "holes": 3 })).await;
    assert_eq!(status, 202, "{body}");
    let job = wait_job(&server, &location.unwrap(), Duration::from_secs(60)).await;
    assert_eq!(job["state"], "succeeded", "{job}");

    // `serve` itself creates it too, and several processes starting at once agree.
    let fresh = TestDb::postgres_missing("pp_test_new_");
    let racers: Vec<Server> = std::thread::scope(|s| {
        let starting: Vec<_> = (0..3).map(|_| s.spawn(|| Server::start(&fresh.url, &["--workers", "0"]))).collect();
        starting.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for server in &racers {
        let (status, _) = get(server, "/readyz").await;
        assert_eq!(status, 200, "{}", server.base);
    }
}
