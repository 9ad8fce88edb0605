//! The malformed corpus (`testdata/malformed/`, see its README): every broken input gets a
//! message that names its file, never a panic, and the rest of the run is still analysed.

mod common;

use std::path::{Path, PathBuf};

use common::{Run, evaltally, evaltally_in};
use evaltally_testkit::testdata;

/// Copies `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else if entry.file_name() != "_remove" {
            if target.is_dir() {
                std::fs::remove_dir_all(&target).unwrap();
            }
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temporary folder holding `run/`: the good base of `format` with case `case` laid over
/// it (`None`: the base alone).
fn prepare(format: &str, case: Option<&Path>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    copy_tree(&testdata("malformed/_base").join(format), &run);
    if let Some(case) = case {
        if let Ok(list) = std::fs::read_to_string(case.join("_remove")) {
            for rel in list.lines() {
                std::fs::remove_file(run.join(rel)).unwrap();
            }
        }
        copy_tree(case, &run);
    }
    dir
}

fn cases(format: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(testdata("malformed").join(format)).unwrap().map(|e| e.unwrap().path()).collect();
    out.sort();
    out
}

/// Panics unless the process exited normally with 0, 1 or 2, without a panic message, and
/// every diagnostic line on stderr names a file under `run`.
fn assert_well_behaved(what: &str, run: &Run) {
    assert!(matches!(run.code, 0..=2), "{what}: exit {} (a signal or a panic)\n{}", run.code, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
    for line in run.stderr.lines().filter(|l| l.contains(": error: ") || l.contains(": warning: ")) {
        assert!(line.starts_with("run"), "{what}: a message that does not name its file: {line}");
    }
}

/// `validate` on `target` and `stability` on `run` in `dir`: both well behaved; the
/// transcript for the snapshot and the stability report as JSON.
fn check(what: &str, dir: &Path, target: &str) -> (String, serde_json::Value) {
    let validate = evaltally_in(dir, &["validate", target], &[]);
    assert_well_behaved(what, &validate);
    let text = evaltally_in(dir, &["stability", "run"], &[]);
    assert_well_behaved(what, &text);
    let json = evaltally_in(dir, &["stability", "run", "--format", "json"], &[]);
    assert_eq!(json.code, text.code, "{what}");
    let report = if json.code == 2 { serde_json::Value::Null } else { serde_json::from_str(&json.stdout).unwrap() };
    let transcript = format!(
        "validate: exit {}\n{}{}\nstability: exit {}\n{}",
        validate.code, validate.stdout, validate.stderr, text.code, text.stderr
    );
    (transcript, report)
}

/// The (stable pass, stable fail) counts of `category` for `model` in a stability report.
fn counts(report: &serde_json::Value, model: &str, category: &str) -> Option<(u64, u64)> {
    let m = report["models"].as_array()?.iter().find(|m| m["model"] == model)?;
    let c = m["categories"].as_array()?.iter().find(|c| c["category"] == category)?;
    Some((c["stable_pass"].as_u64()?, c["stable_fail"].as_u64()?))
}

#[test]
fn the_bases_are_good() {
    for format in ["bfcl", "gstack", "sfbench"].into_iter().chain(DOCUMENT_FORMATS.iter().skip(2).map(|(f, _)| *f)) {
        let dir = prepare(format, None);
        let validate = evaltally_in(dir.path(), &["validate", "run"], &[]);
        assert_eq!(validate.code, 0, "{format}: {}", validate.stdout);
        assert!(!validate.stdout.contains("warning:"), "{format}: {}", validate.stdout);
    }
    let dir = prepare("bfcl", None);
    let (_, report) = check("base", dir.path(), "run");
    assert_eq!(counts(&report, "acme-7b", "simple_python"), Some((4, 2)));
    assert_eq!(counts(&report, "acme-7b", "irrelevance"), Some((3, 1)));
}

#[test]
fn bfcl_cases() {
    let all = cases("bfcl");
    assert!(all.len() >= 40, "{} cases", all.len());
    for case in all {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let dir = prepare("bfcl", Some(&case));
        let (transcript, report) = check(&name, dir.path(), "run");
        // CRLF line ends are JSON whitespace: nothing to say about them.
        let harmless = name == "crlf";
        assert!(
            harmless || transcript.contains("validate: exit 1") || transcript.contains(": warning: "),
            "{name}: validate must say what is wrong\n{transcript}"
        );
        assert_eq!(
            counts(&report, "acme-7b", "simple_python"),
            Some((4, 2)),
            "{name}: the good category is still analysed\n{transcript}"
        );
        // Damage never makes a pass of the damaged category's failing test (irrelevance_3):
        // a score file none of whose lines can be read leaves the tests unscored.
        if let Some((passes, _)) = counts(&report, "acme-7b", "irrelevance") {
            assert!(passes <= 3, "{name}: {passes} irrelevance passes of 3\n{transcript}");
        }
        // A line of the score file that could not be read may be the failure of any test:
        // the tests are judged only where the summary's counts show every failure listed.
        let irrelevance = counts(&report, "acme-7b", "irrelevance");
        match name.as_str() {
            "score-line-broken-counts-agree" => assert_eq!(irrelevance, Some((3, 1)), "{name}\n{transcript}"),
            "failure-line-broken-before-id" | "summary-only" => {
                assert_eq!(irrelevance, Some((0, 0)), "{name}: judged\n{transcript}");
            }
            _ => {}
        }
        insta::assert_snapshot!(format!("bfcl__{name}"), transcript);
    }
}

/// A token count no count can be (negative, past 2^64) is left out of `cost`'s sums and
/// said once per file, where it was 0 or 18,446,744,073,709,551,615 tokens in silence.
#[test]
fn a_token_count_that_is_no_count_is_said_and_left_out_of_the_sums() {
    for case in ["negative-token-count", "number-beyond-i64"] {
        let dir = prepare("bfcl", Some(&testdata("malformed/bfcl").join(case)));
        let cost = evaltally_in(dir.path(), &["cost", "run", "--format", "json"], &[]);
        assert_well_behaved(case, &cost);
        assert!(
            cost.stderr.contains(
                "BFCL_v4_irrelevance_result.json: warning: 1 test has a token count that is no count \
                 (negative, or past 2^64; first: `irrelevance_0`'s `input_token_count`): left out of the token sums"
            ),
            "{case}: {}",
            cost.stderr
        );
        // The base's nine other tests give 120 input tokens each.
        let report: serde_json::Value = serde_json::from_str(&cost.stdout).unwrap();
        let model = &report["models"][0];
        assert_eq!(model["input_tokens"], 9 * 120, "{case}: {model}");
        // `show` gives the count it has beside the one it left out, and says why.
        let show = evaltally_in(dir.path(), &["show", "run", "irrelevance_0"], &[]);
        assert_well_behaved(case, &show);
        assert!(
            show.stdout.contains("  run  passed                         -/18     0.42 s\n"),
            "{case}: {}",
            show.stdout
        );
        assert!(
            show.stderr.contains(
                "BFCL_v4_irrelevance_result.json: warning: `irrelevance_0`'s `input_token_count` is no count \
                 (negative, or past 2^64): shown as `-`"
            ),
            "{case}: {}",
            show.stderr
        );
    }
}

/// `inspect_ai`: a sample's token count that is no count (negative, a fraction, past 2^64)
/// is left out of `cost`'s sums and said once per log, as is one in the header's
/// `stats.model_usage`; it was left out in silence.
#[test]
fn an_inspect_token_count_that_is_no_count_is_said_and_left_out_of_the_sums() {
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(testdata("inspect/arith-later.json")).unwrap()).unwrap();
    let tokens = |s: &serde_json::Value| s["model_usage"]["acme/tiny-7b"]["input_tokens"].as_u64().unwrap();
    let samples = log["samples"].as_array().unwrap();
    let others: u64 = samples.iter().skip(1).map(tokens).sum();
    let (first, epoch_of_first) = (samples[0]["id"].as_str().unwrap(), samples[0]["epoch"].as_u64().unwrap());
    for bad in [serde_json::json!(-42), serde_json::json!(41.5), serde_json::json!(2e19)] {
        let mut log = log.clone();
        log["samples"][0]["model_usage"]["acme/tiny-7b"]["input_tokens"] = bad.clone();
        log["stats"] = serde_json::json!({"model_usage": {"acme/tiny-7b": {"input_tokens": bad, "output_tokens": 5}}});
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("run")).unwrap();
        std::fs::write(dir.path().join("run/log.json"), log.to_string()).unwrap();
        let cost = evaltally_in(dir.path(), &["cost", "run", "--format", "json"], &[]);
        assert_well_behaved(&bad.to_string(), &cost);
        assert!(
            cost.stderr.contains(&format!(
                "run/log.json: warning: 1 sample has a token count that is no count (negative, a fraction, or past \
                 2^64; first: sample {first} epoch {epoch_of_first}'s `input_tokens`): left out of the token sums"
            )),
            "{bad}: {}",
            cost.stderr
        );
        assert!(
            cost.stderr.contains(
                "run/log.json: warning: `stats.model_usage` gives `acme/tiny-7b`'s `input_tokens` as no count"
            ),
            "{bad}: {}",
            cost.stderr
        );
        let report: serde_json::Value = serde_json::from_str(&cost.stdout).unwrap();
        assert_eq!(report["models"][0]["input_tokens"], others, "{bad}: {report}");
        // `show` gives `-` for it, and says why.
        let show = evaltally_in(dir.path(), &["show", "run", first], &[]);
        assert_well_behaved(&bad.to_string(), &show);
        let row = show.stdout.lines().find(|l| l.starts_with(&format!("  run#epoch-{epoch_of_first} ")));
        assert!(row.is_some_and(|row| row.contains(" -/")), "{bad}: {}", show.stdout);
        assert!(
            show.stderr.contains(&format!(
                "run/log.json: warning: sample {first} epoch {epoch_of_first}'s `input_tokens` is no count \
                 (negative, a fraction, or past 2^64): shown as `-`"
            )),
            "{bad}: {}",
            show.stderr
        );
    }
    // Both counts of an epoch no count: two, named by the first.
    let mut log = log.clone();
    for key in ["input_tokens", "output_tokens"] {
        log["samples"][0]["model_usage"]["acme/tiny-7b"][key] = serde_json::json!(-1);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("run")).unwrap();
    std::fs::write(dir.path().join("run/log.json"), log.to_string()).unwrap();
    let show = evaltally_in(dir.path(), &["show", "run", first], &[]);
    assert!(
        show.stderr.contains(&format!(
            "run/log.json: warning: 2 token counts are no count (negative, a fraction, or past 2^64; first: \
             sample {first} epoch {epoch_of_first}'s `input_tokens`): shown as `-`"
        )),
        "{}",
        show.stderr
    );
}

