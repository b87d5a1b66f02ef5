//! How hard a puzzle is, in the four levels the books print; each engine says what a level
//! means for its kind (One Up: the hardest technique it needs; word search: the directions
//! words run in).

use serde::{Deserialize, Serialize};

/// `easy`, `medium`, `hard` or `expert`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    #[default]
    Medium,
    Hard,
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// As in the JSON: `easy`.
    pub fn as_str(self) -> &'static str {
        ["easy", "medium", "hard", "expert"][self as usize]
    }

    /// As printed: `Easy`.
    pub fn title(self) -> &'static str {
        ["Easy", "Medium", "Hard", "Expert"][self as usize]
    }
}
