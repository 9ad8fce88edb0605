//! Finding SF-Bench and SWE-bench reports on disk, and reading them as runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Outcome, Status, TestDetail};
use serde_json::Value;

use crate::detect::{Format, detect};
use crate::report::{Report, TaskStatus, sfbench_category};
use crate::swebench::{InstanceReport, RunOutcome, RunReport, repository, split_file_stem};

/// A human-readable list of the report files and folders [`discover`] knows, for
/// "nothing found" messages.
pub const KNOWN: &str = concat!(
    "  SF-Bench report.json (schema v2; v1 shapes are read by `validate` and `convert`)\n",
    "  SWE-bench run reports <model>.<run_id>.json\n",
    "  SWE-bench per-instance reports logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json or logs/<instance_id>/report.json",
);

/// How deep below a given folder reports are looked for.
const MAX_DEPTH: usize = 10;
/// JSON files larger than this are not sniffed for a format (reports are far smaller).
const MAX_SNIFF_BYTES: u64 = 64 << 20;

/// One run's worth of report data on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// One JSON document: an SF-Bench report, a SWE-bench run report, or a lone
    /// per-instance report.
    Document {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: Format,
        /// For a SWE-bench run report: the folder of its per-instance reports, if present
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

fn file_stem(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.strip_suffix(".json").unwrap_or(&name).to_string()
}

pub(crate) fn read_json(path: &Path) -> Result<Value, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(path, format!("cannot read file: {e}")))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.clone(), |p| msg[..p].to_string());
        Diagnostic::error(path, format!("not valid JSON: {msg}")).at(e.line() as u64, e.column() as u64)
    })
}

/// (run, model) of a per-instance report at `…/logs/run_evaluation/<run_id>/<model>/<id>/report.json`
/// or `…/<run>/logs/<id>/report.json`; `None` for other places.
fn instance_group(report: &Path) -> Option<(String, String)> {
    let inst_dir = report.parent()?;
    let names: Vec<String> = inst_dir
        .ancestors()
        .skip(1)
        .take(4)
        .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect::<Option<_>>()?;
    match names.as_slice() {
        [model, run, rv, logs, ..] if rv == "run_evaluation" && logs == "logs" => Some((run.clone(), model.clone())),
        [logs, run, ..] if logs == "logs" => Some((run.clone(), "unknown".to_string())),
        _ => None,
    }
}

/// Finds the reports at or below `path`: a report file, or a folder holding report files
/// and per-instance report folders. Files that are not reports are passed over; a JSON
/// file that cannot be read becomes an error diagnostic.
pub fn discover(path: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Source> {
    let mut files = Vec::new();
    collect(path, 0, &mut files, diags);
    let mut documents = Vec::new();
    let mut groups: BTreeMap<(String, String), Vec<(String, PathBuf)>> = BTreeMap::new();
    for file in files {
        let is_instance_report = file.file_name().is_some_and(|n| n == "report.json");
        if is_instance_report && let Some(key) = instance_group(&file) {
            let id =
                file.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            groups.entry(key).or_default().push((id, file));
            continue;
        }
        if std::fs::metadata(&file).map_or(0, |m| m.len()) > MAX_SNIFF_BYTES {
            continue;
        }
        match read_json(&file) {
            Ok(v) => {
                if let Some(format) = detect(&v) {
                    documents.push((file, format));
                }
            }
            // A lone file the user named must be a report; inside folders, stray JSON that
            // does not parse is reported too, since a broken report looks exactly like that.
            Err(d) => diags.push(d),
        }
    }
    let mut out = Vec::new();
    for (path, format) in documents {
        let mut logs = None;
        if format == Format::SwebenchRunReport {
            let stem = file_stem(&path);
            let (model, run) = split_file_stem(&stem);
            if let Some(model) = model {
                let dir =
                    path.parent().unwrap_or(Path::new(".")).join("logs").join("run_evaluation").join(run).join(model);
                // The run report already says what each instance did: its per-instance
                // reports only add details for `show`.
                if groups.remove(&(run.to_string(), model.to_string())).is_some() || dir.is_dir() {
                    logs = Some(dir);
                }
            }
        }
        out.push(Source::Document { path, format, logs });
    }
    for ((run, model), mut reports) in groups {
        reports.sort();
        out.push(Source::InstanceLogs { run, model, reports });
    }
    out
}

fn collect(path: &Path, depth: usize, out: &mut Vec<PathBuf>, diags: &mut Vec<Diagnostic>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let entries = match std::fs::read_dir(path) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(path, format!("cannot list folder: {e}")));
            return;
        }
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        if child.is_dir() {
            if depth < MAX_DEPTH {
                collect(&child, depth + 1, out, diags);
            }
        } else if child.extension().is_some_and(|e| e == "json") {
            out.push(child);
        }
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
        Format::SwebenchRunReport => {
            let (model, run) = split_file_stem(&stem);
            (run.to_string(), model.unwrap_or("unknown").to_string())
        }
        Format::SfbenchV2 => {
            let r = Report::from_value(doc);
            (r.run_id.unwrap_or(stem), r.model_name.unwrap_or_else(|| "unknown".into()))
        }
        _ => (
            stem,
            doc.get("model_name").or_else(|| doc.get("model")).and_then(Value::as_str).unwrap_or("unknown").to_string(),
        ),
    }
}

