//! `puzzlepress health`: the container health check. The binary probes itself because the
//! runtime image has no curl, and its /bin/sh (dash) has no /dev/tcp. A minimal HTTP/1.1
//! GET over a plain TCP connection is all a probe of our own server needs.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::cli::{HealthArgs, DEFAULT_BIND};

/// Connecting, asking and reading the status line all fit in this. It is below the
/// Dockerfile's `--timeout=3s`, so Docker records our reason instead of killing the probe.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Runs the probe and returns the process exit code: 0 healthy, 1 not (Docker reserves 2).
/// The outcome is one line: on stdout when healthy, on stderr with the reason when not.
pub async fn run(args: &HealthArgs) -> i32 {
    let url = match &args.url {
        Some(url) => Ok(url.clone()),
        None => default_url(std::env::var("PUZZLEPRESS_BIND").ok().as_deref()),
    };
    let outcome = match url {
        Ok(url) => check(&url).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(status) => {
            println!("healthy: {status}");
            0
        }
        Err(e) => {
            eprintln!("puzzlepress health: {e:#}");
            1
        }
    }
}

/// The URL probed when `--url` is not given: `/healthz` on the address `serve` listens on
/// per `PUZZLEPRESS_BIND` (its default when unset or empty), reached over loopback when that
/// is every address, as in the image (`0.0.0.0:8080`).
pub fn default_url(bind: Option<&str>) -> anyhow::Result<String> {
    let bind = bind.filter(|b| !b.is_empty()).unwrap_or(DEFAULT_BIND);
    let addr: SocketAddr = bind
        .parse()
        .with_context(|| format!("PUZZLEPRESS_BIND={bind:?} is not an address like 0.0.0.0:8080; pass --url"))?;
    if addr.port() == 0 {
        bail!("PUZZLEPRESS_BIND has port 0 (any free port), so the port is unknown; pass --url");
    }
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    Ok(format!("http://{}/healthz", SocketAddr::new(ip, addr.port())))
}

/// Where a GET goes: host (brackets stripped) and port to connect to, the `Host` header and
/// the request target.
#[derive(Debug, PartialEq)]
struct Target {
    host: String,
    port: u16,
    authority: String,
    path: String,
}

fn parse_url(url: &str) -> anyhow::Result<Target> {
    let rest = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
        Some((scheme, _)) => bail!("only http:// URLs can be probed, not {scheme}:// ({url})"),
        None => bail!("{url:?} is not an http:// URL"),
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('?') => (&rest[..i], format!("/{}", &rest[i..])),
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    if authority.contains('@') {
        bail!("{url}: user names and passwords are not supported");
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6.split_once(']').with_context(|| format!("{url}: unclosed [ in the host"))?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        bail!("{url}: no host");
    }
    let port = match port {
        None | Some("") => 80,
        Some(port) => port.parse().with_context(|| format!("{url}: bad port {port:?}"))?,
    };
    Ok(Target { host: host.to_string(), port, authority: authority.to_string(), path })
}

/// GETs `url` and returns its status line if the status is 200; anything else (refused,
/// silent, another status, not HTTP) is an error saying what happened.
pub async fn check(url: &str) -> anyhow::Result<String> {
    let target = parse_url(url)?;
    let status = tokio::time::timeout(TIMEOUT, status_line(&target))
        .await
        .map_err(|_| anyhow::anyhow!("no answer from {url} within {} s", TIMEOUT.as_secs_f64()))?
        .with_context(|| format!("GET {url}"))?;
    let code = status.split_whitespace().nth(1).unwrap_or_default();
    if !status.starts_with("HTTP/") || code.parse::<u16>().is_err() {
        bail!("{url} did not answer HTTP: {status:?}");
    }
    if code != "200" {
        bail!("{url} answered {status}");
    }
    Ok(format!("{url} answered {status}"))
}

async fn status_line(target: &Target) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect((target.host.as_str(), target.port))
        .await
        .with_context(|| format!("cannot connect to {}:{}", target.host, target.port))?;
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: puzzlepress-health\r\nConnection: close\r\n\r\n",
        target.path, target.authority
    );
    stream.write_all(request.as_bytes()).await.context("sending the request")?;
    // Only the status line matters; stop reading once it is in (or clearly is not coming).
    let mut buf = Vec::with_capacity(256);
    let mut chunk = [0u8; 256];
    while !buf.windows(2).any(|w| w == b"\r\n") && buf.len() < 1024 {
        let n = stream.read(&mut chunk).await.context("reading the answer")?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    if buf.is_empty() {
        bail!("the connection closed without an answer");
    }
    let line = buf.split(|&b| b == b'\n').next().unwrap_or_default();
    Ok(String::from_utf8_lossy(line).trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_url_follows_puzzlepress_bind_over_loopback() {
        assert_eq!(default_url(None).unwrap(), "http://127.0.0.1:8080/healthz");
        assert_eq!(default_url(Some("")).unwrap(), "http://127.0.0.1:8080/healthz");
        assert_eq!(default_url(Some("0.0.0.0:8080")).unwrap(), "http://127.0.0.1:8080/healthz");
        assert_eq!(default_url(Some("[::]:9000")).unwrap(), "http://[::1]:9000/healthz");
        assert_eq!(default_url(Some("10.1.2.3:81")).unwrap(), "http://10.1.2.3:81/healthz");
        assert!(default_url(Some("0.0.0.0:0")).unwrap_err().to_string().contains("port 0"));
        assert!(default_url(Some("localhost")).unwrap_err().to_string().contains("--url"));
    }

    #[test]
    fn urls_are_split_into_connection_and_request() {
        let t = |host: &str, port, authority: &str, path: &str| Target {
            host: host.into(),
            port,
            authority: authority.into(),
            path: path.into(),
        };
        assert_eq!(
            parse_url("http://127.0.0.1:8080/healthz").unwrap(),
            t("127.0.0.1", 8080, "127.0.0.1:8080", "/healthz")
        );
        assert_eq!(parse_url("HTTP://localhost").unwrap(), t("localhost", 80, "localhost", "/"));
        assert_eq!(parse_url("http://[::1]:81/a?b#c").unwrap(), t("::1", 81, "[::1]:81", "/a?b"));
        assert_eq!(parse_url("http://h?x=1").unwrap(), t("h", 80, "h", "/?x=1"));
        assert!(parse_url("https://127.0.0.1/healthz").unwrap_err().to_string().contains("only http://"));
        assert!(parse_url("127.0.0.1:8080").is_err());
        assert!(parse_url("http://:8080/").is_err());
        assert!(parse_url("http://h:port/").is_err());
        assert!(parse_url("http://u:p@h/").is_err());
    }
}
