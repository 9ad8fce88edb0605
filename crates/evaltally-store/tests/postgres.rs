//! The store library against a real server (`EVALTALLY_TEST_PG_URL`): migrations, atomic
//! and idempotent pushes, reading runs back, TLS (and a proxy in front of the server that
//! refuses or breaks it). Skips with a notice without a server, fails under `CI=true`.

use evaltally_core::{CategoryRun, Outcome, RunMeta, RunRecord, TestRecord};
use evaltally_store::testing::fresh_database;
use std::sync::atomic::{AtomicUsize, Ordering};

use evaltally_store::{LATEST_VERSION, PushSource, Selection, Store, StoreError};

fn sample() -> (Vec<CategoryRun>, Vec<RunRecord>) {
    let meta = std::sync::Arc::new(RunMeta {
        timestamp: Some("2026-11-02T10:00:00Z".into()),
        git_branch: Some("main".into()),
        ..RunMeta::default()
    });
    let mut a = CategoryRun::new("run-1", "m", "simple");
    a.push("simple_0", Outcome::Pass, None);
    a.push("simple_1", Outcome::Fail, Some("wrong\targs\\n"));
    a.meta = Some(meta.clone());
    let mut b = CategoryRun::new("run-1", "m", "multi");
    b.push("multi_0", Outcome::Errored, Some("timeout"));
    b.scored = false;
    b.meta = Some(meta.clone());
    let record = RunRecord {
        run: "run-1".into(),
        model: "m".into(),
        format: "bfcl".into(),
        meta: (*meta).clone(),
        tests: vec![
            TestRecord {
                id: "simple_0".into(),
                category: "simple".into(),
                outcome: Some(Outcome::Pass),
                input_tokens: Some(12),
                duration_ms: Some(1700.5),
                cost_usd: Some(0.01),
                ..TestRecord::default()
            },
            TestRecord {
                id: "simple_1".into(),
                category: "simple".into(),
                outcome: Some(Outcome::Fail),
                error_type: Some("wrong\targs\\n".into()),
                error_message: Some("line one\nline two".into()),
                ..TestRecord::default()
            },
            TestRecord {
                id: "multi_0".into(),
                category: "multi".into(),
                outcome: Some(Outcome::Errored),
                error_type: Some("timeout".into()),
                ..TestRecord::default()
            },
        ],
        ..RunRecord::default()
    };
    (vec![a, b], vec![record])
}

fn source() -> PushSource {
    PushSource {
        source: "runs/run-1".into(),
        format: "bfcl".into(),
        files_digest: PushSource::digest_files(vec![("a".into(), b"1".to_vec())]),
        fail_before_commit: false,
    }
}

#[test]
fn migrates_an_empty_database_and_one_at_the_previous_version() {
    let Some(url) = fresh_database("migrate") else { return };
    let mut store = Store::connect_only(&url).unwrap();
    assert_eq!(store.schema_version().unwrap(), 0);
    assert_eq!(store.migrate_to(1).unwrap(), 1);
    // A run pushed by a version-1 evaltally.
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute(
            "INSERT INTO runs (digest, source_digest, run, model, format, source) VALUES ('d', 's', 'old', 'm', 'bfcl', 'x');
             INSERT INTO results (run_id, position, model, category, test, status)
                 SELECT id, 0, 'm', 'c', 't', 'pass' FROM runs",
        )
        .unwrap();
    let mut store = Store::connect(&url).unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    let runs = store.select(&Selection::default()).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].label, None);
    let read = store.category_runs(&runs).unwrap();
    assert_eq!(read[0].tests().next().unwrap().id, "t");
}

#[test]
fn concurrent_migrations_apply_each_version_once() {
    let Some(url) = fresh_database("migrate_concurrent") else { return };
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || Store::connect(&url).map(|_| ()))
        })
        .collect();
    for t in threads {
        t.join().unwrap().unwrap();
    }
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let n: i64 = client.query_one("SELECT count(*) FROM schema_migrations", &[]).unwrap().get(0);
    assert_eq!(n, i64::from(LATEST_VERSION));
}

