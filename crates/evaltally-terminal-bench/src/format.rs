//! Terminal-Bench as a format of the reading pipeline: a run's `results.json` (any file
//! whose name ends so, `<run_id>_results.json` too) that is an object with a `results` list
//! of trials, read with the `run_metadata.json` beside it; and Harbor's trials, claimed by
//! their place and grouped by job ([`crate::harbor`]).

use std::path::{Path, PathBuf};

use evaltally_core::Diagnostic;
use evaltally_format::{Claim, FileValidation, Folder, Format, Input, Options, Read, Records, Shown, Unit, WalkedFile};

use crate::meta::METADATA_FILE;
use crate::{is_results_document, metadata_beside, read_bytes};

/// Terminal-Bench `tb run` results.
#[derive(Debug, Clone, Copy, Default)]
pub struct TerminalBench;

/// The one value of [`TerminalBench`], for the registry.
pub static TERMINAL_BENCH: TerminalBench = TerminalBench;

/// The file's name, when it is UTF-8.
fn name(path: &Path) -> Option<&str> {
    evaltally_format::file_name(path).and_then(|n| n.to_str())
}

/// `results.json`, or a name ending in it (`<run_id>_results.json`), in any case.
fn is_results_name(path: &Path) -> bool {
    name(path).is_some_and(|n| n.len() >= 12 && n[n.len() - 12..].eq_ignore_ascii_case("results.json"))
}

/// `result.json` and `config.json`, the names of Harbor's documents.
fn is_harbor_name(path: &Path) -> bool {
    name(path).is_some_and(|n| n == "result.json" || n == "config.json")
}

fn is_metadata_name(path: &Path) -> bool {
    name(path).is_some_and(|n| n.eq_ignore_ascii_case(METADATA_FILE))
}

/// What a document the format keeps no runs in is: a trial's own copy of its results, or
/// the run's metadata.
fn aside(file: &Input<'_>) -> Option<String> {
    if is_harbor_name(file.path)
        && let Some(what) = crate::harbor::aside(|k| file.has(k))
    {
        return Some(what.to_string());
    }
    if file.has("trial_name") && file.has("task_id") && file.has("is_resolved") && !file.has("results") {
        return Some(
            "a Terminal-Bench trial's own results.json (`<run>/<task>/<trial>/results.json`): a copy of the trial's \
             entry in the run's results.json, which is read instead"
                .to_string(),
        );
    }
    (is_metadata_name(file.path) && file.has("run_id") && (file.has("agent_name") || file.has("dataset_size"))).then(
        || {
            "Terminal-Bench run metadata with no results.json beside it (it names the model and the dataset of the \
             results.json of its run)"
                .to_string()
        },
    )
}

