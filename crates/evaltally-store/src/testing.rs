//! For tests against a real server (`EVALTALLY_TEST_PG_URL`), here and in the CLI's tests.

use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A new, empty database on the test server, as a URL; `None` (after a notice) when
/// `EVALTALLY_TEST_PG_URL` is not set.
///
/// # Panics
/// When the variable is not set under `CI=true` (CI starts a server: a test that skips
/// there hides a broken setup), or when the database cannot be created.
pub fn fresh_database(test: &str) -> Option<String> {
    let Some(base) = std::env::var("EVALTALLY_TEST_PG_URL").ok().filter(|v| !v.is_empty()) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{test}: EVALTALLY_TEST_PG_URL is not set under CI=true (.ci/run starts a PostgreSQL and sets it)"
        );
        let reason = "EVALTALLY_TEST_PG_URL is not set (see .ci/postgres.sh to start a server)";
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped {test}: {reason}");
        }
        // As `evaltally_testkit::skipped` does (this crate cannot depend on the test kit).
        if let Some(log) = std::env::var_os("EVALTALLY_SKIPPED_TESTS") {
            use std::io::Write as _;
            let file = std::fs::OpenOptions::new().create(true).append(true).open(log);
            let _ = file.and_then(|mut f| f.write_all(format!("{reason}\n").as_bytes()));
        }
        return None;
    };
    let name = format!(
        "evaltally_t_{}_{}_{}",
        test.chars().filter(char::is_ascii_alphanumeric).take(30).collect::<String>().to_ascii_lowercase(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = crate::connect::connect(&base).unwrap_or_else(|e| panic!("{e}")).0;
    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).unwrap_or_else(|e| panic!("{e}"));
    admin.batch_execute(&format!("CREATE DATABASE {name}")).unwrap_or_else(|e| panic!("{e}"));
    Some(with_database(&base, &name))
}

/// `url` naming database `db` instead of its own.
pub fn with_database(url: &str, db: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (authority, tail) = rest.split_once('/').map_or((rest, ""), |(a, t)| (a, t));
    let query = tail.split_once('?').map(|(_, q)| format!("?{q}")).unwrap_or_default();
    format!("{scheme}://{authority}/{db}{query}")
}

/// Fills the store at `url` with `runs` generated runs of `tests` tests each (model
/// `bench-model`, branch `main`, ten categories, about one failure in thirteen), written by
/// SQL on the server, for `cargo xtask bench`. Runs generated before are kept.
pub fn generate_runs(url: &str, runs: i32, tests: i32) -> Result<(), crate::StoreError> {
    let mut store = crate::Store::connect(url)?;
    let per_category = (tests / 10).max(1);
    let mut tx = store.client.transaction().map_err(|e| store_error(url, &e))?;
    tx.execute(
        "INSERT INTO runs (digest, source_digest, run, model, format, source, \"timestamp\", branch)
         SELECT 'bench-' || r || '-' || $2::int, 'bench', 'run-' || lpad(r::text, 5, '0'), 'bench-model', 'generated',
                'generated', to_char(timestamp '2026-01-01' + r * interval '1 hour', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), 'main'
         FROM generate_series(1, $1::int) r
         ON CONFLICT (digest) DO NOTHING",
        &[&runs, &tests],
    )
    .map_err(|e| store_error(url, &e))?;
    tx.execute(
        "INSERT INTO run_categories (run_id, category, scored)
         SELECT id, 'cat-' || c, true FROM runs, generate_series(0, 9) c WHERE source_digest = 'bench'
         ON CONFLICT DO NOTHING",
        &[],
    )
    .map_err(|e| store_error(url, &e))?;
    tx.execute(
        "INSERT INTO results (run_id, position, model, category, test, status, error_type)
         SELECT r.id, t, 'bench-model', 'cat-' || (t / $2::int), 'test_' || t,
                CASE WHEN (t * 31 + r.id * 17) % 13 = 0 THEN 'fail' ELSE 'pass' END,
                CASE WHEN (t * 31 + r.id * 17) % 13 = 0 THEN 'wrong_answer' END
         FROM runs r, generate_series(0, $1::int - 1) t
         WHERE r.source_digest = 'bench' AND NOT EXISTS (SELECT 1 FROM results x WHERE x.run_id = r.id)",
        &[&tests, &per_category],
    )
    .map_err(|e| store_error(url, &e))?;
    tx.commit().map_err(|e| store_error(url, &e))?;
    store.client.batch_execute("ANALYZE runs; ANALYZE results").map_err(|e| store_error(url, &e))?;
    Ok(())
}

