//! The shape of a book and its validation.

use serde::{Deserialize, Serialize};

/// How many pages and how large each grid is. Missing JSON fields take the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BookSpec {
    pub pages: u32,
    pub rows: u32,
    pub cols: u32,
}

impl Default for BookSpec {
    /// The original book: 200 pages of 32 x 20 letters.
    fn default() -> Self {
        BookSpec { pages: 200, rows: 32, cols: 20 }
    }
}

/// Allowed ranges, inclusive.
pub const PAGES_RANGE: (u32, u32) = (1, 1000);
pub const ROWS_RANGE: (u32, u32) = (3, 64);
pub const COLS_RANGE: (u32, u32) = (3, 64);

impl BookSpec {
    /// Checks every field against its range; the error names the first field out of range.
    pub fn validate(&self) -> Result<(), SpecError> {
        for (field, value, (min, max)) in
            [("pages", self.pages, PAGES_RANGE), ("rows", self.rows, ROWS_RANGE), ("cols", self.cols, COLS_RANGE)]
        {
            if value < min || value > max {
                return Err(SpecError::OutOfRange { field, value, min, max });
            }
        }
        Ok(())
    }

    /// The nearest valid spec (each field clamped into its range).
    pub(crate) fn clamped(&self) -> BookSpec {
        BookSpec {
            pages: self.pages.clamp(PAGES_RANGE.0, PAGES_RANGE.1),
            rows: self.rows.clamp(ROWS_RANGE.0, ROWS_RANGE.1),
            cols: self.cols.clamp(COLS_RANGE.0, COLS_RANGE.1),
        }
    }

    /// Letters in the whole book.
    pub fn cells(&self) -> usize {
        self.pages as usize * self.rows as usize * self.cols as usize
    }
}

/// A book spec field outside its allowed range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("`{field}` must be between {min} and {max} (got {value})")]
    OutOfRange { field: &'static str, value: u32, min: u32, max: u32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_field() {
        assert_eq!(BookSpec::default().validate(), Ok(()));
        let e = BookSpec { rows: 2, ..BookSpec::default() }.validate().unwrap_err();
        assert_eq!(e.to_string(), "`rows` must be between 3 and 64 (got 2)");
        let e = BookSpec { pages: 1001, ..BookSpec::default() }.validate().unwrap_err();
        assert!(e.to_string().starts_with("`pages`"));
        assert!(BookSpec { cols: 65, ..BookSpec::default() }.validate().is_err());
        let s: BookSpec = serde_json::from_str(r#"{"pages": 12}"#).unwrap();
        assert_eq!(s, BookSpec { pages: 12, rows: 32, cols: 20 });
    }
}
