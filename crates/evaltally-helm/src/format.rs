//! HELM as a format of the reading pipeline: every `per_instance_stats.json` is claimed by
//! its name (HELM's own, so no other format is asked about it) and read as a unit of its
//! own, with the `run_spec.json` beside it. With `--as helm`, or for a file the user names
//! that no format claims, the sniffer takes a JSON list whose first entry has `instance_id`
//! and `stats`.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::check::Level;
use evaltally_format::{
    Claim, FileValidation, Format, Input, Options, Read, Records, Scratch, Shown, Unit, Validated, WalkedFile,
};

use crate::{FORMAT, RunSpec, STATS_FILE, read_entries};

/// HELM run folders.
#[derive(Debug, Clone, Copy, Default)]
pub struct Helm;

/// The one value of [`Helm`], for the registry.
pub static HELM: Helm = Helm;

/// What a file of a HELM run folder other than its `per_instance_stats.json` holds, by name.
fn companion(name: &str) -> Option<&'static str> {
    Some(match name {
        "run_spec.json" => "run spec (its model and scenario are read with the outcomes)",
        "scenario_state.json" => "requests and completions (`show` reads its prompts)",
        "stats.json" => "aggregate statistics",
        "instances.json" => "instances",
        "display_predictions.json" => "predictions for its web pages",
        "display_requests.json" => "requests for its web pages",
        "scenario.json" => "scenario description",
        "costs.json" => "costs",
        _ => return None,
    })
}

/// The keys HELM writes in `per_instance_stats.json`, every version since the file exists
/// (2022-09; stanford-crfm/helm `src/helm/benchmark/metrics/statistic.py`, `metric_name.py`,
/// `trial_index` before it was `train_trial_index`). A perturbation's fields depend on its
/// kind and are not checked.
const KEYS: &[Level] = &[
    Level {
        at: "$[*]",
        known: &["instance_id", "train_trial_index", "trial_index", "perturbation", "stats"],
        what: "HELM's PerInstanceStats",
    },
    Level {
        at: "$[*].stats[*]",
        known: &["name", "count", "sum", "sum_squared", "min", "max", "mean", "variance", "stddev"],
        what: "HELM's Stat",
    },
    Level {
        at: "$[*].stats[*].name",
        known: &["name", "split", "sub_split", "perturbation"],
        what: "HELM's MetricName",
    },
];

/// A validation finding from a reader's diagnostic: errors stay errors.
fn finding(d: Diagnostic) -> Finding {
    Finding::from_diagnostic(d, "$")
}

impl Format for Helm {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn describe(&self) -> &'static str {
        "  HELM run folders (`<run spec>/per_instance_stats.json` beside `run_spec.json`); each train trial is a run"
    }

    fn noun(&self) -> &'static str {
        "HELM runs"
    }

    /// `per_instance_stats.json` by its name; the other files of a run folder too (to be
    /// said to be HELM's, [`aside`](Format::aside), not read).
    fn claim(&self, path: &Path) -> Claim {
        match evaltally_format::file_name(path).and_then(|n| n.to_str()) {
            Some(STATS_FILE) => Claim::Group,
            Some(name) if companion(name).is_some() => Claim::Sniff,
            _ => Claim::No,
        }
    }

    /// The other files of a HELM run folder, beside its `per_instance_stats.json`.
    fn aside(&self, file: &Input<'_>) -> Option<String> {
        let name = evaltally_format::file_name(file.path)?.to_str()?;
        let what = companion(name)?;
        file.path
            .with_file_name(STATS_FILE)
            .is_file()
            .then(|| format!("HELM's {what}; the run's outcomes are read from the {STATS_FILE} beside it"))
    }

    /// One unit per stats file: a HELM run folder holds one.
    fn group(&self, files: Vec<WalkedFile>, _diagnostics: &mut Vec<Diagnostic>) -> Vec<Box<dyn Unit>> {
        files.into_iter().map(|file| Box::new(RunFolder { file }) as Box<dyn Unit>).collect()
    }

    fn beside(&self, path: &Path, _folder: &evaltally_format::Folder<'_>) -> Vec<std::path::PathBuf> {
        vec![path.with_file_name(crate::RUN_SPEC_FILE)]
    }

    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        let companion = evaltally_format::file_name(file.path).and_then(|n| n.to_str()).and_then(companion).is_some();
        !companion && evaltally_format::json::first_element_has(file.bytes, b"instance_id", b"stats")
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        let (spec, note) = RunSpec::beside(file.path);
        read_entries(file.path, file.bytes, &spec, true)
            .map(|read| (read.runs, note.into_iter().chain(read.diagnostics).collect()))
            .into()
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        let (spec, note) = RunSpec::beside(file.path);
        crate::records(file.path, file.bytes, &spec)
            .map(|(runs, diagnostics)| (runs, note.into_iter().chain(diagnostics).collect()))
            .into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        let (spec, _) = RunSpec::beside(file.path);
        crate::show(file.path, file.bytes, test, &spec).into()
    }

    /// What the reader refused or tolerated, a run spec that names no model, every key
    /// repeated in an object (errors), and the keys HELM never writes (`KEYS`).
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let (spec, note) = RunSpec::beside(file.path);
        let mut findings = evaltally_format::json::repeated_key_findings(file.bytes);
        match read_entries(file.path, file.bytes, &spec, false) {
            Ok(read) => {
                findings.extend(note.into_iter().chain(read.diagnostics).map(finding));
                findings.extend(evaltally_format::check::unknown_key_findings(file.bytes, KEYS));
            }
            Err(d) => findings = vec![finding(d)],
        }
        vec![FileValidation::new(file.path, FORMAT, findings)]
    }
}

