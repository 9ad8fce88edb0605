use std::io;
use std::path::PathBuf;

/// Why a BFCL path could not be used at all.
///
/// Problems inside files (bad lines, missing score files, duplicates) are not errors of
/// this kind: they become [`evaltally_core::Diagnostic`]s and the rest is still read.
#[derive(Debug, thiserror::Error)]
pub enum BfclError {
    /// The path does not exist or cannot be inspected.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}
