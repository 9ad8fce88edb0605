//! Connecting: the URL, the password from `PGPASSWORD` or `.pgpass`, `sslmode`.

use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use postgres::config::{Host, SslMode};

use crate::StoreError;

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

/// The connection settings `url` gives, completed as libpq would: the user from `PGUSER`
/// or `USER`, the password from `PGPASSWORD`, else from the password file (`PGPASSFILE`,
/// else `~/.pgpass`).
pub(crate) fn config(url: &str) -> Result<postgres::Config, StoreError> {
    let shown = shown_url(url);
    let mut config = postgres::Config::from_str(url)
        .map_err(|e| StoreError::Url { url: shown.clone(), message: strip_password(&e.to_string(), url) })?;
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
    match config.get_ssl_mode() {
        SslMode::Disable | SslMode::Prefer => {}
        _ => {
            return Err(StoreError::Url {
                url: shown,
                message: "this sslmode (require, verify-ca, verify-full) needs TLS, which this build of evaltally does not have: \
                          use sslmode=disable or prefer (over a trusted network or an SSH tunnel)"
                    .into(),
            });
        }
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
    Ok(config)
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
/// server, anything else the server said.
pub(crate) fn connect(url: &str) -> Result<postgres::Client, StoreError> {
    let config = config(url)?;
    let shown = shown_url(url);
    config.connect(postgres::NoTls).map_err(|e| {
        let code = e.code().cloned();
        let message = strip_password(&full_message(&e), url);
        match code {
            Some(c)
                if c == postgres::error::SqlState::INVALID_PASSWORD
                    || c == postgres::error::SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                StoreError::Auth { url: shown, message }
            }
            Some(_) => StoreError::Server { url: shown, message },
            None => StoreError::Unreachable { url: shown, message },
        }
    })
}

/// An error with its causes, on one line.
pub(crate) fn full_message(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return db.message().to_string();
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
