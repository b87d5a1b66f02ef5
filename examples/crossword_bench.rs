//! Fills the same grids with puzzlepress and with Ingrid's command-line tool
//! (`ingrid_core`, crates.io), with the same scored word list and minimum score, and
//! prints for each grid and filler: filled within the time limit or not, the time to
//! fill, and the lowest and the mean score of the fill's entries.
//!
//! ```text
//! cargo install --root /tmp/ingrid ingrid_core          # outside the repository
//! cargo run --release --example crossword_bench -- \
//!     --ingrid /tmp/ingrid/bin/ingrid_core \
//!     --wordlist ~/.cargo/registry/src/*/ingrid_core-2.0.0/resources/spreadthewordlist.dict
//! ```
//!
//! Options: `--min-score N` (default 50), `--seconds S` (time limit per fill, default
//! 10), `--bundled` (fill from puzzlepress's bundled list instead; Ingrid is given the
//! same list written out as a file). Without `--ingrid` only puzzlepress runs.
//!
//! The grids: Ingrid's README example (15x15, a theme entry locked), a 15x15 with a
//! locked 15-letter theme entry, 15x15 American grids of 38 blocks (about 76-78
//! entries), 21x21 Sunday shapes of about 76 blocks, and rectangular grids; all but the
//! first two are made here by a seeded generator (rotational symmetry, every white
//! square in an across and a down entry of at least 3, white squares connected).
//!
//! Times: puzzlepress's is the fill alone (a list is parsed and indexed once per process
//! and cached, timed separately as "index"); Ingrid's is what it reports for "finding
//! fill" (it loads its list on every run, reported separately).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use puzzlepress::puzzles::crossword::fill::{fill_grid, FillOptions};
use puzzlepress::puzzles::crossword::{CrosswordError, Grid, WordFilter, WordList};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::rng::Rng;

struct Args {
    ingrid: Option<String>,
    wordlist: Option<String>,
    min_score: u8,
    seconds: u64,
}

fn args() -> Args {
    let mut a = Args { ingrid: None, wordlist: None, min_score: 50, seconds: 10 };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--ingrid" => a.ingrid = Some(value()),
            "--wordlist" => a.wordlist = Some(value()),
            "--min-score" => a.min_score = value().parse().expect("--min-score N"),
            "--seconds" => a.seconds = value().parse().expect("--seconds S"),
            "--bundled" => a.wordlist = None,
            other => panic!("unknown option {other}"),
        }
    }
    a
}

const INGRID_EXAMPLE: [&str; 15] = [
    "....#.....#....",
    "....#.....#....",
    "...............",
    "......##.......",
    "###.....#......",
    "............###",
    ".....#.....#...",
    "....#.....#....",
    "...#.....#.....",
    "###CREMEBRULEES",
    "......#.....###",
    ".......##......",
    "...............",
    "....#.....#....",
    "....#.....#....",
];

const THEME_15: [&str; 15] = [
    "....#....#.....",
    "....#....#.....",
    "...............",
    "...#....#......",
    "###...#....#...",
    "......#.....###",
    "....#.....#....",
    "PUZZLEPRESSWINS",
    "....#.....#....",
    "###.....#......",
    "...#....#...###",
    "......#....#...",
    "...............",
    ".....#....#....",
    ".....#....#....",
];

/// Runs of white squares across and down, as (length) lists.
fn runs_ok(white: &[Vec<bool>]) -> bool {
    let (h, w) = (white.len(), white[0].len());
    let line_ok = |cells: &mut dyn Iterator<Item = bool>| {
        let mut run = 0;
        for x in cells.chain(std::iter::once(false)) {
            if x {
                run += 1;
            } else {
                if run == 1 || run == 2 {
                    return false;
                }
                run = 0;
            }
        }
        true
    };
    (0..h).all(|r| line_ok(&mut (0..w).map(|c| white[r][c])))
        && (0..w).all(|c| line_ok(&mut (0..h).map(|r| white[r][c])))
}

fn connected(white: &[Vec<bool>]) -> bool {
    let (h, w) = (white.len(), white[0].len());
    let total = white.iter().flatten().filter(|&&x| x).count();
    let Some(start) = (0..h * w).find(|&i| white[i / w][i % w]) else { return false };
    let mut seen = vec![false; h * w];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (r, c) = (i / w, i % w);
        let mut next = |rr: usize, cc: usize| {
            if white[rr][cc] && !seen[rr * w + cc] {
                seen[rr * w + cc] = true;
                stack.push(rr * w + cc);
            }
        };
        if r > 0 {
            next(r - 1, c);
        }
        if r + 1 < h {
            next(r + 1, c);
        }
        if c > 0 {
            next(r, c - 1);
        }
        if c + 1 < w {
            next(r, c + 1);
        }
    }
    count == total
}

