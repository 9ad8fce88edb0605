//! What a look at a file's metadata tells the digest cache, and that look taken again from
//! the server on a network file system.
//!
//! The clients of NFS, SMB, FUSE file systems (sshfs and the like), 9P and AFS keep a file's
//! attributes for seconds to a minute and answer `stat` from that copy: a file rewritten on
//! another machine keeps its old size and times for that long here, while opening it
//! (close-to-open consistency) fetches the new ones, so reading the file sees the new
//! contents. A stamp that decides whether a stored reading still stands must not come from
//! that copy. [`restat`] asks the server (`statx` with `AT_STATX_FORCE_SYNC`) for a path on
//! such a file system, told once per device by `statfs`, and does nothing elsewhere: a
//! local file system's metadata is never stale. Ceph, Lustre and GPFS keep their clients'
//! metadata coherent, and are left alone too.

use std::fs::Metadata;
use std::io;
use std::path::Path;

/// A file's identity, size and times, as the digest cache compares them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stat {
    /// The device it is on.
    pub device: u64,
    /// Its inode.
    pub inode: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, nanoseconds since the epoch.
    pub modified: i128,
    /// Its status-change time, nanoseconds since the epoch (0 where the platform has none).
    pub changed: i128,
    /// Whether it is a regular file.
    pub is_file: bool,
}

impl Stat {
    /// The stat of `meta`.
    ///
    /// ```
    /// let file = tempfile::NamedTempFile::new()?;
    /// std::fs::write(file.path(), "{}")?;
    /// let stat = evaltally_format::walk::Stat::of(&std::fs::metadata(file.path())?);
    /// assert_eq!((stat.size, stat.is_file), (2, true));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn of(meta: &Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode, changed) = {
            use std::os::unix::fs::MetadataExt as _;
            (meta.dev(), meta.ino(), nanos(meta.ctime(), meta.ctime_nsec()))
        };
        #[cfg(not(unix))]
        let (device, inode, changed) = (0, 0, 0);
        let modified = meta.modified().map_or(0, |t| match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i128::try_from(d.as_nanos()).unwrap_or(i128::MAX),
            Err(e) => -i128::try_from(e.duration().as_nanos()).unwrap_or(i128::MAX),
        });
        Self { device, inode, size: meta.len(), modified, changed, is_file: meta.is_file() }
    }
}

#[cfg(unix)]
fn nanos(secs: i64, nanos: i64) -> i128 {
    i128::from(secs) * 1_000_000_000 + i128::from(nanos)
}

/// `path`'s metadata asked of the server, where `path` (whose metadata, links followed, was
/// `meta`) is on a network file system whose client may have answered from its copy; `None`
/// elsewhere, where `meta` stands. On Linux; `None` on other platforms.
///
/// ```
/// let file = tempfile::NamedTempFile::new()?;
/// let meta = std::fs::metadata(file.path())?;
/// // A temporary folder on a local disk: the metadata stands as it is.
/// if let Some(fresh) = evaltally_format::walk::restat(file.path(), &meta) {
///     assert_eq!(fresh?, evaltally_format::walk::Stat::of(&meta));
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn restat(path: &Path, meta: &Metadata) -> Option<io::Result<Stat>> {
    imp::restat(path, meta)
}

#[cfg(target_os = "linux")]
mod imp {
    use std::fs::Metadata;
    use std::io;
    use std::os::unix::fs::MetadataExt as _;
    use std::path::Path;
    use std::sync::{PoisonError, RwLock};

    use rustix::fs::{AtFlags, CWD, FileType, StatxFlags, StatxTimestamp};

    use super::Stat;

    /// The devices looked at so far, and whether each is a network file system's.
    static DEVICES: RwLock<Vec<(u64, bool)>> = RwLock::new(Vec::new());

    pub(super) fn restat(path: &Path, meta: &Metadata) -> Option<io::Result<Stat>> {
        remote(path, meta.dev()).then(|| fetch(path))
    }

