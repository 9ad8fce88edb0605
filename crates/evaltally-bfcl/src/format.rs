//! BFCL as a format of the reading pipeline: files claimed by name and place, grouped into
//! (run, model, category) pairs of result and score files.

use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, RunRecord};
use evaltally_format::{
    Claim, FileValidation, Format, Input, Options, Read, Records, Scratch, Shown, Unit, Validated, WalkedFile,
};

use crate::layout::{self, FilePair};

/// The BFCL format: result and score files in every known layout.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bfcl;

/// The one value of [`Bfcl`], for the registry.
pub static FORMAT: Bfcl = Bfcl;

impl Format for Bfcl {
    fn name(&self) -> &'static str {
        "bfcl"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["gorilla"]
    }

    fn describe(&self) -> &'static str {
        layout::LAYOUTS
    }

    fn noun(&self) -> &'static str {
        "BFCL result or score files"
    }

    fn claim(&self, path: &Path) -> Claim {
        if layout::is_bfcl_file(path) { Claim::Group } else { Claim::No }
    }

    fn companions(&self, given: &Path) -> Vec<PathBuf> {
        layout::companions(given)
    }

    fn group(&self, files: Vec<WalkedFile>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Box<dyn Unit>> {
        let list: Vec<(&Path, bool)> = files.iter().map(|f| (f.path.as_path(), f.named)).collect();
        let runs = layout::group(&list, diagnostics);
        // The walked files by their paths' bytes (hashing a `Path` walks its components).
        let by_path: hashbrown::HashMap<&[u8], &WalkedFile> =
            files.iter().map(|f| (f.path.as_os_str().as_encoded_bytes(), f)).collect();
        let walked = |p: &Option<PathBuf>| p.as_ref().and_then(|p| by_path.get(p.as_os_str().as_encoded_bytes()));
        let mut units: Vec<Box<dyn Unit>> = Vec::new();
        for run in runs {
            for pair in run.pairs {
                let (result, score) = (walked(&pair.result), walked(&pair.score));
                let size = [result, score].iter().flatten().map(|f| f.size).sum();
                let single = [(&pair.result, result), (&pair.score, score)]
                    .iter()
                    .all(|(path, file)| path.is_none() || file.is_some_and(|f| f.named))
                    && (pair.result.is_none() || pair.score.is_none());
                let meta = [result.and_then(|f| f.meta.clone()), score.and_then(|f| f.meta.clone())];
                units.push(Box::new(PairUnit { pair, root: run.root.clone(), size, single, meta }));
            }
        }
        units
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        // Every BFCL file is grouped, never sniffed; a file forced to BFCL with `--as` is
        // read as a lone result file.
        let pair = lone_pair(file.path);
        let out = crate::read_pair_bytes(&pair, file.bytes, None, &mut crate::Scratch::default());
        Read { runs: out.run.into_iter().collect(), diagnostics: out.diagnostics }
    }
}

/// A file read on its own as a result file of run `.` and model `unknown`.
fn lone_pair(path: &Path) -> FilePair {
    let name = path.file_name().and_then(std::ffi::OsStr::to_str).unwrap_or_default();
    let category = layout::classify(name).map_or_else(|| "unknown".to_string(), |(_, c)| c.to_string());
    FilePair { run: ".".into(), model: "unknown".into(), category, result: Some(path.to_path_buf()), score: None }
}

/// One (run, model, category): its result file and its score file.
struct PairUnit {
    pair: FilePair,
    /// The run folder (or `result-<run>` folder), the source of its records.
    root: PathBuf,
    size: u64,
    /// Only files the user named, and not both of the pair: validated on their own.
    single: bool,
    /// What the walk saw of the result and the score file.
    meta: [Option<std::fs::Metadata>; 2],
}

/// The digest cache's identity of the unit (see [`evaltally_format::identity`]).
impl std::fmt::Debug for PairUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use evaltally_format::identity::{path, text};
        f.write_str("PairUnit")?;
        text(f, "run", &self.pair.run)?;
        text(f, "model", &self.pair.model)?;
        text(f, "category", &self.pair.category)?;
        path(f, "result", self.pair.result.as_deref())?;
        path(f, "score", self.pair.score.as_deref())?;
        path(f, "root", Some(&self.root))?;
        f.write_str(" size ")?;
        evaltally_format::identity::number(f, self.size)?;
        f.write_str(if self.single { " single true" } else { " single false" })
    }
}

impl PairUnit {
    /// The pair's one run record.
    fn records_of(
        &self,
        tests: Vec<evaltally_core::TestRecord>,
        diagnostics: Vec<evaltally_core::Diagnostic>,
    ) -> Records {
        let run = RunRecord {
            run: self.pair.run.clone(),
            model: self.pair.model.clone(),
            format: "bfcl".to_string(),
            source: self.root.clone(),
            started_at: None,
            tests,
            ..RunRecord::default()
        };
        Records { runs: vec![run], diagnostics }
    }
}

impl Unit for PairUnit {
    fn format(&self) -> &'static str {
        "bfcl"
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn inputs(&self) -> Vec<std::path::PathBuf> {
        self.pair.result.iter().chain(&self.pair.score).cloned().collect()
    }

    fn seen(&self, _index: usize, input: &Path) -> Option<&std::fs::Metadata> {
        [&self.pair.result, &self.pair.score]
            .iter()
            .zip(&self.meta)
            .find(|(path, _)| path.as_deref() == Some(input))
            .and_then(|(_, meta)| meta.as_ref())
    }

    fn label(&self) -> String {
        let path = self.pair.result.as_ref().or(self.pair.score.as_ref()).cloned().unwrap_or_default();
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        name.strip_suffix(".json").map(str::to_string).unwrap_or(name)
    }

    fn scope(&self) -> Option<(&str, &str)> {
        Some((&self.pair.model, &self.pair.category))
    }

    fn may_hold(&self, test: &str) -> bool {
        crate::show::may_hold(&self.pair, test)
    }

    fn read(&self, scratch: &mut Scratch, _options: &Options) -> Read {
        let out = crate::read_pair(&self.pair, scratch.slot::<crate::Scratch>());
        Read { runs: out.run.into_iter().collect(), diagnostics: out.diagnostics }
    }

    fn records(&self, scratch: &mut Scratch, _options: &Options) -> Records {
        let mut diagnostics = Vec::new();
        let tests = crate::records::pair_records(&self.pair, scratch.slot::<crate::Scratch>(), &mut diagnostics);
        self.records_of(tests, diagnostics)
    }

    fn read_both(&self, scratch: &mut Scratch, _options: &Options) -> (Read, Records) {
        let (out, tests) = crate::records::pair_run_and_records(&self.pair, scratch.slot::<crate::Scratch>());
        let records = self.records_of(tests, out.diagnostics.clone());
        (Read { runs: out.run.into_iter().collect(), diagnostics: out.diagnostics }, records)
    }

    fn show(&self, _scratch: &mut Scratch, test: &str, _options: &Options) -> Shown {
        crate::show::show_said(&self.pair, test).map(|(detail, said)| (detail.into_iter().collect(), said)).into()
    }

    fn validate(&self, _scratch: &mut Scratch, _options: &Options) -> Validated {
        let mut pair = self.pair.clone();
        if self.single {
            pair.run.clear();
        }
        let files = crate::validate::validate_pair(&pair)
            .into_iter()
            .map(|r| FileValidation { path: r.path, format: r.format.to_string(), findings: r.findings })
            .collect();
        Validated { files, diagnostics: Vec::new() }
    }
}
