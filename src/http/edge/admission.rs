//! Who may start a request, decided before any handler runs: callers without a valid key
//! (no token, a malformed one, or an unknown or revoked one) share their network's
//! request budget, and every caller (a key, or a network without one) holds at most a few
//! of the request slots and upload slots at once, so that no single caller can occupy
//! them all.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::caller::bearer_token;
use crate::http::error::ApiError;
use crate::keys::{is_token_shaped, token_hash};
use crate::store::{ApiKey, Store};

/// Who a request counts against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Who {
    /// A valid, unrevoked key (its id).
    Key(String),
    /// A client without a valid key: its IPv4 address or IPv6 /64.
    Network(IpAddr),
    /// No client address (the router called in-process): no per-caller limits.
    Unknown,
}

/// The network a client address counts as: IPv4 addresses one by one, IPv6 by /64 (one
/// host commonly holds a whole /64).
pub fn client_network(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !((1u128 << 64) - 1))),
        },
        v4 => v4,
    }
}

/// Requests and uploads one caller may have in progress at once.
#[derive(Debug, Clone, Copy)]
pub struct CallerCaps {
    pub requests_per_key: usize,
    pub requests_per_address: usize,
    pub uploads_per_caller: usize,
}

/// Everything the admission middleware needs.
pub struct Admission {
    store: Store,
    rate: AnonymousRate,
    keys: KeyCache,
    requests: Arc<CallerSlots>,
    uploads: Arc<CallerSlots>,
}

impl Admission {
    pub fn new(store: Store, anonymous_per_minute: u32, caps: CallerCaps) -> Admission {
        Admission {
            store,
            rate: AnonymousRate::per_minute(anonymous_per_minute),
            keys: KeyCache::default(),
            requests: Arc::new(CallerSlots::new("requests", caps.requests_per_key, caps.requests_per_address)),
            uploads: Arc::new(CallerSlots::new("uploads", caps.uploads_per_caller, caps.uploads_per_caller)),
        }
    }

    /// Who a request from `address` with these headers counts as.
    /// Who is asking, and what their token was found to be (None when it was not looked
    /// up, or the look-up failed).
    async fn who(&self, address: Option<SocketAddr>, token: Option<String>) -> (Who, Option<KeyLookup>) {
        let looked_up = match &token {
            Some(token) => self.keys.key(&self.store, token).await.map(KeyLookup),
            None => None,
        };
        let Some(address) = address else {
            return (Who::Unknown, looked_up);
        };
        if let Some(KeyLookup(Some(key))) = &looked_up {
            return (Who::Key(key.id.clone()), looked_up);
        }
        (Who::Network(client_network(address.ip())), looked_up)
    }
}

/// The key a request's token was found to be (None: no such key, or revoked), from the
/// cache below: the `Caller` extractor takes it instead of looking the token up again.
#[derive(Debug, Clone)]
pub struct KeyLookup(pub Option<ApiKey>);

pub async fn admit(State(admission): State<Arc<Admission>>, mut req: Request, next: Next) -> Response {
    let address = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(a)| *a);
    let (who, looked_up) = admission.who(address, bearer_token(req.headers()).map(str::to_owned)).await;
    if let Who::Network(network) = &who {
        if let Err(wait) = admission.rate.check(*network) {
            return ApiError::TooMany {
                detail: "too many requests without a valid API key from your address; slow down".into(),
                retry_after: wait,
            }
            .into_response();
        }
    }
    let Some(_slot) = admission.requests.take(&who) else {
        return admission.requests.full(&who).into_response();
    };
    req.extensions_mut().insert(who);
    if let Some(looked_up) = looked_up {
        req.extensions_mut().insert(looked_up);
    }
    next.run(req).await
}

/// Holds an upload slot of the caller `admit` found for each `POST` (an upload).
pub async fn admit_upload(State(admission): State<Arc<Admission>>, req: Request, next: Next) -> Response {
    if *req.method() != Method::POST {
        return next.run(req).await;
    }
    let who = req.extensions().get::<Who>().cloned().unwrap_or(Who::Unknown);
    let Some(_slot) = admission.uploads.take(&who) else {
        return admission.uploads.full(&who).into_response();
    };
    next.run(req).await
}

/// Slots in use per caller.
struct CallerSlots {
    /// What a slot is held for, as the 429 names it ("requests", "uploads").
    what: &'static str,
    per_key: usize,
    per_address: usize,
    held: Mutex<HashMap<Who, usize>>,
}