impl Format for TerminalBench {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["tb", "terminalbench"]
    }

    fn describe(&self) -> &'static str {
        "  Terminal-Bench `tb run` results (`runs/<run_id>/results.json`, model and dataset from `run_metadata.json` beside it) and Harbor jobs (`jobs/<job>/<task>__<id>/result.json`); each attempt is a run"
    }

    fn noun(&self) -> &'static str {
        "Terminal-Bench results"
    }

    /// A run's `results.json` (and `<run_id>_results.json`) and `run_metadata.json`, so that
    /// the trials' own copies and a metadata file alone are said to be Terminal-Bench's
    /// ([`aside`](Format::aside)); Harbor's trials by their place (grouped), and its job's
    /// `result.json` and `config.json` and a trial's `config.json`, to be set aside.
    fn claim(&self, path: &Path) -> Claim {
        if crate::harbor::is_trial_result(path) {
            Claim::Group
        } else if is_results_name(path) || is_metadata_name(path) || is_harbor_name(path) {
            Claim::Sniff
        } else {
            Claim::No
        }
    }

    /// Harbor's trials, a unit per job folder.
    fn group(&self, files: Vec<WalkedFile>, _diagnostics: &mut Vec<Diagnostic>) -> Vec<Box<dyn Unit>> {
        crate::harbor::group(files)
    }

    /// The run's `run_metadata.json`, from the walk's listing of the folder; when the walk
    /// did not list it (a results file named alone), where `tb` writes it, so that it is
    /// read when it is there.
    /// Nothing for the other names it claims (the metadata itself, Harbor's documents).
    fn beside(&self, path: &Path, folder: &Folder<'_>) -> Vec<PathBuf> {
        if !is_results_name(path) {
            return Vec::new();
        }
        let listed = folder.names().iter().find(|n| n.eq_ignore_ascii_case(METADATA_FILE));
        vec![path.with_file_name(listed.map_or(METADATA_FILE, |n| n))]
    }

    /// An object whose `results` is a list of trials (`trial_name`, `task_id`), looked at
    /// with the pipeline's scanner, nothing built.
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        is_results_document(file.json("results"), file.has("n_resolved") || file.has("pass_at_k"))
    }

    /// A trial's own `results.json` (a copy of its entry in the run's) and a run's metadata
    /// file with no results beside it.
    fn aside(&self, file: &Input<'_>) -> Option<String> {
        aside(file)
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        // `--as terminal-bench` reads every file the format claims without sniffing.
        if let Some(what) = aside(file) {
            return Read { runs: Vec::new(), diagnostics: vec![Diagnostic::skipped(file.path, what)] };
        }
        read_bytes(file.path, file.bytes, metadata_beside(file.beside()))
            .map(|read| (read.runs, read.diagnostics))
            .into()
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        if aside(file).is_some() {
            return Records::default();
        }
        crate::records(file.path, file.bytes, metadata_beside(file.beside())).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        if aside(file).is_some() {
            return Shown::default();
        }
        crate::show(file.path, file.bytes, test, metadata_beside(file.beside())).into()
    }

    /// What the reader refused (errors) or tolerated (warnings), every key repeated in an
    /// object (errors), the metadata beside it, and the trials' own checks (warnings).
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        if aside(file).is_some() {
            return Vec::new();
        }
        let findings = crate::validate::findings(file.path, file.bytes, metadata_beside(file.beside()));
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_results_and_metadata_by_name() {
        for (name, claim) in [
            ("runs/r/results.json", Claim::Sniff),
            ("goose/2025-08-27__22-13-13_results.json", Claim::Sniff),
            ("runs/r/RESULTS.JSON", Claim::Sniff),
            ("runs/r/run_metadata.json", Claim::Sniff),
            ("runs/r/tb.lock", Claim::No),
            ("runs/r/results.jsonl", Claim::No),
            ("runs/r/result.json", Claim::Sniff),
            ("jobs/j/config.json", Claim::Sniff),
            ("jobs/j/hello-world__Xk3pQ2a/result.json", Claim::Group),
            ("jobs/j/hello-world__Xk3pQ2a/config.json", Claim::Sniff),
            ("jobs/j/hello-world__/result.json", Claim::Sniff),
            ("jobs/j/hello-world__a-b/result.json", Claim::Sniff),
            ("jobs/j/hello-world__Xk3pQ2a/results.jsonl", Claim::No),
        ] {
            assert_eq!(TERMINAL_BENCH.claim(Path::new(name)), claim, "{name}");
        }
    }

    #[test]
    fn sniffs_run_results_and_sets_trial_copies_aside() {
        let run = br#"{"id": "x", "results": [{"id": "y", "trial_name": "a.1-of-1", "task_id": "a", "is_resolved": true}], "n_resolved": 1}"#;
        let trial =
            br#"{"id": "y", "trial_name": "a.1-of-1", "task_id": "a", "is_resolved": true, "failure_mode": "unset"}"#;
        let started = br#"{"results": [], "pass_at_k": {}, "n_resolved": 0}"#;
        let other = br#"{"results": [{"task_id": 1, "reward": 1.0}]}"#;
        let input = |b: &'static [u8]| Input::new(Path::new("runs/r/results.json"), b, false);
        let options = Options::default();
        assert!(TERMINAL_BENCH.sniff(&input(run), &options));
        assert!(TERMINAL_BENCH.sniff(&input(started), &options));
        assert!(!TERMINAL_BENCH.sniff(&input(trial), &options));
        assert!(!TERMINAL_BENCH.sniff(&input(other), &options));
        assert!(TERMINAL_BENCH.aside(&input(trial)).is_some_and(|w| w.contains("trial's own results.json")));
        assert!(TERMINAL_BENCH.aside(&input(run)).is_none());
        let read = TERMINAL_BENCH.read(&input(trial), &options);
        assert!(read.runs.is_empty() && read.diagnostics[0].is_note());
    }

    /// Only a run's results file is read with a file beside it: the other names the format
    /// claims (Harbor's `config.json` anywhere) look for nothing.
    #[test]
    fn only_results_files_read_their_metadata_beside_them() {
        let beside = |p: &str| TERMINAL_BENCH.beside(Path::new(p), &evaltally_format::Folder::unknown());
        assert_eq!(beside("runs/r/results.json"), [Path::new("runs/r/run_metadata.json")]);
        for path in ["runs/r/run_metadata.json", "model/config.json", "jobs/j/result.json"] {
            assert!(beside(path).is_empty(), "{path}");
        }
    }
}
