//! The one rule for naming runs that are named after their files.
//!
//! A format that holds no run name of its own names a run after its file's stem
//! (`2026-01-02_arith.eval` gives `2026-01-02_arith`, then `#epoch-1` for its epochs). A
//! stem that names a kind of file rather than a run (`evaluation_report.json`, `junit.xml`,
//! `results.json`, Surefire's `TEST-<class>.xml`: see [`is_generic`]) says nothing about the
//! run, and the runs of a folder of such files would all be named alike. Such a file's run
//! is named after the nearest folder that tells the files' folders apart instead
//! ([`folder_names`]): `run-1/ci-results/junit.xml` and `run-2/ci-results/junit.xml` are
//! `run-1` and `run-2`; a single `nightly-7/results.json` is `nightly-7`.
//!
//! The analyzer applies the names to what every command reads (runs, records, `show`'s
//! details), so `stability`, `show --run` and `export` agree.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// File stems (compared ignoring case, `-` and `_` alike) that name a kind of file.
const GENERIC: &[&str] = &[
    "all",
    "combined",
    "data",
    "eval",
    "eval-report",
    "eval-results",
    "evals",
    "evaluation",
    "evaluation-report",
    "evaluation-results",
    "final",
    "index",
    "junit",
    "junit-report",
    "junit-results",
    "latest",
    "log",
    "logs",
    "merged",
    "metrics",
    "out",
    "output",
    "outputs",
    "pytest",
    "report",
    "report-junit",
    "reports",
    "result",
    "results",
    "results-summary",
    "run",
    "score",
    "scores",
    "summary",
    "swebench-eval",
    "test",
    "test-detail",
    "test-report",
    "test-results",
    "testresults",
    "tests",
    "xunit",
];

/// Whether a file stem names a kind of file rather than a run: one of a list of such names
/// (`results`, `report`, `evaluation_report`, `junit`, `test-results`, `GoogleTest`'s
/// `test_detail`, …), several of them joined by dots (`output.report`, `results.junit`), or
/// Surefire's and Ant's `TEST-<class>` (one file per test class, all of one run).
///
/// ```
/// use evaltally_format::naming::is_generic;
/// assert!(is_generic("evaluation_report"));
/// assert!(is_generic("JUnit"));
/// assert!(is_generic("output.report"));
/// assert!(is_generic("TEST-com.acme.CartTest"));
/// assert!(!is_generic("2026-03-01_nightly"));
/// assert!(!is_generic("acme.report"));
/// ```
pub fn is_generic(stem: &str) -> bool {
    if stem.starts_with("TEST-") {
        return true;
    }
    stem.split('.').all(|part| {
        let folded: String = part.chars().map(|c| if c == '_' { '-' } else { c.to_ascii_lowercase() }).collect();
        GENERIC.binary_search(&folded.as_str()).is_ok()
    })
}

