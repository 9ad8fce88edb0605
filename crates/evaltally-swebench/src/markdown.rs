//! OpenHands' Markdown summary of a SWE-bench evaluation, `<output>.swebench_eval.md`
//! (`# SWE-bench Report`), written by
//! `evaluation/benchmarks/swe_bench/scripts/eval/update_output_with_eval.py` from the remote
//! runtime's `<output>.swebench_eval.jsonl`. Every instance not resolved is listed under
//! `Unresolved Instances`; the empty-patch, error and timed-out ones are listed again under
//! their own headings (the timed-out ones under `Incomplete Instances`).
//!
//! The same script rewrites `<output>.jsonl` with each instance's `report`, so a summary
//! found beside that file is set aside in one line: the outcomes are read from there. A
//! summary found alone is one run, read here. (The script's other summary, `README.md` from
//! the harness's `report.json`, is not read: no Markdown file but this one is looked at.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, Outcome, Status, TestDetail, TestRecord};
use evaltally_format::{Folder, Input, file_name};
use serde_json::Value;

use crate::report::{repository, runs_by_repository};

/// The format name of the files, for `validate` and records.
pub const FORMAT_NAME: &str = "swebench-openhands-markdown";

/// The first line of every summary.
const TITLE: &str = "# SWE-bench Report";

/// A summary's file name ends so; what comes before is the output's stem.
const SUFFIX: &str = ".swebench_eval.md";

/// Whether the file's name is the one the writer gives a summary.
pub(crate) fn is_name(path: &Path) -> bool {
    file_name(path).and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(SUFFIX))
}

/// Whether the bytes start with the summary's title line.
pub(crate) fn is_summary(bytes: &[u8]) -> bool {
    let bytes = evaltally_format::json::without_bom(bytes);
    bytes.strip_prefix(TITLE.as_bytes()).is_some_and(|rest| rest.first().is_none_or(|&c| c == b'\n' || c == b'\r'))
}

/// The files beside a summary that reading it depends on, among those the walk found: the
/// `<output>.jsonl` it summarises, the `<output>.swebench_eval.jsonl` it was made from (either
/// is read instead) and `metadata.json` (the run's model).
pub(crate) fn beside(path: &Path, folder: &Folder<'_>) -> Vec<PathBuf> {
    let Some(stem) = file_name(path).and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(SUFFIX)) else {
        return Vec::new();
    };
    let crate::openhands::Siblings { output, evaluation, .. } = crate::openhands::Siblings::of(stem);
    let dir = path.parent().unwrap_or(Path::new(""));
    let names = folder.names();
    [output.as_str(), evaluation.as_str(), "metadata.json"]
        .iter()
        .filter(|n| names.contains(n))
        .map(|n| dir.join(n))
        .collect()
}

/// What a summary with the file it summarises beside it is: said in one line, not read.
pub(crate) fn aside(file: &Input<'_>) -> Option<String> {
    let summarised = file.beside().iter().find(|p| file_name(p).is_some_and(|n| n != "metadata.json"))?;
    let name = file_name(summarised).map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Some(format!(
        "OpenHands' Markdown summary of a SWE-bench evaluation: the outcomes are read from `{name}` beside it"
    ))
}

/// A heading of the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// Before any `##` heading: the title and the description.
    Preamble,
    Summary,
    Resolved,
    Unresolved,
    Error,
    EmptyPatch,
    Incomplete,
    /// A heading the writer does not write: its lines are not read.
    Other,
}

impl Section {
    fn of(heading: &str) -> Self {
        match heading {
            "Summary" => Self::Summary,
            "Resolved Instances" => Self::Resolved,
            "Unresolved Instances" => Self::Unresolved,
            "Error Instances" => Self::Error,
            "Empty Patch Instances" => Self::EmptyPatch,
            "Incomplete Instances" => Self::Incomplete,
            _ => Self::Other,
        }
    }

    /// The summary's count of the instances the section lists.
    fn count_key(self) -> Option<&'static str> {
        match self {
            Self::Resolved => Some("resolved instances"),
            Self::Unresolved => Some("unresolved instances"),
            Self::Error => Some("error instances"),
            Self::EmptyPatch => Some("empty patch instances"),
            _ => None,
        }
    }
}

