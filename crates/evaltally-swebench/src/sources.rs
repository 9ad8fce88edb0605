//! Finding SWE-bench reports on disk, and reading them as runs.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Status, TestDetail};
use serde_json::Value;

use crate::detect::Format;
use crate::report::{InstanceReport, RunReport, repository, split_file_stem};

/// One run's worth of report data on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// One JSON document: a run report, or a lone per-instance report.
    Document {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: Format,
        /// For a run report: the folder of its per-instance reports, if present
        /// (`logs/run_evaluation/<run_id>/<model>/` beside it).
        logs: Option<PathBuf>,
    },
    /// A folder of per-instance `report.json` files that together make one run.
    InstanceLogs {
        /// The run.
        run: String,
        /// The model (`unknown` when the layout does not say).
        model: String,
        /// (instance id, report file), sorted by id.
        reports: Vec<(String, PathBuf)>,
    },
}

impl Source {
    /// The file or folder the source stands for, for messages.
    pub fn path(&self) -> &Path {
        match self {
            Source::Document { path, .. } => path,
            Source::InstanceLogs { reports, .. } => {
                reports.first().and_then(|(_, p)| p.parent()).and_then(Path::parent).unwrap_or(Path::new("."))
            }
        }
    }

    /// Total size in bytes (0 where unknown), for scheduling large sources first.
    pub fn size(&self) -> u64 {
        let len = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        match self {
            Source::Document { path, .. } => len(path),
            Source::InstanceLogs { reports, .. } => reports.iter().map(|(_, p)| len(p)).sum(),
        }
    }
}

pub(crate) use evaltally_format::json::{parse as parse_json, read as read_json, stem as file_stem};

/// Where a per-instance `report.json` sits: the layouts that say which run it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// The harness's `…/logs/run_evaluation/<run_id>/<model>/<id>/report.json`; the run
    /// report `<model>.<run_id>.json` in the folder above `logs/` covers them.
    Harness,
    /// SWE-bench/experiments' `…/<run>/logs/<id>/report.json`.
    Experiments,
    /// SWE-smith's `…/logs/run_evaluation/<run_id>/<id>/report.json`, with no model level.
    SweSmith,
    /// OpenHands' `<output dir>/eval_outputs/<id>/report.json` (the harness's folder, moved
    /// by `eval_infer.sh`); `<output dir>/output.jsonl`, or the run report moved to
    /// `<output dir>/report.json`, covers them.
    OpenHands,
}

/// (run, model) of a per-instance report at one of the [`Layout`]s; `None` for other places.
pub(crate) fn instance_group(report: &Path) -> Option<(String, String, Layout)> {
    instance_place(report).map(|(run, model, layout)| (run.into_owned(), model.into_owned(), layout))
}

/// [`instance_group`], borrowed from the path where its names are UTF-8. The model is
/// `unknown` where the layout does not say it; OpenHands names its output folders
/// `<model>_maxiter_<n>_N_<version>…`, so the model is the name before `_maxiter_`.
pub(crate) fn instance_place(report: &Path) -> Option<(Cow<'_, str>, Cow<'_, str>, Layout)> {
    let unknown = || Cow::Borrowed("unknown");
    if let Some([model, run, rv, logs]) = evaltally_format::names_above::<4>(report, 2)
        && rv == "run_evaluation"
        && logs == "logs"
    {
        return Some((run, model, Layout::Harness));
    }
    if let Some([run, rv, logs]) = evaltally_format::names_above::<3>(report, 2)
        && rv == "run_evaluation"
        && logs == "logs"
    {
        return Some((run, unknown(), Layout::SweSmith));
    }
    match evaltally_format::names_above::<2>(report, 2)? {
        [logs, run] if logs == "logs" => Some((run, unknown(), Layout::Experiments)),
        [outputs, run] if outputs == "eval_outputs" => {
            let model = model_of_folder(&run).map_or_else(unknown, |m| Cow::Owned(m.to_string()));
            Some((run, model, Layout::OpenHands))
        }
        _ => None,
    }
}

/// The model of OpenHands' `report.json`, the run report its `eval_infer.sh` moves into the
/// run's output folder `<model>_maxiter_<n>_N_<version>…`: the name before `_maxiter_`.
fn openhands_model(path: &Path) -> Option<String> {
    if evaltally_format::file_name(path)? != "report.json" {
        return None;
    }
    let [folder] = evaltally_format::names_above::<1>(path, 1)?;
    model_of_folder(&folder).map(str::to_string)
}

/// The model an OpenHands output folder's name gives, `<model>_maxiter_<n>_N_<version>…`.
pub(crate) fn model_of_folder(folder: &str) -> Option<&str> {
    folder.split_once("_maxiter_").map(|(model, _)| model).filter(|m| !m.is_empty())
}

