//! Connecting: the URL, the password from `PGPASSWORD` or `.pgpass`, `sslmode` (TLS in
//! [`crate::tls`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use tokio_postgres::config::Host;

use crate::StoreError;
use crate::tls::{self, Roots, SslMode};

/// Whether `text` is a URL of a PostgreSQL store (`postgres://` or `postgresql://`).
///
/// ```
/// assert!(evaltally_store::is_postgres_url("postgres://ci@db.example/evals"));
/// assert!(evaltally_store::is_postgres_url("PostgreSQL://db/evals"));
/// assert!(!evaltally_store::is_postgres_url("/srv/evaltally/store"));
/// ```
pub fn is_postgres_url(text: &str) -> bool {
    text.split_once("://")
        .is_some_and(|(scheme, _)| scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql"))
}

/// `url` with any password replaced by `***`, fit for a message.
///
/// ```
/// assert_eq!(evaltally_store::shown_url("postgres://ci:hunter2@db/evals"), "postgres://ci:***@db/evals");
/// ```
pub fn shown_url(url: &str) -> String {
    evaltally_core::text::redact_url_passwords(url).into_owned()
}

/// Where and how to connect: the client's settings and the TLS `sslmode` asks for.
#[derive(Clone)]
pub(crate) struct Target {
    /// The client's settings (its own `sslmode` set from `mode`), password included: never
    /// printed.
    pub(crate) config: tokio_postgres::Config,
    /// libpq's `sslmode` (`sslmode=`, else `PGSSLMODE`, else `prefer`).
    pub(crate) mode: SslMode,
    /// The roots a checked certificate must chain to.
    pub(crate) roots: Roots,
    /// The URL as given (password included: for hiding it in messages, never printed).
    url: String,
}

/// The connection settings `url` gives, completed as libpq would: the user from `PGUSER`
/// or `USER`, the password from `PGPASSWORD`, else from the password file (`PGPASSFILE`,
/// else `~/.pgpass`), `sslmode` from `PGSSLMODE` and `sslrootcert` from `PGSSLROOTCERT`.
pub(crate) fn target(url: &str) -> Result<Target, StoreError> {
    let shown = shown_url(url);
    let bad = |message: String| StoreError::Url { url: shown.clone(), message };
    let (rest, params) = take_params(url, &["sslmode", "sslrootcert"]).map_err(&bad)?;
    let param = |key: &str| params.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let env = |key: &str| std::env::var(key).ok().filter(|v| !v.is_empty());
    let mode_text = param("sslmode").or_else(|| env("PGSSLMODE"));
    let mut mode = match mode_text.as_deref() {
        None => SslMode::Prefer,
        Some(text) => SslMode::parse(text).ok_or_else(|| {
            bad(format!(
                "sslmode `{}` is not one of disable, allow, prefer, require, verify-ca, verify-full",
                evaltally_core::text::printable(text)
            ))
        })?,
    };
    let (roots, given) = tls::roots(param("sslrootcert").or_else(|| env("PGSSLROOTCERT")).as_deref());
    if mode == SslMode::Require && given {
        // libpq: with a root certificate, `require` checks the chain as `verify-ca` does.
        mode = SslMode::VerifyCa;
    }
    let mut config = tokio_postgres::Config::from_str(&rest).map_err(|e| bad(strip_password(&e.to_string(), url)))?;
    config.ssl_mode(match mode {
        SslMode::Disable => tokio_postgres::config::SslMode::Disable,
        SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => tokio_postgres::config::SslMode::Require,
    });
    if config.get_user().is_none() {
        let user = std::env::var("PGUSER").or_else(|_| std::env::var("USER")).unwrap_or_else(|_| "postgres".into());
        config.user(&user);
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    if config.get_dbname().is_none() {
        let db = config.get_user().unwrap_or("postgres").to_string();
        config.dbname(&db);
    }
    if config.get_password().is_none() {
        if let Some(pw) = std::env::var_os("PGPASSWORD").filter(|v| !v.is_empty()) {
            config.password(pw.to_string_lossy().as_bytes());
        } else if let Some(file) = pgpass_file() {
            let host = match config.get_hosts().first() {
                Some(Host::Tcp(h)) => h.clone(),
                #[cfg(unix)]
                Some(Host::Unix(p)) => p.to_string_lossy().into_owned(),
                None => "localhost".into(),
            };
            let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
            let db = config.get_dbname().unwrap_or_default().to_string();
            let user = config.get_user().unwrap_or_default().to_string();
            if let Some(pw) = pgpass_lookup(&file, &host, &port, &db, &user) {
                config.password(pw.as_bytes());
            }
        }
    }
    Ok(Target { config, mode, roots, url: url.to_string() })
}

/// `url` without the parameters named `keys`, and those parameters (decoded), in order.
/// Both forms libpq reads: a URL's query (`?sslmode=require&…`, percent-encoded) and
/// `key=value` pairs (values bare or in single quotes, `\` escaping).
fn take_params(url: &str, keys: &[&str]) -> Result<(String, Vec<(String, String)>), String> {
    let mut taken = Vec::new();
    if is_postgres_url(url) {
        let Some((head, query)) = url.split_once('?') else { return Ok((url.to_string(), taken)) };
        let mut kept = Vec::new();
        for part in query.split('&') {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let key = percent_decode(k)?;
            if keys.contains(&key.as_str()) {
                taken.push((key, percent_decode(v)?));
            } else {
                kept.push(part);
            }
        }
        let rest = if kept.is_empty() { head.to_string() } else { format!("{head}?{}", kept.join("&")) };
        return Ok((rest, taken));
    }
    // key = value pairs.
    let mut rest = String::new();
    let mut chars = url.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else { break };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if chars.next_if(|(_, c)| *c == '=').is_none() {
            return Err(format!("`{}` has no `=` and a value", evaltally_core::text::printable(&key)));
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if(|(_, c)| *c == '\'').is_some() {
            loop {
                match chars.next() {
                    None => return Err(format!("the value of `{key}` has no closing quote")),
                    Some((_, '\'')) => break,
                    Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                    Some((_, c)) => value.push(c),
                }
            }
        } else {
            while let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace()) {
                if c == '\\' {
                    value.extend(chars.next().map(|(_, c)| c));
                } else {
                    value.push(c);
                }
            }
        }
        let end = chars.peek().map_or(url.len(), |&(i, _)| i);
        if keys.contains(&key.as_str()) {
            taken.push((key, value));
        } else {
            rest.push_str(&url[start..end]);
            rest.push(' ');
        }
    }
    Ok((rest.trim_end().to_string(), taken))
}

/// `%XX` escapes decoded (as UTF-8).
fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| {
                format!("`{}` has a `%` not followed by two hex digits", evaltally_core::text::printable(text))
            })?;
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("`{}` is not UTF-8 once decoded", evaltally_core::text::printable(text)))
}

