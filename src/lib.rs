//! puzzlepress: prints unique Find-the-Fox books and solves puzzles, over HTTP.
//!
//! - [`puzzles`]: pure, deterministic engines (no I/O).
//! - [`render`]: the page model, each product's layout, the typesetter and the one PDF
//!   writer (no I/O).
//! - [`jobs`]: the durable queue and worker pool.
//! - [`store`]: SQLite and PostgreSQL.
//! - [`service`]: what the server and the offline CLI share (stored records read back).
//! - [`http`]: the REST API.
//! - [`probe`]: `puzzlepress health`, the container health check.

pub mod cli;
mod fields;
pub mod http;
pub mod jobs;
pub mod keys;
pub mod memory;
pub mod metrics;
pub mod offline;
pub mod parallel;
pub mod probe;
pub mod puzzles;
pub mod render;
pub mod server;
pub mod service;
pub mod store;

/// The Rust files below `dir` of the crate (e.g. `src/http`), for tests that read the code.
#[cfg(test)]
pub(crate) fn source_files(dir: &str) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    files
}
