//! Wiring: open the store, migrate, start the workers, serve HTTP, shut down gracefully.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::cli::ServeArgs;
use crate::http::edge::admission::CallerCaps;
use crate::http::edge::bodyrate::BodyRate;
use crate::http::edge::listen::ConnectionLimits;
use crate::http::edge::middleware::AllowedHosts;
use crate::http::Quotas;
use crate::http::{AppState, HttpLimits};
use crate::jobs::pool::{self, PoolConfig, Shutdown};
use crate::jobs::{self, kinds, Queue, QueueLimits, TierLimits, Wake};
use crate::metrics::Metrics;
use crate::store::Store;

/// Logs to stdout; `PUZZLEPRESS_LOG_FORMAT=json` for one JSON object per line, `RUST_LOG`
/// to filter.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    if std::env::var("PUZZLEPRESS_LOG_FORMAT").as_deref() == Ok("json") {
        builder.json().init();
    } else {
        builder.init();
    }
}

pub async fn migrate(database_url: &str) -> anyhow::Result<()> {
    let store = Store::connect(database_url).await?;
    store.migrate().await?;
    tracing::info!("migrations applied");
    Ok(())
}

/// The key books are derived from: configured (`cli::configured_secret`, which refuses an
/// empty one), or generated once and shared through the database. The database keeps a
/// salted SHA-256 of the secret its books are made with: a server started with another
/// secret refuses to start (its books could no longer be printed again offline, nor new
/// copies made alike) unless `accept_new` says the change is meant.
async fn book_secret(store: &Store, configured: Option<String>, accept_new: bool) -> anyhow::Result<Vec<u8>> {
    let secret = match configured {
        Some(secret) => secret,
        None => {
            let candidate: String = (0..32).map(|_| format!("{:02x}", rand::random::<u8>())).collect();
            store.setting_or_insert(crate::store::BOOK_SECRET, &candidate).await?
        }
    };
    let salt: String = (0..16).map(|_| format!("{:02x}", rand::random::<u8>())).collect();
    let stored = store.setting_or_insert(SECRET_CHECK, &secret_check(&salt, &secret)).await?;
    let salt = stored.split(':').next().unwrap_or_default();
    if stored != secret_check(salt, &secret) {
        anyhow::ensure!(
            accept_new,
            "the book secret is not the one this database's books were made with: `puzzlepress book` would print \
             other books for their serials. Start with the old secret, or pass --new-book-secret to make books with \
             this one from now on (books already printed keep their pages and answers)"
        );
        tracing::warn!(
            "the book secret changed (--new-book-secret): books printed before cannot be printed again offline"
        );
        store.set_setting(SECRET_CHECK, &secret_check(salt, &secret)).await?;
    }
    Ok(secret.into_bytes())
}

/// The setting holding `SALT:SHA256(SALT, SECRET)` of the book secret in use.
const SECRET_CHECK: &str = "book_secret_check";

fn secret_check(salt: &str, secret: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new().chain_update(salt).chain_update(b":").chain_update(secret).finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{salt}:{hex}")
}

fn seconds(what: &str, secs: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{what} must be a positive number of seconds"))
}

pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let lease = seconds("--lease-secs", args.lease_secs)?;
    let grace = Duration::try_from_secs_f64(args.shutdown_grace_secs).context("--shutdown-grace-secs must be >= 0")?;
    anyhow::ensure!(args.min_body_bytes_per_sec >= 1, "--min-body-bytes-per-sec must be at least 1");
    anyhow::ensure!(
        args.max_requests_per_key >= 1 && args.max_requests_per_address >= 1 && args.max_uploads_per_caller >= 1,
        "--max-requests-per-key, --max-requests-per-address and --max-uploads-per-caller must be at least 1"
    );
    // IP addresses and localhost are always allowed; the names books send readers to too.
    let lookup_host =
        args.lookup_url.as_deref().and_then(|u| Some(axum::http::Uri::try_from(u).ok()?.host()?.to_string()));
    let host_names =
        args.allowed_hosts.clone().unwrap_or_else(|| crate::http::edge::middleware::own_host_names(args.bind));
    let limits = HttpLimits {
        request_timeout: seconds("--request-timeout-secs", args.request_timeout_secs)?,
        body_rate: BodyRate {
            grace: seconds("--body-timeout-secs", args.body_timeout_secs)?,
            bytes_per_sec: args.min_body_bytes_per_sec,
        },
        concurrency: args.max_concurrent_requests.max(1),
        anonymous_per_minute: args.anonymous_requests_per_minute,
        per_caller: CallerCaps {
            requests_per_key: args.max_requests_per_key,
            requests_per_address: args.max_requests_per_address,
            uploads_per_caller: args.max_uploads_per_caller,
        },
        hosts: AllowedHosts::new(host_names.into_iter().chain(lookup_host)),
    };
    anyhow::ensure!(args.max_connections != Some(0), "--max-connections must be at least 1");
    let (max_connections, file_limit) = crate::http::edge::listen::connection_bound(args.max_connections);
    let connection_limits = ConnectionLimits {
        header_timeout: seconds("--header-timeout-secs", args.header_timeout_secs)?,
        idle_timeout: seconds("--idle-timeout-secs", args.idle_timeout_secs)?,
        max_connections,
        min_response_bytes_per_sec: args.min_response_bytes_per_sec,
    };
    anyhow::ensure!(args.min_response_bytes_per_sec >= 1, "--min-response-bytes-per-sec must be at least 1");
    anyhow::ensure!(args.anonymous_requests_per_minute >= 1, "--anonymous-requests-per-minute must be at least 1");
    anyhow::ensure!(args.max_attempts >= 1, "--max-attempts must be at least 1");
    anyhow::ensure!(args.queue_limit >= 1, "--queue-limit must be at least 1");
    anyhow::ensure!(
        args.anonymous_queue_limit.is_none_or(|n| (0..=args.queue_limit).contains(&n)),
        "--anonymous-queue-limit must be between 0 and --queue-limit"
    );
    anyhow::ensure!(args.jobs_per_key >= 1, "--jobs-per-key must be at least 1");
    anyhow::ensure!(args.jobs_per_address >= 1, "--jobs-per-address must be at least 1");
    anyhow::ensure!(args.storage_per_key_mib >= 0, "--storage-per-key-mib must be at least 0");
    anyhow::ensure!(args.storage_per_address_mib >= 0, "--storage-per-address-mib must be at least 0");
    anyhow::ensure!(args.max_renders != Some(0), "--max-renders must be at least 1");
    anyhow::ensure!(args.renders_per_caller >= 1, "--renders-per-caller must be at least 1");
    let renders = crate::http::edge::renders::RenderLimits {
        in_all: args.max_renders.unwrap_or_else(|| crate::http::edge::renders::RenderLimits::default().in_all),
        per_caller: args.renders_per_caller,
        cache_bytes: args.render_cache_mib.saturating_mul(1 << 20),
    };
    let retention = Duration::try_from_secs_f64(args.retention_days * 86_400.0)
        .ok()
        .filter(|d| !d.is_zero())
        .context("--retention-days must be a positive number of days")?;
    // Read before touching the database, so a bad secret or limits file fails fast.
    let configured_secret = crate::cli::configured_secret()?;
    let engine_limits = match &args.limits {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            serde_json::from_str::<TierLimits>(&text)
                .with_context(|| format!("{}: not a limits file", path.display()))?
        }
        None => TierLimits::default(),
    };

    let store = Store::connect(&args.database.database_url)
        .await
        .with_context(|| format!("opening the database {}", redact(&args.database.database_url)))?;
    store.migrate().await.context("migrating the database")?;
    // A server that has had keys stays closed after the last is revoked: safe to serve.
    if !store.closed().await? {
        anyhow::ensure!(
            args.bind.ip().is_loopback() || args.open,
            "no API key exists and {} is reachable from other machines: create one with \
             `puzzlepress keys create --name NAME`, or pass --open to serve everyone without keys",
            args.bind
        );
        tracing::warn!(
            "no API key exists: the service is open (anyone who can reach it may order books and read every book)"
        );
    }
    let secret = book_secret(&store, configured_secret, args.new_book_secret).await?;

    let wake = Wake::default();
    wake.listen(&store);
    let metrics = Arc::new(Metrics::default());
    let queue = Arc::new(Queue::new(
        store.clone(),
        wake.clone(),
        QueueLimits {
            queued: args.queue_limit,
            anonymous: args.anonymous_queue_limit.unwrap_or(args.queue_limit / 2),
            params_bytes: args.max_params_kib.saturating_mul(1024),
            max_attempts: args.max_attempts,
        },
    ));
    let shutdown = Shutdown::default();
    let workers = args.workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let secret: Arc<[u8]> = secret.into();
    let wordlists = Arc::new(jobs::WordLists::new(store.clone(), jobs::wordlists::CACHED_LISTS));
    let config = PoolConfig {
        workers,
        lease,
        poll: Duration::from_millis(args.poll_ms.max(10)),
        tick: Duration::from_millis(250).min(lease / 4),
        backoff: Duration::from_secs(1).min(lease),
        secret: secret.clone(),
        limits: engine_limits.clone(),
        wordlists: wordlists.clone(),
        registry: kinds::registry(),
    };
    let swept = config.registry.swept();
    let mut pool = pool::start(store.clone(), wake, config, metrics.clone(), shutdown.clone());
    tokio::spawn(jobs::sweep_finished(
        store.clone(),
        swept,
        retention,
        Duration::from_secs(60),
        shutdown.drain.clone(),
    ));

    tokio::spawn(jobs::printruns::feed_printruns(queue.clone(), Duration::from_millis(200), shutdown.drain.clone()));

    let quotas = Quotas {
        per_key: args.jobs_per_key,
        per_address: args.jobs_per_address,
        storage_per_key: args.storage_per_key_mib.saturating_mul(1 << 20),
        storage_per_address: args.storage_per_address_mib.saturating_mul(1 << 20),
    };
    let state = AppState {
        store: store.clone(),
        queue,
        metrics,
        quotas,
        limits: engine_limits,
        key_presence: Default::default(),
        wordlists,
        lookup_url: args.default_lookup_url().into(),
        lookup_url_configured: args.lookup_url.is_some(),
        uploads: Default::default(),
        renders: Arc::new(crate::http::edge::renders::Renders::new(renders)),
    };
    let metrics_listener = match args.metrics_bind {
        Some(addr) => Some(TcpListener::bind(addr).await.with_context(|| format!("binding {addr} (--metrics-bind)"))?),
        None => None,
    };
    let metrics_app = metrics_listener.is_some().then(|| crate::http::metrics_only(state.clone()));
    let connections = crate::http::edge::listen::Connections::new(max_connections);
    let app = crate::http::router(state, &limits).layer(axum::Extension(connections.clone()));
    let listener = TcpListener::bind(args.bind).await.with_context(|| format!("binding {}", args.bind))?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, workers, backend = ?store.backend(), "puzzlepress listening");
    warn_of_lookup_address(&args);
    tracing::info!(
        max_connections,
        open_file_limit = file_limit,
        reserved = crate::http::edge::listen::RESERVED_FDS,
        allowed_hosts = %limits.hosts.names(),
        "connection bound: at it, the oldest idle connection is closed for a new one"
    );
    if args.max_connections.is_some_and(|n| n > max_connections) {
        tracing::warn!(max_connections, "--max-connections is above the open-file limit less the reserve; lowered");
    }
    if let (Some(listener), Some(app)) = (metrics_listener, metrics_app) {
        let addr = listener.local_addr()?;
        tracing::info!(%addr, "serving /metrics without a key");
        println!("puzzlepress metrics on http://{addr}/metrics");
        let drain = shutdown.drain.clone();
        tokio::spawn(crate::http::edge::listen::serve(
            listener,
            app,
            connection_limits,
            crate::http::edge::listen::Connections::new(max_connections),
            Duration::from_secs(1),
            async move { drain.cancelled().await },
        ));
    }
    println!("puzzlepress listening on http://{addr}");

    let drain = shutdown.drain.clone();
    // Open requests get as long to finish as any request may take.
    let requests_drain = limits.request_timeout + Duration::from_secs(1);
    crate::http::edge::listen::serve(listener, app, connection_limits, connections, requests_drain, async move {
        shutdown_signal().await;
        tracing::info!("shutting down: no new requests or jobs; running jobs may finish");
        drain.cancel();
    })
    .await;

    // Let running jobs finish within the grace period, then hand the rest back.
    if tokio::time::timeout(grace, async { while pool.join_next().await.is_some() {} }).await.is_err() {
        tracing::warn!("grace period over: releasing running jobs to the queue");
        shutdown.abandon.cancel();
        let _ =
            tokio::time::timeout(Duration::from_secs(10), async { while pool.join_next().await.is_some() {} }).await;
    }
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_string(),
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

/// Books print where readers look their answers up; a server not told its public address
/// prints its own loopback one, which no reader can follow: said loudly at start.
fn warn_of_lookup_address(args: &ServeArgs) {
    let url = args.default_lookup_url();
    match (&args.lookup_url, crate::render::print::unreachable_lookup(&url)) {
        (None, _) => tracing::warn!(
            lookup_url = %url,
            "NO PUBLIC LOOKUP ADDRESS: books ordered without their own lookup_url print {url} with their serial and \
             QR code, which readers cannot reach; print runs are refused unless they give lookup_url. Set \
             --lookup-url (PUZZLEPRESS_LOOKUP_URL) to this server's public find page, e.g. https://books.example.com/"
        ),
        (Some(_), Some(why)) => tracing::warn!(lookup_url = %url, "--lookup-url: {why}"),
        (Some(_), None) => tracing::info!(lookup_url = %url, "books print this lookup address"),
    }
}