/// A library message with the URL's password, should it quote it, hidden.
fn strip_password(message: &str, url: &str) -> String {
    let mut out = evaltally_core::text::redact_url_passwords(message).into_owned();
    if let Some(pw) = url_password(url).filter(|pw| !pw.is_empty()) {
        out = out.replace(&pw, "***");
    }
    out
}

/// The password part of `scheme://user:password@host…`.
fn url_password(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let userinfo = authority.rsplit_once('@')?.0;
    Some(userinfo.split_once(':')?.1.to_string())
}

/// The password file: `PGPASSFILE`, else `~/.pgpass`.
fn pgpass_file() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PGPASSFILE").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".pgpass"))
}

/// The password for (host, port, db, user) in a `.pgpass` file, as libpq reads it: lines
/// `host:port:database:user:password`, `*` matching anything, `\` escaping `:` and `\`,
/// `#` starting a comment line, the first matching line winning. On Unix the file is
/// ignored unless only its owner can read it (mode 0600 or less), as libpq does.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("pgpass-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let file = dir.join(".pgpass");
/// std::fs::write(&file, "# team store\ndb.example:*:evals:ci:s3cr\\:et\n").unwrap();
/// # #[cfg(unix)] { use std::os::unix::fs::PermissionsExt; std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap(); }
/// assert_eq!(evaltally_store::pgpass_lookup(&file, "db.example", "5432", "evals", "ci").as_deref(), Some("s3cr:et"));
/// assert_eq!(evaltally_store::pgpass_lookup(&file, "other", "5432", "evals", "ci"), None);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn pgpass_lookup(file: &Path, host: &str, port: &str, db: &str, user: &str) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let meta = std::fs::metadata(file).ok()?;
        if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
            return None;
        }
    }
    let text = std::fs::read_to_string(file).ok()?;
    // libpq matches a Unix socket path, and "localhost", against a "localhost" entry.
    let host = if host.starts_with('/') { "localhost" } else { host };
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields = split_pgpass(line);
        let [h, p, d, u, pw] = fields.as_slice() else { continue };
        let ok = |field: &str, want: &str| field == "*" || field == want;
        if ok(h, host) && ok(p, port) && ok(d, db) && ok(u, user) {
            return Some(pw.clone());
        }
    }
    None
}

/// The fields of a `.pgpass` line, unescaped; the fifth takes the rest of the line.
fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let (Some(next), Some(f)) = (chars.next(), fields.last_mut()) {
                    f.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

/// Connects, turning failures into one clear line: a refused password, an unreachable
/// server, a failed TLS handshake (or a server without TLS when it is required), anything
/// else the server said. `sslmode=prefer` falls back to a plain connection when the TLS
/// handshake fails, as libpq does.
pub(crate) fn connect(url: &str) -> Result<(postgres::Client, Target), StoreError> {
    let target = target(url)?;
    let mut config = postgres::Config::from(target.config.clone());
    let result = if target.mode == SslMode::Disable {
        config.connect(postgres::NoTls)
    } else {
        match config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls_config(&target, url)?)) {
            Err(e) if target.mode == SslMode::Prefer && is_tls(&e) => {
                config.ssl_mode(postgres::config::SslMode::Disable);
                config.connect(postgres::NoTls)
            }
            other => other,
        }
    };
    let client = result.map_err(|e| connect_error(&e, url, &target))?;
    Ok((client, target))
}