/// A name for each of `folders` (the folders of files with generic names), the same for the
/// same folder: the folder's own name when it is the only one; else, after the last
/// folders all of them share (`ci-results` in `run-1/ci-results`), as many folders as it
/// takes to tell it from the others.
///
/// ```
/// use std::path::PathBuf;
/// use evaltally_format::naming::folder_names;
/// let folders = [PathBuf::from("/ci/run-1/ci-results"), PathBuf::from("/ci/run-2/ci-results")];
/// assert_eq!(folder_names(&folders), ["run-1", "run-2"]);
/// let deeper = [PathBuf::from("/a/x/out"), PathBuf::from("/b/x/out"), PathBuf::from("/b/y/out")];
/// assert_eq!(folder_names(&deeper), ["a/x", "b/x", "y"]);
/// assert_eq!(folder_names(&[PathBuf::from("/runs/nightly-7")]), ["nightly-7"]);
/// ```
pub fn folder_names(folders: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = folders.iter().map(|f| components(f)).collect();
    let mut distinct: Vec<&Vec<String>> = parts.iter().collect();
    distinct.sort();
    distinct.dedup();
    // The trailing folders every one shares, left out (each keeps one folder at least).
    let shortest = distinct.iter().map(|p| p.len()).min().unwrap_or(0);
    let mut shared = 0;
    while distinct.len() > 1
        && shared + 1 < shortest
        && distinct.windows(2).all(|w| w[0][w[0].len() - 1 - shared] == w[1][w[1].len() - 1 - shared])
    {
        shared += 1;
    }
    let kept: Vec<&[String]> = parts.iter().map(|p| &p[..p.len() - shared]).collect();
    // The fewest last folders of what is kept that no other distinct folder ends with.
    let mut names: HashMap<&[String], String> = HashMap::new();
    let unique: Vec<&[String]> = {
        let mut u = kept.clone();
        u.sort();
        u.dedup();
        u
    };
    for (&folder, take) in unique.iter().zip(fewest_telling(&unique)) {
        names.insert(folder, folder[folder.len() - take..].join("/"));
    }
    kept.iter().map(|k| names.get(k).cloned().unwrap_or_default()).collect()
}

/// For each of the distinct `folders`, how many of its last folders no other one ends with
/// (all of them when every such tail is shared). The folders are split by their last folder,
/// the groups of more than one by the folder before it, and so on: linear in the folders'
/// depth, where comparing each folder with every other was quadratic in their number (400
/// generic `report.json` files cost milliseconds on every run).
fn fewest_telling(folders: &[&[String]]) -> Vec<usize> {
    let mut take = vec![0; folders.len()];
    let mut groups: Vec<Vec<usize>> = vec![(0..folders.len()).collect()];
    let mut depth = 0;
    while !groups.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for group in groups {
            let mut by_folder: HashMap<&str, Vec<usize>> = HashMap::new();
            for i in group {
                let f = folders[i];
                if let Some(name) = f.len().checked_sub(depth).map(|at| f[at].as_str()) {
                    by_folder.entry(name).or_default().push(i);
                }
            }
            for (_, same) in by_folder {
                if same.len() == 1 {
                    take[same[0]] = depth;
                    continue;
                }
                // A folder with no more folders to tell it apart keeps them all.
                let (whole, longer): (Vec<usize>, Vec<usize>) =
                    same.into_iter().partition(|&i| folders[i].len() == depth);
                for i in whole {
                    take[i] = depth;
                }
                if !longer.is_empty() {
                    next.push(longer);
                }
            }
        }
        groups = next;
    }
    take
}

/// The names of a path's folders, from the root, for [`folder_names`]: the path made
/// absolute (a file given as `results.json` is in the current folder, which has a name), with
/// `.` and `..` resolved by name.
fn components(path: &Path) -> Vec<String> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out: Vec<String> = Vec::new();
    for c in absolute.components() {
        match c {
            Component::Normal(name) => out.push(name.to_string_lossy().into_owned()),
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    if out.is_empty() {
        out.push("/".to_string());
    }
    out
}

/// The run name each file gives its runs under the rule above, for the files whose stems
/// are generic; `None` for the others (and for entries that are not files), which keep the
/// names their formats give them.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::naming::file_run_names;
/// let files = [
///     Some(Path::new("/ci/run-1/ci-results/junit.xml")),
///     Some(Path::new("/ci/run-2/ci-results/junit.xml")),
///     Some(Path::new("/ci/2026-01-02_arith.eval")),
///     None,
/// ];
/// assert_eq!(
///     file_run_names(&files),
///     [Some("run-1".to_string()), Some("run-2".to_string()), None, None]
/// );
/// ```
pub fn file_run_names(files: &[Option<&Path>]) -> Vec<Option<String>> {
    let generic: Vec<(usize, PathBuf)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let f = (*f)?;
            let stem = f.file_stem()?.to_str()?;
            let folder = f.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            is_generic(stem).then(|| (i, folder.to_path_buf()))
        })
        .collect();
    let mut out = vec![None; files.len()];
    let folders: Vec<PathBuf> = generic.iter().map(|(_, f)| f.clone()).collect();
    for ((i, _), name) in generic.iter().zip(folder_names(&folders)) {
        out[*i] = Some(name);
    }
    out
}

