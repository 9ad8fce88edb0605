//! Finding runs and their result and score files on disk.
//!
//! BFCL output is found in the wild in these shapes (see [`LAYOUTS`]):
//!
//! * `<root>/<run>/{result,score}/<model>/…` (many runs side by side),
//! * `<root>/result-<run>/<model>/…` with `<root>/score-<run>/<model>/…`,
//! * a BFCL project folder holding `result/` and `score/` (one run, named after the folder).
//!
//! Below the model folder any nesting is accepted (v4 puts files in group folders, v3 puts
//! them directly in the model folder). Files are recognised by name ([`classify`]); result
//! and score files pair by (model, category), not by mirrored paths.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use evaltally_core::Diagnostic;

use crate::BfclError;

/// A human-readable list of the layouts [`find_runs`] knows, for "nothing found" messages.
pub const LAYOUTS: &str = concat!(
    "  <root>/<run>/result/<model>/…/BFCL_v4_<category>_result.json  (+ <root>/<run>/score/<model>/…/BFCL_v4_<category>_score.json)\n",
    "  <root>/result-<run>/<model>/…  with  <root>/score-<run>/<model>/…\n",
    "  <project>/result/<model>/…  with  <project>/score/<model>/…   (one run, named after <project>)\n",
    "  file names: BFCL_v<N>_<category>_{result,score}.json, gorilla_openfunctions_v1_test_<category>_result.json, <category>_score.json",
);

/// How deep [`find_runs`] looks below a given path for run folders.
const MAX_SEARCH_DEPTH: usize = 4;
/// How deep files may be nested below a model folder.
const MAX_TREE_DEPTH: usize = 8;

/// A run found on disk: a name and the roots of its result and score trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunDir {
    /// The run's name (its folder name, without a `result-` prefix).
    pub name: String,
    /// The folder the run was found at (the run folder, or its `result-<run>` folder).
    pub root: PathBuf,
    /// The folder holding `<model>/…/*_result.json`, if any.
    pub result_root: Option<PathBuf>,
    /// The folder holding `<model>/…/*_score.json`, if any.
    pub score_root: Option<PathBuf>,
}

/// Whether a file holds results or scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileKind {
    /// A `*_result.json` file: one line per test that ran.
    Result,
    /// A `*_score.json` file: a summary line, then one line per failed test.
    Score,
}

/// Recognises a BFCL result or score file by its name and returns its kind and category.
///
/// ```
/// use evaltally_bfcl::layout::{classify, FileKind};
/// assert_eq!(classify("BFCL_v4_simple_python_result.json"), Some((FileKind::Result, "simple_python")));
/// assert_eq!(classify("BFCL_v3_irrelevance_score.json"), Some((FileKind::Score, "irrelevance")));
/// assert_eq!(classify("gorilla_openfunctions_v1_test_simple_result.json"), Some((FileKind::Result, "simple")));
/// assert_eq!(classify("parallel_function_score.json"), Some((FileKind::Score, "parallel_function")));
/// assert_eq!(classify("BFCL_v4_memory_kv_prereq_result.json"), None);
/// assert_eq!(classify("data_overall.csv"), None);
/// ```
pub fn classify(file_name: &str) -> Option<(FileKind, &str)> {
    let stem = file_name.strip_suffix(".json").or_else(|| file_name.strip_suffix(".jsonl"))?;
    let (kind, body) = if let Some(body) = stem.strip_suffix("_result") {
        (FileKind::Result, body)
    } else if let Some(body) = stem.strip_suffix("_score") {
        (FileKind::Score, body)
    } else {
        return None;
    };
    if body.ends_with("_prereq") {
        return None;
    }
    let category =
        strip_version_prefix(body).or_else(|| body.strip_prefix("gorilla_openfunctions_v1_test_")).unwrap_or(body);
    let valid = !category.is_empty() && category.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    valid.then_some((kind, category))
}

/// Strips `BFCL_v<digits>_`.
fn strip_version_prefix(body: &str) -> Option<&str> {
    let rest = body.strip_prefix("BFCL_v")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    rest[digits..].strip_prefix('_')
}

