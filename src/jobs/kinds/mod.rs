//! Every kind of job the service runs. Adding a kind means a type implementing
//! [`JobKind`](crate::jobs::JobKind) here and one line in [`registry`].

pub mod books;
pub mod crossword;
pub mod dictionary;
pub mod foxhole;
pub mod graycodes;
pub mod oneup;
#[cfg(feature = "test-jobs")]
pub mod testing;
pub mod wordsearch;

pub use books::Books;
pub use crossword::{CrosswordFills, CrosswordPatterns, WordSquares};
pub use dictionary::Dictionaries;
pub use foxhole::FoxholeStrategies;
pub use graycodes::GrayCodes;
pub use oneup::{OneUpBooks, OneUpPuzzles, OneUpSolves};
pub use wordsearch::{WordSearchBooks, WordSearches};

use super::Registry;

/// Every kind this build runs.
pub fn registry() -> Registry {
    let registry = Registry::default()
        .with::<Books>()
        .with::<FoxholeStrategies>()
        .with::<CrosswordPatterns>()
        .with::<CrosswordFills>()
        .with::<WordSquares>()
        .with::<OneUpSolves>()
        .with::<OneUpPuzzles>()
        .with::<OneUpBooks>()
        .with::<GrayCodes>()
        .with::<Dictionaries>()
        .with::<WordSearches>()
        .with::<WordSearchBooks>();
    #[cfg(feature = "test-jobs")]
    let registry = registry.with::<testing::Blocking>();
    registry
}
