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
    let file = File::open(path)?;
    buf.clear();
    // One byte more than the size, so that the read which finds the end needs no room made.
    buf.reserve(usize::try_from(size).unwrap_or(usize::MAX).saturating_add(1));
    read_to_end(&file, buf)
}

/// Reads straight into the buffer's spare room (`rustix` fills it and sets the length, no
/// `unsafe` here) until the end of the file.
#[cfg(unix)]
fn read_to_end(file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    loop {
        if buf.len() == buf.capacity() {
            buf.reserve(buf.capacity().max(8 << 10));
        }
        match rustix::io::read(file, rustix::buffer::spare_capacity(buf)) {
            Ok(0) => return Ok(()),
            // More read, or a signal came first: read on.
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(not(unix))]
fn read_to_end(mut file: &File, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read as _;
    file.read_to_end(buf).map(drop)
}
