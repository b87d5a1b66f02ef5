//! Word-search jobs: one puzzle, its words each exactly once and nothing blocked; and
//! books of them, print-ready.

use serde::{Deserialize, Serialize};

use super::dictionary::FieldError;
use crate::jobs::{Context, JobKind, RunError};
use crate::puzzles::monitor::Monitor;
use crate::puzzles::wordbook::Shape;
use crate::puzzles::wordsearch::cost::{self, Limits};
use crate::puzzles::wordsearch::{self, book, Level, Puzzle, Spec, Work};
use crate::render::layouts::cover::{wrap, Art, CoverText, Design, Palette, Paper, Wrap};
use crate::render::layouts::wordsearch::{book_pages, check_fit, printed_word, Entry, Print};
use crate::render::print::{LayoutVersion, PrintOptions, Trim};

pub struct WordSearches;

crate::fields::api_struct! {
    /// A word search to make; also the params stored with its job (the seed always set,
    /// drawn by the server when the request has none, so the job is reproducible).
    #[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct WordSearchRequest {
        /// 3 to 40 words of 3 to 20 letters A-Z once accents, spaces and punctuation are
        /// dropped (`crème brûlée` is CREMEBRULEE in the grid, printed as given in the list).
        pub words: Vec<String>,
        ..word_search_grid,
        /// How words are placed (a solver may read any of the eight directions whatever the
        /// level): `easy` across and down, no shared letters; `medium` (default) across, down
        /// and the two diagonals that read left to right, letters shared at crossings; `hard`
        /// all eight directions, backwards too; `expert` as hard, words crossing on shared
        /// letters whenever they can.
        #[serde(default)]
        pub level: Level,
        /// The same request and seed give the same puzzle.
        #[serde(default)]
        pub seed: Option<u64>,
        /// Letters for the cells left around the words, in reading order, instead of a random
        /// filler: exactly as many letters as those cells.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub message: Option<String>,
        ..word_search_words,
    }
}

pub(crate) fn default_side() -> usize {
    15
}

impl WordSearchRequest {
    pub fn spec(&self) -> Spec {
        Spec {
            words: self.words.clone(),
            rows: self.rows,
            cols: self.cols,
            shape: self.shape.clone(),
            level: self.level,
            filler: self.filler,
            message: self.message.clone(),
            avoid: self.avoid.clone(),
            allow_offensive: self.allow_offensive,
            allow_contained: self.allow_contained,
        }
    }
}

/// A made word search and the seed it was made from.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WordSearchOutput {
    #[serde(flatten)]
    pub puzzle: Puzzle,
    pub seed: u64,
}

pub fn run_error(e: wordsearch::Error) -> RunError {
    match e {
        wordsearch::Error::Cancelled => RunError::Cancelled,
        other => RunError::Failed(other.to_string()),
    }
}

impl JobKind for WordSearches {
    const NAME: &'static str = "wordsearches";
    type Params = WordSearchRequest;
    type Output = WordSearchOutput;

    fn run(ctx: &Context, req: WordSearchRequest, monitor: &mut dyn Monitor) -> Result<WordSearchOutput, RunError> {
        let seed = req.seed.unwrap_or_default();
        let puzzle = wordsearch::generate(&req.spec(), seed, monitor).map_err(run_error)?;
        within_bytes(WordSearchOutput { puzzle, seed }, &ctx.limits.wordsearch)
    }
}

/// `output`, or the job failed when its result would take more bytes than its caller may
/// store (the limits may have changed since it was queued).
fn within_bytes<T: Serialize>(output: T, limits: &Limits) -> Result<T, RunError> {
    let bytes = serde_json::to_vec(&output).map_or(0, |json| json.len());
    if bytes > limits.max_result_bytes {
        return Err(RunError::Failed(format!(
            "the result takes {bytes} bytes, and a result may take at most {}",
            limits.max_result_bytes
        )));
    }
    Ok(output)
}