/// The headings whose instances the summary counts.
const COUNTED: [Section; 4] = [Section::Resolved, Section::Unresolved, Section::Error, Section::EmptyPatch];

/// The lists an instance is in.
#[derive(Clone, Copy, Debug, Default)]
struct Lists {
    resolved: bool,
    unresolved: bool,
    error: bool,
    empty_patch: bool,
    incomplete: bool,
}

/// One instance as the summary lists it.
struct Instance {
    id: String,
    /// The line it is first listed on.
    line: u64,
    lists: Lists,
}

impl Lists {
    /// The instance's verdict, in the order of `output.jsonl`'s `report`: resolved passes;
    /// an empty patch fails; an error is errored; an incomplete instance timed out
    /// (errored); any other listed instance fails, its tests failed.
    fn verdict(self) -> (Outcome, Option<&'static str>) {
        if self.resolved {
            (Outcome::Pass, None)
        } else if self.empty_patch {
            (Outcome::Fail, Some("empty_patch"))
        } else if self.error {
            (Outcome::Errored, Some("error"))
        } else if self.incomplete {
            (Outcome::Errored, Some("timeout"))
        } else {
            (Outcome::Fail, Some("tests_failed"))
        }
    }
}

/// The instance id of a list line, `- [<id>](<log>)`.
fn listed_id(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("- [")?;
    let (id, link) = rest.split_once("](")?;
    (!id.is_empty() && link.ends_with(')')).then_some(id)
}

/// Reads the summary: an error for a list line not of the writer's shape (left out) and a
/// summary line that is not `- <what>: <count>`; a warning for a heading the writer does
/// not write, an instance in both the resolved and the unresolved list, and a count the
/// lists disagree with.
fn parse(path: &Path, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Instance> {
    let mut section = Section::Preamble;
    let mut counts: Vec<(String, u64, u64)> = Vec::new();
    let mut listed: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut at: BTreeMap<String, usize> = BTreeMap::new();
    let mut instances: Vec<Instance> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i as u64 + 1;
        let line = raw.trim_end();
        if let Some(heading) = line.strip_prefix("## ") {
            section = Section::of(heading.trim());
            if section == Section::Other {
                diagnostics.push(
                    Diagnostic::warning(
                        path,
                        format!("heading `{}` is not one the writer writes; its lines are not read", heading.trim()),
                    )
                    .at_line(number),
                );
            }
            continue;
        }
        if line.is_empty() || matches!(section, Section::Preamble | Section::Other) {
            continue;
        }
        if section == Section::Summary {
            let count = line
                .strip_prefix("- ")
                .and_then(|l| l.split_once(": "))
                .and_then(|(what, n)| Some((what.to_string(), n.trim().parse::<u64>().ok()?)));
            match count {
                Some((what, n)) => counts.push((what, n, number)),
                None => diagnostics
                    .push(Diagnostic::error(path, "expected `- <what> instances: <count>`; not read").at(number, 1)),
            }
            continue;
        }
        let Some(id) = listed_id(line) else {
            diagnostics.push(Diagnostic::error(path, "expected `- [<instance id>](<log>)`; left out").at(number, 1));
            continue;
        };
        let j = *at.entry(id.to_string()).or_insert_with(|| {
            instances.push(Instance { id: id.to_string(), line: number, lists: Lists::default() });
            instances.len() - 1
        });
        let lists = &mut instances[j].lists;
        let flag = match section {
            Section::Resolved => &mut lists.resolved,
            Section::Unresolved => &mut lists.unresolved,
            Section::Error => &mut lists.error,
            Section::EmptyPatch => &mut lists.empty_patch,
            _ => &mut lists.incomplete,
        };
        if std::mem::replace(flag, true) {
            diagnostics.push(
                Diagnostic::warning(path, format!("instance {id} is listed twice under this heading")).at_line(number),
            );
            continue;
        }
        if lists.resolved && lists.unresolved {
            diagnostics.push(
                Diagnostic::warning(
                    path,
                    format!("instance {id} is both resolved and unresolved; counted as resolved"),
                )
                .at_line(number),
            );
        }
        if let Some(key) = section.count_key() {
            *listed.entry(key).or_default() += 1;
        }
    }
    for (what, n, number) in &counts {
        let Some(key) = COUNTED.iter().find_map(|s| s.count_key().filter(|k| k == what)) else { continue };
        let found = listed.get(key).copied().unwrap_or(0);
        if found != *n {
            diagnostics.push(
                Diagnostic::warning(path, format!("the summary says {what}: {n}, the list under it holds {found}"))
                    .at_line(*number),
            );
        }
    }
    instances
}