/// One run folder's stats file, read into the worker's buffer.
#[derive(Debug)]
struct RunFolder {
    file: WalkedFile,
}

impl RunFolder {
    /// Reads the file into `scratch.buf` and hands it to `then`, or the read error to
    /// `unreadable`.
    fn with<T>(
        &self,
        scratch: &mut Scratch,
        then: impl FnOnce(&Input<'_>) -> T,
        unreadable: impl FnOnce(Diagnostic) -> T,
    ) -> T {
        let mut buf = std::mem::take(&mut scratch.buf);
        let out = match evaltally_format::read_file(&self.file.path, self.file.size, &mut buf) {
            Ok(()) => then(&Input::new(&self.file.path, &buf, self.file.named)),
            Err(e) => unreadable(Diagnostic::error(&self.file.path, evaltally_format::file::cannot_read(&e))),
        };
        scratch.buf = buf;
        out
    }
}

impl Unit for RunFolder {
    fn format(&self) -> &'static str {
        FORMAT
    }

    fn size(&self) -> u64 {
        self.file.size
    }

    /// `<suite>/<run folder>`: run folders of the same run spec in two suites share a name.
    fn inputs(&self) -> Vec<std::path::PathBuf> {
        vec![self.file.path.clone(), self.file.path.with_file_name(crate::RUN_SPEC_FILE)]
    }

    fn seen(&self, _index: usize, input: &Path) -> Option<&std::fs::Metadata> {
        self.file.meta_of(input)
    }

    fn label(&self) -> String {
        let folder = self.file.path.parent();
        let names: Vec<String> = [folder.and_then(Path::parent), folder]
            .into_iter()
            .flatten()
            .filter_map(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        if names.is_empty() { STATS_FILE.to_string() } else { names.join("/") }
    }

    fn read(&self, scratch: &mut Scratch, options: &Options) -> Read {
        self.with(scratch, |input| HELM.read(input, options), |d| Read { runs: Vec::new(), diagnostics: vec![d] })
    }

    fn records(&self, scratch: &mut Scratch, options: &Options) -> Records {
        self.with(scratch, |input| HELM.records(input, options), |d| Records { runs: Vec::new(), diagnostics: vec![d] })
    }

    fn show(&self, scratch: &mut Scratch, test: &str, options: &Options) -> Shown {
        self.with(
            scratch,
            |input| HELM.show(input, test, options),
            |d| Shown { details: Vec::new(), diagnostics: vec![d] },
        )
    }

    fn validate(&self, scratch: &mut Scratch, options: &Options) -> Validated {
        self.with(
            scratch,
            |input| {
                let mut files = HELM.validate(input, options);
                FileValidation::note_bom(&mut files, input.path, input.bytes);
                Validated { files, diagnostics: Vec::new() }
            },
            |d| Validated {
                files: vec![FileValidation::new(&self.file.path, FORMAT, vec![Finding::error("file", d.message)])],
                diagnostics: Vec::new(),
            },
        )
    }
}
