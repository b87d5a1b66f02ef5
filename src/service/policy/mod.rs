//! What a request settles before its job is stored, the same on every retry: each job
//! kind's request policy (its defaults, its seed, its budgets against the caller's limits)
//! runs in one step, [`Idempotency::settle`], and a job is queued only from what that step
//! returns ([`Settled`]). A request carries its `Idempotency-Key` (if any) and the seed
//! drawn for it, and a generation's seed comes only from here: a retried request (same
//! key) draws the same seed, so its checks and its job match the first one's.

mod foxbook;
mod oneup;

pub use foxbook::fox_book;

pub use oneup::{BookRequest as OneUpBookRequest, PuzzleRequest as OneUpPuzzleRequest, SolveQuery};

use super::error::ApiError;
use crate::puzzles::Limits;

/// A job kind's request policy: from what a client sent to what its job is stored with.
pub trait Policy: Sized {
    /// What the job is stored with.
    type Params;

    /// The job's parameters: defaults filled in, the seed from `request` (the only place a
    /// seed is drawn), budgets within `limits`; or the field at fault.
    fn settle(self, request: &Idempotency, limits: &Limits) -> Result<Self::Params, ApiError>;
}

/// A request settled by its kind's policy: the only thing a job is queued from.
#[derive(Debug)]
pub struct Settled<P>(P);

impl<P> Settled<P> {
    pub fn params(&self) -> &P {
        &self.0
    }

    /// For a check that moves part of the request elsewhere once settled (an inline word
    /// list stored apart, a solve's puzzle read from the body).
    pub fn params_mut(&mut self) -> &mut P {
        &mut self.0
    }
}

/// A request's idempotency key and the seed drawn for it.
#[derive(Debug, Clone)]
pub struct Idempotency {
    key: Option<String>,
    drawn: u64,
}

impl Idempotency {
    /// For a request with `key` (already checked): the seed is drawn from the key, or at
    /// random without one (such a request is never retried as the same job).
    pub fn new(key: Option<String>) -> Idempotency {
        let bits = match &key {
            Some(key) => {
                use sha2::Digest;
                let digest = sha2::Sha256::digest(key.as_bytes());
                u64::from_le_bytes(digest[..8].try_into().unwrap_or_default())
            }
            None => rand::random::<u64>(),
        };
        // Below 2^53, so that JavaScript clients read seeds exactly.
        Idempotency { key, drawn: bits >> 11 }
    }

    pub fn key(&self) -> Option<String> {
        self.key.clone()
    }

    /// The seed a generation runs with: the client's, or the one drawn for the request
    /// (private to the policies: the one way to draw a seed).
    fn seed(&self, given: Option<u64>) -> u64 {
        given.unwrap_or(self.drawn)
    }

    /// `request` as its kind's policy settles it for this caller's `limits`.
    pub fn settle<R: Policy>(&self, request: R, limits: &Limits) -> Result<Settled<R::Params>, ApiError> {
        request.settle(self, limits).map(Settled)
    }
}

/// Requests stored as sent: defaults and a fixed seed are their own (crossword searches
/// default to seed 0); their checks need more than the request (a stored word list, a
/// typesetting run) and come after.
macro_rules! as_sent {
    ($($request:ty),*) => {$(
        impl Policy for $request {
            type Params = $request;
            fn settle(self, _: &Idempotency, _: &Limits) -> Result<$request, ApiError> {
                Ok(self)
            }
        }
    )*};
}

as_sent!(
    crate::jobs::kinds::testing::BlockingParams,
    crate::jobs::kinds::dictionary::DictionaryRequest,
    crate::puzzles::crossword::PatternRequest,
    crate::puzzles::crossword::FillRequest,
    crate::puzzles::crossword::WordSquareRequest
);

impl Policy for crate::puzzles::graycode::GrayRequest {
    type Params = Self;

    fn settle(self, _: &Idempotency, limits: &Limits) -> Result<Self, ApiError> {
        crate::puzzles::graycode::validate_within(&self, &limits.graycode)
            .map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
        Ok(self)
    }
}

impl Policy for crate::jobs::kinds::foxhole::Holes {
    type Params = Self;

    fn settle(self, _: &Idempotency, _: &Limits) -> Result<Self, ApiError> {
        self.to_graph().map_err(|(field, detail)| ApiError::invalid(field, detail))?;
        Ok(self)
    }
}

impl Policy for crate::jobs::kinds::wordsearch::WordSearchRequest {
    type Params = Self;

    fn settle(mut self, request: &Idempotency, limits: &Limits) -> Result<Self, ApiError> {
        // Stored, so the job (and a retry with the same key) makes the same puzzle.
        self.seed = Some(request.seed(self.seed));
        self.check_bytes(&limits.wordsearch).map_err(|(field, detail)| ApiError::invalid(field, detail))?;
        Ok(self)
    }
}

impl Policy for crate::jobs::kinds::wordsearch::WordSearchBookRequest {
    type Params = Self;

    fn settle(mut self, request: &Idempotency, _: &Limits) -> Result<Self, ApiError> {
        // Stored, so the job (and a retry with the same key) makes the same book.
        self.seed = Some(request.seed(self.seed));
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_draws_the_same_seed_and_a_given_seed_wins() {
        let first = Idempotency::new(Some("order-7".into()));
        let retry = Idempotency::new(Some("order-7".into()));
        assert_eq!(first.seed(None), retry.seed(None));
        assert!(first.seed(None) < 1 << 53);
        assert_ne!(first.seed(None), Idempotency::new(Some("order-8".into())).seed(None));
        assert_eq!(first.seed(Some(3)), 3);
    }

    /// Settles `body` as `R` with `key`: the parameters as stored.
    fn settled<R: Policy + serde::de::DeserializeOwned>(body: serde_json::Value, key: &str) -> serde_json::Value
    where
        R::Params: serde::Serialize,
    {
        let request: R = serde_json::from_value(body).unwrap();
        let settled = Idempotency::new(Some(key.into())).settle(request, &Limits::anonymous()).unwrap();
        serde_json::to_value(settled.params()).unwrap()
    }

    #[test]
    fn every_seeded_kind_settles_a_retry_to_the_same_job_and_another_key_to_another() {
        use crate::jobs::kinds::wordsearch::{WordSearchBookRequest, WordSearchRequest};
        let search = serde_json::json!({"words": ["robin", "wren"], "rows": 8, "cols": 8});
        let book = serde_json::json!({"puzzles": [{"words": ["robin", "wren"]}], "rows": 8, "cols": 8});
        type Settle = fn(serde_json::Value, &str) -> serde_json::Value;
        let cases: [(&str, Settle, serde_json::Value); 4] = [
            ("one up puzzle", settled::<oneup::PuzzleRequest>, serde_json::json!({})),
            ("one up book", settled::<oneup::BookRequest>, serde_json::json!({"count": 4})),
            ("word search", settled::<WordSearchRequest>, search),
            ("word-search book", settled::<WordSearchBookRequest>, book),
        ];
        for (what, settle, body) in cases {
            let first = settle(body.clone(), "order-1");
            assert_eq!(first, settle(body.clone(), "order-1"), "{what}");
            assert_ne!(first["seed"], settle(body, "order-2")["seed"], "{what}");
        }
    }
}