/// Finds the runs at or below `path`.
///
/// `path` may be a run folder, a folder of runs, a `result-<run>` folder, or a `result`
/// folder itself. Problems that do not stop the search (unreadable sub-folders, duplicate
/// run names) are pushed to `diags`.
pub fn find_runs(path: &Path, diags: &mut Vec<Diagnostic>) -> Result<Vec<RunDir>, BfclError> {
    let meta = fs::metadata(path).map_err(|source| BfclError::Io { path: path.to_path_buf(), source })?;
    if !meta.is_dir() {
        return Err(BfclError::NotAFolder { path: path.to_path_buf() });
    }
    let mut runs = Vec::new();
    let name = folder_name(path);
    // Given `…/<run>/result` or `…/result-<run>` directly.
    if let Some(parent) = path.parent().filter(|_| name == "result" || name == "score")
        && (parent.join("result").is_dir() || parent.join("score").is_dir())
    {
        runs.push(project_run(parent));
        return Ok(runs);
    }
    if let Some(run) = name.strip_prefix("result-") {
        let score = path.with_file_name(format!("score-{run}"));
        runs.push(RunDir {
            name: run.to_string(),
            root: path.to_path_buf(),
            result_root: Some(path.to_path_buf()),
            score_root: score.is_dir().then_some(score),
        });
        return Ok(runs);
    }
    search(path, 0, &mut runs, diags);
    Ok(runs)
}

fn folder_name(path: &Path) -> String {
    match path.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => fs::canonicalize(path)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| path.display().to_string()),
    }
}

fn project_run(dir: &Path) -> RunDir {
    let result = dir.join("result");
    let score = dir.join("score");
    RunDir {
        name: folder_name(dir),
        root: dir.to_path_buf(),
        result_root: result.is_dir().then_some(result),
        score_root: score.is_dir().then_some(score),
    }
}

fn search(dir: &Path, depth: usize, runs: &mut Vec<RunDir>, diags: &mut Vec<Diagnostic>) {
    if dir.join("result").is_dir() || dir.join("score").is_dir() {
        runs.push(project_run(dir));
        return;
    }
    let children = match sorted_children(dir) {
        Ok(c) => c,
        Err(e) => {
            diags.push(Diagnostic::error(dir, format!("cannot list folder: {e}")));
            return;
        }
    };
    let names: Vec<String> = children.iter().map(|(n, _)| n.clone()).collect();
    for (name, child) in &children {
        if !child.is_dir() {
            continue;
        }
        if let Some(run) = name.strip_prefix("result-") {
            let score = dir.join(format!("score-{run}"));
            runs.push(RunDir {
                name: run.to_string(),
                root: child.clone(),
                result_root: Some(child.clone()),
                score_root: score.is_dir().then_some(score),
            });
        } else if let Some(run) = name.strip_prefix("score-") {
            if !names.iter().any(|n| n.strip_prefix("result-") == Some(run)) {
                runs.push(RunDir {
                    name: run.to_string(),
                    root: child.clone(),
                    result_root: None,
                    score_root: Some(child.clone()),
                });
            }
        } else if depth < MAX_SEARCH_DEPTH {
            search(child, depth + 1, runs, diags);
        }
    }
}

/// The entries of a folder as (name, path), in natural name order (`run-2` before
/// `run-10`), so results never depend on the order the file system lists them in.
fn sorted_children(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        out.push((entry.file_name().to_string_lossy().into_owned(), entry.path()));
    }
    out.sort_by(|a, b| evaltally_core::id::natural_str_cmp(&a.0, &b.0));
    Ok(out)
}

/// The files of one (run, model, category): a result file, a score file, or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePair {
    /// The run's name.
    pub run: String,
    /// The model folder name.
    pub model: String,
    /// The test category.
    pub category: String,
    /// The result file, if the run has one for this (model, category).
    pub result: Option<PathBuf>,
    /// The score file, if the run has one for this (model, category).
    pub score: Option<PathBuf>,
}

impl FilePair {
    /// Total size in bytes of the files (0 where unknown), for scheduling large files first.
    pub fn size(&self) -> u64 {
        [&self.result, &self.score].into_iter().flatten().filter_map(|p| fs::metadata(p).ok()).map(|m| m.len()).sum()
    }
}

impl RunDir {
    /// Lists the run's result and score files paired by (model, category), sorted by
    /// model then category.
    pub fn files(&self, diags: &mut Vec<Diagnostic>) -> Vec<FilePair> {
        let results = self.result_root.as_deref().map(|r| tree_files(r, FileKind::Result, diags)).unwrap_or_default();
        let scores = self.score_root.as_deref().map(|r| tree_files(r, FileKind::Score, diags)).unwrap_or_default();
        let mut pairs: BTreeMap<(String, String), FilePair> = BTreeMap::new();
        for (kind, files) in [(FileKind::Result, results), (FileKind::Score, scores)] {
            for ((model, category), path) in files {
                let pair = pairs.entry((model.clone(), category.clone())).or_insert_with(|| FilePair {
                    run: self.name.clone(),
                    model,
                    category,
                    result: None,
                    score: None,
                });
                match kind {
                    FileKind::Result => pair.result = Some(path),
                    FileKind::Score => pair.score = Some(path),
                }
            }
        }
        pairs.into_values().collect()
    }
}