/// The model of a run of per-instance reports: the one its place names, else the one
/// every report that names a model names (SWE-smith's `model_name_or_path`), else `unknown`.
pub(crate) fn logs_model<'a>(model: &'a str, reports: &'a [InstanceReport]) -> &'a str {
    if model != "unknown" {
        return model;
    }
    let mut named = reports.iter().filter_map(|r| r.model.as_deref());
    match named.next() {
        Some(first) if named.all(|m| m == first) => first,
        _ => model,
    }
}

/// What reading a [`Source`] produced.
#[derive(Debug, Default)]
pub struct SourceOutcome {
    /// The run's tests, one entry per category.
    pub runs: Vec<CategoryRun>,
    /// Problems met.
    pub diagnostics: Vec<Diagnostic>,
}

/// The run name and model a document stands for.
pub fn identity(path: &Path, format: Format, doc: &Value) -> (String, String) {
    let stem = file_stem(path);
    match format {
        // `<model>.<run_id>.json`, as the harness names it. A name that says no model
        // (OpenHands' `report.json`, OpenHands/benchmarks' `output.report.json`) is a run
        // named after its file, which the analyzer's naming rule names after its folder, of
        // the model the report names (`model_name_or_path`) or its folder's name gives.
        Format::RunReport => {
            let (model, run) = split_file_stem(&stem);
            let (model, run) = match model {
                Some(model) if !evaltally_format::naming::is_generic(&stem) => (model.to_string(), run.to_string()),
                _ => {
                    let named = doc.get("model_name_or_path").and_then(Value::as_str).filter(|m| !m.is_empty());
                    let model = named.map(str::to_string).or_else(|| openhands_model(path));
                    (model.unwrap_or_else(|| "unknown".into()), stem.clone())
                }
            };
            (run, model)
        }
        Format::InstanceReport => (
            stem,
            doc.get("model_name").or_else(|| doc.get("model")).and_then(Value::as_str).unwrap_or("unknown").to_string(),
        ),
        // The run is named after the file (after its folder when the name is generic, as
        // `evaluation_report.json` is: the analyzer's naming rule); the model is the one
        // every entry names (SWE-smith's `model_name_or_path`), else unknown.
        Format::InstanceMap => {
            let mut models = doc
                .as_object()
                .into_iter()
                .flat_map(|m| m.values())
                .map(|v| v.get("model_name_or_path").and_then(Value::as_str));
            let first = models.next().flatten();
            let model = first.filter(|f| models.all(|m| m == Some(*f))).unwrap_or("unknown");
            (stem, model.to_string())
        }
    }
}

/// The instance reports of a merged map, in the document's order: an entry that is no
/// instance report is an error naming it (and left out).
pub fn map_reports(path: &Path, doc: &Value, diagnostics: &mut Vec<Diagnostic>) -> Vec<InstanceReport> {
    let Some(m) = doc.as_object() else { return Vec::new() };
    let mut out = Vec::with_capacity(m.len());
    for (id, entry) in m {
        match InstanceReport::from_value(entry, Some(id)) {
            Some(r) => {
                diagnostics.extend(r.notes.iter().map(|n| Diagnostic::warning(path, format!("instance `{id}`: {n}"))));
                out.push(r);
            }
            None => diagnostics.push(Diagnostic::error(
                path,
                format!(
                    "instance `{id}`: expected an instance report (`{{\"resolved\": …}}`), found {}; left out",
                    evaltally_format::check::found(entry)
                ),
            )),
        }
    }
    out
}

/// Reads a source into category runs.
pub fn read(source: &Source) -> SourceOutcome {
    let mut out = SourceOutcome::default();
    match source {
        Source::Document { path, format, .. } => match read_json(path) {
            Ok(doc) => return read_document(path, *format, &doc),
            Err(d) => out.diagnostics.push(d),
        },
        Source::InstanceLogs { run, model, reports } => {
            let parsed = instance_reports(reports, &mut Vec::new(), true, &mut out.diagnostics);
            out.runs = instance_runs(run, logs_model(model, &parsed), &parsed);
        }
    }
    out
}

