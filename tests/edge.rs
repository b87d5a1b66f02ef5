//! The edge under abuse, against the real binary: oversized and slow requests, slow
//! connections crowding the probes, security headers, cross-site requests, the anonymous
//! rate limit, per-tier budgets, and PostgreSQL connections killed under load.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{on_both, Server, TestDb};
use serde_json::{json, Value};

/// Sends `head` (and nothing more) on a fresh connection; returns what the server
/// answers before closing or `wait` passing.
fn raw(server: &Server, head: &str, wait: Duration) -> String {
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                // One response is enough once its body has arrived.
                let text = String::from_utf8_lossy(&answer);
                if text.contains("\r\n\r\n") && text.trim_end().ends_with('}') {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

fn problem_of(answer: &str) -> Value {
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    serde_json::from_str(body).unwrap_or(Value::Null)
}

#[test]
fn a_declared_oversize_body_is_refused_at_once_and_a_stalled_body_times_out() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--body-timeout-secs", "1"]);
    // Only the head is sent: a server that waited for the body would time out (408).
    let answer = raw(
        &server,
        "POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n",
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert_eq!(problem_of(&answer)["status"], 413);

    let answer = raw(
        &server,
        "POST /graycodes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(problem_of(&answer)["detail"].as_str().unwrap().contains("stopped arriving"), "{answer}");
}

#[test]
fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--header-timeout-secs", "1"]);
    let started = Instant::now();
    // The read waits up to 30 s; the server closes the connection long before.
    let answer = raw(&server, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n", Duration::from_secs(30));
    assert!(!answer.contains("200 OK"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(25), "the connection was held open");
}

#[tokio::test(flavor = "multi_thread")]
async fn probes_answer_while_500_slow_connections_hold_requests() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--max-concurrent-requests", "500"]);
    let head =
        "POST /graycodes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{";
    let slow: Vec<TcpStream> = (0..500)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr()).unwrap();
            s.write_all(head.as_bytes()).unwrap();
            s
        })
        .collect();
    // Every request slot is taken by a body that is not coming; the probes are outside.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(3)).build().unwrap();
    for probe in ["/healthz", "/readyz"] {
        let response = client.get(server.url(probe)).send().await.unwrap_or_else(|e| panic!("{probe}: {e}"));
        assert_eq!(response.status(), 200, "{probe}");
    }
    drop(slow);
}

#[tokio::test(flavor = "multi_thread")]
async fn responses_carry_security_headers_and_pages_a_strict_policy() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0"]);
    for path in ["/", "/order", "/healthz", "/books/NCB5919RTQP", "/no/such/route"] {
        let response = common::client().get(server.url(path)).send().await.unwrap();
        let h = response.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        if h["content-type"].to_str().unwrap().starts_with("text/html") {
            assert!(csp.contains("script-src 'self'") && csp.contains("style-src 'self'"), "{path}: {csp}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn other_sites_cannot_make_a_browser_change_anything() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0"]);
    let host = server.addr();
    let post = |headers: Vec<(&'static str, String)>| {
        let mut request = common::client().post(server.url("/books"));
        for (name, value) in headers {
            request = request.header(name, value);
        }
        async move { request.send().await.unwrap() }
    };
    // A "simple" request (no body) from another site's page, by either signal.
    for headers in [
        vec![("sec-fetch-site", "cross-site".to_string())],
        vec![("sec-fetch-site", "same-site".to_string())],
        vec![("origin", "https://evil.example".to_string())],
        vec![("origin", "null".to_string())],
    ] {
        let response = post(headers.clone()).await;
        assert_eq!(response.status(), 403, "{headers:?}");
        let problem: Value = response.json().await.unwrap();
        assert!(problem["detail"].as_str().unwrap().contains("another web site"), "{problem}");
    }
    // This site's own pages, and clients that are not browsers, may.
    for headers in
        [vec![("sec-fetch-site", "same-origin".to_string())], vec![("origin", format!("http://{host}"))], vec![]]
    {
        assert_eq!(post(headers.clone()).await.status(), 202, "{headers:?}");
    }
    // Reading is not changing.
    let response = common::client().get(server.url("/healthz")).header("sec-fetch-site", "cross-site").send().await;
    assert_eq!(response.unwrap().status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn oversized_urls_and_headers_get_problem_details() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0"]);
    let long = "a".repeat(9000);
    let response = common::client().get(server.url(&format!("/books/{long}"))).send().await.unwrap();
    assert_eq!(response.status(), 414);
    assert_eq!(response.headers()["content-type"], "application/problem+json");
    let response =
        common::client().get(server.url("/healthz")).header("x-padding", "b".repeat(20_000)).send().await.unwrap();
    assert_eq!(response.status(), 431);
    let problem: Value = response.json().await.unwrap();
    assert!(problem["detail"].as_str().unwrap().contains("headers"), "{problem}");
}

#[tokio::test(flavor = "multi_thread")]
async fn anonymous_callers_are_rate_limited_and_key_holders_are_not() {
    let db = TestDb::sqlite();
    let token = create_key(&db, "p");
    let server =
        Server::start_with_env(&db.url, &["--workers", "0"], &[("PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE", "20")]);
    // A burst of a quarter of the minute's budget, then 429 — serials cannot be scanned.
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let response = common::client().get(server.url("/books/NCB5919RTQP/answer")).send().await.unwrap();
        statuses.push(response.status().as_u16());
        if response.status() == 429 {
            assert!(response.headers().contains_key("retry-after"));
            assert_eq!(response.headers()["content-type"], "application/problem+json");
        }
    }
    assert_eq!(statuses.iter().filter(|s| **s == 404).count(), 5, "{statuses:?}");
    assert!(statuses[5..].iter().all(|s| *s == 429), "{statuses:?}");
    for _ in 0..12 {
        let response =
            common::client().get(server.url("/books/NCB5919RTQP/answer")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 404);
    }
    // The probes are never limited.
    assert_eq!(common::client().get(server.url("/healthz")).send().await.unwrap().status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn budgets_above_the_callers_maximum_are_refused_naming_field_and_maximum() {
    let db = TestDb::sqlite();
    let token = create_key(&db, "p");
    let limits = std::env::temp_dir().join(format!("limits-{}.json", uuid::Uuid::new_v4().simple()));
    std::fs::write(&limits, r#"{"publisher": {"graycode": {"max_node_budget": 5000}}}"#).unwrap();
    let server = Server::start(&db.url, &["--workers", "0", "--limits", limits.to_str().unwrap()]);
    let post = |body: Value, token: Option<String>| {
        let mut request = common::client().post(server.url("/graycodes")).json(&body);
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }
    };
    let gray = |budget: u64| json!({"bits": 4, "length": 16, "node_budget": budget});
    // The configured publisher maximum.
    assert_eq!(post(gray(5000), Some(token.clone())).await.0, 202);
    let (status, problem) = post(gray(5001), Some(token.clone())).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("node_budget")), "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("5000"), "{problem}");
    // Anonymous callers get the small default maxima (here: the default budget).
    let (status, problem) = post(gray(1_000_000_001), None).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("node_budget")), "{problem}");
    let word_squares = json!({"size": 5, "max_nodes": 500_000_001u64});
    let response = common::client().post(server.url("/wordsquares")).json(&word_squares).send().await.unwrap();
    assert_eq!(response.status(), 422);
    let response =
        common::client().post(server.url("/wordsquares")).bearer_auth(&token).json(&word_squares).send().await.unwrap();
    assert_eq!(response.status(), 202);
    // The 70-byte request that once held a worker forever.
    let huge = json!({"size": 7, "max_nodes": u64::MAX});
    let response =
        common::client().post(server.url("/wordsquares")).bearer_auth(&token).json(&huge).send().await.unwrap();
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["field"], "max_nodes", "{problem}");
    let _ = std::fs::remove_file(limits);
}

