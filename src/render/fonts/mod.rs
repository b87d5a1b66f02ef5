//! The fonts pages are set in, as layouts measure them (the PDF writer embeds them): the
//! sans family ([`sans`]: DejaVu Sans and Sans Mono, printable ASCII) and the serif
//! ([`serif`]: DejaVu Serif Condensed, Latin-1 and Latin Extended-A), each cut to a subset
//! by `build.rs` when the program is built.

pub mod sans;
pub mod serif;

pub use sans::{encode, Font, Metrics, FIRST, LAST};
