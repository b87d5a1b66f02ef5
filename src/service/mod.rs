//! What the server and the offline CLI share, below the HTTP layer: stored records read
//! back as the domain's types, print-run archives, word-list ingestion, the errors they
//! report, and how stored times are written for people.

pub mod books;
pub mod error;
pub mod policy;
pub mod printruns;
pub mod wordlists;

/// Runs CPU work (rendering, unpacking) off the async threads.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, error::ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| error::ApiError::Internal(format!("blocking task failed: {e}")))
}

/// RFC 3339 form of a stored millisecond time.
pub fn timestamp(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    /// The HTTP layer is a leaf: only the server's wiring reaches into it.
    #[test]
    fn nothing_outside_the_http_layer_and_the_wiring_imports_it() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let files = crate::source_files("src");
        let importers: Vec<String> = files
            .iter()
            .filter(|f| !f.starts_with(src.join("http")) && !f.ends_with("server.rs"))
            .filter(|f| std::fs::read_to_string(f).unwrap().contains(&["crate", "::http"].concat()))
            .map(|f| f.display().to_string())
            .collect();
        assert!(importers.is_empty(), "{importers:?}");
    }
}
