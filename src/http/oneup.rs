//! One Up: solve a puzzle (`POST /oneup/solves`, text or JSON body), generate new ones
//! (`POST /oneup/puzzles`) and books of them (`POST /oneup/books`), all jobs whose results
//! are read at their own URLs; and hints (`POST /oneup/hints`), answered at once.

use axum::extract::{RawQuery, Request};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use super::edge::caller::Caller;
use super::error::ApiError;
use super::extract::{self, media_type, read_body};
use super::files::{self, Asked, Download, File, Id, Product, Query};
use super::listing::{self, Listing};
use super::resource::{self, finished_result, Kept, Resource, Submit};
use super::respond::{blocking, echo, short_id};
use super::AppState;
use crate::jobs::kinds::oneup::OneUpBookOutput;
use crate::jobs::kinds::{OneUpBooks, OneUpPuzzles, OneUpSolves};
use crate::puzzles::oneup::{self, Cell, ErrorKind, HintError, ParseError, Placement, Puzzle, Step, Technique};
use crate::render;
use crate::render::layouts::oneup_book::{oneup_book_pdf, oneup_cover, Entry};
use crate::render::print::{PrintOptions, SheetSpec};
use crate::render::typeset::prose::Breaking;
use crate::service::policy::{OneUpBookRequest, OneUpPuzzleRequest, SolveQuery};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/oneup/solves", post(create_solve))
        .route("/oneup/solves/{id}", get(show_solve))
        .route("/oneup/puzzles", post(create_puzzle))
        .route("/oneup/hints", post(create_hint))
        .route("/oneup/puzzles/{id}", get(show_puzzle))
        .merge(files::routes::<OneUpPuzzles>())
        .route("/oneup/books", post(create_book).get(listing::list::<OneUpBooks>))
        .route("/oneup/books/{id}", get(show_book).delete(resource::delete::<OneUpBooks>))
        .merge(files::routes::<OneUpBooks>())
}

impl Resource for OneUpSolves {
    const WHAT: &'static str = "One Up solve";
}

impl Resource for OneUpPuzzles {
    const WHAT: &'static str = "One Up puzzle";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("puzzle_pdf", format!("{base}/puzzle.pdf")), ("solution_pdf", format!("{base}/solution.pdf"))]
    }
}

impl Resource for OneUpBooks {
    const WHAT: &'static str = "One Up book";
    fn links(base: &str) -> Vec<(&'static str, String)> {
        vec![("book_pdf", format!("{base}/book.pdf")), ("cover_pdf", format!("{base}/cover.pdf"))]
    }
}

impl Kept for OneUpBooks {
    const LISTING: Listing =
        Listing::of("books", "OneUpBookList", "The One Up books you generated, newest first, a page at a time.")
            .called("One Up books")
            .described(
                "Publishers see their own books, admins everyone's: each book's state and links (its PDF, its job). \
                 Books are kept until their owner deletes them. Follow `next` for the following page.",
            )
            .deleted(
                "The book's id.",
                "Delete a One Up book you generated.",
                "204; the book and its PDF are gone (404 from then on). A book still queued or being generated is \
                 409: cancel its job first (`DELETE /jobs/{id}`).",
            );
}

impl Product for OneUpPuzzles {
    const BASE: &'static str = "/oneup/puzzles/{id}";
    const ID: Id = Id::Uuid("The puzzle's id.");
    const FILES: &'static [File] = &[
        File::pdf(
            "puzzle.pdf",
            Query::Trim,
            "A generated puzzle, printable (walls drawn thick, clues printed; 409 until generated).",
        ),
        File::pdf("solution.pdf", Query::Trim, "The generated puzzle's solution filled in (409 until generated)."),
    ];

    async fn make(Asked { state, caller, id, file, trim, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        let (puzzle, solution) = generated(state, caller, id).await?;
        let which = file.name.trim_end_matches(".pdf");
        let key = format!("oneup/{}/{which}/{trim:?}", id.to_ascii_lowercase());
        let id = short_id(id);
        Ok(Download::rendered(format!("oneup-{which}.pdf"), key, move || {
            let spec = SheetSpec { title: "One Up", id: &id, trim, prose: Breaking::Optimal };
            Ok(match which {
                "puzzle" => render::layouts::oneup::puzzle_pdf(&puzzle, &spec),
                _ => render::layouts::oneup::solution_pdf(&puzzle, &solution, &spec),
            })
        }))
    }
}

