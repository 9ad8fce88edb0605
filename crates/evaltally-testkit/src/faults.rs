//! Real faults for tests: a small file system that fills up, a connection that is cut.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A tmpfs of a few hundred kilobytes, mounted on a temporary folder for as long as it
/// lives: a disk that fills up. Mounting needs root; elsewhere [`SmallDisk::mount`] gives
/// `None` after a printed notice, and the test skips.
#[derive(Debug)]
pub struct SmallDisk {
    dir: tempfile_dir::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `kib` KiB; `None` (and a notice) where it cannot be mounted.
    pub fn mount(kib: u32) -> Option<Self> {
        let dir = tempfile_dir::TempDir::new("evaltally-small-disk")?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .output()
            .is_ok_and(|o| o.status.success());
        if !mounted {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("skipped: cannot mount a tmpfs (not root?): the full-disk test needs one");
            }
            return None;
        }
        Some(Self { dir })
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills it with a file of zeros until no byte more fits.
    ///
    /// # Panics
    /// When no file can be created on it at all.
    pub fn fill(&self) {
        let mut file = std::fs::File::create(self.path().join("filler")).expect("a file on the small disk");
        let block = [0u8; 4096];
        while file.write_all(&block).is_ok() {}
        let _ = file.write_all(&[0]);
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).output();
    }
}

/// A TCP proxy on 127.0.0.1 to `target` that, once the client has sent `after` (a byte
/// string such as `COPY results`) `times` times, either cuts every connection (the network
/// lost in the middle of a conversation) or holds those bytes while a fault of the test's
/// happens on the server (the server stopped), then passes them on.
#[derive(Debug)]
pub struct CuttingProxy {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl CuttingProxy {
    /// Starts the proxy to `target` (`host:port`).
    ///
    /// # Panics
    /// When no port of 127.0.0.1 can be bound.
    pub fn start(target: &str, after: &'static [u8], times: usize) -> Self {
        Self::with(target, after, times, None)
    }

    /// Starts the proxy to `target` (`host:port`) that calls `fault` when the client has sent
    /// `after` `times` times, before those bytes reach the server: `fault` stops the server
    /// or its connections, and what the client sent runs into that.
    ///
    /// # Panics
    /// When no port of 127.0.0.1 can be bound.
    pub fn before(target: &str, after: &'static [u8], times: usize, fault: impl Fn() + Send + Sync + 'static) -> Self {
        Self::with(target, after, times, Some(Arc::new(fault)))
    }

    fn with(target: &str, after: &'static [u8], times: usize, fault: Option<Fault>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("its address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let target = target.to_string();
        let stopping = Arc::clone(&stop);
        let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if stopping.load(Ordering::Relaxed) {
                    break;
                }
                let (Ok(client), Ok(server)) = (client, TcpStream::connect(&target)) else { continue };
                let cut = (after, times, Arc::clone(&seen), fault.clone());
                let (c2, s2) = (client.try_clone().expect("a clone"), server.try_clone().expect("a clone"));
                // Server to client: as it comes.
                std::thread::spawn(move || pump(s2, c2, None));
                // Client to server: until the pattern was seen `times` times in all.
                std::thread::spawn(move || pump(client, server, Some(&cut)));
            }
        });
        Self { port, stop }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for CuttingProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

type Fault = Arc<dyn Fn() + Send + Sync>;

/// The pattern, how many times it is let through, how many times it was seen, and what
/// happens then (`None`: the connection is cut).
type Cut = (&'static [u8], usize, Arc<std::sync::atomic::AtomicUsize>, Option<Fault>);

fn pump(mut from: TcpStream, mut to: TcpStream, cut: Option<&Cut>) {
    let mut buf = vec![0u8; 16 << 10];
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some((pattern, times, seen, fault)) = cut {
            tail.extend_from_slice(&buf[..n]);
            let found = tail.windows(pattern.len()).filter(|w| w == pattern).count();
            let before = if found > 0 { seen.fetch_add(found, Ordering::SeqCst) } else { usize::MAX };
            if found > 0 && before + found >= *times {
                match fault {
                    // Once, when the count is reached.
                    Some(fault) if before < *times => fault(),
                    Some(_) => {}
                    None => break,
                }
            }
            let keep = tail.len().saturating_sub(pattern.len());
            tail.drain(..keep);
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

/// A temporary folder without a dependency: made under the system's temporary folder,
/// removed when dropped.
mod tempfile_dir {
    use std::path::{Path, PathBuf};

    #[derive(Debug)]
    pub(super) struct TempDir(PathBuf);

    impl TempDir {
        pub(super) fn new(prefix: &str) -> Option<Self> {
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
            let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&dir).ok()?;
            Some(Self(dir))
        }

        pub(super) fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The `host:port` of a `postgres://…@host:port/db` URL, and the URL with them replaced by
/// 127.0.0.1 and `port`.
pub fn through_port(url: &str, port: u16) -> Option<(String, String)> {
    let (scheme, rest) = url.split_once("://")?;
    let (auth, rest) = rest.rsplit_once('@').map_or(("", rest), |(a, r)| (a, r));
    let (hostport, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let at = if auth.is_empty() { String::new() } else { format!("{auth}@") };
    Some((hostport.to_string(), format!("{scheme}://{at}127.0.0.1:{port}/{path}")))
}

/// A path below the system's temporary folder, for tests that want one without a folder.
pub fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(name)
}
