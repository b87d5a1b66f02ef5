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