/// The task driving an async connection: awaited once its client is dropped, it closes
/// the connection cleanly.
pub(crate) type Driver = tokio::task::JoinHandle<Result<(), tokio_postgres::Error>>;

/// Connects with the async client, on the current tokio runtime (which drives the
/// connection as a task of its own, returned): for reading many rows, which the sync client
/// hands over one runtime entry per row.
pub(crate) async fn connect_async(target: &Target) -> Result<(tokio_postgres::Client, Driver), StoreError> {
    let (config, url) = (&target.config, target.url.as_str());
    if target.mode == SslMode::Disable {
        let (client, connection) =
            config.connect(tokio_postgres::NoTls).await.map_err(|e| connect_error(&e, url, target))?;
        return Ok((client, tokio::spawn(connection)));
    }
    let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls_config(target, url)?);
    match config.connect(tls).await {
        Ok((client, connection)) => Ok((client, tokio::spawn(connection))),
        Err(e) if target.mode == SslMode::Prefer && is_tls(&e) => {
            let mut plain = config.clone();
            plain.ssl_mode(tokio_postgres::config::SslMode::Disable);
            let (client, connection) =
                plain.connect(tokio_postgres::NoTls).await.map_err(|e| connect_error(&e, url, target))?;
            Ok((client, tokio::spawn(connection)))
        }
        Err(e) => Err(connect_error(&e, url, target)),
    }
}

/// The TLS settings `target` asks for.
fn tls_config(target: &Target, url: &str) -> Result<rustls::ClientConfig, StoreError> {
    tls::client_config(target.mode, &target.roots).map_err(|message| StoreError::Tls {
        url: shown_url(url),
        mode: target.mode.name(),
        message: strip_password(&message, url),
    })
}

/// A failed connection as one clear line.
fn connect_error(e: &postgres::Error, url: &str, target: &Target) -> StoreError {
    let shown = shown_url(url);
    let code = e.code().cloned();
    let message = strip_password(&full_message(e), url);
    match code {
        Some(c)
            if c == postgres::error::SqlState::INVALID_PASSWORD
                || c == postgres::error::SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            StoreError::Auth { url: shown, message }
        }
        Some(_) => StoreError::Server { url: shown, message },
        None if is_tls(e) => {
            StoreError::Tls { url: shown, mode: target.mode.name(), message: tls_hint(message, &target.roots) }
        }
        None => StoreError::Unreachable { url: shown, message },
    }
}

/// A TLS failure's message with what to do about it.
fn tls_hint(mut message: String, roots: &Roots) -> String {
    if message.contains("UnknownIssuer") || message.contains("unknown issuer") {
        let from = match roots {
            Roots::File(p) => format!("`{}`", p.display()),
            Roots::System => "the system's store".into(),
        };
        let _ = write!(
            message,
            " (the server's certificate is not signed by a CA in {from}: give its CA with sslrootcert=PATH or PGSSLROOTCERT)"
        );
    } else if message.contains("not valid for name") {
        message.push_str(
            " (connect by a name the certificate holds, or use sslmode=verify-ca to check the chain and not the name)",
        );
    } else if message.contains("server does not support TLS") {
        message.push_str(" (sslmode=prefer or disable connects without TLS)");
    }
    message
}

/// Whether the TLS negotiation or handshake failed (the client's message for it).
fn is_tls(e: &postgres::Error) -> bool {
    e.as_db_error().is_none() && e.to_string().starts_with("error performing TLS handshake")
}

/// An error with its causes, on one line.
/// What a lost connection is said as.
pub(crate) const LOST: &str = "the connection to the server was lost (the server stopped, or the network dropped it)";

/// Whether an I/O error is a connection going away.
pub(crate) fn is_lost(io: &std::io::Error) -> bool {
    matches!(
        io.kind(),
        std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::UnexpectedEof
    )
}

pub(crate) fn full_message(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        // A server stopping (or told to end the connection) says why as it closes.
        if db.code().code().starts_with("57P") {
            return format!("{LOST}: {}", db.message());
        }
        return db.message().to_string();
    }
    // The server stopped or restarted, or the network dropped the connection; the client
    // library may keep a stopping server's last words from us.
    let io_lost = std::iter::successors(std::error::Error::source(e), |s| s.source())
        .filter_map(|s| s.downcast_ref::<std::io::Error>())
        .any(is_lost);
    if e.is_closed() || io_lost {
        return LOST.into();
    }
    let mut out = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}