impl WordSearchRequest {
    /// 422-worthy when even the most this request can make is more than `limits` store.
    pub fn check_bytes(&self, limits: &Limits) -> Result<(), FieldError> {
        let most = cost::puzzle_bytes(&self.spec(), 0);
        if most > limits.max_result_bytes {
            return Err((
                "words".into(),
                format!(
                    "words: this puzzle's result may take {most} bytes, and a result may take at most {}",
                    limits.max_result_bytes
                ),
            ));
        }
        Ok(())
    }
}

pub struct WordSearchBooks;

/// One puzzle of a book: its list, and what it changes of the book's grid and level.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BookPuzzleRequest {
    /// Printed above the grid (up to 60 printable ASCII characters); none: "Puzzle N".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub words: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 5, maximum = 40)]
    pub rows: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 5, maximum = 40)]
    pub cols: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Shape>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
}

fn book_title() -> String {
    "Word Search".into()
}

crate::fields::api_struct! {
    /// A book of word searches; also the params stored with its job (the seed always set).
    /// Its fields keep their order: the book's code is the hash of their JSON.
    #[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct WordSearchBookRequest {
        /// On the title page, the cover and every footer: 1 to 60 printable ASCII characters.
        #[serde(default = "book_title")]
        #[schema(default = "Word Search")]
        pub title: String,
        ..imprint,
        /// The printed page (default `letter`).
        #[serde(default)]
        #[schema(default = "letter")]
        pub trim: Trim,
        /// Grid letters at least 18 pt and the lists 16 pt: fewer cells fit a page (a grid that
        /// does not is refused naming what fits).
        #[serde(default)]
        pub large_print: bool,
        /// Every puzzle's level unless it has its own or `spread` is given.
        #[serde(default)]
        pub level: Level,
        /// Levels spread over the book: the puzzles split in equal runs, in this order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub spread: Vec<Level>,
        ..word_search_grid,
        /// The same request and seed give the same book (byte for byte).
        #[serde(default)]
        pub seed: Option<u64>,
        ..word_search_words,
        /// The puzzles, 1 to 500, each with its own list; or give `pool`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub puzzles: Vec<BookPuzzleRequest>,
        /// One themed pool (up to 5,000 words) drawn into `count` lists of `words_per_puzzle`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub pool: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 1, maximum = 500, default = 10)]
        pub count: Option<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(minimum = 3, maximum = 40, default = 15)]
        pub words_per_puzzle: Option<usize>,
    }
}

/// A puzzle of a made book.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BookPuzzle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub level: Level,
    #[serde(flatten)]
    pub puzzle: Puzzle,
}

/// A made book: its puzzles in print order, its pages and the code its footers print.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WordSearchBookOutput {
    /// Printed in every footer and on the cover: from the request and seed, so the offline
    /// command prints the same.
    pub code: String,
    pub pages: usize,
    pub seed: u64,
    pub puzzles: Vec<BookPuzzle>,
}

/// A puzzle of the book to make: its title and the engine's request.
pub struct Planned {
    pub title: Option<String>,
    pub spec: Spec,
}

const MAX_PUZZLE_TITLE: usize = 60;

impl WordSearchBookRequest {
    /// The print options (title, trim, imprint), checked.
    pub fn print_options(&self) -> Result<PrintOptions, FieldError> {
        let opts = PrintOptions {
            trim: self.trim,
            title: self.title.trim().to_string(),
            lookup_url: String::new(),
            imprint: self.imprint().checked().map_err(|(f, d)| (f.to_string(), d))?,
        };
        opts.validate().map_err(|(f, d)| (f.to_string(), d))?;
        Ok(opts)
    }

