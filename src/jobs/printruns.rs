//! Print runs: one order makes `copies` books, each with its own random serial (and so its
//! own seed), printed by ordinary book jobs. A feeder queues a run's copies a window at a
//! time, so a run of 10,000 copies keeps at most [`WINDOW`] jobs in the queue: other
//! callers' jobs are not pushed back, the queue limit holds, and owners still take turns at
//! the workers. Crash-safe: a copy is queued with its book row in one transaction, and the
//! unique `(printrun, copy)` index makes a copy queued twice (two feeders, a retry after a
//! crash) impossible.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::kinds::books::{BookParams, CopyOf};
use super::kinds::Books;
use super::{Queue, SubmitError, Submitter};
use crate::puzzles::foxbook::Serial;
use crate::puzzles::wordbook::{Shape, WordSpec};
use crate::render::layouts::cover::Paper;
use crate::render::print::{PrintOptions, Trim};
use crate::store::{NewPrintRun, PrintRunRecord};

/// Copies of one run queued or running at once, at most: and at most half the caller's
/// quota, so that a long run leaves them room for other orders.
pub const WINDOW: i64 = 64;

/// Copies one run may have.
pub const MAX_COPIES: u32 = 10_000;

/// Runs the feeder visits per pass.
const RUNS_PER_PASS: i64 = 100;

crate::fields::api_struct! {
    /// What a print run makes: `copies` books of one word, letters and shape, and the
    /// cover's paper. Members other than `copies` are as in a book order; the order is stored
    /// with each of them resolved, so every copy is printed alike.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct PrintRunOrder {
        /// How many copies (1..10000), each a different book with its own serial.
        #[schema(minimum = 1, maximum = 10000)]
        pub copies: u32,
        /// The word hidden once in each copy.
        #[serde(default)]
        #[schema(pattern = "^[A-Za-z]{2,8}$", default = "FOX")]
        pub word: Option<String>,
        /// The letters the pages are made of (default: the word's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(pattern = "^[A-Za-z]{1,8}$")]
        pub letters: Option<String>,
        /// Default `rectangle`.
        #[serde(default)]
        pub shape: Option<Shape>,
        /// Pages in each book.
        #[serde(default)]
        #[schema(minimum = 1, maximum = 1000, default = 200)]
        pub pages: Option<u32>,
        /// Rows of letters on a page (default 32, or a mask's rows).
        #[serde(default)]
        #[schema(minimum = 3, maximum = 64, default = 32)]
        pub rows: Option<u32>,
        /// Columns of letters on a page (default 20, or a mask's width).
        #[serde(default)]
        #[schema(minimum = 3, maximum = 64, default = 20)]
        pub cols: Option<u32>,
        /// The trim every copy is printed at.
        #[serde(default)]
        pub trim: Trim,
        /// The title on every copy (default: "Find the" and the word).
        #[serde(default)]
        #[schema(default = "Find the Fox", max_length = 60)]
        pub title: Option<String>,
        /// Where readers look their copy's answer up (printed with the serial and as a QR
        /// code; an empty string prints none). Required unless the server was started with
        /// `--lookup-url`, its public address, which is then the default (stored resolved, so
        /// every copy prints the same).
        #[serde(default)]
        pub lookup_url: Option<String>,
        /// The paper the interiors are printed on; it sets the covers' spine width.
        #[serde(default)]
        pub paper: Paper,
        ..imprint,
        /// The copies' serials, in copy order: to register copies printed offline by
        /// `puzzlepress printrun` (send the `printrun.json` it writes), so that their readers can
        /// look their answers up. The server makes the same books from them (with the same
        /// secret), one per copy, each a serial no book has yet. Default: fresh random serials.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(max_items = 10000)]
        pub serials: Option<Vec<String>>,
    }
}

impl PrintRunOrder {
    /// The book each copy is.
    pub fn book(&self) -> WordSpec {
        WordSpec::with_defaults(
            self.word.clone(),
            self.letters.clone(),
            self.shape.clone(),
            self.pages,
            self.rows,
            self.cols,
        )
    }

    /// How each copy is printed.
    pub fn print(&self) -> PrintOptions {
        PrintOptions {
            trim: self.trim,
            title: self.title.clone().unwrap_or_else(|| crate::render::print::default_title(&self.book().word)),
            lookup_url: self.lookup_url.clone().unwrap_or_default(),
            imprint: self.imprint(),
        }
    }

