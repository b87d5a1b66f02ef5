//! Print runs read back: a run's order, its manifest (the publisher's master answer key)
//! and its archive, the ZIP of every copy's files that `GET /printruns/{id}/archive.zip`
//! streams and `puzzlepress printrun --zip` writes.

use std::future::Future;

use axum::body::Bytes;
use futures_util::StreamExt;

use super::blocking;
use super::books::{interior_version, print_options, unpack};
use super::error::ApiError;
use crate::jobs::printruns::PrintRunOrder;
use crate::puzzles::wordbook::WordAnswer;
use crate::render::exchange::zip::ZipStream;
use crate::render::layouts::cover::Paper;
use crate::render::layouts::foxbook::InteriorVersion;
use crate::render::layouts::printrun::{copy_files, ManifestLine, CSV_HEADER};
use crate::render::print::Trim;
use crate::store::{PrintRunCopy, PrintRunRecord, Store};

/// Copies read from the store at once for a manifest.
const MANIFEST_PAGE: i64 = 1000;

/// Copies read (and then rendered) at once for an archive.
const ARCHIVE_PAGE: i64 = 100;

/// Copies one archive renders at once, at most (one a core, up to this).
const MAX_ARCHIVE_RENDERERS: usize = 4;

/// A run's order, as stored.
pub fn order_of(run: &PrintRunRecord) -> Result<PrintRunOrder, ApiError> {
    serde_json::from_str(&run.order.params)
        .map_err(|e| ApiError::Internal(format!("print run {}: stored order: {e}", run.order.id)))
}

fn manifest_line(copy: &PrintRunCopy, trim: Trim) -> Result<ManifestLine, ApiError> {
    let corrupt = |what: &str| ApiError::Internal(format!("book {}: {what}", copy.serial));
    let answer: WordAnswer = serde_json::from_value(copy.answer.clone().ok_or_else(|| corrupt("no answer"))?)
        .map_err(|e| corrupt(&e.to_string()))?;
    let interior_sha256 = copy.interior_sha256.clone().ok_or_else(|| corrupt("no interior hash"))?;
    let version =
        InteriorVersion::from_number(copy.interior_version).ok_or_else(|| corrupt("unknown interior version"))?;
    Ok(ManifestLine::new(&copy.serial, copy.pages, trim, &answer, version, interior_sha256))
}

/// Every copy's manifest line, read a page of copies at a time.
pub async fn manifest(store: &Store, run: &PrintRunRecord) -> Result<Vec<ManifestLine>, ApiError> {
    let trim = order_of(run)?.trim;
    let mut lines = Vec::with_capacity(run.order.copies as usize);
    let mut after = 0;
    loop {
        let page = store.printrun_copies(&run.order.id, after, MANIFEST_PAGE).await?;
        let Some(last) = page.last().map(|c| c.copy) else { break };
        after = last;
        for copy in &page {
            lines.push(manifest_line(copy, trim)?);
        }
    }
    Ok(lines)
}

/// A run's ZIP as it is made: each copy's files in copy order, then `manifest.csv` (and
/// whatever else the maker adds), so that the server's and the CLI's archives are laid out
/// by one piece of code.
pub struct Archive {
    zip: ZipStream,
    manifest: String,
}

impl Default for Archive {
    fn default() -> Self {
        Archive { zip: ZipStream::new(), manifest: String::from(CSV_HEADER) }
    }
}

impl Archive {
    /// The ZIP entries of one copy's `files`, its `line` noted for the manifest.
    pub fn copy(&mut self, files: &[(String, Vec<u8>)], line: &ManifestLine) -> Vec<u8> {
        self.manifest.push_str(&line.csv());
        files.iter().flat_map(|(name, bytes)| self.zip.entry(name, bytes)).collect()
    }

    /// The manifest's entry, then `extra` files', then the ZIP's central directory.
    pub fn finish(mut self, extra: &[(&str, &[u8])]) -> Vec<u8> {
        let mut end = self.zip.entry("manifest.csv", self.manifest.as_bytes());
        for (name, bytes) in extra {
            end.extend(self.zip.entry(name, bytes));
        }
        end.extend(self.zip.finish());
        end
    }
}

/// One stored copy's files as the archive holds them, rendered off the async threads once
/// `renderer` grants a place among the renders.
async fn render_copy<P, F: Future<Output = P>>(
    store: &Store,
    serial: String,
    paper: Paper,
    renderer: impl Fn() -> F,
) -> Result<Vec<(String, Vec<u8>)>, ApiError> {
    let record =
        store.book(&serial, true).await?.ok_or_else(|| ApiError::Internal(format!("book {serial} vanished")))?;
    let _renderer = renderer().await;
    blocking(move || {
        let opts = print_options(&record);
        let version = interior_version(&record)?;
        let serial = record.serial.clone();
        let book = unpack(record)?;
        Ok(copy_files(&book, &serial, &opts, paper, version).0)
    })
    .await?
}

/// Streams a printed run's archive into `send` (false: the receiver is gone, and the
/// archive stops): its stored copies rendered a few at once, off the async threads, each
/// once `renderer` grants a place among the renders.
pub async fn stream_archive<P, F: Future<Output = P>, S: Future<Output = bool>>(
    store: &Store,
    run: &PrintRunRecord,
    renderer: impl Fn() -> F + Copy,
    send: impl Fn(Bytes) -> S,
) -> Result<(), ApiError> {
    let order = order_of(run)?;
    let parallel = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_ARCHIVE_RENDERERS);
    let mut archive = Archive::default();
    let mut after = 0;
    loop {
        let page = store.printrun_copies(&run.order.id, after, ARCHIVE_PAGE).await?;
        let Some(last) = page.last().map(|c| c.copy) else { break };
        after = last;
        let lines = page.iter().map(|copy| manifest_line(copy, order.trim)).collect::<Result<Vec<_>, _>>()?;
        let mut files = futures_util::stream::iter(page)
            .map(|copy| render_copy(store, copy.serial, order.paper, renderer))
            .buffered(parallel);
        let mut lines = lines.iter();
        while let (Some(rendered), Some(line)) = (files.next().await, lines.next()) {
            if !send(Bytes::from(archive.copy(&rendered?, line))).await {
                return Ok(()); // the client left
            }
        }
    }
    send(Bytes::from(archive.finish(&[]))).await;
    Ok(())
}