/// HELM: an instance's token count that is no count (a negative mean, one past 2^64) is
/// left out of `cost`'s sums and said once per stats file, by `cost` and `validate`; it was
/// left out in silence, or, past 2^64, counted as 18,446,744,073,709,551,615.
#[test]
fn a_helm_token_count_that_is_no_count_is_said_and_left_out_of_the_sums() {
    let folder = "mmlu-subject=philosophy,method=multiple_choice_joint,model=acme_7b";
    let stats = testdata("helm/v1").join(folder);
    let entries: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stats.join("per_instance_stats.json")).unwrap()).unwrap();
    let prompt_tokens = |e: &serde_json::Value| {
        let stats = e["stats"].as_array().unwrap();
        stats.iter().find(|s| s["name"]["name"] == "num_prompt_tokens").map(|s| s["mean"].as_f64().unwrap())
    };
    let entries = entries.as_array().unwrap();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let others: u64 = entries.iter().skip(1).filter_map(prompt_tokens).map(|m| m.round() as u64).sum();
    let first = entries[0]["instance_id"].as_str().unwrap();
    assert!(prompt_tokens(&entries[0]).is_some(), "the first instance gives its prompt's tokens");
    for bad in [serde_json::json!(-3.0), serde_json::json!(1e20)] {
        let mut changed = entries.clone();
        for s in changed[0]["stats"].as_array_mut().unwrap() {
            if s["name"]["name"] == "num_prompt_tokens" {
                s["mean"] = bad.clone();
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run").join(folder);
        evaltally_testkit::copy_folder(&stats, &run);
        std::fs::write(run.join("per_instance_stats.json"), serde_json::Value::from(changed).to_string()).unwrap();
        let said = format!(
            "per_instance_stats.json: warning: 1 instance has a token count that is no count (negative, or past 2^64; \
             first: `{first}`'s `num_prompt_tokens`): left out of the token sums"
        );
        let cost = evaltally_in(dir.path(), &["cost", "run", "--format", "json"], &[]);
        assert_well_behaved(&bad.to_string(), &cost);
        assert!(cost.stderr.contains(&said), "{bad}: {}", cost.stderr);
        let report: serde_json::Value = serde_json::from_str(&cost.stdout).unwrap();
        assert_eq!(report["models"][0]["input_tokens"], others, "{bad}: {report}");
        let validate = evaltally_in(dir.path(), &["validate", "run"], &[]);
        assert!(
            validate.stdout.contains(&said.replace("per_instance_stats.json: warning", "  file: warning")),
            "{bad}: {}",
            validate.stdout
        );
        let show = evaltally_in(dir.path(), &["show", "run", first, "--format", "json"], &[]);
        assert_well_behaved(&bad.to_string(), &show);
        let shown: serde_json::Value = serde_json::from_str(&show.stdout).unwrap();
        assert!(shown["runs"].as_array().is_some_and(|runs| !runs.is_empty()), "{bad}: {shown}");
        assert!(shown["runs"].as_array().unwrap().iter().all(|r| r.get("input_tokens").is_none()), "{bad}: {shown}");
        assert!(
            show.stderr.contains(&format!(
                "per_instance_stats.json: warning: `{first}`'s `num_prompt_tokens` (trial 0) is no count \
                 (negative, or past 2^64): shown as `-`"
            )),
            "{bad}: {}",
            show.stderr
        );
    }
}

/// The formats whose cases are a broken file (or run folder) beside the base's good one,
/// with the model of the good one: its analysis must not change.
const DOCUMENT_FORMATS: [(&str, &str); 11] = [
    ("gstack", "claude-sonnet-4-6"),
    ("sfbench", "acme/sf-model"),
    ("taubench", "acme-7b"),
    ("terminal-bench", "terminus/acme-7b"),
    ("lmeval", "acme-7b"),
    ("lighteval", "acme-7b"),
    ("inspect", "acme/tiny-7b"),
    ("promptfoo", "acme:chat:tiny-7b"),
    ("helm", "acme/7b"),
    ("openai-evals", "gpt-4.1-mini"),
    ("evalplus", "acme/tiny-7b"),
];

#[test]
fn document_format_cases() {
    for (format, model) in DOCUMENT_FORMATS {
        let cases = cases(format);
        assert!(cases.len() >= 2, "{format}: {} cases", cases.len());
        let base = prepare(format, None);
        let (_, good) = check(format, base.path(), "run");
        assert!(good["models"].as_array().is_some_and(|ms| ms.iter().any(|m| m["model"] == model)), "{format}: {good}");
        for case in cases {
            let name = format!("{format}__{}", case.file_name().unwrap().to_string_lossy());
            let dir = prepare(format, Some(&case));
            let broken = std::fs::read_dir(&case).unwrap().next().unwrap().unwrap().file_name();
            let target = format!("run/{}", broken.to_string_lossy());
            let (transcript, report) = check(&name, dir.path(), &target);
            assert!(transcript.contains("validate: exit 1"), "{name}\n{transcript}");
            let good_model = good["models"].as_array().unwrap().iter().find(|m| m["model"] == model);
            let still = report["models"].as_array().and_then(|ms| ms.iter().find(|m| m["model"] == model));
            assert_eq!(
                still.map(|m| &m["categories"]),
                good_model.map(|m| &m["categories"]),
                "{name}: the good file beside the broken one is analysed as before\n{transcript}"
            );
            insta::assert_snapshot!(name, transcript);
        }
    }
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files_under(&path, out) } else { out.push(path) }
    }
}

