//! SWE-bench as a format of the reading pipeline.
//!
//! Run reports and lone per-instance reports are JSON documents told apart by their keys
//! ([`detect`]), sniffed from the bytes the pipeline read, without parsing; per-instance
//! `report.json` files are known by their place
//! (`logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`) and grouped into one
//! run per (run, model). OpenHands' `output.jsonl` ([`openhands`]) and its Markdown summary
//! ([`markdown`]) are told by their names and first bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::{
    Claim, FileValidation, Folder, Format, Input, Options, Purpose, Read, Records, Resemblance, Scratch, Shown, Unit,
    Validated, WalkedFile,
};

use crate::detect::{Format as Detected, detect};
use crate::report::split_file_stem;
use crate::sources::{self, Layout, Source};
use crate::{markdown, openhands};

/// SWE-bench harness reports: run reports `<model>.<run_id>.json` and per-instance
/// `report.json` files.
#[derive(Debug, Clone, Copy, Default)]
pub struct SweBench;

/// The one value of [`SweBench`], for the registry.
pub static SWEBENCH: SweBench = SweBench;

use evaltally_format::json::is_json_path as is_json;

/// OpenHands' `output.jsonl` (JSON Lines; every other file this format reads is one JSON
/// document).
fn is_jsonl(path: &Path) -> bool {
    evaltally_format::has_extension(path, "jsonl")
}

/// OpenHands' Markdown summary, by its name (`<output>.swebench_eval.md`).
fn is_markdown(path: &Path) -> bool {
    markdown::is_name(path)
}

fn is_instance_report(path: &Path) -> bool {
    evaltally_format::file_name(path).is_some_and(|n| n == "report.json") && sources::instance_place(path).is_some()
}

/// The runs of a document whose format is known, read from the buffer.
fn read_document(file: &Input<'_>) -> Read {
    evaltally_format::json::read_document(file, detect, |format, doc| {
        let out = sources::read_document(file.path, format, doc);
        Read { runs: out.runs, diagnostics: out.diagnostics }
    })
}

fn document_records(file: &Input<'_>) -> Records {
    evaltally_format::json::document_records(file, detect, |format, doc| {
        crate::records::document_records(file.path, format, doc)
    })
}

fn show_document(file: &Input<'_>, test: &str) -> Shown {
    let doc = match sources::parse_json(file.path, file.bytes) {
        Ok(doc) => doc,
        Err(d) => return Shown { details: Vec::new(), diagnostics: vec![d] },
    };
    let Some(format) = detect(&doc) else { return Shown::default() };
    let logs = (format == Detected::RunReport).then(|| run_report_logs(file.path)).flatten();
    Shown {
        details: sources::show_document(file.path, format, logs.as_deref(), &doc, test).into_iter().collect(),
        diagnostics: Vec::new(),
    }
}

/// What a run report `report.json` with an `output.jsonl` beside it is: OpenHands'
/// `eval_infer.sh` moves the harness's run report there and gives each line of
/// `output.jsonl` its instance's report, so the run is read once, from `output.jsonl`
/// (which names the model). `None` for any other file.
fn openhands_run_report(file: &Input<'_>) -> Option<String> {
    let jsonl = file.beside().iter().any(|p| evaltally_format::file_name(p).is_some_and(|n| n == "output.jsonl"));
    (jsonl && detect(file) == Some(Detected::RunReport)).then(|| {
        "OpenHands' copy of the harness's run report: the outcomes are read from `output.jsonl` beside it, \
         whose lines carry each instance's report"
            .to_string()
    })
}

/// The folder of a run report's per-instance reports, when it is there:
/// `logs/run_evaluation/<run_id>/<model>/` beside `<model>.<run_id>.json`.
fn run_report_logs(path: &Path) -> Option<PathBuf> {
    let stem = path.file_name()?.to_string_lossy();
    let stem = stem.strip_suffix(".json").unwrap_or(&stem);
    let (model, run) = split_file_stem(stem);
    let dir = path.parent().unwrap_or(Path::new(".")).join("logs").join("run_evaluation").join(run).join(model?);
    dir.is_dir().then_some(dir)
}