#[tokio::test(flavor = "multi_thread")]
async fn postgres_connections_killed_under_load_give_503_and_nothing_is_lost() {
    let db = TestDb::postgres();
    let server = Server::start(&db.url, &["--workers", "2", "--jobs-per-address", "100000"]);
    let name = db.pg_database().unwrap().to_string();
    let admin = common::pg_server_url();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let killer = {
        let (stop, admin) = (stop.clone(), admin.clone());
        std::thread::spawn(move || {
            let sql = format!(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            );
            let mut rounds = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                common::psql(&admin, &sql);
                rounds += 1;
                std::thread::sleep(Duration::from_millis(150));
            }
            rounds
        })
    };
    let mut accepted = Vec::new();
    let mut refused = 0;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(6) {
        let response = common::client()
            .post(server.url("/foxhole/strategies"))
            .json(&json!({"holes": 3 + accepted.len() % 5}))
            .send()
            .await
            .unwrap();
        match response.status().as_u16() {
            202 => accepted.push(response.headers()["location"].to_str().unwrap().to_string()),
            503 => {
                assert!(response.headers().contains_key("retry-after"));
                refused += 1;
            }
            other => panic!("{other}: {}", response.text().await.unwrap()),
        }
        // Readers too: never a 500.
        let status = common::client().get(server.url("/readyz")).send().await.unwrap().status().as_u16();
        assert!(status == 200 || status == 503, "/readyz {status}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let rounds = killer.join().unwrap();
    assert!(rounds > 10 && !accepted.is_empty(), "{rounds} rounds, {} accepted", accepted.len());
    // The pool recovers by itself, and every accepted job is done.
    for location in &accepted {
        let job = common::wait_job(&server, location, Duration::from_secs(60)).await;
        assert_eq!(job["state"], "succeeded", "{job}");
    }
    let response = common::client().get(server.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 200);

    // While the database refuses connections, /readyz says so without the driver's text;
    // once it accepts them again, the pool reconnects by itself.
    let name = db.pg_database().unwrap();
    common::psql(&admin, &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"));
    common::psql(&admin, &format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"));
    let response = common::client().get(server.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    assert!(response.headers().contains_key("retry-after"));
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["detail"], "database unreachable", "{problem}");
    common::psql(&admin, &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"));
    let start = Instant::now();
    while common::client().get(server.url("/readyz")).send().await.unwrap().status() != 200 {
        assert!(start.elapsed() < Duration::from_secs(30), "the pool did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("{} accepted, {refused} refused with 503 over {rounds} rounds of terminations", accepted.len());
}

#[tokio::test(flavor = "multi_thread")]
async fn publishers_list_their_own_books_newest_first_by_cursor() {
    on_both(|db| async move {
        let key = |name: &str, role: &str| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
                .args(["keys", "create", "--name", name, "--role", role, "--database-url", &db.url])
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        let (a, b, ops) = (key("a", "publisher"), key("b", "publisher"), key("ops", "admin"));
        let server = Server::start(&db.url, &["--workers", "0"]);
        let order = |token: String| {
            let request = common::client().post(server.url("/books")).bearer_auth(token).json(&json!({"pages": 2}));
            async move { request.send().await.unwrap().json::<Value>().await.unwrap()["serial"].clone() }
        };
        let mut mine = Vec::new();
        for _ in 0..5 {
            mine.push(order(a.clone()).await);
        }
        let theirs = order(b.clone()).await;
        let list = |token: &str, query: &str| {
            let request = common::client().get(server.url(&format!("/books{query}"))).bearer_auth(token);
            async move {
                let response = request.send().await.unwrap();
                (response.status().as_u16(), response.json::<Value>().await.unwrap())
            }
        };
        let (status, first) = list(&a, "?limit=2").await;
        assert_eq!(status, 200, "{first}");
        let serials = |page: &Value| page["books"].as_array().unwrap().iter().map(|b| b["serial"].clone()).collect();
        let mut seen: Vec<Value> = serials(&first);
        let mut next = first["next"].as_str().map(str::to_string);
        while let Some(path) = next {
            let (_, page) = list(&a, path.trim_start_matches("/books")).await;
            seen.extend(serials(&page));
            next = page["next"].as_str().map(str::to_string);
        }
        mine.reverse();
        assert_eq!(seen, mine, "A's books, newest first, each once");
        let (_, b_list) = list(&b, "").await;
        assert_eq!(serials(&b_list), vec![theirs.clone()]);
        let (_, all) = list(&ops, "?limit=100").await;
        assert_eq!(all["books"].as_array().unwrap().len(), 6);
        assert_eq!(all["next"], Value::Null);
        // Without a key there is nothing to list; a bad cursor is named.
        let response = common::client().get(server.url("/books")).send().await.unwrap();
        assert_eq!(response.status(), 401);
        let (status, problem) = list(&a, "?cursor=xyz").await;
        assert_eq!((status, problem["field"].as_str()), (422, Some("cursor")), "{problem}");
    })
    .await;
}

/// Whether the server closes `stream` within `wait` (a read sees the end, or a reset).
fn closed_within(mut stream: &TcpStream, wait: Duration) -> bool {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) => {
                return !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut);
            }
        }
    }
}

#[test]
fn connections_without_a_request_are_closed_from_accept_and_when_idle() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--header-timeout-secs", "1", "--idle-timeout-secs", "1"]);
    // Not a byte sent: closed a header timeout after accept.
    let started = Instant::now();
    let silent = TcpStream::connect(server.addr()).unwrap();
    assert!(closed_within(&silent, Duration::from_secs(10)), "a silent connection was held open");
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    // A kept-alive connection whose client says nothing more: closed an idle timeout later.
    let mut kept = TcpStream::connect(server.addr()).unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = [0u8; 4096];
    let n = kept.read(&mut buf).unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let idle = Instant::now();
    assert!(closed_within(&kept, Duration::from_secs(10)), "an idle keep-alive connection was held open");
    assert!(idle.elapsed() < Duration::from_secs(4), "{:?}", idle.elapsed());
}

#[tokio::test(flavor = "multi_thread")]
async fn at_the_open_file_limit_silent_connections_make_room_and_the_probes_get_through() {
    let db = TestDb::sqlite();
    // 256 files: the bound is 128 connections; 400 silent ones would exhaust the files.
    let server = Server::start_with_file_limit(&db.url, &["--workers", "0"], 256);
    let silent: Vec<TcpStream> = (0..400).map(|_| TcpStream::connect(server.addr()).unwrap()).collect();
    let client = reqwest::Client::builder().timeout(Duration::from_secs(3)).build().unwrap();
    for probe in ["/healthz", "/readyz"] {
        let started = Instant::now();
        let response = client.get(server.url(probe)).send().await.unwrap_or_else(|e| panic!("{probe}: {e}"));
        assert_eq!(response.status(), 200, "{probe}");
        eprintln!("{probe} answered in {:?} with 400 silent connections", started.elapsed());
    }
    // The oldest silent connections were closed to make room: at most the bound stay open.
    let closed = silent.iter().filter(|s| closed_within(s, Duration::from_millis(20))).count();
    assert!(closed >= 400 - 128, "only {closed} of 400 silent connections were closed");
}

#[test]
fn a_body_trickling_below_the_minimum_rate_gets_408() {
    let db = TestDb::sqlite();
    let server =
        Server::start(&db.url, &["--workers", "0", "--body-timeout-secs", "1", "--min-body-bytes-per-sec", "100"]);
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .write_all(
            b"POST /wordlists HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n",
        )
        .unwrap();
    // A byte every 250 ms: no pause is anywhere near --body-timeout-secs.
    let mut writer = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        for _ in 0..80 {
            if writer.write_all(b"a").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    });
    let started = Instant::now();
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut buf) {
        answer.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&answer).trim_end().ends_with('}') {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(problem_of(&answer)["detail"].as_str().unwrap().contains("minimum rate"), "{answer}");
    // 1 s of grace and 100 bytes a second: the few bytes sent buy a few ms more.
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
}