    /// Every puzzle's request, checked as far as it can be before placing (each list, the
    /// grids, that each grid fits its page at the print size), or the field at fault:
    /// `puzzles[i].words[j]`, `pool[i]`, `count`, `large_print`, … Each detail names what it is
    /// about on its own (`puzzles[2].words: …`), so it reads alone, as the CLI prints it.
    pub fn plan(&self) -> Result<Vec<Planned>, FieldError> {
        let field = |f: String, d: String| (f, d);
        let seed = self.seed.unwrap_or_default();
        let lists: Vec<(Option<String>, BookPuzzleRequest)> = match (self.puzzles.is_empty(), self.pool.is_empty()) {
            (false, true) => {
                if !book::PUZZLES_RANGE.contains(&self.puzzles.len()) {
                    return Err(field(
                        "puzzles".into(),
                        format!(
                            "puzzles: {} of them; a book holds 1 to {}",
                            self.puzzles.len(),
                            book::PUZZLES_RANGE.end()
                        ),
                    ));
                }
                if self.count.is_some() || self.words_per_puzzle.is_some() {
                    return Err(field("count".into(), "count and words_per_puzzle go with a pool".into()));
                }
                self.puzzles.iter().map(|p| (p.title.clone(), p.clone())).collect()
            }
            (true, false) => {
                let count = self.count.unwrap_or(10);
                let per = self.words_per_puzzle.unwrap_or(15);
                book::draw_lists(&self.pool, count, per, self.allow_contained, seed)
                    .map_err(|e| invalid_field(e, ""))?
                    .into_iter()
                    .map(|words| (None, BookPuzzleRequest { words, ..BookPuzzleRequest::default() }))
                    .collect()
            }
            (true, true) => return Err(field("puzzles".into(), "give the puzzles' lists, or a pool".into())),
            (false, false) => return Err(field("pool".into(), "give the puzzles' lists or a pool, not both".into())),
        };
        let n = lists.len();
        let mut planned = Vec::with_capacity(n);
        for (i, (title, p)) in lists.into_iter().enumerate() {
            let prefix = if self.puzzles.is_empty() { String::new() } else { format!("puzzles[{i}].") };
            if let Some(t) = &title {
                if t.chars().count() > MAX_PUZZLE_TITLE || !t.chars().all(|c| (' '..='~').contains(&c)) {
                    return Err(field(
                        format!("{prefix}title"),
                        format!(
                            "{prefix}title: a puzzle's title is at most {MAX_PUZZLE_TITLE} printable ASCII characters"
                        ),
                    ));
                }
            }
            let level = match (self.spread.is_empty(), p.level) {
                (false, _) => self.spread[i * self.spread.len() / n],
                (true, Some(level)) => level,
                (true, None) => self.level,
            };
            let mut spec = Spec {
                words: p.words,
                rows: p.rows.unwrap_or(self.rows),
                cols: p.cols.unwrap_or(self.cols),
                shape: p.shape.unwrap_or_else(|| self.shape.clone()),
                level,
                filler: self.filler,
                message: None,
                // The book's `avoid` is every puzzle's: checked with the first only.
                avoid: if i == 0 { self.avoid.clone() } else { Vec::new() },
                allow_offensive: self.allow_offensive,
                allow_contained: self.allow_contained,
            };
            wordsearch::check(&spec).map_err(|e| match self.pool.is_empty() {
                true => invalid_field(e, &prefix),
                false => self.pool_field(e, &spec.words),
            })?;
            spec.avoid.clone_from(&self.avoid);
            planned.push(Planned { title, spec });
        }
        let grids: Vec<(usize, usize, Vec<String>)> = planned
            .iter()
            .map(|p| {
                let words = p.spec.words.iter().map(|w| printed_word(w)).collect();
                (p.spec.rows, p.spec.cols, words)
            })
            .collect();
        let print = Print::new(self.large_print);
        check_fit(&grids, self.trim, print).map_err(|(i, fits)| {
            let at = if self.puzzles.is_empty() { String::new() } else { format!("puzzles[{i}]: ") };
            let (rows, cols) = (grids[i].0, grids[i].1);
            let size = if self.large_print { "large print (letters of 18 pt)" } else { "letters of 7 pt" };
            field(
                // The member that set the grid's size.
                match self.puzzles.get(i) {
                    _ if self.large_print => "large_print".into(),
                    Some(p) if p.rows.is_some() || p.cols.is_some() => format!("puzzles[{i}].rows"),
                    _ => "rows".into(),
                },
                format!(
                    "{at}a {rows} x {cols} grid with its list does not fit a {} page in {size}; at most {} rows \
                     and {} columns fit",
                    self.trim.label(),
                    fits.max_rows,
                    fits.max_cols
                ),
            )
        })?;
        Ok(planned)
    }