    /// Whether `device` (that of `path`) is a network file system's: one `statfs` per
    /// device, by the first thread to ask.
    fn remote(path: &Path, device: u64) -> bool {
        let known = DEVICES.read().unwrap_or_else(PoisonError::into_inner).iter().find(|d| d.0 == device).map(|d| d.1);
        if let Some(remote) = known {
            return remote;
        }
        // A file system that cannot be asked is taken as local: its file cannot be read
        // either, and the reading says so.
        let remote = rustix::fs::statfs(path).is_ok_and(|fs| caches_attributes(fs.f_type));
        let mut devices = DEVICES.write().unwrap_or_else(PoisonError::into_inner);
        if !devices.iter().any(|d| d.0 == device) {
            devices.push((device, remote));
        }
        remote
    }

    /// `statx` of `path` (links followed) with `AT_STATX_FORCE_SYNC`: the server's answer.
    pub(super) fn fetch(path: &Path) -> io::Result<Stat> {
        let s = rustix::fs::statx(CWD, path, AtFlags::STATX_FORCE_SYNC, StatxFlags::BASIC_STATS)?;
        let nanos = |t: StatxTimestamp| i128::from(t.tv_sec) * 1_000_000_000 + i128::from(t.tv_nsec);
        Ok(Stat {
            device: rustix::fs::makedev(s.stx_dev_major, s.stx_dev_minor),
            inode: s.stx_ino,
            size: s.stx_size,
            modified: nanos(s.stx_mtime),
            changed: nanos(s.stx_ctime),
            is_file: FileType::from_raw_mode(s.stx_mode.into()) == FileType::RegularFile,
        })
    }

    /// Whether a file system of this `statfs` type keeps attributes on the client: NFS,
    /// SMB (three magic numbers), FUSE, 9P and AFS (two).
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation, clippy::unnecessary_cast)]
    pub(super) fn caches_attributes(f_type: rustix::fs::FsWord) -> bool {
        const TYPES: [u32; 8] =
            [0x6969, 0x517b, 0xff53_4d42, 0xfe53_4d42, 0x6573_5546, 0x0102_1997, 0x5346_414f, 0x6b41_4653];
        // The word is signed on some targets; the magic numbers are its low 32 bits.
        TYPES.contains(&(f_type as u64 as u32))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::fs::Metadata;
    use std::io;
    use std::path::Path;

    use super::Stat;

    pub(super) fn restat(_path: &Path, _meta: &Metadata) -> Option<io::Result<Stat>> {
        None
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::imp::{caches_attributes, fetch};
    use super::{Stat, restat};

    #[test]
    fn the_servers_answer_is_the_metadata_on_a_local_disk() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.json");
        std::fs::write(&file, "{\"a\": 1}\n").unwrap();
        for path in [file.as_path(), dir.path()] {
            let meta = std::fs::metadata(path).unwrap();
            let fetched = fetch(path).unwrap();
            assert_eq!(fetched, Stat::of(&meta), "{}", path.display());
            assert_eq!(fetched.is_file, path == file);
            assert_ne!((fetched.inode, fetched.modified, fetched.changed), (0, 0, 0));
        }
        assert!(fetch(&dir.path().join("absent")).is_err());
    }

    #[test]
    fn only_network_file_systems_are_asked_again() {
        for (magic, remote) in [
            (0x6969, true),       // NFS
            (0xff53_4d42, true),  // CIFS
            (0xfe53_4d42, true),  // SMB2
            (0x6573_5546, true),  // FUSE
            (0x0102_1997, true),  // 9P
            (0xef53, false),      // ext2/3/4
            (0x5846_5342, false), // XFS
            (0x0102_1994, false), // tmpfs
            (0x794c_7630, false), // overlayfs
            (0x00c3_6400, false), // Ceph, coherent
        ] {
            assert_eq!(caches_attributes(magic), remote, "{magic:#x}");
        }
        // Here, whatever file system the temporary folder is on, the answer follows its type.
        let dir = tempfile::tempdir().unwrap();
        let remote = caches_attributes(rustix::fs::statfs(dir.path()).unwrap().f_type);
        let meta = std::fs::metadata(dir.path()).unwrap();
        assert_eq!(restat(dir.path(), &meta).is_some(), remote);
        assert_eq!(restat(dir.path(), &meta).is_some(), remote, "asked again, from what was noted");
    }
}