/// A UTF-8 byte order mark before a JSON document (Windows tools write one) is read past in
/// every format: the analysis and its messages are those of the same files without it, and
/// `validate` says it is there without failing the file.
#[test]
fn a_byte_order_mark_is_read_past_in_every_format() {
    let bases = ["bfcl", "gstack", "sfbench"].into_iter().chain(DOCUMENT_FORMATS.iter().skip(2).map(|(f, _)| *f));
    let sources = bases.map(|f| testdata("malformed/_base").join(f)).chain([testdata("swebench"), testdata("tau2")]);
    let mut said_in_all = 0;
    for source in sources {
        let what = source.display().to_string();
        let dir = tempfile::tempdir().unwrap();
        let (plain, marked) = (dir.path().join("plain"), dir.path().join("marked"));
        copy_tree(&source, &plain.join("run"));
        copy_tree(&source, &marked.join("run"));
        let mut files = Vec::new();
        files_under(&marked, &mut files);
        let mut json = 0;
        for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json" || e == "jsonl")) {
            let bytes = std::fs::read(file).unwrap();
            std::fs::write(file, [&b"\xEF\xBB\xBF"[..], &bytes].concat()).unwrap();
            json += 1;
        }
        assert!(json > 0, "{what}");
        let args = ["stability", "run", "--format", "json"];
        let (before, after) = (evaltally_in(&plain, &args, &[]), evaltally_in(&marked, &args, &[]));
        assert_eq!((after.code, &after.stderr), (before.code, &before.stderr), "{what}");
        assert_eq!(after.stdout, before.stdout, "{what}");
        let (before, after) =
            (evaltally_in(&plain, &["validate", "run"], &[]), evaltally_in(&marked, &["validate", "run"], &[]));
        assert_eq!((before.code, after.code), (0, 0), "{what}\n{}", after.stdout);
        assert!(!before.stdout.contains("byte order mark"), "{what}");
        // Each JSON file validated (a file read beside another, such as lighteval's results
        // file, is its reader's) is said to start with the mark, once.
        let validated = after
            .stdout
            .lines()
            .filter_map(|l| l.split_once(": valid (").or_else(|| l.split_once(": INVALID (")))
            .filter(|(path, _)| Path::new(path).extension().is_some_and(|e| e == "json" || e == "jsonl"))
            .count();
        let said = after.stdout.matches("line 1: warning: starts with a UTF-8 byte order mark").count();
        assert_eq!(said, validated, "{what}\n{}", after.stdout);
        said_in_all += said;
    }
    assert!(said_in_all >= 20, "{said_in_all} files said to start with the mark");
}

