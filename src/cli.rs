//! Command-line interface: `serve` (the default), `migrate`, `book`, `keys`, `health`,
//! `openapi`; and the book secret, which comes from the environment only.

use std::ffi::OsString;
use std::net::SocketAddr;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand};

/// `serve`'s listen address when neither `--bind` nor `PUZZLEPRESS_BIND` is given.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

const SERVE_SECRET_HELP: &str = "The book secret comes from the environment, never from a flag: \
PUZZLEPRESS_SECRET, or PUZZLEPRESS_SECRET_FILE naming a file that holds it (line breaks at its end are dropped). \
If neither is set, one is generated once and kept in the database.";

const BOOK_SECRET_HELP: &str = "The server's book secret comes from the environment, never from a flag: \
PUZZLEPRESS_SECRET, or PUZZLEPRESS_SECRET_FILE naming a file that holds it (line breaks at its end are dropped).";

#[derive(Parser, Debug)]
#[command(name = "puzzlepress", version, about = "Prints unique Find-the-Fox books and solves puzzles, over HTTP")]
#[command(args_conflicts_with_subcommands = true, after_help = SERVE_SECRET_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `serve`'s options, so that plain `puzzlepress --bind …` serves.
    #[command(flatten)]
    pub serve: ServeArgs,
}

// Each subcommand's arguments are made only when it runs (clap's `defer`): made for every
// subcommand, they were a millisecond of a dictionary's 18, most of it the kernel clearing
// the memory they spread over.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum Command {
    /// Run the HTTP service and its workers (the default).
    #[command(after_help = SERVE_SECRET_HELP)]
    Serve(ServeArgs),
    /// Apply database migrations and exit.
    Migrate(DatabaseArgs),
    /// Print a Find the Fox book offline: the same files the server gives for this secret
    /// and serial (book.txt, book.pdf, cover.pdf, answer.pdf, answer.json).
    #[command(after_help = BOOK_SECRET_HELP)]
    Book(BookArgs),
    /// Print a run of copies offline, laid out as a print run's archive: DIR/SERIAL/
    /// interior.pdf and answer.pdf per copy (each its own random serial) and
    /// DIR/manifest.csv.
    #[command(after_help = BOOK_SECRET_HELP)]
    Printrun(PrintRunArgs),
    /// Create, list and revoke API keys; reopen a service whose keys are all revoked.
    Keys(KeysArgs),
    /// The book secret, for operators (`secret show` prints the one `serve` uses).
    Secret(SecretArgs),
    /// Print the OpenAPI description (YAML) generated from the code: `openapi.yaml`.
    Openapi,
    /// Health check for containers: GET a running server's /healthz; exit 0 on 200 within
    /// 2 s, else 1 with the reason on stderr.
    Health(HealthArgs),
    /// Typeset a dictionary offline: entries from a text file, one a line
    /// (`headword;pos;definition` with further `;pos;definition` pairs for more senses),
    /// sorted, in two columns, written as a PDF.
    Dictionary(DictionaryArgs),
    /// Make a book of word searches offline: DIR/book.pdf, DIR/cover.pdf, DIR/puzzles.json
    /// (the grids and where each word is) and DIR/request.json (the request with its seed:
    /// POST it to /wordsearches/books for the same bytes).
    Wordsearch(WordSearchArgs),
}

/// The one-shot offline commands (`dictionary`, `wordsearch`) read from `args` (the
/// program's name first) with only their own arguments made: the whole parser makes the
/// server's flags and their help first, a third of a millisecond of a dictionary's start.
/// None for any other command, and for a mistake or a request for help, which the whole
/// parser then reads and reports as it always does.
pub fn one_shot(args: impl IntoIterator<Item = OsString>) -> Option<Command> {
    use clap::FromArgMatches;
    let args: Vec<OsString> = args.into_iter().skip(1).collect();
    let parse = |cmd: clap::Command| cmd.no_binary_name(true).try_get_matches_from(&args[1..]).ok();
    match args.first()?.to_str()? {
        "dictionary" => {
            let matches = parse(DictionaryArgs::augment_args(clap::Command::new("dictionary")))?;
            DictionaryArgs::from_arg_matches(&matches).ok().map(Command::Dictionary)
        }
        "wordsearch" => {
            let matches = parse(WordSearchArgs::augment_args(clap::Command::new("wordsearch")))?;
            WordSearchArgs::from_arg_matches(&matches).ok().map(Command::Wordsearch)
        }
        _ => None,
    }
}

