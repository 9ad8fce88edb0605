//! Finding runs and their result and score files on disk.
//!
//! BFCL output is found in the wild in these shapes (see [`LAYOUTS`]):
//!
//! * `<root>/<run>/{result,score}/<model>/…` (many runs side by side),
//! * `<root>/result-<run>/<model>/…` with `<root>/score-<run>/<model>/…`,
//! * a BFCL project folder holding `result/` and `score/` (one run, named after the folder).
//!
//! Below the model folder any nesting is accepted (v4 puts files in group folders, v3 puts
//! them directly in the model folder). Files are recognised by name ([`classify`]) and
//! placed by their path alone ([`locate`]): the nearest folder above a file named `result`,
//! `score`, `result-<run>` or `score-<run>` says which run it belongs to, the folder below
//! that the model. Result and score files pair by (model, category), not by mirrored paths.
//! The files themselves come from the one walk (`evaltally_format::walk`); nothing here
//! lists a folder.

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
    "  file names: BFCL_v<N>_<category>_{result,score}.json, gorilla_openfunctions_v1_test_<category>_result.json, <category>_score.json;\n",
    "  in a result folder also a dataset's name (gorilla_openfunctions_v1_test_<category>.json, BFCL_v2_<category>.json, BFCL_v3_<category>.json)",
);

/// How deep files may be nested below a model folder.
const MAX_TREE_DEPTH: usize = 8;

