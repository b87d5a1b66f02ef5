//! Dictionary jobs: entries typeset as a print-ready book. The request is kept, and the
//! PDF the job sets is kept with it ([`BOOK_PDF`]): a download reads it, never sets it
//! again.

use serde::{Deserialize, Serialize};

use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::DictionaryLimits;
use crate::render::print::isbn::Isbn;
use crate::render::print::LayoutVersion;
use crate::render::print::Trim;
use crate::render::typeset::{self, Book, Entry, Heads, Language, Sense};
use crate::store::OnSuccess;

pub struct Dictionaries;

/// The name its PDF is kept under with its job.
pub const BOOK_PDF: &str = "book.pdf";

/// A sense of an entry: its part of speech (printed in italics; may be empty) and definition.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SenseRequest {
    #[serde(default)]
    pub pos: String,
    pub definition: String,
}

/// An entry: a headword and its senses (numbered when there are several).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryRequest {
    pub headword: String,
    pub senses: Vec<SenseRequest>,
}

/// Where the running heads (guide words) go.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum HeadsRequest {
    /// The first headword at the outer edge of a left-hand page, the last at the outer edge of a right-hand page.
    #[default]
    Outer,
    /// Both on every page.
    Both,
}

fn english() -> String {
    "en".into()
}

fn pocket() -> String {
    "5.25x8".into()
}

/// A dictionary to typeset; also the params stored with its job.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DictionaryRequest {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub author: String,
    /// On the title page's back, e.g. "© 2026 Example Press" (at most 120 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, max_length = 120)]
    pub copyright: Option<String>,
    /// On the title page's back: ISBN-13 or ISBN-10, hyphens and spaces allowed, check digit
    /// checked; stored normalised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, max_length = 32)]
    pub isbn: Option<String>,
    /// The preface's paragraphs (none: no preface).
    #[serde(default)]
    pub preface: Vec<String>,
    /// ISO 639-1 code of the language: its hyphenation patterns and its alphabetical order (default `en`).
    #[serde(default = "english")]
    #[schema(default = "en")]
    pub language: String,
    /// The page: a named trim (`5.25x8`, the default, `6x9`, …) or `WxH` in inches.
    #[serde(default = "pocket")]
    #[schema(default = "5.25x8")]
    pub trim: String,
    #[serde(default)]
    pub heads: HeadsRequest,
    pub entries: Vec<EntryRequest>,
}

/// How the book was set.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DictionaryOutput {
    #[serde(flatten)]
    pub report: typeset::Report,
    /// The PDF, kept apart from the result (as [`BOOK_PDF`]).
    #[serde(skip)]
    pub pdf: Option<Vec<u8>>,
}

/// A field name and a message, for the HTTP layer to report as 422.
pub type FieldError = (String, String);

impl From<&EntryRequest> for Entry {
    fn from(e: &EntryRequest) -> Self {
        Entry {
            headword: e.headword.clone(),
            senses: e.senses.iter().map(|s| Sense { pos: s.pos.clone(), definition: s.definition.clone() }).collect(),
        }
    }
}

impl From<Entry> for EntryRequest {
    fn from(e: Entry) -> Self {
        EntryRequest {
            headword: e.headword,
            senses: e.senses.into_iter().map(|s| SenseRequest { pos: s.pos, definition: s.definition }).collect(),
        }
    }
}