/// The summary's text, or an error when it is not UTF-8 or does not start with the title.
fn text<'a>(file: &Input<'a>) -> Result<&'a str, Diagnostic> {
    let text = std::str::from_utf8(file.text_bytes())
        .map_err(|_| Diagnostic::error(file.path, "not UTF-8: expected OpenHands' Markdown summary"))?;
    if !is_summary(text.as_bytes()) {
        return Err(Diagnostic::error(file.path, format!("expected `{TITLE}` on the first line")).at(1, 1));
    }
    Ok(text)
}

/// The run's model: `llm_config.model` (`llm.model` in the V1 harness) of `metadata.json`
/// beside the summary; else the run folder's name before `_maxiter_` (OpenHands names run
/// folders `<model>_maxiter_<n>_N_<version>…`), with a warning; else `unknown`, a warning.
fn model(file: &Input<'_>, diagnostics: &mut Vec<Diagnostic>) -> String {
    let metadata = file.beside().iter().find(|p| file_name(p).is_some_and(|n| n == "metadata.json"));
    if let Some(path) = metadata {
        let doc =
            evaltally_format::file::read(path).ok().and_then(|b| evaltally_format::json::from_slice::<Value>(&b).ok());
        let named =
            doc.as_ref().and_then(|d| d.get("llm_config").or_else(|| d.get("llm"))).and_then(|l| l.get("model"));
        if let Some(Value::String(m)) = named.filter(|m| m.as_str().is_some_and(|s| !s.is_empty())) {
            return m.clone();
        }
        diagnostics
            .push(Diagnostic::warning(file.path, format!("`{}` names no model (`llm_config.model`)", path.display())));
    }
    let folder = file.path.parent().and_then(file_name).and_then(|n| n.to_str()).unwrap_or("");
    if let Some(model) = crate::sources::model_of_folder(folder) {
        if metadata.is_none() {
            diagnostics.push(Diagnostic::warning(
                file.path,
                format!("no metadata.json beside it: the model `{model}` is read from the folder's name"),
            ));
        }
        return model.to_string();
    }
    diagnostics.push(Diagnostic::warning(file.path, "no metadata.json beside it: the model is `unknown`"));
    "unknown".to_string()
}

