//! Crosswords and word squares: `POST /crosswords/patterns`, `POST /crosswords/fills`,
//! `POST /wordsquares`. Each is a job-backed resource read at its route + `/{id}`, whose
//! `result` holds the output.

use std::sync::Arc;

use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::Json;
use super::files::{self, Asked, Download, File, Id, Product, Query};
use super::listing::{self, Listing};
use super::resource::{self, finished_result, Kept, Resource, Submit};
use super::respond::{blocking, echo, short_id};
use super::AppState;
use crate::jobs::kinds::crossword::FillOutput;
use crate::jobs::kinds::{CrosswordFills, CrosswordPatterns, WordSquares};
use crate::puzzles::crossword::{
    self, CrosswordError, Fill, FillRequest, Grid, PatternRequest, Rules, SearchRequest, WordList, WordSquareRequest,
};
use crate::puzzles::monitor::Monitor;
use crate::render;
use crate::render::print::{LayoutVersion, SheetSpec, Trim};
use crate::service::policy::{Policy, Settled};
use crate::store::{NewWordList, OnInsert};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/crosswords/patterns", post(patterns))
        .route("/crosswords/patterns/{id}", get(show_patterns))
        .route("/crosswords/fills", post(fills).get(listing::list::<CrosswordFills>))
        .route("/crosswords/fills/{id}", get(show_fill).delete(resource::delete::<CrosswordFills>))
        .merge(files::routes::<CrosswordFills>())
        .route("/wordsquares", post(word_squares))
        .route("/wordsquares/{id}", get(show_word_squares))
}

impl Resource for CrosswordPatterns {
    const WHAT: &'static str = "crossword pattern search";
}

impl Product for CrosswordFills {
    const BASE: &'static str = "/crosswords/fills/{id}";
    const ID: Id = Id::Uuid("The fill's id.");
    const FILES: &'static [File] = &[
        File::pdf(
            "grid.pdf",
            Query::Trim,
            "The empty numbered grid of a fill's pattern, with its clues (or its entry list).",
        )
        .described(
            "Titled with the request's `title`, and the byline \"by AUTHOR\" under it when the request has an \
             `author`; the request's `clues` under Across and Down (on pages of their own after the grid's when they \
             do not fit under it; an entry without a clue shows its length), else each entry's length. The PDF's \
             fonts hold ASCII: typographic punctuation prints in its ASCII form, accented Latin letters without \
             their accents.",
        )
        .at_once(),
        File::pdf(
            "solution.pdf",
            Query::Trim,
            "The filled grid with its across and down words (409 until filled, or if no fill exists).",
        )
        .described(
            "Titled with the request's `title`, \"Solution\" under it with the byline \"by AUTHOR\" when the request \
             has an `author`.",
        ),
        File::of(
            "puzzle.puz",
            "application/x-crossword",
            "Across Lite file.",
            "The fill as an Across Lite .puz file (409 until filled, or if no fill exists).",
        )
        .described(
            "Version 1.3, Latin-1 strings (typographic quotes and dashes become ASCII, other characters outside \
             Latin-1 `?`): title, author, copyright, the request's clues (empty for the entries in `clues_missing`) \
             and notes, with the header, CIB and masked checksums.",
        ),
        File::of(
            "puzzle.ipuz",
            "application/vnd.ipuz+json",
            "ipuz file.",
            "The fill as an ipuz (crossword#1) file (409 until filled, or if no fill exists).",
        )
        .described(
            "ipuz v2 JSON: `dimensions`, the numbered empty grid (`puzzle`), the `solution`, the clues under `Across` \
             and `Down` (empty for the entries in `clues_missing`), title, author, copyright and notes.",
        ),
    ];

    async fn make(Asked { state, caller, id, file, trim, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        if file.name == "grid.pdf" {
            // The empty grid needs no fill: it is printed from the pattern asked for.
            let job = resource::find::<CrosswordFills>(state, caller, id).await?;
            let req = resource::stored_params::<CrosswordFills>(&job)?;
            let grid =
                req.pattern.to_grid().map_err(|e| ApiError::Internal(format!("fill {id}: stored pattern: {e}")))?;
            let key = format!("crossword/{}/grid/{trim:?}", job.id);
            let sheet = Sheet { req, id: short_id(id), trim, layout: resource::layout_of(&job)? };
            return Ok(sheet.pdf("crossword.pdf", key, move |spec, texts| {
                render::layouts::crossword::grid_pdf(&grid, spec, texts)
            }));
        }
        let (req, fill, layout) = finished_fill(state, caller, id).await?;
        let write: fn(&Grid, &crossword::clues::Texts) -> Vec<u8> = match file.name {
            "solution.pdf" => {
                let key = format!("crossword/{}/solution/{trim:?}", id.to_ascii_lowercase());
                let sheet = Sheet { req, id: short_id(id), trim, layout };
                return Ok(sheet.pdf("crossword-solution.pdf", key, move |spec, texts| {
                    render::layouts::crossword::solution_pdf(&fill, spec, texts)
                }));
            }
            "puzzle.puz" => render::exchange::puz::puz,
            _ => render::exchange::ipuz::ipuz,
        };
        let grid = filled_grid(id, &fill)?;
        let filename = file.name.replace("puzzle", "crossword");
        Ok(Download::written(filename, move || Ok(write(&grid, &req.texts()))))
    }
}