#[derive(Args, Debug, Clone)]
pub struct WordSearchArgs {
    /// The lists: a text file with one puzzle a line, `Title: word, word, …` (the title and
    /// colon optional; blank lines and lines starting with `#` skipped), or a JSON file
    /// holding the whole request as `POST /wordsearches/books` takes it.
    #[arg(long)]
    pub lists: std::path::PathBuf,
    /// Directory to write into (created if missing).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The same lists and seed make the same book; without one a seed is drawn (and
    /// written in request.json). With a JSON request, its own seed wins.
    #[arg(long)]
    pub seed: Option<u64>,
    /// With text lists: the book's title.
    #[arg(long, default_value = "Word Search")]
    pub title: String,
    /// With text lists: easy, medium, hard or expert.
    #[arg(long, default_value = "medium")]
    pub level: String,
    /// With text lists: the grids' rows and columns.
    #[arg(long, default_value_t = 15)]
    pub rows: usize,
    #[arg(long, default_value_t = 15)]
    pub cols: usize,
    /// With text lists: letter, 6x9, 5.5x8.5, 7x10, a4, a5, 5.25x8 or WxH in inches.
    #[arg(long, default_value = "letter")]
    pub trim: String,
    /// With text lists: grid letters of at least 18 pt, lists of 16.
    #[arg(long)]
    pub large_print: bool,
    /// The cover's paper (its spine's width): white or cream.
    #[arg(long, default_value = "white")]
    pub paper: String,
    /// The cover's colours: fox, forest, ocean, plum or sand (default ocean).
    #[arg(long, value_parser = crate::render::layouts::cover::Palette::parse)]
    pub palette: Option<crate::render::layouts::cover::Palette>,
}

#[derive(Args, Debug, Clone)]
pub struct SecretArgs {
    #[command(subcommand)]
    pub command: SecretCommand,
    #[command(flatten)]
    pub database: NestedDatabaseArgs,
}

#[derive(Subcommand, Debug, Clone)]
pub enum SecretCommand {
    /// Print the book secret: PUZZLEPRESS_SECRET(_FILE) if set, else the one `serve`
    /// generated and keeps in the database.
    Show,
}

#[derive(Args, Debug, Clone)]
pub struct KeysArgs {
    #[command(subcommand)]
    pub command: KeysCommand,
    #[command(flatten)]
    pub database: NestedDatabaseArgs,
}

#[derive(Subcommand, Debug, Clone)]
pub enum KeysCommand {
    /// Create a key and print its token (once; only a hash is stored).
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, value_enum, default_value_t = crate::keys::Role::Publisher)]
        role: crate::keys::Role,
    },
    /// List every key (never their tokens).
    List,
    /// Revoke the key with this name: its token stops working at once. Revoking the last
    /// key leaves the service closed (callers without a key see only their own things).
    Revoke { name: String },
    /// Reopen a service that has no active key: everyone sees everything again, as before
    /// its first key. Refused while a key is active; creating a key closes it again.
    Open,
}