/// The run the summary holds: named after its file (`output.swebench_eval`), which
/// evaltally's naming rule turns into its folder's name, the run folder OpenHands writes.
fn run_name(path: &Path) -> String {
    path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// The summary's instances, with its run's model.
fn read_summary(file: &Input<'_>, diagnostics: &mut Vec<Diagnostic>) -> Option<(Vec<Instance>, String)> {
    let text = match text(file) {
        Ok(t) => t,
        Err(e) => {
            diagnostics.push(e);
            return None;
        }
    };
    let summary = parse(file.path, text, diagnostics);
    let model = model(file, diagnostics);
    Some((summary, model))
}

/// Why an instance did not pass, in words.
fn message(label: Option<&str>) -> Option<String> {
    Some(
        match label? {
            "empty_patch" => "the agent produced no patch",
            "error" => "the harness could not evaluate the instance",
            "timeout" => "the tests timed out",
            _ => "the patch did not resolve the instance",
        }
        .to_string(),
    )
}

/// What `stability` reads: one category run per repository.
pub(crate) fn read(file: &Input<'_>) -> evaltally_format::Read {
    if let Some(what) = aside(file) {
        return evaltally_format::Read { runs: Vec::new(), diagnostics: vec![Diagnostic::skipped(file.path, what)] };
    }
    let mut diagnostics = Vec::new();
    let Some((summary, model)) = read_summary(file, &mut diagnostics) else {
        return evaltally_format::Read { runs: Vec::new(), diagnostics };
    };
    let verdicts = summary.iter().map(|i| {
        let (outcome, label) = i.lists.verdict();
        (i.id.as_str(), outcome, label)
    });
    let mut runs = runs_by_repository(&run_name(file.path), &model, verdicts);
    for r in &mut runs {
        r.sources.push(file.path.to_path_buf());
    }
    evaltally_format::Read { runs, diagnostics }
}

/// The summary as one run record, instance by instance.
pub(crate) fn records(file: &Input<'_>) -> evaltally_format::Records {
    if aside(file).is_some() {
        return evaltally_format::Records::default();
    }
    let mut diagnostics = Vec::new();
    let Some((summary, model)) = read_summary(file, &mut diagnostics) else {
        return evaltally_format::Records { runs: Vec::new(), diagnostics };
    };
    let tests = summary
        .iter()
        .map(|i| {
            let (outcome, label) = i.lists.verdict();
            TestRecord {
                id: i.id.clone(),
                category: repository(&i.id),
                outcome: Some(outcome),
                error_type: label.map(str::to_string),
                error_message: message(label),
                ..TestRecord::default()
            }
        })
        .collect();
    crate::openhands::one_record(file.path, run_name(file.path), model, FORMAT_NAME, tests, diagnostics)
}

/// What the summary says about instance `id`: its verdict and the lists it is in.
pub(crate) fn show(file: &Input<'_>, id: &str) -> evaltally_format::Shown {
    if aside(file).is_some() {
        return evaltally_format::Shown::default();
    }
    let Some((summary, model)) = read_summary(file, &mut Vec::new()) else {
        return evaltally_format::Shown::default();
    };
    let details = summary
        .iter()
        .filter(|i| i.id == id)
        .map(|i| {
            let (outcome, label) = i.lists.verdict();
            let mut d = TestDetail::new(&run_name(file.path), &model, &repository(id), id, Status::from(outcome));
            d.error_type = label.map(str::to_string);
            d.error_message = message(label);
            let l = i.lists;
            let lists: Vec<Value> = [
                (l.resolved, "resolved"),
                (l.unresolved, "unresolved"),
                (l.error, "error"),
                (l.empty_patch, "empty patch"),
                (l.incomplete, "incomplete"),
            ]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| Value::String(name.to_string()))
            .collect();
            d.error_details = Some(serde_json::json!({ "listed_under": lists }));
            d.result_at = Some(evaltally_core::Location { path: file.path.to_path_buf(), line: i.line });
            d
        })
        .collect();
    evaltally_format::Shown { details, diagnostics: Vec::new() }
}

