//! Sets `EVALTALLY_VERSION` for `--version`: the package version, then the git commit the
//! build comes from when it can tell, `0.1.0 (1a2b3c4)`.
//!
//! The commit comes from `.cargo_vcs_info.json` in a crate packaged by `cargo package`, else
//! from `git rev-parse` in a checkout. Without either (a tarball without git, a wheel's
//! sdist), the version alone. Never uses the network.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    let commit = packaged_commit(&dir).or_else(|| git_commit(&dir));
    let shown = match commit {
        Some(commit) => format!("{version} ({commit})"),
        None => version,
    };
    println!("cargo:rustc-env=EVALTALLY_VERSION={shown}");
}

/// The commit `cargo package` recorded in `.cargo_vcs_info.json`, shortened.
fn packaged_commit(dir: &Path) -> Option<String> {
    let info = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&info).ok()?;
    println!("cargo:rerun-if-changed={}", info.display());
    // `"sha1": "<40 hex digits>"`: read by hand, to keep build dependencies out.
    let at = text.find("\"sha1\"")?;
    let rest = &text[at + 6..];
    let start = rest.find('"')? + 1;
    let sha: String = rest[start..].chars().take_while(char::is_ascii_hexdigit).collect();
    (sha.len() >= 7).then(|| sha[..7].to_string())
}

/// `git rev-parse --short HEAD` in `dir`, and a rerun when HEAD or the branch it points at
/// moves. `None` when git is missing or `dir` is not in a repository.
fn git_commit(dir: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Only the repository this crate is tracked in: a tarball unpacked inside some other
    // checkout must not take that checkout's commit.
    git(&["ls-files", "--full-name", "build.rs"])?;
    let commit = git(&["rev-parse", "--short", "HEAD"])?;
    // In a worktree HEAD lives in the worktree's git dir, branches in the common one.
    let git_dir = git(&["rev-parse", "--absolute-git-dir"]).map(PathBuf::from);
    let common = git(&["rev-parse", "--git-common-dir"]).map(|p| dir.join(p));
    let head_ref = git(&["symbolic-ref", "-q", "HEAD"]);
    let mut watched = Vec::new();
    if let Some(git_dir) = &git_dir {
        watched.push(git_dir.join("HEAD"));
    }
    if let Some(common) = &common {
        if let Some(head_ref) = &head_ref {
            watched.push(common.join(head_ref));
        }
        watched.push(common.join("packed-refs"));
    }
    // A path that does not exist would make cargo rerun this script on every build.
    for path in watched.into_iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    Some(commit)
}
