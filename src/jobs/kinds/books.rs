//! Find the Fox books (and Find the Cat, …): sample the book for a serial under the server
//! secret; the book row is created with the job and its pages, answer and content hash are
//! written with the job's success.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::wordbook::{self, WordSpec, WORD_GENERATOR_VERSION};
use crate::render;
use crate::render::layouts::foxbook::{book_pdf, InteriorVersion};
use crate::render::print::PrintOptions;
use crate::store::{NewBook, OnInsert, OnSuccess, OrderedBook, PrintedBook};

pub struct Books;

/// Stored with a book job: everything that determines the book except the secret. Jobs
/// stored before books had words read as FOX books.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BookParams {
    pub serial: String,
    #[serde(flatten)]
    pub spec: WordSpec,
    /// How it is printed (jobs stored before print options existed read the defaults).
    #[serde(default)]
    pub print: PrintOptions,
    /// The print run this book is a copy of, and its copy number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<CopyOf>,
    /// The renderer its interior is printed with: chosen when ordered, so a job queued
    /// before an upgrade prints as its book row says (jobs stored before versions read 1).
    #[serde(default = "first_interior")]
    pub interior_version: u32,
}

fn first_interior() -> u32 {
    InteriorVersion::V1.number()
}

impl BookParams {
    /// A new order's parameters, printed by the current interior renderer.
    pub fn new(serial: String, spec: WordSpec, print: PrintOptions, copy_of: Option<CopyOf>) -> BookParams {
        BookParams { serial, spec, print, copy_of, interior_version: InteriorVersion::CURRENT.number() }
    }

    fn interior(&self) -> Result<InteriorVersion, RunError> {
        InteriorVersion::from_number(self.interior_version.into())
            .ok_or_else(|| RunError::Failed(format!("unknown interior version {}", self.interior_version)))
    }
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
        let plan = params.spec.validate_within(&ctx.limits.foxbook).map_err(|e| RunError::Failed(e.to_string()))?;
        let printed =
            wordbook::book_for(&ctx.secret, &params.serial, &plan, monitor).map_err(|_| RunError::Cancelled)?;
        let content_hash = printed.book.content_hash_hex();
        // A copy's interior hash goes in its run's manifest; PDFs are byte-stable and a book
        // keeps its renderer, so it is the hash of every later download. Other books are
        // never in a manifest: they skip the rendering.
        let interior_sha256 = match &params.copy_of {
            Some(_) => Some(render::layouts::printrun::sha256_hex(&book_pdf(
                &printed.book,
                &params.serial,
                &params.print,
                params.interior()?,
            ))),
            None => None,
        };
        let answer = serde_json::to_string(&printed.book.answer).map_err(|e| RunError::Failed(e.to_string()))?;
        let printed = PrintedBook {
            serial: params.serial.clone(),
            packed: printed.packed,
            answer,
            content_hash: content_hash.clone(),
            interior_sha256,
        };
        Ok(BookResult { serial: params.serial, content_hash, printed: Some(printed) })
    }

    fn on_insert(params: &BookParams) -> Option<OnInsert> {
        let spec = &params.spec;
        // Orders are validated before they are queued; a spec that no longer validates
        // fails in `run`, with its reason.
        let generator_version = spec.validate().map_or(WORD_GENERATOR_VERSION, |plan| plan.generator_version());
        Some(OnInsert::Book(Box::new(NewBook {
            serial: params.serial.clone(),
            printrun: params.copy_of.as_ref().map(|c| (c.printrun.clone(), c.copy)),
            order: OrderedBook {
                generator_version: generator_version as i64,
                pages: spec.pages as i64,
                rows: spec.rows as i64,
                cols: spec.cols as i64,
                word: spec.word.clone(),
                letters: String::from_utf8_lossy(&spec.alphabet()).into_owned(),
                shape: serde_json::to_string(&spec.shape).expect("a shape serializes"),
                trim: serde_json::to_string(&params.print.trim).expect("a trim serializes"),
                title: params.print.title.clone(),
                lookup_url: params.print.lookup_url.clone(),
                author: params.print.imprint.author.clone(),
                copyright: params.print.imprint.copyright.clone(),
                isbn: params.print.imprint.isbn.clone(),
                interior_version: params.interior_version.into(),
            },
        })))
    }

    fn on_success(output: &mut BookResult) -> Option<OnSuccess> {
        output.printed.take().map(OnSuccess::Book)
    }

    /// A retried order draws a new serial; it is the same order if it asks for the same book.
    fn same_request(stored: &BookParams, retried: &BookParams) -> bool {
        stored.spec == retried.spec && stored.print == retried.print
    }
}
