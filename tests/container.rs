//! What the container relies on, checked without Docker: the exact health-check commands of
//! `Dockerfile` and `compose.yaml` run against the real binary, and the image's volume, user
//! and secret wiring.

mod common;

use std::collections::BTreeMap;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{Server, TestDb};
use serde_yaml_ng::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The Dockerfile's instructions of the final stage, as (keyword, arguments), with line
/// continuations joined and comments dropped.
fn dockerfile() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("{ROOT}/Dockerfile")).unwrap();
    let mut instructions = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || (line.is_empty() && current.is_empty()) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => current.push_str(part),
            None => {
                current.push_str(line);
                let (keyword, args) = current.trim().split_once(char::is_whitespace).unwrap_or((current.trim(), ""));
                instructions.push((keyword.to_uppercase(), args.trim().to_string()));
                current.clear();
            }
        }
    }
    let last_from = instructions.iter().rposition(|(k, _)| k == "FROM").expect("a FROM");
    instructions.split_off(last_from)
}

fn instruction(name: &str) -> String {
    let found: Vec<_> = dockerfile().into_iter().filter(|(k, _)| k == name).map(|(_, a)| a).collect();
    assert_eq!(found.len(), 1, "the runtime stage has exactly one {name}: {found:?}");
    found.into_iter().next().unwrap()
}

/// An exec-form JSON array such as `["/usr/local/bin/puzzlepress", "serve"]`.
fn exec_form(what: &str, json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_else(|e| {
        panic!("{what} must be in exec form (a JSON array, no shell: /bin/sh is dash, without /dev/tcp): {json} ({e})")
    })
}

/// The image's environment: every `ENV KEY=VALUE` of the runtime stage.
fn image_env() -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    for (_, args) in dockerfile().into_iter().filter(|(k, _)| k == "ENV") {
        for pair in args.split_whitespace() {
            let (key, value) = pair.split_once('=').unwrap_or_else(|| panic!("ENV in KEY=VALUE form: {pair}"));
            env.insert(key.to_string(), value.trim_matches('"').to_string());
        }
    }
    env
}

/// The binary the image runs: the first word of its ENTRYPOINT.
fn image_binary() -> String {
    exec_form("ENTRYPOINT", &instruction("ENTRYPOINT")).remove(0)
}

fn compose() -> Value {
    serde_yaml_ng::from_str(&std::fs::read_to_string(format!("{ROOT}/compose.yaml")).unwrap()).unwrap()
}

fn compose_env(service: &Value) -> BTreeMap<String, String> {
    let scalar = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => serde_yaml_ng::to_string(other).unwrap().trim().to_string(),
    };
    match &service["environment"] {
        Value::Mapping(map) => map.iter().map(|(k, v)| (scalar(k), scalar(v))).collect(),
        Value::Sequence(list) => list
            .iter()
            .map(|item| {
                let (k, v) = item.as_str().unwrap().split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// A health check as the container runs it: argv and the container's environment.
struct Check {
    source: &'static str,
    argv: Vec<String>,
    env: BTreeMap<String, String>,
}

/// The health checks exactly as the files write them.
fn health_checks() -> Vec<Check> {
    let healthcheck = instruction("HEALTHCHECK");
    let json = healthcheck.split_once("CMD ").map(|(_, cmd)| cmd.trim()).unwrap_or_else(|| {
        panic!("HEALTHCHECK runs a command: {healthcheck}");
    });
    let dockerfile =
        Check { source: "Dockerfile HEALTHCHECK", argv: exec_form("HEALTHCHECK CMD", json), env: image_env() };

    let compose = compose();
    let service = &compose["services"]["puzzlepress"];
    let test: Vec<String> = serde_yaml_ng::from_value(service["healthcheck"]["test"].clone())
        .expect("compose.yaml: services.puzzlepress.healthcheck.test is a list");
    assert_eq!(test.first().map(String::as_str), Some("CMD"), "compose healthcheck runs without a shell: {test:?}");
    let mut env = image_env();
    env.extend(compose_env(service));
    let compose = Check { source: "compose.yaml healthcheck", argv: test[1..].to_vec(), env };
    vec![dockerfile, compose]
}

impl Check {
    /// Runs the check against `port` on this machine instead of the container's port: the
    /// binary path becomes the test binary, and the container port in the arguments and the
    /// environment (PUZZLEPRESS_BIND) becomes `port`. Nothing else changes.
    fn run(&self, port: u16) -> Output {
        let binary = image_binary();
        assert_eq!(
            self.argv[0], binary,
            "{} must run the image's own binary ({binary}), not a shell or curl",
            self.source
        );
        let container_port = self.env["PUZZLEPRESS_BIND"].rsplit_once(':').unwrap().1.to_string();
        let retarget = |s: &String| s.replace(&format!(":{container_port}"), &format!(":{port}"));
        Command::new(env!("CARGO_BIN_EXE_puzzlepress"))
            .args(self.argv[1..].iter().map(retarget))
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, retarget(v))))
            .output()
            .unwrap()
    }
}