fn store_error(url: &str, e: &postgres::Error) -> crate::StoreError {
    crate::StoreError::Query {
        url: crate::shown_url(url),
        what: "generating runs",
        message: crate::connect::full_message(e),
    }
}

/// Creates database `db` on the server at `url` unless it exists; returns its URL.
pub fn ensure_database(url: &str, db: &str) -> Result<String, crate::StoreError> {
    let mut admin = crate::connect::connect(url)?.0;
    let exists = admin
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&db])
        .map_err(|e| store_error(url, &e))?
        .is_some();
    if !exists {
        // A database name cannot be a parameter; `db` is checked to be a plain identifier.
        assert!(db.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'), "plain name");
        admin.batch_execute(&format!("CREATE DATABASE {db}")).map_err(|e| store_error(url, &e))?;
    }
    Ok(with_database(url, db))
}

/// The CA certificate of the test server's TLS (`EVALTALLY_TEST_PG_CA`, which
/// `.ci/postgres.sh` sets when it makes one); `None` (after a notice) when it is not set.
///
/// # Panics
/// When it is not set under `CI=true`.
pub fn test_ca(test: &str) -> Option<std::path::PathBuf> {
    let Some(ca) = std::env::var_os("EVALTALLY_TEST_PG_CA").filter(|v| !v.is_empty()) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{test}: EVALTALLY_TEST_PG_CA is not set under CI=true (.ci/postgres.sh makes the server's TLS certificate)"
        );
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped {test}: EVALTALLY_TEST_PG_CA is not set (the test server has no TLS)");
        }
        return None;
    };
    Some(ca.into())
}

/// `url` (a `postgres://` URL) with its host replaced by `host` and `params` added to its
/// query.
pub fn with_host_and_params(url: &str, host: Option<&str>, params: &str) -> String {
    let mut out = url.to_string();
    if let Some(host) = host
        && let Some((scheme, rest)) = url.split_once("://")
    {
        let (userinfo, after) = rest.rsplit_once('@').map_or(("", rest), |(u, a)| (u, a));
        let port_on = after.find([':', '/', '?']).unwrap_or(after.len());
        let at = if userinfo.is_empty() { "" } else { "@" };
        out = format!("{scheme}://{userinfo}{at}{host}{}", &after[port_on..]);
    }
    if params.is_empty() {
        return out;
    }
    let sep = if out.contains('?') { '&' } else { '?' };
    format!("{out}{sep}{params}")
}

/// Whether the store's connection is encrypted, as the server sees it (`pg_stat_ssl`).
pub fn uses_tls(store: &mut crate::Store) -> Result<bool, crate::StoreError> {
    let row = store
        .client
        .query_one("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[])
        .map_err(|e| store.query_error("reading pg_stat_ssl", &e))?;
    Ok(row.get(0))
}

/// Runs `sql` (fixed statements of a test, no values from outside) on the store at `url`,
/// to break stored data by hand.
pub fn execute(url: &str, sql: &str) -> Result<(), crate::StoreError> {
    let mut client = crate::connect::connect(url)?.0;
    client.batch_execute(sql).map_err(|e| store_error(url, &e))
}

/// Ends, on the server, every connection to the database `url` names but this one's, as
/// `pg_ctl stop -m fast` ends each of its connections (`pg_terminate_backend`: the server
/// says "terminating connection due to administrator command" and closes), and waits until
/// they are gone. How many it ended.
///
/// # Panics
/// When the server cannot be reached or the connections do not end within ten seconds.
pub fn stop_connections(url: &str) -> usize {
    let mut admin = crate::connect::connect(url).unwrap_or_else(|e| panic!("{e}")).0;
    let others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()";
    let ended =
        admin.query(&format!("SELECT pg_terminate_backend(pid) {others}"), &[]).unwrap_or_else(|e| panic!("{e}")).len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left: i64 =
            admin.query_one(&format!("SELECT count(*) {others}"), &[]).unwrap_or_else(|e| panic!("{e}")).get(0);
        if left == 0 {
            return ended;
        }
        assert!(std::time::Instant::now() < deadline, "{left} connections still open after pg_terminate_backend");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