impl Product for OneUpBooks {
    const BASE: &'static str = "/oneup/books/{id}";
    const ID: Id = Id::Uuid("The book's id.");
    const FILES: &'static [File] = &[
        File::pdf("book.pdf", Query::None, "The print-ready book (409 until its puzzles are generated)."),
        File::pdf(
            "cover.pdf",
            Query::Cover,
            "The book's paperback cover: back, spine and front as one wrap with 0.125 in bleed.",
        )
        .described(
            "As a word-search book's cover: the spine's width from the page count and paper, the title and author \
             on the front, the book's code and the ISBN's barcode (a blank box without one) on the back. From \
             layout version 4 the front shows the book's hardest puzzle.",
        ),
        File::svg(
            "cover.svg",
            Query::Cover,
            "A preview of the cover's front (trimmed, 360 pixels wide) for web pages; paper and palette as for cover.pdf."),
    ];

    async fn make(Asked { state, caller, id, file, cover, .. }: Asked<'_>) -> Result<Download<'_>, ApiError> {
        let job = resource::find::<OneUpBooks>(state, caller, id).await?;
        let book: OneUpBookOutput = finished_result(&job)?;
        let params = resource::stored_params::<OneUpBooks>(&job)?;
        let (id, layout) = (short_id(&job.id), resource::layout_of(&job)?);
        let opts =
            PrintOptions { trim: params.trim, title: params.title, lookup_url: String::new(), imprint: params.imprint };
        if file.name != "book.pdf" {
            let (paper, palette) = (cover.paper.unwrap_or_default(), cover.palette);
            let key = format!("oneup/{}/{}-{paper:?}-{palette:?}", job.id, file.name);
            let svg = file.name.ends_with(".svg");
            let filename = format!("oneup-cover-{id}.{}", if svg { "svg" } else { "pdf" });
            let render = move || {
                let entries: Vec<Entry> = book.puzzles.iter().map(Entry::from).collect();
                let cover = oneup_cover(&entries, &opts, &id, paper, palette, layout);
                Ok(if svg { cover.front_svg().into_bytes() } else { cover.pdf() })
            };
            return Ok(Download::rendered(filename, key, render));
        }
        // A finished job's result never changes: its PDF is kept like a printed book's.
        let key = format!("oneup/{}", job.id);
        Ok(Download::rendered(format!("oneup-book-{id}.pdf"), key, move || {
            let entries: Vec<Entry> = book.puzzles.iter().map(Entry::from).collect();
            Ok(oneup_book_pdf(&entries, &opts, &id, layout))
        }))
    }
}

resource::show_resource!(
    show_solve,
    OneUpSolves,
    OneUpSolve,
    "/oneup/solves/{id}",
    "oneup",
    "A solve's state and, once done, its solution."
);

resource::show_resource!(
    show_puzzle,
    OneUpPuzzles,
    OneUpGenerated,
    "/oneup/puzzles/{id}",
    "oneup",
    "A puzzle generation's state and, once done, the puzzle (text and JSON forms), its solution and difficulty."
);

resource::show_resource!(
    show_book,
    OneUpBooks,
    OneUpBook,
    "/oneup/books/{id}",
    "oneup",
    "A book's state and progress (in puzzles) and, once done, its puzzles in print order with solutions and levels."
);

/// A generated puzzle and its solution, once its job has succeeded.
async fn generated(state: &AppState, caller: &Caller, id: &str) -> Result<(Puzzle, Vec<String>), ApiError> {
    let job = resource::find::<OneUpPuzzles>(state, caller, id).await?;
    let result: Value = finished_result(&job)?;
    let corrupt = |what: &str| ApiError::Internal(format!("puzzle {id}: stored {what} does not parse"));
    let puzzle = Puzzle::from_json_value(&result["puzzle"]["json"]).map_err(|_| corrupt("puzzle"))?;
    let solution = serde_json::from_value(result["solution"].clone()).map_err(|_| corrupt("solution"))?;
    Ok((puzzle, solution))
}

/// A puzzle that does not parse: malformed JSON is 400, anything else 422 naming the line
/// (text) or the field (JSON).
fn parse_error(e: ParseError) -> ApiError {
    match (e.kind, e.line, &e.field) {
        (ErrorKind::Json, _, _) => ApiError::bad_request("Malformed JSON", e.to_string()),
        (_, Some(line), _) => ApiError::InvalidLine { line, detail: e.to_string() },
        (_, None, Some(field)) => ApiError::invalid(field.clone(), e.to_string()),
        (_, None, None) => ApiError::invalid("body", e.to_string()),
    }
}

