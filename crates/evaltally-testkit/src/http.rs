//! Talking to `evaltally serve` in tests: the server as a child process that says its URL,
//! plain HTTP/1.1 requests over a socket (so a test can send what no client library would:
//! a path that climbs out, a body, a wrong `Host`), and its change events.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running `evaltally serve`, stopped when dropped.
#[derive(Debug)]
pub struct Serving {
    child: Child,
    /// The URL it printed.
    pub url: String,
    /// Its address.
    pub addr: SocketAddr,
    /// What it printed on stderr (one line per load), as it comes.
    lines: mpsc::Receiver<String>,
}

impl Serving {
    /// Starts `bin serve ARGS` in `dir` and waits for the URL it prints (at most a minute).
    ///
    /// # Panics
    /// When it cannot start, or exits or stays silent instead of printing a URL.
    pub fn start(bin: &Path, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(bin)
            .current_dir(dir)
            .arg("serve")
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("evaltally serve starts");
        let stdout = child.stdout.take().expect("its stdout");
        let stderr = child.stderr.take().expect("its stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let (etx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = etx.send(line);
            }
        });
        let Ok(first) = rx.recv_timeout(Duration::from_mins(1)) else {
            let _ = child.kill();
            let said: Vec<String> = lines.try_iter().collect();
            panic!("evaltally serve printed no URL: {}", said.join("\n"));
        };
        let url = first.rsplit(' ').next().unwrap_or_default().to_string();
        let hostport = url.trim_start_matches("http://").split('/').next().unwrap_or_default();
        let addr: SocketAddr = hostport.parse().unwrap_or_else(|_| panic!("no address in {first:?}"));
        Self { child, url, addr, lines }
    }

    /// Waits up to `timeout` for a line on stderr containing `text`; the line.
    pub fn wait_line(&self, text: &str, timeout: Duration) -> Option<String> {
        let until = Instant::now() + timeout;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(text) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    }

    /// `GET target` with a `Host` naming the server.
    pub fn get(&self, target: &str) -> Response {
        request(self.addr, &format!("GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.addr))
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug, Clone, Default)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (de-chunked).
    pub body: String,
}

impl Response {
    /// The first header named `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    ///
    /// # Panics
    /// When it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {} {}", self.status, self.body))
    }
}

/// Sends `raw` (a whole request) to `addr` and reads the response to its end.
///
/// # Panics
/// When the server cannot be reached or answers something that is not HTTP.
pub fn request(addr: SocketAddr, raw: &str) -> Response {
    let mut stream = TcpStream::connect(addr).expect("the server accepts");
    stream.set_read_timeout(Some(Duration::from_mins(1))).expect("a timeout");
    stream.write_all(raw.as_bytes()).expect("the request is sent");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    parse(&bytes)
}

fn parse(bytes: &[u8]) -> Response {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Response { status, headers, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The server's change events (`/api/events`), read as they come.
#[derive(Debug)]
pub struct Events {
    lines: mpsc::Receiver<String>,
}

impl Events {
    /// Opens the event stream of the server at `addr`.
    ///
    /// # Panics
    /// When the server cannot be reached.
    pub fn open(addr: SocketAddr) -> Self {
        let mut stream = TcpStream::connect(addr).expect("the server accepts");
        write!(stream, "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").expect("sent");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Self { lines }
    }

    /// Waits up to `timeout` for an event named `name`.
    pub fn wait(&self, name: &str, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim() == format!("event: {name}") => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }
}
