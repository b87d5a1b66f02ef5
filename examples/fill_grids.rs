//! Fills grid files with puzzlepress's engine (`fill_grid`, as `POST /crosswords/fills`
//! does) and, given `--ingrid`, with Ingrid's command-line tool (`ingrid_core`,
//! crates.io), with the same scored word list and minimum score, and prints a table:
//! for each grid and filler whether it filled within the time limit, the time to fill,
//! and the lowest and the mean score of the fill's entries (both fills scored with the
//! same list: LIST, or with `--score-with OTHER` the list OTHER, to compare fills from
//! two lists on one scale; an entry OTHER lacks is not scored). `scripts/bench-fills`
//! runs it; by hand:
//!
//! ```text
//! cargo run --release --example fill_grids -- --wordlist LIST [--ingrid BIN] \
//!     [--min-score 50] [--seconds 10] [--seed 0] [--score-with OTHER] [--check] [--print] GRID.txt...
//! ```
//!
//! A grid file has one row a line: `#` a block, `.` an empty square, `A`-`Z` a locked
//! letter. Every grid is checked first to be a legal American grid (rotational
//! symmetry, every white square in an across and a down entry, entries of at least 3,
//! white squares connected); `--check` stops there.
//!
//! Both fillers get the same entries: puzzlepress with `allow_offensive` (Ingrid has no
//! block list), a slot wholly of locked letters kept for both. Times: puzzlepress's is
//! `fill_grid` (with its default improvement rounds, and the first fill alone), after
//! the list's indexes for the grid's lengths are built (once per process in the
//! service; timed separately); Ingrid's is what it reports for "finding fill" (after
//! loading its list, which it does on every run). Ingrid has no time limit of its own:
//! it is stopped when its run passes the limit plus its list load.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use puzzlepress::puzzles::crossword::american::check_legal;
use puzzlepress::puzzles::crossword::fill::{fill_grid, FillOptions};
use puzzlepress::puzzles::crossword::{CrosswordError, Grid, WordFilter, WordList};
use puzzlepress::puzzles::monitor::Unmonitored;

struct Args {
    ingrid: Option<String>,
    wordlist: String,
    min_score: u8,
    seconds: u64,
    /// The fill's seed (it decides among equally scored entries and between restarts).
    seed: u64,
    check: bool,
    /// Print each puzzlepress fill with its entries' scores (to look at what it chose).
    print: bool,
    score_with: Option<String>,
    grids: Vec<String>,
}

fn args() -> Args {
    let mut a = Args {
        ingrid: None,
        wordlist: String::new(),
        min_score: 50,
        seconds: 10,
        seed: 0,
        check: false,
        print: false,
        score_with: None,
        grids: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--ingrid" => a.ingrid = Some(value()),
            "--wordlist" => a.wordlist = value(),
            "--min-score" => a.min_score = value().parse().expect("--min-score N"),
            "--seconds" => a.seconds = value().parse().expect("--seconds S"),
            "--seed" => a.seed = value().parse().expect("--seed N"),
            "--check" => a.check = true,
            "--print" => a.print = true,
            "--score-with" => a.score_with = Some(value()),
            other if other.starts_with("--") => panic!("unknown option {other}"),
            path => a.grids.push(path.to_string()),
        }
    }
    assert!(a.check || !a.wordlist.is_empty(), "--wordlist LIST is needed");
    a
}

/// The entries of filled rows (`#` blocks), across then down.
fn entries(rows: &[String]) -> Vec<String> {
    let across: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
    let width = across.first().map_or(0, Vec::len);
    let down: Vec<Vec<u8>> = (0..width).map(|c| across.iter().map(|row| row[c]).collect()).collect();
    across
        .iter()
        .chain(&down)
        .flat_map(|line| line.split(|&b| b == b'#'))
        .filter(|part| part.len() >= 2)
        .map(|part| String::from_utf8_lossy(part).to_uppercase())
        .collect()
}