/// What a fill's PDF sheets are printed from: its request's texts, its short id, the trim
/// asked for and the job's layout.
struct Sheet {
    req: FillRequest,
    id: String,
    trim: Trim,
    layout: LayoutVersion,
}

impl Sheet {
    fn pdf(
        self,
        filename: &str,
        key: String,
        draw: impl FnOnce(&SheetSpec, &crossword::clues::Texts) -> Vec<u8> + Send + 'static,
    ) -> Download<'static> {
        Download::rendered(filename.into(), key, move || {
            let texts = self.req.texts();
            let spec = SheetSpec { title: texts.title, id: &self.id, trim: self.trim, prose: self.layout.prose() };
            Ok(draw(&spec, &texts))
        })
    }
}

impl Resource for CrosswordFills {
    const WHAT: &'static str = "crossword fill";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![
            ("grid_pdf", format!("{base}/grid.pdf")),
            ("solution_pdf", format!("{base}/solution.pdf")),
            ("puz", format!("{base}/puzzle.puz")),
            ("ipuz", format!("{base}/puzzle.ipuz")),
        ]
    }
}

impl Kept for CrosswordFills {
    const LISTING: Listing =
        Listing::of("fills", "CrosswordFillList", "The fills you asked for, newest first, a page at a time.")
            .described(
                "Publishers see their own fills, admins everyone's: each fill's state and links (its PDFs, .puz and \
                 .ipuz files, its job). Fills are kept, with their exports and the word list they read, until their \
                 owner deletes them. Follow `next` for the following page.",
            )
            .deleted(
                "The fill's id.",
                "Delete a fill you asked for.",
                "204; the fill and its exports are gone (404 from then on). A fill still queued or searching is 409: \
                 cancel its job first (`DELETE /jobs/{id}`).",
            );
}

impl Resource for WordSquares {
    const WHAT: &'static str = "word square search";
}

resource::show_resource!(
    show_patterns,
    CrosswordPatterns,
    CrosswordPatternSearch,
    "/crosswords/patterns/{id}",
    "crosswords",
    "A pattern search's state and, once done, its patterns."
);

resource::show_resource!(
    show_fill,
    CrosswordFills,
    CrosswordFill,
    "/crosswords/fills/{id}",
    "crosswords",
    "A fill's state and, once done, the filled grid (or why there is none)."
);

resource::show_resource!(
    show_word_squares,
    WordSquares,
    WordSquareSearch,
    "/wordsquares/{id}",
    "crosswords",
    "A word square search's state and, once done, its squares."
);

