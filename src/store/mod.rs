//! The database layer: one `Store` over two backends, SQLite (embedded default) and
//! PostgreSQL (production, shared by several service processes).
//!
//! Both backends run the same SQL text wherever the dialects agree (`$N` placeholders,
//! `RETURNING`, times as BIGINT milliseconds); the few places that differ (claiming,
//! notifications, migrations, connection options) are spelled out per backend.

mod books;
mod clock;
mod jobs;
mod keys;
mod listings;
mod printruns;
mod settings;
mod wordlists;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

pub use books::{BookRecord, NewBook, OrderedBook, PrintedBook};
pub use clock::Clock;
pub use jobs::{
    Admission, Attempt, Claimed, Job, JobCount, JobState, Lease, NewJob, Occupancy, OnInsert, OnSuccess, Outcome,
    QueueListener, Refusal, Tier,
};
pub use keys::ApiKey;
pub use listings::{JobFilter, JobSummary};
pub use printruns::{NewPrintRun, PrintRunCopy, PrintRunRecord};
pub use wordlists::{NewWordList, Saved, WordListQuota, WordListRecord};

/// Which database a `Store` talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$p` bound to whichever pool the store has; the body is written once
/// and type-checked against both drivers.
macro_rules! with_pool {
    ($store:expr, $p:ident => $body:expr) => {
        match &$store.pool {
            $crate::store::Pool::Sqlite($p) => $body,
            $crate::store::Pool::Postgres($p) => $body,
        }
    };
}
pub(crate) use with_pool;

/// Lets a column be read as `$ty` on either backend: decoded as `$text`, then converted
/// with `$ty`'s `TryFrom<$text>`, whose [`CorruptValue`] names what does not read back.
macro_rules! decode_via {
    ($text:ty => $ty:ty) => {
        impl<DB: sqlx::Database> sqlx::Type<DB> for $ty
        where
            $text: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <$text as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <$text as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $ty
        where
            $text: sqlx::Decode<'r, DB>,
        {
            fn decode(value: DB::ValueRef<'r>) -> std::result::Result<$ty, sqlx::error::BoxDynError> {
                Ok(<$ty>::try_from(<$text as sqlx::Decode<'r, DB>>::decode(value)?)?)
            }
        }
    };
}
pub(crate) use decode_via;

/// The setting holding the book secret `serve` generated (when none is configured).
pub const BOOK_SECRET: &str = "book_secret";

/// Errors from the database layer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The configured URL is not one we can use.
    #[error("database URL: {0}")]
    BadUrl(String),
    #[error("database: {0}")]
    Database(#[source] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A job not queued: its admission's limits are reached.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Stored data that does not parse (a bug or manual tampering), never user input.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

/// A stored value that does not read back (a state this version does not know, an answer
/// that is not JSON): a row holding one fails to decode as [`StoreError::Corrupt`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CorruptValue(String);

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match e {
            sqlx::Error::ColumnDecode { source, .. } if source.is::<CorruptValue>() => {
                StoreError::Corrupt(source.to_string())
            }
            e => StoreError::Database(e),
        }
    }
}

impl StoreError {
    /// True when the error is a unique-constraint violation (a lost race on insert).
    pub fn is_unique_violation(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::Database(e)) if e.is_unique_violation())
    }

    /// True when the database could not be reached (as opposed to a query that failed):
    /// an outage to retry, not a bug.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Database(
                sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_),
            ) => true,
            // PostgreSQL closing connections (shutdown, an operator terminating backends:
            // SQLSTATE 57P0x) or refusing them (class 08) is an outage too.
            StoreError::Database(sqlx::Error::Database(e)) => {
                e.code().is_some_and(|c| c.starts_with("57P0") || c.starts_with("08"))
            }
            _ => false,
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Connects to the PostgreSQL database `url` names, creating it first when the server has
/// none of that name, as SQLite files are created: an operator needs only a server and a
/// role allowed to create databases.
async fn connect_postgres(url: &str) -> Result<PgPool> {
    use sqlx::migrate::MigrateDatabase;
    let pool = || PgPoolOptions::new().max_connections(16).acquire_timeout(Duration::from_secs(10)).connect(url);
    match pool().await {
        // 3D000 invalid_catalog_name: no database of that name.
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("3D000") => {
            let name =
                url.parse::<sqlx::postgres::PgConnectOptions>().ok().and_then(|o| o.get_database().map(str::to_string));
            // sqlx connects to the `postgres` maintenance database and quotes the name as an
            // identifier (`CREATE DATABASE "…"`, inner quotes doubled).
            match sqlx::Postgres::create_database(url).await {
                Ok(()) => tracing::info!(database = name.as_deref().unwrap_or(""), "created the PostgreSQL database"),
                // Another process starting at the same time created it first (42P04
                // duplicate_database, or the catalog's unique index when both raced).
                Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P04") || e.is_unique_violation() => {}
                Err(e) => return Err(e.into()),
            }
            Ok(pool().await?)
        }
        other => Ok(other?),
    }
}

/// Handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    url: String,
    clock: Clock,
    /// PostgreSQL's `max_connections`: no more transactions than this can be in flight at
    /// once, whatever the number of processes (0 on SQLite, whose writers take turns).
    connections: i64,
}

impl Store {
    /// Opens the database named by `url` (`sqlite://FILE` or `postgres://…`), creating it
    /// (an SQLite file, a PostgreSQL database) if it does not exist. Does not migrate.
    pub async fn connect(url: &str) -> Result<Store> {
        let pool = if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| StoreError::BadUrl(e.to_string()))?
                .create_if_missing(true)
                // WAL lets readers (HTTP handlers) proceed while a worker writes.
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true);
            Pool::Sqlite(SqlitePoolOptions::new().max_connections(8).connect_with(options).await?)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Pool::Postgres(connect_postgres(url).await?)
        } else {
            return Err(StoreError::BadUrl(format!("{url:?} is neither sqlite://FILE nor postgres://…")));
        };
        let connections = match &pool {
            Pool::Postgres(p) => {
                let setting: String = sqlx::query_scalar("SHOW max_connections").fetch_one(p).await?;
                setting.parse().map_err(|_| StoreError::Corrupt(format!("max_connections is {setting:?}")))?
            }
            Pool::Sqlite(_) => 0,
        };
        Ok(Store { pool, url: url.to_string(), clock: Clock::Database, connections })
    }

    /// The same store with its times taken from `clock` instead of the database's (tests).
    pub fn with_clock(mut self, clock: Clock) -> Store {
        self.clock = clock;
        self
    }

    /// `template` with `{NOW}` replaced by this backend's expression for the current time
    /// in Unix milliseconds, taken from the database server's clock so that replicas with
    /// skewed clocks agree on leases. `{NOW}` reads bind parameter `$1`, which
    /// [`Store::clock_param`] fills: NULL for the database clock, a fixed time in tests.
    fn sql(&self, template: &str) -> String {
        let now = match self.pool {
            Pool::Sqlite(_) => "COALESCE($1, CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER))",
            Pool::Postgres(_) => "COALESCE($1, CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT))",
        };
        template.replace("{NOW}", now)
    }

    /// The value for `$1` in SQL made by [`Store::sql`].
    fn clock_param(&self) -> Option<i64> {
        self.clock.fixed()
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// The URL this store was opened with (for LISTEN connections).
    pub fn url(&self) -> &str {
        &self.url
    }

    pub(crate) fn postgres_pool(&self) -> Option<&PgPool> {
        match &self.pool {
            Pool::Postgres(p) => Some(p),
            Pool::Sqlite(_) => None,
        }
    }

    /// Applies the backend's migrations (idempotent; safe to run from several processes).
    #[tracing::instrument(skip(self), err)]
    pub async fn migrate(&self) -> Result<()> {
        match &self.pool {
            Pool::Sqlite(p) => sqlx::migrate!("migrations/sqlite").run(p).await,
            Pool::Postgres(p) => sqlx::migrate!("migrations/postgres").run(p).await,
        }
        .map_err(StoreError::Migrate)
    }

    /// Whether the database answers a trivial query.
    #[tracing::instrument(skip(self), level = "debug", err)]
    pub async fn ping(&self) -> Result<()> {
        with_pool!(self, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn close(&self) {
        with_pool!(self, p => p.close().await)
    }
}
