//! The CI recipes of `docs/ci.md`, run: every shell command of the GitHub Actions job and of
//! the GitLab CI job, in order, under the conditions each step states, on runs from
//! `testdata/`: a push to main (which stores the baseline), a request that passes the gate and
//! a request that trips it. The page cannot drift from the binary: a command or an option the
//! recipes use that changes, or a step whose condition this test cannot evaluate, fails here.
//!
//! The recipes are read as written, with a small reader for the subset of YAML they use:
//! GitHub's top-level `env:`, and per step `if:` and `run:`; GitLab's `variables:`,
//! `before_script:` and `script:`. Installing evaltally is the one line not run: the binary
//! under test stands in for it, first on `PATH`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use evaltally_testkit::{testdata, workspace_root};

/// The fenced `yaml` blocks of docs/ci.md: (GitHub Actions, GitLab CI).
fn recipes() -> (String, String) {
    let page = std::fs::read_to_string(workspace_root().join("docs/ci.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```yaml") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    assert_eq!(blocks.len(), 2, "docs/ci.md holds the GitHub Actions and the GitLab CI recipe");
    let github = blocks.iter().find(|b| b.contains("\njobs:")).expect("a GitHub Actions workflow").clone();
    let gitlab = blocks.iter().find(|b| b.contains("  script:")).expect("a GitLab CI job").clone();
    (github, gitlab)
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The `key: value` pairs directly under the line `header` (a mapping one level deeper).
fn mapping(yaml: &str, header: &str) -> BTreeMap<String, String> {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines.iter().position(|l| l.trim_end() == header).unwrap_or_else(|| panic!("no `{header}`"));
    let depth = indent(lines[start]);
    let mut out = BTreeMap::new();
    for line in &lines[start + 1..] {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if indent(line) <= depth {
            break;
        }
        let (k, v) = line.trim().split_once(": ").unwrap_or_else(|| panic!("not `key: value`: {line}"));
        out.insert(k.to_string(), v.trim_matches('"').to_string());
    }
    out
}

/// The items of the list under the line `header` (`- item` lines one level deeper).
fn list(yaml: &str, header: &str) -> Vec<String> {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines.iter().position(|l| l.trim_end() == header).unwrap_or_else(|| panic!("no `{header}`"));
    let depth = indent(lines[start]);
    let mut out = Vec::new();
    for line in &lines[start + 1..] {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if indent(line) <= depth {
            break;
        }
        out.push(line.trim().strip_prefix("- ").unwrap_or_else(|| panic!("not a list item: {line}")).to_string());
    }
    out
}

/// One GitHub Actions step: its condition and its shell command, when it has them.
#[derive(Debug)]
struct Step {
    name: String,
    condition: Option<String>,
    run: Option<String>,
}

fn github_steps(yaml: &str) -> Vec<Step> {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines.iter().position(|l| l.trim_end() == "    steps:").expect("the job's steps");
    let mut steps: Vec<Step> = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        let body = line.trim_start();
        if let Some(item) = body.strip_prefix("- ") {
            let name = item.strip_prefix("name: ").or_else(|| item.strip_prefix("uses: ")).unwrap_or(item);
            steps.push(Step { name: name.to_string(), condition: None, run: None });
        } else if let Some(cond) = body.strip_prefix("if: ") {
            steps.last_mut().unwrap().condition = Some(cond.to_string());
        } else if let Some(run) = body.strip_prefix("run: ") {
            assert_ne!(run, "|", "a multi-line `run:` is beyond this reader: keep each command on one line");
            steps.last_mut().unwrap().run = Some(run.to_string());
        } else if let Some(name) = body.strip_prefix("name: ") {
            steps.last_mut().unwrap().name = name.to_string();
        }
        i += 1;
    }
    steps
}

/// Evaluates the conditions the GitHub recipe uses: `always()` and `a == 'b'` terms joined by
/// `&&`, over `github.event_name` and `github.ref`.
fn holds(condition: &str, event: &str, git_ref: &str) -> bool {
    condition.split("&&").map(str::trim).all(|term| {
        if term == "always()" {
            return true;
        }
        let (left, right) =
            term.split_once("==").unwrap_or_else(|| panic!("a condition this test cannot read: {term}"));
        let value = match left.trim() {
            "github.event_name" => event,
            "github.ref" => git_ref,
            other => panic!("a condition on `{other}`, which this test does not simulate"),
        };
        value == right.trim().trim_matches('\'')
    })
}

/// A folder standing in for the repository a job checks out, with `evaltally` first on PATH.
struct Job {
    dir: tempfile::TempDir,
    bin: PathBuf,
    env: BTreeMap<String, String>,
}

impl Job {
    /// A checkout whose folder `runs_at` holds a copy of the run `run` (under its own name,
    /// as an evaluation leaves a run folder), sharing `store` and `cache`.
    fn new(run: &Path, runs_at: &str, store: &Path, cache: &Path, env: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        evaltally_testkit::copy_folder(run, &dir.path().join(runs_at).join(run.file_name().unwrap()));
        // The digest cache stores no reading of a file changed in the last 100 ms (it may
        // still be being written); an evaluation's files are older by the time CI checks them.
        std::thread::sleep(std::time::Duration::from_millis(200));
        let bin = dir.path().join(".bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_evaltally"), bin.join("evaltally")).unwrap();
        let mut vars: BTreeMap<String, String> =
            env.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect();
        vars.insert("EVALTALLY_STORE".into(), store.to_string_lossy().into_owned());
        vars.insert("EVALTALLY_CACHE".into(), cache.to_string_lossy().into_owned());
        vars.insert("EVALTALLY_CACHE_STATS".into(), "1".into());
        Job { dir, bin, env: vars }
    }

    /// Runs `command` as the CI's shell would (bash, stopping at the first failure); its exit
    /// code and what it printed.
    fn sh(&self, command: &str, recipe_env: &BTreeMap<String, String>) -> (i32, String) {
        let path = format!("{}:{}", self.bin.display(), std::env::var("PATH").unwrap_or_default());
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", command]).current_dir(self.dir.path());
        for (k, v) in recipe_env {
            // The store and the cache are the test's; secrets are not given.
            if !v.contains("${{") && k != "EVALTALLY_STORE" && k != "EVALTALLY_CACHE" {
                cmd.env(k, v);
            }
        }
        cmd.envs(&self.env).env("PATH", path).env_remove("NO_COLOR");
        let out = cmd.output().expect("bash runs");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        (out.status.code().unwrap_or(-1), text)
    }

    fn file(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}

/// Whether a line installs evaltally (the binary under test stands in for it).
fn installs(command: &str) -> bool {
    command.starts_with("pip install") || command.starts_with("cargo install")
}

/// A BFCL run like `testdata/bfcl/v4/run-1` in which every `simple_python` test fails: a
/// significant drop.
fn regressed_run() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("run-3");
    evaltally_testkit::copy_folder(&testdata("bfcl/v4/run-1"), &dir);
    let result =
        std::fs::read_to_string(dir.join("result/acme_tiny-7b/non_live/BFCL_v4_simple_python_result.json")).unwrap();
    let ids: Vec<String> = result
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    let mut score = format!("{{\"accuracy\": 0.0, \"correct_count\": 0, \"total_count\": {}}}\n", ids.len());
    for id in &ids {
        let _ = writeln!(
            score,
            "{{\"id\": \"{id}\", \"valid\": false, \"error\": [\"wrong\"], \"error_type\": \"value_error:string\"}}"
        );
    }
    std::fs::write(dir.join("score/acme_tiny-7b/non_live/BFCL_v4_simple_python_score.json"), score).unwrap();
    (root, dir)
}

