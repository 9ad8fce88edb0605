//! The fuzz target bodies, one function per target, shared by the cargo-fuzz binaries in
//! `fuzz_targets/` and by the replay test `crates/evaltally/tests/fuzz_regressions.rs`, which
//! runs every saved crash input in `testdata/fuzz-regressions/<target>/` through the same code.
//! Each function must return without panicking for any input.
#![allow(dead_code)] // each binary and the replay test use a different subset

use evaltally_bfcl::lines::{self, ResultRecord, ScoreRecord};
use evaltally_bfcl::{FilePair, Scratch, read_pair_bytes};
use evaltally_gstack::{GstackRun, normalize, runs};
use evaltally_sfbench::{markdown, migrate, report, summary};

/// The id extractor and line scanner on arbitrary bytes: every line read as a result and a
/// score record, and every field the analyses take from it.
pub(crate) fn bfcl_lines(data: &[u8]) {
    for (_, line) in lines::split(data) {
        if let Ok(r) = ResultRecord::parse(line) {
            let _ = r.test_id("c");
            let _ = r.is_inference_error();
        }
        if let Ok(s) = ScoreRecord::parse(line) {
            let _ = s.is_summary();
            let _ = s.raw_id();
            let _ = s.error_label();
            let _ = s.prompt_id();
            let _ = lines::count(s.total_count);
        }
    }
}

/// A result file and its score file (split at the first 0xFF byte) read for analysis and
/// validated byte by byte.
pub(crate) fn bfcl_pair(data: &[u8]) {
    let (result, score) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let pair = FilePair {
        run: "fuzz".into(),
        model: "m".into(),
        category: "simple".into(),
        result: Some("result.json".into()),
        score: score.map(|_| "score.json".into()),
    };
    let _ = read_pair_bytes(&pair, result, score, &mut Scratch::default());
    let _ = evaltally_bfcl::validate::validate_bytes("simple", result, score);
}

/// SF-Bench and SWE-bench documents: format detection, validation, the typed readers, the
/// summary, the markdown report and the v1 migration, on arbitrary JSON (and on text with
/// documentation placeholders).
pub(crate) fn sfbench_report(data: &[u8]) {
    let value = match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(v) => v,
        Err(_) => match evaltally_format::check::read_doc_example(&String::from_utf8_lossy(data)) {
            Ok((v, _)) => v,
            Err(_) => return,
        },
    };
    if let Some(format) = evaltally_sfbench::detect::detect(&value) {
        let _ = evaltally_sfbench::validate::validate(&value, format);
    }
    if let Some(format) = evaltally_swebench::detect::detect(&value) {
        let _ = evaltally_swebench::validate::validate(&value, format);
    }
    if let Some(part) = evaltally_sfbench::validate::detect_part(&value) {
        let _ = evaltally_sfbench::validate::validate_part(&value, part);
    }
    let _ = evaltally_sfbench::validate::upstream_valid(&value);
    let r = report::Report::from_value(&value);
    let _ = summary::compute(&r.instances);
    let _ = summary::judged_by(&r.instances);
    let _ = markdown::render(&r, None);
    let _ = r.category_runs("fuzz");
    if let Some(m) = migrate::migrate(&value) {
        let _ = migrate::to_json_pretty(&m.report);
    }
    let _ = evaltally_swebench::report::RunReport::from_value(&value).category_runs("r", "m");
    let _ = evaltally_swebench::report::InstanceReport::from_value(&value, Some("x__y-1"));
}

/// gstack eval results: shape detection, the typed reader, gstack's validator (and the strict
/// one), the normalizer in both directions and the per-test views, on arbitrary bytes.
pub(crate) fn gstack_result(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = evaltally_gstack::validate::validate_text(text);
    let _ = normalize::to_legacy_text(text);
    let _ = normalize::from_legacy_text(text);
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return };
    let _ = evaltally_gstack::detect(&value);
    let _ = evaltally_gstack::validate(&value);
    let _ = evaltally_gstack::validate_strict(&value);
    let _ = normalize::dropped(&value, normalize::Direction::ToLegacy);
    let _ = normalize::dropped(&value, normalize::Direction::FromLegacy);
    let mut notes = Vec::new();
    if let Some(run) = GstackRun::read(&value, &mut notes) {
        let _ = run.name();
        let _ = run.model();
        let _ = runs::category_runs(&run);
        let _ = runs::duplicate_tests(&run);
        if let Some(name) = run.tests.first().and_then(|t| t.name.as_deref()) {
            let _ = runs::show(&run, name);
        }
        let _ = runs::show(&run, "fuzz");
    }
}