#[test]
fn a_failed_push_leaves_nothing_and_pushes_are_idempotent() {
    let Some(url) = fresh_database("atomic") else { return };
    let (runs, records) = sample();
    let mut store = Store::connect(&url).unwrap();
    let failing = PushSource { fail_before_commit: true, ..source() };
    assert!(matches!(store.push(&failing, &runs, &records), Err(StoreError::Query { .. })));
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    for table in ["runs", "results", "run_categories"] {
        let n: i64 = client.query_one(&format!("SELECT count(*) FROM {table}"), &[]).unwrap().get(0);
        assert_eq!(n, 0, "{table} after a failed push");
    }
    let first = store.push(&source(), &runs, &records).unwrap();
    assert_eq!((first.added.len(), first.already.len()), (1, 0));
    let second = store.push(&source(), &runs, &records).unwrap();
    assert_eq!((second.added.len(), second.already.len()), (0, 1));
    assert_eq!(second.already[0].2, first.added[0].2);

    let mut selected = store.select(&Selection::parse("branch=main,since=2026-11-01").unwrap()).unwrap();
    assert_eq!(selected.len(), 1);
    store.count(&mut selected).unwrap();
    assert_eq!((selected[0].passed, selected[0].scored), (1, 2));
    let mut back = store.category_runs(&selected).unwrap();
    back.sort_by(|a, b| a.category.cmp(&b.category));
    let mut want = runs.clone();
    want.sort_by(|a, b| a.category.cmp(&b.category));
    for w in &mut want {
        w.sources = vec!["store:run-1".into()];
    }
    assert_eq!(back, want);
    let recs = store.records(&selected).unwrap();
    assert_eq!(recs[0].tests, records[0].tests);
    assert!(store.select(&Selection::parse("branch=dev").unwrap()).unwrap().is_empty());
    assert!(store.select(&Selection::parse("since=2026-12-01").unwrap()).unwrap().is_empty());
}

#[test]
fn a_wrong_password_is_an_auth_error_without_the_password() {
    let Some(url) = fresh_database("wrong_password") else { return };
    if !url.contains(":evaltally-ci-secret@") {
        return;
    }
    let wrong = url.replace(":evaltally-ci-secret@", ":guess-123@");
    let err = Store::connect(&wrong).unwrap_err();
    assert!(matches!(err, StoreError::Auth { .. }), "{err}");
    assert!(!err.to_string().contains("guess-123"), "{err}");
    let err = Store::connect("postgres://u:pw-999@127.0.0.1:1/x").unwrap_err();
    assert!(matches!(err, StoreError::Unreachable { .. }), "{err}");
    assert!(!err.to_string().contains("pw-999"), "{err}");
}

/// The fresh database's URL with `sslmode` and friends; `host` replaces 127.0.0.1 (the
/// test certificate names `localhost` only).
fn tls(url: &str, host: Option<&str>, params: &str) -> String {
    evaltally_store::testing::with_host_and_params(url, host, params)
}