/// A run found on disk: a name, the roots of its result and score trees, and its files.
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
    /// The run's result and score files paired by (model, category), sorted by model then
    /// category.
    pub pairs: Vec<FilePair>,
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
/// // A dataset's name: a result file only inside a result folder (see `is_bfcl_file`).
/// assert_eq!(classify("gorilla_openfunctions_v1_test_rest.json"), Some((FileKind::Result, "rest")));
/// assert_eq!(classify("BFCL_v4_simple_python.json"), None);
/// ```
pub fn classify(file_name: &str) -> Option<(FileKind, &str)> {
    let stem = file_name.strip_suffix(".json").or_else(|| file_name.strip_suffix(".jsonl"))?;
    let (kind, body) = if let Some(body) = stem.strip_suffix("_result") {
        (FileKind::Result, body)
    } else if let Some(body) = stem.strip_suffix("_score") {
        (FileKind::Score, body)
    } else if is_dataset_name(stem) {
        (FileKind::Result, stem)
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

/// Whether a file bears the name BFCL v1's writer gave result files
/// (`gorilla_openfunctions_v1_test_<category>_result.json`), whose ids were integers.
///
/// ```
/// use evaltally_bfcl::layout::is_v1_name;
/// assert!(is_v1_name(std::path::Path::new("r/m/gorilla_openfunctions_v1_test_simple_result.json")));
/// assert!(!is_v1_name(std::path::Path::new("r/m/BFCL_v4_simple_python_result.json")));
/// ```
pub fn is_v1_name(path: &std::path::Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("gorilla_openfunctions_v1_test_"))
}

/// Whether a file name's stem is that of a BFCL dataset file up to v3
/// (`gorilla_openfunctions_v1_test_<category>`, `BFCL_v2_<category>`, `BFCL_v3_<category>`).
///
/// BFCL's `eval_runner.py` read every `*.json` in a model's result folder but `result.json`
/// until V4 (58f57e91, 2025-08-25), taking the category from the name with `_result`
/// optional, so a result saved under its dataset file's name was scored as that category's.
/// From V4 it reads `BFCL_v4_*_result.json` only.
fn is_dataset_name(stem: &str) -> bool {
    ["gorilla_openfunctions_v1_test_", "BFCL_v2_", "BFCL_v3_"]
        .iter()
        .any(|prefix| stem.strip_prefix(prefix).is_some_and(|c| !c.is_empty()))
}

/// Whether a file [`classify`] recognises is placed as it must be: one under a dataset
/// file's name (no `_result` or `_score` suffix) only in a model's folder of a result tree,
/// where BFCL up to v3 scored it; anywhere else (a checkout's `data/` folder) it is the
/// dataset.
fn is_placed(path: &Path, name: &str) -> bool {
    let stem = name.strip_suffix(".json").or_else(|| name.strip_suffix(".jsonl")).unwrap_or(name);
    let dataset_named = !stem.ends_with("_result") && !stem.ends_with("_score");
    !dataset_named || locate(path).is_some_and(|p| p.kind == FileKind::Result && p.model.is_some() && !p.in_snapshot)
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

/// Whether a file is one of BFCL's by its name or place: a result or score file (one under
/// a dataset file's name only in a model folder of a result tree), a memory category's
/// `*_prereq_result.json`, a `memory_snapshot` file inside a result tree, or a `BFCL_…` file
/// whose name is not UTF-8 (reported when grouped).
///
/// ```
/// use std::path::Path;
/// use evaltally_bfcl::layout::is_bfcl_file;
/// assert!(is_bfcl_file(Path::new("r/result/m/BFCL_v4_simple_result.json")));
/// assert!(is_bfcl_file(Path::new("r/result/m/kv/memory_snapshot/customer_final.json")));
/// assert!(!is_bfcl_file(Path::new("r/report.json")));
/// assert!(is_bfcl_file(Path::new("r/result/m/gorilla_openfunctions_v1_test_simple.json")));
/// assert!(!is_bfcl_file(Path::new("gorilla/data/gorilla_openfunctions_v1_test_simple.json")));
/// assert!(!is_bfcl_file(Path::new("r/score/m/BFCL_v3_simple.json")));
/// assert!(is_bfcl_file(Path::new("r/score/m/BFCL_v3_simple_score.json")));
/// ```
pub fn is_bfcl_file(path: &Path) -> bool {
    let Some(name) = evaltally_format::file_name(path) else { return false };
    let Some(name) = name.to_str() else { return name.to_string_lossy().starts_with("BFCL_") };
    classify(name).is_some() && is_placed(path, name)
        || name.ends_with("_prereq_result.json")
        || is_leaderboard_csv(path, name)
        // Only a file below a `memory_snapshot` folder can be in a snapshot: every other JSON
        // file the walk finds is told apart without taking its path apart.
        || snapshot_finder().find(path.as_os_str().as_encoded_bytes()).is_some()
            && locate(path).is_some_and(|p| p.in_snapshot)
}

/// Whether `name` is one of the leaderboard summaries BFCL writes into its score folder
/// (`eval_runner_helper.generate_leaderboard_csv`): v1's `data.csv`; v3 and v4's
/// `data_overall.csv`, `data_live.csv`, `data_non_live.csv`, `data_multi_turn.csv`,
/// `data_agentic.csv` and `data_format_sensitivity.csv`. Only in a `score` or `score-<run>`
/// folder: the names alone say too little.
fn is_leaderboard_csv(path: &Path, name: &str) -> bool {
    const SUMMARIES: [&str; 7] =
        ["", "_overall", "_live", "_non_live", "_multi_turn", "_agentic", "_format_sensitivity"];
    name.strip_prefix("data").and_then(|n| n.strip_suffix(".csv")).is_some_and(|s| SUMMARIES.contains(&s))
        && path
            .parent()
            .and_then(Path::file_name)
            .and_then(std::ffi::OsStr::to_str)
            .is_some_and(|folder| folder == "score" || folder.starts_with("score-"))
}

/// The searcher for `memory_snapshot`, built once: [`is_bfcl_file`] looks for it in the path
/// of every file a walk finds.
fn snapshot_finder() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(b"memory_snapshot"))
}

/// Where a file sits in a BFCL layout, from its path alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The tree folder: `…/result`, `…/score`, `…/result-<run>` or `…/score-<run>`.
    pub tree: PathBuf,
    /// Whether the tree holds results (else scores).
    pub kind: FileKind,
    /// The run's name.
    pub run: String,
    /// The folder that names the run: the run folder above `result`/`score`, or the
    /// `result-<run>` (`score-<run>`) folder itself.
    pub run_root: PathBuf,
    /// The model folder's name; `None` for a file directly in the tree folder.
    pub model: Option<String>,
    /// How many folders lie between the model folder and the file.
    pub depth: usize,
    /// Whether a `memory_snapshot` folder lies between the model folder and the file.
    pub in_snapshot: bool,
}

