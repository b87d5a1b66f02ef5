//! Find the Fox book jobs: sample the book for a serial under the server secret, and
//! hand its packed letters, answer and content hash to the store.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Context, RunError};
use crate::jobs::model::{Artifact, Output};
use crate::puzzles::foxbook::{book_seed, generate, Book, BookSpec};
use crate::puzzles::monitor::Monitor;

pub const KIND: &str = "book";

/// Stored with a book job: everything that determines the book except the secret.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BookParams {
    pub serial: String,
    #[serde(flatten)]
    pub spec: BookSpec,
}

/// The book for `serial` under `secret`: the same inputs always give the same book.
pub fn sample(secret: &[u8], serial: &str, spec: BookSpec, progress: &mut dyn Monitor) -> Result<Book, RunError> {
    spec.validate().map_err(|e| RunError::Failed(e.to_string()))?;
    Ok(generate(spec, book_seed(secret, serial, spec), progress)?)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn run(ctx: &Context, params: BookParams, progress: &mut dyn Monitor) -> Result<Output, RunError> {
    let book = sample(&ctx.secret, &params.serial, params.spec, progress)?;
    let content_hash = hex(&book.content_hash());
    let answer = serde_json::to_value(book.answer).map_err(|e| RunError::Failed(e.to_string()))?;
    Ok(Output {
        result: json!({
            "serial": params.serial,
            "content_hash": content_hash,
            "links": { "book": format!("/books/{}", params.serial) },
        }),
        artifact: Some(Artifact::Book { serial: params.serial, letters: book.pack(), answer, content_hash }),
    })
}
