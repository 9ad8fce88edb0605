//! Versioned migrations, embedded, applied under an advisory lock.

use crate::{Store, StoreError};

/// The migrations, in order: version and SQL.
const MIGRATIONS: &[(i32, &str)] = &[
    (1, include_str!("migrations/0001_runs_and_results.sql")),
    (2, include_str!("migrations/0002_labels_messages_indexes.sql")),
];

/// The newest schema version this build knows.
pub const LATEST_VERSION: i32 = 2;

/// The advisory lock key that serialises migrations (any fixed number; "evaltaly").
const LOCK_KEY: i64 = 0x6576_616c_7461_6c79;

impl Store {
    /// Applies the migrations up to `version`, in one transaction holding the advisory
    /// lock: a second machine migrating at the same moment waits, then finds nothing to do.
    /// Returns the schema version now in force.
    #[doc(hidden)]
    pub fn migrate_to(&mut self, version: i32) -> Result<i32, StoreError> {
        let url = self.url.clone();
        let err = |what: &'static str| {
            let url = url.clone();
            move |e: postgres::Error| StoreError::Query { url, what, message: crate::connect::full_message(&e) }
        };
        let mut tx = self.client.transaction().map_err(err("starting the migration"))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK_KEY]).map_err(err("locking the schema"))?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                 version    integer PRIMARY KEY,
                 applied_at timestamptz NOT NULL DEFAULT now()
             )",
        )
        .map_err(err("creating schema_migrations"))?;
        let row = tx
            .query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[])
            .map_err(err("reading the schema version"))?;
        let current: i32 = row.get(0);
        if current > LATEST_VERSION {
            return Err(StoreError::NewerSchema { url: self.url.clone(), found: current, known: LATEST_VERSION });
        }
        for &(v, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current && *v <= version) {
            tx.batch_execute(sql).map_err(err("migrating the schema"))?;
            tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&v])
                .map_err(err("recording the migration"))?;
        }
        tx.commit().map_err(err("committing the migration"))?;
        Ok(current.max(version.min(LATEST_VERSION)))
    }

    /// The schema version in force (0 for an empty database).
    pub fn schema_version(&mut self) -> Result<i32, StoreError> {
        let exists = self
            .client
            .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
            .map_err(|e| self.query_error("reading the schema version", &e))?;
        if !exists.get::<_, bool>(0) {
            return Ok(0);
        }
        let row = self
            .client
            .query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[])
            .map_err(|e| self.query_error("reading the schema version", &e))?;
        Ok(row.get(0))
    }
}