#[test]
fn sslmode_is_honoured_with_real_tls() {
    let Some(url) = fresh_database("tls") else { return };
    let Some(ca) = evaltally_store::testing::test_ca("tls") else { return };
    let ca = ca.to_str().unwrap();
    let uses_tls = |u: &str| {
        let mut store = Store::connect(u).unwrap_or_else(|e| panic!("{u}: {e}"));
        evaltally_store::testing::uses_tls(&mut store).unwrap()
    };
    // require: encrypted, the certificate (signed by a CA nobody trusts) not checked.
    let require = tls(&url, None, "sslmode=require");
    let mut store = Store::connect(&require).unwrap();
    assert!(evaltally_store::testing::uses_tls(&mut store).unwrap());
    let (runs, records) = sample();
    assert_eq!(store.push(&source(), &runs, &records).unwrap().added.len(), 1);
    let selected = store.select(&Selection::default()).unwrap();
    assert_eq!(store.category_runs(&selected).unwrap().len(), 2);
    assert_eq!(store.records(&selected).unwrap()[0].tests, records[0].tests);
    // prefer (the default): TLS, as the server offers it; disable: plain.
    assert!(uses_tls(&url));
    assert!(uses_tls(&tls(&url, None, "sslmode=prefer")));
    assert!(!uses_tls(&tls(&url, None, "sslmode=disable")));
    // verify-full: the chain and the name; verify-ca: the chain only.
    let full = tls(&url, Some("localhost"), &format!("hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert={ca}"));
    assert!(uses_tls(&full));
    assert!(uses_tls(&tls(&url, None, &format!("sslmode=verify-ca&sslrootcert={ca}"))));
    // require with a root certificate checks the chain, as libpq does: still fine here.
    assert!(uses_tls(&tls(&url, None, &format!("sslmode=require&sslrootcert={ca}"))));
    // The key=value form too.
    let port = url.rsplit_once(':').unwrap().1.split('/').next().unwrap();
    let db = url.rsplit('/').next().unwrap();
    let kv = format!(
        "host=localhost hostaddr=127.0.0.1 port={port} user=evaltally password='evaltally-ci-secret' \
         dbname={db} sslmode=verify-full sslrootcert='{ca}'"
    );
    assert!(uses_tls(&kv));

    let failure = |u: &str| {
        let err = Store::connect(u).unwrap_err();
        assert!(matches!(err, StoreError::Tls { .. }), "{u}: {err:?}");
        let text = err.to_string();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!text.contains("evaltally-ci-secret"), "{text}");
        text
    };
    // The certificate names localhost, not 127.0.0.1.
    let wrong_host = failure(&tls(&url, None, &format!("sslmode=verify-full&sslrootcert={ca}")));
    assert!(wrong_host.contains("not valid for name"), "{wrong_host}");
    // Without the CA the chain leads nowhere the system trusts.
    let no_ca = failure(&tls(&url, Some("localhost"), "hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert=system"));
    assert!(no_ca.contains("UnknownIssuer") || no_ca.contains("unknown issuer"), "{no_ca}");
    let missing = failure(&tls(&url, None, "sslmode=verify-ca&sslrootcert=/nonexistent/ca.crt"));
    assert!(missing.contains("/nonexistent/ca.crt"), "{missing}");
    let bad = Store::connect(&tls(&url, None, "sslmode=sometimes")).unwrap_err();
    assert!(matches!(bad, StoreError::Url { .. }) && bad.to_string().contains("sslmode `sometimes`"), "{bad}");
}

#[test]
fn rows_moved_by_an_update_and_many_runs_read_back_in_push_order() {
    let Some(url) = fresh_database("moved_rows") else { return };
    let mut store = Store::connect(&url).unwrap();
    // 150 runs: read in parts over several connections (where there are cores for them).
    for i in 0..150 {
        let (mut runs, mut records) = sample();
        for r in &mut runs {
            r.run = format!("run-{i}");
        }
        records[0].run = format!("run-{i}");
        let source = PushSource {
            source: format!("runs/run-{i}"),
            files_digest: PushSource::digest_files(vec![("a".into(), i.to_string().into_bytes())]),
            ..source()
        };
        store.push(&source, &runs, &records).unwrap();
    }
    // Ids and categories with characters COPY escapes, and one that is not ASCII.
    let mut odd = CategoryRun::new("odd", "m", "c\\at\tx");
    odd.push("tab\there", Outcome::Pass, None);
    odd.push("back\\slash\nline", Outcome::Fail, Some("e\\t"));
    odd.push("ünï", Outcome::Errored, Some("plain"));
    let odd_source =
        PushSource { files_digest: PushSource::digest_files(vec![("odd".into(), b"odd".to_vec())]), ..source() };
    store.push(&odd_source, std::slice::from_ref(&odd), &[]).unwrap();
    let selected = store.select(&Selection::default()).unwrap();
    let before = store.category_runs(&selected).unwrap();
    let records_before = store.records(&selected).unwrap();
    assert_eq!(before.len(), 301);
    assert_eq!(records_before.len(), 151);
    assert!(records_before.iter().filter(|r| r.run != "odd").all(|r| r.tests == sample().1[0].tests));
    let back = before.iter().find(|c| c.run == "odd").unwrap();
    let mut want = odd.clone();
    want.sources = vec!["store:odd".into()];
    assert_eq!(back, &want);
    // Rewriting a row moves it to the end of the table: read back, it is in its place again.
    evaltally_store::testing::execute(&url, "UPDATE results SET error_type = error_type WHERE position = 0").unwrap();
    let after = store.category_runs(&selected).unwrap();
    assert_eq!(after, before);
    assert_eq!(store.records(&selected).unwrap(), records_before);
    let first = after.iter().find(|c| c.run == "run-0" && c.category == "simple").unwrap();
    assert_eq!(first.ids().iter().collect::<Vec<_>>(), ["simple_0", "simple_1"]);
}