fn validate_document(file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
    let (value, mut findings) = match evaltally_format::check::parse_for_validation(file.bytes) {
        Ok(parsed) => parsed,
        Err(finding) => return vec![FileValidation::new(file.path, "swebench", vec![finding])],
    };
    let _ = options;
    match detect(&value) {
        Some(format) => {
            findings.extend(crate::validate::validate(&value, format));
            // A `report.json` where the harness writes per-instance reports is one, even
            // when it holds other instances beside its folder's.
            let at_instance_place = is_instance_report(file.path);
            let named = if at_instance_place { Detected::InstanceReport } else { format };
            if (format == Detected::InstanceReport || at_instance_place)
                && let Some(note) = folder_mismatch(file.path, &value)
            {
                findings.push(Finding::warning("$", note));
            }
            vec![FileValidation::new(file.path, named.name(), findings)]
        }
        // SWE-smith's report of an instance it gave up on: errored, said by `stability`.
        None if is_instance_report(file.path)
            && value.get("timed_out") == Some(&serde_json::Value::Bool(true))
            && value.get("resolved").is_none() =>
        {
            vec![FileValidation::new(file.path, Detected::InstanceReport.name(), findings)]
        }
        // A `report.json` where the harness writes per-instance reports is one, whatever it holds.
        None if is_instance_report(file.path) => {
            let found = match value.as_object() {
                Some(m) => format!("an object with {} keys and no `resolved`", m.len()),
                None => format!("{value:.40}"),
            };
            findings.push(Finding::error(
                "$",
                format!("expected a SWE-bench instance report, `{{\"resolved\": …}}` or `{{instance_id: {{\"resolved\": …}}}}`; found {found}"),
            ));
            vec![FileValidation::new(file.path, Detected::InstanceReport.name(), findings)]
        }
        None => Vec::new(),
    }
}

/// What the reader notes when an instance report's keys are not its folder's name alone.
fn folder_mismatch(path: &Path, doc: &serde_json::Value) -> Option<String> {
    let folder = path.parent().and_then(Path::file_name)?.to_string_lossy();
    let report = crate::report::InstanceReport::from_value(doc, Some(&folder))?;
    report.notes.into_iter().find(|n| n.starts_with("the report is keyed") || n.starts_with("the report also holds"))
}