    /// An engine refusal of a list dealt from the pool, naming the pool's word at fault: the
    /// caller sent the pool, not the list.
    fn pool_field(&self, e: wordsearch::Error, list: &[String]) -> FieldError {
        let at = |word: &str| {
            self.pool.iter().position(|p| p.trim() == word).map_or_else(|| "pool".to_string(), |k| format!("pool[{k}]"))
        };
        match e {
            wordsearch::Error::Invalid { field, detail } => {
                let index = field.strip_prefix("words[").and_then(|f| f.strip_suffix(']'));
                match index.and_then(|j| j.parse::<usize>().ok()).and_then(|j| list.get(j)) {
                    Some(word) => {
                        let field = at(word);
                        (field.clone(), format!("{field}: {detail}"))
                    }
                    None => invalid_field(wordsearch::Error::Invalid { field, detail }, ""),
                }
            }
            wordsearch::Error::NoRoom { words } => {
                let field = words.first().map_or_else(|| "pool".to_string(), |w| at(w));
                (field.clone(), format!("{field}: too long for the grid: {}", words.join(", ")))
            }
            other => invalid_field(other, ""),
        }
    }

    /// The code the book prints: the first 8 hex digits of the SHA-256 of its stored request.
    pub fn code(&self) -> String {
        use sha2::Digest;
        let json = serde_json::to_vec(self).unwrap_or_default();
        sha2::Sha256::digest(&json)[..4].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The interior and its pages, from a made book, in `layout`.
    pub fn book_pdf(&self, out: &WordSearchBookOutput, layout: LayoutVersion) -> Result<Vec<u8>, FieldError> {
        let opts = self.print_options()?;
        let entries: Vec<Entry> = out
            .puzzles
            .iter()
            .map(|p| Entry { title: p.title.as_deref(), level: p.level, puzzle: &p.puzzle })
            .collect();
        Ok(crate::render::layouts::wordsearch::book_pdf(&entries, &opts, self.large_print, &out.code, layout))
    }

    /// The cover on `paper`, from a made book, in `layout` (from version 4 the first
    /// puzzle's grid with its first word ringed on the front, in `palette`, ocean by
    /// default).
    pub fn cover(
        &self,
        out: &WordSearchBookOutput,
        paper: Paper,
        palette: Option<Palette>,
        layout: LayoutVersion,
    ) -> Result<Wrap, FieldError> {
        let opts = self.print_options()?;
        let n = out.puzzles.len();
        let words: usize = out.puzzles.iter().map(|p| p.puzzle.words.len()).sum();
        let text = CoverText {
            tagline: format!("{n} word {}", if n == 1 { "search" } else { "searches" }),
            foot: if self.large_print { "Large print".into() } else { "Solutions at the back".into() },
            blurb: format!(
                "{words} words hidden in {n} {}. Every word of a list is in its grid exactly once, and the \
                 letters around the words spell nothing rude. Solutions at the back.",
                if n == 1 { "grid" } else { "grids" }
            ),
            code_label: "Book".into(),
            code: out.code.clone(),
        };
        let first = out.puzzles.first().map(|p| &p.puzzle);
        let design = match (layout, first.and_then(|p| Some((p, p.words.first()?)))) {
            (LayoutVersion::V4, Some((puzzle, word))) => Design::Art {
                art: Art::WordSearch { rows: &puzzle.rows, word: &word.cells },
                palette: palette.unwrap_or(Palette::Ocean),
            },
            _ => Design::Classic,
        };
        Ok(wrap(&text, &design, &opts, out.pages, paper, layout.prose()))
    }
}

/// An engine refusal as a field error, its field under `prefix` (`puzzles[3].`).
fn invalid_field(e: wordsearch::Error, prefix: &str) -> FieldError {
    match e {
        wordsearch::Error::Invalid { field, detail } => {
            let field = format!("{prefix}{field}");
            let detail = format!("{field}: {detail}");
            (field, detail)
        }
        wordsearch::Error::NoRoom { words } => {
            let field = format!("{prefix}words");
            (field.clone(), format!("{field}: too long for the grid: {}", words.join(", ")))
        }
        wordsearch::Error::Cancelled => ("words".into(), "cancelled".into()),
    }
}

impl JobKind for WordSearchBooks {
    const NAME: &'static str = "wordsearches.books";
    /// A publisher's product: kept until its owner deletes it.
    const KEPT: bool = true;
    type Params = WordSearchBookRequest;
    type Output = WordSearchBookOutput;

