//! What a request settles before its job is stored, the same on every retry: a request
//! carries its `Idempotency-Key` (if any) and the seed drawn for it, and a generation's
//! seed comes only from here. A retried request (same key) draws the same seed, so its
//! checks and its job match the first one's; there is no other way to draw one.

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

    /// The seed a generation runs with: the client's, or the one drawn for the request.
    pub fn seed(&self, given: Option<u64>) -> u64 {
        given.unwrap_or(self.drawn)
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
}