impl Format for SweBench {
    fn name(&self) -> &'static str {
        "swebench"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["swe-bench"]
    }

    fn describe(&self) -> &'static str {
        concat!(
            "  SWE-bench run reports <model>.<run_id>.json\n",
            "  SWE-bench per-instance reports logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json or logs/<instance_id>/report.json\n",
            "  OpenHands output.jsonl once the SWE-bench harness's `report` is on its lines\n",
            "  OpenHands' runtime evaluation output.swebench_eval.jsonl until update_output_with_eval.py copies its reports into output.jsonl\n",
            "  OpenHands' Markdown summary output.swebench_eval.md when found without the output.jsonl it summarises",
        )
    }

    fn noun(&self) -> &'static str {
        "SWE-bench reports"
    }

    fn claim(&self, path: &Path) -> Claim {
        if is_instance_report(path) {
            Claim::Group
        } else if is_json(path)
            || openhands::is_output_name(path)
            || openhands::is_attempt_name(path)
            || openhands::is_eval_name(path)
            || markdown::is_name(path)
        {
            Claim::Sniff
        } else {
            Claim::No
        }
    }

    /// A document with a run report's or an instance report's keys, an OpenHands
    /// `output.jsonl` whose first line carries a `report`, or a file under the name of
    /// OpenHands' Markdown summary (one that is not a summary is then an error);
    /// for `validate`, also a `report.json` where the harness writes instance reports,
    /// whatever it holds.
    fn sniff(&self, file: &Input<'_>, options: &Options) -> bool {
        if is_markdown(file.path) {
            return true;
        }
        detect(file).is_some()
            || openhands::is_evaluated(file)
            || options.purpose == Purpose::Validate && is_instance_report(file.path)
    }

    /// A Markdown summary depends on the file it summarises and on `metadata.json`, when
    /// the walk found them beside it; OpenHands' output and runtime evaluation on each other
    /// and the summary (`openhands::beside`); a `report.json` on an OpenHands
    /// `output.jsonl` beside it (OpenHands moves the run report there; `output.jsonl` is read
    /// instead).
    fn beside(&self, path: &Path, folder: &Folder<'_>) -> Vec<PathBuf> {
        if is_markdown(path) {
            markdown::beside(path, folder)
        } else if openhands::is_eval_name(path) || openhands::is_output_name(path) {
            openhands::beside(path, folder)
        } else if evaltally_format::file_name(path).is_some_and(|n| n == "report.json")
            && folder.names().contains(&"output.jsonl")
        {
            vec![path.with_file_name("output.jsonl")]
        } else {
            Vec::new()
        }
    }

    fn group(&self, files: Vec<WalkedFile>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Box<dyn Unit>> {
        let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
        for file in files {
            let Some((run, model, layout)) = sources::instance_group(&file.path) else { continue };
            // The instance's folder (`instance_group` found the names above it).
            let id = evaltally_format::names_above::<1>(&file.path, 1).map(|[id]| id.into_owned()).unwrap_or_default();
            // The files that already say what each instance did, where the layout puts
            // them: the harness's `<dir>/<model>.<run>.json` beside
            // `<dir>/logs/run_evaluation/<run>/<model>/<id>/report.json`; OpenHands'
            // `output.jsonl` or `report.json` beside `<output dir>/eval_outputs/<id>/report.json`.
            // Found once per run, from its first report.
            let entry = match groups.entry((run, model)) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => {
                    let covering = covering_files(&file.path, e.key(), layout);
                    e.insert((Vec::new(), 0, covering))
                }
            };
            entry.0.push((id, file.path, file.meta));
            entry.1 += file.size;
        }
        let mut units: Vec<Box<dyn Unit>> = Vec::new();
        for ((run, model), (mut found, size, covered)) in groups {
            if let Some(report) = covered.into_iter().find(|r| r.is_file()) {
                // A fact with --verbose; when nothing else is found (the folder of them
                // given alone), the reason said.
                let folder = found[0].1.parent().and_then(Path::parent).unwrap_or(Path::new(".")).to_path_buf();
                diagnostics.push(Diagnostic::info(
                    folder,
                    format!(
                        "not read: {} (`report.json`), which {}`{}` \
                         covers: it is read instead when among the paths given",
                        if found.len() == 1 {
                            "1 per-instance report".to_string()
                        } else {
                            format!("{} per-instance reports", found.len())
                        },
                        if is_jsonl(&report) { "" } else { "the run report " },
                        report.display()
                    ),
                ));
                continue;
            }
            found.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
            let (reports, seen) = found.into_iter().map(|(id, path, meta)| ((id, path), meta)).unzip();
            units.push(Box::new(InstanceLogs { source: Source::InstanceLogs { run, model, reports }, size, seen }));
        }
        units
    }

    /// A results summary some pipelines write beside a run's per-instance reports
    /// (`results_summary.json`: `total`, `passed`, `failed`, `instances[]`), SWE-smith's run
    /// summary (`ids_resolved`, `ids_unresolved`, `total`); OpenHands agent
    /// output that no evaluation graded, and the attempt files of its iterative evaluation.
    fn aside(&self, file: &Input<'_>) -> Option<String> {
        if is_jsonl(file.path) {
            return openhands::aside(file);
        }
        let summary = file.has("instances") && file.has("total") && (file.has("passed") || file.has("failed"));
        let listed = file
            .json("instances")
            .is_some_and(|i| evaltally_format::json::first_element_has(i, b"instance_id", b"resolved"));
        if summary && listed {
            return Some(
                "a results summary (`total`, `passed`, `instances[]`) of SWE-bench instance reports: evaltally \
                 reads the per-instance `report.json` files it summarises"
                    .to_string(),
            );
        }
        (file.has("ids_resolved") && file.has("ids_unresolved") && file.has("total")).then(|| {
            "SWE-smith's run summary (`ids_resolved`, `ids_unresolved`): evaltally reads the per-instance \
             `report.json` files beside it, which tell the instances that timed out apart"
                .to_string()
        })
    }

    /// A run report's id lists and counts, the keys every harness version writes
    /// (per-instance reports are told by their place).
    fn resemblance(&self, file: &Input<'_>) -> Option<Resemblance> {
        const REQUIRED: [&str; 3] = ["resolved_ids", "unresolved_ids", "completed_ids"];
        let known: Vec<&str> = crate::validate::CORE.iter().copied().filter(|k| !REQUIRED.contains(k)).collect();
        Resemblance::of_keys(file, &known, &REQUIRED)
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        if is_markdown(file.path) {
            return markdown::read(file);
        }
        if is_jsonl(file.path) {
            return openhands::read(file);
        }
        if let Some(what) = openhands_run_report(file) {
            return Read { runs: Vec::new(), diagnostics: vec![Diagnostic::skipped(file.path, what)] };
        }
        read_document(file)
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        if is_markdown(file.path) {
            return markdown::records(file);
        }
        if is_jsonl(file.path) {
            return openhands::records(file);
        }
        if openhands_run_report(file).is_some() {
            return Records::default();
        }
        document_records(file)
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        if is_markdown(file.path) {
            return markdown::show(file, test);
        }
        if is_jsonl(file.path) {
            return openhands::show(file, test);
        }
        if openhands_run_report(file).is_some() {
            return Shown::default();
        }
        show_document(file, test)
    }

    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        if is_markdown(file.path) {
            return markdown::validate(file);
        }
        if is_jsonl(file.path) {
            return openhands::validate(file);
        }
        validate_document(file, options)
    }
}