/// What the reader refused (errors) or tolerated (warnings), line by line.
pub(crate) fn validate(file: &Input<'_>) -> Vec<evaltally_format::FileValidation> {
    if aside(file).is_some() {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    read_summary(file, &mut diagnostics);
    crate::openhands::validation(file.path, FORMAT_NAME, diagnostics)
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;

    /// A remote summary as the writer writes it.
    fn remote(lists: &[(&str, &[&str])], counts: &str) -> String {
        let mut s = format!("{TITLE}\nThis folder contains the evaluation results.\n\n## Summary\n{counts}");
        for (heading, ids) in lists {
            let _ = write!(s, "\n## {heading}\n");
            for id in *ids {
                let _ = writeln!(s, "- [{id}](output.swebench_eval.logs/instance_{id}.log)");
            }
        }
        s
    }

    fn outcomes(read: &evaltally_format::Read) -> Vec<String> {
        read.runs
            .iter()
            .flat_map(|r| {
                r.tests().map(|t| {
                    let label = t.error_type.map_or("-", evaltally_core::ErrorType::as_str);
                    format!("{} {} {} {:?} {label}", r.model, r.category, t.id, t.outcome)
                })
            })
            .collect()
    }

    #[test]
    fn a_remote_summary_found_alone_is_a_run_and_unresolved_lists_every_other_instance() {
        let text = remote(
            &[
                ("Resolved Instances", &["django__django-11099"]),
                (
                    "Unresolved Instances",
                    &["django__django-11133", "astropy__astropy-12907", "sympy__sympy-20590", "psf__requests-2317"],
                ),
                ("Error Instances", &["astropy__astropy-12907"]),
                ("Empty Patch Instances", &["sympy__sympy-20590"]),
                ("Incomplete Instances", &["psf__requests-2317"]),
            ],
            "- submitted instances: 5\n- empty patch instances: 1\n- resolved instances: 1\n- unresolved instances: 4\n- error instances: 1\n",
        );
        assert!(is_summary(text.as_bytes()));
        let path = Path::new("out/acme-1.5_maxiter_50_N_v0.15.0-run_1/output.swebench_eval.md");
        assert!(is_name(path));
        let file = Input::new(path, text.as_bytes(), false);
        let read = read(&file);
        assert_eq!(
            outcomes(&read),
            [
                "acme-1.5 astropy/astropy astropy__astropy-12907 Errored error",
                "acme-1.5 django/django django__django-11099 Pass -",
                "acme-1.5 django/django django__django-11133 Fail tests_failed",
                "acme-1.5 psf/requests psf__requests-2317 Errored timeout",
                "acme-1.5 sympy/sympy sympy__sympy-20590 Fail empty_patch",
            ]
        );
        assert_eq!(read.runs[0].run, "output.swebench_eval");
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("the model `acme-1.5` is read from the folder's name"), "{said:?}");
    }

    #[test]
    fn counts_the_lists_disagree_with_unknown_headings_and_a_missing_title_are_said() {
        let text = remote(
            &[
                ("Resolved Instances", &["django__django-11099"]),
                ("Unresolved Instances", &["django__django-11133"]),
                ("Notes", &["x__y-1"]),
            ],
            "- submitted instances: 2\n- resolved instances: 2\n- unresolved instances: 1\n- error instances: 0\n- empty patch instances: many\n",
        );
        let file = Input::new(Path::new("output.swebench_eval.md"), text.as_bytes(), false);
        let got = read(&file);
        assert_eq!(
            outcomes(&got),
            [
                "unknown django/django django__django-11099 Pass -",
                "unknown django/django django__django-11133 Fail tests_failed"
            ]
        );
        let said: Vec<String> = got.diagnostics.iter().map(ToString::to_string).collect();
        assert!(said.iter().any(|s| s.contains(":9:1: error: expected `- <what> instances: <count>`")), "{said:?}");
        assert!(said.iter().any(|s| s.contains("heading `Notes` is not one the writer writes")), "{said:?}");
        assert!(
            said.iter()
                .any(|s| s.contains(":6: warning: the summary says resolved instances: 2, the list under it holds 1")),
            "{said:?}"
        );
        assert!(said.iter().any(|s| s.contains("the model is `unknown`")), "{said:?}");
        assert_eq!(said.len(), 4, "{said:?}");
        let untitled = Input::new(Path::new("output.swebench_eval.md"), b"# Notes\n", false);
        let said: Vec<String> = read(&untitled).diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(said, ["output.swebench_eval.md:1:1: error: expected `# SWE-bench Report` on the first line"]);
    }

    #[test]
    fn a_summary_beside_what_it_summarises_is_set_aside_and_a_bad_line_is_an_error() {
        let text = remote(&[("Resolved Instances", &["django__django-11099"])], "- resolved instances: 1\n");
        let beside = [PathBuf::from("run/output.jsonl"), PathBuf::from("run/metadata.json")];
        let file = Input::new(Path::new("run/output.swebench_eval.md"), text.as_bytes(), false).with_beside(&beside);
        assert!(aside(&file).is_some_and(|w| w.contains("read from `output.jsonl` beside it")));
        assert!(read(&file).runs.is_empty() && read(&file).diagnostics[0].is_note());
        let only_metadata = [PathBuf::from("run/metadata.json")];
        let alone =
            Input::new(Path::new("run/output.swebench_eval.md"), text.as_bytes(), false).with_beside(&only_metadata);
        assert!(aside(&alone).is_none());
        let broken = format!("{text}- django__django-11133\n");
        let file = Input::new(Path::new("x/output.swebench_eval.md"), broken.as_bytes(), false);
        let said: Vec<String> = read(&file).diagnostics.iter().map(ToString::to_string).collect();
        assert!(said.iter().any(|s| s.contains(":9:1: error: expected `- [<instance id>](<log>)`")), "{said:?}");
        assert!(!is_summary(b"# SWE-bench Reports\n") && is_summary(b"\xEF\xBB\xBF# SWE-bench Report\r\n"));
    }
}