#[derive(Args, Debug, Clone)]
pub struct HealthArgs {
    /// URL to probe (http:// only). Default: /healthz on the port of PUZZLEPRESS_BIND
    /// (else 8080), over loopback when it is 0.0.0.0 or [::], so the command matches the
    /// server it runs next to.
    #[arg(long)]
    pub url: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct DictionaryArgs {
    /// The entries (UTF-8 text), one a line: `headword;pos;definition[;pos;definition…]`.
    #[arg(long)]
    pub entries: std::path::PathBuf,
    /// Where to write the PDF.
    #[arg(long)]
    pub out: std::path::PathBuf,
    #[arg(long, default_value = "Dictionary")]
    pub title: String,
    #[arg(long, default_value = "")]
    pub author: String,
    /// The copyright line on the title page's back, e.g. "© 2026 Example Press".
    #[arg(long)]
    pub copyright: Option<String>,
    /// The ISBN on the title page's back (ISBN-13 or ISBN-10, hyphens allowed).
    #[arg(long)]
    pub isbn: Option<String>,
    /// The preface (UTF-8 text, paragraphs separated by blank lines); none by default.
    #[arg(long)]
    pub preface: Option<std::path::PathBuf>,
    /// The language, an ISO 639-1 code (`en`, `de`, `es`, `sv`, …): its hyphenation patterns
    /// and its alphabetical order (Spanish Ñ after N, Swedish Å Ä Ö after Z).
    #[arg(long, default_value = "en")]
    pub language: String,
    /// Trim: letter, 6x9, 5.5x8.5, 7x10, a4, a5, 5.25x8 or WxH in inches.
    #[arg(long, default_value = "5.25x8")]
    pub trim: String,
    /// Both guide words on every page (the first at the left, the last at the right),
    /// rather than the first on left-hand pages and the last on right-hand ones.
    #[arg(long)]
    pub both_heads: bool,
}

#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// The book's serial number (case, spaces and hyphens are ignored).
    #[arg(long)]
    pub serial: String,
    #[command(flatten)]
    pub book: WordArgs,
    #[command(flatten)]
    pub print: PrintArgs,
    /// The paper the interior is printed on (white or cream); it sets the cover's spine.
    #[arg(long, default_value = "white", value_parser = crate::render::layouts::cover::Paper::parse)]
    pub paper: crate::render::layouts::cover::Paper,
    /// The cover's colours: fox, forest, ocean, plum or sand (default fox).
    #[arg(long, value_parser = crate::render::layouts::cover::Palette::parse)]
    pub palette: Option<crate::render::layouts::cover::Palette>,
    /// Directory to write into (created if missing).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Where the server keeps its generated secret, read when PUZZLEPRESS_SECRET(_FILE)
    /// is not set.
    #[command(flatten)]
    pub database: DatabaseArgs,
}

/// What book, as an order's `word`, `letters`, `shape`, `pages`, `rows` and `cols`.
#[derive(Args, Debug, Clone)]
pub struct WordArgs {
    /// The word hidden once in the book (2 to 8 letters).
    #[arg(long, default_value = "FOX")]
    pub word: String,
    /// The letters the pages are made of (default: the word's own).
    #[arg(long)]
    pub letters: Option<String>,
    /// The pages' shape: rectangle, heart, circle, star, fox, or a file of mask rows (`.` a
    /// letter cell, `#` or a space none).
    #[arg(long, value_parser = parse_shape)]
    pub shape: Option<crate::puzzles::wordbook::Shape>,
    #[arg(long, default_value_t = 200)]
    pub pages: u32,
    /// Rows of a page (default 32, or the mask's rows).
    #[arg(long)]
    pub rows: Option<u32>,
    /// Columns of a page (default 20, or the mask's width).
    #[arg(long)]
    pub cols: Option<u32>,
}

fn parse_shape(text: &str) -> Result<crate::puzzles::wordbook::Shape, String> {
    use crate::puzzles::wordbook::{Shape, SHAPE_NAMES};
    if let Some((_, shape)) = SHAPE_NAMES.iter().find(|(name, _)| *name == text) {
        return Ok(shape.clone());
    }
    let rows = std::fs::read_to_string(text).map_err(|e| {
        format!("{text:?} is neither a shape (rectangle, heart, circle, star, fox) nor a readable mask file: {e}")
    })?;
    Ok(Shape::Mask(rows.lines().map(str::to_owned).collect()))
}

impl WordArgs {
    /// The book, checked as the server checks an order (word and letters read in upper case).
    pub fn spec(&self) -> anyhow::Result<crate::puzzles::wordbook::WordSpec> {
        let spec = crate::puzzles::wordbook::WordSpec::with_defaults(
            Some(self.word.to_ascii_uppercase()),
            self.letters.as_ref().map(|l| l.to_ascii_uppercase()),
            self.shape.clone(),
            Some(self.pages),
            self.rows,
            self.cols,
        );
        spec.validate().map_err(|e| anyhow::anyhow!("--{}: {}", e.field, e.detail))?;
        Ok(spec)
    }
}

