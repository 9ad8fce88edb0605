//! Folder listings a walk may take from a store of earlier ones (the digest cache) instead
//! of reading the folder again.
//!
//! A folder's modification time changes whenever an entry is created, removed or renamed
//! in it, and its status-change time when its permissions do; its device and inode change
//! when another folder is renamed into its place. A listing stored with those four is the
//! folder's listing for as long as they are unchanged (git's untracked cache relies on the
//! same). The walk still looks at every file's own metadata, so a file changed in place is
//! seen as before; only the listing of names is reused.
//!
//! Two limits keep a stored listing from hiding a change:
//! * a listing is stored only when the folder's times are older than [`FOLDER_SETTLE`]
//!   before it was taken: file systems stamp times from a clock that advances in ticks of a
//!   few milliseconds, and a change in the tick the listing was taken in could otherwise
//!   leave the times as they were;
//! * never for a folder whose times are whole seconds (a file system that keeps no finer
//!   times), where one second could hold many changes.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How much older than the listing a folder's times must be for the listing to be stored.
pub const FOLDER_SETTLE: Duration = Duration::from_millis(100);

/// What a folder entry is, as listed (links not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link.
    Link,
    /// Anything else (a FIFO, a socket, a device).
    Other,
}

/// The entries of one folder, hidden ones included, in the order the system listed them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Each entry's name and kind.
    pub entries: Vec<(OsString, EntryKind)>,
}

/// A folder's identity and times, which a stored listing must match to be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FolderStamp {
    /// The device the folder is on.
    pub device: u64,
    /// Its inode.
    pub inode: u64,
    /// Its modification time, nanoseconds since the epoch.
    pub modified: i128,
    /// Its status-change time, nanoseconds since the epoch.
    pub changed: i128,
}

impl From<super::Stat> for FolderStamp {
    fn from(stat: super::Stat) -> Self {
        Self { device: stat.device, inode: stat.inode, modified: stat.modified, changed: stat.changed }
    }
}

impl FolderStamp {
    /// The stamp of a folder from its metadata; `None` where the platform has no inodes.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let meta = std::fs::metadata(dir.path())?;
    /// let stamp = evaltally_format::walk::FolderStamp::of(&meta);
    /// assert_eq!(stamp.is_some(), cfg!(unix));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(unix)]
    #[allow(clippy::unnecessary_wraps)] // `None` on other platforms
    pub fn of(meta: &std::fs::Metadata) -> Option<Self> {
        Some(super::Stat::of(meta).into())
    }

    /// The stamp of a folder from its metadata; `None` where the platform has no inodes.
    #[cfg(not(unix))]
    pub fn of(_meta: &std::fs::Metadata) -> Option<Self> {
        None
    }

    /// Whether a listing taken at `listed_at` (read before the folder's metadata was) may
    /// be stored with this stamp: both times at least [`FOLDER_SETTLE`] before it, and
    /// not whole seconds.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use evaltally_format::walk::FolderStamp;
    /// let at = UNIX_EPOCH + Duration::from_secs(1_000);
    /// let stamp = |ms: i128| FolderStamp { device: 1, inode: 2, modified: ms * 1_000_000 + 7, changed: ms * 1_000_000 + 7 };
    /// assert!(stamp(999_000).settled(at));
    /// assert!(!stamp(999_950).settled(at), "changed 50 ms before the listing");
    /// let whole = FolderStamp { modified: 999_000_000_000, changed: 999_000_000_000, ..stamp(0) };
    /// assert!(!whole.settled(at), "whole seconds");
    /// ```
    pub fn settled(&self, listed_at: SystemTime) -> bool {
        let Ok(at) = listed_at.duration_since(UNIX_EPOCH) else { return false };
        let limit = i128::try_from(at.saturating_sub(FOLDER_SETTLE).as_nanos()).unwrap_or(i128::MAX);
        let whole = |t: i128| t % 1_000_000_000 == 0;
        self.modified < limit && self.changed < limit && !(whole(self.modified) && whole(self.changed))
    }
}

/// Where a walk may find folder listings taken before, and leave those it takes.
///
/// The digest cache (`evaltally-cache`) is one; [`NoListings`] (every folder read) is
/// what [`walk`](super::walk) uses.
pub trait Listings: Sync {
    /// Whether to stamp folders and ask for their listings at all.
    fn enabled(&self) -> bool;

    /// The listing stored for `folder` with exactly this stamp, if any.
    fn find(&self, folder: &Path, stamp: &FolderStamp) -> Option<Listing>;

    /// A listing just taken of `folder`, stamped before it was read, at `listed_at` (see
    /// [`FolderStamp::settled`]).
    fn keep(&self, folder: &Path, stamp: &FolderStamp, listing: &Listing, listed_at: SystemTime);
}

/// No stored listings: every folder is read.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoListings;

impl Listings for NoListings {
    fn enabled(&self) -> bool {
        false
    }

    fn find(&self, _folder: &Path, _stamp: &FolderStamp) -> Option<Listing> {
        None
    }

    fn keep(&self, _folder: &Path, _stamp: &FolderStamp, _listing: &Listing, _listed_at: SystemTime) {}
}