/// Finds where `file` sits in a BFCL layout: the nearest folder above it named `result`,
/// `score`, `result-<run>` or `score-<run>`.
///
/// ```
/// use std::path::Path;
/// use evaltally_bfcl::layout::{locate, FileKind};
/// let p = locate(Path::new("runs/run-1/result/acme/live/BFCL_v4_live_simple_result.json")).unwrap();
/// assert_eq!((p.run.as_str(), p.model.as_deref(), p.kind, p.depth), ("run-1", Some("acme"), FileKind::Result, 1));
/// let p = locate(Path::new("pairs/score-base/acme/BFCL_v4_simple_score.json")).unwrap();
/// assert_eq!((p.run.as_str(), p.kind), ("base", FileKind::Score));
/// // A suffix that names the benchmark names no run: the folder above does.
/// let p = locate(Path::new("2024-07-06/result-BFCL/acme/simple_result.json")).unwrap();
/// assert_eq!(p.run, "2024-07-06");
/// assert!(locate(Path::new("loose/BFCL_v4_simple_result.json")).is_none());
/// // A registry name's `/` kept as a folder: the model is `<org>_<name>`, as BFCL names it.
/// let p = locate(Path::new("run/result/airev-ai/AIREV-Agent-0.8B/BFCL_v4_live_parallel_result.json")).unwrap();
/// assert_eq!((p.model.as_deref(), p.depth), (Some("airev-ai_AIREV-Agent-0.8B"), 0));
/// ```
pub fn locate(file: &Path) -> Option<Place> {
    fn name_of(p: &Path) -> std::borrow::Cow<'_, str> {
        p.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
    }
    // Walking up from the file: the folder just below the one looked at (the model folder
    // once the tree folder is found), the one below that, and whether a folder below them
    // is a snapshot.
    let mut below: Option<&Path> = None;
    let mut below_that: Option<&Path> = None;
    let mut in_snapshot = false;
    for (at, folder) in file.ancestors().skip(1).take_while(|p| !p.as_os_str().is_empty()).enumerate() {
        let name = name_of(folder);
        let tree = name == "result"
            || name == "score"
            || name.strip_prefix("result-").or_else(|| name.strip_prefix("score-")).is_some_and(|r| !r.is_empty());
        if tree {
            let (model, depth) = match (below, below_that) {
                // `<org>/<name>/`, a registry name whose `/` was kept: BFCL names the
                // model `<org>_<name>`.
                (Some(org), Some(name)) if !GROUP_FOLDERS.contains(&name_of(name).as_ref()) => {
                    (Some(format!("{}_{}", name_of(org), name_of(name))), at.saturating_sub(2))
                }
                _ => (below.map(|m| name_of(m).into_owned()), at.saturating_sub(1)),
            };
            return Some(place(folder, &name, model, depth, in_snapshot));
        }
        if let Some(b) = below {
            in_snapshot |= name_of(b) == "memory_snapshot";
        }
        below_that = below;
        below = Some(folder);
    }
    None
}

/// The folders BFCL puts a model's files in, by category group (V4,
/// `get_directory_structure_by_category`): any other folder right below a model folder is
/// the second half of a registry name `<org>/<name>` written with its `/`.
const GROUP_FOLDERS: [&str; 5] = ["non_live", "live", "multi_turn", "agentic", "format_sensitivity"];

/// The place of a file below tree folder `tree` (named `name`).
fn place(tree: &Path, name: &str, model: Option<String>, depth: usize, in_snapshot: bool) -> Place {
    let (kind, run, run_root) = if name == "result" || name == "score" {
        let kind = if name == "result" { FileKind::Result } else { FileKind::Score };
        let root = match tree.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (kind, folder_name(&root), root)
    } else if let Some(run) = name.strip_prefix("result-") {
        (FileKind::Result, suffix_run(tree, run), tree.to_path_buf())
    } else {
        (FileKind::Score, suffix_run(tree, name.strip_prefix("score-").unwrap_or(name)), tree.to_path_buf())
    };
    Place { tree: tree.to_path_buf(), kind, run, run_root, model, depth, in_snapshot }
}

/// The run a `result-<suffix>` (`score-<suffix>`) folder names: the suffix, unless it names
/// the benchmark (`result-BFCL`, `score-gorilla`, as BFCL's leaderboard snapshots were
/// saved, one dated folder each): then the folder above, the only thing that tells such
/// runs apart.
fn suffix_run(tree: &Path, suffix: &str) -> String {
    if !["bfcl", "gorilla"].iter().any(|b| suffix.eq_ignore_ascii_case(b)) {
        return suffix.to_string();
    }
    match tree.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => folder_name(parent),
        _ => folder_name(Path::new(".")),
    }
}