/// What each job left: the exit code of every command it ran, by step.
type Transcript = Vec<(String, i32, String)>;

fn github_job(yaml: &str, job: &Job, event: &str, git_ref: &str) -> Transcript {
    let env = mapping(yaml, "env:");
    let mut out = Vec::new();
    for step in github_steps(yaml) {
        let Some(run) = &step.run else { continue };
        if installs(run) || !step.condition.as_deref().is_none_or(|c| holds(c, event, git_ref)) {
            continue;
        }
        let (code, text) = job.sh(run, &env);
        let failed = code != 0;
        out.push((step.name.clone(), code, text));
        // A failed step stops the job, but for the steps that run `always()`, which have no
        // command here.
        if failed {
            break;
        }
    }
    out
}

fn gitlab_job(yaml: &str, job: &Job) -> Transcript {
    let env = mapping(yaml, "  variables:");
    let mut out = Vec::new();
    for command in list(yaml, "  before_script:").into_iter().chain(list(yaml, "  script:")) {
        if installs(&command) {
            continue;
        }
        let (code, text) = job.sh(&command, &env);
        let failed = code != 0;
        out.push((command, code, text));
        if failed {
            break;
        }
    }
    out
}

fn codes(t: &Transcript) -> Vec<i32> {
    t.iter().map(|(_, c, _)| *c).collect()
}

fn shown(t: &Transcript) -> String {
    t.iter().fold(String::new(), |mut out, (s, c, text)| {
        let _ = writeln!(out, "$ {s}\nexit {c}\n{text}");
        out
    })
}