/// Every per-instance report of a run folder, each file read once into `buf` (the fast path
/// first unless `tests_status` is wanted), in folder order: an unreadable or broken report
/// is an error diagnostic, what a report's reader tolerated a warning, and an instance that
/// a second report also claims (a report keyed differently from its folder) a warning; the
/// first report of an instance is kept.
pub(crate) fn instance_reports(
    reports: &[(String, PathBuf)],
    buf: &mut Vec<u8>,
    tests_status: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<InstanceReport> {
    let mut parsed: Vec<InstanceReport> = Vec::with_capacity(reports.len());
    let mut first: std::collections::HashMap<String, &Path> = std::collections::HashMap::with_capacity(reports.len());
    for (id, path) in reports {
        if let Err(e) = evaltally_format::read_file(path, 0, buf) {
            diagnostics.push(Diagnostic::error(path, evaltally_format::file::cannot_read(&e)));
            continue;
        }
        let fast = if tests_status {
            None
        } else {
            crate::fast::instance_report(&evaltally_format::Input::new(path, buf, false), id).ok()
        };
        let report = match fast.map_or_else(|| instance_report(path, id, buf, diagnostics), Ok) {
            Ok(report) => report,
            Err(d) => {
                diagnostics.push(d);
                continue;
            }
        };
        diagnostics.extend(report.notes.iter().map(|n| Diagnostic::warning(path, n.clone())));
        if let Some(earlier) = first.get(&report.instance_id) {
            let id = &report.instance_id;
            let message = format!("instance `{id}` already has a report ({}); the first is kept", earlier.display());
            diagnostics.push(Diagnostic::warning(path, message));
        } else {
            first.insert(report.instance_id.clone(), path);
            parsed.push(report);
        }
    }
    parsed
}

/// Reads a report document already parsed (its format known) into category runs.
pub fn read_document(path: &Path, format: Format, doc: &Value) -> SourceOutcome {
    let mut out = SourceOutcome::default();
    let (run, model) = identity(path, format, doc);
    match format {
        Format::RunReport => {
            let report = RunReport::from_value(doc);
            out.diagnostics.extend(report.contradictions().into_iter().map(|c| Diagnostic::warning(path, c)));
            out.runs = report.category_runs(&run, &model);
        }
        Format::InstanceReport => {
            let fallback = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            match InstanceReport::from_value(doc, fallback.as_deref()) {
                Some(r) => {
                    out.diagnostics.extend(r.notes.iter().map(|n| Diagnostic::warning(path, n.clone())));
                    out.runs = instance_runs(&run, &model, std::slice::from_ref(&r));
                }
                None => out.diagnostics.push(Diagnostic::error(path, "not a SWE-bench instance report")),
            }
        }
        Format::InstanceMap => {
            let reports = map_reports(path, doc, &mut out.diagnostics);
            out.runs = instance_runs(&run, &model, &reports);
        }
    }
    out
}

/// One per-instance report of a run folder, from its bytes; `id` is its folder's name.
pub(crate) fn instance_report(
    path: &Path,
    id: &str,
    bytes: &[u8],
    notes: &mut Vec<Diagnostic>,
) -> Result<InstanceReport, Diagnostic> {
    // The harness counts an empty or broken report.json as an error (v4.1+).
    let v = evaltally_format::json::parse_noting(path, bytes, notes)?;
    InstanceReport::from_value(&v, Some(id)).ok_or_else(|| {
        let found = match v.as_object() {
            Some(m) => format!("an object with {} keys and no `resolved`", m.len()),
            None => "no object".to_string(),
        };
        Diagnostic::error(
            path,
            format!(
                "not a SWE-bench instance report: expected `{{\"resolved\": …}}` or `{{instance_id: {{\"resolved\": …}}}}`, found {found}"
            ),
        )
    })
}

pub(crate) fn instance_runs(run: &str, model: &str, reports: &[InstanceReport]) -> Vec<CategoryRun> {
    crate::report::runs_by_repository(
        run,
        model,
        reports.iter().map(|r| (r.instance_id.as_str(), r.outcome(), r.failure_label())),
    )
}

/// Everything a source says about instance `id`, or `None` when it does not list it.
pub fn show(source: &Source, id: &str) -> Result<Option<TestDetail>, Diagnostic> {
    match source {
        Source::Document { path, format, logs } => {
            let doc = read_json(path)?;
            Ok(show_document(path, *format, logs.as_deref(), &doc, id))
        }
        Source::InstanceLogs { run, model, reports } => {
            // The instance is the report's key, as `stability` reads it: the report in the
            // folder of that name first, then any other that is keyed so.
            let (named, others): (Vec<_>, Vec<_>) = reports.iter().partition(|(folder, _)| folder == id);
            for (folder, path) in named.into_iter().chain(others) {
                let Ok(v) = read_json(path) else { continue };
                let Some(r) = InstanceReport::from_value(&v, Some(folder)).filter(|r| r.instance_id == id) else {
                    continue;
                };
                let mut d = TestDetail::new(
                    run,
                    logs_model(model, std::slice::from_ref(&r)),
                    &repository(id),
                    id,
                    Status::Passed,
                );
                fill_from_instance(&mut d, &r);
                return Ok(Some(d));
            }
            Ok(None)
        }
    }
}

/// Everything a parsed report document says about instance `id`; `logs` is the folder of a
/// run report's per-instance reports, when it has one.
pub fn show_document(path: &Path, format: Format, logs: Option<&Path>, doc: &Value, id: &str) -> Option<TestDetail> {
    let (run, model) = identity(path, format, doc);
    match format {
        Format::RunReport => {
            let report = RunReport::from_value(doc);
            let (_, outcome, label) = report.verdicts().into_iter().find(|(i, _, _)| *i == id)?;
            let status = Status::from(outcome);
            let mut d = TestDetail::new(&run, &model, &repository(id), id, status);
            if status != Status::Passed {
                d.error_type = label.map(str::to_string);
                d.error_message = report.failure_reasons.get(id).and_then(Value::as_str).map(str::to_string);
            }
            if let Some(dir) = logs {
                let file = dir.join(id).join("report.json");
                if let Ok(v) = read_json(&file)
                    && let Some(r) = InstanceReport::from_value(&v, Some(id))
                {
                    fill_from_instance(&mut d, &r);
                }
            }
            Some(d)
        }
        Format::InstanceReport => {
            let fallback = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            InstanceReport::from_value(doc, fallback.as_deref()).filter(|r| r.instance_id == id).map(|r| {
                let mut d = TestDetail::new(&run, &model, &repository(id), id, Status::Passed);
                fill_from_instance(&mut d, &r);
                d
            })
        }
        Format::InstanceMap => {
            let entry = doc.get(id)?;
            let r = InstanceReport::from_value(entry, Some(id))?;
            let mut d = TestDetail::new(&run, &model, &repository(id), id, Status::Passed);
            fill_from_instance(&mut d, &r);
            Some(d)
        }
    }
}

fn fill_from_instance(d: &mut TestDetail, r: &InstanceReport) {
    d.status = Status::from(r.outcome());
    if let Some(label) = r.failure_label() {
        d.error_type.get_or_insert_with(|| label.to_string());
        d.error_message = r.failing_tests().map(|t| format!("failing tests: {t}")).or(d.error_message.take());
    }
    d.error_details.clone_from(&r.tests_status);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run report is `<model>.<run_id>.json`; one whose name says no model takes it from
    /// the report, else from an OpenHands output folder's name, and is named after its file
    /// (which the analyzer names after its folder).
    #[test]
    fn a_run_report_whose_name_says_no_model_takes_the_one_it_names() {
        let named = serde_json::json!({"model_name_or_path": "litellm_proxy/acme-1.5", "resolved_ids": []});
        let bare = serde_json::json!({"resolved_ids": []});
        let cases = [
            ("logs/acme__gpt.night-1.json", &named, ("night-1", "acme__gpt")),
            ("out/output.report.json", &named, ("output.report", "litellm_proxy/acme-1.5")),
            ("out/acme-1.5_maxiter_100_N_v1-run_1/report.json", &bare, ("report", "acme-1.5")),
            ("out/acme-1.5_maxiter_100_N_v1-run_1/report.json", &named, ("report", "litellm_proxy/acme-1.5")),
            ("out/report.json", &bare, ("report", "unknown")),
        ];
        for (path, doc, (run, model)) in cases {
            let got = identity(Path::new(path), Format::RunReport, doc);
            assert_eq!((got.0.as_str(), got.1.as_str()), (run, model), "{path}");
        }
    }

    /// The places of per-instance reports, and the run and model each gives.
    #[test]
    fn instance_places_name_their_run_and_model() {
        let cases = [
            ("x/logs/run_evaluation/night-1/acme/a__b-1/report.json", Some(("night-1", "acme", Layout::Harness))),
            (
                "x/logs/run_evaluation/smith-1/a__b.0123abcd.pr_1/report.json",
                Some(("smith-1", "unknown", Layout::SweSmith)),
            ),
            ("sub-1/logs/a__b-1/report.json", Some(("sub-1", "unknown", Layout::Experiments))),
            (
                "o/acme_maxiter_30_N_v1/eval_outputs/a__b-1/report.json",
                Some(("acme_maxiter_30_N_v1", "acme", Layout::OpenHands)),
            ),
            ("o/run-1/eval_outputs/a__b-1/report.json", Some(("run-1", "unknown", Layout::OpenHands))),
            ("x/logs/run_evaluation/smith-1/report.json", None),
            ("eval_outputs/a__b-1/report.json", None),
        ];
        for (path, want) in cases {
            let got = instance_place(Path::new(path));
            let got = got.as_ref().map(|(run, model, layout)| (run.as_ref(), model.as_ref(), *layout));
            assert_eq!(got, want, "{path}");
        }
    }
}