/// Where a score file's result file sits when the result tree mirrors the score tree:
/// `…/score/<model>/…/X_score.json` → `…/result/<model>/…/X_result.json` (and `score-<run>`
/// → `result-<run>`). Pairing does not rely on it (files pair by model and category); it
/// names the place when a score file has no result file.
///
/// ```
/// use std::path::{Path, PathBuf};
/// let p = evaltally_bfcl::layout::mirrored_result(Path::new("r1/score/m/live/BFCL_v4_live_simple_score.json"));
/// assert_eq!(p, Some(PathBuf::from("r1/result/m/live/BFCL_v4_live_simple_result.json")));
/// ```
pub fn mirrored_result(score: &Path) -> Option<PathBuf> {
    let place = locate(score)?;
    let name = score.file_name()?.to_str()?.strip_suffix("_score.json")?;
    let tree = place.tree.file_name()?.to_str()?;
    let result_tree = match tree {
        "score" => "result".to_string(),
        t => format!("result-{}", t.strip_prefix("score-")?),
    };
    let below = score.strip_prefix(&place.tree).ok()?.parent()?;
    Some(place.tree.with_file_name(result_tree).join(below).join(format!("{name}_result.json")))
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

/// Finds the runs at or below `path` with the one walk (`evaltally_format::walk`).
///
/// `path` may be a run folder, a folder of runs, a `result-<run>` folder, a `result`
/// folder itself, or a result or score file. Problems that do not stop the search
/// (unreadable sub-folders, duplicate files) are pushed to `diags`.
pub fn find_runs(path: &Path, diags: &mut Vec<Diagnostic>) -> Result<Vec<RunDir>, BfclError> {
    let mut roots = vec![path.to_path_buf()];
    roots.extend(companions(path).into_iter().filter(|c| c.is_dir()));
    let walked = evaltally_format::walk::walk(&roots).map_err(|e| BfclError::Io { path: e.path, source: e.source })?;
    diags.extend(walked.diagnostics);
    let files: Vec<(PathBuf, bool)> =
        walked.files.into_iter().filter(|f| is_bfcl_file(&f.path)).map(|f| (f.path, f.named)).collect();
    Ok(group(&files, diags))
}

/// The folders a path given implies: a `result-<run>` folder its `score-<run>` sibling, a
/// `result` folder its `score` sibling (and the other way round), and a folder inside one of
/// them (a model's, `run-1/result/<model>`) the same folder in the other.
///
/// ```
/// use std::path::{Path, PathBuf};
/// use evaltally_bfcl::layout::companions;
/// assert_eq!(companions(Path::new("runs/result-base")), [PathBuf::from("runs/score-base")]);
/// assert_eq!(companions(Path::new("run-1/result")), [PathBuf::from("run-1/score")]);
/// assert_eq!(companions(Path::new("run-1/result/gpt-4o/live")), [PathBuf::from("run-1/score/gpt-4o/live")]);
/// assert!(companions(Path::new("run-1")).is_empty());
/// assert!(companions(Path::new("score/projects/bfcl/run-1")).is_empty());
/// ```
pub fn companions(given: &Path) -> Vec<PathBuf> {
    let swapped = |name: &str| -> Option<String> {
        match name {
            "result" => Some("score".to_string()),
            "score" => Some("result".to_string()),
            _ => match (name.strip_prefix("result-"), name.strip_prefix("score-")) {
                (Some(run), _) => Some(format!("score-{run}")),
                (_, Some(run)) => Some(format!("result-{run}")),
                _ => None,
            },
        }
    };
    // The nearest folder, the given one or one of the two above it (a model's folder and its
    // `live`/`non_live`), that is a result or score tree: no higher, where a folder so named
    // is someone else's.
    for tree in given.ancestors().take(3) {
        let Some(name) = tree.file_name().and_then(std::ffi::OsStr::to_str) else { break };
        if let Some(other) = swapped(name) {
            let below = given.strip_prefix(tree).unwrap_or(Path::new(""));
            return vec![tree.with_file_name(other).join(below)];
        }
    }
    Vec::new()
}

/// A run's file pairs by `model NUL category` (which sorts as the pair would: neither a
/// folder name nor a category holds a NUL), looked up without building a key.
type RunFiles = BTreeMap<String, FilePair>;

/// The runs [`group`] finds, in the order found: each run's key, folder and files.
#[derive(Default)]
struct Runs {
    index: hashbrown::HashMap<(PathBuf, String), usize>,
    keys: Vec<(PathBuf, String)>,
    dirs: Vec<RunDir>,
    files: Vec<RunFiles>,
}

impl Runs {
    /// The run with `key`, made by `new` the first time.
    fn at(&mut self, key: (PathBuf, String), new: impl FnOnce() -> RunDir) -> usize {
        if let Some(&at) = self.index.get(&key) {
            return at;
        }
        self.index.insert(key.clone(), self.keys.len());
        self.keys.push(key);
        self.dirs.push(new());
        self.files.push(RunFiles::new());
        self.keys.len() - 1
    }

    /// Adds a file to run `at`'s pair for (model, category); when a file of that kind is
    /// there already, the file is not added and that file's path is given back (`key`: a
    /// reused buffer).
    fn add<'r>(
        &'r mut self,
        at: usize,
        model: &str,
        category: &str,
        kind: FileKind,
        path: &Path,
        key: &mut String,
    ) -> Option<&'r mut PathBuf> {
        key.clear();
        key.push_str(model);
        key.push('\0');
        key.push_str(category);
        let pairs = &mut self.files[at];
        if !pairs.contains_key(key.as_str()) {
            let pair = FilePair {
                run: self.dirs[at].name.clone(),
                model: model.to_string(),
                category: category.to_string(),
                result: None,
                score: None,
            };
            pairs.insert(key.clone(), pair);
        }
        let pair = pairs.get_mut(key.as_str())?;
        let slot = match kind {
            FileKind::Result => &mut pair.result,
            FileKind::Score => &mut pair.score,
        };
        if slot.is_none() {
            *slot = Some(path.to_path_buf());
            return None;
        }
        slot.as_mut()
    }

    /// The run files in `place` belong to, with the place's tree recorded as its results'
    /// or scores' folder.
    fn of_place(&mut self, place: &Place) -> usize {
        let tree_name = place.tree.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let dashed = tree_name.starts_with("result-") || tree_name.starts_with("score-");
        let key = if dashed {
            (place.tree.parent().map(Path::to_path_buf).unwrap_or_default(), place.run.clone())
        } else {
            (place.run_root.clone(), String::new())
        };
        let at = self.at(key, || RunDir {
            name: place.run.clone(),
            root: place.run_root.clone(),
            result_root: None,
            score_root: None,
            pairs: Vec::new(),
        });
        let run = &mut self.dirs[at];
        match place.kind {
            FileKind::Result => {
                if dashed {
                    run.root.clone_from(&place.tree);
                }
                run.result_root = Some(place.tree.clone());
            }
            FileKind::Score => run.score_root = Some(place.tree.clone()),
        }
        at
    }
}

