//! Loading again when what is served changes: one thread loads, on the system's
//! notifications from the folders the last load's walk listed (one watch per folder, none
//! recursive: the walk alone lists folders), or on a [`crate::Trigger`].

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant, SystemTime};

use notify::{EventKind, RecursiveMode, Watcher};

use crate::shared::Shared;
use crate::state::Snapshot;

/// How often to load when the folders cannot all be watched.
const POLL: Duration = Duration::from_secs(2);

/// Loads now, then after every change, until the server is gone.
pub(crate) fn run(shared: &Arc<Shared>, changes: &Receiver<()>, sender: &Sender<()>, settle: Duration) {
    let mut watching = Watching::new(sender.clone());
    load(shared, &mut watching, sender);
    loop {
        let next = if watching.polling {
            changes.recv_timeout(POLL)
        } else {
            changes.recv().map_err(|_| RecvTimeoutError::Disconnected)
        };
        if next == Err(RecvTimeoutError::Disconnected) {
            return;
        }
        // Changes come in bursts (a folder copied, a file written in pieces): those within
        // `settle` of the first make one load.
        std::thread::sleep(settle);
        while changes.try_recv().is_ok() {}
        if Arc::strong_count(shared) == 1 {
            return;
        }
        load(shared, &mut watching, sender);
    }
}

fn load(shared: &Arc<Shared>, watching: &mut Watching, again: &Sender<()>) {
    shared.status().loading = true;
    let start = Instant::now();
    let loaded = shared.source.load();
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    match loaded {
        Ok(input) => {
            let folders = input.watch.clone();
            let generation = shared.snapshot().generation + 1;
            let mut snapshot = Snapshot::build(input, generation, 0, shared.subset.as_ref());
            // The view a page opens on (the first model, every run) is made before the page
            // is told, so that its first answer does not wait for the analysis.
            if !snapshot.models.is_empty() {
                snapshot.view(0, &crate::query::RunFilter::default());
            }
            snapshot.load_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
            *shared.snapshot.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(snapshot);
            // A folder that appeared is watched only now: what was written into it since
            // the walk listed it is read by one more load.
            if watching.follow(&folders) > 0 && generation > 1 {
                let _ = again.send(());
            }
            let mut status = shared.status();
            status.loading = false;
            status.error = None;
            status.watching = watching.watched.len();
            status.polling = watching.polling;
            status.loaded_at = Some(now);
        }
        Err(e) => {
            let mut status = shared.status();
            status.loading = false;
            status.error = Some(e.0);
            status.polling = watching.polling;
        }
    }
    shared.announce();
}

/// The folders watched.
struct Watching {
    watcher: Option<notify::RecommendedWatcher>,
    watched: BTreeSet<PathBuf>,
    /// Some folder could not be watched: load every [`POLL`].
    polling: bool,
}

impl Watching {
    fn new(changes: Sender<()>) -> Self {
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                let _ = changes.send(());
                return;
            };
            // Reading a file is no change (the load itself reads them); hidden files are
            // not read.
            let hidden = |p: &PathBuf| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'));
            if !matches!(event.kind, EventKind::Access(_)) && !event.paths.iter().all(hidden) {
                let _ = changes.send(());
            }
        });
        let polling = watcher.is_err();
        Self { watcher: watcher.ok(), watched: BTreeSet::new(), polling }
    }

    /// Watches `folders`, and no folder more; how many it watches that it did not before.
    fn follow(&mut self, folders: &[PathBuf]) -> usize {
        let Some(watcher) = self.watcher.as_mut() else { return 0 };
        let mut added = 0;
        let wanted: BTreeSet<PathBuf> = folders.iter().cloned().collect();
        for gone in self.watched.difference(&wanted) {
            let _ = watcher.unwatch(gone);
        }
        self.watched.retain(|f| wanted.contains(f));
        for folder in wanted {
            if self.watched.contains(&folder) {
                continue;
            }
            match watcher.watch(&folder, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(folder);
                    added += 1;
                }
                // Gone since the walk: the next load does without it.
                Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {}
                // Out of watches (inotify's limit): load every few seconds instead.
                Err(_) => self.polling = true,
            }
        }
        added
    }
}