#[test]
fn the_github_actions_recipe_runs_as_written() {
    let (github, _) = recipes();
    let env = mapping(&github, "env:");
    assert_eq!(env["RUNS"], "evals/runs");
    let shared = tempfile::tempdir().unwrap();
    let (store, cache) = (shared.path().join("store"), shared.path().join("cache"));
    let summary = shared.path().join("summary.md");
    let summary_file = summary.to_string_lossy().into_owned();
    let vars = |branch: &'static str, sha: &'static str| {
        [("GITHUB_REF_NAME", branch), ("GITHUB_SHA", sha), ("GITHUB_STEP_SUMMARY", summary_file.as_str())]
    };

    // A push to main: checked, written as JUnit, pushed with its branch; no gate.
    let main = Job::new(&testdata("bfcl/v4/run-1"), "evals/runs", &store, &cache, &vars("main", "1111111"));
    let t = github_job(&github, &main, "push", "refs/heads/main");
    assert_eq!(codes(&t), [0, 0, 0], "validate, stability, push:\n{}", shown(&t));
    assert!(main.file("evaltally-junit.xml").contains("<testcase classname=\"acme_tiny-7b/simple_python\""));
    assert!(t[2].2.contains("pushed evals/runs as store:"), "{}", shown(&t));
    assert_eq!(env["EVALTALLY_CACHE"], ".evaltally-cache", "the folder actions/cache keeps");
    assert!(github.contains("          path: .evaltally-cache\n"));
    assert!(t[0].2.contains("cache: 0 hits, 5 misses, 5 stored"), "the cache is filled:\n{}", shown(&t));

    // A pull request with no significant drop: report and gate run, and the gate passes.
    let pr_env = vars("7/merge", "2222222");
    let pr = Job::new(&testdata("bfcl/v4/run-2"), "evals/runs", &store, &cache, &pr_env);
    let t = github_job(&github, &pr, "pull_request", "refs/pull/7/merge");
    assert_eq!(codes(&t), [0, 0, 0, 0], "validate, stability, report, gate:\n{}", shown(&t));
    assert!(pr.file("evaltally-report.html").starts_with("<!doctype html>"));
    let gate = std::fs::read_to_string(&summary).unwrap();
    assert!(gate.starts_with("# evaltally compare\n"), "{gate}");
    assert!(gate.contains("`run-1` → `run-2`"), "the baseline is main's run, from the store:\n{gate}");
    // The gate reads the runs the report read, from the cache.
    assert!(t[3].2.contains(" hits, 0 misses, 0 stored,") && t[3].2.contains(" 0 units read"), "{}", shown(&t));

    // A pull request whose runs dropped: the gate fails the job.
    let (_bad, run) = regressed_run();
    let pr = Job::new(&run, "evals/runs", &store, &cache, &pr_env);
    let t = github_job(&github, &pr, "pull_request", "refs/pull/8/merge");
    assert_eq!(codes(&t), [0, 0, 0, 1], "the gate trips:\n{}", shown(&t));
    assert!(std::fs::read_to_string(&summary).unwrap().contains("regression"));
    // The job's log says why, though the comparison went to the step summary.
    assert!(
        t[3].2.contains("--fail-on significant: a drop beyond noise for acme_tiny-7b (overall, simple_python)"),
        "{}",
        shown(&t)
    );
}

#[test]
fn the_gitlab_ci_recipe_runs_as_written() {
    let (_, gitlab) = recipes();
    let shared = tempfile::tempdir().unwrap();
    let (store, cache) = (shared.path().join("store"), shared.path().join("cache"));
    let main_env = [("CI_COMMIT_BRANCH", "main"), ("CI_DEFAULT_BRANCH", "main"), ("CI_COMMIT_SHA", "1111111")];
    let main = Job::new(&testdata("bfcl/v4/run-1"), "evals/runs", &store, &cache, &main_env);
    let t = gitlab_job(&gitlab, &main);
    assert_eq!(codes(&t), [0, 0, 0, 0, 0], "{}", shown(&t));
    assert!(t[4].2.contains("pushed evals/runs as store:"), "{}", shown(&t));
    assert!(main.file("evaltally-junit.xml").starts_with("<?xml"));

    let mr_env = [("CI_MERGE_REQUEST_IID", "7"), ("CI_DEFAULT_BRANCH", "main"), ("CI_COMMIT_SHA", "2222222")];
    let mr = Job::new(&testdata("bfcl/v4/run-2"), "evals/runs", &store, &cache, &mr_env);
    let t = gitlab_job(&gitlab, &mr);
    assert_eq!(codes(&t), [0, 0, 0, 0, 0], "{}", shown(&t));
    assert!(mr.file("evaltally-report.html").starts_with("<!doctype html>"));
    assert!(t[3].2.contains("compare run-1 → run-2"), "the baseline is main's run, from the store:\n{}", shown(&t));

    let (_bad, run) = regressed_run();
    let mr = Job::new(&run, "evals/runs", &store, &cache, &mr_env);
    let t = gitlab_job(&gitlab, &mr);
    assert_eq!(codes(&t), [0, 0, 0, 1], "the gate trips:\n{}", shown(&t));
}