/// Lowest and mean score of the entries of `rows` that `list` has (a locked theme
/// entry the list lacks has no score, for either filler).
fn quality(rows: &[String], list: &WordList) -> (u8, f64) {
    let scores: Vec<u8> = entries(rows).iter().filter_map(|e| list.score(e.as_bytes())).collect();
    let min = scores.iter().copied().min().unwrap_or(0);
    let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / scores.len().max(1) as f64;
    (min, mean)
}

struct Outcome {
    filled: bool,
    ms: f64,
    min: u8,
    mean: f64,
    note: String,
}

impl Outcome {
    fn failed(ms: f64, note: String) -> Outcome {
        Outcome { filled: false, ms, min: 0, mean: 0.0, note }
    }
}

fn options(min_score: u8, seconds: u64, seed: u64, first_fill: bool) -> FillOptions {
    FillOptions {
        seed,
        max_nodes: Some(u64::MAX / 2),
        time_limit_ms: Some(seconds * 1000),
        filter: WordFilter { min_score, allow_offensive: true },
        max_shared_substring: None,
        first_fill,
    }
}

/// Builds (and caches in `list`) the indexes the grid's slot lengths need, as the
/// service has them after its first fill from a list: a search of one node.
fn warm(grid: &Grid, list: &WordList, min_score: u8) {
    let opts = FillOptions { max_nodes: Some(1), ..options(min_score, 10, 0, true) };
    let _ = fill_grid(grid, list, &opts, &mut Unmonitored);
}

/// `scoring` scores the fill (the list filled from, or `--score-with`'s).
fn ours(grid: &Grid, list: &WordList, scoring: &WordList, a: &Args, first_fill: bool) -> Outcome {
    let started = Instant::now();
    let result = fill_grid(grid, list, &options(a.min_score, a.seconds, a.seed, first_fill), &mut Unmonitored);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    match result {
        Ok(f) => {
            let (min, mean) = quality(&f.rows, scoring);
            if a.print && !first_fill {
                let scored: Vec<String> = entries(&f.rows)
                    .iter()
                    .map(|e| format!("{e} {}", scoring.score(e.as_bytes()).unwrap_or(0)))
                    .collect();
                eprintln!("{}\n{}\n", f.rows.join("\n"), scored.join(", "));
            }
            Outcome { filled: true, ms, min, mean, note: String::new() }
        }
        Err(CrosswordError::BudgetExhausted(_)) => Outcome::failed(ms, "time limit".into()),
        Err(e) => Outcome::failed(ms, e.to_string().chars().take(60).collect()),
    }
}

/// A Rust `Duration` as `Debug` prints it ("695.82ms", "1.07s", "850µs"), in ms.
fn parse_duration(s: &str) -> Option<f64> {
    let units = [("ms", 1.0), ("µs", 1e-3), ("ns", 1e-6), ("s", 1000.0)];
    units.iter().find_map(|(u, f)| s.strip_suffix(u).and_then(|n| n.parse::<f64>().ok()).map(|n| n * f))
}