/// One run's per-instance reports being gathered: (instance id, file, what the walk saw of
/// it), their total size, and the files that would cover them ([`covering_files`]).
type Group = (Vec<(String, PathBuf, Option<std::fs::Metadata>)>, u64, Vec<PathBuf>);

/// The files that would cover a per-instance report at `report` of `(run, model)` (they
/// need not exist), in the order they are looked for: the run report
/// `<dir>/<model>.<run>.json` for the harness's layout; for OpenHands', the `output.jsonl` whose lines carry the same reports
/// (it is read, and the run report beside it skipped), then the run report moved to
/// `<output dir>/report.json`. None for layouts without.
fn covering_files(report: &Path, (run, model): &(String, String), layout: Layout) -> Vec<PathBuf> {
    match layout {
        Layout::Harness => {
            report.ancestors().nth(6).map(|d| d.join(format!("{model}.{run}.json"))).into_iter().collect()
        }
        Layout::OpenHands => {
            report.ancestors().nth(3).map(|d| vec![d.join("output.jsonl"), d.join("report.json")]).unwrap_or_default()
        }
        Layout::SweSmith | Layout::Experiments => Vec::new(),
    }
}

/// A folder of per-instance reports that together make one run.
struct InstanceLogs {
    source: Source,
    size: u64,
    /// What the walk saw of each report, in the order of `reports`.
    seen: Vec<Option<std::fs::Metadata>>,
}

/// The digest cache's identity of the unit (see [`evaltally_format::identity`]): the run,
/// the model and every report's path (the instance ids are their folders' names).
impl std::fmt::Debug for InstanceLogs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use evaltally_format::identity::{number, path, text};
        f.write_str("InstanceLogs")?;
        match &self.source {
            Source::InstanceLogs { run, model, reports } => {
                text(f, "run", run)?;
                text(f, "model", model)?;
                for (_, report) in reports {
                    path(f, "report", Some(report))?;
                }
            }
            Source::Document { path: file, format, logs } => {
                path(f, "document", Some(file))?;
                text(f, "format", format.name())?;
                path(f, "logs", logs.as_deref())?;
            }
        }
        f.write_str(" size ")?;
        number(f, self.size)
    }
}

impl Unit for InstanceLogs {
    fn format(&self) -> &'static str {
        "swebench"
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn inputs(&self) -> Vec<std::path::PathBuf> {
        match &self.source {
            Source::InstanceLogs { reports, .. } => reports.iter().map(|(_, path)| path.clone()).collect(),
            Source::Document { path, .. } => vec![path.clone()],
        }
    }

