//! API keys: a name, a role, and the SHA-256 of the token (the token itself is never
//! stored).

use super::{with_pool, Result, Store};

/// A stored API key.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ApiKey {
    pub id: String,
    pub name: String,
    /// `publisher` or `admin`.
    pub role: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

const KEY_COLUMNS: &str = "id, name, role, created_at, revoked_at";

impl Store {
    /// Stores a new key, and closes the server for good (until an operator reopens it:
    /// [`Store::closed`]); `None` when an active key has that name already (a revoked
    /// key's name may be reused). A taken name is an answer, not an error: nothing is
    /// logged for it.
    #[tracing::instrument(skip(self, token_hash), err)]
    pub async fn create_api_key(&self, name: &str, role: &str, token_hash: &str) -> Result<Option<ApiKey>> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let sql = self.sql(&format!(
            "INSERT INTO api_keys (id, name, role, token_hash, created_at) VALUES ($2, $3, $4, $5, {{NOW}}) \
             ON CONFLICT (name) WHERE revoked_at IS NULL DO NOTHING RETURNING {KEY_COLUMNS}"
        ));
        let now = self.clock_param();
        let key = with_pool!(self, p => {
            let mut tx = p.begin().await?;
            let key: Option<ApiKey> = sqlx::query_as(&sql)
                .bind(now)
                .bind(&id)
                .bind(name)
                .bind(role)
                .bind(token_hash)
                .fetch_optional(&mut *tx)
                .await?;
            if key.is_some() {
                sqlx::query(super::settings::CLOSE).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            key
        });
        Ok(key)
    }

    /// Every key, revoked ones too, oldest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn api_keys(&self) -> Result<Vec<ApiKey>> {
        let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys ORDER BY created_at, name");
        let keys = with_pool!(self, p => sqlx::query_as(&sql).fetch_all(p).await?);
        Ok(keys)
    }

    /// Revokes the active key called `name` (there is at most one; revoked keys of that
    /// name stay as they are); false if there is none.
    #[tracing::instrument(skip(self), err)]
    pub async fn revoke_api_key(&self, name: &str) -> Result<bool> {
        let sql = self.sql("UPDATE api_keys SET revoked_at = {NOW} WHERE name = $2 AND revoked_at IS NULL");
        let now = self.clock_param();
        let n = with_pool!(self, p => sqlx::query(&sql).bind(now).bind(name).execute(p).await?.rows_affected());
        Ok(n == 1)
    }

    /// The active key whose token hashes to `token_hash`.
    #[tracing::instrument(skip_all, err)]
    pub async fn api_key_by_hash(&self, token_hash: &str) -> Result<Option<ApiKey>> {
        let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE token_hash = $1 AND revoked_at IS NULL");
        let key = with_pool!(self, p => sqlx::query_as(&sql).bind(token_hash).fetch_optional(p).await?);
        Ok(key)
    }
}