fn ingrid(bin: &str, list_path: &str, grid_path: &str, rows: &[String], list: &WordList, a: &Args) -> Outcome {
    let started = Instant::now();
    let mut child = Command::new(bin)
        .args(["--time", "--wordlist", list_path, "--min-score", &a.min_score.to_string(), grid_path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingrid_core runs");
    // Its own "finding fill" time decides; the wall clock stops a run past the limit
    // plus a list load (a few seconds).
    let deadline = Duration::from_secs(a.seconds + 5);
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Outcome::failed(a.seconds as f64 * 1000.0, "stopped".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // --time prints "<load> loading word list, <fill> finding fill" on stderr.
    let mut timing = stderr.trim().split(" loading word list, ");
    let load_ms = timing.next().and_then(|t| parse_duration(t.trim()));
    let fill_ms = timing.next().and_then(|t| t.strip_suffix(" finding fill")).and_then(|t| parse_duration(t.trim()));
    let filled_rows: Vec<String> = stdout.lines().filter(|l| !l.is_empty()).map(str::to_string).collect();
    let filled = out.status.success()
        && filled_rows.len() == rows.len()
        && filled_rows.iter().zip(rows).all(|(a, b)| a.len() == b.len())
        && filled_rows.iter().all(|r| r.chars().all(|c| c == '#' || c.is_ascii_lowercase()));
    let ms = fill_ms.unwrap_or(started.elapsed().as_secs_f64() * 1000.0 - load_ms.unwrap_or(0.0));
    if filled && ms <= a.seconds as f64 * 1000.0 {
        let (min, mean) = quality(&filled_rows, list);
        Outcome { filled: true, ms, min, mean, note: String::new() }
    } else if filled {
        Outcome::failed(ms, "time limit".into())
    } else {
        Outcome::failed(ms, stderr.trim().chars().take(60).collect())
    }
}

fn cell(o: &Outcome) -> String {
    if o.filled {
        format!("yes | {:.0} ms | {} | {:.1}", o.ms, o.min, o.mean)
    } else {
        format!("no ({}) | {:.0} ms | - | -", o.note, o.ms)
    }
}

fn main() {
    let a = args();
    let mut grids = Vec::new();
    for path in &a.grids {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rows: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect();
        if let Err(e) = check_legal(&rows) {
            panic!("{path} is not a legal American grid: {e}");
        }
        let grid = Grid::from_rows(&rows).unwrap_or_else(|e| panic!("{path}: {e}"));
        grids.push((path.clone(), rows, grid));
    }
    if a.check {
        for (path, rows, grid) in &grids {
            let blocks = rows.iter().flat_map(|r| r.bytes()).filter(|&b| b == b'#').count();
            println!(
                "{path}: {}x{}, {blocks} blocks, {} entries: legal",
                grid.height(),
                grid.width(),
                grid.slots().len()
            );
        }
        return;
    }
    let started = Instant::now();
    let text = std::fs::read_to_string(&a.wordlist).unwrap_or_else(|e| panic!("{}: {e}", a.wordlist));
    let list = WordList::parse(&text).expect("the word list parses");
    let parsed = started.elapsed();
    // Fills from two lists compared on one scale: both scored with the same list.
    let other = a.score_with.as_ref().map(|path| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        WordList::parse(&text).expect("the --score-with list parses")
    });
    let scoring = other.as_ref().unwrap_or(&list);
    let started = Instant::now();
    for (_, _, grid) in &grids {
        warm(grid, &list, a.min_score);
    }
    println!(
        "word list {}: {} entries, parsed in {:.0} ms, indexed (score >= {}) in {:.0} ms; {} s a fill\n",
        a.wordlist,
        list.len(),
        parsed.as_secs_f64() * 1000.0,
        a.min_score,
        started.elapsed().as_secs_f64() * 1000.0,
        a.seconds
    );
    if let Some(path) = &a.score_with {
        println!("fills scored with {path}\n");
    }
    println!("| grid | entries | puzzlepress filled | time | min | mean | first fill | ingrid_core filled | time | min | mean |");
    println!("|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|");
    let (mut ours_filled, mut theirs_filled) = (0, 0);
    for (path, rows, grid) in &grids {
        let name = std::path::Path::new(path).file_stem().map_or(path.clone(), |s| s.to_string_lossy().into_owned());
        let first = ours(grid, &list, scoring, &a, true);
        let us = ours(grid, &list, scoring, &a, false);
        ours_filled += us.filled as usize;
        let them = a.ingrid.as_ref().map(|bin| ingrid(bin, &a.wordlist, path, rows, scoring, &a));
        theirs_filled += them.as_ref().is_some_and(|t| t.filled) as usize;
        let first = if first.filled { format!("{:.0} ms", first.ms) } else { "-".into() };
        let them = them.as_ref().map_or("- | - | - | -".into(), cell);
        println!("| {name} | {} | {} | {first} | {them} |", grid.slots().len(), cell(&us));
    }
    println!(
        "\nfilled within {} s: puzzlepress {ours_filled}/{n}, ingrid_core {theirs_filled}/{n}",
        a.seconds,
        n = grids.len()
    );
}
