//! Word searches: `POST /wordsearches` queues one puzzle (its words each exactly once,
//! nothing blocked), `GET /wordsearches/{id}` follows it, `GET /wordsearches` lists the
//! caller's; `POST /wordsearches/books` queues a print-ready book of them, followed,
//! listed, deleted and downloaded (interior and cover) under `/wordsearches/books`.

use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::error::ApiError;
use super::extract::Json;
use super::files::{self, Asked, Download, File, Id, Product, Query};
use super::listing::{self, Listing};
use super::resource::{self, finished_result, Kept, Resource, Submit};
use super::respond::{blocking, bounded, short_id, CHECK_TIME};
use super::AppState;
use crate::jobs::kinds::wordsearch::{WordSearchBookOutput, WordSearchBookRequest, WordSearchRequest};
use crate::jobs::kinds::{WordSearchBooks, WordSearches};
use crate::puzzles::wordsearch;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/wordsearches", post(create).get(listing::list::<WordSearches>))
        .route("/wordsearches/{id}", get(show))
        .route("/wordsearches/books", post(create_book).get(listing::list::<WordSearchBooks>))
        .route("/wordsearches/books/{id}", get(show_book).delete(resource::delete::<WordSearchBooks>))
        .merge(files::routes::<WordSearchBooks>())
}

impl Product for WordSearchBooks {
    const BASE: &'static str = "/wordsearches/books/{id}";
    const ID: Id = Id::Uuid("The book's id.");
    const FILES: &'static [File] = &[
        File::pdf("book.pdf", Query::None, "The book's interior as a print-ready PDF (409 until it is made).")
            .described("The same bytes as `puzzlepress wordsearch` writes for the same request and seed."),
        File::pdf(
            "cover.pdf",
            Query::Cover,
            "The book's paperback cover: back, spine and front as one wrap with 0.125 in bleed.",
        )
        .described(
            "As a fox book's cover: the spine's width from the page count and paper (text on it from 79 pages), the \
             title and author on the front, the book's code and the ISBN's barcode (a blank box without one) on the \
             back. From layout version 4 the front shows the first grid with a word ringed.",
        ),
        File::svg(
            "cover.svg",
            Query::Cover,
            "A preview of the cover's front (trimmed, 360 pixels wide) for web pages; paper and palette as for cover.pdf."),
    ];

    async fn make(Asked { state, caller, id, file, cover, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        let job = resource::find::<WordSearchBooks>(state, caller, id).await?;
        let book: WordSearchBookOutput = finished_result(&job)?;
        let req = resource::stored_params::<WordSearchBooks>(&job)?;
        let (id, layout) = (short_id(&job.id), resource::layout_of(&job)?);
        if file.name == "book.pdf" {
            let key = format!("wordsearch/{}", job.id);
            let render = move || req.book_pdf(&book, layout).map_err(stored_request);
            return Ok(Download::rendered(format!("wordsearch-book-{id}.pdf"), key, render));
        }
        let (paper, palette) = (cover.paper.unwrap_or_default(), cover.palette);
        let key = format!("wordsearch/{}/{}-{paper:?}-{palette:?}", job.id, file.name);
        let svg = file.name.ends_with(".svg");
        let render = move || {
            let cover = req.cover(&book, paper, palette, layout).map_err(stored_request)?;
            Ok(if svg { cover.front_svg().into_bytes() } else { cover.pdf() })
        };
        let filename = format!("wordsearch-cover-{id}.{}", if svg { "svg" } else { "pdf" });
        Ok(Download::rendered(filename, key, render))
    }
}

impl Resource for WordSearchBooks {
    const WHAT: &'static str = "word-search book";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("book_pdf", format!("{base}/book.pdf")), ("cover_pdf", format!("{base}/cover.pdf"))]
    }
}

impl Kept for WordSearchBooks {
    const LISTING: Listing = Listing::of(
        "books",
        "WordSearchBookList",
        "The word-search books you ordered, newest first, a page at a time.",
    )
    .called("word-search books")
    .deleted(
        "The book's id.",
        "Delete a word-search book you ordered.",
        "204; the book and its PDFs are gone (404 from then on). A book still queued or being made is 409: \
                 cancel its job first (`DELETE /jobs/{id}`).",
    );
}

resource::show_resource!(
    show_book,
    WordSearchBooks,
    WordSearchBook,
    "/wordsearches/books/{id}",
    "wordsearches",
    "A word-search book's state and progress (puzzles made of all) and, once made, its puzzles."
);

impl Resource for WordSearches {
    const WHAT: &'static str = "word search";
}

impl Kept for WordSearches {
    const LISTING: Listing = Listing::of(
        "wordsearches",
        "WordSearchList",
        "The word searches you asked for, newest first, a page at a time.",
    );
}

resource::show_resource!(
    show,
    WordSearches,
    WordSearch,
    "/wordsearches/{id}",
    "wordsearches",
    "A word search's state and, once made, its grid and where each word is."
);