    /// Input `index` is report `index` (see [`inputs`](Unit::inputs)).
    fn seen(&self, index: usize, input: &Path) -> Option<&std::fs::Metadata> {
        let Source::InstanceLogs { reports, .. } = &self.source else { return None };
        let (_, path) = reports.get(index)?;
        if path == input { self.seen.get(index)?.as_ref() } else { None }
    }

    fn label(&self) -> String {
        let path = self.source.path();
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
    }

    fn read(&self, scratch: &mut Scratch, _options: &Options) -> Read {
        let Source::InstanceLogs { run, model, reports } = &self.source else { return Read::default() };
        let mut diagnostics = Vec::new();
        let parsed = sources::instance_reports(reports, &mut scratch.buf, false, &mut diagnostics);
        Read { runs: sources::instance_runs(run, sources::logs_model(model, &parsed), &parsed), diagnostics }
    }

    fn records(&self, scratch: &mut Scratch, _options: &Options) -> Records {
        let Source::InstanceLogs { run, model, reports } = &self.source else { return Records::default() };
        let mut diagnostics = Vec::new();
        let parsed = sources::instance_reports(reports, &mut scratch.buf, true, &mut diagnostics);
        Records {
            runs: vec![crate::records::instance_logs_record(run, model, self.source.path(), &parsed)],
            diagnostics,
        }
    }

    fn show(&self, _scratch: &mut Scratch, test: &str, _options: &Options) -> Shown {
        sources::show(&self.source, test).map(|detail| detail.into_iter().collect::<Vec<_>>()).into()
    }

    fn validate(&self, _scratch: &mut Scratch, options: &Options) -> Validated {
        let Source::InstanceLogs { reports, .. } = &self.source else { return Validated::default() };
        let mut files = Vec::new();
        for (_, path) in reports {
            match evaltally_format::file::read(path) {
                Ok(bytes) => {
                    let mut found = validate_document(&Input::new(path, &bytes, false), options);
                    FileValidation::note_bom(&mut found, path, &bytes);
                    files.extend(found);
                }
                Err(e) => files.push(FileValidation::new(
                    path,
                    "unknown",
                    vec![Finding::error("file", evaltally_format::file::cannot_read(&e))],
                )),
            }
        }
        Validated { files, diagnostics: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use evaltally_format::{Format, WalkedFile};

    use super::SWEBENCH;

    /// A run's per-instance reports, as the walk hands them over (out of order), with
    /// metadata for each.
    fn walked(dir: &std::path::Path, ids: &[&str]) -> Vec<WalkedFile> {
        walked_at(dir, "logs/run_evaluation/night-1/acme", ids, |id| format!("{{\"{id}\": {{\"resolved\": true}}}}"))
    }

    /// Per-instance reports `<place>/<id>/report.json` holding `body(id)`, as the walk hands
    /// them over.
    fn walked_at(dir: &std::path::Path, place: &str, ids: &[&str], body: impl Fn(&str) -> String) -> Vec<WalkedFile> {
        let root: Arc<std::path::Path> = Arc::from(dir);
        ids.iter()
            .map(|id| {
                let path = dir.join(format!("{place}/{id}/report.json"));
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, body(id)).unwrap();
                let meta = std::fs::metadata(&path).unwrap();
                WalkedFile { path, root: Arc::clone(&root), size: meta.len(), named: false, meta: Some(meta) }
            })
            .collect()
    }

    /// The cache stamps a run's reports from the walk's metadata (no second `statx` per
    /// report), and keys the unit by its run, model and report paths.
    #[test]
    fn a_run_of_instance_reports_hands_the_walks_metadata_to_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let ids = ["psf__requests-2", "django__django-10", "astropy__astropy-1", "django__django-9"];
        let units = SWEBENCH.group(walked(dir.path(), &ids), &mut Vec::new());
        let [unit] = units.as_slice() else { panic!("one run, one unit: {units:?}") };
        let inputs = unit.inputs();
        assert_eq!(inputs.len(), ids.len());
        for (i, input) in inputs.iter().enumerate() {
            let seen = unit.seen(i, input).expect("the walk's metadata");
            assert_eq!(seen.len(), std::fs::metadata(input).unwrap().len());
        }
        assert!(unit.seen(0, &PathBuf::from("elsewhere/report.json")).is_none());
        assert!(unit.seen(ids.len(), &inputs[0]).is_none());
        let identity = format!("{unit:?}");
        assert!(identity.starts_with("InstanceLogs run 7:night-1 model 4:acme report "), "{identity}");
        assert!(identity.contains("/astropy__astropy-1/report.json report "), "{identity}");
    }

