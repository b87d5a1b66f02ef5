//! Every engine's server-side maxima in one place, as a server configures them (`serve
//! --limits FILE`, JSON with any of these members; missing ones keep their defaults).

use serde::Deserialize;

use super::{crossword, foxbook, foxhole, graycode, oneup, wordsearch};

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    pub crossword: crossword::Limits,
    pub graycode: graycode::Limits,
    pub oneup: oneup::Limits,
    pub foxbook: foxbook::Limits,
    pub foxhole: foxhole::Limits,
    pub dictionary: DictionaryLimits,
    pub wordsearch: wordsearch::cost::Limits,
}

/// The largest dictionary a caller may have typeset: entries, and bytes of the request body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DictionaryLimits {
    pub max_entries: usize,
    pub max_bytes: usize,
}

impl DictionaryLimits {
    /// For setting a request already checked within its caller's limits.
    pub const UNLIMITED: DictionaryLimits = DictionaryLimits { max_entries: usize::MAX, max_bytes: usize::MAX };
}

impl Default for DictionaryLimits {
    fn default() -> Self {
        DictionaryLimits { max_entries: 20_000, max_bytes: 4 << 20 }
    }
}

impl Limits {
    /// The small limits of callers without a key: budgets up to the defaults a request
    /// gets when it names none (so a default request costs the same in either tier, at
    /// most about 20 s), fewer and smaller results.
    pub fn anonymous() -> Limits {
        let full = Limits::default();
        Limits {
            crossword: crossword::Limits {
                pattern_max_nodes: crossword::pattern::DEFAULT_MAX_NODES,
                fill_max_nodes: crossword::fill::DEFAULT_MAX_NODES,
                square_max_nodes: crossword::wordsquare::DEFAULT_MAX_NODES,
                max_time_limit_ms: 20_000,
                pattern_max_count: 1_000,
                square_max_count: 1_000,
                max_words: 20_000,
                max_result_bytes: 1 << 20,
                wordlist_max_bytes: 1 << 20,
                wordlist_max_words: 20_000,
                wordlists_per_caller: 10,
                wordlist_bytes_per_caller: 4 << 20,
                ..full.crossword
            },
            graycode: graycode::Limits {
                max_node_budget: graycode::DEFAULT_NODE_BUDGET,
                max_limit: 1_000,
                max_result_bytes: 1 << 20,
            },
            oneup: oneup::Limits { max_steps: oneup::DEFAULT_MAX_STEPS, max_book_seconds: 20 },
            foxbook: full.foxbook,
            foxhole: foxhole::Limits { max_inspections: 10_000, ..full.foxhole },
            dictionary: DictionaryLimits { max_entries: 500, max_bytes: 256 << 10 },
            wordsearch: wordsearch::cost::Limits { max_book_seconds: 20, max_result_bytes: 2 << 20 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_limits_are_never_above_the_defaults() {
        let (anon, full) = (Limits::anonymous(), Limits::default());
        let c = (&anon.crossword, &full.crossword);
        assert!(c.0.pattern_max_nodes <= c.1.pattern_max_nodes && c.0.fill_max_nodes <= c.1.fill_max_nodes);
        assert!(c.0.square_max_nodes <= c.1.square_max_nodes && c.0.max_time_limit_ms <= c.1.max_time_limit_ms);
        assert!(anon.graycode.max_node_budget <= full.graycode.max_node_budget);
        assert!(anon.oneup.max_steps <= full.oneup.max_steps);
        assert!(anon.oneup.max_book_seconds <= full.oneup.max_book_seconds);
        assert!(anon.foxhole.max_inspections <= full.foxhole.max_inspections);
        assert!(c.0.wordlist_max_bytes <= c.1.wordlist_max_bytes && c.0.wordlist_max_words <= c.1.wordlist_max_words);
        assert!(c.0.wordlists_per_caller <= c.1.wordlists_per_caller);
        assert!(c.0.wordlist_bytes_per_caller <= c.1.wordlist_bytes_per_caller);
        assert!(anon.dictionary.max_entries <= full.dictionary.max_entries);
        assert!(anon.dictionary.max_bytes <= full.dictionary.max_bytes);
        assert!(anon.wordsearch.max_book_seconds <= full.wordsearch.max_book_seconds);
        assert!(anon.wordsearch.max_result_bytes <= full.wordsearch.max_result_bytes);
    }

    #[test]
    fn a_partial_file_keeps_the_other_defaults_and_unknown_members_are_refused() {
        let l: Limits = serde_json::from_str(r#"{"oneup": {"max_steps": 5}}"#).unwrap();
        assert_eq!(l.oneup.max_steps, 5);
        assert_eq!(l.crossword, crossword::Limits::default());
        assert!(serde_json::from_str::<Limits>(r#"{"oneup": {"max_stepz": 5}}"#).is_err());
    }
}
