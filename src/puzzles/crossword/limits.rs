//! Server-side maxima for everything a crossword request controls that scales work or
//! output. A request above a maximum is refused before any search, with an
//! [`CrosswordError::InvalidField`] naming the field and the maximum; nothing is clamped.

use super::error::CrosswordError;
use super::Count;

/// The maxima a server enforces on crossword requests (patterns, fills, word squares).
/// `Default` gives the ones the service runs with: each keeps one job under about a
/// minute on a loaded 2-core machine and every stored result under 4 MiB.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest `max_nodes` of a pattern request (square-orbit colourings).
    pub pattern_max_nodes: u64,
    /// Largest `max_nodes` of a fill request (candidate words tried).
    pub fill_max_nodes: u64,
    /// Largest `max_nodes` × the cost of one node of a fill request. A node copies and
    /// narrows the candidate sets of every slot, so its cost is counted in their 64-bit
    /// words (one per 64 words of the list of the slot's length) plus a fixed part (see
    /// `fill::node_cost`): a larger pattern or word list allows fewer nodes.
    pub fill_max_work: u64,
    /// Largest `max_nodes` of a word square request (letters placed).
    pub square_max_nodes: u64,
    /// Largest `time_limit_ms` of any request.
    pub max_time_limit_ms: u64,
    /// Largest `count` (sampled) or `limit` (with `"all"`) of a pattern request.
    pub pattern_max_count: u64,
    /// Largest `count` (sampled) or `limit` (with `"all"`) of a word square request.
    pub square_max_count: u64,
    /// Most entries in a request's own `words` list.
    pub max_words: usize,
    /// Largest result, as compact JSON, that a request may produce: `count` (or `limit`)
    /// times the size of one pattern or square must fit.
    pub max_result_bytes: usize,
    /// Largest uploaded word list, in bytes (at most 64 MiB, what the upload route reads).
    pub wordlist_max_bytes: usize,
    /// Most distinct entries of an uploaded word list.
    pub wordlist_max_words: usize,
    /// Most word lists one caller keeps.
    pub wordlists_per_caller: i64,
    /// Most bytes of word lists one caller keeps.
    pub wordlist_bytes_per_caller: i64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            pattern_max_nodes: 250_000_000,
            fill_max_nodes: 3_000_000,
            fill_max_work: 2_400_000_000,
            square_max_nodes: 600_000_000,
            max_time_limit_ms: 60_000,
            pattern_max_count: 100_000,
            square_max_count: 10_000,
            max_words: 200_000,
            max_result_bytes: 4 << 20,
            wordlist_max_bytes: 64 << 20,
            wordlist_max_words: 1_000_000,
            wordlists_per_caller: 20,
            wordlist_bytes_per_caller: 256 << 20,
        }
    }
}

/// Room kept in a result for everything besides its items (`total`, `note`, brackets).
const ENVELOPE_BYTES: usize = 1024;

impl Limits {
    /// `max_nodes` as given (at least 1, at most `max`), or `default` (never above `max`).
    pub(crate) fn max_nodes(value: Option<u64>, default: u64, max: u64) -> Result<u64, CrosswordError> {
        match value {
            Some(0) => Err(CrosswordError::field("max_nodes", "must be at least 1")),
            Some(n) if n > max => Err(at_most("max_nodes", max, n)),
            Some(n) => Ok(n),
            None => Ok(default.min(max)),
        }
    }

    pub(crate) fn time_limit(&self, value: Option<u64>) -> Result<Option<u64>, CrosswordError> {
        match value {
            // A limit of 0 ms would end every search at once.
            Some(0) => Err(CrosswordError::field("time_limit_ms", "must be at least 1")),
            Some(ms) if ms > self.max_time_limit_ms => Err(at_most("time_limit_ms", self.max_time_limit_ms, ms)),
            other => Ok(other),
        }
    }

