//! Print runs: `POST /printruns` orders many copies of a book at once, each its own book
//! with its own serial; `GET /printruns/{id}` follows them; the manifest (the publisher's
//! master answer key) and a ZIP of every copy's files come once all are printed.

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Call;
use super::extract::Json as JsonBody;
use super::files::{self, Asked, Download, File, Id, Product};
use super::listing::{self, listed_owner, Listed, Listing, Next, Page};
use super::resource::Submit;
use super::respond::{accepted, echo};
use super::AppState;
use crate::jobs::printruns::{PrintRunOrder, MAX_COPIES};
use crate::puzzles::foxbook::Serial;
use crate::puzzles::wordbook::Shape;
use crate::render::layouts::cover::Paper;
use crate::render::layouts::printrun::{ManifestLine, CSV_HEADER};
use crate::render::print::Trim;
use crate::service::policy::fox_book;
use crate::service::printruns::{manifest, order_of, stream_archive};
use crate::service::timestamp;
use crate::store::{JobState, PrintRunCopy, PrintRunRecord};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/printruns", post(order).get(listing::list::<PrintRuns>))
        .route("/printruns/{id}", get(show).delete(delete))
        .route("/printruns/{id}/manifest.json", get(manifest_json))
        .merge(files::routes::<PrintRuns>())
}

/// Copies listed per page of `GET /printruns/{id}`.
const COPIES_PER_PAGE: i64 = 1000;

/// A print run as clients see it: its summary and the rest of its order, and a page of
/// its copies.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PrintRun)]
pub(crate) struct PrintRunView {
    #[serde(flatten)]
    summary: PrintRunSummary,
    /// The letters and shape of every copy.
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    letters: String,
    shape: Shape,
    #[schema(minimum = 1, maximum = 1000)]
    pages: u32,
    #[schema(minimum = 3, maximum = 64)]
    rows: u32,
    #[schema(minimum = 3, maximum = 64)]
    cols: u32,
    lookup_url: String,
    /// What to know before printing (as a book's `warnings`). Empty when all is well.
    warnings: Vec<String>,
    /// Every copy's author, copyright line and ISBN (normalised); null: none.
    #[schema(required = true)]
    author: Option<String>,
    #[schema(required = true)]
    copyright: Option<String>,
    #[schema(required = true)]
    isbn: Option<String>,
    /// The copies queued so far, in copy order (a page of up to 1,000; follow `next`).
    books: Vec<CopyView>,
    /// Pass as `cursor` for the next page of copies; null on the last page.
    #[schema(required = true)]
    next_cursor: Option<String>,
    /// The next page's address; null on the last page.
    #[schema(required = true)]
    next: Option<String>,
}

/// One copy of a run.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PrintRunCopy)]
pub(crate) struct CopyView {
    /// The copy's number in the run (1-based).
    copy: i64,
    #[schema(pattern = "^[0-9A-HJKMNP-TV-Z]{11}$", example = "NCB5919RTQP")]
    serial: String,
    state: JobState,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PrintRunLinks)]
struct RunLinks {
    #[serde(rename = "self")]
    this: String,
    manifest_csv: String,
    manifest_json: String,
    archive: String,
}

impl RunLinks {
    fn new(id: &str) -> RunLinks {
        let base = format!("/printruns/{id}");
        RunLinks {
            manifest_csv: format!("{base}/manifest.csv"),
            manifest_json: format!("{base}/manifest.json"),
            archive: format!("{base}/archive.zip"),
            this: base,
        }
    }
}

/// The state of a run, from its copies' jobs.
fn run_state(run: &PrintRunRecord) -> JobState {
    let ended = run.done + run.failed;
    if run.done == run.order.copies {
        JobState::Succeeded
    } else if ended == run.order.copies {
        JobState::Failed
    } else if ended > 0 || run.running > 0 {
        JobState::Running
    } else {
        JobState::Queued
    }
}

fn view(run: PrintRunRecord, copies: Vec<PrintRunCopy>) -> Result<PrintRunView, ApiError> {
    let order = order_of(&run)?;
    let (book, print) = (order.book(), order.print());
    let base = format!("/printruns/{}", run.order.id);
    let last = copies.last().map(|c| c.copy);
    let more = copies.len() as i64 == COPIES_PER_PAGE && last.is_some_and(|c| c < run.queued);
    let next_cursor = last.filter(|_| more).map(|c| c.to_string());
    Ok(PrintRunView {
        letters: String::from_utf8_lossy(&book.alphabet()).into_owned(),
        shape: book.shape,
        pages: book.pages,
        rows: book.rows,
        cols: book.cols,
        warnings: crate::render::print::unreachable_lookup(&print.lookup_url).into_iter().collect(),
        lookup_url: print.lookup_url,
        author: print.imprint.author,
        copyright: print.imprint.copyright,
        isbn: print.imprint.isbn,
        books: copies.into_iter().map(|c| CopyView { copy: c.copy, serial: c.serial, state: c.state }).collect(),
        next: next_cursor.as_ref().map(|c| format!("{base}?cursor={c}")),
        next_cursor,
        summary: PrintRunSummary::new(run)?,
    })
}