    fn run(
        ctx: &Context,
        req: WordSearchBookRequest,
        monitor: &mut dyn Monitor,
    ) -> Result<WordSearchBookOutput, RunError> {
        let out = req.make(&ctx.limits.wordsearch, monitor)?;
        within_bytes(out, &ctx.limits.wordsearch)
    }
}

impl WordSearchBookRequest {
    /// What is checked when the book is ordered besides [`Self::plan`], within `limits`:
    /// the most bytes its result can take, and its time, estimated from a sample (some of
    /// its puzzles made as the job makes them, or as far as `monitor` lets them go: what
    /// they took over what such puzzles typically take scales the estimate of every
    /// puzzle, so a refusal rests on work seen done). A refusal names the member that sets
    /// how many puzzles there are.
    pub fn check_cost(
        &self,
        planned: &[Planned],
        limits: &Limits,
        monitor: &mut dyn Monitor,
    ) -> Result<(), FieldError> {
        let field = if self.pool.is_empty() { "puzzles" } else { "count" };
        let most = Self::result_bound(planned);
        if most > limits.max_result_bytes {
            return Err((
                field.into(),
                format!(
                    "{field}: this book's result may take {most} bytes, and a book may take at most {}; ask for \
                     fewer puzzles, fewer words or smaller grids",
                    limits.max_result_bytes
                ),
            ));
        }
        let specs: Vec<Spec> = planned.iter().map(|p| p.spec.clone()).collect();
        let (done, typical) = self.sample(&specs, monitor);
        let hardness = done as f64 / typical.max(1) as f64;
        let seconds = cost::book_seconds(&specs, hardness);
        if seconds > f64::from(limits.max_book_seconds) {
            return Err((
                field.into(),
                format!(
                    "{field}: this book would take about {seconds:.0} s to make ({} puzzles, about {:.2} s each), \
                     and a book may take at most {} s; ask for fewer puzzles, smaller grids, fewer words to \
                     avoid or the A-Z filler",
                    specs.len(),
                    seconds / specs.len() as f64,
                    limits.max_book_seconds
                ),
            ));
        }
        Ok(())
    }

    /// Some of the book's puzzles (spread over it) made as the job makes them, as far as an
    /// allowance of work (or `monitor`) lets them go: the work done, and what it typically
    /// takes. The allowance, not the clock, ends a sample on a machine however busy, so the
    /// same request gets the same answer.
    fn sample(&self, specs: &[Spec], monitor: &mut dyn Monitor) -> (u64, u64) {
        const SAMPLES: usize = 8;
        const SAMPLE_UNITS: u64 = 200_000;
        let seed = self.seed.unwrap_or_default();
        let mut indexes: Vec<usize> = (0..SAMPLES).map(|k| k * specs.len() / SAMPLES).collect();
        indexes.dedup();
        let (mut done, mut typical) = (0, 0);
        for i in indexes {
            if done >= SAMPLE_UNITS {
                break;
            }
            let mut work = Work::default();
            // A refusal is the job's to report: only what it took matters here.
            let allowance = SAMPLE_UNITS - done;
            let made =
                wordsearch::generate_counted(&specs[i], book::puzzle_seed(seed, i), monitor, &mut work, allowance);
            done += work.units();
            typical += cost::typical_units(&specs[i]);
            if made == Err(wordsearch::Error::Cancelled) {
                break;
            }
        }
        (done, typical)
    }