/// A seeded American grid: rotational symmetry, `blocks` black squares, every run 3+,
/// connected, no run longer than `max_run`.
fn american(h: usize, w: usize, blocks: usize, max_run: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::from_u64(seed);
    'attempt: loop {
        let mut white = vec![vec![true; w]; h];
        let mut black = 0;
        let mut tries = 0;
        while black < blocks {
            tries += 1;
            if tries > 20_000 {
                continue 'attempt;
            }
            let (r, c) = (rng.index(h), rng.index(w));
            let (r2, c2) = (h - 1 - r, w - 1 - c);
            if !white[r][c] {
                continue;
            }
            white[r][c] = false;
            white[r2][c2] = false;
            if runs_ok(&white) && connected(&white) {
                black += if (r, c) == (r2, c2) { 1 } else { 2 };
            } else {
                white[r][c] = true;
                white[r2][c2] = true;
            }
        }
        let rows: Vec<String> =
            white.iter().map(|row| row.iter().map(|&x| if x { '.' } else { '#' }).collect()).collect();
        let grid = Grid::from_rows(&rows).expect("valid");
        if grid.slots().iter().all(|s| s.len <= max_run) {
            return rows;
        }
    }
}

/// The rows with every fixed letter cleared.
fn open(rows: &[&str]) -> Vec<String> {
    rows.iter().map(|r| r.chars().map(|c| if c == '#' { '#' } else { '.' }).collect()).collect()
}

fn grids() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = vec![
        ("15x15 Ingrid README, theme locked".into(), INGRID_EXAMPLE.iter().map(|s| s.to_string()).collect()),
        ("15x15 theme PUZZLEPRESSWINS locked".into(), THEME_15.iter().map(|s| s.to_string()).collect()),
        ("15x15 Ingrid README pattern, open".into(), open(&INGRID_EXAMPLE)),
        ("15x15 theme pattern, open".into(), open(&THEME_15)),
    ];
    for seed in 1..=4 {
        out.push((format!("15x15 American, 38 blocks, seed {seed}"), american(15, 15, 38, 15, seed)));
    }
    for seed in 1..=2 {
        out.push((format!("21x21 Sunday, 76 blocks, seed {seed}"), american(21, 21, 76, 15, seed)));
    }
    out.push(("11x17 rectangle, 28 blocks".into(), american(11, 17, 28, 12, 7)));
    out.push(("9x13 rectangle, 14 blocks".into(), american(9, 13, 14, 13, 3)));
    out
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

/// Lowest and mean score of the entries of `rows` that `list` has.
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

fn ours(rows: &[String], list: &WordList, min_score: u8, seconds: u64, first_fill: bool) -> Outcome {
    let grid = Grid::from_rows(rows).expect("grid");
    let opts = FillOptions {
        seed: 0,
        max_nodes: Some(u64::MAX / 2),
        time_limit_ms: Some(seconds * 1000),
        filter: WordFilter { min_score, allow_offensive: true },
        max_shared_substring: None,
        first_fill,
    };
    let started = Instant::now();
    let result = fill_grid(&grid, list, &opts, &mut Unmonitored);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    match result {
        Ok(f) => {
            let (min, mean) = quality(&f.rows, list);
            Outcome { filled: true, ms, min, mean, note: String::new() }
        }
        Err(CrosswordError::BudgetExhausted(_)) => {
            Outcome { filled: false, ms, min: 0, mean: 0.0, note: "timed out".into() }
        }
        Err(e) => Outcome { filled: false, ms, min: 0, mean: 0.0, note: e.to_string().chars().take(60).collect() },
    }
}

/// A Rust `Duration` as `Debug` prints it ("695.82ms", "1.07s", "850µs"), in ms.
fn parse_duration(s: &str) -> Option<f64> {
    let units = [("ms", 1.0), ("µs", 1e-3), ("ns", 1e-6), ("s", 1000.0)];
    units.iter().find_map(|(u, f)| s.strip_suffix(u).and_then(|n| n.parse::<f64>().ok()).map(|n| n * f))
}