/// The request and the fill of a finished fill job the caller may see (409 while it runs
/// or when it found no fill).
/// A finished fill's request, fill and layout.
async fn finished_fill(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<(FillRequest, Fill, LayoutVersion), ApiError> {
    let job = resource::find::<CrosswordFills>(state, caller, id).await?;
    let output: FillOutput = finished_result(&job)?;
    let fill = output.fill().map_err(|reason| ApiError::Conflict {
        detail: format!("fill {id} found no filling: {reason}"),
        retry_after: None,
    })?;
    Ok((resource::stored_params::<CrosswordFills>(&job)?, fill, resource::layout_of(&job)?))
}

/// The filled grid as the engine numbers it: the fill's letters as fixed letters.
fn filled_grid(id: &str, fill: &Fill) -> Result<Grid, ApiError> {
    Grid::from_rows(&fill.rows).map_err(|e| ApiError::Internal(format!("fill {id}: stored rows: {e}")))
}

/// Stops an engine at its first progress report.
struct StopAtOnce;

impl Monitor for StopAtOnce {
    fn update(&mut self, _: u64, _: u64) -> bool {
        false
    }
}

/// Validates a request the way its job will: the crossword engines check every input
/// before their first progress report, so a run stopped there reports exactly the
/// errors the job would, at the cost of at most one report interval (milliseconds).
fn validate<T>(run: impl FnOnce(&mut dyn Monitor) -> Result<T, CrosswordError>) -> Result<(), ApiError> {
    match run(&mut StopAtOnce) {
        Ok(_) => Ok(()),
        Err(e) => problem(e).map_or(Ok(()), Err),
    }
}

/// The client's error an engine error stands for; `None` when it is not about the input
/// (cancelled at the first report; searching without a result, which the job reports).
fn problem(e: CrosswordError) -> Option<ApiError> {
    Some(match e {
        CrosswordError::InvalidField { field, message } => ApiError::invalid(field, format!("{field}: {message}")),
        e @ (CrosswordError::BadHex(_) | CrosswordError::BadRows(_)) => ApiError::invalid("pattern", e.to_string()),
        CrosswordError::BadWord { index, message } => {
            ApiError::invalid(format!("words[{index}]"), format!("words[{index}]: {message}"))
        }
        CrosswordError::BadClue { key, message } => {
            ApiError::invalid(format!("clues.{key}"), format!("clues.{key}: {message}"))
        }
        e @ CrosswordError::Impossible(_) => ApiError::invalid("request", e.to_string()),
        CrosswordError::Cancelled | CrosswordError::NoSolution(_) | CrosswordError::BudgetExhausted(_) => return None,
    })
}

/// Checks a request on a blocking thread (see [`check`]) within the caller's limits and
/// with the uploaded list it names (`wordlist`, which the caller must be able to see), then
/// queues it. A full queue or quota is answered first: validation (indexing a word list)
/// costs more than the check.
async fn enqueue<K: Resource>(submit: Submit, req: K::Params) -> Result<Response, ApiError>
where
    K::Params: ListRequest + SearchRequest + Policy<Params = K::Params> + Sync,
{
    let mut req = submit.settle(req)?;
    submit.admit().await?;
    let named = req.params_mut().lists().and_then(|(_, wordlist)| wordlist.clone());
    let stored = match named {
        Some(id) => Some(stored_list(&submit.state, &submit.caller, &id).await?),
        None => None,
    };
    let limits = submit.limits().crossword.clone();
    let (req, inline) = blocking(move || check(req, stored, &limits)).await??;
    let rows = match inline {
        Some((new, list)) => {
            submit.state.wordlists.insert(&new.id, list);
            vec![OnInsert::WordList(new)]
        }
        None => Vec::new(),
    };
    submit.enqueue_with::<K>(req, rows).await
}

/// Requests that may carry a word list: inline `words`, or a stored list's id `wordlist`.
pub(crate) trait ListRequest: Send + 'static {
    fn lists(&mut self) -> Option<(&mut Option<Vec<String>>, &mut Option<String>)> {
        None
    }
}

impl ListRequest for PatternRequest {
    /// Only a `fillable` American request has a list; elsewhere `words` and `wordlist` are
    /// refused by name.
    fn lists(&mut self) -> Option<(&mut Option<Vec<String>>, &mut Option<String>)> {
        (self.rules == Rules::American && self.fillable).then_some((&mut self.words, &mut self.wordlist))
    }
}

impl ListRequest for FillRequest {
    fn lists(&mut self) -> Option<(&mut Option<Vec<String>>, &mut Option<String>)> {
        Some((&mut self.words, &mut self.wordlist))
    }
}

impl ListRequest for WordSquareRequest {
    fn lists(&mut self) -> Option<(&mut Option<Vec<String>>, &mut Option<String>)> {
        Some((&mut self.words, &mut self.wordlist))
    }
}

/// A list sent inline, as it is stored: its text (by hash) and the parsed list.
type InlineList = (NewWordList, Arc<WordList>);

/// Validates `req` (see [`validate`]). Its inline `words` become a list stored once by
/// the hash of its text, which the job reads as `wordlist`: a list sent with many
/// requests is kept once, not in every job's params.
fn check<P: ListRequest + SearchRequest>(
    mut settled: Settled<P>,
    mut stored: Option<Arc<WordList>>,
    limits: &crossword::Limits,
) -> Result<(Settled<P>, Option<InlineList>), ApiError> {
    let mut inline = None;
    let req = settled.params_mut();
    if let Some((words @ Some(_), wordlist @ None)) = req.lists() {
        let list = crossword::inline_list(words.as_deref().unwrap_or_default(), limits)
            .map_err(|e| problem(e).unwrap_or_else(|| ApiError::Internal("an inline list failed".into())))?;
        let new = crate::service::wordlists::stored(list.to_text().into_bytes(), &list)?;
        *words = None;
        *wordlist = Some(new.id.clone());
        let list = Arc::new(list);
        stored = Some(list.clone());
        inline = Some((new, list));
    }
    validate(|p| req.search(stored.as_deref(), limits, p))?;
    Ok((settled, inline))
}