/// How a book is printed, as an order's `trim`, `title`, `lookup_url`, `author`,
/// `copyright` and `isbn`.
#[derive(Args, Debug, Clone)]
pub struct PrintArgs {
    /// Trim: letter, 6x9, 5.5x8.5, 7x10, a4, a5, 5.25x8 or WxH in inches (as the order's `trim`).
    #[arg(long, default_value = "letter")]
    pub trim: String,
    /// The title (as the order's `title`; default "Find the" and the word).
    #[arg(long)]
    pub title: Option<String>,
    /// The lookup address printed with the serial, as the book's `lookup_url` (`GET
    /// /books/{serial}` shows it); empty for none. Required by `printrun`; for `book`, the
    /// default is what `serve` gives books on its default address.
    #[arg(long)]
    pub lookup_url: Option<String>,
    /// The author, on the title page and the front cover (as the order's `author`).
    #[arg(long)]
    pub author: Option<String>,
    /// The copyright line, on the back of the title page (as the order's `copyright`).
    #[arg(long)]
    pub copyright: Option<String>,
    /// ISBN-10 or ISBN-13, on the back of the title page and as the cover's barcode (as
    /// the order's `isbn`).
    #[arg(long)]
    pub isbn: Option<String>,
}

impl PrintArgs {
    /// The print options for a book of `spec`, checked as the server checks an order's.
    pub fn options(
        &self,
        spec: &crate::puzzles::wordbook::WordSpec,
    ) -> anyhow::Result<crate::render::print::PrintOptions> {
        let trim = crate::render::print::Trim::parse(&self.trim)
            .map_err(|e| anyhow::anyhow!("--trim {:?}: {e}", self.trim))?;
        let opts = crate::render::print::PrintOptions {
            trim,
            title: self
                .title
                .as_deref()
                .map_or_else(|| crate::render::print::default_title(&spec.word), |t| t.trim().to_string()),
            lookup_url: self
                .lookup_url
                .clone()
                .unwrap_or_else(|| lookup_url_for(DEFAULT_BIND.parse().expect("the default bind parses"))),
            imprint: crate::render::print::Imprint {
                author: self.author.clone(),
                copyright: self.copyright.clone(),
                isbn: self.isbn.clone(),
            }
            .checked()
            .map_err(|(field, e)| anyhow::anyhow!("--{field}: {e}"))?,
        };
        opts.validate().map_err(|(field, e)| anyhow::anyhow!("--{}: {e}", field.replace('_', "-")))?;
        crate::render::layouts::foxbook::check_letter_size(spec.size(), trim)
            .map_err(|e| anyhow::anyhow!("--trim: {e}"))?;
        Ok(opts)
    }
}

#[derive(Args, Debug, Clone)]
pub struct PrintRunArgs {
    /// How many copies (1..10000).
    #[arg(long)]
    pub copies: u32,
    #[command(flatten)]
    pub book: WordArgs,
    #[command(flatten)]
    pub print: PrintArgs,
    /// The paper the interiors are printed on (white or cream); it sets the covers' spine.
    #[arg(long, default_value = "white", value_parser = crate::render::layouts::cover::Paper::parse)]
    pub paper: crate::render::layouts::cover::Paper,
    /// Directory to write into (created if missing): DIR/SERIAL/interior.pdf, cover.pdf,
    /// answer.pdf and DIR/manifest.csv.
    #[arg(long, conflicts_with = "zip")]
    pub out: Option<std::path::PathBuf>,
    /// Write the same files as one ZIP instead (as `GET /printruns/{id}/archive.zip`), made
    /// as the copies print; `-` for standard output.
    #[arg(long)]
    pub zip: Option<std::path::PathBuf>,
    /// Threads printing copies (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where the server keeps its generated secret, read when PUZZLEPRESS_SECRET(_FILE)
    /// is not set.
    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Args, Debug, Clone)]
pub struct DatabaseArgs {
    /// `sqlite://FILE` or `postgres://USER@HOST:PORT/DB` (created if missing).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://puzzlepress.db")]
    pub database_url: String,
}

