//! Where a crossword request's entries come from and which of them it may use: the members
//! that fills, word squares and fillable American patterns share, one type so that each
//! engine reads, checks and refuses them alike.

use std::borrow::Cow;

use super::error::{clip, CrosswordError};
use super::limits::{at_most, Limits};
use super::words::{WordFilter, WordList, DEFAULT_SCORE};

/// A request's word list and entry filter, as its members give them. The members stay in
/// each request's own body (not a flattened struct), so that a value of the wrong type is
/// refused naming its field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordSource<'r> {
    pub words: Option<&'r [String]>,
    pub wordlist: Option<&'r str>,
    pub min_score: Option<u8>,
    pub allow_offensive: bool,
}

impl<'r> WordSource<'r> {
    pub fn new(
        words: &'r Option<Vec<String>>,
        wordlist: &'r Option<String>,
        min_score: Option<u8>,
        allow_offensive: bool,
    ) -> Self {
        WordSource { words: words.as_deref(), wordlist: wordlist.as_deref(), min_score, allow_offensive }
    }

    /// The list to use: the request's own `words`, the stored list `wordlist` names (loaded
    /// by the caller into `stored`), or the bundled English one.
    pub(crate) fn list<'a>(
        &self,
        stored: Option<&'a WordList>,
        limits: &Limits,
    ) -> Result<Cow<'a, WordList>, CrosswordError> {
        match (self.words, self.wordlist) {
            (Some(_), Some(_)) => Err(CrosswordError::field("wordlist", "give either words or wordlist, not both")),
            (Some(words), None) => Ok(Cow::Owned(inline_list(words, limits)?)),
            (None, Some(id)) => stored
                .map(Cow::Borrowed)
                .ok_or_else(|| CrosswordError::field("wordlist", format!("no word list {:?}", clip(id)))),
            (None, None) => Ok(Cow::Borrowed(WordList::english())),
        }
    }

    /// The entry filter of `min_score` and `allow_offensive`.
    pub(crate) fn filter(&self) -> Result<WordFilter, CrosswordError> {
        let min_score = self.min_score.unwrap_or(DEFAULT_SCORE);
        if min_score > 100 {
            return Err(CrosswordError::field("min_score", format!("must be at most 100 (got {min_score})")));
        }
        Ok(WordFilter { min_score, allow_offensive: self.allow_offensive })
    }

    /// The members given, by name, for a request that takes no list to refuse them.
    pub(crate) fn given(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.words.is_some(), "words"),
            (self.wordlist.is_some(), "wordlist"),
            (self.min_score.is_some(), "min_score"),
            (self.allow_offensive, "allow_offensive"),
        ]
        .into_iter()
        .filter_map(|(given, field)| given.then_some(field))
    }
}

/// A request's own `words` as a list, within `limits` (errors name the entry's index).
pub fn inline_list(words: &[String], limits: &Limits) -> Result<WordList, CrosswordError> {
    if words.len() > limits.max_words {
        return Err(at_most("words", limits.max_words as u64, words.len() as u64));
    }
    WordList::from_words(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_members_are_named_in_order() {
        let words = Some(vec!["CAT".to_string()]);
        let none = None;
        assert_eq!(WordSource::default().given().count(), 0);
        let all =
            WordSource { min_score: Some(10), allow_offensive: true, ..WordSource::new(&words, &none, None, false) };
        assert_eq!(all.given().collect::<Vec<_>>(), ["words", "min_score", "allow_offensive"]);
    }
}