/// `name` given to a run that its format named `run` after `file`: the run's own part after
/// the stem (`#epoch-2`) is kept. `None` when the format did not name the run after the file
/// (a run id the document holds).
///
/// ```
/// use std::path::Path;
/// use evaltally_format::naming::renamed;
/// let file = Path::new("a/results.eval");
/// assert_eq!(renamed("results#epoch-2", file, "run-4").as_deref(), Some("run-4#epoch-2"));
/// assert_eq!(renamed("results", file, "run-4").as_deref(), Some("run-4"));
/// assert_eq!(renamed("acme-20260101", file, "run-4"), None);
/// ```
pub fn renamed(run: &str, file: &Path, name: &str) -> Option<String> {
    let stem = file.file_stem()?.to_str()?;
    let rest = run.strip_prefix(stem)?;
    (rest.is_empty() || rest.starts_with('#')).then(|| format!("{name}{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition [`fewest_telling`] computes: the fewest last folders no other ends with.
    fn fewest_telling_by_definition(folders: &[&[String]]) -> Vec<usize> {
        folders
            .iter()
            .map(|folder| {
                let mut take = 1.min(folder.len());
                while take < folder.len()
                    && folders.iter().any(|other| other != folder && other.ends_with(&folder[folder.len() - take..]))
                {
                    take += 1;
                }
                take
            })
            .collect()
    }

    #[test]
    fn telling_folders_apart_agrees_with_its_definition() {
        // Every set of distinct folders of depth 1 to 3 over two names, and some deeper ones.
        let names = ["a", "b"];
        let mut all: Vec<Vec<String>> = Vec::new();
        for depth in 1..=3u32 {
            for bits in 0..2usize.pow(depth) {
                all.push((0..depth).map(|d| names[(bits >> d) & 1].to_string()).collect());
            }
        }
        all.push(["x", "a", "b", "a"].map(String::from).to_vec());
        all.push(["y", "a", "b", "a"].map(String::from).to_vec());
        // Subsets by a fixed stride, so that short and long folders mix.
        for stride in 1..=all.len() {
            for start in 0..stride {
                let subset: Vec<&[String]> = all.iter().skip(start).step_by(stride).map(Vec::as_slice).collect();
                assert_eq!(fewest_telling(&subset), fewest_telling_by_definition(&subset), "{subset:?}");
            }
        }
    }

    #[test]
    fn the_generic_list_is_sorted_for_its_search() {
        assert!(GENERIC.is_sorted());
        assert!(GENERIC.iter().all(|g| is_generic(g)));
    }

    /// Files in one folder share its name; a folder given twice is named once.
    #[test]
    fn files_of_one_folder_share_a_name() {
        let files = [
            Some(Path::new("/r/run-1/reports/TEST-a.xml")),
            Some(Path::new("/r/run-1/reports/TEST-b.xml")),
            Some(Path::new("/r/run-2/reports/TEST-a.xml")),
        ];
        let names: Vec<String> = file_run_names(&files).into_iter().map(Option::unwrap).collect();
        assert_eq!(names, ["run-1", "run-1", "run-2"]);
    }

    /// Relative paths are named as their absolute forms; the root has a name.
    #[test]
    fn relative_paths_and_the_root() {
        let here = std::env::current_dir().unwrap();
        let own = here.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap();
        assert_eq!(file_run_names(&[Some(Path::new("results.json"))]), [Some(own)]);
        assert_eq!(folder_names(&[PathBuf::from("/")]), ["/"]);
    }
}