impl CallerSlots {
    fn new(what: &'static str, per_key: usize, per_address: usize) -> CallerSlots {
        CallerSlots { what, per_key, per_address, held: Mutex::default() }
    }

    /// The 429 for a caller who holds all their slots.
    fn full(&self, who: &Who) -> ApiError {
        let detail = format!("you have {} {} in progress already; wait for one to finish", self.cap(who), self.what);
        ApiError::TooMany { detail, retry_after: 1 }
    }

    fn cap(&self, who: &Who) -> usize {
        match who {
            Who::Key(_) => self.per_key,
            Who::Network(_) => self.per_address,
            Who::Unknown => usize::MAX,
        }
    }

    /// A slot of `who`'s, or None when they hold all of theirs.
    fn take(self: &Arc<Self>, who: &Who) -> Option<Slot> {
        let cap = self.cap(who);
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(who.clone()).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Slot { slots: self.clone(), who: who.clone() })
    }
}

struct Slot {
    slots: Arc<CallerSlots>,
    who: Who,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(&self.who) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.who);
            }
        }
    }
}

/// Which tokens are valid keys, looked up at most once a second per token: revoking a
/// key takes effect within a second, as for `caller::KeyPresence`.
#[derive(Default)]
struct KeyCache(Mutex<HashMap<String, (Instant, Option<ApiKey>)>>);

/// Tokens remembered at once; the table is emptied of stale entries (or wholly) when full.
const KEY_CACHE_ENTRIES: usize = 4096;
const KEY_CACHE_TTL: Duration = Duration::from_secs(1);

impl KeyCache {
    /// The valid key `token` is (Some(None) when it is none). Tokens that cannot be keys
    /// are not looked up; None when the look-up failed (the request counts as anonymous,
    /// and the handler looks again to report the error).
    async fn key(&self, store: &Store, token: &str) -> Option<Option<ApiKey>> {
        if !is_token_shaped(token) {
            return Some(None);
        }
        let hash = token_hash(token);
        if let Some((at, key)) = self.lock().get(&hash) {
            if at.elapsed() < KEY_CACHE_TTL {
                return Some(key.clone());
            }
        }
        let key = match store.api_key_by_hash(&hash).await {
            Ok(key) => key,
            Err(e) => {
                tracing::debug!(error = %e, "key look-up failed; the request counts as anonymous");
                return None;
            }
        };
        let mut known = self.lock();
        if known.len() >= KEY_CACHE_ENTRIES {
            known.retain(|_, (at, _)| at.elapsed() < KEY_CACHE_TTL);
            if known.len() >= KEY_CACHE_ENTRIES {
                known.clear();
            }
        }
        known.insert(hash, (Instant::now(), key.clone()));
        Some(key)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Option<ApiKey>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The anonymous request budget: a token bucket per client network, so serials cannot be
/// scanned and one client cannot crowd out the rest.
struct AnonymousRate {
    limiter: governor::DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU64,
}

impl AnonymousRate {
    fn per_minute(n: u32) -> AnonymousRate {
        let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        // A burst of a quarter of the minute's budget: a page and its scripts load at once.
        let burst = NonZeroU32::new((n.get() / 4).max(1)).unwrap_or(NonZeroU32::MIN);
        AnonymousRate {
            limiter: governor::RateLimiter::keyed(governor::Quota::per_minute(n).allow_burst(burst)),
            checks: AtomicU64::new(0),
        }
    }

    /// `Err(seconds to wait)` when `network` is over its budget.
    fn check(&self, network: IpAddr) -> Result<(), u64> {
        // Forget idle clients now and then, so the table stays the size of the active set.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 4096 == 4095 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&network).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(&governor::clock::DefaultClock::default()));
            wait.as_secs() + 1
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_network(a), client_network(b));
        assert_ne!(client_network(a), client_network(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_network(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_caller_holds_at_most_its_cap_and_slots_come_back_when_dropped() {
        let slots = Arc::new(CallerSlots::new("requests", 3, 2));
        let net = Who::Network("192.0.2.1".parse().unwrap());
        let key = Who::Key("k".into());
        let held: Vec<_> = (0..2).map(|_| slots.take(&net).unwrap()).collect();
        assert!(slots.take(&net).is_none());
        // Another caller is not affected.
        let keys: Vec<_> = (0..3).map(|_| slots.take(&key).unwrap()).collect();
        assert!(slots.take(&key).is_none());
        drop(held);
        assert!(slots.take(&net).is_some());
        drop(keys);
        assert!(slots.held.lock().unwrap().is_empty());
    }
}