    /// The order with the book and its printing as resolved and checked: what is stored.
    pub fn resolved(self, spec: WordSpec, print: PrintOptions) -> PrintRunOrder {
        PrintRunOrder {
            word: Some(spec.word),
            letters: spec.letters,
            shape: Some(spec.shape),
            pages: Some(spec.pages),
            rows: Some(spec.rows),
            cols: Some(spec.cols),
            title: Some(print.title),
            lookup_url: Some(print.lookup_url),
            author: print.imprint.author,
            copyright: print.imprint.copyright,
            isbn: print.imprint.isbn,
            ..self
        }
    }
}

impl Queue {
    /// Stores a print run ordered by `by` (or finds the one `by`'s idempotency key already
    /// made: then the order must be the same) and queues its first window of copies.
    pub async fn order_printrun(
        &self,
        by: &Submitter,
        order: &PrintRunOrder,
        idempotency_key: Option<String>,
    ) -> Result<(PrintRunRecord, bool), SubmitError> {
        let new = NewPrintRun {
            id: uuid::Uuid::new_v4().to_string(),
            owner: by.owner.clone(),
            tier: by.tier,
            params: serde_json::to_string(order)?,
            copies: order.copies as i64,
            at_once: WINDOW.min(by.quota / 2).max(1),
            idempotency_key,
        };
        let earlier = match &new.idempotency_key {
            Some(key) => self.store.printrun_by_idempotency_key(&by.owner, key).await?,
            None => None,
        };
        let (run, created) = match earlier {
            // A retried order whose run exists is not new work, even in a full queue.
            Some(run) => (run, false),
            None => {
                self.admit(by).await?;
                // Its copies are counted as each is printed.
                self.check_storage(by, new.params.len()).await?;
                self.store.insert_printrun(&new).await?
            }
        };
        if !created {
            let same = serde_json::from_str::<PrintRunOrder>(&run.order.params).is_ok_and(|earlier| &earlier == order);
            if !same {
                return Err(SubmitError::KeyReused);
            }
            return Ok((run, false));
        }
        self.feed(&run).await?;
        let run = self.store.printrun(&run.order.id).await?.unwrap_or(run);
        Ok((run, true))
    }

    /// Queues copies of `run` until its window's worth of them are queued or running, it
    /// has all its copies, or the queue is full. Returns how many were queued.
    pub async fn feed(&self, run: &PrintRunRecord) -> Result<i64, SubmitError> {
        let order: PrintRunOrder = serde_json::from_str(&run.order.params)?;
        // The run was admitted as a whole when ordered.
        let by = Submitter { owner: run.order.owner.clone(), quota: i64::MAX, tier: run.order.tier, storage: i64::MAX };
        let room = (run.order.at_once - run.active).min(run.order.copies - run.queued).max(0);
        let mut queued = 0;
        for copy in run.queued + 1..=run.queued + room {
            let serial = match &order.serials {
                Some(serials) => serials.get(copy as usize - 1).cloned().unwrap_or_default(),
                None => Serial::from_bits(rand::random::<u64>()).to_string(),
            };
            let params = BookParams::new(
                serial,
                order.book(),
                order.print(),
                Some(CopyOf { printrun: run.order.id.clone(), copy }),
            );
            match self.submit::<Books>(&by, &params, None).await {
                Ok(_) => queued += 1,
                // Another feeder queued this copy (or, rarely, the serial is taken): the
                // next pass starts from the books as they are. A registered serial was
                // free when the run was ordered; only a concurrent order of the same
                // serials can take it, and that run prints the same book.
                Err(SubmitError::Store(e)) if e.is_unique_violation() => {
                    if order.serials.is_some() {
                        tracing::warn!(run = %run.order.id, copy, "a registered serial of this run is taken by another book");
                    }
                    break;
                }
                Err(SubmitError::Refused(_)) => break,
                Err(e) => return Err(e),
            }
        }
        if run.queued + queued >= run.order.copies {
            self.store.note_printrun_fed(&run.order.id).await?;
        }
        Ok(queued)
    }

    /// One pass of the feeder over the runs with copies still to queue.
    pub async fn feed_printruns(&self) -> Result<i64, SubmitError> {
        let mut queued = 0;
        for run in self.store.printruns_to_feed(RUNS_PER_PASS).await? {
            queued += self.feed(&run).await?;
        }
        Ok(queued)
    }
}

/// Feeds print runs every `every` until `stop` (several processes feeding at once is
/// harmless: each copy is queued once).
pub async fn feed_printruns(queue: std::sync::Arc<Queue>, every: Duration, stop: CancellationToken) {
    loop {
        if let Err(e) = queue.feed_printruns().await {
            tracing::warn!(error = %e, "feeding print runs failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = stop.cancelled() => return,
        }
    }
}