/// What the proxy in front of the server does when a client asks for TLS.
#[derive(Clone, Copy, PartialEq)]
enum AskedForTls {
    /// Answers `N`, as a server without TLS does; the client goes on in plain text.
    Refuse,
    /// Answers `S`, then sends bytes that are no TLS handshake and hangs up.
    Break,
}

/// A proxy on a port of its own in front of the server at `upstream`: a client's request
/// for TLS gets what `asked` says; any other connection is passed through to the server.
/// Returns the port and a count of the requests for TLS it saw.
fn tls_proxy(upstream: std::net::SocketAddr, asked: AskedForTls) -> (u16, std::sync::Arc<AtomicUsize>) {
    use std::io::{Read, Write};
    // The SSLRequest message: length 8, code 80877103.
    const TLS_REQUEST: [u8; 8] = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked_for_tls = std::sync::Arc::new(AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&asked_for_tls);
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let count = std::sync::Arc::clone(&count);
            std::thread::spawn(move || -> std::io::Result<()> {
                let mut client = client;
                let mut first = [0u8; 8];
                client.read_exact(&mut first)?;
                let mut server = std::net::TcpStream::connect(upstream)?;
                if first == TLS_REQUEST {
                    count.fetch_add(1, Ordering::SeqCst);
                    if asked == AskedForTls::Break {
                        client.write_all(b"Snot a TLS server hello at all\r\n")?;
                        return Ok(());
                    }
                    client.write_all(b"N")?;
                } else {
                    server.write_all(&first)?;
                }
                let (mut from_client, mut to_server) = (client.try_clone()?, server.try_clone()?);
                let up = std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from_client, &mut to_server);
                    let _ = to_server.shutdown(std::net::Shutdown::Write);
                });
                let _ = std::io::copy(&mut server, &mut client);
                let _ = client.shutdown(std::net::Shutdown::Write);
                let _ = up.join();
                Ok(())
            });
        }
    });
    (port, asked_for_tls)
}

/// `sslmode=prefer` (the default) connects without TLS to a server that has none, and falls
/// back to a plain connection when the TLS handshake fails, as libpq does, for the
/// connection that writes and for those that read runs in parts; `require` refuses both.
#[test]
fn sslmode_prefer_goes_on_without_tls_where_the_server_has_none_or_its_handshake_fails() {
    let Some(url) = fresh_database("prefer_fallback") else { return };
    let before_port = url.rsplit_once('@').unwrap().1.split_once('/').unwrap().0;
    let upstream: std::net::SocketAddr = before_port.parse().unwrap();
    let via = |port: u16, params: &str| {
        let proxied = url.replacen(&format!("@{before_port}/"), &format!("@127.0.0.1:{port}/"), 1);
        assert_ne!(proxied, url);
        tls(&proxied, None, params)
    };
    let (runs, records) = sample();
    let mut pushed = false;
    for asked in [AskedForTls::Refuse, AskedForTls::Break] {
        let (port, tls_requests) = tls_proxy(upstream, asked);
        for params in ["", "sslmode=prefer"] {
            let before = tls_requests.load(Ordering::SeqCst);
            let mut store = Store::connect(&via(port, params)).unwrap_or_else(|e| panic!("{params}: {e}"));
            assert!(!evaltally_store::testing::uses_tls(&mut store).unwrap(), "plain text after the fallback");
            if !pushed {
                assert_eq!(store.push(&source(), &runs, &records).unwrap().added.len(), 1);
                pushed = true;
            }
            // Reading runs opens connections of its own (the async client): they fall back too.
            let selected = store.select(&Selection::default()).unwrap();
            assert_eq!(store.category_runs(&selected).unwrap().len(), 2);
            assert_eq!(store.records(&selected).unwrap()[0].tests, records[0].tests);
            assert!(tls_requests.load(Ordering::SeqCst) >= before + 3, "TLS was asked for on every connection");
        }
        let err = Store::connect(&via(port, "sslmode=require")).unwrap_err();
        assert!(matches!(err, StoreError::Tls { .. }), "{err:?}");
        let text = err.to_string();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!text.contains("evaltally-ci-secret"), "{text}");
        if asked == AskedForTls::Refuse {
            assert!(text.contains("sslmode=prefer or disable connects without TLS"), "{text}");
        }
    }
}