    /// The most bytes a made book of `planned` takes as JSON.
    fn result_bound(planned: &[Planned]) -> usize {
        200 + planned
            .iter()
            .map(|p| cost::puzzle_bytes(&p.spec, p.title.as_deref().map_or(0, cost::json_bytes)))
            .sum::<usize>()
    }

    /// Makes the book's puzzles (the request checked again; the seed as stored), stopped
    /// past the work `limits` allow.
    pub fn make(&self, limits: &Limits, monitor: &mut dyn Monitor) -> Result<WordSearchBookOutput, RunError> {
        let planned = self.plan().map_err(|(_, detail)| RunError::Failed(detail))?;
        let seed = self.seed.unwrap_or_default();
        let specs: Vec<Spec> = planned.iter().map(|p| p.spec.clone()).collect();
        let made = book::generate_book(&specs, seed, limits.max_units(), monitor).map_err(|e| match e {
            book::BookError::Cancelled => RunError::Cancelled,
            book::BookError::OverBudget { index, units } => RunError::Failed(format!(
                "stopped at puzzle {} of {}: the book had taken about {} s, and a book may take at most {} s",
                index + 1,
                specs.len(),
                units / cost::UNITS_PER_SECOND,
                limits.max_book_seconds
            )),
            book::BookError::Puzzle { index, error } => {
                let at =
                    if self.puzzles.is_empty() { format!("puzzle {}", index + 1) } else { format!("puzzles[{index}]") };
                RunError::Failed(format!("{at}: {error}"))
            }
        })?;
        let pages = book_pages(made.len(), self.trim, Print::new(self.large_print));
        let puzzles = planned
            .into_iter()
            .zip(made)
            .map(|(p, puzzle)| BookPuzzle { title: p.title, level: p.spec.level, puzzle })
            .collect();
        Ok(WordSearchBookOutput { code: self.code(), pages, seed, puzzles })
    }
}

/// Lists as text, one puzzle a line: `Title: word, word, …` (the title and its colon
/// optional), blank lines and lines starting with `#` skipped. A line with no words is
/// refused with its number (from 1).
pub fn parse_lists(text: &str) -> Result<Vec<BookPuzzleRequest>, (usize, String)> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (title, words) = match line.split_once(':') {
            Some((title, words)) => (Some(title.trim().to_string()).filter(|t| !t.is_empty()), words),
            None => (None, line),
        };
        let words: Vec<String> = words.split(',').map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return Err((i + 1, "no words: give `Title: word, word, …`".into()));
        }
        puzzles.push(BookPuzzleRequest { title, words, ..BookPuzzleRequest::default() });
    }
    if puzzles.is_empty() {
        return Err((1, "no lists: one puzzle a line, `Title: word, word, …`".into()));
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::print::TrimName;

    /// Forty words of twenty letters: a list too long for a 40 x 40 grid beside it on A5.
    fn long_list() -> Vec<String> {
        let letter = |n: u32| char::from(b'A' + (n % 26) as u8);
        (0..40u32)
            .map(|i| [letter(i), letter(i / 26 + 1)].into_iter().chain((0..18).map(|k| letter(k * 5 + 3))).collect())
            .collect()
    }

    fn field(req: &WordSearchBookRequest) -> String {
        match req.plan() {
            Err((field, _)) => field,
            Ok(_) => panic!("planned"),
        }
    }

    #[test]
    fn a_grid_that_does_not_fit_names_the_member_that_set_its_size() {
        let puzzle = BookPuzzleRequest { words: long_list(), ..BookPuzzleRequest::default() };
        let mut req = WordSearchBookRequest {
            title: "Big".into(),
            trim: Trim::Named(TrimName::A5),
            rows: 40,
            cols: 40,
            allow_contained: true,
            allow_offensive: true,
            puzzles: vec![puzzle.clone()],
            ..WordSearchBookRequest::default()
        };
        assert_eq!(field(&req), "rows");
        req.puzzles[0].rows = Some(40);
        assert_eq!(field(&req), "puzzles[0].rows");
        req.large_print = true;
        assert_eq!(field(&req), "large_print");
        // Smaller grids fit.
        req.large_print = false;
        req.puzzles[0].rows = Some(15);
        req.cols = 20;
        assert!(req.plan().is_ok());
    }

    #[test]
    fn lists_as_text_one_puzzle_a_line() {
        let lists = parse_lists("# birds\nGarden: robin, wren , blue tit\n\nowl, crow,\n").unwrap();
        assert_eq!(lists.len(), 2);
        assert_eq!(lists[0].title.as_deref(), Some("Garden"));
        assert_eq!(lists[0].words, ["robin", "wren", "blue tit"]);
        assert_eq!((lists[1].title.clone(), lists[1].words.clone()), (None, vec!["owl".to_string(), "crow".into()]));
        assert_eq!(parse_lists("a: b\nTitle:\n").unwrap_err().0, 2);
        assert!(parse_lists("# nothing\n").is_err());
    }
}

