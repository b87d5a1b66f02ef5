//! Times one engine run on one request, to choose and check the server-side maxima
//! (`Limits`): `cargo run --release --example engine_time -- KIND 'JSON'`.
//!
//! KIND and JSON:
//! - `patterns`, `fills`, `squares`: the crossword request types;
//! - `gray`: a Gray code request;
//! - `metropolis`: `{"size": 4..=9, "seed": .., "max_steps": .., "temperature": ..}`: the
//!   sampler on a generated puzzle of that size (a high temperature keeps it from solving);
//! - `generate`: `{"size": .., "seed": ..}`: a One Up puzzle;
//! - `foxhole`: `{"holes": n}`, `{"graph": [[..], ..]}`, or `{"tree": n, "seed": ..}` /
//!   `{"cycle": n}` / `{"complete": n}` / `{"star": n}` for generated graphs;
//! - `book`: a book spec.
//!
//! JSON may also be `@FILE`, for requests too long for a command line.
//! Prints the wall-clock time and the size of the result as compact JSON (what a job
//! stores), or the error.

use std::time::Instant;

use serde_json::{json, Value};

use puzzlepress::puzzles::crossword::{self, FillRequest, PatternRequest, WordSquareRequest};
use puzzlepress::puzzles::foxbook::{book_for, BookSpec};
use puzzlepress::puzzles::foxhole::{self, Graph};
use puzzlepress::puzzles::graycode::{self, GrayRequest};
use puzzlepress::puzzles::monitor::Unmonitored;
use puzzlepress::puzzles::oneup::{self, MetropolisOptions};
use puzzlepress::puzzles::rng::Rng;

fn from<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("request: {e}"))
}

fn graph(v: &Value) -> Graph {
    let n = |k: &str| v[k].as_u64().map(|n| n as usize);
    let mut adj: Vec<Vec<usize>>;
    if let Some(n) = n("holes") {
        return Graph::line(n).expect("line");
    } else if let Some(n) = n("tree") {
        let mut rng = Rng::from_u64(v["seed"].as_u64().unwrap_or(1));
        adj = vec![Vec::new(); n];
        for i in 1..n {
            let j = rng.index(i);
            adj[i].push(j);
            adj[j].push(i);
        }
    } else if let Some(n) = n("cycle") {
        adj = (0..n).map(|i| vec![(i + n - 1) % n, (i + 1) % n]).collect();
    } else if let Some(n) = n("complete") {
        adj = (0..n).map(|i| (0..n).filter(|&j| j != i).collect()).collect();
    } else if let Some(n) = n("star") {
        adj = (0..n).map(|i| if i == 0 { (1..n).collect() } else { vec![0] }).collect();
    } else {
        adj = from(&v["graph"]);
    }
    Graph::from_adjacency(adj).expect("graph")
}

/// The request, without a long word list.
fn shown(req: &Value) -> String {
    let mut req = req.clone();
    if let Some(words) = req.get_mut("words") {
        *words = format!("[{} words]", words.as_array().map_or(0, |w| w.len())).into();
    }
    req.to_string()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().expect("KIND");
    let arg = args.next().unwrap_or_else(|| "{}".into());
    let text = match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).expect("readable FILE"),
        None => arg,
    };
    let req: Value = serde_json::from_str(&text).expect("JSON");
    let m = &mut Unmonitored;
    let start = Instant::now();
    let out: Result<Value, String> = match kind.as_str() {
        "patterns" => crossword::search(&from::<PatternRequest>(&req), m).map(|r| json!(r)).map_err(|e| e.to_string()),
        "fills" => crossword::search(&from::<FillRequest>(&req), m).map(|r| json!(r)).map_err(|e| e.to_string()),
        "squares" => {
            crossword::search(&from::<WordSquareRequest>(&req), m).map(|r| json!(r)).map_err(|e| e.to_string())
        }
        "gray" => graycode::gray_codes(&from::<GrayRequest>(&req), m).map(|r| json!(r)).map_err(|e| e.to_string()),
        "metropolis" => {
            let size = req["size"].as_u64().unwrap_or(9) as usize;
            let puzzle = oneup::generate(size, 1, m).expect("generate").puzzle;
            let options: MetropolisOptions = from(&req);
            let start = Instant::now();
            let out = oneup::metropolis(&puzzle, &options, m).map(|r| json!(r)).map_err(|e| e.to_string());
            println!("(the sampler alone: {:?})", start.elapsed());
            out
        }
        "generate" => {
            let (size, seed) = (req["size"].as_u64().unwrap_or(9) as usize, req["seed"].as_u64().unwrap_or(0));
            oneup::generate(size, seed, m).map(|r| json!(r)).map_err(|e| e.to_string())
        }
        "foxhole" => {
            let g = graph(&req);
            foxhole::shortest_strategy(&g, m).map(|r| json!(r)).map_err(|e| e.to_string())
        }
        "book" => book_for(b"secret", "0123456789A", from::<BookSpec>(&req), m)
            .map(|b| json!({ "packed_bytes": b.pack().len() }))
            .map_err(|e| e.to_string()),
        other => panic!("unknown KIND {other}"),
    };
    let elapsed = start.elapsed();
    match out {
        Ok(v) => {
            let text = v.to_string();
            let short: String = text.chars().take(300).collect();
            println!("{kind} {}: {elapsed:.2?}, result {} bytes: {short}", shown(&req), text.len());
        }
        Err(e) => println!("{kind} {}: {elapsed:.2?}, error: {e}", shown(&req)),
    }
}
