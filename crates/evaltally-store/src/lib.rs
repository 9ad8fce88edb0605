#![doc = include_str!("../README.md")]

mod check;
mod connect;
mod listen;
mod push;
mod read;
mod schema;
mod selection;
#[doc(hidden)]
pub mod testing;
mod tls;

pub use check::{RunCheck, STATUSES};
pub use connect::{is_postgres_url, pgpass_lookup, shown_url};
pub use listen::{CHANNEL, Listener};
pub use push::{PushSource, Pushed};
pub use read::StoredRun;
pub use schema::LATEST_VERSION;
pub use selection::Selection;

#[doc(no_inline)]
pub use evaltally_core::{CategoryRun, RunRecord};

/// What can go wrong with a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL could not be used (malformed, an unknown option or `sslmode`).
    #[error("store URL `{url}`: {message}")]
    Url {
        /// The URL, password hidden.
        url: String,
        /// What is wrong.
        message: String,
    },
    /// TLS could not be set up as `sslmode` asks: the server has none, its certificate does
    /// not chain to the roots or is not for the host, the root certificate file is unreadable.
    #[error("store `{url}`: TLS (sslmode={mode}): {message}")]
    Tls {
        /// The URL, password hidden.
        url: String,
        /// The `sslmode` in force.
        mode: &'static str,
        /// What failed.
        message: String,
    },
    /// The server refused the user name or password.
    #[error("store `{url}`: authentication failed: {message} (check the password in the URL, PGPASSWORD or ~/.pgpass)")]
    Auth {
        /// The URL, password hidden.
        url: String,
        /// What the server said.
        message: String,
    },
    /// No server answered.
    #[error("store `{url}`: cannot reach the server: {message}")]
    Unreachable {
        /// The URL, password hidden.
        url: String,
        /// Why.
        message: String,
    },
    /// The server refused the connection for another reason (no such database, …).
    #[error("store `{url}`: {message}")]
    Server {
        /// The URL, password hidden.
        url: String,
        /// What the server said.
        message: String,
    },
    /// The store's schema is newer than this evaltally knows.
    #[error(
        "store `{url}`: its schema is version {found}, newer than this evaltally knows ({known}); upgrade evaltally"
    )]
    NewerSchema {
        /// The URL, password hidden.
        url: String,
        /// The store's version.
        found: i32,
        /// The newest version this build knows.
        known: i32,
    },
    /// A statement failed.
    #[error("store `{url}`: {what}: {message}")]
    Query {
        /// The URL, password hidden.
        url: String,
        /// What was being done.
        what: &'static str,
        /// What the server or the connection said.
        message: String,
    },
    /// A `store:` selection could not be read.
    #[error("store selection: {0}")]
    Selection(String),
    /// Stored data that does not make a run (a status evaltally does not know, …).
    #[error("store `{url}`: run {run_id}: {message}")]
    Data {
        /// The URL, password hidden.
        url: String,
        /// The run's id.
        run_id: i64,
        /// What is wrong.
        message: String,
    },
}

/// A connection to a PostgreSQL store, its schema up to date.
pub struct Store {
    client: postgres::Client,
    /// How to open more connections (for reading many runs); holds the password.
    target: connect::Target,
    /// The URL, password hidden.
    url: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("url", &self.url).finish_non_exhaustive()
    }
}

impl Store {
    /// Connects to the store at `url` and brings its schema up to date.
    pub fn connect(url: &str) -> Result<Self, StoreError> {
        let mut store = Self::connect_only(url)?;
        store.migrate_to(LATEST_VERSION)?;
        Ok(store)
    }

    /// Connects without touching the schema (for tests of migrations).
    #[doc(hidden)]
    pub fn connect_only(url: &str) -> Result<Self, StoreError> {
        let (client, target) = connect::connect(url)?;
        Ok(Self { client, target, url: shown_url(url) })
    }

    /// The URL, password hidden.
    pub fn shown_url(&self) -> &str {
        &self.url
    }

    /// The error of a failed statement.
    fn query_error(&self, what: &'static str, e: &postgres::Error) -> StoreError {
        StoreError::Query { url: self.url.clone(), what, message: connect::full_message(e) }
    }
}