/// Inputs made at test time: too big, too deep or impossible to keep in git.
#[test]
fn generated_bfcl_cases() {
    let result = "result/acme-7b/non_live/BFCL_v4_irrelevance_result.json";
    let big = {
        let mut s = String::from("{\"id\": \"irrelevance_0\", \"result\": \"");
        s.push_str(&"x".repeat(64 << 20));
        s.push_str("\"}\n{\"id\": \"irrelevance_1\", \"result\": \"ok\"}\n");
        s
    };
    let deep = format!("{{\"id\": \"irrelevance_0\", \"result\": {}{}}}\n", "[".repeat(100_000), "]".repeat(100_000));
    let deep_open = format!("{{\"id\": \"irrelevance_0\", \"result\": {}\n", "[".repeat(100_000));
    let mut snapshots = Vec::new();
    for (name, text) in [("64mb-single-line", big), ("nesting-100k", deep), ("nesting-100k-unclosed", deep_open)] {
        let dir = prepare("bfcl", None);
        std::fs::write(dir.path().join("run").join(result), text).unwrap();
        let (transcript, report) = check(name, dir.path(), "run");
        assert_eq!(counts(&report, "acme-7b", "simple_python"), Some((4, 2)), "{name}\n{transcript}");
        snapshots.push(format!("=== {name}\n{transcript}"));
    }
    insta::assert_snapshot!(snapshots.join("\n"));
}

