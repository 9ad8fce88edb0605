//! Test helpers shared by evaltally's crates (a dev-dependency only).
//!
//! Reference data lives beside the checkout in `../shared/refdata` and is never copied
//! into the repository. [`refdata`] finds it; a test that needs it skips with a printed
//! notice when it is missing, except under `CI=true`, where a missing folder fails the
//! test.

pub mod faults;
pub mod hostile;
pub mod http;
pub mod schema;

use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top `Cargo.toml`).
///
/// # Panics
/// Never in this workspace: the crate lives two levels below the root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("testkit lives at crates/evaltally-testkit")
        .to_path_buf()
}

/// Copies the folder `from` to `to` (made), files and folders, as a test's own copy of a
/// fixture it changes.
///
/// # Panics
/// When a file cannot be copied.
pub fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("the folder is made");
    for entry in std::fs::read_dir(from).expect("the fixture is listed").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("the file is copied");
        }
    }
}

/// A path inside the workspace's `testdata/` folder.
pub fn testdata(rel: &str) -> PathBuf {
    workspace_root().join("testdata").join(rel)
}

/// Whether the tests run in CI (`CI` set to anything but empty, `0` or `false`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The `shared/` folder beside the checkout, if it exists.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = workspace_root().parent()?.join("shared");
    dir.is_dir().then_some(dir)
}

/// Says that a test skips part of its work, and why: a line on stderr, and a line appended
/// to the file `EVALTALLY_SKIPPED_TESTS` names when it is set (`cargo xtask snapshots` sets
/// it, so that the snapshots of a skipped test are not taken for unreferenced ones).
pub fn skipped(reason: &str) {
    #[allow(clippy::print_stderr)]
    {
        eprintln!("skipped: {reason}");
    }
    if let Some(log) = std::env::var_os("EVALTALLY_SKIPPED_TESTS") {
        use std::io::Write as _;
        let file = std::fs::OpenOptions::new().create(true).append(true).open(log);
        // One write of one line: concurrent test processes append whole lines.
        let _ = file.and_then(|mut f| f.write_all(format!("{reason}\n").as_bytes()));
    }
}

/// A path inside `../shared/<rel>`: `Some` when it exists; `None` (after printing a notice)
/// when it does not.
///
/// # Panics
/// Under `CI=true` when the path is missing: CI always has the shared data.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let path = workspace_root().parent().map(|p| p.join("shared").join(rel));
    match path {
        Some(p) if p.exists() => Some(p),
        _ => {
            assert!(!in_ci(), "../shared/{rel} is missing; CI must have the shared data beside the checkout");
            skipped(&format!("../shared/{rel} not found beside the checkout"));
            None
        }
    }
}

/// A path inside `../shared/refdata/<rel>`; see [`shared`].
pub fn refdata(rel: &str) -> Option<PathBuf> {
    shared(&format!("refdata/{rel}"))
}

/// A JSON file, parsed.
///
/// # Panics
/// When the file cannot be read or is not JSON (a test fixture must be).
pub fn load_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Validation findings (or anything displayable), one per line, for snapshots;
/// `(no findings)` when there are none.
pub fn render_findings<T: std::fmt::Display>(findings: &[T]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for f in findings {
        let _ = writeln!(out, "{f}");
    }
    if out.is_empty() {
        out.push_str("(no findings)\n");
    }
    out
}

/// Every `*.json` file below `dir`, at any depth (none when `dir` does not exist).
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// How many files `dir` holds at any depth, and their bytes (nothing when `dir` does not
/// exist; symbolic links are counted as files, not followed).
pub fn files_and_bytes_below(dir: &Path) -> (usize, u64) {
    let mut total = (0, 0);
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let Ok(meta) = e.path().symlink_metadata() else { continue };
            if meta.is_dir() {
                todo.push(e.path());
            } else {
                total.0 += 1;
                total.1 += meta.len();
            }
        }
    }
    total
}

/// Debian's headless-capable Chromium (`/usr/bin/chromium`, or `chromium` or
/// `chromium-browser` on the `PATH`; `EVALTALLY_CHROMIUM` names another), for the browser
/// tests; `None` after a printed notice when there is none.
///
/// # Panics
/// When there is none under `CI=true` (`.ci/run` installs it).
pub fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("EVALTALLY_CHROMIUM").map(PathBuf::from);
    let on_path = |name: &str| {
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
    };
    let found = named
        .filter(|p| p.is_file())
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.is_file()))
        .or_else(|| on_path("chromium"))
        .or_else(|| on_path("chromium-browser"));
    if found.is_none() {
        assert!(!in_ci(), "chromium is missing; CI installs it in .ci/run (apt-get install chromium)");
        skipped("no chromium (apt-get install chromium, or set EVALTALLY_CHROMIUM)");
    }
    found
}
