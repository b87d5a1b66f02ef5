//! Uploaded word lists: each text stored once by its SHA-256 (`wordlist_contents`), and a
//! row per owner that uploaded it (`wordlists`), so one owner's delete leaves the others'.

use super::{with_pool, Result, Store};

/// A list's text and what was read from it, as an upload stores it.
#[derive(Debug, Clone)]
pub struct NewWordList {
    pub id: String,
    pub sha256: String,
    pub body: Vec<u8>,
    pub entries: i64,
    /// JSON object: entry length → count.
    pub by_length: String,
}

/// One owner's word list.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WordListRecord {
    pub id: String,
    pub owner: String,
    pub name: String,
    pub sha256: String,
    pub bytes: i64,
    pub entries: i64,
    /// JSON object: entry length → count.
    pub by_length: String,
    pub created_at: i64,
}

/// Stores a list's text once (by its id, a prefix of its hash) and marks it as just used,
/// which also keeps the sweeper off it ([`Store::delete_finished`]). `$1` is the clock.
pub(super) const CONTENT_UPSERT: &str =
    "INSERT INTO wordlist_contents (id, sha256, body, bytes, entries, by_length, created_at, used_at) \
     VALUES ($2, $3, $4, $5, $6, $7, {NOW}, {NOW}) ON CONFLICT (id) DO UPDATE SET used_at = excluded.used_at";

/// Runs [`CONTENT_UPSERT`] (made by `Store::sql`) for a [`NewWordList`] on an executor.
macro_rules! upsert_content {
    ($sql:expr, $now:expr, $list:expr, $executor:expr) => {
        sqlx::query($sql)
            .bind($now)
            .bind(&$list.id)
            .bind(&$list.sha256)
            .bind(&$list.body)
            .bind($list.body.len() as i64)
            .bind($list.entries)
            .bind(&$list.by_length)
            .execute($executor)
            .await?
    };
}
pub(super) use upsert_content;

/// A list's text is kept while an owner has it or a job reads it (SQL on `c`, the content).
pub(super) const CONTENT_IN_USE: &str = "(EXISTS (SELECT 1 FROM wordlists w WHERE w.id = c.id) \
     OR EXISTS (SELECT 1 FROM jobs j WHERE j.wordlist = c.id))";

/// How many lists owner `$1` has and their bytes in all.
const USAGE: &str = "SELECT COUNT(*), CAST(COALESCE(SUM(c.bytes), 0) AS BIGINT) FROM wordlists w \
                     JOIN wordlist_contents c ON c.id = w.id WHERE w.owner = $1";

/// What one owner may keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordListQuota {
    pub lists: i64,
    pub bytes: i64,
}

/// How [`Store::save_wordlist`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// The owner's row: new (`created`), or the one the owner had (which keeps its name).
    Kept { record: WordListRecord, created: bool },
    /// Nothing stored: with it the owner's lists would pass the quota. Their count and
    /// bytes now.
    OverQuota { lists: i64, bytes: i64 },
}

const COLUMNS: &str = "w.id, w.owner, w.name, c.sha256, c.bytes, c.entries, c.by_length, w.created_at";

impl Store {
    /// How many lists `owner` has and their bytes in all.
    #[tracing::instrument(skip(self), err)]
    pub async fn wordlist_usage(&self, owner: &str) -> Result<(i64, i64)> {
        let usage = with_pool!(self, p => sqlx::query_as(USAGE).bind(owner).fetch_one(p).await?);
        Ok(usage)
    }