#[cfg(unix)]
#[test]
fn unreadable_files_symlink_loops_and_odd_names() {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{PermissionsExt, symlink};

    let result = "result/acme-7b/non_live/BFCL_v4_irrelevance_result.json";
    // A symlink loop beside the files, and a file name that is not UTF-8.
    let dir = prepare("bfcl", None);
    let model = dir.path().join("run/result/acme-7b");
    symlink(model.join("loop"), model.join("loop")).unwrap();
    symlink(&model, model.join("non_live/up")).unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"BFCL_v4_caf\xe9_result.json");
    std::fs::write(model.join("non_live").join(odd), "{\"id\": \"caf_0\", \"result\": 1}\n").unwrap();
    let (transcript, report) = check("loops", dir.path(), "run");
    assert_eq!(counts(&report, "acme-7b", "simple_python"), Some((4, 2)), "{transcript}");
    assert_eq!(counts(&report, "acme-7b", "irrelevance"), Some((3, 1)), "{transcript}");
    insta::assert_snapshot!(transcript);

    // A file that cannot be read. Root reads it anyway, so only the message is checked.
    let dir = prepare("bfcl", None);
    let path = dir.path().join("run").join(result);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    let (transcript, report) = check("unreadable", dir.path(), "run");
    assert_eq!(counts(&report, "acme-7b", "simple_python"), Some((4, 2)), "{transcript}");
    if std::fs::read(&path).is_err() {
        assert!(transcript.contains("BFCL_v4_irrelevance_result.json: cannot read"), "{transcript}");
        assert!(transcript.contains("stability: exit 1"), "{transcript}");
    } else {
        notice("running as root, which reads a mode-000 file; only the rest of the run was checked");
    }
}

