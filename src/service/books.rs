//! A stored Find the Fox book read back: its plan, how it is printed, with which
//! interior, its answer and its pages.

use super::error::ApiError;
use crate::puzzles::wordbook::{self, Plan, WordAnswer, WordBook, WordSpec};
use crate::render::layouts::foxbook::InteriorVersion;
use crate::render::print::{Imprint, PrintOptions};
use crate::store::{BookRecord, JobState};

/// A stored book that no longer reads back: a damaged database or a bug, never the
/// caller's fault.
#[derive(Debug, thiserror::Error)]
#[error("book {serial}: {what}")]
pub struct Corrupt {
    pub serial: String,
    pub what: String,
}

impl Corrupt {
    pub fn of(record: &BookRecord, what: impl Into<String>) -> Corrupt {
        Corrupt { serial: record.serial.clone(), what: what.into() }
    }
}

/// A stored book's plan: its word, letters, shape and size.
pub fn plan_of(record: &BookRecord) -> Result<Plan, Corrupt> {
    let shape = serde_json::from_str(&record.order.shape).map_err(|e| Corrupt::of(record, format!("shape: {e}")))?;
    let spec = WordSpec {
        word: record.order.word.clone(),
        letters: Some(record.order.letters.clone()),
        shape,
        pages: record.order.pages as u32,
        rows: record.order.rows as u32,
        cols: record.order.cols as u32,
    };
    spec.validate().map_err(|e| Corrupt::of(record, e.to_string()))
}

/// A book's answer as the API and the offline CLI give it: where the word is, and the
/// number at the foot of its page.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AnswerView {
    #[serde(flatten)]
    pub answer: WordAnswer,
    /// The number at the foot of the word's page in the printed book: the interior's page
    /// number (books printed before the book frame number their pages as `page` does).
    #[schema(minimum = 1)]
    pub printed_page: u32,
}

impl AnswerView {
    pub fn new(answer: WordAnswer, version: InteriorVersion) -> AnswerView {
        let printed_page = version.printed_page(answer.page);
        AnswerView { answer, printed_page }
    }
}

/// The renderer a stored book's interior is printed with.
pub fn interior_version(record: &BookRecord) -> Result<InteriorVersion, Corrupt> {
    InteriorVersion::from_number(record.order.interior_version)
        .ok_or_else(|| Corrupt::of(record, format!("unknown interior version {}", record.order.interior_version)))
}

/// How a stored book is printed.
pub fn print_options(record: &BookRecord) -> PrintOptions {
    PrintOptions {
        // Validated when ordered; a row from before trims reads as the default.
        trim: serde_json::from_str(&record.order.trim).unwrap_or_default(),
        title: record.order.title.clone(),
        lookup_url: record.order.lookup_url.clone(),
        imprint: Imprint {
            author: record.order.author.clone(),
            copyright: record.order.copyright.clone(),
            isbn: record.order.isbn.clone(),
        },
    }
}

/// 409 unless the book is printed.
pub fn ensure_printed(record: &BookRecord) -> Result<(), ApiError> {
    if record.state == JobState::Succeeded {
        return Ok(());
    }
    let pending = !record.state.is_terminal();
    let detail = if pending {
        format!("book {} is still printing ({}); try again shortly", record.serial, record.state.as_str())
    } else {
        format!(
            "book {} was not printed: its job is {}{}",
            record.serial,
            record.state.as_str(),
            record.error.as_deref().map(|e| format!(" ({e})")).unwrap_or_default()
        )
    };
    Err(ApiError::Conflict { detail, retry_after: pending.then_some(1) })
}

/// A printed book's answer, read from its record (no pages needed).
pub fn stored_answer(record: &BookRecord) -> Result<WordAnswer, ApiError> {
    ensure_printed(record)?;
    let corrupt = |what: String| ApiError::Internal(format!("book {}: {what}", record.serial));
    serde_json::from_value(record.answer.clone().ok_or_else(|| corrupt("no answer".into()))?)
        .map_err(|e| corrupt(e.to_string()))
}

/// Unpacks a printed book's pages (CPU work for a big book: call it off the async threads).
pub fn unpack(record: BookRecord) -> Result<WordBook, ApiError> {
    let answer = stored_answer(&record)?;
    let corrupt = |what: String| ApiError::Internal(format!("book {}: {what}", record.serial));
    let plan = plan_of(&record)?;
    let packed = record.packed.as_deref().ok_or_else(|| corrupt("no pages".into()))?;
    wordbook::unpack(&plan, packed, answer).map_err(|e| corrupt(e.to_string()))
}
