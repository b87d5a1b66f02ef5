//! Fox books' orders (a book, a print run's copies): checked and completed with the
//! server's defaults before they are stored.

use crate::puzzles::wordbook::WordSpec;
use crate::render;
use crate::render::print::{Imprint, PrintOptions, Trim};
use crate::service::error::ApiError;

/// An ordered book checked (word, letters, shape and size within the caller's limits; the
/// word and letters read in upper case) and how it is printed: the title trimmed ("Find
/// the" and the word unless the order names one), the server's lookup address unless the
/// order names one, the imprint trimmed and its ISBN normalised, the letters large enough
/// on the trim. The policy of fox books and print runs, whose orders draw a serial
/// instead of a seed (a retry finds the first order by its key).
pub fn fox_book(
    mut spec: WordSpec,
    trim: Trim,
    title: Option<String>,
    lookup_url: Option<String>,
    imprint: Imprint,
    limits: &crate::puzzles::foxbook::Limits,
    server_lookup_url: &str,
) -> Result<(WordSpec, PrintOptions), ApiError> {
    spec.word = spec.word.to_ascii_uppercase();
    spec.letters = spec.letters.map(|l| l.to_ascii_uppercase());
    spec.validate_within(limits).map_err(|e| ApiError::invalid(e.field, format!("{}: {}", e.field, e.detail)))?;
    let print = PrintOptions {
        trim,
        title: title.map_or_else(|| render::print::default_title(&spec.word), |t| t.trim().to_string()),
        lookup_url: lookup_url.unwrap_or_else(|| server_lookup_url.to_string()),
        imprint: imprint.checked().map_err(|(field, detail)| ApiError::invalid(field, detail))?,
    };
    print.validate().map_err(|(field, detail)| ApiError::invalid(field, detail))?;
    render::layouts::foxbook::check_letter_size(spec.size(), print.trim)
        .map_err(|detail| ApiError::invalid("trim", detail))?;
    Ok((spec, print))
}
