//! The PostgreSQL team store of evaltally: runs pushed from any machine into one database,
//! selected with filters and read back as [`CategoryRun`]s (for the analyses) and
//! [`RunRecord`]s (for export and conversion).
//!
//! - The schema is created and migrated by [`Store::connect`]: versioned migrations
//!   (embedded SQL, recorded in `schema_migrations`), applied in one transaction that holds
//!   an advisory lock, so two machines migrating at once are safe.
//! - [`Store::push`] writes the runs of one pushed path in one transaction. Each run's
//!   natural key is a digest of the pushed files, the run's name and its model; pushing the
//!   same files again adds nothing (`INSERT … ON CONFLICT (digest) DO NOTHING`). Results go
//!   in with `COPY`. A push that fails half way leaves nothing behind.
//! - [`Store::select`] finds runs by a [`Selection`] (`store:branch=main,last=20`), and
//!   [`Store::category_runs`] / [`Store::records`] read them back.
//!
//! Statements are parameterised; messages show the URL with its password as `***`.
//! `docs/store.md` describes the tables for people writing SQL against them.
//!
//! ```no_run
//! use evaltally_store::{Selection, Store};
//! let mut store = Store::connect("postgres://ci@db.example/evals")?;
//! let runs = store.select(&Selection::parse("branch=main,last=20")?)?;
//! let category_runs = store.category_runs(&runs)?;
//! println!("{} runs, {} category runs", runs.len(), category_runs.len());
//! # Ok::<(), evaltally_store::StoreError>(())
//! ```

mod connect;
mod push;
mod read;
mod schema;
mod selection;
#[doc(hidden)]
pub mod testing;

pub use connect::{is_postgres_url, pgpass_lookup, shown_url};
pub use push::{PushSource, Pushed};
pub use read::StoredRun;
pub use schema::LATEST_VERSION;
pub use selection::Selection;

#[doc(no_inline)]
pub use evaltally_core::{CategoryRun, RunRecord};

/// What can go wrong with a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL could not be used (malformed, or a `sslmode` this build cannot honour).
    #[error("store URL `{url}`: {message}")]
    Url {
        /// The URL, password hidden.
        url: String,
        /// What is wrong.
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
        let client = connect::connect(url)?;
        Ok(Self { client, url: shown_url(url) })
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