/// A print run as listings show it: without its copies (they are at its own address).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PrintRunSummary)]
pub(crate) struct PrintRunSummary {
    id: String,
    /// `queued` (no copy started), `running`, `succeeded` (every copy printed) or `failed`
    /// (every copy ended and some failed).
    state: JobState,
    copies: i64,
    /// Copies printed.
    done: i64,
    /// Copies whose printing failed.
    failed: i64,
    /// The word hidden once in every copy.
    #[schema(pattern = "^[A-Z]{2,8}$", example = "FOX")]
    word: String,
    title: String,
    trim: Trim,
    paper: Paper,
    #[schema(format = DateTime)]
    created_at: String,
    links: RunLinks,
}

impl PrintRunSummary {
    fn new(run: PrintRunRecord) -> Result<PrintRunSummary, ApiError> {
        let order = order_of(&run)?;
        let print = order.print();
        Ok(PrintRunSummary {
            state: run_state(&run),
            copies: run.order.copies,
            done: run.done,
            failed: run.failed,
            word: order.book().word,
            title: print.title,
            trim: print.trim,
            paper: order.paper,
            created_at: timestamp(run.created_at),
            links: RunLinks::new(&run.order.id),
            id: run.order.id,
        })
    }
}

/// The caller's print runs, as listed.
pub(crate) struct PrintRuns;

impl Listed for PrintRuns {
    type Item = PrintRunSummary;
    const LISTING: Listing =
        Listing::of("printruns", "PrintRunList", "The print runs you ordered, newest first, a page at a time.")
            .called("print runs")
            .described(
                "Publishers see their own runs, admins everyone's: each run's state, counts and links. Runs are kept \
                 until their owner deletes them. Follow `next` for the following page.",
            );

    fn route() -> String {
        "/printruns".into()
    }

    async fn items(state: &AppState, caller: &Caller, page: &Page) -> Result<(Vec<PrintRunSummary>, Next), ApiError> {
        let runs = state.store.printruns_page(listed_owner(caller).as_deref(), page.before, page.fetch()).await?;
        let (runs, next) = page.finish("/printruns", runs, |r| r.position);
        Ok((runs.into_iter().map(PrintRunSummary::new).collect::<Result<_, _>>()?, next))
    }
}

#[utoipa::path(
    delete,
    path = "/printruns/{id}",
    summary = "Delete a print run you ordered, with every copy.",
    description = "204; the run, its manifest and archive, and every copy (its book, pages, answer and PDFs) are \
                   gone (404 from then on). A run still printing (copies queued or running, or still to be \
                   queued) is 409: delete it once every copy has ended.",
    params(("id" = String, Path, description = "The run's id.")),
    responses(
        (status = 204, description = "Deleted."),
        (status = 409, response = super::openapi::Conflict),
    )
)]
pub(crate) async fn delete(Call { state, caller }: Call, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let run = find(&state, &caller, &id).await?;
    if state.store.delete_printrun(&run.order.id).await? {
        return Ok(StatusCode::NO_CONTENT);
    }
    // Not deleted: it is printing, or a concurrent request deleted it.
    let run = find(&state, &caller, &id).await?;
    Err(ApiError::Conflict {
        detail: format!(
            "print run {} is printing ({} of {} copies printed); delete it once every copy has ended",
            run.order.id, run.done, run.order.copies
        ),
        retry_after: None,
    })
}

