//! Hearing of pushes as they are committed: every push that adds runs sends their ids on
//! [`CHANNEL`] (PostgreSQL's `NOTIFY`, delivered at commit), and a [`Listener`] waits for
//! them.

use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;

use crate::{Store, StoreError};

/// The channel pushes announce their runs on: the ids of the runs added, comma-separated.
pub const CHANNEL: &str = "evaltally_runs";

/// A connection that listens on [`CHANNEL`].
pub struct Listener {
    client: postgres::Client,
    url: String,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener").field("url", &self.url).finish_non_exhaustive()
    }
}

impl Store {
    /// Turns this connection into a [`Listener`] of pushes.
    pub fn listen(mut self) -> Result<Listener, StoreError> {
        self.client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .map_err(|e| self.query_error("listening for pushes", &e))?;
        Ok(Listener { client: self.client, url: self.url })
    }
}

impl Listener {
    /// Waits up to `timeout` for pushes; the ids of the runs they added (empty when none
    /// came). An error when the connection is lost.
    pub fn wait(&mut self, timeout: Duration) -> Result<Vec<i64>, StoreError> {
        let mut ids = Vec::new();
        let parse =
            |payload: &str, ids: &mut Vec<i64>| ids.extend(payload.split(',').filter_map(|id| id.parse::<i64>().ok()));
        let mut notifications = self.client.notifications();
        let first = notifications.timeout_iter(timeout).next().map_err(|e| StoreError::Query {
            url: self.url.clone(),
            what: "listening for pushes",
            message: crate::connect::full_message(&e),
        })?;
        if let Some(n) = first {
            parse(n.payload(), &mut ids);
            // Those that came with it.
            let mut more = notifications.iter();
            while let Ok(Some(n)) = more.next() {
                parse(n.payload(), &mut ids);
            }
        }
        Ok(ids)
    }
}