    /// The runs and diagnostics of what `group` made of `files`.
    fn read_groups(files: Vec<WalkedFile>) -> (Vec<(String, String, usize)>, Vec<String>) {
        let mut diagnostics = Vec::new();
        let units = SWEBENCH.group(files, &mut diagnostics);
        let mut runs = Vec::new();
        for unit in units {
            let read = unit.read(&mut evaltally_format::Scratch::default(), &evaltally_format::Options::default());
            diagnostics.extend(read.diagnostics);
            for r in read.runs {
                runs.push((r.run.clone(), r.model.clone(), r.len()));
            }
        }
        (runs, diagnostics.iter().map(|d| format!("{:?}: {}", d.severity, d.message)).collect())
    }

    /// SWE-smith writes a run's reports with no model level, each naming its model, and a
    /// `{"timed_out": true}` report for an instance it gave up on: one run, the model the
    /// reports name, the timeout errored.
    #[test]
    fn swe_smith_reports_are_one_run_of_the_model_they_name() {
        let dir = tempfile::tempdir().unwrap();
        let ids = [
            "pandas-dev__pandas.95280573.pr_53652",
            "pandas-dev__pandas.95280573.func_1__x",
            "jd__tenacity.0d40e76f.lm_1",
        ];
        let files = walked_at(dir.path(), "logs/run_evaluation/smith-1", &ids, |id| {
            if id.starts_with("jd__") {
                r#"{"timed_out": true, "timeout": 240}"#.to_string()
            } else {
                r#"{"patch_is_None": false, "patch_exists": true, "resolved": true, "model_name_or_path": "acme-7b"}"#
                    .to_string()
            }
        });
        let (runs, diagnostics) = read_groups(files);
        assert_eq!(
            runs,
            [("smith-1".to_string(), "acme-7b".to_string(), 1), ("smith-1".to_string(), "acme-7b".to_string(), 2)],
            "{diagnostics:?}"
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    /// OpenHands moves the harness's per-instance reports to `<output dir>/eval_outputs/`:
    /// one run named after the output folder, its model the name before `_maxiter_`, and
    /// covered (a fact) by the `output.jsonl` or the run report beside the folder.
    #[test]
    fn openhands_eval_outputs_are_one_run_unless_covered() {
        let dir = tempfile::tempdir().unwrap();
        let out = "CodeActAgent/acme-1.5_maxiter_100_N_v0.40.0-run_1";
        let ids = ["django__django-1", "django__django-2", "astropy__astropy-3"];
        let files = || walked_at(dir.path(), &format!("{out}/eval_outputs"), &ids, |_| r#"{"resolved": false}"#.into());
        let (runs, diagnostics) = read_groups(files());
        let run = "acme-1.5_maxiter_100_N_v0.40.0-run_1".to_string();
        assert_eq!(runs, [(run.clone(), "acme-1.5".into(), 1), (run, "acme-1.5".into(), 2)], "{diagnostics:?}");
        for covering in ["report.json", "output.jsonl"] {
            std::fs::write(dir.path().join(out).join(covering), "{}").unwrap();
            let (runs, diagnostics) = read_groups(files());
            assert!(runs.is_empty(), "{runs:?}");
            let [said] = diagnostics.as_slice() else { panic!("{diagnostics:?}") };
            assert!(said.starts_with("Info: not read: 3 per-instance reports (`report.json`), which "), "{said}");
            // `output.jsonl` first, when both are there: it is the one read.
            assert!(said.contains(&format!("{out}/{covering}` covers")), "{said}");
        }
    }
}