/// JUnit XML: the reader on arbitrary text, every view of what it read, and the writer's
/// output of it read back, which must give the same outcomes.
pub(crate) fn junit_report(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = evaltally_junit::looks_like_junit(&text);
    let Ok(run) = evaltally_junit::read(&text, std::path::Path::new("fuzz.xml")) else { return };
    let _ = run.category_runs("r", "m");
    let record = run.record("r", "m");
    if let Some(case) = run.cases.first() {
        let _ = run.show(&case.id);
    }
    let xml = evaltally_junit::write(&record);
    let back = evaltally_junit::read(&xml, std::path::Path::new("back.xml"))
        .unwrap_or_else(|e| panic!("the writer's own output does not read back: {e}\n{xml}"));
    // The writer groups tests by category, and every string comes back as `xml_safe` of
    // itself (characters XML cannot hold are replaced): compare by (category, id) so mapped.
    let outcomes = |r: &evaltally_core::RunRecord| {
        let safe = |s: &str| evaltally_junit::xml_safe(s).into_owned();
        let mut v: Vec<_> = r.tests.iter().map(|t| (safe(&t.category), safe(&t.id), t.outcome)).collect();
        v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        v
    };
    assert_eq!(outcomes(&back.record("r", "m")), outcomes(&record), "outcomes change in a round trip\n{xml}");
}

/// Every format of the registry through the pipeline's interface on arbitrary bytes, under
/// the names each format looks for: sniffing, the fast paths and the tolerant readers
/// (`read`), `records`, `show` and `validate`. Where a fast path read the file, the tolerant
/// reader must agree (JUnit's `read` against its reader's category runs).
pub(crate) fn formats(data: &[u8]) {
    use evaltally_format::{Input, Options, Purpose};
    use std::path::Path;
    let names = [
        "r.json",
        "r.xml",
        "logs/run_evaluation/run/model/x__y-1/report.json",
        "model.run.json",
        "output.jsonl",
        "run/output.swebench_eval.md",
        "acme_vllm_temp_0.0_eval_results.json",
    ];
    for name in names {
        let path = Path::new(name);
        for named in [false, true] {
            let input = Input::new(path, data, named);
            for purpose in [Purpose::Read, Purpose::Validate] {
                let options = Options { purpose, ..Options::default() };
                for format in evaltally_formats::registry().formats() {
                    if !format.sniff(&input, &options) {
                        continue;
                    }
                    let read = format.read(&input, &options);
                    let _ = format.records(&input, &options);
                    let _ = format.show(&input, "x__y-1", &options);
                    let _ = format.validate(&input, &options);
                    if format.name() == evaltally_junit::FORMAT
                        && let Ok(run) = evaltally_junit::read_bytes(data, path)
                    {
                        let slow = run.category_runs(&run.run_name(), run.model().unwrap_or("unknown"));
                        assert_eq!(read.runs, slow, "JUnit's fast path and reader disagree");
                    }
                }
            }
        }
    }
}

/// One format, found by name in the registry, on arbitrary bytes under each of `names`, as
/// a file named and as one found in a folder: sniffed, and (whatever the sniff says, as
/// `--as` does) read, read test by test, shown and validated, for the analyses and for
/// `validate`.
fn one_format(format: &str, names: &[&str], data: &[u8]) {
    use evaltally_format::{Input, Options, Purpose};
    let Some(format) = evaltally_formats::registry().find(format) else { panic!("{format} is not registered") };
    for name in names {
        for named in [false, true] {
            let input = Input::new(std::path::Path::new(name), data, named);
            for purpose in [Purpose::Read, Purpose::Validate] {
                let options = Options { purpose, ..Options::default() };
                let _ = format.sniff(&input, &options);
                let _ = format.read(&input, &options);
                let _ = format.records(&input, &options);
                let _ = format.show(&input, "1", &options);
                let _ = format.validate(&input, &options);
            }
        }
    }
}

