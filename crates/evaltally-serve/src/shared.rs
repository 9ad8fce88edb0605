//! What the connections and the loading thread share: the snapshot served, the loading
//! thread's status, and how pages are told of a change.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use evaltally_analyzer::subset::Subset;

use crate::Source;
use crate::state::Snapshot;

/// What the connections and the loading thread share.
pub(crate) struct Shared {
    pub(crate) snapshot: RwLock<Arc<Snapshot>>,
    pub(crate) status: Mutex<Status>,
    /// Counts what the page should know of: a load done, or one that failed.
    pub(crate) changes: tokio::sync::watch::Sender<u64>,
    pub(crate) source: Arc<dyn Source>,
    pub(crate) inputs: Vec<String>,
    pub(crate) token: Option<String>,
    /// The subset whose estimates the overviews carry.
    pub(crate) subset: Option<Arc<Subset>>,
    /// The port, for the `Host` check of a loopback server.
    pub(crate) port: u16,
    pub(crate) loopback: bool,
}

/// What the loading thread is doing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Status {
    pub(crate) loading: bool,
    /// Why the last load failed (the page keeps showing the one before).
    pub(crate) error: Option<String>,
    /// Folders watched.
    pub(crate) watching: usize,
    /// Whether the folders could not all be watched, so the server loads every few seconds.
    pub(crate) polling: bool,
    /// When the last load finished (seconds since 1970).
    pub(crate) loaded_at: Option<u64>,
}

impl Shared {
    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot.read().unwrap_or_else(PoisonError::into_inner))
    }

    pub(crate) fn status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells open pages something changed.
    pub(crate) fn announce(&self) {
        self.changes.send_modify(|n| *n += 1);
    }
}