impl DictionaryRequest {
    /// The book, its trim and heads, or the field at fault: `entries` past `limits`,
    /// `entries[i].headword`, `entries[i].senses[j].definition` or `.pos` (empty, or longer
    /// than a book prints), `entries[i]` (a character the font lacks), `language`, `trim`,
    /// `title`, `author`, `preface`.
    pub fn book(&self, limits: &DictionaryLimits) -> Result<(Book, Trim, Heads), FieldError> {
        let field = |f: &str, detail: String| (f.to_string(), format!("{f}: {detail}"));
        if self.entries.is_empty() {
            return Err(field("entries", "give at least one entry".into()));
        }
        if self.entries.len() > limits.max_entries {
            return Err(field(
                "entries",
                format!("{} entries; at most {} are typeset per dictionary", self.entries.len(), limits.max_entries),
            ));
        }
        let language = Language::from_code(&self.language)
            .ok_or_else(|| field("language", "no hyphenation patterns for it".into()))?;
        let trim = Trim::parse(&self.trim).map_err(|e| field("trim", e))?;
        let mut entries = Vec::with_capacity(self.entries.len());
        for (i, e) in self.entries.iter().enumerate() {
            let entry = Entry::from(e);
            if entry.headword.trim().is_empty() {
                return Err(field(&format!("entries[{i}].headword"), "the headword is empty".into()));
            }
            if entry.senses.is_empty() {
                return Err(field(&format!("entries[{i}].senses"), "an entry needs at least one sense".into()));
            }

            if let Some(j) = entry.senses.iter().position(|s| s.definition.trim().is_empty()) {
                return Err(field(&format!("entries[{i}].senses[{j}].definition"), "the definition is empty".into()));
            }
            entry.check(i).map_err(|e| {
                let at = if e.field.is_empty() { format!("entries[{i}]") } else { format!("entries[{i}].{}", e.field) };
                field(&at, format!("{:?}: {}", e.headword, e.detail))
            })?;
            entries.push(entry);
        }
        let isbn = Isbn::normalised(self.isbn.as_deref()).map_err(|e| field("isbn", e))?;
        let book = Book {
            title: self.title.clone(),
            author: self.author.clone(),
            // Checked with the title: the serif font prints Latin-1 and more.
            copyright: self.copyright.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(str::to_string),
            isbn,
            preface: self.preface.clone(),
            entries,
            language,
        };
        book.check_front().map_err(|(f, detail)| field(f, detail))?;
        let heads = match self.heads {
            HeadsRequest::Outer => Heads::Outer,
            HeadsRequest::Both => Heads::Both,
        };
        Ok((book, trim, heads))
    }

    /// The PDF in `layout` and how it was set; `monitor` follows the entries set and may
    /// stop it.
    pub fn pdf(
        &self,
        limits: &DictionaryLimits,
        layout: LayoutVersion,
        monitor: &mut dyn Monitor,
    ) -> Result<(Vec<u8>, typeset::Report), RunError> {
        let (book, trim, heads) = self.book(limits).map_err(|(_, detail)| RunError::Failed(detail))?;
        let (pdf, layout) =
            crate::render::layouts::dictionary::pdf(&book, trim, heads, layout, monitor).map_err(|e| match e {
                typeset::Stopped::Cancelled => RunError::Cancelled,
                typeset::Stopped::Entry(e) => RunError::Failed(e.to_string()),
            })?;
        Ok((pdf, layout.report))
    }
}

impl JobKind for Dictionaries {
    const NAME: &'static str = "dictionaries";
    /// A publisher's product: kept until its owner deletes it.
    const KEPT: bool = true;
    /// The entries as JSON: a publisher's 20,000 entries and 4 MiB of text take up to about
    /// twice that once stored (the members' names per entry and sense).
    const MAX_PARAMS_BYTES: usize = 16 << 20;
    type Params = DictionaryRequest;
    type Output = DictionaryOutput;

    fn run(_: &Context, req: DictionaryRequest, monitor: &mut dyn Monitor) -> Result<DictionaryOutput, RunError> {
        // Checked within the caller's limits when queued; the params are checked again
        // for their shape only. Progress: entries set, of all.
        // The PDF is kept: it is set in the layout of today.
        let (pdf, report) = req.pdf(&DictionaryLimits::UNLIMITED, LayoutVersion::CURRENT, monitor)?;
        Ok(DictionaryOutput { report, pdf: Some(pdf) })
    }

    fn on_success(output: &mut DictionaryOutput) -> Option<OnSuccess> {
        output.pdf.take().map(|bytes| OnSuccess::File { name: BOOK_PDF.into(), bytes })
    }
}