fn ingrid(bin: &str, list_path: &str, rows: &[String], list: &WordList, min_score: u8, seconds: u64) -> Outcome {
    let path = std::env::temp_dir().join(format!("crossword-bench-{}.txt", std::process::id()));
    // Ingrid reads fixed letters in lowercase.
    std::fs::write(&path, rows.iter().map(|r| r.to_lowercase() + "\n").collect::<String>()).expect("write grid");
    let started = Instant::now();
    let mut child = Command::new(bin)
        .args(["-t", "--wordlist", list_path, "--min-score", &min_score.to_string()])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingrid_core runs");
    // Its own "finding fill" time decides; the wall clock only stops a run that hangs
    // (the list load comes on top).
    let deadline = Duration::from_secs(seconds) + Duration::from_secs(5);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Outcome {
                filled: false,
                ms: started.elapsed().as_secs_f64() * 1000.0,
                min: 0,
                mean: 0.0,
                note: "timed out".into(),
            };
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The timing follows the last grid line on the same line.
    let (grid_text, timing) = match text.find(|c: char| c.is_ascii_digit()) {
        Some(i) => text.split_at(i),
        None => (text.as_str(), ""),
    };
    let load_ms = timing.split(" loading word list, ").next().and_then(|t| parse_duration(t.trim()));
    let fill_ms = timing
        .split(" loading word list, ")
        .nth(1)
        .and_then(|t| t.split(" finding fill").next())
        .and_then(|t| parse_duration(t.trim()));
    let filled_rows: Vec<String> = grid_text.lines().map(str::to_string).filter(|l| !l.is_empty()).collect();
    let filled = filled_rows.len() == rows.len()
        && filled_rows.iter().zip(rows).all(|(a, b)| a.len() == b.len())
        && filled_rows.iter().all(|r| r.chars().all(|c| c == '#' || c.is_ascii_lowercase()));
    let ms = fill_ms.unwrap_or(started.elapsed().as_secs_f64() * 1000.0);
    let note = format!("list load {:.0} ms", load_ms.unwrap_or(f64::NAN));
    if filled && ms <= seconds as f64 * 1000.0 {
        let (min, mean) = quality(&filled_rows, list);
        Outcome { filled: true, ms, min, mean, note }
    } else {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_string() + text.trim();
        Outcome { filled: false, ms, min: 0, mean: 0.0, note: why.chars().take(80).collect() }
    }
}

fn show(o: &Outcome) -> String {
    if o.filled {
        format!("{:>8.0} ms min {:>3} mean {:>4.1}", o.ms, o.min, o.mean)
    } else {
        format!("{:>8.0} ms no fill ({})", o.ms, o.note)
    }
}

fn main() {
    let a = args();
    let started = Instant::now();
    let (list, list_path) = match &a.wordlist {
        Some(path) => {
            let text = std::fs::read_to_string(path).expect("read --wordlist");
            (WordList::parse(&text).expect("the word list parses"), path.clone())
        }
        None => {
            let list = WordList::english().clone();
            // Ingrid gets the same list as a file.
            let path = std::env::temp_dir().join("crossword-bench-bundled.dict");
            let mut f = std::fs::File::create(&path).expect("write list");
            for len in 0..=31 {
                for (w, s) in list.scored_of_len(len) {
                    writeln!(f, "{};{s}", String::from_utf8_lossy(w).to_lowercase()).expect("write");
                }
            }
            (list, path.display().to_string())
        }
    };
    let parsed = started.elapsed();
    let filter = WordFilter { min_score: a.min_score, allow_offensive: true };
    let started = Instant::now();
    let indexed = puzzlepress::puzzles::crossword::words::index_every_length(&list, &filter);
    println!(
        "word list {list_path}: {} entries parsed in {:.0} ms; {indexed} entries with score >= {} indexed in {:.0} ms",
        list.len(),
        parsed.as_secs_f64() * 1000.0,
        a.min_score,
        started.elapsed().as_secs_f64() * 1000.0
    );
    println!("min score {}, {} s per fill\n", a.min_score, a.seconds);
    println!("{:<40} {:<34} {:<34} ingrid_core", "grid", "puzzlepress first fill", "puzzlepress improved");
    let (mut ours_filled, mut theirs_filled, mut total) = (0, 0, 0);
    for (name, rows) in grids() {
        total += 1;
        let first = ours(&rows, &list, a.min_score, a.seconds, true);
        let us = ours(&rows, &list, a.min_score, a.seconds, false);
        ours_filled += us.filled as usize;
        let them = a.ingrid.as_ref().map(|bin| ingrid(bin, &list_path, &rows, &list, a.min_score, a.seconds));
        theirs_filled += them.as_ref().is_some_and(|t| t.filled) as usize;
        println!("{name:<40} {:<34} {:<34} {}", show(&first), show(&us), them.as_ref().map(show).unwrap_or_default());
    }
    println!("\nfilled within {} s: puzzlepress {ours_filled}/{total}, ingrid_core {theirs_filled}/{total}", a.seconds);
}