    /// Stores `list` for `owner` (its text only if no owner has it yet) if the owner's
    /// lists stay within `quota`. The check and the insert are one step per owner (a
    /// PostgreSQL advisory lock on the owner; SQLite's single writer), so concurrent
    /// uploads, from any process, cannot together pass the quota.
    #[tracing::instrument(skip(self, list), fields(id = %list.id), err)]
    pub async fn save_wordlist(
        &self,
        owner: &str,
        name: &str,
        list: &NewWordList,
        quota: WordListQuota,
    ) -> Result<Saved> {
        let content = self.sql(CONTENT_UPSERT);
        let row = self.sql(
            "INSERT INTO wordlists (owner, id, name, created_at) SELECT $2, $3, $4, {NOW} \
             WHERE NOT EXISTS (SELECT 1 FROM wordlists WHERE owner = $2 AND id = $3) \
             AND (SELECT COUNT(*) FROM wordlists WHERE owner = $2) < $5 \
             AND (SELECT COALESCE(SUM(c.bytes), 0) FROM wordlists w JOIN wordlist_contents c ON c.id = w.id \
                  WHERE w.owner = $2) + $6 <= $7",
        );
        let postgres = self.backend() == super::Backend::Postgres;
        let now = self.clock_param();
        let outcome = with_pool!(self, p => {
            let mut tx = p.begin().await?;
            if postgres {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                    .bind(format!("wordlists:{owner}"))
                    .execute(&mut *tx)
                    .await?;
            }
            // On SQLite this write comes first, so the transaction holds the write lock
            // before it reads the owner's usage.
            upsert_content!(&content, now, list, &mut *tx);
            let n = sqlx::query(&row)
                .bind(now)
                .bind(owner)
                .bind(&list.id)
                .bind(name)
                .bind(quota.lists)
                .bind(list.body.len() as i64)
                .bind(quota.bytes)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n == 1 {
                tx.commit().await?;
                None
            } else {
                let had: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wordlists WHERE owner = $1 AND id = $2")
                    .bind(owner)
                    .bind(&list.id)
                    .fetch_one(&mut *tx)
                    .await?;
                if had > 0 {
                    tx.commit().await?;
                    Some(Ok(()))
                } else {
                    let usage: (i64, i64) = sqlx::query_as(USAGE).bind(owner).fetch_one(&mut *tx).await?;
                    // Dropped without committing: the text is not kept either.
                    Some(Err(usage))
                }
            }
        });
        let created = match outcome {
            None => true,
            Some(Ok(())) => false,
            Some(Err((lists, bytes))) => return Ok(Saved::OverQuota { lists, bytes }),
        };
        let record = self
            .owned_wordlist(owner, &list.id)
            .await?
            .ok_or_else(|| super::StoreError::Corrupt(format!("word list {} vanished after saving", list.id)))?;
        Ok(Saved::Kept { record, created })
    }

    /// `owner`'s lists, newest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn wordlists_of(&self, owner: &str) -> Result<Vec<WordListRecord>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM wordlists w JOIN wordlist_contents c ON c.id = w.id \
             WHERE w.owner = $1 ORDER BY w.created_at DESC, w.id"
        );
        let rows = with_pool!(self, p => sqlx::query_as(&sql).bind(owner).fetch_all(p).await?);
        Ok(rows)
    }

    /// Every owner's row of list `id` (one per owner), oldest first.
    #[tracing::instrument(skip(self), err)]
    pub async fn wordlist_rows(&self, id: &str) -> Result<Vec<WordListRecord>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM wordlists w JOIN wordlist_contents c ON c.id = w.id \
             WHERE w.id = $1 ORDER BY w.created_at, w.owner"
        );
        let rows = with_pool!(self, p => sqlx::query_as(&sql).bind(id).fetch_all(p).await?);
        Ok(rows)
    }

    async fn owned_wordlist(&self, owner: &str, id: &str) -> Result<Option<WordListRecord>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM wordlists w JOIN wordlist_contents c ON c.id = w.id \
             WHERE w.owner = $1 AND w.id = $2"
        );
        let row = with_pool!(self, p => sqlx::query_as(&sql).bind(owner).bind(id).fetch_optional(p).await?);
        Ok(row)
    }

    /// The text of list `id`, while it is stored (an owner has it or a job reads it).
    #[tracing::instrument(skip(self), err)]
    pub async fn wordlist_body(&self, id: &str) -> Result<Option<Vec<u8>>> {
        let sql = "SELECT c.body FROM wordlist_contents c WHERE c.id = $1";
        let body: Option<(Vec<u8>,)> = with_pool!(self, p => sqlx::query_as(sql).bind(id).fetch_optional(p).await?);
        Ok(body.map(|(b,)| b))
    }

    /// Deletes `owner`'s row of list `id`, and the text once no owner has it and no job
    /// reads it (else the sweeper deletes it with the last such job). False if the owner
    /// had no such list.
    #[tracing::instrument(skip(self), err)]
    pub async fn delete_wordlist(&self, owner: &str, id: &str) -> Result<bool> {
        let deleted = with_pool!(self, p => {
            let mut tx = p.begin().await?;
            let n = sqlx::query("DELETE FROM wordlists WHERE owner = $1 AND id = $2")
                .bind(owner)
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            sqlx::query(&format!("DELETE FROM wordlist_contents AS c WHERE c.id = $1 AND NOT {CONTENT_IN_USE}"))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            n == 1
        });
        Ok(deleted)
    }
}
