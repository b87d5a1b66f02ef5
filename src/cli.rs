//! Command-line interface: `serve` (the default), `migrate`, `book`, `openapi`.

use std::net::SocketAddr;

use clap::{Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "puzzlepress", version, about = "Prints unique Find-the-Fox books and solves puzzles, over HTTP")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `serve`'s options, so that plain `puzzlepress --bind …` serves.
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the HTTP service and its workers (the default).
    Serve(ServeArgs),
    /// Apply database migrations and exit.
    Migrate(DatabaseArgs),
    /// Print a Find the Fox book offline: the same files the server gives for this secret
    /// and serial (book.txt, book.pdf, answer.pdf, answer.json).
    Book(BookArgs),
    /// Print the OpenAPI description (YAML) generated from the code: `openapi.yaml`.
    Openapi,
}

#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// The book's serial number (case, spaces and hyphens are ignored).
    #[arg(long)]
    pub serial: String,
    /// The server's book secret.
    #[arg(long, env = "PUZZLEPRESS_SECRET", hide_env_values = true)]
    pub secret: String,
    #[arg(long, default_value_t = 200)]
    pub pages: u32,
    #[arg(long, default_value_t = 32)]
    pub rows: u32,
    #[arg(long, default_value_t = 20)]
    pub cols: u32,
    /// Directory to write into (created if missing).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(Args, Debug, Clone)]
pub struct DatabaseArgs {
    /// `sqlite://FILE` (created if missing) or `postgres://USER@HOST:PORT/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://puzzlepress.db")]
    pub database_url: String,
}

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, env = "PUZZLEPRESS_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Jobs run at once by this process (default: available cores; 0 = accept jobs but run none).
    #[arg(long, env = "PUZZLEPRESS_WORKERS")]
    pub workers: Option<usize>,

    /// Queued jobs accepted before new ones are refused with 503.
    #[arg(long, env = "PUZZLEPRESS_QUEUE_LIMIT", default_value_t = 1000)]
    pub queue_limit: i64,

    /// Key from which per-book seeds are derived. If unset, one is generated once and kept
    /// in the database, so every restart and every replica derives the same books.
    #[arg(long, env = "PUZZLEPRESS_SECRET", hide_env_values = true)]
    pub secret: Option<String>,

    /// Seconds a worker's claim on a job lasts without a heartbeat; after it, another
    /// worker re-runs the job.
    #[arg(long, env = "PUZZLEPRESS_LEASE_SECS", default_value_t = 30.0)]
    pub lease_secs: f64,

    /// Milliseconds between idle workers' looks at the queue when nothing woke them.
    #[arg(long, env = "PUZZLEPRESS_POLL_MS", default_value_t = 1000)]
    pub poll_ms: u64,

    /// Runs of a job (counting crashed ones) before it is marked failed.
    #[arg(long, env = "PUZZLEPRESS_MAX_ATTEMPTS", default_value_t = 3)]
    pub max_attempts: i64,

    /// On SIGTERM/Ctrl-C, seconds running jobs get to finish before they are handed back
    /// to the queue.
    #[arg(long, env = "PUZZLEPRESS_SHUTDOWN_GRACE_SECS", default_value_t = 20.0)]
    pub shutdown_grace_secs: f64,

    /// Seconds before a request is abandoned with 408.
    #[arg(long, env = "PUZZLEPRESS_REQUEST_TIMEOUT_SECS", default_value_t = 30.0)]
    pub request_timeout_secs: f64,

    /// Requests handled at once; more wait their turn.
    #[arg(long, env = "PUZZLEPRESS_MAX_CONCURRENT_REQUESTS", default_value_t = 512)]
    pub max_concurrent_requests: usize,
}