/// The taubench reader on arbitrary bytes ([`one_format`]).
pub(crate) fn taubench(data: &[u8]) {
    one_format("taubench", &["gpt-4o-airline.json", "results.json"], data);
}

/// The Terminal-Bench reader on arbitrary bytes ([`one_format`]): as a run's
/// `results.json`, a renamed `<run_id>_results.json` and a `run_metadata.json`; and the
/// trial-name parser on the bytes as text.
pub(crate) fn terminal_bench(data: &[u8]) {
    one_format("terminal-bench", &["runs/r/results.json", "goose/r_results.json", "runs/r/run_metadata.json"], data);
    let text = String::from_utf8_lossy(data);
    let (name, task) = text.split_once('\n').unwrap_or((&text, ""));
    if evaltally_terminal_bench::attempt(name, task).is_some() {
        assert!(name.contains("-of-"), "an attempt read from a name without `-of-`: {name:?}");
    }
    let _ = evaltally_terminal_bench::seconds(&text);
}

/// The evalplus reader on arbitrary bytes ([`one_format`]): a samples name, the folder mode's
/// `eval_results.json` and a copy renamed by hand (read as `--as evalplus` reads it).
pub(crate) fn evalplus(data: &[u8]) {
    one_format(
        "evalplus",
        &["acme--coder-7b_vllm_temp_0.8_eval_results.json", "run/eval_results.json", "1.json"],
        data,
    );
}

/// The lmeval reader on arbitrary bytes ([`one_format`]).
pub(crate) fn lmeval(data: &[u8]) {
    one_format("lmeval", &["samples_t_2026-01-01T00-00-00.jsonl"], data);
}

/// The lighteval reader on arbitrary bytes ([`one_format`]): Parquet footers, pages and
/// levels, and the Python reprs of 0.4 – 0.7's string columns.
pub(crate) fn lighteval(data: &[u8]) {
    one_format("lighteval", &["details/m/2026-01-01T00-00-00.0/details_t|x|0_2026-01-01T00-00-00.0.parquet"], data);
}

/// The inspect reader on arbitrary bytes ([`one_format`]).
pub(crate) fn inspect_log(data: &[u8]) {
    one_format("inspect", &["log.eval", "log.json"], data);
}

/// The promptfoo reader on arbitrary bytes ([`one_format`]).
pub(crate) fn promptfoo_output(data: &[u8]) {
    one_format("promptfoo", &["output.json"], data);
}

/// The helm reader on arbitrary bytes ([`one_format`]).
pub(crate) fn helm_run(data: &[u8]) {
    one_format("helm", &["run/per_instance_stats.json"], data);
}

/// The openai-evals reader on arbitrary bytes ([`one_format`]).
pub(crate) fn openai_evals_items(data: &[u8]) {
    one_format("openai-evals", &["items.jsonl"], data);
}

/// The one rule for text from files (escaping for terminals and Markdown, URL passwords)
/// and the repeated-key walk, on arbitrary text: no control character survives escaping.
pub(crate) fn text(data: &[u8]) {
    use evaltally_core::text;
    let s = String::from_utf8_lossy(data);
    let printable = text::printable(&s);
    assert!(!printable.chars().any(text::is_unsafe), "printable left a control character: {printable:?}");
    let block = text::printable_block(&s);
    assert!(!block.chars().any(|c| text::is_unsafe(c) && c != '\n' && c != '\t'), "{block:?}");
    let md = text::markdown_text(&s);
    assert!(!md.chars().any(text::is_unsafe), "{md:?}");
    let _ = text::markdown_code(&s, true);
    let _ = text::redact_url_passwords(&s);
    let _ = evaltally_format::json::repeated_keys(data);
}
