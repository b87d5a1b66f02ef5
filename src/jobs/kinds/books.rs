//! Find the Fox books: sample the book for a serial under the server secret; the book row
//! is created with the job and its letters, answer and content hash are written with the
//! job's success.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::foxbook::{book_for_within, BookError, BookSpec, GENERATOR_VERSION};
use crate::puzzles::monitor::Monitor;
use crate::render;
use crate::render::print::PrintOptions;
use crate::store::{NewBook, OnInsert, OnSuccess, PrintedBook};

pub struct Books;

/// Stored with a book job: everything that determines the book except the secret.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BookParams {
    pub serial: String,
    #[serde(flatten)]
    pub spec: BookSpec,
    /// How it is printed (jobs stored before print options existed read the defaults).
    #[serde(default)]
    pub print: PrintOptions,
    /// The print run this book is a copy of, and its copy number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<CopyOf>,
}

/// A book's place in a print run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyOf {
    pub printrun: String,
    pub copy: i64,
}

/// A book job's result; the book itself is stored in its own row.
#[derive(Debug, Serialize)]
pub struct BookResult {
    pub serial: String,
    pub content_hash: String,
    #[serde(skip)]
    printed: Option<PrintedBook>,
}

impl JobKind for Books {
    const NAME: &'static str = "books";
    const KEPT: bool = true;
    type Params = BookParams;
    type Output = BookResult;

    fn run(ctx: &Context, params: BookParams, monitor: &mut dyn Monitor) -> Result<BookResult, RunError> {
        let book = book_for_within(&ctx.secret, &params.serial, params.spec, &ctx.limits.foxbook, monitor).map_err(
            |e| match e {
                BookError::Cancelled(_) => RunError::Cancelled,
                e @ BookError::Spec(_) => RunError::Failed(e.to_string()),
            },
        )?;
        let content_hash = book.content_hash_hex();
        // The interior's hash goes in print run manifests; PDFs are byte-stable, so it is
        // the hash of every later download of this book.
        let interior_sha256 =
            render::printrun::sha256_hex(&render::foxbook::book_pdf(&book, &params.serial, &params.print));
        let answer = serde_json::to_string(&book.answer).map_err(|e| RunError::Failed(e.to_string()))?;
        let printed = PrintedBook {
            serial: params.serial.clone(),
            letters: book.pack(),
            answer,
            content_hash: content_hash.clone(),
            interior_sha256,
        };
        Ok(BookResult { serial: params.serial, content_hash, printed: Some(printed) })
    }

    fn on_insert(params: &BookParams) -> Option<OnInsert> {
        Some(OnInsert::Book(NewBook {
            serial: params.serial.clone(),
            generator_version: GENERATOR_VERSION as i64,
            pages: params.spec.pages as i64,
            rows: params.spec.rows as i64,
            cols: params.spec.cols as i64,
            printrun: params.copy_of.as_ref().map(|c| (c.printrun.clone(), c.copy)),
            trim: serde_json::to_string(&params.print.trim).expect("a trim serializes"),
            title: params.print.title.clone(),
            lookup_url: params.print.lookup_url.clone(),
        }))
    }

    fn on_success(output: &mut BookResult) -> Option<OnSuccess> {
        output.printed.take().map(OnSuccess::Book)
    }

    /// A retried order draws a new serial; it is the same order if it asks for the same book.
    fn same_request(stored: &BookParams, retried: &BookParams) -> bool {
        stored.spec == retried.spec && stored.print == retried.print
    }
}