#[utoipa::path(
    post,
    path = "/printruns",
    summary = "Order a print run: many copies of a book, each a different book with its own serial.",
    description = "Each copy is an ordinary book (its own random serial and seed), printed by a book job. Copies \
                   are queued 64 at a time, so a long run shares the workers fairly with other callers. An \
                   `Idempotency-Key` makes a retried order return the same run.",
    request_body(content = PrintRunOrder, content_type = "application/json",
        example = json!({"copies": 3, "pages": 24, "rows": 16, "cols": 12, "trim": "6x9", "title": "Find the Fox", "paper": "cream"})),
    responses(
        (status = 202, description = "Ordered; follow it at `Location`.", body = PrintRunView,
            headers(("Location" = String, description = "`/printruns/{id}`"))),
    )
)]
pub(crate) async fn order(submit: Submit, JsonBody(mut order): JsonBody<PrintRunOrder>) -> Result<Response, ApiError> {
    let key = submit.key();
    let Submit { state, caller, .. } = submit;
    caller.require_key("ordering a print run")?;
    if !(1..=MAX_COPIES).contains(&order.copies) {
        return Err(ApiError::invalid("copies", format!("copies must be 1..{MAX_COPIES} (got {})", order.copies)));
    }
    check_lookup_url(&state, &order)?;
    let (spec, print) = fox_book(
        order.book(),
        order.trim,
        order.title.take(),
        order.lookup_url.take(),
        order.imprint(),
        &caller.limits(&state).foxbook,
        &state.lookup_url,
    )?;
    if let Some(serials) = order.serials.take() {
        order.serials = Some(registered_serials(&state, order.copies, serials).await?);
    }
    let order = order.resolved(spec, print);
    let submitter = caller.submitter(&state.quotas);
    let (run, _) = state.queue.order_printrun(&submitter, &order, key).await?;
    let copies = state.store.printrun_copies(&run.order.id, 0, COPIES_PER_PAGE).await?;
    let view = view(run, copies)?;
    Ok(accepted(&view.summary.links.this.clone(), view))
}

/// 422 for an order without a lookup address when the server was not told its own:
/// copies printed with this machine's own address would send every reader nowhere.
fn check_lookup_url(state: &AppState, order: &PrintRunOrder) -> Result<(), ApiError> {
    if order.lookup_url.is_some() || state.lookup_url_configured {
        return Ok(());
    }
    Err(ApiError::invalid(
        "lookup_url",
        format!(
            "lookup_url is required: this server was not told its public address (--lookup-url), so copies would \
             print {} with their serial and QR code, which readers cannot reach; give the address where readers \
             look their copy's answer up (an empty string prints none)",
            state.lookup_url
        ),
    ))
}

/// The serials of copies printed offline, checked: one per copy, each well formed (read as
/// people type them), distinct, and not yet a book's.
async fn registered_serials(state: &AppState, copies: u32, raw: Vec<String>) -> Result<Vec<String>, ApiError> {
    if raw.len() != copies as usize {
        return Err(ApiError::invalid(
            "serials",
            format!("serials must give one serial per copy: {} for {copies} copies", raw.len()),
        ));
    }
    let mut seen = std::collections::HashMap::with_capacity(raw.len());
    let mut serials = Vec::with_capacity(raw.len());
    for (i, text) in raw.iter().enumerate() {
        let field = format!("serials[{i}]");
        let serial = Serial::parse(text)
            .map_err(|e| ApiError::invalid(&field, format!("{field}: {} is not a serial number: {e}", echo(text))))?
            .to_string();
        if let Some(first) = seen.insert(serial.clone(), i) {
            return Err(ApiError::invalid(&field, format!("{field}: {serial} is also serials[{first}]")));
        }
        serials.push(serial);
    }
    if let Some(taken) = state.store.existing_serials(&serials).await?.into_iter().min_by_key(|s| seen[s]) {
        let field = format!("serials[{}]", seen[&taken]);
        return Err(ApiError::invalid(
            &field,
            format!("{field}: {taken} is a book already (registered before, or ordered here); nothing was ordered"),
        ));
    }
    Ok(serials)
}

/// The run `id`, if the caller may see it (404 otherwise, as for one that does not exist).
async fn find(state: &AppState, caller: &Caller, id: &str) -> Result<PrintRunRecord, ApiError> {
    match state.store.printrun(id).await? {
        Some(run) if caller.may_see(&run.order.owner) => Ok(run),
        _ => Err(ApiError::not_found(format!("there is no print run {}", echo(id)))),
    }
}

/// The query of `GET /printruns/{id}`.
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub(crate) struct ShowQuery {
    /// List the copies after this copy number: the `next_cursor` of the previous page.
    #[param(pattern = "^[0-9]{1,9}$")]
    cursor: Option<String>,
}

#[utoipa::path(
    get,
    path = "/printruns/{id}",
    summary = "A print run: its state, counts and copies (a page of 1,000 at a time).",
    params(("id" = String, Path, description = "The run's id."), ShowQuery),
    responses(
        (status = 200, description = "The run.", body = PrintRunView),
        (status = 422, response = super::openapi::Invalid),
    )
)]
pub(crate) async fn show(
    Call { state, caller }: Call,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<PrintRunView>, ApiError> {
    let q: ShowQuery = serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::invalid("query", format!("query string: {}", echo(&e.to_string()))))?;
    let after = match q.cursor.as_deref() {
        None => 0,
        Some(c) => c
            .parse::<u32>()
            .map_err(|_| ApiError::invalid("cursor", format!("cursor must be a copy number (got {})", echo(c))))?
            as i64,
    };
    let run = find(&state, &caller, &id).await?;
    let copies = state.store.printrun_copies(&run.order.id, after, COPIES_PER_PAGE).await?;
    Ok(Json(view(run, copies)?))
}