#[allow(clippy::print_stdout)] // a notice for whoever reads the test output
fn notice(text: &str) {
    println!("note: {text}");
}

/// Every field gstack's validator and SF-Bench's schema require, missing and of the wrong
/// type, in a file beside a good one: the message for each.
#[test]
fn every_required_field_missing_or_mistyped() {
    let mut lines = Vec::new();
    let gstack: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(testdata("malformed/_base/gstack/nightly-1.json")).unwrap())
            .unwrap();
    for (field, _) in evaltally_gstack::validate::REQUIRED_FIELDS {
        lines.extend(field_cases("gstack", &gstack, &["", field]));
    }
    let sfbench: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(testdata("malformed/_base/sfbench/good-report.json")).unwrap())
            .unwrap();
    // The fields SF-Bench's schema v2 document marks required, and the two its validate_schema
    // requires in every instance.
    for field in [
        "schema_version",
        "run_id",
        "model_name",
        "model_name_or_path",
        "dataset",
        "config",
        "evaluation_config",
        "instances",
        "summary",
        "start_time",
        "created_at",
        "resolved_ids",
        "unresolved_ids",
        "error_ids",
        "empty_patch_ids",
        "completed_ids",
    ] {
        lines.extend(field_cases("sfbench", &sfbench, &["", field]));
    }
    for field in ["instance_id", "status"] {
        lines.extend(field_cases("sfbench", &sfbench, &["instances", field]));
    }
    insta::assert_snapshot!(lines.join("\n"));
}

/// The document with `path` (`["", key]` at the top, `["instances", key]` in the first
/// instance) removed, then set to a value of the wrong type; each validated beside the good
/// base. Returns one line per finding.
fn field_cases(format: &str, good: &serde_json::Value, path: &[&str; 2]) -> Vec<String> {
    let mut out = Vec::new();
    for mode in ["missing", "mistyped"] {
        let mut doc = good.clone();
        let parent = if path[0].is_empty() { &mut doc } else { &mut doc[path[0]][0] };
        let obj = parent.as_object_mut().unwrap();
        if mode == "missing" {
            obj.remove(path[1]);
        } else {
            let wrong = match obj.get(path[1]) {
                Some(serde_json::Value::String(_)) => serde_json::json!(42),
                _ => serde_json::json!("wrong"),
            };
            obj.insert(path[1].to_string(), wrong);
        }
        let dir = prepare(format, None);
        std::fs::write(dir.path().join("run/broken.json"), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        let validate = evaltally_in(dir.path(), &["validate", "run/broken.json"], &[]);
        assert_well_behaved(path[1], &validate);
        let key = path.iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join(".");
        // An error where the format's own validator has one, a warning where it only writes
        // the field; either way, the field is named.
        let named =
            validate.stdout.lines().any(|l| l.contains(path[1]) && (l.contains("error:") || l.contains("warning:")));
        assert!(named, "{format} {key} {mode}: {}", validate.stdout);
        let stab = evaltally_in(dir.path(), &["stability", "run"], &[]);
        assert_well_behaved(path[1], &stab);
        assert_ne!(stab.code, 2, "{format} {key} {mode}: the good file is still read\n{}", stab.stderr);
        let findings: Vec<&str> = validate.stdout.lines().filter(|l| l.starts_with("  ")).map(str::trim).collect();
        out.push(format!("{format} {key} {mode} (exit {}): {}", validate.code, findings.join(" | ")));
    }
    out
}

/// A result file rewritten, cut short and grown while evaltally reads it: files are read
/// into buffers (never memory-mapped), so the worst is a message about a cut line.
#[test]
fn files_changing_while_read_do_not_crash() {
    let dir = prepare("bfcl", None);
    let path = dir.path().join("run/result/acme-7b/non_live/BFCL_v4_irrelevance_result.json");
    let full = std::fs::read(&path).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (path, full, stop) = (path.clone(), full.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut i = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let cut = full.len() * (i % 7) / 6;
                let mut bytes = full[..cut.min(full.len())].to_vec();
                if i.is_multiple_of(3) {
                    bytes.extend_from_slice(&full);
                }
                std::fs::write(&path, bytes).unwrap();
                i += 1;
            }
        })
    };
    for _ in 0..20 {
        let run = evaltally_in(dir.path(), &["stability", "run", "--format", "json"], &[]);
        assert_well_behaved("changing file", &run);
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(counts(&report, "acme-7b", "simple_python"), Some((4, 2)), "{}", run.stderr);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
}