#[cfg(test)]
mod cost_tests {
    use super::*;
    use crate::puzzles::monitor::Unmonitored;
    use crate::puzzles::wordsearch::Filler;

    /// `n` strings of `len` of the first `letters` letters of the alphabet.
    fn random(n: usize, len: usize, letters: usize, seed: u64) -> Vec<String> {
        let mut rng = crate::puzzles::rng::Rng::from_u64(seed);
        (0..n).map(|_| (0..len).map(|_| char::from(b'A' + rng.index(letters) as u8)).collect()).collect()
    }

    fn abc(n: usize, len: usize, seed: u64) -> Vec<String> {
        random(n, len, 3, seed)
    }

    #[test]
    fn a_book_of_hard_puzzles_is_refused_past_its_time_and_a_big_one_past_its_bytes() {
        let words = abc(3, 8, 1);
        let req = WordSearchBookRequest {
            title: "Hard".into(),
            rows: 15,
            cols: 15,
            filler: Filler::WordLetters,
            avoid: abc(500, 8, 2),
            allow_contained: true,
            allow_offensive: true,
            seed: Some(1),
            puzzles: vec![BookPuzzleRequest { words, ..BookPuzzleRequest::default() }; 500],
            ..WordSearchBookRequest::default()
        };
        let planned = req.plan().unwrap();
        let anonymous = crate::puzzles::Limits::anonymous().wordsearch;
        let (field, detail) = req.check_cost(&planned, &anonymous, &mut Unmonitored).unwrap_err();
        assert_eq!(field, "puzzles", "{detail}");
        assert!(detail.contains("at most 20 s"), "{detail}");
        assert!(req.check_cost(&planned, &Limits::default(), &mut Unmonitored).is_ok());

        // 500 puzzles of 40 words of 20 letters in 40 x 40: too many bytes without a key, and
        // the bound holds a key holder's.
        let big = WordSearchBookRequest {
            rows: 40,
            cols: 40,
            filler: Filler::AZ,
            avoid: Vec::new(),
            puzzles: vec![BookPuzzleRequest { words: random(40, 20, 26, 3), ..BookPuzzleRequest::default() }; 500],
            ..req
        };
        let planned = big.plan().unwrap();
        let (field, detail) = big.check_cost(&planned, &anonymous, &mut StopAtOnce).unwrap_err();
        assert_eq!(field, "puzzles");
        assert!(detail.contains("bytes"), "{detail}");
        let most = WordSearchBookRequest::result_bound(&planned);
        assert!(most <= Limits::default().max_result_bytes, "{most}");
        // What a few of them make is within their bound.
        let few = WordSearchBookRequest { puzzles: big.puzzles[..3].to_vec(), ..big };
        let made = few.make(&Limits::default(), &mut Unmonitored).unwrap();
        let bytes = serde_json::to_vec(&made).unwrap().len();
        let most = WordSearchBookRequest::result_bound(&few.plan().unwrap());
        assert!(bytes <= most && most < bytes * 5 / 4, "{bytes} bytes, bound {most}");
    }

    struct StopAtOnce;

    impl Monitor for StopAtOnce {
        fn update(&mut self, _: u64, _: u64) -> bool {
            false
        }
    }
}
