//! Who is asking: an API key sent as `Authorization: Bearer TOKEN`, or an anonymous client
//! known by its address. Jobs are owned by their caller.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use super::error::ApiError;
use super::{AppState, Quotas};
use crate::keys::{token_hash, Role};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// No token; `address` is the client's IP address.
    Anonymous { address: String },
    /// A valid, unrevoked API key.
    Key { id: String, name: String, role: Role },
}

impl Caller {
    /// The owner recorded with the caller's jobs.
    pub fn owner(&self) -> String {
        match self {
            Caller::Anonymous { address } => format!("anon:{address}"),
            Caller::Key { id, .. } => format!("key:{id}"),
        }
    }

    /// Jobs this caller may have queued or running at once.
    pub fn quota(&self, quotas: &Quotas) -> i64 {
        match self {
            Caller::Anonymous { .. } => quotas.per_address,
            Caller::Key { .. } => quotas.per_key,
        }
    }

    pub fn is_admin(&self) -> bool {
        matches!(self, Caller::Key { role: Role::Admin, .. })
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(AUTHORIZATION) else {
            let address = parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(addr)| addr.ip().to_string())
                .unwrap_or_else(|| "unknown".into());
            return Ok(Caller::Anonymous { address });
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| ApiError::Unauthorized {
                detail: "send the API key as Authorization: Bearer TOKEN".into(),
            })?;
        let key = state
            .store
            .api_key_by_hash(&token_hash(token))
            .await?
            .ok_or_else(|| ApiError::Unauthorized { detail: "this API key is unknown or revoked".into() })?;
        let role = Role::parse(&key.role)
            .ok_or_else(|| ApiError::Internal(format!("key {} has role {:?}", key.name, key.role)))?;
        Ok(Caller::Key { id: key.id, name: key.name, role })
    }
}
