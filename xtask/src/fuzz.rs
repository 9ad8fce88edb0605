//! `cargo xtask fuzz [--seconds N] [TARGET...]`: run the cargo-fuzz targets in `fuzz/`.
//!
//! Steps:
//! 1. Check that a nightly toolchain and cargo-fuzz are installed (both are needed by
//!    libFuzzer's instrumentation); say how to install them when not.
//! 2. Build a seed corpus per target under `<target dir>/fuzz-corpus/<target>/` from the
//!    fixtures in `testdata/` (and the saved inputs in `testdata/fuzz-regressions/`), so the
//!    fuzzer starts from real files. For `bfcl_pair`, which splits its input at the first
//!    0xFF byte into a result and a score file, every result file is also joined with each
//!    file beside it.
//! 3. Run each target for N seconds (default 60), one after another, and report the runs
//!    libFuzzer made. A crash leaves its input in `fuzz/artifacts/<target>/`; this task then
//!    fails and names it. Fix the bug, then move the input into
//!    `testdata/fuzz-regressions/<target>/` so the replay test keeps it fixed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail, ensure};

use crate::{relative, run_cmd, succeeds, workspace_root};

/// The fuzz targets, with the fixture folders (under `testdata/`) that seed each one.
const TARGETS: [(&str, &[&str]); 16] = [
    ("bfcl_lines", &["bfcl"]),
    ("bfcl_pair", &["bfcl"]),
    ("sfbench_report", &["sfbench", "sfbench-runs", "swebench"]),
    ("gstack_result", &["gstack"]),
    ("junit_report", &["junit"]),
    (
        "formats",
        &[
            "gstack",
            "junit",
            "sfbench",
            "swebench",
            "taubench",
            "tau2",
            "terminal-bench",
            "lmeval",
            "lighteval",
            "inspect",
            "promptfoo",
            "helm",
            "openai-evals",
            "oaieval",
            "evalplus",
            "shapes/evalplus",
            "malformed",
            "hostile",
        ],
    ),
    ("taubench", &["taubench", "tau2"]),
    ("terminal_bench", &["terminal-bench", "shapes/terminal-bench"]),
    ("evalplus", &["evalplus", "shapes/evalplus"]),
    ("lmeval", &["lmeval"]),
    ("lighteval", &["lighteval", "shapes/lighteval", "malformed/lighteval"]),
    ("inspect_log", &["inspect"]),
    ("promptfoo_output", &["promptfoo"]),
    ("helm_run", &["helm"]),
    ("openai_evals_items", &["openai-evals", "oaieval"]),
    ("text", &["hostile"]),
];

/// What `cargo xtask fuzz` was asked to do.
pub(crate) struct Options {
    seconds: u64,
    targets: Vec<&'static str>,
}

impl Options {
    /// Parses `[--seconds N] [TARGET...]`; `None` on anything else.
    pub(crate) fn parse(flags: &[&str]) -> Option<Self> {
        let mut seconds = 60;
        let mut targets = Vec::new();
        let mut flags = flags.iter();
        while let Some(&flag) = flags.next() {
            if flag == "--seconds" {
                seconds = flags.next()?.parse().ok().filter(|&n| n > 0)?;
            } else {
                targets.push(TARGETS.iter().find(|(name, _)| *name == flag)?.0);
            }
        }
        if targets.is_empty() {
            targets = TARGETS.iter().map(|(name, _)| *name).collect();
        }
        Some(Self { seconds, targets })
    }
}

fn nightly_cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new("cargo");
    // `cargo xtask` runs under the pinned stable toolchain; let rustup pick nightly instead.
    cmd.arg("+nightly").args(args).current_dir(workspace_root().join("fuzz"));
    for var in ["RUSTUP_TOOLCHAIN", "RUSTC", "RUSTDOC", "CARGO"] {
        cmd.env_remove(var);
    }
    cmd
}

pub(crate) fn run(options: &Options) -> Result<()> {
    if !succeeds(nightly_cargo(&["fuzz", "--version"])) {
        bail!(
            "`cargo +nightly fuzz` is not available; install it with\n  \
             rustup toolchain install nightly && cargo install cargo-fuzz"
        );
    }
    let corpus_root = crate::target_dir()?.join("fuzz-corpus");
    for &target in &options.targets {
        let corpus = corpus_root.join(target);
        let seeds = seed_corpus(target, &corpus)?;
        eprintln!("xtask: {target}: {seeds} seed inputs in {}", relative(&corpus).display());
        let before = artifacts(target);
        let max_time = format!("-max_total_time={}", options.seconds);
        let corpus_arg = corpus.to_string_lossy().into_owned();
        let result = run_cmd(&mut nightly_cargo(&[
            "fuzz",
            "run",
            target,
            &corpus_arg,
            "--",
            &max_time,
            "-rss_limit_mb=4096",
            "-print_final_stats=1",
        ]));
        let new: Vec<PathBuf> = artifacts(target).into_iter().filter(|a| !before.contains(a)).collect();
        if new.is_empty() {
            // No crash input: a build failure or a bad flag, reported as it is.
            result?;
        }
        ensure!(
            new.is_empty(),
            "{target} crashed; input(s):\n  {}\nfix it, then move the input into testdata/fuzz-regressions/{target}/",
            new.iter().map(|a| relative(a).display().to_string()).collect::<Vec<_>>().join("\n  ")
        );
    }
    Ok(())
}

/// Files in `fuzz/artifacts/<target>/`.
fn artifacts(target: &str) -> Vec<PathBuf> {
    let dir = workspace_root().join("fuzz/artifacts").join(target);
    fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default()
}

/// Writes the seed inputs for `target` into `corpus` (kept between runs: libFuzzer adds the
/// inputs it finds interesting to it) and returns how many seeds there are.
fn seed_corpus(target: &str, corpus: &Path) -> Result<usize> {
    fs::create_dir_all(corpus).with_context(|| format!("creating {}", corpus.display()))?;
    let testdata = workspace_root().join("testdata");
    let dirs = TARGETS.iter().find(|(name, _)| *name == target).map_or(&[][..], |(_, dirs)| dirs);
    let mut files = Vec::new();
    for dir in dirs.iter().map(|d| testdata.join(d)).chain([testdata.join("fuzz-regressions").join(target)]) {
        files_under(&dir, &mut files);
    }
    let mut seeds = 0;
    let mut write = |name: String, bytes: &[u8]| -> Result<()> {
        seeds += 1;
        fs::write(corpus.join(name), bytes).context("writing a seed input")
    };
    for (i, file) in files.iter().enumerate() {
        let bytes = fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        write(format!("seed-{i}"), &bytes)?;
        if target == "bfcl_pair" {
            for (j, other) in files.iter().enumerate().filter(|(_, o)| *o != file && o.parent() == file.parent()) {
                let mut joined = bytes.clone();
                joined.push(0xFF);
                joined.extend(fs::read(other)?);
                write(format!("seed-{i}-{j}"), &joined)?;
            }
        }
    }
    Ok(seeds)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_under(&path, out);
        } else if path.extension().is_none_or(|e| e != "md") {
            out.push(path);
        }
    }
}
