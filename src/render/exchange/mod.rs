//! Files other programs read: crossword exchange formats (Across Lite .puz, .ipuz) and the
//! ZIP archives print runs are delivered in.

pub mod ipuz;
pub mod puz;
pub mod zip;