/// [`DatabaseArgs`] of a command with subcommands of its own, given before or after them
/// (`keys --database-url URL create` or `keys create --database-url URL`). Not `serve`'s:
/// its arguments are the top level's too, and a global argument there would be `serve`'s
/// twice.
#[derive(Args, Debug, Clone)]
pub struct NestedDatabaseArgs {
    /// `sqlite://FILE` or `postgres://USER@HOST:PORT/DB` (created if missing).
    #[arg(long, global = true, env = "DATABASE_URL", default_value = "sqlite://puzzlepress.db")]
    pub database_url: String,
}

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, env = "PUZZLEPRESS_BIND", default_value = DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// A second address serving only `GET /metrics`, without a key (for a Prometheus
    /// scraper on a private network; keep it off public interfaces). Off by default.
    #[arg(long, env = "PUZZLEPRESS_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,

    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Jobs run at once by this process (default: available cores; 0 = accept jobs but run none).
    #[arg(long, env = "PUZZLEPRESS_WORKERS")]
    pub workers: Option<usize>,

    /// Queued jobs accepted before new ones are refused with 503.
    #[arg(long, env = "PUZZLEPRESS_QUEUE_LIMIT", default_value_t = 1000)]
    pub queue_limit: i64,

    /// Queued jobs of callers without a key (once keys are in use), all together, before
    /// theirs are refused with 503; the rest of the queue is kept for key holders
    /// (default: half the queue limit).
    #[arg(long, env = "PUZZLEPRESS_ANONYMOUS_QUEUE_LIMIT")]
    pub anonymous_queue_limit: Option<i64>,

    /// Serve without API keys on a non-loopback address: anyone who can reach it may order
    /// books and read every book. Without it, such a server refuses to start until a key
    /// exists (`puzzlepress keys create`).
    #[arg(long, env = "PUZZLEPRESS_OPEN")]
    pub open: bool,

    /// Start with a book secret other than the one this database's books were made with
    /// (without it such a server refuses to start): books printed before keep their pages
    /// and answers, but `puzzlepress book` can no longer print them again.
    #[arg(long, env = "PUZZLEPRESS_NEW_BOOK_SECRET")]
    pub new_book_secret: bool,

    /// Jobs one API key may have queued or running at once; more are refused with 429.
    #[arg(long, env = "PUZZLEPRESS_JOBS_PER_KEY", default_value_t = 100)]
    pub jobs_per_key: i64,

    /// Jobs one anonymous client address may have queued or running at once.
    #[arg(long, env = "PUZZLEPRESS_JOBS_PER_ADDRESS", default_value_t = 10)]
    pub jobs_per_address: i64,

    /// MiB of kept products (books, dictionaries, fills: requests, results and pages) one
    /// API key may keep; past it new products are refused with 507.
    #[arg(long, env = "PUZZLEPRESS_STORAGE_PER_KEY_MIB", default_value_t = 10_240)]
    pub storage_per_key_mib: i64,

    /// MiB of kept products one client address without a key may keep once the service is
    /// closed (they are deleted --retention-days after they were made).
    #[arg(long, env = "PUZZLEPRESS_STORAGE_PER_ADDRESS_MIB", default_value_t = 4)]
    pub storage_per_address_mib: i64,

    /// Largest request kept with a job, in KiB (the JSON of its params).
    #[arg(long, env = "PUZZLEPRESS_MAX_PARAMS_KIB", default_value_t = 1024)]
    pub max_params_kib: usize,

    /// Days finished jobs are kept (products of key holders are kept for good; those made
    /// without a key, once the service is closed, for this long too).
    #[arg(long, env = "PUZZLEPRESS_RETENTION_DAYS", default_value_t = 7.0)]
    pub retention_days: f64,

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

    /// Requests handled at once; more wait their turn. /healthz and /readyz are outside it.
    #[arg(long, env = "PUZZLEPRESS_MAX_CONCURRENT_REQUESTS", default_value_t = 512)]
    pub max_concurrent_requests: usize,

    /// A JSON file of the engines' maxima per tier of caller, `{"publisher": {…},
    /// "anonymous": {…}}`, each member optional (see the README); without it, the defaults.
    #[arg(long, env = "PUZZLEPRESS_LIMITS_FILE")]
    pub limits: Option<std::path::PathBuf>,

    /// Seconds a client may take from connecting to the end of its first request's headers
    /// before it is cut off.
    #[arg(long, env = "PUZZLEPRESS_HEADER_TIMEOUT_SECS", default_value_t = 10.0)]
    pub header_timeout_secs: f64,

    /// Seconds a kept-alive connection may take from the end of a response to the end of
    /// its next request's headers before it is closed.
    #[arg(long, env = "PUZZLEPRESS_IDLE_TIMEOUT_SECS", default_value_t = 10.0)]
    pub idle_timeout_secs: f64,

    /// Connections open at once (default and maximum: the open-file limit less 128). At
    /// the bound the oldest connection with no request in flight is closed for a new one;
    /// when every one has a request in flight, 8 more are taken for /healthz and /readyz.
    #[arg(long, env = "PUZZLEPRESS_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,

    /// Bytes a second a client must read of a response it holds up (averaged over each
    /// --idle-timeout-secs), else the connection is closed; a faster client gets it whole.
    #[arg(long, env = "PUZZLEPRESS_MIN_RESPONSE_BYTES_PER_SEC", default_value_t = 4096)]
    pub min_response_bytes_per_sec: u64,

    /// Seconds a request body may take before the minimum rate applies; a body that
    /// stalls this long is abandoned with 408.
    #[arg(long, env = "PUZZLEPRESS_BODY_TIMEOUT_SECS", default_value_t = 10.0)]
    pub body_timeout_secs: f64,

    /// Bytes a second a request body must average after --body-timeout-secs (else 408).
    #[arg(long, env = "PUZZLEPRESS_MIN_BODY_BYTES_PER_SEC", default_value_t = 4096)]
    pub min_body_bytes_per_sec: u64,

    /// Requests one API key may have in progress at once; more get 429.
    #[arg(long, env = "PUZZLEPRESS_MAX_REQUESTS_PER_KEY", default_value_t = 128)]
    pub max_requests_per_key: usize,

    /// Requests one client address (IPv6: /64) without a valid key may have in progress
    /// at once; more get 429.
    #[arg(long, env = "PUZZLEPRESS_MAX_REQUESTS_PER_ADDRESS", default_value_t = 32)]
    pub max_requests_per_address: usize,

    /// Word list uploads one caller (key, or address without one) may have in progress at
    /// once; more get 429.
    #[arg(long, env = "PUZZLEPRESS_MAX_UPLOADS_PER_CALLER", default_value_t = 4)]
    pub max_uploads_per_caller: usize,

    /// Host names requests may be addressed to (the Host header), comma-separated; others
    /// get 421 (DNS rebinding). IP addresses, localhost and the host of --lookup-url are
    /// always allowed; `*` allows any. Default: this machine's host name when --bind is a
    /// wildcard address.
    #[arg(long, env = "PUZZLEPRESS_ALLOWED_HOSTS", value_delimiter = ',')]
    pub allowed_hosts: Option<Vec<String>>,

    /// Requests without a valid API key per client address (IPv6: per /64) and minute;
    /// more get 429 with Retry-After. Bursts of a quarter of it are allowed.
    #[arg(long, env = "PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE", default_value_t = 300)]
    pub anonymous_requests_per_minute: u32,

    /// PDFs rendered at once for downloads, all callers together (default: available
    /// cores); a download that cannot start within 10 s gets 503 with Retry-After.
    #[arg(long, env = "PUZZLEPRESS_MAX_RENDERS")]
    pub max_renders: Option<usize>,

    /// PDFs one caller may have rendering (or waiting to) at once; more get 429 with
    /// Retry-After.
    #[arg(long, env = "PUZZLEPRESS_RENDERS_PER_CALLER", default_value_t = 2)]
    pub renders_per_caller: usize,

    /// MiB of rendered PDFs kept for further downloads (a PDF larger than a quarter
    /// of it is not kept).
    #[arg(long, env = "PUZZLEPRESS_RENDER_CACHE_MIB", default_value_t = 64)]
    pub render_cache_mib: usize,

    /// Where readers look a book's answer up: printed with the serial (and as a QR code)
    /// on the back of every book's title page, unless the order names its own. Default:
    /// this server's find page, http://BIND/ (localhost for a wildcard address).
    #[arg(long, env = "PUZZLEPRESS_LOOKUP_URL")]
    pub lookup_url: Option<String>,
}

