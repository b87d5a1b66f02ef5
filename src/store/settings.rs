//! Server-wide settings kept in the database.

use super::{with_pool, Result, Store};

/// The setting that keeps a server closed once it has had API keys: `closed` from the
/// first key on (even when every key is revoked later), `open` only when an operator
/// says so (`puzzlepress keys open`).
pub const ACCESS: &str = "access";

/// Stores `access` = `closed` (on an executor, within the caller's transaction).
pub(super) const CLOSE: &str =
    "INSERT INTO settings (name, value) VALUES ('access', 'closed') ON CONFLICT (name) DO UPDATE SET value = excluded.value";

impl Store {
    /// Returns the stored value of `name`, first storing `candidate` if there is none.
    /// Every process racing here ends up with the same value: the first insert wins.
    #[tracing::instrument(skip(self, candidate), err)]
    pub async fn setting_or_insert(&self, name: &str, candidate: &str) -> Result<String> {
        let value: String = with_pool!(self, p => {
            sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(candidate)
                .execute(p)
                .await?;
            sqlx::query_scalar("SELECT value FROM settings WHERE name = $1")
                .bind(name)
                .fetch_one(p)
                .await?
        });
        Ok(value)
    }

    /// Stores `value` as `name`, replacing what was there.
    #[tracing::instrument(skip(self, value), err)]
    pub async fn set_setting(&self, name: &str, value: &str) -> Result<()> {
        with_pool!(self, p => {
            sqlx::query(
                "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )
            .bind(name)
            .bind(value)
            .execute(p)
            .await?;
        });
        Ok(())
    }

    /// The stored value of `name`, if any.
    #[tracing::instrument(skip(self), err)]
    pub async fn setting(&self, name: &str) -> Result<Option<String>> {
        let value: Option<String> = with_pool!(self, p => {
            sqlx::query_scalar("SELECT value FROM settings WHERE name = $1").bind(name).fetch_optional(p).await?
        });
        Ok(value)
    }

    /// Whether callers see only their own things: while a key is active, and once a key
    /// has existed, until an operator reopens the server ([`Store::reopen`]). Fails closed:
    /// a revoked last key leaves the server closed.
    #[tracing::instrument(skip(self), level = "debug", err)]
    pub async fn closed(&self) -> Result<bool> {
        let sql = "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1) AS k) \
                   + (SELECT COUNT(*) FROM settings WHERE name = 'access' AND value = 'closed')";
        let n: i64 = with_pool!(self, p => sqlx::query_scalar(sql).fetch_one(p).await?);
        Ok(n > 0)
    }

    /// Opens a server that has no active key again (everyone sees everything, as before
    /// its first key). False, changing nothing, while a key is active.
    #[tracing::instrument(skip(self), err)]
    pub async fn reopen(&self) -> Result<bool> {
        let opened = with_pool!(self, p => {
            let mut tx = p.begin().await?;
            let active: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL")
                .fetch_one(&mut *tx)
                .await?;
            if active == 0 {
                sqlx::query(
                    "INSERT INTO settings (name, value) VALUES ($1, 'open') \
                     ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                )
                .bind(ACCESS)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            active == 0
        });
        Ok(opened)
    }
}