/// Reads a source into category runs.
pub fn read(source: &Source) -> SourceOutcome {
    let mut out = SourceOutcome::default();
    match source {
        Source::Document { path, format, .. } => {
            let doc = match read_json(path) {
                Ok(v) => v,
                Err(d) => {
                    out.diagnostics.push(d);
                    return out;
                }
            };
            let (run, model) = identity(path, *format, &doc);
            match format {
                Format::SfbenchV2 => {
                    if !doc.get("instances").is_some_and(Value::is_array) {
                        out.diagnostics.push(Diagnostic::warning(
                            path,
                            "`instances` is missing or not a list: the report holds no instances to analyse",
                        ));
                    }
                    out.runs = Report::from_value(&doc).category_runs(&run);
                }
                Format::SwebenchRunReport => out.runs = RunReport::from_value(&doc).category_runs(&run, &model),
                Format::SwebenchInstanceReport => {
                    let fallback = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
                    match InstanceReport::from_value(&doc, fallback.as_deref()) {
                        Some(r) => out.runs = instance_runs(&run, &model, std::slice::from_ref(&r)),
                        None => out.diagnostics.push(Diagnostic::error(path, "not a SWE-bench instance report")),
                    }
                }
                other => out.diagnostics.push(Diagnostic::warning(
                    path,
                    format!(
                        "{} files hold no per-instance outcomes to analyse; convert them with `evaltally convert --to sfbench-v2`",
                        other.name()
                    ),
                )),
            }
        }
        Source::InstanceLogs { run, model, reports } => {
            let mut parsed = Vec::with_capacity(reports.len());
            for (id, path) in reports {
                match read_json(path) {
                    Ok(v) => match InstanceReport::from_value(&v, Some(id)) {
                        Some(r) => parsed.push(r),
                        None => out.diagnostics.push(Diagnostic::error(
                            path,
                            "not a SWE-bench instance report: expected `{\"resolved\": …}` or `{instance_id: {\"resolved\": …}}`",
                        )),
                    },
                    // The harness counts an empty or broken report.json as an error (v4.1+).
                    Err(d) => out.diagnostics.push(d),
                }
            }
            out.runs = instance_runs(run, model, &parsed);
        }
    }
    out
}

fn instance_runs(run: &str, model: &str, reports: &[InstanceReport]) -> Vec<CategoryRun> {
    let mut by_repo: BTreeMap<String, CategoryRun> = BTreeMap::new();
    for r in reports {
        let repo = repository(&r.instance_id);
        let entry = by_repo.entry(repo.clone()).or_insert_with(|| CategoryRun::new(run, model, repo));
        match r.failure_label() {
            None => entry.push(&r.instance_id, Outcome::Pass, None),
            Some(label) => entry.push(&r.instance_id, Outcome::Fail, Some(label)),
        }
    }
    by_repo.into_values().collect()
}

/// Everything a source says about instance `id`, or `None` when it does not list it.
pub fn show(source: &Source, id: &str) -> Result<Option<TestDetail>, Diagnostic> {
    match source {
        Source::Document { path, format, logs } => {
            let doc = read_json(path)?;
            let (run, model) = identity(path, *format, &doc);
            match format {
                Format::SfbenchV2 => {
                    Ok(Report::from_value(&doc).instances.iter().find(|i| i.instance_id == id).map(|i| {
                        let status = match (&i.status, i.resolved) {
                            (TaskStatus::Skipped, _) => Status::NotRun,
                            (_, true) => Status::Passed,
                            _ => Status::Failed,
                        };
                        let mut d = TestDetail::new(&run, &model, sfbench_category(id), id, status);
                        if status == Status::Failed {
                            d.error_type = Some(i.error_type.clone().unwrap_or_else(|| i.status.as_str().to_string()));
                        }
                        d.error_message.clone_from(&i.error_message);
                        d.error_details = serde_json::to_value(&i.validation).ok();
                        d.answer = i.solution_patch.clone().map(Value::String);
                        d.latency_seconds = Some(i.duration_seconds);
                        d
                    }))
                }
                Format::SwebenchRunReport => {
                    let report = RunReport::from_value(&doc);
                    let Some(outcome) = report.outcome_of(id) else { return Ok(None) };
                    let status = if outcome == RunOutcome::Resolved { Status::Passed } else { Status::Failed };
                    let mut d = TestDetail::new(&run, &model, &repository(id), id, status);
                    if status == Status::Failed {
                        d.error_type = Some(outcome.label().to_string());
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
                    Ok(Some(d))
                }
                Format::SwebenchInstanceReport => {
                    let fallback = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
                    Ok(InstanceReport::from_value(&doc, fallback.as_deref()).filter(|r| r.instance_id == id).map(|r| {
                        let mut d = TestDetail::new(&run, &model, &repository(id), id, Status::Passed);
                        fill_from_instance(&mut d, &r);
                        d
                    }))
                }
                _ => Ok(None),
            }
        }
        Source::InstanceLogs { run, model, reports } => {
            let Some((_, path)) = reports.iter().find(|(i, _)| i == id) else { return Ok(None) };
            let v = read_json(path)?;
            let Some(r) = InstanceReport::from_value(&v, Some(id)) else { return Ok(None) };
            let mut d = TestDetail::new(run, model, &repository(id), id, Status::Passed);
            fill_from_instance(&mut d, &r);
            Ok(Some(d))
        }
    }
}

fn fill_from_instance(d: &mut TestDetail, r: &InstanceReport) {
    d.status = if r.resolved { Status::Passed } else { Status::Failed };
    if let Some(label) = r.failure_label() {
        d.error_type.get_or_insert_with(|| label.to_string());
        d.error_message = r.failing_tests().map(|t| format!("failing tests: {t}")).or(d.error_message.take());
    }
    d.error_details.clone_from(&r.tests_status);
}