/// What is said of a memory category's `*_prereq_result.json` (with `--verbose`).
const PREREQ_NOT_READ: &str = "not read: a BFCL memory category's prerequisite conversations, which BFCL never scores";
/// What is said of a leaderboard summary, `score/data_overall.csv` and the like (with
/// `--verbose`).
const LEADERBOARD_NOT_READ: &str =
    "not read: a BFCL leaderboard summary (each model's accuracy per category, no test's outcome)";
/// What is said of a file in a `memory_snapshot` folder (with `--verbose`).
const SNAPSHOT_NOT_READ: &str =
    "not read: a BFCL memory snapshot (the memory's state after a conversation), not a result";

/// Groups BFCL files (from the walk, with whether each was named by the user) into runs of
/// (model, category) pairs. Files outside any layout are reported, or, when named, read as
/// a run named after their folder for model `unknown`.
pub fn group<P: AsRef<Path>>(files: &[(P, bool)], diags: &mut Vec<Diagnostic>) -> Vec<RunDir> {
    // Runs keyed by the folder that names them (`result-x` and `score-x` by their parent and
    // x), each with its files.
    let mut runs = Runs::default();
    let mut too_deep = std::collections::BTreeSet::new();
    // Per folder of files: its place, and the run its files go to once one did. A place
    // depends on the folders above a file only, so the files of a folder share it.
    let mut folders: hashbrown::HashMap<&[u8], (Option<Place>, Option<usize>)> = hashbrown::HashMap::new();
    let mut key = String::new();
    for (path, named) in files {
        let path = path.as_ref();
        // The name and folder from the path's text where it is text (taking a path apart by
        // its components costs more than the rest of grouping a file).
        let (folder, name) = match path.to_str().and_then(|p| p.rfind(std::path::is_separator).map(|at| (p, at))) {
            Some((p, at)) if at + 1 < p.len() => (&p.as_bytes()[..at], Some(&p[at + 1..])),
            _ => (
                path.parent().map_or(&b""[..], |p| p.as_os_str().as_encoded_bytes()),
                path.file_name().and_then(std::ffi::OsStr::to_str),
            ),
        };
        let Some((kind, category)) = name.and_then(classify) else {
            let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            if name.starts_with("BFCL_") && path.file_name().and_then(std::ffi::OsStr::to_str).is_none() {
                diags.push(Diagnostic::warning(
                    path,
                    "file name is not valid UTF-8, so no category can be read from it; left out",
                ));
            } else if name.ends_with("_prereq_result.json") {
                diags.push(Diagnostic::info(path, PREREQ_NOT_READ));
            } else if name.ends_with(".csv") {
                diags.push(Diagnostic::info(path, LEADERBOARD_NOT_READ));
            } else {
                diags.push(Diagnostic::info(path, SNAPSHOT_NOT_READ));
            }
            continue;
        };
        let (place, run_of_folder) = folders.entry(folder).or_insert_with(|| (locate(path), None));
        let Some(place) = place else {
            if *named {
                let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
                let at = runs.at((dir.to_path_buf(), String::new()), || RunDir {
                    name: folder_name(dir),
                    root: dir.to_path_buf(),
                    result_root: None,
                    score_root: None,
                    pairs: Vec::new(),
                });
                // A later named file of the same category takes the place of an earlier one.
                if let Some(first) = runs.add(at, "unknown", category, kind, path, &mut key) {
                    *first = path.to_path_buf();
                }
            } else {
                diags.push(Diagnostic::warning(
                    path,
                    "BFCL file outside any known layout (no `result`, `score`, `result-<run>` or `score-<run>` folder above it); left out",
                ));
            }
            continue;
        };
        if place.in_snapshot {
            diags.push(Diagnostic::info(path, SNAPSHOT_NOT_READ));
            continue;
        }
        if place.kind != kind {
            diags.push(Diagnostic::info(
                path,
                match kind {
                    FileKind::Result => "not read: a result file's name in a score folder",
                    FileKind::Score => "not read: a score file's name in a result folder",
                },
            ));
            continue;
        }
        let Some(model) = &place.model else {
            let tree_name = place.tree.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            diags.push(Diagnostic::warning(
                path,
                format!(
                    "{} file directly in `{tree_name}`; expected it inside a model folder (…/{tree_name}/<model>/…); left out",
                    kind_word(kind),
                ),
            ));
            continue;
        };
        if place.depth >= MAX_TREE_DEPTH {
            let folder: PathBuf = path.ancestors().nth(place.depth - MAX_TREE_DEPTH + 1).unwrap_or(path).to_path_buf();
            if too_deep.insert(folder.clone()) {
                diags.push(Diagnostic::warning(
                    &folder,
                    format!("folder nested more than {MAX_TREE_DEPTH} levels below the model folder; not searched"),
                ));
            }
            continue;
        }
        // The folder's run, found (and its tree recorded) for the folder's first file.
        let at = *run_of_folder.get_or_insert_with(|| runs.of_place(place));
        if let Some(first) = runs.add(at, model, category, kind, path, &mut key) {
            diags.push(Diagnostic::warning(
                path,
                format!(
                    "second {} file for model `{model}`, category `{category}` (first: {}); left out",
                    kind_word(kind),
                    first.display()
                ),
            ));
        }
    }
    // Runs in natural order of their folders (by their keys where two share one).
    let Runs { keys, dirs, files: mut found, .. } = runs;
    let mut runs: Vec<(usize, (PathBuf, String), RunDir)> =
        keys.into_iter().zip(dirs).enumerate().map(|(i, (key, dir))| (i, key, dir)).collect();
    runs.sort_by(|(_, ka, a), (_, kb, b)| {
        evaltally_core::id::natural_path_cmp(&a.root, &b.root).then_with(|| ka.cmp(kb))
    });
    let mut out = Vec::with_capacity(runs.len());
    for (at, _, mut run) in runs {
        run.pairs = std::mem::take(&mut found[at]).into_values().collect();
        out.push(run);
    }
    disambiguate(&mut out);
    out
}

fn kind_word(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Result => "result",
        FileKind::Score => "score",
    }
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

impl RunDir {
    /// The run's result and score files paired by (model, category), sorted by model then
    /// category.
    pub fn files(&self) -> Vec<FilePair> {
        self.pairs.clone()
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
        for pair in &mut run.pairs {
            pair.run.clone_from(&run.name);
        }
    }
}
