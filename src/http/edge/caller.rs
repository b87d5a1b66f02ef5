//! Who is asking: an API key sent as `Authorization: Bearer TOKEN`, or an anonymous client
//! known by its address; and what they may see. Jobs and books are owned by the caller who
//! queued them. Until the first key is created the service is open (everyone sees
//! everything, as on a developer's machine); from then on it is closed — callers see only
//! their own things, admins everything — even after every key is revoked, until an
//! operator reopens it (`puzzlepress keys open`).

use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::HeaderMap;

use super::admission::KeyLookup;
use crate::http::error::ApiError;
use crate::http::{AppState, Quotas};
use crate::jobs::{Submitter, Tier};
use crate::keys::{token_hash, Role};
use crate::puzzles::Limits;
use crate::store::{Store, StoreError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// No token; `address` is the client's IP address.
    Anonymous { address: String },
    /// A valid, unrevoked API key.
    Key { id: String, name: String, role: Role },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub identity: Identity,
    /// Whether the service is closed (see the module comment): then callers see only what
    /// they own.
    pub closed: bool,
}

impl Caller {
    /// The owner recorded with the caller's jobs.
    pub fn owner(&self) -> String {
        match &self.identity {
            Identity::Anonymous { address } => format!("anon:{address}"),
            Identity::Key { id, .. } => format!("key:{id}"),
        }
    }

    /// The limits this caller gets: small ones without a key once the service is closed.
    pub fn tier(&self) -> Tier {
        match self.identity {
            Identity::Anonymous { .. } if self.closed => Tier::Anonymous,
            _ => Tier::Publisher,
        }
    }

    /// The caller as the queue knows them: owner, quota of queued or running jobs, tier.
    pub fn submitter(&self, quotas: &Quotas) -> Submitter {
        let quota = match self.identity {
            Identity::Anonymous { .. } => quotas.per_address,
            Identity::Key { .. } => quotas.per_key,
        };
        // Storage goes by tier: until the service is closed, everyone keeps as key holders do.
        let storage = match self.tier() {
            Tier::Anonymous => quotas.storage_per_address,
            Tier::Publisher => quotas.storage_per_key,
        };
        Submitter { owner: self.owner(), quota, tier: self.tier(), storage }
    }

    /// The engines' limits for this caller.
    pub fn limits<'a>(&self, state: &'a AppState) -> &'a Limits {
        state.limits.of(self.tier())
    }

    pub fn is_admin(&self) -> bool {
        matches!(self.identity, Identity::Key { role: Role::Admin, .. })
    }

    /// Whether this caller may read or cancel what `owner` queued.
    pub fn may_see(&self, owner: &str) -> bool {
        !self.closed || self.is_admin() || self.owner() == owner
    }

    /// Refuses callers other than `owner` (and admins) where `what` is the owner's: 401 to
    /// a caller without a key (one may help), 403 to another publisher (none will).
    pub fn require_owner(&self, owner: &str, what: &str) -> Result<(), ApiError> {
        match self.identity {
            _ if self.may_see(owner) => Ok(()),
            Identity::Anonymous { .. } => {
                Err(ApiError::Unauthorized { detail: format!("{what} is for its publisher: send their API key") })
            }
            Identity::Key { .. } => Err(ApiError::Forbidden { detail: format!("{what} is another publisher's") }),
        }
    }

    /// Refuses anonymous callers where `what` needs a key (once the service is closed).
    pub fn require_key(&self, what: &str) -> Result<(), ApiError> {
        match self.identity {
            Identity::Anonymous { .. } if self.closed => {
                Err(ApiError::Unauthorized { detail: format!("{what} needs an API key (Authorization: Bearer TOKEN)") })
            }
            _ => Ok(()),
        }
    }

    /// Refuses everyone but admins where `what` is for operators (once the service is closed).
    pub fn require_admin(&self, what: &str) -> Result<(), ApiError> {
        if self.closed && !self.is_admin() {
            return Err(ApiError::Unauthorized { detail: format!("{what} needs an admin key") });
        }
        Ok(())
    }
}

/// Whether the service is closed ([`Store::closed`]), looked up at most once a second per
/// process: a key created or revoked, or the service reopened, by `puzzlepress keys` in
/// another process takes effect within a second.
#[derive(Debug, Default)]
pub struct KeyPresence(Mutex<Option<(Instant, bool)>>);

impl KeyPresence {
    pub async fn closed(&self, store: &Store) -> Result<bool, StoreError> {
        if let Some((at, closed)) = *self.0.lock().unwrap_or_else(|e| e.into_inner()) {
            if at.elapsed() < Duration::from_secs(1) {
                return Ok(closed);
            }
        }
        let closed = store.closed().await?;
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), closed));
        Ok(closed)
    }
}

/// The token of an `Authorization: Bearer TOKEN` header; None without one (no header, or
/// one holding something else).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let closed = state.key_presence.closed(&state.store).await?;
        if !parts.headers.contains_key(AUTHORIZATION) {
            let address = parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(addr)| addr.ip().to_string())
                .unwrap_or_else(|| "unknown".into());
            return Ok(Caller { identity: Identity::Anonymous { address }, closed });
        }
        let token = bearer_token(&parts.headers).ok_or_else(|| ApiError::Unauthorized {
            detail: "send the API key as Authorization: Bearer TOKEN".into(),
        })?;
        // Looked up by the admission layer already (at most a second ago), as a rule.
        let key = match parts.extensions.get::<KeyLookup>() {
            Some(KeyLookup(key)) => key.clone(),
            None => state.store.api_key_by_hash(&token_hash(token)).await?,
        };
        let key = key.ok_or_else(|| ApiError::Unauthorized { detail: "this API key is unknown or revoked".into() })?;
        let role = Role::parse(&key.role)
            .ok_or_else(|| ApiError::Internal(format!("key {} has role {:?}", key.name, key.role)))?;
        Ok(Caller { identity: Identity::Key { id: key.id, name: key.name, role }, closed })
    }
}
