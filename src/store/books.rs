//! Find the Fox books (and Find the Cat, …): looked up by serial, with their job's state.

use serde_json::Value;

use super::jobs::JobState;
use super::listings::Page;
use super::{decode_via, with_pool, CorruptValue, Pool, Result, Store, StoreError};

/// A book as ordered: what it is made and printed from, stored with its job and read back
/// with its record.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderedBook {
    pub generator_version: i64,
    pub pages: i64,
    pub rows: i64,
    pub cols: i64,
    /// The word, the letters the pages are made of, and the shape as JSON (`"heart"` or
    /// an array of mask rows).
    pub word: String,
    pub letters: String,
    pub shape: String,
    /// The trim as JSON (`"letter"`, `{"width_in": 5, "height_in": 8}`).
    pub trim: String,
    pub title: String,
    pub lookup_url: String,
    /// The author, copyright line and normalised ISBN, those ordered.
    pub author: Option<String>,
    pub copyright: Option<String>,
    pub isbn: Option<String>,
    /// The renderer its interior is printed with (`render::layouts::foxbook::InteriorVersion`).
    pub interior_version: i64,
}

/// The row of a book ordered with a job; its contents arrive when the job succeeds.
#[derive(Debug, Clone)]
pub struct NewBook {
    pub serial: String,
    pub order: OrderedBook,
    /// The print run and copy number, for a copy of a run.
    pub printrun: Option<(String, i64)>,
}

/// A printed book's contents, stored in the transaction that marks its job done.
#[derive(Debug, Clone)]
pub struct PrintedBook {
    pub serial: String,
    /// The pages, packed as their engine packs them.
    pub packed: Vec<u8>,
    /// JSON text.
    pub answer: String,
    pub content_hash: String,
    /// SHA-256 (hex) of its interior PDF, for a copy of a print run (its manifest's);
    /// other books need none.
    pub interior_sha256: Option<String>,
}

/// A stored book and the state of the job printing it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BookRecord {
    /// Where the book stands in the order books were ordered (a cursor for listings).
    #[sqlx(rename = "seq")]
    pub position: i64,
    pub serial: String,
    pub job_id: String,
    /// Who ordered it (the owner of its job).
    pub owner: String,
    #[sqlx(flatten)]
    pub order: OrderedBook,
    /// The print run it is a copy of, if any.
    pub printrun: Option<String>,
    /// Packed pages; loaded only when asked for, and present once printed.
    pub packed: Option<Vec<u8>>,
    #[sqlx(try_from = "StoredAnswer")]
    pub answer: Option<Value>,
    pub content_hash: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub state: JobState,
    pub progress_done: i64,
    pub progress_total: i64,
    pub error: Option<String>,
}

/// A book's answer as stored, JSON text (NULL until printed): text that does not parse
/// means the row is corrupt.
pub struct StoredAnswer(Option<Value>);

impl TryFrom<Option<String>> for StoredAnswer {
    type Error = CorruptValue;
    fn try_from(text: Option<String>) -> std::result::Result<StoredAnswer, CorruptValue> {
        let answer = text.map(|text| serde_json::from_str(&text)).transpose();
        answer.map(StoredAnswer).map_err(|e| CorruptValue(format!("book answer: {e}")))
    }
}

decode_via!(Option<String> => StoredAnswer);

impl From<StoredAnswer> for Option<Value> {
    fn from(answer: StoredAnswer) -> Option<Value> {
        answer.0
    }
}

/// A book with its job; `PACKED` is replaced by `b.packed` or `NULL`.
const BOOK_SELECT: &str = "SELECT j.seq, b.serial, b.job_id, j.owner, b.generator_version, b.pages, b.rows, b.cols, \
     b.word, b.letters, b.shape, b.trim_size AS trim, b.title, b.lookup_url, b.author, b.copyright, b.isbn, b.interior_version, b.printrun, PACKED AS packed, b.answer, b.content_hash, b.created_at, b.finished_at, j.state, j.progress_done, \
     j.progress_total, j.error FROM books b JOIN jobs j ON j.id = b.job_id";

impl Store {
    /// The book with this canonical serial; `with_pages` loads its packed pages too.
    #[tracing::instrument(skip(self), err)]
    pub async fn book(&self, serial: &str, with_pages: bool) -> Result<Option<BookRecord>> {
        self.find_book("b.serial = $1", serial, with_pages).await
    }

    /// The book printed by this job.
    #[tracing::instrument(skip(self), err)]
    pub async fn book_by_job(&self, job_id: &str) -> Result<Option<BookRecord>> {
        self.find_book("b.job_id = $1", job_id, false).await
    }

    /// A page of books, newest first: `owner`'s (or everyone's when `None`), ordered before
    /// the position `before` (a value of [`BookRecord::position`]; `None` starts at the newest).
    #[tracing::instrument(skip(self), err)]
    pub async fn books(&self, owner: Option<&str>, before: Option<i64>, limit: i64) -> Result<Vec<BookRecord>> {
        let page = Page::new("j.seq").matching("j.owner", owner).with("j.kind = 'books'");
        let sql = format!("{} WHERE {}", BOOK_SELECT.replace("PACKED", "NULL"), page.clause());
        page.fetch(self, &sql, before, limit).await
    }

    /// Which of `serials` (canonical) are books already, in no particular order. The list
    /// travels as one JSON parameter, so its length changes no statement.
    #[tracing::instrument(skip_all, fields(serials = serials.len()), err)]
    pub async fn existing_serials(&self, serials: &[String]) -> Result<Vec<String>> {
        let list = serde_json::to_string(serials).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let sql = match self.pool {
            Pool::Sqlite(_) => "SELECT serial FROM books WHERE serial IN (SELECT value FROM json_each($1))",
            Pool::Postgres(_) => {
                "SELECT serial FROM books WHERE serial IN (SELECT jsonb_array_elements_text($1::jsonb))"
            }
        };
        Ok(with_pool!(self, p => sqlx::query_scalar(sql).bind(&list).fetch_all(p).await?))
    }

    async fn find_book(&self, condition: &str, key: &str, with_pages: bool) -> Result<Option<BookRecord>> {
        let packed = if with_pages { "b.packed" } else { "NULL" };
        let sql = format!("{} WHERE {condition}", BOOK_SELECT.replace("PACKED", packed));
        let book = with_pool!(self, p => {
            sqlx::query_as(&sql).bind(key).fetch_optional(p).await?
        });
        Ok(book)
    }
}