#[utoipa::path(
    post,
    path = "/oneup/solves",
    summary = "Queue a solve of a One Up puzzle.",
    description = "The body is the puzzle in the original text format (`text/plain`: row-region lines, a blank \
                   line, column-region lines, a blank line, the clue count and one `row col digit` line per clue; \
                   anything after the expected numbers on a line is a comment) or its JSON form. `method=exact` \
                   (default) solves by propagation and backtracking and proves uniqueness; `method=metropolis` runs \
                   the Metropolis sampler (`seed`, `max_steps`, `temperature`). A puzzle with no solution ends \
                   `succeeded` with `solution: null` and a `reason`. Parse errors are answered at once: 422 naming \
                   the `line` (text) or `field` (JSON), 400 for malformed JSON.",
    params(SolveQuery),
    request_body(content(
        (String = "text/plain", example = json!(crate::puzzles::oneup::EXAMPLE)),
        (Puzzle = "application/json", example = json!({
            "row_regions": ["1111", "1111", "1111", "1111"],
            "col_regions": ["1111", "1111", "1111", "1111"],
            "clues": [{"row": 1, "col": 1, "digit": 1}]
        })),
    )),
)]
pub(crate) async fn create_solve(
    submit: Submit,
    RawQuery(query): RawQuery,
    req: Request,
) -> Result<Response, ApiError> {
    let mut params = submit.settle(SolveQuery::parse(query.as_deref())?)?;
    let kind = media_type(&req);
    let body = read_body(req, &submit.state).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("Unreadable body", "the body is not UTF-8 text"))?;
    let puzzle = match kind.as_str() {
        "text/plain" => Puzzle::from_text(text),
        "application/json" => Puzzle::from_json(text),
        _ => {
            return Err(ApiError::UnsupportedMediaType {
                detail: "send the puzzle as text/plain (the text format) or application/json".into(),
            })
        }
    }
    .map_err(parse_error)?;
    params.params_mut().puzzle = puzzle.to_json();
    submit.enqueue::<OneUpSolves>(params).await
}

#[utoipa::path(
    post,
    path = "/oneup/puzzles",
    summary = "Queue the generation of a new puzzle with exactly one solution, at a chosen level.",
    description = "Random walls (1 to 3 regions a row and column), a random filling, then a minimal set of clues \
                   (in pairs through the centre with `clue_symmetry: rotational`); puzzles are drawn until one has \
                   the `level` asked for, graded by the human-style solver. The same request and seed give the \
                   same puzzle; without a seed the server draws one (from the `Idempotency-Key` if given, so a \
                   retry matches). The body is optional.",
    request_body(content = OneUpPuzzleRequest, content_type = "application/json", example = json!({"size": 8, "seed": 42, "level": "medium", "clue_symmetry": "rotational"})),
)]
pub(crate) async fn create_puzzle(
    submit: Submit,
    extract::OptionalJson(req): extract::OptionalJson<OneUpPuzzleRequest>,
) -> Result<Response, ApiError> {
    submit.enqueue::<OneUpPuzzles>(submit.settle(req)?).await
}

#[utoipa::path(
    post,
    path = "/oneup/books",
    summary = "Queue a print-ready book of One Up puzzles at chosen levels.",
    description = "The puzzles are generated like `POST /oneup/puzzles`, each with exactly one solution at its \
                   level, and printed by increasing level under the fox books' print rules (trim, mirrored \
                   margins, embedded fonts) in the book frame: a title page, the copyright page on its back, the \
                   full rules and the levels' puzzle numbers on page 3, the puzzles from page 5 (one a page on \
                   trims under 7 in wide, four on wider ones), each headed `Puzzle N - Level`, the solutions at \
                   the back under the same labels (in greys), notes pages to an even count of at least 24. The \
                   PDF is at `book.pdf` once the job has succeeded, its cover at `cover.pdf`. The same request and seed give \
                   the same book; without a seed the server draws one (from the `Idempotency-Key` if given). \
                   The body is optional: 100 puzzles of 8 x 8, 25 of each level, on letter pages. A book whose \
                   puzzles would take longer to generate than the caller's limit (60 s with a key; estimated from \
                   each level's rate at the size) is refused with 422 naming `levels`.",
    request_body(content = OneUpBookRequest, content_type = "application/json", example = json!({"count": 12, "levels": {"easy": 4, "medium": 4, "hard": 2, "expert": 2}, "trim": "6x9", "title": "One Up for the Train", "seed": 7})),
)]
pub(crate) async fn create_book(
    submit: Submit,
    extract::OptionalJson(req): extract::OptionalJson<OneUpBookRequest>,
) -> Result<Response, ApiError> {
    let params = submit.settle(req)?;
    submit.enqueue::<OneUpBooks>(params).await
}