/// The uploaded list `id`, if the caller may use it (422 naming `wordlist` otherwise).
async fn stored_list(state: &AppState, caller: &Caller, id: &str) -> Result<Arc<WordList>, ApiError> {
    let missing = || {
        ApiError::invalid("wordlist", format!("wordlist: no word list {}; upload one with POST /wordlists", echo(id)))
    };
    super::wordlists::visible(state, caller, id).await.map_err(|_| missing())?;
    state.wordlists.load(id).await.map_err(|e| ApiError::Internal(e.to_string()))?.ok_or_else(missing)
}

#[utoipa::path(
    post,
    path = "/crosswords/patterns",
    summary = "Queue the sampling (or enumeration) of black/white crossword patterns.",
    description = "Square grids of side 5..21 with `mirror` (default) or `rotational` symmetry, no 2x2 block of one \
                   colour, no word of length 1 or 2 (every white square is in a word of 3 or more across or down; a \
                   square in a run of 1 the other way is unchecked, which is allowed), no word longer than \
                   `max_len`, at most 3 black squares in a row, all white squares connected. `count` is a number of \
                   distinct random patterns (seeded) or `\"all\"` to enumerate every pattern once (`total`, with up \
                   to `limit` patterns). Filters: `max_black_share`, `max_three_letter_words`, `min_words`, \
                   `max_words`. Impossible requests (e.g. an even side with mirror symmetry) are refused at once.\n\n\
                   `\"rules\": \"american\"`: grids of `size` or `rows` x `cols` (3..31) with `rotational` \
                   (default), `mirror` or `none` symmetry, every white square in an across and a down entry (no \
                   unchecked squares), entries of 3 or more, white squares connected, at most `max_black_share` \
                   of the squares black (default 0.16) and at most `max_words` entries (default 78 at 15x15, \
                   scaled by area). `theme` entries are placed as across entries in symmetric pairs of equal \
                   length (their letters in `rows`). `fillable: true` keeps only patterns the word list fills \
                   (the bundled list, `words` or `wordlist`, `min_score`, `allow_offensive`, within \
                   `fill_max_nodes`), each with its `fill`. `count` must be a number; patterns not square or \
                   outside 5..21 have no `hex`.",
    request_body(content = PatternRequest, content_type = "application/json",
        examples(
            ("seed" = (value = json!({"size": 15, "max_len": 9, "symmetry": "mirror", "count": 3, "seed": 1}))),
            ("american" = (value = json!({"rules": "american", "rows": 15, "cols": 15, "count": 2, "seed": 1,
                "fillable": true}))),
        )),
)]
pub(crate) async fn patterns(submit: Submit, Json(req): Json<PatternRequest>) -> Result<Response, ApiError> {
    enqueue::<CrosswordPatterns>(submit, req).await
}

#[utoipa::path(
    post,
    path = "/crosswords/fills",
    summary = "Queue filling a pattern from a word list.",
    description = "Every across and down slot gets a distinct word from the list (the bundled English list by \
                   default, or `words`), crossings agree, with standard numbering. A fill that does not exist, or is \
                   not found within `max_nodes` / `time_limit_ms`, ends `succeeded` with `rows: null` and a \
                   `reason`. `title`, `author`, `copyright`, `notes` and `clues` (keyed `1A`, `2D`; a key that \
                   names no entry of the grid is refused with 422 naming `clues.<key>`) go into the files; the \
                   result's `clues_missing` lists the entries without a clue. To clue a fill, send its `rows` back as \
                   the `pattern` with the texts: every square is a locked letter, so it is filled at once with the \
                   same words. The PDFs are at `grid_pdf` and `solution_pdf` of its links, the Across Lite and ipuz \
                   files at `puz` and `ipuz`.",
    request_body(content = FillRequest, content_type = "application/json",
        example = json!({"pattern": "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg", "seed": 1})),
)]
pub(crate) async fn fills(submit: Submit, Json(req): Json<FillRequest>) -> Result<Response, ApiError> {
    enqueue::<CrosswordFills>(submit, req).await
}

#[utoipa::path(
    post,
    path = "/wordsquares",
    summary = "Queue finding word squares.",
    description = "Squares of side 3..7 whose rows and columns are all words (rows need not equal columns; with \
                   `distinct` (default true) all 2n words differ). `count` squares are sampled (seeded), or \
                   `\"all\"` counts them (`total`).",
    request_body(content = WordSquareRequest, content_type = "application/json", example = json!({"size": 4, "seed": 2})),
)]
pub(crate) async fn word_squares(submit: Submit, Json(req): Json<WordSquareRequest>) -> Result<Response, ApiError> {
    enqueue::<WordSquares>(submit, req).await
}
