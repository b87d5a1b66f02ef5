//! The shape of a book and its validation.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How many pages and how large each grid is. Missing JSON fields take the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BookSpec {
    /// Pages in the book.
    #[schema(minimum = 1, maximum = 1000, default = 200)]
    pub pages: u32,
    /// Rows of letters on a page.
    #[schema(minimum = 3, maximum = 64, default = 32)]
    pub rows: u32,
    /// Columns of letters on a page.
    #[schema(minimum = 3, maximum = 64, default = 20)]
    pub cols: u32,
}

impl Default for BookSpec {
    /// The original book: 200 pages of 32 x 20 letters.
    fn default() -> Self {
        BookSpec { pages: 200, rows: 32, cols: 20 }
    }
}

/// The ranges the generator supports, inclusive; [`Limits`] may narrow them.
pub const PAGES_RANGE: (u32, u32) = (1, 1000);
pub const ROWS_RANGE: (u32, u32) = (3, 64);
pub const COLS_RANGE: (u32, u32) = (3, 64);

/// The maxima a server enforces on book orders; a spec above one is refused (the error
/// names the field), never clamped. Each is capped by its range above: a larger value
/// acts as the range's maximum.
///
/// The defaults are the ranges' maxima: the largest book (1000 pages of 64 x 64) takes
/// about 0.1 s to sample and packs into 819200 bytes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    pub max_pages: u32,
    pub max_rows: u32,
    pub max_cols: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_pages: PAGES_RANGE.1, max_rows: ROWS_RANGE.1, max_cols: COLS_RANGE.1 }
    }
}

impl BookSpec {
    /// Checks every field against the range the generator supports; the error names the
    /// first field out of range. (A stored book is read back with this check, so books
    /// printed under wider [`Limits`] stay readable.)
    pub fn validate(&self) -> Result<(), SpecError> {
        self.validate_within(&Limits { max_pages: u32::MAX, max_rows: u32::MAX, max_cols: u32::MAX })
    }

    /// Checks every field against its range narrowed by `limits`.
    pub fn validate_within(&self, limits: &Limits) -> Result<(), SpecError> {
        for (field, value, (min, max), limit) in [
            ("pages", self.pages, PAGES_RANGE, limits.max_pages),
            ("rows", self.rows, ROWS_RANGE, limits.max_rows),
            ("cols", self.cols, COLS_RANGE, limits.max_cols),
        ] {
            let max = max.min(limit);
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

    #[test]
    fn limits_at_the_maximum_are_accepted_and_above_refused() {
        let limits = Limits::default();
        let biggest = BookSpec { pages: limits.max_pages, rows: limits.max_rows, cols: limits.max_cols };
        assert_eq!(biggest.validate_within(&limits), Ok(()));
        for (spec, field) in [
            (BookSpec { pages: limits.max_pages + 1, ..biggest }, "pages"),
            (BookSpec { rows: limits.max_rows + 1, ..biggest }, "rows"),
            (BookSpec { cols: limits.max_cols + 1, ..biggest }, "cols"),
        ] {
            assert!(matches!(spec.validate_within(&limits), Err(SpecError::OutOfRange { field: f, .. }) if f == field));
        }
        let narrow = Limits { max_pages: 10, max_rows: 8, max_cols: 8 };
        assert_eq!(BookSpec { pages: 10, rows: 8, cols: 8 }.validate_within(&narrow), Ok(()));
        let e = BookSpec { pages: 11, rows: 8, cols: 8 }.validate_within(&narrow).unwrap_err();
        assert_eq!(e.to_string(), "`pages` must be between 1 and 10 (got 11)");
        let e = BookSpec { pages: 10, rows: 8, cols: 9 }.validate_within(&narrow).unwrap_err();
        assert_eq!(e.to_string(), "`cols` must be between 3 and 8 (got 9)");
        // Limits beyond what the generator supports act as its ranges.
        let wide = Limits { max_pages: 5000, max_rows: 100, max_cols: 100 };
        let e = BookSpec { rows: 65, ..BookSpec::default() }.validate_within(&wide).unwrap_err();
        assert_eq!(e.to_string(), "`rows` must be between 3 and 64 (got 65)");
        // Reading a stored book back checks only what the generator supports.
        assert_eq!(BookSpec { pages: 11, rows: 8, cols: 8 }.validate(), Ok(()));
    }
}
