//! What makes evaltally fit in where it is used: shell completions, `--version` with the
//! commit, `stability --format junit` for CI test reporters, the `--known-flaky` quarantine
//! and the `--fail-under-test-rate` gate.

mod common;

use std::path::Path;
use std::process::Command;

use common::evaltally;
use evaltally_testkit::workspace_root;

const V4: &str = "testdata/bfcl/v4";
const RUN1: &str = "testdata/bfcl/v4/run-1";
const RUN2: &str = "testdata/bfcl/v4/run-2";

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = evaltally(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for word in ["stability", "compare", "known-flaky", "fail-under-test-rate"] {
            assert!(run.stdout.contains(word), "{shell} completions lack {word}");
        }
    }
    assert_eq!(evaltally(&["completions", "tcsh"]).code, 2);
}

#[test]
#[allow(clippy::print_stderr)]
fn bash_completions_parse() {
    let run = evaltally(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("evaltally.bash");
    std::fs::write(&script, &run.stdout).unwrap();
    let Ok(status) = Command::new("bash").arg("-n").arg(&script).status() else {
        assert!(std::env::var_os("CI").is_none(), "bash is missing");
        eprintln!("skipped: bash is missing");
        return;
    };
    assert!(status.success(), "bash -n rejects the completion script");
}

#[test]
fn version_names_the_commit() {
    let run = evaltally(&["--version"]);
    assert_eq!(run.code, 0);
    let version = concat!("evaltally ", env!("CARGO_PKG_VERSION"));
    let git = Command::new("git").args(["rev-parse", "--short", "HEAD"]).current_dir(workspace_root()).output();
    match git {
        Ok(out) if out.status.success() => {
            let commit = String::from_utf8(out.stdout).unwrap();
            assert_eq!(run.stdout, format!("{version} ({})\n", commit.trim()));
        }
        _ => assert_eq!(run.stdout, format!("{version}\n")),
    }
    // Subcommands say the same.
    let sub = evaltally(&["stability", "--version"]).stdout;
    assert_eq!(sub.strip_prefix("evaltally-stability"), run.stdout.strip_prefix("evaltally"));
}

#[test]
fn stability_as_junit() {
    let run = evaltally(&["stability", V4, "--format", "junit"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);

    // The repository's own JUnit reader reads it: one case per test, the stable failures
    // failed, the flaky tests passed.
    let json = evaltally(&["stability", V4, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let sum = |key: &str| -> u64 {
        doc["models"].as_array().unwrap().iter().map(|m| m["overall"][key].as_u64().unwrap()).sum()
    };
    let back = evaltally_junit::read(&run.stdout, Path::new("stability.xml")).expect("the reader reads it");
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    assert_eq!(back.cases.len() as u64, sum("total"));
    let failed = back.cases.iter().filter(|c| c.status == evaltally_junit::CaseStatus::Failed).count() as u64;
    assert_eq!(failed, sum("stable_fail"));
    assert!(sum("flaky") > 0 && run.stdout.matches("<flakyFailure ").count() as u64 >= sum("flaky"));
}

#[test]
fn known_flaky_quarantines_regressions_for_fail_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    assert_eq!(evaltally(&["stability", V4, "--out", out]).code, 0);

    // Every test that regressed from run 1 to run 2 is flaky across the three runs.
    let gate = evaltally(&["compare", RUN1, RUN2, "--fail-on", "regressions", "--known-flaky", out]);
    assert_eq!(gate.code, 0, "{}{}", gate.stdout, gate.stderr);
    let plain = evaltally(&["compare", RUN1, RUN2]);
    assert!(gate.stdout.starts_with(&plain.stdout));
    let note = &gate.stdout[plain.stdout.len()..];
    assert!(note.starts_with("\nQuarantined by --known-flaky (ignored by --fail-on regressions): "), "{note}");

    // JSON keeps stdout one document; the note goes to stderr.
    let json =
        evaltally(&["compare", RUN1, RUN2, "--fail-on", "regressions", "--known-flaky", out, "--format", "json"]);
    assert_eq!(json.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(json.stderr.contains("Quarantined by --known-flaky"), "{}", json.stderr);
    // The document says what the gate decided and what the quarantine let through.
    let gate = &doc["gate"];
    assert_eq!((gate["fail_on"].as_str(), gate["tripped"].as_bool()), (Some("regressions"), Some(false)), "{gate}");
    let excused = gate["excused"].as_array().unwrap();
    assert!(
        !excused.is_empty() && excused.iter().all(|e| e.as_str().unwrap().starts_with("acme_tiny-7b / ")),
        "{gate}"
    );
    // Without a gate, no `gate`.
    let plain: serde_json::Value =
        serde_json::from_str(&evaltally(&["compare", RUN1, RUN2, "--format", "json"]).stdout).unwrap();
    assert!(plain.get("gate").is_none());

    // A quarantine that misses the regressions leaves the gate shut.
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"simple": ["not_a_test"]}"#).unwrap();
    let shut =
        evaltally(&["compare", RUN1, RUN2, "--fail-on", "regressions", "--known-flaky", other.to_str().unwrap()]);
    assert_eq!(shut.code, 1);
    assert!(!shut.stdout.contains("Quarantined"));

    // Not a quarantine file, or none: usage errors.
    std::fs::write(&other, "[1, 2]").unwrap();
    let bad = evaltally(&["compare", RUN1, RUN2, "--known-flaky", other.to_str().unwrap()]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("not a flaky_tests.json as `stability --out` writes"), "{}", bad.stderr);
    // One cut short says where, as every file read does.
    std::fs::write(&other, r#"{"schema": "evaltally.test-ids/1", "categories": {"simple": ["a","#).unwrap();
    let cut = evaltally(&["compare", RUN1, RUN2, "--known-flaky", other.to_str().unwrap()]);
    assert_eq!(cut.code, 2, "{}", cut.stderr);
    assert!(
        cut.stderr.contains("other.json:1:66: not valid JSON: the text ends before a value (cut short?)"),
        "{}",
        cut.stderr
    );
    let missing = evaltally(&["compare", RUN1, RUN2, "--known-flaky", "no/such/file.json"]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

#[test]
fn fail_under_test_rate_gates_every_test() {
    let model = "acme_tiny-7b";
    let open = evaltally(&["stability", V4, "--model", model, "--fail-under-test-rate", "0"]);
    assert_eq!(open.code, 0, "{}", open.stderr);

    let shut = evaltally(&["stability", V4, "--model", model, "--fail-under-test-rate", "0.8"]);
    assert_eq!(shut.code, 1);
    assert_eq!(shut.stdout, open.stdout);
    insta::assert_snapshot!(shut.stderr);

    // Quarantining the flaky and the failing tests opens it again, and says so.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    assert_eq!(evaltally(&["stability", V4, "--model", model, "--out", out]).code, 0);
    let flaky = dir.path().join("flaky_tests.json");
    let failing = dir.path().join("failing_tests.json");
    let args = ["stability", V4, "--model", model, "--fail-under-test-rate", "0.8", "--known-flaky"];
    let excused =
        evaltally(&[&args[..], &[flaky.to_str().unwrap(), "--known-flaky", failing.to_str().unwrap()]].concat());
    assert_eq!(excused.code, 0, "{}", excused.stderr);
    assert!(excused.stderr.contains("not counted: quarantined by --known-flaky"), "{}", excused.stderr);

    for rate in ["1.5", "-0.1", "NaN"] {
        let bad = evaltally(&["stability", V4, "--fail-under-test-rate", rate]);
        assert_eq!(bad.code, 2, "{rate}: {}", bad.stderr);
    }
}