impl ServeArgs {
    /// The lookup address books get when their order names none.
    pub fn default_lookup_url(&self) -> String {
        self.lookup_url.clone().unwrap_or_else(|| lookup_url_for(self.bind))
    }
}

/// The find page of a server listening on `bind` (localhost for a wildcard address).
fn lookup_url_for(bind: SocketAddr) -> String {
    if bind.ip().is_unspecified() {
        format!("http://localhost:{}/", bind.port())
    } else {
        format!("http://{bind}/")
    }
}

pub const SECRET_ENV: &str = "PUZZLEPRESS_SECRET";
pub const SECRET_FILE_ENV: &str = "PUZZLEPRESS_SECRET_FILE";

/// The book secret from `PUZZLEPRESS_SECRET`, or from the file `PUZZLEPRESS_SECRET_FILE`
/// names (a mounted Docker or Kubernetes secret), without the line breaks ending the file.
/// Never a flag: command lines show in `ps` and in shell history. `None` when neither is
/// set; an empty secret is an error rather than a quiet fallback to the generated one.
/// The book secret as `serve` uses it: configured (environment or file), else the one
/// kept in the database at `database_url` (refused when there is none yet).
pub async fn book_secret(database_url: &str) -> anyhow::Result<String> {
    if let Some(secret) = configured_secret()? {
        return Ok(secret);
    }
    let store = crate::store::Store::connect(database_url).await?;
    // A database `serve` never ran on has no settings table: the same answer as no secret.
    let stored = store.setting(crate::store::BOOK_SECRET).await.ok().flatten();
    store.close().await;
    match stored {
        Some(secret) if !secret.is_empty() => Ok(secret),
        _ => bail!(
            "no book secret: {database_url} holds none yet (`serve` makes one at its first start) and neither \
             {SECRET_ENV} nor {SECRET_FILE_ENV} is set"
        ),
    }
}