/// A run's manifest as JSON.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Manifest)]
pub(crate) struct ManifestView {
    printrun: String,
    /// One line per copy, in copy order.
    copies: Vec<ManifestLine>,
}

/// The run, once every copy is printed: 409 with `Retry-After` while it prints, 409
/// without when copies failed.
async fn printed(state: &AppState, caller: &Caller, id: &str) -> Result<PrintRunRecord, ApiError> {
    let run = find(state, caller, id).await?;
    match run_state(&run) {
        JobState::Succeeded => Ok(run),
        JobState::Failed => Err(ApiError::Conflict {
            detail: format!("{} of the run's {} copies failed to print", run.failed, run.order.copies),
            retry_after: None,
        }),
        _ => Err(ApiError::Conflict {
            detail: format!("the run is printing: {} of {} copies printed", run.done, run.order.copies),
            retry_after: Some(5),
        }),
    }
}

#[utoipa::path(
    get,
    path = "/printruns/{id}/manifest.json",
    summary = "The run's manifest as JSON (the same lines as manifest.csv).",
    params(("id" = String, Path, description = "The run's id.")),
    responses(
        (status = 200, description = "The manifest.", body = ManifestView),
        (status = 409, response = super::openapi::NotPrinted),
    )
)]
pub(crate) async fn manifest_json(
    Call { state, caller }: Call,
    Path(id): Path<String>,
) -> Result<Json<ManifestView>, ApiError> {
    let run = printed(&state, &caller, &id).await?;
    let copies = manifest(&state.store, &run).await?;
    Ok(Json(ManifestView { printrun: run.order.id, copies }))
}

/// Chunks of the archive in flight between the renderer and the connection: memory stays
/// bounded however long the run, as a slow client slows the renderer down.
const ARCHIVE_BUFFER: usize = 4;

impl Product for PrintRuns {
    const BASE: &'static str = "/printruns/{id}";
    const ID: Id = Id::Uuid("The run's id.");
    const NOT_MADE: &'static str = "NotPrinted";
    const FILES: &'static [File] = &[
        File::of(
            "manifest.csv",
            "text/csv",
            "CSV.",
            "The run's master answer key: a line per copy with where its fox is and its interior's hash.",
        )
        .described(
            "A header line, then `serial,puzzle_pages,interior_pages,trim,word,page,row,col,direction,interior_sha256` \
             per copy, in copy order: `puzzle_pages` counts the pages of puzzles, `interior_pages` the interior \
             PDF's pages (what a printer counts: the title page and its back, the puzzles, notes pages to an even \
             count of at least 24). 409 with `Retry-After` until every copy is printed.",
        ),
        File::of("archive.zip", "application/zip", "ZIP.", "Every copy's files in one ZIP, streamed as it is made.")
            .described(
                "`SERIAL/interior.pdf`, `SERIAL/cover.pdf` (on the run's paper) and `SERIAL/answer.pdf` for each \
                 copy, in copy order, then `manifest.csv`. Each file is byte-identical to its single download. 409 \
                 with `Retry-After` until every copy is printed.",
            ),
    ];

    async fn make(Asked { state, caller, id, file, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        let run = printed(state, caller, id).await?;
        if file.name == "manifest.csv" {
            let lines = manifest(&state.store, &run).await?;
            let csv: String =
                std::iter::once(CSV_HEADER.to_string()).chain(lines.iter().map(ManifestLine::csv)).collect();
            return Ok(Download::kept(format!("printrun-{}.csv", run.order.id), csv));
        }
        // One of the caller's renders (--renders-per-caller) for as long as it streams.
        let slot = state.renders.hold_slot(&caller.owner())?;
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(ARCHIVE_BUFFER);
        let filename = format!("printrun-{}.zip", run.order.id);
        let state = state.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let renderer = || state.renders.renderer();
            let send = |chunk| {
                let tx = &tx;
                async move { tx.send(Ok(chunk)).await.is_ok() }
            };
            if let Err(e) = stream_archive(&state.store, &run, renderer, send).await {
                // The status line is sent; all that is left is to cut the archive short.
                tracing::warn!(printrun = %run.order.id, error = %e, "print run archive stopped");
                let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
            }
        });
        let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
        Ok(Download::streamed(filename, body))
    }
}
