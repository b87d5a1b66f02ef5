//! API keys as people handle them: tokens that start with `pp_` (so a leaked one is easy
//! to recognise and search for), 256 random bits each, stored only as a SHA-256 hash; and
//! the `puzzlepress keys` commands.

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::cli::{KeysArgs, KeysCommand};
use crate::store::Store;

/// What a key may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Role {
    /// Orders books and reads its own books and jobs.
    Publisher,
    /// Everything, including every caller's books and jobs, and /metrics.
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Publisher => "publisher",
            Role::Admin => "admin",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        [Role::Publisher, Role::Admin].into_iter().find(|r| r.as_str() == s)
    }
}

pub const TOKEN_PREFIX: &str = "pp_";

/// A fresh token: the prefix and 32 random bytes in lower-case hexadecimal.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{TOKEN_PREFIX}{hex}")
}

/// Whether `token` has the shape `new_token` gives (only such tokens can be keys).
pub fn is_token_shaped(token: &str) -> bool {
    token.strip_prefix(TOKEN_PREFIX).is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// What is stored of a token. A fast hash is enough: tokens carry 256 random bits, so
/// nothing can be guessed from the hash.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// `puzzlepress keys create|list|revoke|open`.
pub async fn run(args: &KeysArgs) -> anyhow::Result<()> {
    let store = Store::connect(&args.database.database_url).await.context("opening the database")?;
    store.migrate().await.context("migrating the database")?;
    match &args.command {
        KeysCommand::Create { name, role } => {
            anyhow::ensure!(!name.trim().is_empty() && name.len() <= 100, "--name must be 1 to 100 characters");
            let token = new_token();
            anyhow::ensure!(
                store.create_api_key(name.trim(), role.as_str(), &token_hash(&token)).await?.is_some(),
                "an active key named {name:?} exists already (a revoked key's name may be reused)"
            );
            eprintln!("key {name:?} ({}) created; the token is shown only this once:", role.as_str());
            println!("{token}");
        }
        KeysCommand::List => {
            println!("{:<24} {:<10} {:<25} revoked", "name", "role", "created");
            for key in store.api_keys().await? {
                let revoked = key.revoked_at.map(crate::service::timestamp).unwrap_or_else(|| "-".into());
                println!(
                    "{:<24} {:<10} {:<25} {revoked}",
                    key.name,
                    key.role,
                    crate::service::timestamp(key.created_at)
                );
            }
        }
        KeysCommand::Revoke { name } => {
            anyhow::ensure!(store.revoke_api_key(name).await?, "there is no active key named {name:?}");
            println!("key {name:?} revoked");
            if !store.api_keys().await?.iter().any(|k| k.revoked_at.is_none()) {
                eprintln!(
                    "no key is active: the service stays closed (callers without a key see only their own \
                     things) until `puzzlepress keys open`"
                );
            }
        }
        KeysCommand::Open => {
            anyhow::ensure!(
                store.reopen().await?,
                "a key is active: revoke every key first (`puzzlepress keys list`); while one is, the service \
                 stays closed"
            );
            eprintln!("the service is open: anyone who can reach it may order books and read every book");
            println!("open");
        }
    }
    store.close().await;
    Ok(())
}