/// A puzzle and how far a person has got with it.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = OneUpHintRequest)]
pub(crate) struct HintRequest {
    /// The puzzle: its JSON form, or the text format as one string.
    #[schema(value_type = Object)]
    puzzle: Value,
    /// The grid so far: one string a row, a digit for a filled cell and `.` (or `0` or a
    /// space) for an empty one. Clue cells may be left empty or hold their clue.
    #[schema(example = json!(["43......", "........", "........", "........", "........", "........", "........", "........"]))]
    grid: Vec<String>,
}

/// The next logical step.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = OneUpHint)]
pub(crate) struct HintView {
    /// The grid is complete and right: nothing left to hint.
    solved: bool,
    /// The hardest technique the hint uses; null when solved or when none applies.
    #[schema(required = true)]
    technique: Option<Technique>,
    /// The hint in words: the placement it leads to, or why there is none.
    text: String,
    /// The digit the hint places; null when solved or when none applies.
    #[schema(required = true)]
    place: Option<Placement>,
    /// The cells the placement's reasoning looks at.
    cells: Vec<Cell>,
    /// Every step, in order: candidates to rule out first, then the placement.
    steps: Vec<Step>,
}

#[utoipa::path(
    post,
    path = "/oneup/hints",
    summary = "The next logical step from a partly solved grid, in words.",
    description = "The hint is the easiest technique of the ladder that makes progress (hidden single, naked \
                   single, pair or triple, region wing, short trial), continued until it places a digit: \
                   candidates to rule out come first in `steps`. 409 when the grid breaks the rules or holds a \
                   digit the puzzle's one solution does not have, saying where; 422 for a puzzle without exactly \
                   one solution.",
    request_body(content = HintRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The hint.", body = HintView),
        (status = 409, response = super::openapi::Conflict),
    )
)]
pub(crate) async fn create_hint(
    extract::Json(req): extract::Json<HintRequest>,
) -> Result<axum::Json<HintView>, ApiError> {
    let puzzle = match &req.puzzle {
        Value::String(text) => Puzzle::from_text(text).map_err(|e| match e.line {
            Some(line) => ApiError::invalid("puzzle", format!("puzzle, line {line}: {e}")),
            None => ApiError::invalid("puzzle", format!("puzzle: {e}")),
        })?,
        value => Puzzle::from_json_value(value).map_err(|e| {
            let field = e.field.as_ref().map_or("puzzle".to_string(), |f| format!("puzzle.{f}"));
            ApiError::invalid(field.clone(), format!("{field}: {e}"))
        })?,
    };
    let grid = parse_grid(&req.grid, puzzle.size())?;
    let hint = blocking(move || oneup::hint(&puzzle, &grid)).await?.map_err(|e| match e {
        HintError::Contradiction(c) => ApiError::Conflict { detail: c.detail, retry_after: None },
        HintError::NotUnique(why) => ApiError::invalid("puzzle", format!("puzzle: no hint: {why}")),
    })?;
    let last = hint.steps.last();
    let text = match last {
        _ if hint.solved => "The grid is complete and right.".to_string(),
        Some(step) if step.place.is_some() => step.text.clone(),
        _ => "No technique of the ladder places another digit from here.".to_string(),
    };
    Ok(axum::Json(HintView {
        solved: hint.solved,
        technique: hint.steps.iter().map(|s| s.technique).max(),
        place: last.and_then(|s| s.place),
        cells: last.map(|s| s.cells.clone()).unwrap_or_default(),
        text,
        steps: hint.steps,
    }))
}

/// The grid's rows as row-major digits (0 for an empty cell); 422 naming the row at fault.
fn parse_grid(rows: &[String], size: usize) -> Result<Vec<u8>, ApiError> {
    if rows.len() != size {
        return Err(ApiError::invalid(
            "grid",
            format!("grid: the puzzle is {size} x {size}, so the grid needs {size} rows (got {})", rows.len()),
        ));
    }
    let mut grid = Vec::with_capacity(size * size);
    for (r, row) in rows.iter().enumerate() {
        let field = format!("grid[{r}]");
        if row.chars().count() != size {
            return Err(ApiError::invalid(
                field.clone(),
                format!("{field}: row {} needs {size} cells (got {})", r + 1, echo(row)),
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            grid.push(match ch {
                '.' | '0' | ' ' => 0,
                '1'..='9' => ch as u8 - b'0',
                _ => {
                    return Err(ApiError::invalid(
                        field.clone(),
                        format!(
                            "{field}: row {}, column {} is {ch:?}; use a digit, or . for an empty cell",
                            r + 1,
                            c + 1
                        ),
                    ))
                }
            });
        }
    }
    Ok(grid)
}
