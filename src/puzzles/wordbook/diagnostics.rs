//! Mixing diagnostics for the word chains (see [`crate::puzzles::foxbook::diagnostics`]).
