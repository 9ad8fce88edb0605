//! The server: its configuration, its start, and what it shares between the connections
//! and the loading thread.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use evaltally_analyzer::subset::Subset;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Source;
use crate::shared::{Shared, Status};
use crate::state::Snapshot;

/// How long a client may take to send a request's head.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections served at once (a page holds two or three).
const MAX_CONNECTIONS: usize = 64;
/// The most bytes of a request's head.
const MAX_HEAD: usize = 64 * 1024;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen: `127.0.0.1:0` (loopback, a free port) unless told otherwise.
    pub bind: SocketAddr,
    /// A token every request must carry (in the URL the server prints, then a cookie).
    /// Required when `bind` is not a loopback address.
    pub token: Option<String>,
    /// The paths served, as the page names them.
    pub inputs: Vec<String>,
    /// How long to wait after a change for the changes that come with it before loading
    /// again.
    pub settle: Duration,
    /// A subset of the benchmark's tests (`evaltally subset -o`): each model's overview then
    /// carries its estimated full score from the anchors it ran.
    pub subset: Option<Arc<Subset>>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            token: None,
            inputs: Vec::new(),
            settle: Duration::from_millis(100),
            subset: None,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound (in use, not this machine's, not permitted).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// What the system said.
        source: std::io::Error,
    },
    /// A non-loopback address without a token.
    #[error("{addr} is reachable from other machines: serving it needs a token (--token, or let evaltally make one)")]
    TokenNeeded {
        /// The address.
        addr: SocketAddr,
    },
    /// A token that is too short or has characters a URL would change.
    #[error("a token needs at least 16 characters, each a letter, a digit, '-', '_', '.' or '~'")]
    BadToken,
    /// The runtime could not be started.
    #[error("cannot start the server's threads: {0}")]
    Runtime(#[source] std::io::Error),
}

/// What one load gave (a failed one keeps the runs of the load before).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Load {
    /// Loads ended so far, this one included (failed ones too).
    pub number: u64,
    /// Loads that succeeded so far: the one the page shows.
    pub generation: u64,
    /// Runs served (per model).
    pub runs: usize,
    /// Models served.
    pub models: usize,
    /// How long the load took, in milliseconds.
    pub ms: u64,
    /// Errors, warnings and notes reading.
    pub problems: [usize; 3],
    /// Units read from their files (the rest came from a digest cache), when counted.
    pub units_read: Option<u64>,
    /// Why this load failed, when it did.
    pub error: Option<String>,
}

/// Tells a running server that what it serves changed (a run pushed to a store it reads):
/// it loads again.
#[derive(Clone, Debug)]
pub struct Trigger(mpsc::Sender<()>);

impl Trigger {
    /// Asks for a load; changes that come together make one load.
    pub fn changed(&self) {
        let _ = self.0.send(());
    }
}

/// A running server. It serves until the process ends, or until dropped.
pub struct Server {
    runtime: Option<tokio::runtime::Runtime>,
    shared: Arc<Shared>,
    addr: SocketAddr,
    url: String,
    trigger: Trigger,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("addr", &self.addr).finish_non_exhaustive()
    }
}

impl Server {
    /// Binds `config.bind` and starts serving what `source` loads: the first load starts
    /// at once, in a thread of its own, and pages opened before it ends say so.
    pub fn start(config: &Config, source: Arc<dyn Source>) -> Result<Self, ServeError> {
        let loopback = config.bind.ip().is_loopback();
        if let Some(token) = &config.token
            && (token.len() < 16 || !token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b)))
        {
            return Err(ServeError::BadToken);
        }
        if !loopback && config.token.is_none() {
            return Err(ServeError::TokenNeeded { addr: config.bind });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4)))
            .thread_name("evaltally-serve")
            .enable_io()
            .enable_time()
            .build()
            .map_err(ServeError::Runtime)?;
        let listener = runtime
            .block_on(TcpListener::bind(config.bind))
            .map_err(|source| ServeError::Bind { addr: config.bind, source })?;
        let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: config.bind, source })?;
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(Shared {
            snapshot: RwLock::new(Arc::new(Snapshot::empty())),
            status: Mutex::new(Status { loading: true, ..Status::default() }),
            changes: tokio::sync::watch::Sender::new(0),
            source,
            inputs: config.inputs.clone(),
            token: config.token.clone(),
            subset: config.subset.clone(),
            port: addr.port(),
            loopback,
        });
        let router = crate::http::router(Arc::clone(&shared));
        runtime.spawn(accept(listener, router));
        let loading = Arc::clone(&shared);
        let changes = tx.clone();
        let settle = config.settle;
        std::thread::Builder::new()
            .name("evaltally-serve-load".into())
            .spawn(move || crate::live::run(&loading, &rx, &changes, settle))
            .map_err(ServeError::Runtime)?;
        let host = match addr.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let token = config.token.as_ref().map(|t| format!("?token={t}")).unwrap_or_default();
        let url = format!("http://{host}:{}/{token}", addr.port());
        Ok(Self { runtime: Some(runtime), shared, addr, url, trigger: Trigger(tx) })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL to open (with the token, when there is one).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A handle that makes the server load again.
    pub fn trigger(&self) -> Trigger {
        self.trigger.clone()
    }

    /// Waits up to `timeout` for load number `generation` (1: the first) to be served;
    /// whether it was.
    pub fn wait_loaded(&self, generation: u64, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        loop {
            if self.shared.snapshot().generation >= generation {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Why the last load failed, if it did.
    pub fn load_error(&self) -> Option<String> {
        self.shared.status().error.clone()
    }

    /// Waits up to `timeout` for a load to end after the `after`-th (count them from 0:
    /// [`Load::number`]); what it gave.
    pub fn next_load(&self, after: u64, timeout: Duration) -> Option<Load> {
        let until = Instant::now() + timeout;
        loop {
            let number = *self.shared.changes.borrow();
            if number > after {
                let snapshot = self.shared.snapshot();
                let status = self.shared.status();
                return Some(Load {
                    number,
                    generation: snapshot.generation,
                    runs: snapshot.runs,
                    models: snapshot.models.len(),
                    ms: snapshot.load_ms,
                    problems: snapshot.problems,
                    units_read: snapshot.units_read,
                    error: status.error.clone(),
                });
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Serves until the process ends.
    pub fn run(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.block_on(std::future::pending::<()>());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A random token of 32 hex digits, from the system's random source.
///
/// ```
/// let token = evaltally_serve::random_token();
/// assert_eq!(token.len(), 32);
/// assert_ne!(token, evaltally_serve::random_token());
/// ```
pub fn random_token() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the clock, the process and a hasher's own random keys.
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()),
            );
            h.write_u32(std::process::id());
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().fold(String::with_capacity(32), |mut hex, b| {
        use std::fmt::Write as _;
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

/// Accepts connections and serves each with hyper: HTTP/1, the request head read within
/// [`HEADER_TIMEOUT`] and at most [`MAX_HEAD`] bytes, at most [`MAX_CONNECTIONS`] at once
/// (one more is closed at once).
async fn accept(listener: TcpListener, router: axum::Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else { continue };
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                tower::ServiceExt::oneshot(router.clone(), request)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(MAX_HEAD)
                .serve_connection(TokioIo::new(stream), service);
            let _ = connection.await;
            drop(slot);
        });
    }
}