/// Reading commands leave the folders they read exactly as they were.
#[test]
fn reading_never_writes_into_the_inputs() {
    fn listing(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                out.extend(listing(&entry.path()));
            } else {
                out.push((entry.path(), meta.len(), meta.modified().unwrap()));
            }
        }
        out.sort();
        out
    }
    let dir = prepare("bfcl", None);
    let before = listing(dir.path());
    for args in [
        &["stability", "run"][..],
        &["stability", "run", "--format", "markdown"],
        &["validate", "run"],
        &["show", "run", "irrelevance_3"],
        &["export", "run"],
        &["compare", "run", "run"],
        &["convert", "run", "--to", "junit"],
    ] {
        let run = evaltally_in(dir.path(), args, &[]);
        assert_well_behaved(&args.join(" "), &run);
    }
    assert_eq!(listing(dir.path()), before);
}

/// A raw control character inside a string of a gstack result or an SF-Bench report is an
/// error naming the file, line and column in `stability`, as in `validate`: their fast paths
/// leave no byte unchecked. A good file beside it is still read (exit 1).
#[test]
fn a_raw_control_character_in_a_document_is_an_error_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    for (good, damaged, anchor) in [
        ("gstack/standard/nightly-1.json", "gstack/standard/nightly-2.json", "\"password-reset\""),
        ("sfbench-runs/run-1/report.json", "sfbench-runs/run-2/report.json", "\"flow-screen-component-001\""),
    ] {
        let folder = dir.path().join(good.split('/').next().unwrap());
        std::fs::create_dir_all(folder.join("a")).unwrap();
        std::fs::create_dir_all(folder.join("b")).unwrap();
        std::fs::copy(testdata(good), folder.join("a/run.json")).unwrap();
        let text = std::fs::read_to_string(testdata(damaged)).unwrap();
        assert!(text.contains(anchor), "{damaged}");
        let text = text.replacen(anchor, &anchor.replacen('-', "-\u{1}", 1), 1);
        let at = text.find('\u{1}').unwrap();
        let line = text[..at].matches('\n').count() + 1;
        std::fs::write(folder.join("b/run.json"), text).unwrap();
        let run = evaltally(&["stability", folder.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{damaged}: {}", run.stderr);
        let place = format!("b/run.json:{line}:");
        assert!(
            run.stderr.contains(&place) && run.stderr.contains("error: not valid JSON: control character"),
            "{damaged}: {}",
            run.stderr
        );
    }
}

/// An empty `.json` found in a folder is said as an empty file; a folder where `stability
/// --out` would write an id file is said with `--out` and that folder, before anything is
/// written.
#[test]
fn an_empty_json_and_a_folder_in_the_way_are_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&testdata("gstack/standard"), &dir.path().join("runs"));
    std::fs::write(dir.path().join("runs/empty.json"), "").unwrap();
    let run = evaltally_in(dir.path(), &["stability", "runs", "--verbose"], &[]);
    assert!(run.stderr.contains("runs/empty.json: note: not read: an empty file"), "{}", run.stderr);
    std::fs::create_dir_all(dir.path().join("out/flaky_tests.json")).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "runs", "--out", "out"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--out out: out/flaky_tests.json is a folder; move it, or give --out another folder"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("out/stable_tests.json").exists(), "nothing written");
}

/// A JUnit report in UTF-16 with a byte order mark, little- or big-endian, is read when
/// found in a folder as when named: the same tests as the UTF-8 original.
#[test]
fn a_utf16_junit_report_in_a_folder_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(testdata("junit/googletest.xml")).unwrap();
    let units: Vec<u16> = text.encode_utf16().collect();
    let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(units.iter().flat_map(|u| u.to_le_bytes())).collect();
    let be: Vec<u8> = [0xFE, 0xFF].into_iter().chain(units.iter().flat_map(|u| u.to_be_bytes())).collect();
    std::fs::write(dir.path().join("le.xml"), le).unwrap();
    std::fs::write(dir.path().join("be.xml"), be).unwrap();
    let tests = |path: &str| -> Vec<String> {
        let run = evaltally(&["export", path]);
        assert_eq!(run.code, 0, "{path}: {}", run.stderr);
        let mut ids: Vec<String> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    let original = tests(testdata("junit/googletest.xml").to_str().unwrap());
    assert!(!original.is_empty());
    let both = tests(dir.path().to_str().unwrap());
    assert_eq!(both, original.iter().flat_map(|id| [id.clone(), id.clone()]).collect::<Vec<_>>());
}

