//! Publishers' keys against the real binary on both backends: who may order, read and
//! cancel what, idempotency per caller, revocation across processes, quotas, and the
//! refusal to serve the network without keys.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{on_both, Server, TestDb};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// `puzzlepress keys …` against the database; returns stdout.
fn keys(db: &TestDb, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .arg("keys")
        .args(args)
        .args(["--database-url", &db.url])
        .output()
        .unwrap();
    assert!(out.status.success(), "keys {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn create_key(db: &TestDb, name: &str, role: &str) -> String {
    let token = keys(db, &["create", "--name", name, "--role", role]).trim().to_string();
    assert!(token.starts_with("pp_") && token.len() == 67, "token {token:?}");
    token
}

/// Sends a request as `token` (None: anonymous); returns status, headers and JSON body.
async fn call(
    server: &Server,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    key: Option<&str>,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut request = common::client().request(method, server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    (status, headers, response.json().await.unwrap_or(Value::Null))
}

async fn printed(server: &Server, serial: &str, token: &str) -> Value {
    let start = Instant::now();
    loop {
        let (_, _, book) = call(server, Method::GET, &format!("/books/{serial}"), Some(token), None, None).await;
        if book["state"] == "succeeded" {
            return book;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "book never printed: {book}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn publishers_see_only_their_own_books_and_readers_only_the_answer() {
    on_both(|db| async move {
        let a = create_key(&db, "publisher-a", "publisher");
        let b = create_key(&db, "publisher-b", "publisher");
        let ops = create_key(&db, "ops", "admin");
        let listed = keys(&db, &["list"]);
        assert!(listed.contains("publisher-a") && listed.contains("admin") && !listed.contains(&a), "{listed}");
        let server = Server::start(&db.url, &["--workers", "2"]);
        let order = json!({"pages": 4, "rows": 8, "cols": 8});

        // Ordering needs a key; a bad token is refused whatever it asks for.
        let (status, headers, problem) = call(&server, Method::POST, "/books", None, Some(order.clone()), None).await;
        assert_eq!(status, 401, "{problem}");
        assert_eq!(headers["www-authenticate"], "Bearer");
        assert_eq!(headers["content-type"], "application/problem+json");
        let (status, ..) =
            call(&server, Method::GET, "/jobs/00000000-0000-0000-0000-000000000000", Some("pp_wrong"), None, None)
                .await;
        assert_eq!(status, 401);

        let (status, _, ordered) =
            call(&server, Method::POST, "/books", Some(&a), Some(order.clone()), Some("k1")).await;
        assert_eq!(status, 202, "{ordered}");
        let serial = ordered["serial"].as_str().unwrap().to_string();
        let book = printed(&server, &serial, &a).await;
        let job = book["job"].as_str().unwrap().to_string();
        let (_, _, answer) = call(&server, Method::GET, &format!("/books/{serial}/answer"), None, None, None).await;
        let fox_page = answer["page"].as_u64().unwrap();
        let other_page = if fox_page == 1 { 2 } else { 1 };

        // Idempotency keys are per caller: B's "k1" is B's own order.
        let (_, _, again) = call(&server, Method::POST, "/books", Some(&a), Some(order.clone()), Some("k1")).await;
        assert_eq!(again["serial"], serial.as_str());
        let (_, _, bs) = call(&server, Method::POST, "/books", Some(&b), Some(order.clone()), Some("k1")).await;
        assert_ne!(bs["serial"], serial.as_str(), "{bs}");

        let paths = |p: &str| format!("/books/{serial}{p}");
        // The owner and admins see everything.
        for token in [&a, &ops] {
            for path in [paths("/book.pdf"), paths(&format!("/pages/{other_page}")), job.clone()] {
                let (status, ..) = call(&server, Method::GET, &path, Some(token), None, None).await;
                assert_eq!(status, 200, "GET {path}");
            }
        }
        // The owner's view links the whole book.
        let (_, _, seen) = call(&server, Method::GET, &paths(""), Some(&a), None, None).await;
        assert!(seen["links"]["pages"].is_string() && seen["links"]["book_pdf"].is_string(), "{seen}");
        // Another publisher and an anonymous reader: the state, the answer, its PDF and the
        // fox's page; not the job (404: they cannot know it), nor the rest of the book or its
        // PDFs, which the book's view does not link for them and which are refused as what
        // they are (401 without a key, 403 with another publisher's), never "no such book".
        for (token, refused) in [(Some(b.as_str()), 403), (None, 401)] {
            let (_, _, seen) = call(&server, Method::GET, &paths(""), token, None, None).await;
            assert_eq!((seen["state"].as_str(), &seen["job"]), (Some("succeeded"), &Value::Null), "{seen}");
            let links = &seen["links"];
            assert!(links["pages"].is_null() && links["book_pdf"].is_null() && links["cover_pdf"].is_null(), "{seen}");
            assert!(links["answer"].is_string() && links["answer_pdf"].is_string(), "{seen}");
            for path in [paths("/answer"), paths("/answer.pdf"), paths(&format!("/pages/{fox_page}"))] {
                let (status, ..) = call(&server, Method::GET, &path, token, None, None).await;
                assert_eq!(status, 200, "GET {path} as {token:?}");
            }
            for path in [paths("/book.pdf"), paths("/cover.pdf"), paths(&format!("/pages/{other_page}"))] {
                let (status, _, problem) = call(&server, Method::GET, &path, token, None, None).await;
                assert_eq!(status, refused, "GET {path} as {token:?}: {problem}");
                let detail = problem["detail"].as_str().unwrap();
                assert!(
                    detail.contains("publisher") && !detail.contains("no book") && !detail.contains("not in this book"),
                    "{detail}"
                );
            }
            let (status, ..) = call(&server, Method::GET, &job, token, None, None).await;
            assert_eq!(status, 404, "GET {job} as {token:?}");
            // A book that does not exist is 404 for everyone.
            let (status, ..) = call(&server, Method::GET, "/books/NCB5919RTQP/book.pdf", token, None, None).await;
            assert_eq!(status, 404);
            let (status, ..) = call(&server, Method::DELETE, &job, token, None, None).await;
            assert_eq!(status, 404, "DELETE {job} as {token:?}");
        }
        // Metrics are for admins.
        for (token, want) in [(Some(ops.as_str()), 200), (Some(a.as_str()), 401), (None, 401)] {
            let response = common::client().get(server.url("/metrics"));
            let response = match token {
                Some(t) => response.bearer_auth(t),
                None => response,
            };
            assert_eq!(response.send().await.unwrap().status(), want, "/metrics as {token:?}");
        }

        // Revoking a key (from another process) locks it out within about a second.
        keys(&db, &["revoke", "publisher-b"]);
        let start = Instant::now();
        loop {
            let (status, ..) = call(&server, Method::GET, &paths(""), Some(&b), None, None).await;
            if status == 401 {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "a revoked key still works");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
}

/// A crossword fill's PDFs and files are its owner's (and admins'): another publisher and
/// an anonymous caller get 404, as if it did not exist.
#[tokio::test(flavor = "multi_thread")]
async fn a_fills_files_are_its_owners() {
    on_both(|db| async move {
        let fill = json!({"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "clues": {"1A": "x"}});
        let (server, [a, b, ops], location, seen) = owned_resource(&db, "/crosswords/fills", fill).await;
        assert!(seen["result"]["rows"].is_array(), "{seen}");
        let files = ["", "/grid.pdf", "/solution.pdf", "/puzzle.puz", "/puzzle.ipuz"];
        only_owner_and_admin_see(&server, &location, &files, &a, &ops, &b).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_one_up_book_is_its_publishers_own_and_callers_without_a_key_get_small_books() {
    on_both(|db| async move {
        let order = json!({"levels": {"easy": 2, "medium": 1}, "size": 6, "seed": 4});
        let (server, [a, b, ops], location, seen) = owned_resource(&db, "/oneup/books", order).await;
        assert_eq!(seen["result"]["puzzles"].as_array().map(Vec::len), Some(3), "{seen}");
        only_owner_and_admin_see(&server, &location, &["", "/book.pdf"], &a, &ops, &b).await;

        // 20 hard 6 x 6 puzzles take about 25 s: within a publisher's 60 s, over the 20 s
        // of a caller without a key.
        let slow = json!({"levels": {"hard": 20}, "size": 6});
        let (status, _, refused) = call(&server, Method::POST, "/oneup/books", None, Some(slow.clone()), None).await;
        assert_eq!(status, 422, "{refused}");
        assert_eq!(refused["field"], "levels", "{refused}");
        assert!(refused["detail"].as_str().unwrap().contains("at most 20 s"), "{refused}");
        let (status, _, queued) = call(&server, Method::POST, "/oneup/books", Some(&b), Some(slow), None).await;
        assert_eq!(status, 202, "{queued}");
        let job = queued["links"]["job"].as_str().unwrap().to_string();
        let (status, _, _) = call(&server, Method::DELETE, &job, Some(&b), None, None).await;
        assert!(status.is_success(), "cancelled: {status}");
    })
    .await;
}

/// A word-search book, its interior and its cover are its publisher's (and admins'): another
/// publisher and a caller without a key get 404, and cannot delete it.
#[tokio::test(flavor = "multi_thread")]
async fn a_word_search_book_is_its_publishers_own() {
    on_both(|db| async move {
        let order = json!({"title": "Birds", "seed": 3, "rows": 10, "cols": 10,
            "puzzles": [{"words": ["robin", "wren", "owl", "crow"]}, {"words": ["heron", "swan", "coot"]}]});
        let (server, [a, b, ops], location, seen) = owned_resource(&db, "/wordsearches/books", order).await;
        assert_eq!(seen["result"]["puzzles"].as_array().map(Vec::len), Some(2), "{seen}");
        only_owner_and_admin_see(&server, &location, &["", "/book.pdf", "/cover.pdf"], &a, &ops, &b).await;
        let (_, _, listed) = call(&server, Method::GET, "/wordsearches/books", Some(&b), None, None).await;
        assert_eq!(listed["books"], json!([]), "another publisher lists none: {listed}");
        for token in [Some(b.as_str()), None] {
            let (status, ..) = call(&server, Method::DELETE, &location, token, None, None).await;
            assert_eq!(status, 404, "DELETE as {token:?}");
        }
        let (status, ..) = call(&server, Method::DELETE, &location, Some(&a), None, None).await;
        assert_eq!(status, 204);
        let (status, ..) = call(&server, Method::GET, &format!("{location}/book.pdf"), Some(&a), None, None).await;
        assert_eq!(status, 404, "deleted");
    })
    .await;
}

/// A server with two publishers' keys and an admin's, and a job-backed resource the first
/// publisher queued at `path` with `body`, run to success: the server, the keys (owner,
/// other publisher, admin), the resource's location and its view.
async fn owned_resource(db: &TestDb, path: &str, body: Value) -> (Server, [String; 3], String, Value) {
    let owner = create_key(db, "owner", "publisher");
    let other = create_key(db, "other", "publisher");
    let admin = create_key(db, "ops", "admin");
    let server = Server::start(&db.url, &["--workers", "2"]);
    let (status, headers, queued) = call(&server, Method::POST, path, Some(&owner), Some(body), None).await;
    assert_eq!(status, 202, "{queued}");
    let location = headers["location"].to_str().unwrap().to_string();
    let seen = succeeded(&server, &location, &owner).await;
    (server, [owner, other, admin], location, seen)
}

/// Polls a job-backed resource as `token` until it has succeeded; returns its view.
async fn succeeded(server: &Server, location: &str, token: &str) -> Value {
    let start = Instant::now();
    loop {
        let (_, _, seen) = call(server, Method::GET, location, Some(token), None, None).await;
        if seen["state"] == "succeeded" {
            return seen;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{location} never succeeded: {seen}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The resource at `location` and its `files` answer 200 to its owner and an admin, and
/// 404 to another publisher and to a caller without a key.
async fn only_owner_and_admin_see(
    server: &Server,
    location: &str,
    files: &[&str],
    owner: &str,
    admin: &str,
    other: &str,
) {
    for token in [Some(owner), Some(admin), Some(other), None] {
        let want = if token == Some(owner) || token == Some(admin) { 200 } else { 404 };
        for file in files {
            let response = common::client().get(server.url(&format!("{location}{file}")));
            let response = match token {
                Some(t) => response.bearer_auth(t),
                None => response,
            };
            assert_eq!(response.send().await.unwrap().status(), want, "GET {location}{file} as {token:?}");
        }
    }
}

/// The status of an anonymous GET of `path` once it is `want`, polled for up to 5 s (a
/// change made by `puzzlepress keys` takes effect within about a second); else the last.
async fn anonymous_status_becomes(server: &Server, path: &str, want: StatusCode) -> StatusCode {
    let start = Instant::now();
    loop {
        let (status, ..) = call(server, Method::GET, path, None, None, None).await;
        if status == want || start.elapsed() > Duration::from_secs(5) {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn revoking_the_last_key_keeps_the_service_closed_until_an_operator_opens_it() {
    on_both(|db| async move {
        let a = create_key(&db, "a", "publisher");
        create_key(&db, "ops", "admin");
        let server = Server::start(&db.url, &["--workers", "1"]);
        let order = json!({"pages": 2, "rows": 6, "cols": 6});
        let (status, _, ordered) = call(&server, Method::POST, "/books", Some(&a), Some(order), None).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{ordered}");
        let serial = ordered["serial"].as_str().unwrap().to_string();
        printed(&server, &serial, &a).await;
        let pdf = format!("/books/{serial}/book.pdf");
        assert_eq!(anonymous_status_becomes(&server, &pdf, StatusCode::UNAUTHORIZED).await, StatusCode::UNAUTHORIZED);

        // Reopening is refused while a key is active.
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(["keys", "open", "--database-url", &db.url])
            .output()
            .unwrap();
        assert!(!out.status.success(), "keys open with active keys");
        assert!(String::from_utf8_lossy(&out.stderr).contains("revoke every key"), "{out:?}");

        // Every key revoked: still closed (the old binary turned 404 into 200 here).
        keys(&db, &["revoke", "a"]);
        keys(&db, &["revoke", "ops"]);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        for path in [pdf.as_str(), "/metrics"] {
            let (status, ..) = call(&server, Method::GET, path, None, None, None).await;
            assert!(matches!(status, StatusCode::NOT_FOUND | StatusCode::UNAUTHORIZED), "anonymous {path}: {status}");
        }
        let (status, ..) = call(&server, Method::POST, "/printruns", None, Some(json!({"copies": 1})), None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        // An operator opens it explicitly; a new key closes it again.
        assert_eq!(keys(&db, &["open"]).trim(), "open");
        assert_eq!(anonymous_status_becomes(&server, &pdf, StatusCode::OK).await, StatusCode::OK);
        assert_eq!(anonymous_status_becomes(&server, "/metrics", StatusCode::OK).await, StatusCode::OK);
        create_key(&db, "b", "publisher");
        assert_eq!(anonymous_status_becomes(&server, &pdf, StatusCode::UNAUTHORIZED).await, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_keys_name_can_be_given_again_and_a_taken_one_is_refused_plainly() {
    on_both(|db| async move {
        let old = create_key(&db, "press", "publisher");

        // A second active key of that name: the reason, and no database error logged first.
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(["keys", "create", "--name", "press", "--database-url", &db.url])
            // The default filter: what an operator sees.
            .env("RUST_LOG", "info,sqlx=warn")
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(!out.status.success() && stderr.contains("an active key named \"press\" exists already"), "{out:?}");
        for said in [&stdout, &stderr] {
            assert!(!said.contains("ERROR") && !said.to_lowercase().contains("unique"), "{out:?}");
        }

        // Revoked, its name is free; revoking by name then acts on the active key only.
        keys(&db, &["revoke", "press"]);
        let new = create_key(&db, "press", "admin");
        let listed = keys(&db, &["list"]);
        let rows: Vec<&str> = listed.lines().filter(|l| l.starts_with("press ")).collect();
        assert_eq!(rows.len(), 2, "{listed}");
        assert!(rows[0].contains("publisher") && !rows[0].ends_with(" -"), "the old one revoked: {listed}");
        assert!(rows[1].contains("admin") && rows[1].ends_with(" -"), "the new one active: {listed}");
        let server = Server::start(&db.url, &["--workers", "0"]);
        let (status, ..) = call(&server, Method::GET, "/books", Some(&old), None, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "the revoked token");
        let (status, _, body) = call(&server, Method::GET, "/books", Some(&new), None, None).await;
        assert_eq!(status, StatusCode::OK, "the new token: {body}");

        keys(&db, &["revoke", "press"]);
        let listed = keys(&db, &["list"]);
        assert!(listed.lines().filter(|l| l.starts_with("press ")).all(|l| !l.ends_with(" -")), "{listed}");
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(["keys", "revoke", "press", "--database-url", &db.url])
            .output()
            .unwrap();
        assert!(!out.status.success(), "no active key left to revoke: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("there is no active key named"), "{out:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_bind_serves_metrics_without_a_key_and_nothing_else() {
    let db = TestDb::sqlite();
    let admin = create_key(&db, "ops", "admin");
    let publisher = create_key(&db, "press", "publisher");
    let server = Server::start(&db.url, &["--workers", "0", "--metrics-bind", "127.0.0.1:0"]);
    let scrape = server.metrics.clone().expect("the metrics address is printed");

    // The main address still wants an admin key.
    for token in [None, Some(publisher.as_str())] {
        let (status, ..) = call(&server, Method::GET, "/metrics", token, None, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}");
    }
    let (status, ..) = call(&server, Method::GET, "/metrics", Some(&admin), None, None).await;
    assert_eq!(status, StatusCode::OK);

    // The metrics address answers a scraper without one, and serves nothing else.
    let response = common::client().get(&scrape).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    assert!(text.contains("puzzlepress_http_requests_total"), "{text}");
    let base = scrape.trim_end_matches("/metrics");
    for path in ["/books", "/healthz", "/openapi.yaml"] {
        let response = common::client().get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_caller_over_its_quota_waits_with_429() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--jobs-per-address", "2"]);
    for n in 1..=2 {
        let (status, ..) =
            call(&server, Method::POST, "/foxhole/strategies", None, Some(json!({"holes": n})), None).await;
        assert_eq!(status, 202);
    }
    let (status, headers, problem) =
        call(&server, Method::POST, "/foxhole/strategies", None, Some(json!({"holes": 3})), None).await;
    assert_eq!(status, 429, "{problem}");
    assert!(headers.contains_key("retry-after"));
    assert!(problem["detail"].as_str().unwrap().contains("2 jobs queued or running"), "{problem}");
}

#[test]
fn without_keys_a_server_reachable_from_other_machines_refuses_to_start_unless_open() {
    let db = TestDb::sqlite();
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["serve", "--bind", "0.0.0.0:0", "--database-url", &db.url, "--workers", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no API key exists") && stderr.contains("--open"), "{stderr}");
    // With --open it serves.
    let mut open = Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["serve", "--bind", "0.0.0.0:0", "--database-url", &db.url, "--workers", "0", "--open"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = open.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut listening = None;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) if line.starts_with("puzzlepress listening on ") => {
                listening = Some(line);
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let _ = open.kill();
    let _ = open.wait();
    let line = listening.expect("an open server starts listening");
    assert!(line.starts_with("puzzlepress listening on http://0.0.0.0:"), "{line}");
}

/// Uploads `text` as a word list as `token`; returns status and body.
async fn upload(server: &Server, token: &str, name: &str, text: String) -> (StatusCode, Value) {
    let response = common::client()
        .post(server.url(&format!("/wordlists?name={name}")))
        .bearer_auth(token)
        .header("content-type", "text/plain")
        .body(text)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn word_lists_are_their_uploaders_own_and_capped_per_caller() {
    on_both(|db| async move {
        let (a, b) = (create_key(&db, "a", "publisher"), create_key(&db, "b", "publisher"));
        let server = Server::start(&db.url, &["--workers", "1"]);
        let text = "HOUSE;70\nHEART;60\nOASIS\nUNCLE;40\n".to_string();
        let (status, list) = upload(&server, &a, "a-list", text.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{list}");
        let id = list["id"].as_str().unwrap().to_string();
        let path = format!("/wordlists/{id}");
        // B can neither read A's list nor fill from it: it does not exist for B.
        let (status, _, _) = call(&server, Method::GET, &path, Some(&b), None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let fill = json!({"pattern": ["HOUSE", "E####", "A####", "R####", "T####"], "wordlist": id});
        let (status, _, problem) =
            call(&server, Method::POST, "/crosswords/fills", Some(&b), Some(fill.clone()), None).await;
        assert_eq!(
            (status, problem["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("wordlist")),
            "{problem}"
        );
        let (_, _, listed) = call(&server, Method::GET, "/wordlists", Some(&b), None, None).await;
        assert_eq!(listed["wordlists"], json!([]), "B lists nothing");
        // The same text uploaded by B is B's own row (same id, B's name); A deleting theirs
        // leaves B's.
        let (status, theirs) = upload(&server, &b, "b-list", text.clone()).await;
        assert_eq!(
            (status, theirs["id"].as_str(), theirs["name"].as_str()),
            (StatusCode::CREATED, Some(&*id), Some("b-list"))
        );
        let (status, _, _) = call(&server, Method::DELETE, &path, Some(&a), None, None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (status, _, _) = call(&server, Method::GET, &path, Some(&a), None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "gone for A");
        let (status, _, kept) = call(&server, Method::GET, &path, Some(&b), None, None).await;
        assert_eq!((status, kept["name"].as_str()), (StatusCode::OK, Some("b-list")), "kept for B");
        let (status, _, job) = call(&server, Method::POST, "/crosswords/fills", Some(&b), Some(fill), None).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{job}");
        // A caller keeps at most 20 lists: the 21st is refused with 429, other callers unaffected.
        for n in 0..19 {
            let (status, body) = upload(&server, &b, &format!("b{n}"), format!("WORD{};50\n", "X".repeat(n + 1))).await;
            assert_eq!(status, StatusCode::CREATED, "list {n}: {body}");
        }
        let (status, problem) = upload(&server, &b, "one-too-many", "EXTRA;50\n".into()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{problem}");
        assert!(problem["detail"].as_str().unwrap().contains("20 word lists"), "{problem}");
        let (status, _) = upload(&server, &a, "a-again", "EXTRA;50\n".into()).await;
        assert_eq!(status, StatusCode::CREATED, "A is not held to B's count");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn print_runs_are_their_publishers_own() {
    on_both(|db| async move {
        let (a, b) = (create_key(&db, "a", "publisher"), create_key(&db, "b", "publisher"));
        let ops = create_key(&db, "ops", "admin");
        let server = Server::start(&db.url, &["--workers", "1"]);
        let order = json!({"copies": 2, "pages": 2, "rows": 6, "cols": 6});
        let (status, headers, run) = call(&server, Method::POST, "/printruns", None, Some(order.clone()), None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{run}");
        assert!(headers.contains_key("www-authenticate"));
        let (status, headers, run) = call(&server, Method::POST, "/printruns", Some(&a), Some(order), None).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{run}");
        let path = headers["location"].to_str().unwrap().to_string();
        for suffix in ["", "/manifest.csv", "/manifest.json", "/archive.zip"] {
            let (status, _, _) = call(&server, Method::GET, &format!("{path}{suffix}"), Some(&b), None, None).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "B asks for {path}{suffix}");
            let (status, _, _) = call(&server, Method::GET, &format!("{path}{suffix}"), None, None, None).await;
            assert!(matches!(status, StatusCode::NOT_FOUND | StatusCode::UNAUTHORIZED), "anonymous {suffix}: {status}");
        }
        for token in [&a, &ops] {
            let (status, _, seen) = call(&server, Method::GET, &path, Some(token), None, None).await;
            assert_eq!((status, seen["copies"].as_i64()), (StatusCode::OK, Some(2)), "{seen}");
        }
    })
    .await;
}