pub fn configured_secret() -> anyhow::Result<Option<String>> {
    secret_from(|name| std::env::var_os(name))
}

fn secret_from(var: impl Fn(&str) -> Option<OsString>) -> anyhow::Result<Option<String>> {
    let (secret, source) = match (var(SECRET_ENV), var(SECRET_FILE_ENV)) {
        (Some(_), Some(_)) => bail!("set {SECRET_ENV} or {SECRET_FILE_ENV}, not both"),
        (Some(value), None) => (
            value.into_string().map_err(|_| anyhow::anyhow!("{SECRET_ENV} is not valid UTF-8"))?,
            SECRET_ENV.to_string(),
        ),
        (None, Some(path)) => {
            if path.is_empty() {
                bail!("{SECRET_FILE_ENV} is set but empty: it should name the file holding the secret");
            }
            let path = std::path::PathBuf::from(path);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("{SECRET_FILE_ENV}: cannot read the secret from {}", path.display()))?;
            // Editors and `echo` end files with a newline that is no part of the secret.
            (text.trim_end_matches(['\n', '\r']).to_string(), format!("{SECRET_FILE_ENV} ({})", path.display()))
        }
        (None, None) => return Ok(None),
    };
    if secret.is_empty() {
        bail!("the book secret from {source} is empty; give a non-empty one, or set neither variable to let `serve` generate one and keep it in the database");
    }
    Ok(Some(secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(vars: &[(&str, &str)]) -> anyhow::Result<Option<String>> {
        secret_from(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v)))
    }

    #[test]
    fn every_command_is_well_formed() {
        // clap's own checks of every (sub)command's arguments, which it makes only in debug
        // builds as they are parsed: `serve --help` of a debug build once panicked on a
        // database URL argument defined twice (global at the top and the subcommand's own).
        // (It builds the subcommands too, deferred or not.)
        <Cli as clap::CommandFactory>::command().debug_assert();
    }

    fn temp_file(contents: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("pp-secret-{}", uuid::Uuid::new_v4().simple()));
        std::fs::write(&path, contents).unwrap();
        path
    }

    #[test]
    fn the_secret_comes_from_the_variable_or_the_file_without_its_trailing_newline() {
        assert_eq!(secret(&[]).unwrap(), None);
        assert_eq!(secret(&[(SECRET_ENV, "s3cret")]).unwrap().as_deref(), Some("s3cret"));
        for contents in ["s3cret", "s3cret\n", "s3cret\r\n"] {
            let path = temp_file(contents);
            let got = secret(&[(SECRET_FILE_ENV, path.to_str().unwrap())]).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(got.as_deref(), Some("s3cret"), "file holding {contents:?}");
        }
    }

    #[test]
    fn empty_missing_or_doubly_given_secrets_are_refused() {
        let empty = secret(&[(SECRET_ENV, "")]).unwrap_err().to_string();
        assert!(empty.contains("PUZZLEPRESS_SECRET is empty"), "{empty}");
        let path = temp_file("\n");
        let empty_file = secret(&[(SECRET_FILE_ENV, path.to_str().unwrap())]).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(empty_file.contains("is empty") && empty_file.contains(path.to_str().unwrap()), "{empty_file}");
        let missing = format!("{:#}", secret(&[(SECRET_FILE_ENV, "/nonexistent/secret")]).unwrap_err());
        assert!(missing.contains("/nonexistent/secret"), "{missing}");
        assert!(secret(&[(SECRET_FILE_ENV, "")]).is_err());
        assert!(secret(&[(SECRET_ENV, "a"), (SECRET_FILE_ENV, "/x")]).unwrap_err().to_string().contains("not both"));
    }

    #[test]
    fn one_shot_commands_are_read_as_the_whole_parser_reads_them() {
        let os = |args: &[&str]| args.iter().map(OsString::from).collect::<Vec<_>>();
        let read = [
            &["puzzlepress", "dictionary", "--entries", "e.txt", "--out", "d.pdf"][..],
            &["pp", "dictionary", "--out=d.pdf", "--entries", "e", "--title", "T", "--both-heads", "--trim", "a5"],
            &[
                "pp",
                "dictionary",
                "--entries",
                "e",
                "--out",
                "o",
                "--language",
                "sv",
                "--preface",
                "p",
                "--author",
                "A",
            ],
            &["pp", "wordsearch", "--lists", "l.txt", "--out", "dir"],
            &["pp", "wordsearch", "--lists", "l", "--out", "d", "--seed", "7", "--large-print", "--level", "hard"],
        ];
        for args in read {
            let fast = one_shot(os(args)).unwrap_or_else(|| panic!("{args:?} read by the fast path"));
            let whole = Cli::try_parse_from(args).unwrap().command.unwrap();
            assert_eq!(format!("{fast:?}"), format!("{whole:?}"), "{args:?}");
        }
        // Help, mistakes and every other command are left to the whole parser.
        for args in [
            &["pp", "dictionary", "--help"][..],
            &["pp", "dictionary", "--entries", "e"],
            &["pp", "dictionary", "--entries", "e", "--out", "o", "--bind", "x"],
            &["pp", "wordsearch", "-h"],
            &["pp", "serve"],
            &["pp", "--bind", "127.0.0.1:1"],
            &["pp"],
            &["pp", "book", "--serial", "NCB5919RTQP", "--out", "o"],
        ] {
            assert!(one_shot(os(args)).is_none(), "{args:?}");
        }
    }

    #[test]
    fn every_command_is_well_formed_though_made_only_when_it_runs() {
        // `debug_assert` builds the deferred subcommands too.
        <Cli as clap::CommandFactory>::command().debug_assert();
    }

    #[test]
    fn no_command_takes_the_secret_as_a_flag() {
        for args in [
            &["puzzlepress", "--secret", "x"][..],
            &["puzzlepress", "serve", "--secret", "x"],
            &["puzzlepress", "book", "--serial", "NCB5919RTQP", "--out", "o", "--secret", "x"],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument, "{args:?}");
        }
    }
}