fn port_of(server: &Server) -> u16 {
    server.base.rsplit_once(':').unwrap().1.parse().unwrap()
}

fn stderr_line(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line of reason: {stderr:?}");
    stderr
}

#[test]
fn the_health_checks_in_dockerfile_and_compose_pass_against_a_running_server_and_fail_against_a_stopped_one() {
    let db = TestDb::sqlite();
    let mut server = Server::start(&db.url, &["--workers", "0"]);
    let port = port_of(&server);
    let checks = health_checks();
    for check in &checks {
        let output = check.run(port);
        assert!(
            output.status.success(),
            "{} against a running server: {:?} {}",
            check.source,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(String::from_utf8_lossy(&output.stdout).contains(" 200"), "{output:?}");
    }

    server.kill9();
    for check in &checks {
        let output = check.run(port);
        assert_eq!(output.status.code(), Some(1), "{} against a stopped server: {output:?}", check.source);
        let reason = stderr_line(&output);
        assert!(reason.contains(&format!("127.0.0.1:{port}")) && reason.contains("connect"), "{reason}");
    }
}

fn health(url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puzzlepress")).args(["health", "--url", url]).output().unwrap()
}

#[test]
fn the_probe_fails_with_a_reason_on_another_status_silence_or_a_url_it_cannot_use() {
    let db = TestDb::sqlite();
    let server = Server::start(&db.url, &["--workers", "0"]);
    let output = health(&server.url("/no-such-page"));
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr_line(&output).contains("404"), "{output:?}");
    assert!(health(&server.url("/healthz")).status.success());

    // Accepted by the kernel, never answered: the probe gives up after its 2 s (the bound
    // leaves room for process start on a loaded machine).
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let start = Instant::now();
    let output = health(&format!("http://{}/healthz", silent.local_addr().unwrap()));
    assert!(start.elapsed() < Duration::from_secs(4), "the probe took {:?}", start.elapsed());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr_line(&output).contains("no answer"), "{output:?}");

    let output = health("https://127.0.0.1:8443/healthz");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr_line(&output).contains("only http://"), "{output:?}");
}

#[test]
fn the_image_runs_as_a_user_keeps_data_in_a_volume_and_takes_the_secret_from_a_file() {
    let user = instruction("USER");
    assert!(!matches!(user.split(':').next(), Some("root" | "0")), "USER {user}");
    let volume = instruction("VOLUME");
    assert!(volume.contains("/data"), "VOLUME {volume}");
    let env = image_env();
    assert!(env["DATABASE_URL"].starts_with("sqlite:///data/"), "the SQLite default is in the volume: {env:?}");
    let bind_port = env["PUZZLEPRESS_BIND"].rsplit_once(':').unwrap().1.to_string();
    assert_eq!(instruction("EXPOSE"), bind_port, "EXPOSE is the port the server binds");

    let compose = compose();
    let service = &compose["services"]["puzzlepress"];
    let env = compose_env(service);
    assert!(!env.contains_key("PUZZLEPRESS_SECRET"), "the secret stays out of the environment: {env:?}");
    let file = &env["PUZZLEPRESS_SECRET_FILE"];
    let name = file.strip_prefix("/run/secrets/").unwrap_or_else(|| panic!("a compose secret: {file}"));
    let granted: Vec<String> = serde_yaml_ng::from_value(service["secrets"].clone()).unwrap();
    assert!(granted.iter().any(|s| s == name), "the service is granted {name}: {granted:?}");
    assert!(compose["secrets"][name]["file"].as_str().is_some(), "{name} is defined from a file");

    for file in ["Dockerfile", "compose.yaml", "README.md"] {
        let text = std::fs::read_to_string(format!("{ROOT}/{file}")).unwrap();
        assert!(!text.contains("--secret"), "{file} passes the secret on a command line");
    }
}