#[utoipa::path(
    post,
    path = "/wordsearches",
    summary = "Queue a word search: every word of the list exactly once, nothing blocked.",
    description = "Words are placed by `level` (easy: across and down; medium: and the diagonals read left to \
                   right; hard: all eight directions; expert: all eight, crossing often); a solver may read any \
                   of the eight, and each word occurs exactly once along all of them. No word of the block list \
                   (unless `allow_offensive`) or of `avoid` occurs outside a list word's own cells. The other \
                   cells are drawn from the uniform law over the fillings that keep these rules (A-Z, or the \
                   list's letters with `filler: word-letters`), or spell `message` in reading order. Checked \
                   when queued: a word part of another (422 naming both, unless `allow_contained`), and, as far \
                   as a short run of the search tells, words that do not fit (422 naming them), a message of the \
                   wrong length or spelling a forbidden word, a filler that cannot be drawn; what the short run \
                   cannot tell fails the job with the same reason. Without a `seed` the server draws one (from \
                   the `Idempotency-Key` if given, so a retry is the same job). The result: `rows` (a space \
                   where the shape has no cell) and each word's cells and direction.",
    request_body(content = WordSearchRequest, content_type = "application/json", example = json!({
        "words": ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl"],
        "rows": 12, "cols": 12, "level": "hard", "seed": 7})),
)]
pub(crate) async fn create(submit: Submit, Json(req): Json<WordSearchRequest>) -> Result<Response, ApiError> {
    let req = submit.settle(req)?;
    submit.admit().await?;
    // What a short run shows cannot be made is refused now; what it cannot tell in that
    // time, the job tells (counted in the caller's queue), making the same puzzle from the
    // same seed.
    let (spec, seed) = (req.params().spec(), req.params().seed.unwrap_or_default());
    match bounded(CHECK_TIME, move |monitor| wordsearch::generate(&spec, seed, monitor)).await? {
        Ok(_) | Err(wordsearch::Error::Cancelled) => {}
        Err(wordsearch::Error::Invalid { field, detail }) => {
            let detail = format!("{field}: {detail}");
            return Err(ApiError::invalid(field, detail));
        }
        Err(wordsearch::Error::NoRoom { words }) => {
            return Err(ApiError::invalid(
                "words",
                format!("these words did not fit in the grid: {}; try a larger grid or fewer words", words.join(", ")),
            ))
        }
    }
    submit.enqueue::<WordSearches>(req).await
}

#[utoipa::path(
    post,
    path = "/wordsearches/books",
    summary = "Queue a print-ready book of word searches (1 to 500 puzzles).",
    description = "Each puzzle as `POST /wordsearches` makes one: its words each exactly once, nothing blocked. Give \
                   the `puzzles`, each with its own list (and a title, grid or level of its own), or one themed \
                   `pool` drawn into `count` lists of `words_per_puzzle` words (every word used about as often, \
                   none inside another in a list). `level` for all, or `spread` over the book in equal runs. The \
                   book prints by the fox books' rules (trim, mirrored margins, gutter by page count, embedded \
                   fonts) in the book frame: a title page, the copyright page on its back, how to play on page \
                   3, a puzzle a page from page 5 with its list under the grid, the solutions at the back, \
                   several a page under the puzzles' headings, each word looped, notes pages to an even count \
                   of at least 24. \
                   `large_print`: grid letters of at least 18 pt and lists of 16. Checked when queued (422 naming \
                   the field: `puzzles[i].words[j]`, `pool[i]`, `count`, `large_print` with what fits, …; and \
                   `puzzles` or `count` when the book would take longer to make than the caller may have, \
                   estimated from some of its puzzles made then, or its result more bytes); a list whose words \
                   do not fit its grid fails the job naming the puzzle, and so does a book that runs past its \
                   time. Without a `seed` the server draws one (from the `Idempotency-Key` if given, so a retry \
                   is the same job). Every footer prints \
                   the title and the book's `code` (from the request and seed, as `puzzlepress wordsearch` \
                   prints it). Cancel with `DELETE /jobs/{id}`.",
    request_body(content = WordSearchBookRequest, content_type = "application/json", example = json!({
        "title": "Garden Birds", "trim": "6x9", "level": "hard", "rows": 13, "cols": 13, "seed": 7,
        "puzzles": [
            {"title": "Garden", "words": ["robin", "wren", "blue tit", "magpie", "starling", "sparrow"]},
            {"title": "Water", "words": ["heron", "swan", "mallard", "coot", "moorhen", "grebe"]}]})),
)]
pub(crate) async fn create_book(submit: Submit, Json(req): Json<WordSearchBookRequest>) -> Result<Response, ApiError> {
    let req = submit.settle(req)?;
    submit.admit().await?;
    let invalid = |(field, detail): (String, String)| ApiError::invalid(field, detail);
    let (req, planned) = blocking(move || {
        req.params().print_options()?;
        let planned = req.params().plan()?;
        Ok((req, planned))
    })
    .await?
    .map_err(invalid)?;
    // Its cost, from some of its puzzles made within the handler's time.
    let limits = submit.limits().wordsearch;
    let req = bounded(CHECK_TIME, move |monitor| req.params().check_cost(&planned, &limits, monitor).map(|()| req))
        .await?
        .map_err(invalid)?;
    submit.enqueue::<WordSearchBooks>(req).await
}

/// A stored request that no longer checks: a bug, not the caller's fault.
fn stored_request((field, detail): (String, String)) -> ApiError {
    ApiError::Internal(format!("a stored word-search book's {field} no longer checks: {detail}"))
}