    /// Checks how many items a request wants returned (`count`, or `limit` with
    /// `"all"`) against `max_count` and against the result size, each item taking up to
    /// `item_bytes`. Returns that number; `what` names the items ("21x21 patterns").
    pub(crate) fn items(
        &self,
        count: Count,
        limit: Option<usize>,
        default_limit: usize,
        max_count: u64,
        item_bytes: usize,
        what: &str,
    ) -> Result<usize, CrosswordError> {
        let (field, wanted) = match count {
            Count::N(n) => ("count", n),
            Count::All => ("limit", limit.unwrap_or(default_limit) as u64),
        };
        if wanted > max_count {
            return Err(at_most(field, max_count, wanted));
        }
        let fits = self.max_result_bytes.saturating_sub(ENVELOPE_BYTES) / item_bytes;
        if wanted > fits as u64 {
            return Err(CrosswordError::field(
                field,
                format!(
                    "must be at most {fits} for {what} (got {wanted}): each takes up to {item_bytes} bytes \
                     and a result may take at most {} bytes",
                    self.max_result_bytes
                ),
            ));
        }
        Ok(wanted as usize)
    }
}

/// "`field`: must be at most `max` (got `value`)".
pub(crate) fn at_most(field: &'static str, max: u64, value: u64) -> CrosswordError {
    CrosswordError::field(field, format!("must be at most {max} (got {value})"))
}

/// Upper bound of one pattern of side `n` as compact JSON, with its separating comma:
/// `{"hex":"…","rows":["…",…],"words":W,"black":B},` (W and B have at most 3 digits).
pub(crate) fn pattern_bytes(n: usize) -> usize {
    pattern_rect_bytes(n, n, false)
}

/// Upper bound of one pattern of `rows` x `cols` as compact JSON with its comma, and its
/// fill when `with_fill`: the fill's rows again, its letters (each square in at most two
/// entries) and at most `area / 3 + 1` entries per direction (entries of 3 or more start
/// on distinct squares), each with a number, position and score of at most 3 digits.
pub(crate) fn pattern_rect_bytes(rows: usize, cols: usize, with_fill: bool) -> usize {
    let area = rows * cols;
    let lines = rows * (cols + 3) - 1;
    let pattern = r#"{"hex":"","rows":[],"words":,"black":},"#.len() + area.div_ceil(4) + lines + 3 + 3;
    if !with_fill {
        return pattern;
    }
    let entry = r#"{"number":,"row":,"col":,"word":"","score":},"#.len() + 4 * 3;
    let envelope = r#","fill":{"rows":[],"across":[],"down":[],"quality":{"min_score":,"mean_score":}}"#.len() + 3 + 24;
    pattern + envelope + lines + 2 * area + 2 * (area / 3 + 1) * entry
}

