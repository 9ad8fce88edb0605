use std::io;
use std::path::PathBuf;

/// Why a report could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum SfbenchError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file is not JSON.
    #[error("{}:{line}:{column}: not valid JSON: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The JSON is not a report this crate knows.
    #[error("{}: not an SF-Bench or SWE-bench report: {reason}", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
        /// What was looked for.
        reason: String,
    },
}

impl SfbenchError {
    /// A JSON syntax error in `path`, placed as every reader places one
    /// ([`evaltally_format::json::column`]: a text cut short one past its end).
    pub fn json(path: impl Into<PathBuf>, e: &serde_json::Error) -> Self {
        let message = e.to_string();
        let message = message.rfind(" at line ").map_or(message.clone(), |p| message[..p].to_string());
        Self::Json { path: path.into(), line: e.line(), column: evaltally_format::json::column(e), message }
    }
}