/// Every result (or score) file below `root`, keyed by (model, category).
fn tree_files(root: &Path, want: FileKind, diags: &mut Vec<Diagnostic>) -> BTreeMap<(String, String), PathBuf> {
    let mut found = BTreeMap::new();
    let children = match sorted_children(root) {
        Ok(c) => c,
        Err(e) => {
            diags.push(Diagnostic::error(root, format!("cannot list folder: {e}")));
            return found;
        }
    };
    for (name, path) in children {
        if path.is_dir() {
            walk_model(&name, &path, 0, want, &mut found, diags);
        } else if classify(&name).is_some_and(|(kind, _)| kind == want) {
            diags.push(Diagnostic::warning(
                &path,
                format!(
                    "{} file directly in `{}`; expected it inside a model folder (…/{}/<model>/…); left out",
                    kind_word(want),
                    root.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
                    root.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
                ),
            ));
        }
    }
    found
}

fn kind_word(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Result => "result",
        FileKind::Score => "score",
    }
}

fn walk_model(
    model: &str,
    dir: &Path,
    depth: usize,
    want: FileKind,
    found: &mut BTreeMap<(String, String), PathBuf>,
    diags: &mut Vec<Diagnostic>,
) {
    let children = match sorted_children(dir) {
        Ok(c) => c,
        Err(e) => {
            diags.push(Diagnostic::error(dir, format!("cannot list folder: {e}")));
            return;
        }
    };
    for (name, path) in children {
        // `is_dir`/`is_file` follow links: a link back up the tree is not followed, and the
        // depth bound stops any other loop.
        if path.is_dir() && path.is_symlink() && links_above(&path, dir) {
            diags.push(Diagnostic::warning(&path, "link to a folder that contains it (a loop); not followed"));
            continue;
        }
        if path.is_dir() {
            if name == "memory_snapshot" {
                continue;
            }
            if depth + 1 >= MAX_TREE_DEPTH {
                diags.push(Diagnostic::warning(
                    &path,
                    format!("folder nested more than {MAX_TREE_DEPTH} levels below the model folder; not searched"),
                ));
                continue;
            }
            walk_model(model, &path, depth + 1, want, found, diags);
            continue;
        }
        let Some((kind, category)) = classify(&name) else {
            if name.starts_with("BFCL_") && path.file_name().and_then(std::ffi::OsStr::to_str).is_none() {
                diags.push(Diagnostic::warning(
                    &path,
                    "file name is not valid UTF-8, so no category can be read from it; left out",
                ));
            }
            continue;
        };
        if kind != want {
            continue;
        }
        if let Err(e) = std::fs::metadata(&path) {
            diags.push(Diagnostic::error(&path, format!("cannot read: {e}")));
            continue;
        }
        if !path.is_file() {
            continue;
        }
        let key = (model.to_string(), category.to_string());
        if let Some(first) = found.get(&key) {
            diags.push(Diagnostic::warning(
                &path,
                format!(
                    "second {} file for model `{model}`, category `{category}` (first: {}); left out",
                    kind_word(kind),
                    first.display()
                ),
            ));
        } else {
            found.insert(key, path);
        }
    }
}

/// Whether the folder `link` points to contains `dir` (so following it loops).
fn links_above(link: &Path, dir: &Path) -> bool {
    match (fs::canonicalize(link), fs::canonicalize(dir)) {
        (Ok(target), Ok(here)) => here.starts_with(target),
        _ => false,
    }
}

/// Makes run names unique: a name seen twice gets its parent folder prepended, and a
/// number appended if that is still not enough.
pub fn disambiguate(runs: &mut [RunDir]) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for run in runs.iter() {
        *seen.entry(run.name.clone()).or_default() += 1;
    }
    let mut used = std::collections::BTreeSet::new();
    for run in runs.iter_mut() {
        if seen[&run.name] > 1 {
            let parent = run.root.parent().map(folder_name).unwrap_or_default();
            if !parent.is_empty() {
                run.name = format!("{parent}/{}", run.name);
            }
        }
        let base = run.name.clone();
        let mut n = 2;
        while !used.insert(run.name.clone()) {
            run.name = format!("{base}#{n}");
            n += 1;
        }
    }
}
