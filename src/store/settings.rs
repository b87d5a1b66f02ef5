//! Server-wide settings kept in the database.

use super::{with_pool, Result, Store};

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

    /// The stored value of `name`, if any.
    #[tracing::instrument(skip(self), err)]
    pub async fn setting(&self, name: &str) -> Result<Option<String>> {
        let value: Option<String> = with_pool!(self, p => {
            sqlx::query_scalar("SELECT value FROM settings WHERE name = $1").bind(name).fetch_optional(p).await?
        });
        Ok(value)
    }
}