/// An SF-Bench instance whose `instance_id` is not a string is left out and said; it is not
/// a test with an empty id.
#[test]
fn an_sfbench_instance_without_a_string_id_is_left_out_and_said() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&testdata("sfbench-runs"), dir.path());
    let report = dir.path().join("run-1/report.json");
    let text = std::fs::read_to_string(&report).unwrap();
    let text = text.replacen("\"instance_id\": \"lwc-component-001\"", "\"instance_id\": {\"a\": [1]}", 1);
    std::fs::write(&report, text).unwrap();
    let run = evaltally_in(dir.path(), &["export", "."], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "run-1/report.json: warning: instances[0]: `instance_id` is an object, expected the instance's id, a \
             string; left out"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("\"id\":\"\""), "no test without an id: {}", run.stdout);
    let run = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert!(run.stderr.contains("`instance_id` is an object"), "{}", run.stderr);
}

/// A byte that is not UTF-8 inside a string is placed at its own column, in BFCL's and
/// lm-eval's line-by-line checks alike (`simd-json` and `serde_json` give no place for it).
#[test]
fn a_byte_that_is_not_utf8_is_placed_at_its_column() {
    let dir = tempfile::tempdir().unwrap();
    for (fixture, name) in [
        (
            "bfcl/v4/run-1/result/acme_tiny-7b/non_live/BFCL_v4_simple_python_result.json",
            "BFCL_v4_simple_python_result.json",
        ),
        ("lmeval/samples_arith_2026-01-01T00-00-00.000000.jsonl", "samples_arith_2026-01-01T00-00-00.000000.jsonl"),
    ] {
        let bytes = std::fs::read(evaltally_testkit::testdata(fixture)).unwrap();
        let mut damaged = b"{\"zz\": \"ab\xff\", ".to_vec();
        damaged.extend_from_slice(&bytes[1..]);
        let path = dir.path().join(name);
        std::fs::write(&path, damaged).unwrap();
        let out = evaltally(&["validate", path.to_str().unwrap()]);
        assert_eq!(out.code, 1, "{}", out.stdout);
        assert!(out.stdout.contains("column 11"), "{name}: {}", out.stdout);
    }
}

/// A text cut short is placed one past its end by every reader, so two messages about one
/// place never name two columns: lighteval's results file (checked alone, and read beside
/// the details it names) and a last line cut short in OpenAI Evals' and lm-eval's JSON
/// Lines.
#[test]
fn a_cut_text_is_placed_one_past_its_end_everywhere() {
    // lighteval: the results file cut after 100 bytes, inside a line.
    let dir = prepare("lighteval", None);
    let results = dir.path().join("run/results/acme-7b/results_2026-01-01T00-00-00.000000.json");
    let bytes = std::fs::read(&results).unwrap();
    std::fs::write(&results, &bytes[..100]).unwrap();
    let line = bytes[..100].split(|&b| b == b'\n').count();
    let column = bytes[..100].split(|&b| b == b'\n').next_back().unwrap().len() + 1;
    let validate = evaltally_in(dir.path(), &["validate", "run"], &[]);
    assert!(validate.stdout.contains(&format!("  line {line}, column {column}: error: ")), "{}", validate.stdout);
    let stability = evaltally_in(dir.path(), &["stability", "run"], &[]);
    assert!(stability.stderr.contains(&format!(".json:{line}:{column}: error: ")), "{}", stability.stderr);
    assert!(stability.stderr.contains(&format!("(line {line}, column {column}: ")), "{}", stability.stderr);

    // JSON Lines whose last line is cut: `{"cut": ` is 8 bytes, so column 9.
    for (format, name) in [("openai-evals", "good.jsonl"), ("lmeval", "samples_arith_2026-01-01T00-00-00.000000.jsonl")]
    {
        let dir = prepare(format, None);
        let file = dir.path().join("run").join(name);
        let mut text = std::fs::read_to_string(&file).unwrap();
        let line = text.lines().count() + 1;
        text.push_str("{\"cut\": ");
        std::fs::write(&file, text).unwrap();
        let run = evaltally_in(dir.path(), &["stability", "run"], &[]);
        assert!(run.stderr.contains(&format!("{name}:{line}:9: error: ")), "{format}: {}", run.stderr);
    }
}
