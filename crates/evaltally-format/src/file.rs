//! Reading a whole input file into a reused buffer.

use std::fs::File;
use std::path::Path;

/// Reads the file at `path` into `buf` (cleared first, its allocation kept), `size` being
/// the size the walk saw (0 when not known): the buffer is made that large once, and the
/// file read until its end (whatever its size is now: a file cut or grown since is read as
/// it is).
///
/// Inputs are read into buffers, never memory-mapped: a result file cut short while mapped
/// (a crashing eval job) would kill the process with SIGBUS. Only the digest cache maps
/// files, its own, which are replaced only by rename.
///
/// `std`'s own `read_to_end` on a `File` asks the system for the file's size and position
/// first, two calls per file that the walk already answered; at thousands of small reports
/// they were a third of the reading's system calls. (Reading through a `Take` avoids them
/// but reads 8 KiB first and doubles from there: seven reads for a 500 KB file.)
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("r.json");
/// std::fs::write(&path, b"{\"ok\": true}")?;
/// let mut buf = b"old".to_vec();
/// evaltally_format::read_file(&path, 12, &mut buf)?;
/// assert_eq!(buf, b"{\"ok\": true}");
/// // A size that is no longer right still reads the whole file.
/// evaltally_format::read_file(&path, 2, &mut buf)?;
/// assert_eq!(buf, b"{\"ok\": true}");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_file(path: &Path, size: u64, buf: &mut Vec<u8>) -> std::io::Result<()> {
    // The walk found it a regular file (a FIFO is never a unit's file): opened at once,
    // one system call fewer per file than [`open`].
    let file = File::open(path)?;
    buf.clear();
    // One byte more than the size, so that the read which finds the end needs no room made.
    buf.reserve(usize::try_from(size).unwrap_or(usize::MAX).saturating_add(1));
    read_to_end(&file, buf)
}

/// Reads the file at `path` into `buf` as [`read_file`] does, its first `head` bytes
/// first: when `wanted` says no to them (fewer when the file is shorter), reading stops
/// there, `buf` holds them and the answer is `false`. The file is opened once, and read on
/// from where the head ended.
///
/// For the files a format would take only with a certain start (a `.log` that is an
/// `oaieval` record log among megabytes of a harness's own logs).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("agent.log");
/// std::fs::write(&path, b"[12:00] step 1\n".repeat(1000))?;
/// let mut buf = Vec::new();
/// let read = evaltally_format::read_file_if(&path, 15_000, 64, &mut buf, |head| head.starts_with(b"{"))?;
/// assert!(!read && buf.len() >= 64 && buf.len() < 15_000);
/// let read = evaltally_format::read_file_if(&path, 15_000, 64, &mut buf, |head| head.starts_with(b"[12"))?;
/// assert!(read && buf.len() == 15_000);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_file_if(
    path: &Path,
    size: u64,
    head: usize,
    buf: &mut Vec<u8>,
    wanted: impl FnOnce(&[u8]) -> bool,
) -> std::io::Result<bool> {
    let file = File::open(path)?;
    buf.clear();
    let whole = usize::try_from(size).unwrap_or(usize::MAX).saturating_add(1);
    buf.reserve(head.min(whole));
    read_until(&file, buf, head)?;
    if !wanted(buf) {
        return Ok(false);
    }
    buf.reserve(whole.saturating_sub(buf.len()));
    read_to_end(&file, buf)?;
    Ok(true)
}

/// Opens `path` for reading if it is a regular file (after links). A pipe, a socket or a
/// device under a result file's name (a FIFO named `results_<date>.json`) is refused
/// rather than opened: opening a FIFO waits for a writer that may never come.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// assert!(evaltally_format::file::open(dir.path()).is_err(), "a folder is no file");
/// std::fs::write(dir.path().join("r.json"), b"{}")?;
/// assert!(evaltally_format::file::open(&dir.path().join("r.json")).is_ok());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open(path: &Path) -> std::io::Result<File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, a pipe, a socket or a device)",
        ));
    }
    File::open(path)
}

/// The whole file at `path`, as [`std::fs::read`] gives it, but only if it is a regular
/// file ([`open`]): what formats read beside their files (a results file that names the
/// model, a run's metadata) goes through this.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = open(path)?;
    let mut buf = Vec::with_capacity(file.metadata().map_or(0, |m| usize::try_from(m.len()).unwrap_or(0)) + 1);
    read_to_end(&file, &mut buf)?;
    Ok(buf)
}

/// How every reader says a file could not be read: `cannot read file: <the cause>`.
///
/// ```
/// let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
/// assert_eq!(evaltally_format::file::cannot_read(&e), "cannot read file: permission denied");
/// ```
pub fn cannot_read(e: &std::io::Error) -> String {
    format!("cannot read file: {e}")
}

/// [`read`], a failure said as an error on `path` ([`cannot_read`]).
///
/// ```
/// let err = evaltally_format::file::read_or_error(std::path::Path::new("no/such/file.json")).unwrap_err();
/// assert!(err.is_error() && err.message.starts_with("cannot read file: "));
/// ```
pub fn read_or_error(path: &Path) -> Result<Vec<u8>, evaltally_core::Diagnostic> {
    read(path).map_err(|e| evaltally_core::Diagnostic::error(path, cannot_read(&e)))
}

/// Reads until the buffer holds at least `at_least` bytes or the file ends.
fn read_until(file: &File, buf: &mut Vec<u8>, at_least: usize) -> std::io::Result<()> {
    while buf.len() < at_least {
        let before = buf.len();
        read_some(file, buf)?;
        if buf.len() == before {
            return Ok(());
        }
    }
    Ok(())
}

/// One read into the buffer's spare room, grown when full (`rustix` fills it and sets the
/// length, no `unsafe` here; a signal that came first is read past); the length says what
/// came.
#[cfg(unix)]
fn read_some(file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    loop {
        if buf.len() == buf.capacity() {
            buf.reserve(buf.capacity().max(8 << 10));
        }
        match rustix::io::read(file, rustix::buffer::spare_capacity(buf)) {
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(not(unix))]
fn read_some(mut file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read as _;
    let mut chunk = [0u8; 8 << 10];
    let n = file.read(&mut chunk)?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(())
}

/// Reads straight into the buffer's spare room until the end of the file.
#[cfg(unix)]
fn read_to_end(file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    read_until(file, buf, usize::MAX)
}

#[cfg(not(unix))]
fn read_to_end(mut file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read as _;
    file.read_to_end(buf).map(drop)
}

#[cfg(test)]
mod tests {
    /// A FIFO under a file's name is refused at once, not opened (which would wait for a
    /// writer for ever); a folder too.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("results_2026-01-01T00-00-00.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) makes the FIFO");
        let err = super::read(&fifo).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
        assert!(super::read(dir.path()).is_err());
    }
}
