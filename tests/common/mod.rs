//! Shared helpers for the Rust integration tests: fresh databases (a real SQLite file, a
//! real PostgreSQL database) and the real `puzzlepress` binary serving on a free port.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The PostgreSQL server the tests use. Tests never skip PostgreSQL: if it is unreachable
/// they fail, saying so.
pub fn pg_server_url() -> String {
    std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

/// A database that exists for one test and is dropped after it.
pub struct TestDb {
    pub url: String,
    pg_name: Option<String>,
    sqlite_dir: Option<std::path::PathBuf>,
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(format!("puzzlepress-test-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        TestDb { url: format!("sqlite://{}/test.db", dir.display()), pg_name: None, sqlite_dir: Some(dir) }
    }

    pub fn postgres() -> TestDb {
        let server = pg_server_url();
        let name = format!("pp_test_{}", uuid::Uuid::new_v4().simple());
        psql(&server, &format!("CREATE DATABASE {name}"));
        let base = server.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(server);
        TestDb { url: format!("{base}/{name}"), pg_name: Some(name), sqlite_dir: None }
    }

    /// A PostgreSQL URL naming a database that does not exist yet (`name` is its prefix,
    /// kept as given so names that need quoting can be tried); dropped after the test if
    /// something created it.
    pub fn postgres_missing(prefix: &str) -> TestDb {
        let server = pg_server_url();
        let name = format!("{prefix}{}", uuid::Uuid::new_v4().simple());
        let base = server.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(server);
        TestDb { url: format!("{base}/{name}"), pg_name: Some(name), sqlite_dir: None }
    }

    pub fn both() -> [TestDb; 2] {
        [TestDb::sqlite(), TestDb::postgres()]
    }

    /// The PostgreSQL database's name (None for SQLite).
    pub fn pg_database(&self) -> Option<&str> {
        self.pg_name.as_deref()
    }

    pub fn backend(&self) -> &'static str {
        if self.pg_name.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    }
}

/// Runs `body` against a fresh SQLite file and a fresh PostgreSQL database. Both run even
/// when the first fails; a failure names the backend it happened on.
pub async fn on_both<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let mut failures = Vec::new();
    for db in TestDb::both() {
        let backend = db.backend();
        if let Err(e) = tokio::spawn(body(db)).await {
            let message = match e.try_into_panic() {
                Ok(panic) => panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into()),
                Err(e) => e.to_string(),
            };
            failures.push(format!("on {backend}: {message}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

pub fn psql(url: &str, sql: &str) {
    let out = Command::new("psql")
        .args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("psql must be installed for the PostgreSQL tests");
    assert!(
        out.status.success(),
        "PostgreSQL at {url} is required by the tests and did not accept `{sql}`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(name) = &self.pg_name {
            let _ = Command::new("psql")
                .args([&pg_server_url(), "-q", "-c", &format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)")])
                .output();
        }
        if let Some(dir) = &self.sqlite_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A running `puzzlepress serve` process.
pub struct Server {
    pub base: String,
    pub child: Child,
    /// The keyless `/metrics` address (`--metrics-bind`), when the server printed one.
    pub metrics: Option<String>,
}

impl Server {
    /// Starts the real binary on a free port against `db_url` with extra flags.
    pub fn start(db_url: &str, args: &[&str]) -> Server {
        Server::start_with_env(db_url, args, &[])
    }

    /// `start` with extra environment variables (the book secret is only taken from there).
    pub fn start_with_env(db_url: &str, args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_puzzlepress")), db_url, args, env)
    }

    /// `start` under an open-file limit of `files` (soft and hard, set by the shell).
    pub fn start_with_file_limit(db_url: &str, args: &[&str], files: u32) -> Server {
        let mut shell = Command::new("sh");
        shell.args(["-c", &format!("ulimit -n {files} && exec \"$0\" \"$@\""), env!("CARGO_BIN_EXE_puzzlepress")]);
        Server::spawn(shell, db_url, args, &[])
    }

    fn spawn(mut command: Command, db_url: &str, args: &[&str], env: &[(&str, &str)]) -> Server {
        command
            .arg("serve")
            .args(["--bind", "127.0.0.1:0", "--database-url", db_url])
            .args(args)
            .env("RUST_LOG", "warn")
            // Tests make many anonymous requests quickly; the rate limit has its own test.
            .env("PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE", "1000000")
            // A secret in the developer's shell must not leak into the tests.
            .env_remove("PUZZLEPRESS_SECRET")
            .env_remove("PUZZLEPRESS_SECRET_FILE")
            // A server that prints books is told its public address; a test that wants one
            // that was not passes PUZZLEPRESS_LOOKUP_URL as "" (read as unset).
            .env("PUZZLEPRESS_LOOKUP_URL", "https://books.example/")
            .envs(env.iter().copied().filter(|(k, v)| !(*k == "PUZZLEPRESS_LOOKUP_URL" && v.is_empty())));
        if env.contains(&("PUZZLEPRESS_LOOKUP_URL", "")) {
            command.env_remove("PUZZLEPRESS_LOOKUP_URL");
        }
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("start puzzlepress");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        // Reads the address, then keeps draining stdout so the server never blocks on a
        // full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                // The metrics address, if any, is printed before the main one.
                for prefix in ["puzzlepress metrics on ", "puzzlepress listening on "] {
                    if let Some(addr) = line.strip_prefix(prefix) {
                        let _ = tx.send((prefix, addr.trim().to_string()));
                    }
                }
            }
        });
        let mut metrics = None;
        let base = loop {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(("puzzlepress listening on ", base)) => break base,
                Ok((_, addr)) => metrics = Some(addr),
                Err(_) => {
                    let _ = child.kill();
                    panic!("the server did not start listening within 30 s (or exited): {:?}", child.wait());
                }
            }
        };
        Server { base, child, metrics }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `host:port`, for raw TCP clients.
    pub fn addr(&self) -> String {
        self.base.trim_start_matches("http://").to_string()
    }

    /// SIGKILL: the process dies without releasing anything.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then waits for the process to exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap()
}

/// POSTs JSON; returns status, Location header and body.
pub async fn post(server: &Server, path: &str, body: Value) -> (u16, Option<String>, Value) {
    let response = client().post(server.url(path)).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    let location = response.headers().get("location").map(|v| v.to_str().unwrap().to_string());
    let body = response.json().await.unwrap_or(Value::Null);
    (status, location, body)
}

pub async fn get(server: &Server, path: &str) -> (u16, Value) {
    let response = client().get(server.url(path)).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Polls a job until it reaches a terminal state or `limit` passes.
pub async fn wait_job(server: &Server, location: &str, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (status, job) = get(server, location).await;
        assert_eq!(status, 200, "GET {location}: {job}");
        if matches!(job["state"].as_str(), Some("succeeded" | "failed" | "cancelled")) {
            return job;
        }
        assert!(start.elapsed() < limit, "job {location} did not finish in {limit:?}: {job}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sums a Prometheus counter's samples whose labels contain `labels`.
pub async fn metric_sum(server: &Server, name: &str, labels: &str) -> f64 {
    let text = client().get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && l.contains(labels))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}
