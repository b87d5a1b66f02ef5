//! Where stored times come from: the database server's clock, or (in tests) a clock the
//! test sets, so lease expiry can be tested without sleeping.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub enum Clock {
    /// The database server's clock: one clock for every replica.
    #[default]
    Database,
    /// A time set by hand, in Unix milliseconds.
    Manual(Arc<AtomicI64>),
}

impl Clock {
    pub fn manual(ms: i64) -> Clock {
        Clock::Manual(Arc::new(AtomicI64::new(ms)))
    }

    /// Sets a manual clock; does nothing to the database clock.
    pub fn set(&self, ms: i64) {
        if let Clock::Manual(t) = self {
            t.store(ms, Ordering::SeqCst);
        }
    }

    pub(super) fn fixed(&self) -> Option<i64> {
        match self {
            Clock::Database => None,
            Clock::Manual(t) => Some(t.load(Ordering::SeqCst)),
        }
    }
}