/// Sends a request head and the first byte of its body, and nothing more: the request
/// holds its slots until its body times out.
fn hold(server: &Server, path: &str, content_type: &str) -> TcpStream {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\nContent-Length: 100000\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).unwrap();
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn one_caller_holds_only_its_share_of_the_request_slots_and_readyz_sees_them_all_taken() {
    let db = TestDb::sqlite();
    let server = Server::start(
        &db.url,
        &[
            "--workers",
            "0",
            "--max-concurrent-requests",
            "6",
            "--max-requests-per-address",
            "4",
            "--max-uploads-per-caller",
            "2",
            "--body-timeout-secs",
            "30",
        ],
    );
    let settle = || tokio::time::sleep(Duration::from_millis(300));
    // Two uploads held by 127.0.0.1; a third is refused at once.
    let mut held = vec![hold(&server, "/wordlists", "text/plain"), hold(&server, "/wordlists", "text/plain")];
    settle().await;
    let response = common::client().post(server.url("/wordlists")).header("content-type", "text/plain").body("fox\n");
    let response = response.send().await.unwrap();
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let problem: Value = response.json().await.unwrap();
    assert!(problem["detail"].as_str().unwrap().contains("uploads in progress"), "{problem}");
    // Two more requests of any kind; the fifth is refused at once.
    held.push(hold(&server, "/graycodes", "application/json"));
    held.push(hold(&server, "/graycodes", "application/json"));
    settle().await;
    let started = Instant::now();
    let response = common::client().get(server.url("/books/NCB5919RTQP/answer")).send().await.unwrap();
    assert_eq!(response.status(), 429);
    assert!(started.elapsed() < Duration::from_secs(1));
    let problem: Value = response.json().await.unwrap();
    assert!(problem["detail"].as_str().unwrap().contains("requests in progress"), "{problem}");
    // Another caller is served meanwhile, and the service is ready.
    let other = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().ok())
        .timeout(Duration::from_secs(3))
        .build()
        .unwrap();
    let response = other.get(server.url("/books/NCB5919RTQP/answer")).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(common::client().get(server.url("/readyz")).send().await.unwrap().status(), 200);
    // The other caller takes the last two slots: /readyz reports that none is free.
    for _ in 0..2 {
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        let mut s = s.connect(server.addr().parse().unwrap()).await.unwrap().into_std().unwrap();
        s.set_nonblocking(false).unwrap();
        s.write_all(
            b"POST /graycodes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
        )
        .unwrap();
        held.push(s);
    }
    settle().await;
    let response = common::client().get(server.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let problem: Value = response.json().await.unwrap();
    assert!(problem["detail"].as_str().unwrap().contains("request slot"), "{problem}");
    assert_eq!(common::client().get(server.url("/healthz")).send().await.unwrap().status(), 200);
    // Slots come back when their requests end.
    drop(held);
    let started = Instant::now();
    while common::client().get(server.url("/readyz")).send().await.unwrap().status() != 200 {
        assert!(started.elapsed() < Duration::from_secs(5), "the slots did not come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_malformed_or_unknown_token_counts_as_anonymous_for_the_rate_limit() {
    let db = TestDb::sqlite();
    let token = create_key(&db, "p");
    let server =
        Server::start_with_env(&db.url, &["--workers", "0"], &[("PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE", "20")]);
    let unknown = format!("Bearer pp_{}", "0".repeat(64));
    // A key's shape, but no key's token.
    let near = format!("Bearer {}", token.replace('a', "b"));
    let headers = ["x", "Bearer", "Bearer nonsense", unknown.as_str(), near.as_str(), "Basic dXNlcjpwYXNz"];
    // Answer look-ups need no key: every one of these shares the address's budget.
    let mut statuses = Vec::new();
    for value in headers.iter().cycle().take(12) {
        let response = common::client()
            .get(server.url("/books/NCB5919RTQP/answer"))
            .header("authorization", *value)
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses.iter().filter(|s| **s == 404).count(), 5, "{statuses:?}");
    assert!(statuses[5..].iter().all(|s| *s == 429), "{statuses:?}");
    // A route that does need a key: the same budget, already spent.
    let response = common::client().get(server.url("/books")).header("authorization", "x").send().await.unwrap();
    assert_eq!(response.status(), 429);
    // The valid key is not limited.
    for _ in 0..12 {
        let response =
            common::client().get(server.url("/books/NCB5919RTQP/answer")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 404);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn unfit_request_ids_are_replaced_and_unknown_hosts_refused() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--allowed-hosts", "books.example"]);
    let id_of = |id: String| {
        let request = common::client().get(server.url("/healthz")).header("x-request-id", id);
        async move { request.send().await.unwrap().headers()["x-request-id"].to_str().unwrap().to_string() }
    };
    assert_eq!(id_of("order-4711".into()).await, "order-4711");
    let uuid = |id: &str| id.len() == 36 && id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    for unfit in ["a".repeat(201), "two words".into(), "tab\there".into()] {
        let id = id_of(unfit.clone()).await;
        assert!(uuid(&id), "{unfit:?} became {id:?}");
    }
    // DNS rebinding: a name that is not this server's is refused; addresses, localhost and
    // the configured names are served.
    let port = server.addr().rsplit_once(':').unwrap().1.to_string();
    for (host, status) in [
        ("evil.example".to_string(), 421),
        (format!("evil.example:{port}"), 421),
        (format!("localhost:{port}"), 200),
        (format!("127.0.0.1:{port}"), 200),
        (format!("books.example:{port}"), 200),
        ("BOOKS.EXAMPLE.".to_string(), 200),
    ] {
        let response = raw(&server, &format!("GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n"), Duration::from_secs(5));
        assert!(response.starts_with(&format!("HTTP/1.1 {status}")), "{host}: {response}");
        if status == 421 {
            assert!(problem_of(&response)["detail"].as_str().unwrap().contains("--allowed-hosts"), "{response}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_crowd_without_keys_fills_only_its_share_of_the_queue_and_quotas_hold_under_concurrency() {
    on_both(|db| async move {
        let token = create_key(&db, "p");
        let server = Server::start(
            &db.url,
            &["--workers", "0", "--queue-limit", "40", "--jobs-per-address", "3", "--jobs-per-key", "6"],
        );
        // Fourteen addresses without a key queue three Gray-code jobs each: 42 against a
        // queue of 40, of which half (20) is theirs.
        let mut statuses = Vec::new();
        for a in 0..14 {
            let client = reqwest::Client::builder()
                .local_address(format!("127.0.1.{}", 10 + a).parse::<std::net::IpAddr>().ok())
                .build()
                .unwrap();
            for _ in 0..3 {
                let body = json!({"bits": 3, "length": 8, "start_at_zero": true, "limit": 10});
                let response = client.post(server.url("/graycodes")).json(&body).send().await.unwrap();
                statuses.push(response.status().as_u16());
                if response.status() == 503 {
                    let problem: Value = response.json().await.unwrap();
                    assert!(problem["detail"].as_str().unwrap().contains("without an API key"), "{problem}");
                }
            }
        }
        assert_eq!(statuses.iter().filter(|s| **s == 202).count(), 20, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == 503).count(), 22, "{statuses:?}");
        // A key holder's twenty orders at once against a quota of six: six books, no more.
        let mut orders = tokio::task::JoinSet::new();
        for _ in 0..20 {
            let (url, token) = (server.url("/books"), token.clone());
            orders.spawn(async move {
                let response = common::client().post(url).bearer_auth(token).json(&json!({})).send().await.unwrap();
                response.status().as_u16()
            });
        }
        let mut statuses = Vec::new();
        while let Some(status) = orders.join_next().await {
            statuses.push(status.unwrap());
        }
        statuses.sort();
        assert_eq!(statuses, [[202; 6].as_slice(), &[429; 14]].concat(), "{statuses:?}");
    })
    .await;
}

/// A new API key's token (the service is closed from then on).
fn create_key(db: &TestDb, name: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
        .args(["keys", "create", "--name", name, "--database-url", &db.url])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `n` distinct five-letter entries, one a line with a score.
fn distinct_words(n: usize) -> String {
    (0..n)
        .map(|i| {
            let word: String = (0..5).map(|k| (b'a' + (i / 26usize.pow(k) % 26) as u8) as char).collect();
            format!("{word};50\n")
        })
        .collect()
}

async fn upload(server: &Server, token: Option<&str>, text: String) -> (u16, Value) {
    let mut request = common::client().post(server.url("/wordlists")).header("content-type", "text/plain").body(text);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn word_list_uploads_are_held_to_the_callers_tier_and_quota_as_they_arrive() {
    on_both(|db| async move {
        let token = create_key(&db, "p");
        let limits = std::env::temp_dir().join(format!("limits-{}.json", uuid::Uuid::new_v4().simple()));
        std::fs::write(&limits, r#"{"publisher": {"crossword": {"wordlist_bytes_per_caller": 300000}}}"#).unwrap();
        // Ten uploads at once from one caller: more than its upload slots allow by default.
        let args = ["--workers", "0", "--max-uploads-per-caller", "10", "--limits", limits.to_str().unwrap()];
        let server = Server::start(&db.url, &args);
        let _ = std::fs::remove_file(limits);

        // Without a key: 1 MiB. A declared 64 MiB is refused before any of it is read.
        let head = "POST /wordlists HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 67108864\r\n\r\n";
        let answer = raw(&server, head, Duration::from_secs(5));
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(problem_of(&answer)["detail"].as_str().unwrap().contains("1 MiB"), "{answer}");
        // Streamed without a length, it is refused once 1 MiB has arrived, not read to its end.
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
        stream
            .write_all(b"POST /wordlists HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
            .unwrap();
        let chunk = "abcdefg;50\n".repeat(6000);
        let mut sent = 0;
        for _ in 0..1000 {
            if stream.write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes()).is_err() {
                break;
            }
            sent += chunk.len();
            if sent > 2 << 20 {
                break;
            }
        }
        let mut answer = vec![0; 4096];
        let n = stream.read(&mut answer).unwrap_or(0);
        let answer = String::from_utf8_lossy(&answer[..n]).into_owned();
        assert!(answer.starts_with("HTTP/1.1 413"), "after {sent} bytes: {answer}");
        // 20,000 distinct entries without a key; the 20,001st is refused naming the limit.
        let (status, list) = upload(&server, None, distinct_words(20_000)).await;
        assert_eq!((status, list["entries"].as_i64()), (201, Some(20_000)), "{list}");
        let (status, problem) = upload(&server, None, distinct_words(20_001)).await;
        assert_eq!((status, problem["field"].as_str()), (422, Some("body")), "{problem}");
        assert!(problem["detail"].as_str().unwrap().contains("20000"), "{problem}");

        // Ten 100,000-byte lists at once against a quota of 300,000 bytes: three are kept.
        let uploads = (0..10).map(|n| {
            let word = format!("WORD{}", "X".repeat(n));
            let text = format!("{word}{}\n", " ".repeat(99_999 - word.len()));
            let (server, token) = (&server, token.as_str());
            async move { upload(server, Some(token), text).await }
        });
        let answers = futures_util::future::join_all(uploads).await;
        let kept = answers.iter().filter(|(status, _)| *status == 201).count();
        assert_eq!(kept, 3, "{answers:?}");
        assert!(answers.iter().all(|(status, _)| matches!(status, 201 | 413)), "{answers:?}");
        let listed = common::client().get(server.url("/wordlists")).bearer_auth(&token).send().await.unwrap();
        let listed: Value = listed.json().await.unwrap();
        let bytes: i64 = listed["wordlists"].as_array().unwrap().iter().map(|l| l["bytes"].as_i64().unwrap()).sum();
        assert_eq!(bytes, 300_000, "{listed}");
    })
    .await;
}

/// Waits for book `serial` to be printed.
async fn printed(server: &Server, serial: &str) {
    let start = Instant::now();
    loop {
        let (_, book) = common::get(server, &format!("/books/{serial}")).await;
        if book["state"] == "succeeded" {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "book {serial} not printed: {book}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The server's resident memory and its peak so far, in MiB.
fn memory_mib(server: &Server) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name)).unwrap();
        line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[tokio::test(flavor = "multi_thread")]
async fn many_downloads_of_a_big_book_are_one_render_and_memory_stays_flat() {
    let db = TestDb::sqlite();
    // Sixty requests at once from one address: more than its request slots allow by default.
    let server = Server::start(&db.url, &["--workers", "2", "--max-requests-per-address", "64"]);
    let (status, _, ordered) = common::post(&server, "/books", json!({"pages": 1000, "rows": 64, "cols": 64})).await;
    assert_eq!(status, 202, "{ordered}");
    let serial = ordered["serial"].as_str().unwrap().to_string();
    printed(&server, &serial).await;
    let (before, _) = memory_mib(&server);

    // 60 downloads at once: one render, one copy of the PDF, the same bytes for each.
    let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().unwrap();
    let downloads = (0..60).map(|_| {
        let request = client.get(server.url(&format!("/books/{serial}/book.pdf")));
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.bytes().await.unwrap())
        }
    });
    let pdfs = futures_util::future::join_all(downloads).await;
    assert!(pdfs.iter().all(|(status, pdf)| *status == 200 && pdf == &pdfs[0].1), "every download the same PDF");
    let (after, peak) = memory_mib(&server);
    eprintln!(
        "resident {before} MiB before, peak {peak} MiB, {after} MiB after; the PDF has {} bytes",
        pdfs[0].1.len()
    );
    assert!(peak < before + 100, "resident memory went from {before} MiB to a peak of {peak} MiB");
    drop(server);

    // One caller's renders beyond its share (here 1) get 429 with Retry-After.
    let server = Server::start(&db.url, &["--workers", "2", "--renders-per-caller", "1"]);
    let kinds = ["/answer.pdf", "/cover.pdf?paper=cream", "/cover.pdf?paper=white"];
    let (status, _, other) = common::post(&server, "/books", json!({"pages": 1000, "rows": 64, "cols": 64})).await;
    assert_eq!(status, 202, "{other}");
    let other = other["serial"].as_str().unwrap().to_string();
    printed(&server, &other).await;
    let paths: Vec<String> = std::iter::once(format!("/books/{other}/book.pdf"))
        .chain(kinds.iter().map(|k| format!("/books/{other}{k}")))
        .collect();
    let answers = futures_util::future::join_all(paths.iter().map(|path| {
        let request = client.get(server.url(path));
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.headers().contains_key("retry-after"))
        }
    }))
    .await;
    assert!(answers.contains(&(429, true)), "{answers:?}");
    assert!(answers.iter().all(|a| matches!(a, (200, _) | (429, true))), "{answers:?}");
}

/// A client socket whose receive buffer is small, as a slow reader's effectively is, so
/// that what it has not read waits at the server.
fn small_window_connection(addr: &str) -> TcpStream {
    use std::os::fd::FromRawFd;
    let addr: std::net::SocketAddrV4 = addr.parse().unwrap();
    // SAFETY: a fresh socket, configured and connected before std owns it.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
        assert!(fd >= 0);
        let size: libc::c_int = 8192;
        let len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        let set = libc::setsockopt(fd, libc::SOL_SOCKET, libc::SO_RCVBUF, (&size as *const libc::c_int).cast(), len);
        assert_eq!(set, 0);
        let sin = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: addr.port().to_be(),
            sin_addr: libc::in_addr { s_addr: u32::from(*addr.ip()).to_be() },
            sin_zero: [0; 8],
        };
        let at = (&sin as *const libc::sockaddr_in).cast();
        assert_eq!(libc::connect(fd, at, std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t), 0);
        TcpStream::from_raw_fd(fd)
    }
}

/// GETs `path`, reading at most `bytes_per_sec` after a `pause` with nothing read; returns
/// the declared length and the body's bytes received before the server closed the
/// connection.
fn read_slowly(addr: &str, path: &str, pause: Duration, bytes_per_sec: usize) -> (usize, usize) {
    let mut stream = small_window_connection(addr);
    stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    std::thread::sleep(pause);
    let (mut received, mut buf) = (Vec::new(), vec![0u8; 16 * 1024]);
    let started = Instant::now();
    let mut declared = None;
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        received.extend_from_slice(&buf[..n]);
        let head_end = received.windows(4).position(|w| w == b"\r\n\r\n");
        if let (None, Some(end)) = (declared, head_end) {
            let head = String::from_utf8_lossy(&received[..end]).to_ascii_lowercase();
            let length = head.lines().find_map(|l| l.strip_prefix("content-length: ")).unwrap();
            declared = Some((end + 4, length.trim().parse::<usize>().unwrap()));
        }
        if let Some((start, length)) = declared {
            if received.len() - start >= length {
                break;
            }
        }
        // Keep to the rate: sleep until the bytes so far are due.
        let due = Duration::from_secs_f64(received.len() as f64 / bytes_per_sec as f64);
        if let Some(wait) = due.checked_sub(started.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    let (start, length) = declared.expect("a response head");
    (length, received.len() - start)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_large_response_is_sent_whole_to_a_slow_reader_and_a_stalled_one_is_cut_off() {
    let db = TestDb::sqlite();
    // Idle connections are closed after 1 s; the response takes the client about 5 s to read.
    let server = Server::start(&db.url, &["--workers", "0", "--idle-timeout-secs", "1"]);
    let entries: String =
        (0..16_000).map(|i| format!("word{i};n.;{}\n", "a long definition of the word ".repeat(8))).collect();
    let response = common::client()
        .post(server.url("/dictionaries"))
        .header("content-type", "text/plain; charset=utf-8")
        .body(entries)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let (addr, path) = (server.addr(), location.clone());
    let (length, got) =
        tokio::task::spawn_blocking(move || read_slowly(&addr, &path, Duration::ZERO, 1 << 20)).await.unwrap();
    assert!(length > 4 << 20, "{length}");
    assert_eq!(got, length, "the response was cut off after {got} of {length} bytes");
    // A client that stops reading for 4 s, far below --min-response-bytes-per-sec: cut off
    // (it then gets what was already in the kernel's buffers, not the rest).
    let addr = server.addr();
    let (length, got) =
        tokio::task::spawn_blocking(move || read_slowly(&addr, &location, Duration::from_secs(4), 64 << 20))
            .await
            .unwrap();
    assert!(got < length, "a client that stopped reading was sent all {length} bytes");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_probes_get_through_when_every_connection_has_a_request_in_flight() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0", "--max-connections", "24"]);
    // 24 uploads whose bodies trickle in: every connection the bound allows has a request in
    // flight, until the body timeout (10 s).
    let held: Vec<TcpStream> = (0..24).map(|_| hold(&server, "/graycodes", "application/json")).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(3)).build().unwrap();
    let get = |path: &'static str| {
        let (client, url) = (client.clone(), server.url(path));
        async move { client.get(url).send().await.unwrap_or_else(|e| panic!("{path}: {e}")) }
    };
    assert_eq!(get("/healthz").await.status(), 200);
    let ready = get("/readyz").await;
    assert_eq!(ready.status(), 503);
    let detail = ready.json::<Value>().await.unwrap()["detail"].as_str().unwrap().to_string();
    assert!(detail.contains("--max-connections 24"), "{detail}");
    // Anything else is told at once that the server is full, not kept waiting.
    let other = get("/graycodes/no-such-id").await;
    assert_eq!(other.status(), 503);
    assert!(other.headers().contains_key("retry-after"));
    drop(held);
    // Once the uploads are gone, the server is ready again.
    let mut ready = 0;
    for _ in 0..50 {
        ready = get("/readyz").await.status().as_u16();
        if ready == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ready, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn what_one_address_keeps_is_held_to_its_storage_quota() {
    let db = TestDb::sqlite();
    // A key closes the service: callers without one are held to the anonymous tier.
    create_key(&db, "publisher");
    let server = Server::start(&db.url, &["--workers", "1", "--storage-per-address-mib", "1"]);
    // About 230 KB a dictionary (the most a caller without a key may send is 256 KiB),
    // kept with its job: the fifth would pass 1 MiB.
    let entries: String =
        (0..450).map(|i| format!("word{i};n.;{}\n", "a definition of the word ".repeat(20))).collect();
    let order = || {
        common::client()
            .post(server.url("/dictionaries"))
            .header("content-type", "text/plain; charset=utf-8")
            .body(entries.clone())
            .send()
    };
    let mut made = Vec::new();
    let refusal = loop {
        let response = order().await.unwrap();
        if response.status() != 202 {
            break response;
        }
        let location = response.headers()["location"].to_str().unwrap().to_string();
        assert_eq!(common::wait_job(&server, &location, Duration::from_secs(60)).await["state"], "succeeded");
        made.push(location);
        assert!(made.len() <= 5, "{} dictionaries of 230 KB kept under a quota of 1 MiB", made.len());
    };
    assert_eq!(refusal.status(), 507);
    let problem: Value = refusal.json().await.unwrap();
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("--storage-per-address-mib"), "{detail}");
    assert!(made.len() >= 2, "{detail}");
    // Deleting one makes room for one more.
    let deleted = common::client().delete(server.url(&made[0])).send().await.unwrap();
    assert_eq!(deleted.status(), 204);
    assert_eq!(order().await.unwrap().status(), 202);
}

/// The server's CPU seconds so far (user and system), from /proc.
fn cpu_seconds(server: &Server) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", server.child.id())).unwrap();
    // The fields after the command's closing parenthesis start at the third: utime is the
    // 14th, stime the 15th, in ticks of 1/100 s.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split_whitespace().collect();
    (fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap()) / 100.0
}

/// `n` strings of `len` letters of A, B and C, the same for the same `seed`.
fn abc(n: usize, len: usize, seed: u64) -> Vec<String> {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut letter = move || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        char::from(b'A' + ((x >> 33) % 3) as u8)
    };
    (0..n).map(|_| (0..len).map(|_| letter()).collect()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_word_search_no_filler_can_make_costs_its_request_a_bounded_check_and_fails_as_a_job() {
    let db = TestDb::sqlite();
    let mut server = Server::start(&db.url, &["--workers", "0"]);
    // Three 20-letter words of A, B and C, and short words of those letters forbidden: from
    // this seed the filler finds no filling, which it learns by spending its whole budget
    // (seconds; from some other seeds it finds one).
    let mut avoid: Vec<String> = ["AAA", "BBB", "CCC", "ABA"].map(String::from).to_vec();
    avoid.extend(abc(496, 20, 2));
    let body = json!({"words": abc(3, 20, 1), "rows": 40, "cols": 40, "filler": "word-letters", "avoid": avoid,
        "seed": 3});
    let before = cpu_seconds(&server);
    let (status, location, answer) = common::post(&server, "/wordsearches", body).await;
    let spent = cpu_seconds(&server) - before;
    // The handler cannot tell in its time: it queues the job, which tells.
    assert_eq!((status, answer["state"].as_str()), (202, Some("queued")), "{answer}");
    assert!(spent < 1.0, "the request cost the server {spent:.2} CPU seconds");
    server.terminate();
    let server = Server::start(&db.url, &["--workers", "1"]);
    let job = common::wait_job(&server, &location.unwrap(), Duration::from_secs(120)).await;
    assert_eq!(job["state"], "failed", "{job}");
    assert!(job["error"].as_str().unwrap().starts_with("filler: no letters fill the grid"), "{job}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_word_search_book_past_its_callers_time_or_bytes_is_refused_when_ordered() {
    let db = TestDb::sqlite();
    // A key closes the service: callers without one get the small limits.
    create_key(&db, "p");
    let server = Server::start(&db.url, &["--workers", "0"]);
    // 500 copies of a puzzle no filler can make: its sample shows each costs seconds.
    let mut avoid: Vec<String> = ["AAA", "BBB", "CCC", "ABA"].map(String::from).to_vec();
    avoid.extend(abc(496, 20, 2));
    let puzzles: Vec<Value> = (0..500).map(|_| json!({"words": abc(3, 20, 1)})).collect();
    let hard = json!({"title": "Hard", "rows": 40, "cols": 40, "filler": "word-letters", "avoid": avoid,
        "puzzles": puzzles});
    let before = cpu_seconds(&server);
    let (status, _, problem) = common::post(&server, "/wordsearches/books", hard).await;
    let spent = cpu_seconds(&server) - before;
    assert_eq!((status, problem["field"].as_str()), (422, Some("puzzles")), "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("at most 20 s"), "{problem}");
    assert!(spent < 1.0, "the request cost the server {spent:.2} CPU seconds");
    // 500 puzzles of 40 words in 40 x 40: more bytes than a caller without a key keeps.
    let pool: Vec<String> =
        (0..400).map(|i| (0..6 + i % 9).map(|k| char::from(b'A' + ((i * 7 + k * 3) % 26) as u8)).collect()).collect();
    let big = json!({"rows": 40, "cols": 40, "pool": pool, "count": 500, "words_per_puzzle": 40,
        "allow_contained": true, "allow_offensive": true});
    let (status, _, problem) = common::post(&server, "/wordsearches/books", big).await;
    assert_eq!((status, problem["field"].as_str()), (422, Some("count")), "{problem}");
    assert!(problem["detail"].as_str().unwrap().contains("bytes"), "{problem}");
}