/// One word square of side `n` as compact JSON with its comma: `["…",…],`.
pub(crate) fn square_bytes(n: usize) -> usize {
    n * (n + 3) + 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::crossword::fill::PatternInput;
    use crate::puzzles::crossword::{FillRequest, PatternRequest, SearchRequest, WordSquareRequest};
    use crate::puzzles::crossword::{Grid, WordList};
    use crate::puzzles::monitor::Unmonitored;

    const EX1: &str = "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg";

    /// The field and the message of a refusal.
    fn refused(r: Result<(), CrosswordError>) -> (&'static str, String) {
        match r {
            Err(CrosswordError::InvalidField { field, message }) => (field, message),
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    fn fill_request() -> FillRequest {
        FillRequest::new(PatternInput::Hex(EX1.into()))
    }

    #[test]
    fn defaults_fit_under_the_maxima() {
        let l = Limits::default();
        assert!(super::super::pattern::DEFAULT_MAX_NODES <= l.pattern_max_nodes);
        assert!(super::super::fill::DEFAULT_MAX_NODES <= l.fill_max_nodes);
        assert!(super::super::wordsquare::DEFAULT_MAX_NODES <= l.square_max_nodes);
        assert!(PatternRequest::new(21).validate(&l).is_ok());
        assert!(fill_request().validate(&l).is_ok());
        assert!(WordSquareRequest::new(7).validate(&l).is_ok());
    }

    #[test]
    fn max_nodes_at_the_maximum_is_accepted_and_above_refused() {
        let l = Limits::default();
        let p = |n| PatternRequest { max_nodes: Some(n), ..PatternRequest::new(15) }.validate(&l);
        assert!(p(l.pattern_max_nodes).is_ok());
        assert_eq!(
            refused(p(u64::MAX)),
            ("max_nodes", format!("must be at most {} (got {})", l.pattern_max_nodes, u64::MAX))
        );
        assert_eq!(refused(p(0)).0, "max_nodes");
        // A fill with a short list may spend the most nodes.
        let few = || Some(["CAT", "DOG", "EMU"].map(String::from).to_vec());
        let f = |n| FillRequest { max_nodes: Some(n), words: few(), ..fill_request() }.validate(&l);
        assert!(f(l.fill_max_nodes).is_ok());
        assert_eq!(
            refused(f(l.fill_max_nodes + 1)),
            ("max_nodes", format!("must be at most {} (got {})", l.fill_max_nodes, l.fill_max_nodes + 1))
        );
        // With the bundled list each node of a 15x15 fill costs more, so fewer are allowed.
        let cost = super::super::fill::node_cost(&Grid::from_hex(EX1).unwrap().slots(), WordList::english());
        let affordable = l.fill_max_work / cost;
        assert!(affordable < l.fill_max_nodes && affordable > 100_000, "{cost}");
        let f = |n| FillRequest { max_nodes: Some(n), ..fill_request() }.validate(&l);
        assert!(f(affordable).is_ok());
        let (field, message) = refused(f(affordable + 1));
        assert_eq!(field, "max_nodes");
        let expected = format!("must be at most {affordable} for this pattern and word list (got {})", affordable + 1);
        assert!(message.starts_with(&expected), "{message}");
        let s = |n| WordSquareRequest { max_nodes: Some(n), ..WordSquareRequest::new(7) }.validate(&l);
        assert!(s(l.square_max_nodes).is_ok());
        // The request of the report: it used to run for ever.
        let e = CrosswordError::InvalidField { field: "max_nodes", message: refused(s(u64::MAX)).1 };
        assert_eq!(e.to_string(), "max_nodes: must be at most 600000000 (got 18446744073709551615)");
    }

    #[test]
    fn the_engines_refuse_before_searching() {
        // A search this large would take hours; refused at once, whatever the monitor.
        let l = Limits::default();
        let req = PatternRequest { count: Count::All, max_nodes: Some(u64::MAX), ..PatternRequest::new(21) };
        let e = req.search(None, &l, &mut Unmonitored).unwrap_err();
        assert!(matches!(e, CrosswordError::InvalidField { field: "max_nodes", .. }), "{e}");
        let req = WordSquareRequest { max_nodes: Some(u64::MAX), ..WordSquareRequest::new(7) };
        let e = crate::puzzles::crossword::search(&req, &mut Unmonitored).unwrap_err();
        assert!(matches!(e, CrosswordError::InvalidField { field: "max_nodes", .. }), "{e}");
        let req = FillRequest { max_nodes: Some(u64::MAX), ..fill_request() };
        let e = crate::puzzles::crossword::search(&req, &mut Unmonitored).unwrap_err();
        assert!(matches!(e, CrosswordError::InvalidField { field: "max_nodes", .. }), "{e}");
    }

    #[test]
    fn time_limit_at_the_maximum_is_accepted_and_above_refused() {
        let l = Limits::default();
        let p = |ms| PatternRequest { time_limit_ms: Some(ms), ..PatternRequest::new(15) }.validate(&l);
        assert!(p(l.max_time_limit_ms).is_ok());
        assert_eq!(refused(p(l.max_time_limit_ms + 1)), ("time_limit_ms", "must be at most 60000 (got 60001)".into()));
        let f = |ms| FillRequest { time_limit_ms: Some(ms), ..fill_request() }.validate(&l);
        assert!(f(l.max_time_limit_ms).is_ok());
        assert_eq!(refused(f(l.max_time_limit_ms + 1)).0, "time_limit_ms");
        let s = |ms| WordSquareRequest { time_limit_ms: Some(ms), ..WordSquareRequest::new(5) }.validate(&l);
        assert!(s(l.max_time_limit_ms).is_ok());
        assert_eq!(refused(s(l.max_time_limit_ms + 1)).0, "time_limit_ms");
    }

    #[test]
    fn pattern_counts_are_capped_by_the_result_size() {
        let l = Limits::default();
        let fits = (l.max_result_bytes - ENVELOPE_BYTES) / pattern_bytes(21);
        assert_eq!(fits, 6363);
        let count = |n| PatternRequest { count: Count::N(n), ..PatternRequest::new(21) }.validate(&l);
        assert!(count(fits as u64).is_ok());
        let (field, message) = refused(count(fits as u64 + 1));
        assert_eq!(field, "count");
        assert!(message.starts_with("must be at most 6363 for 21x21 patterns (got 6364)"), "{message}");
        // The request of the report: 100000 11x11 patterns stored 22.7 MB.
        let req = PatternRequest { count: Count::All, limit: Some(100_000), ..PatternRequest::new(11) };
        let (field, message) = refused(req.validate(&l));
        assert_eq!(field, "limit");
        assert!(message.starts_with("must be at most 18311 for 11x11 patterns (got 100000)"), "{message}");
        let limit = |n| PatternRequest { count: Count::All, limit: Some(n), ..PatternRequest::new(11) }.validate(&l);
        assert!(limit(18_311).is_ok());
        assert_eq!(refused(limit(18_312)).0, "limit");
    }

    #[test]
    fn pattern_and_square_counts_have_their_own_maxima() {
        let l = Limits { max_result_bytes: usize::MAX, ..Limits::default() };
        let p = |n| PatternRequest { count: Count::N(n), ..PatternRequest::new(5) }.validate(&l);
        assert!(p(l.pattern_max_count).is_ok());
        assert_eq!(refused(p(l.pattern_max_count + 1)), ("count", "must be at most 100000 (got 100001)".into()));
        let l = Limits::default();
        let s = |n| WordSquareRequest { count: Count::N(n), ..WordSquareRequest::new(7) }.validate(&l);
        assert!(s(l.square_max_count).is_ok());
        assert_eq!(refused(s(l.square_max_count + 1)), ("count", "must be at most 10000 (got 10001)".into()));
        let all = |n| WordSquareRequest { count: Count::All, limit: Some(n), ..WordSquareRequest::new(7) };
        assert!(all(10_000).validate(&l).is_ok());
        assert_eq!(refused(all(10_001).validate(&l)).0, "limit");
        let small = Limits { max_result_bytes: ENVELOPE_BYTES + 10 * square_bytes(7), ..Limits::default() };
        assert!(all(10).validate(&small).is_ok());
        let (field, message) = refused(all(11).validate(&small));
        assert_eq!(field, "limit");
        assert!(message.starts_with("must be at most 10 for 7x7 word squares (got 11)"), "{message}");
    }

    #[test]
    fn word_lists_are_capped() {
        let l = Limits { max_words: 3, ..Limits::default() };
        let words = |n: usize| Some(vec!["CAT".to_string(); n]);
        assert!(FillRequest { words: words(3), ..fill_request() }.validate(&l).is_ok());
        assert_eq!(
            refused(FillRequest { words: words(4), ..fill_request() }.validate(&l)),
            ("words", "must be at most 3 (got 4)".into())
        );
        assert!(WordSquareRequest { words: words(3), ..WordSquareRequest::new(3) }.validate(&l).is_ok());
        assert_eq!(refused(WordSquareRequest { words: words(4), ..WordSquareRequest::new(3) }.validate(&l)).0, "words");
    }

    #[test]
    fn item_sizes_bound_the_real_results() {
        for n in [5, 11, 21] {
            let req = PatternRequest { count: Count::N(40), ..PatternRequest::new(n) };
            let out = crate::puzzles::crossword::search(&req, &mut Unmonitored).unwrap();
            for p in &out.patterns {
                assert!(serde_json::to_string(p).unwrap().len() < pattern_bytes(n), "{n}: {p:?}");
            }
            let bytes = serde_json::to_string(&out).unwrap().len();
            assert!(bytes <= ENVELOPE_BYTES + out.patterns.len() * pattern_bytes(n), "{n}: {bytes}");
        }
        let req = WordSquareRequest { count: Count::N(5), ..WordSquareRequest::new(5) };
        let out = crate::puzzles::crossword::search(&req, &mut Unmonitored).unwrap();
        for s in &out.squares {
            assert_eq!(serde_json::to_string(s).unwrap().len() + 1, square_bytes(5));
        }
    }
}
