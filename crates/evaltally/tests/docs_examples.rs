//! The examples of the documentation, run. Every `console` block of `README.md` and
//! `docs/*.md` is a session: its `$ ` lines (a line ending in `\` goes on in the next) run
//! one after another through `sh`, in a scratch folder where the pages' paths find the
//! workspace's `testdata/` and `xtask/` (and `../shared/`), with `evaltally` the binary under
//! test and a home, cache and store of their own. What each command prints (stdout, then
//! stderr) must be the lines the block shows under it, where a line `...` or `…` stands for
//! any number of lines, none included. The pages cannot drift from the binary: an output that
//! changes fails here until its example does too.
//!
//! Not run: a block the page marks with `<!-- example not run: WHY -->` on the line before
//! it (a server that runs until stopped, a folder the page only describes). A block that
//! reads `../shared/refdata` is skipped with a notice where that folder is missing, and fails
//! under `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use evaltally_testkit::{in_ci, shared_dir, skipped, workspace_root};

/// What marks a block not to run, on the line before its opening fence.
const NOT_RUN: &str = "<!-- example not run: ";

/// One command of a block and the lines the page shows under it.
struct Step {
    command: String,
    shown: Vec<String>,
}

/// A `console` block: where it opens and its commands.
struct Block {
    line: usize,
    steps: Vec<Step>,
}

/// The blocks of a page, without those marked not to run.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```console" {
            i += 1;
            continue;
        }
        let marked = i > 0 && lines[i - 1].trim_start().starts_with(NOT_RUN);
        let line = i + 1;
        let mut steps: Vec<Step> = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            if let Some(first) = lines[i].strip_prefix("$ ") {
                let mut command = first.to_string();
                while command.ends_with('\\') && i + 1 < lines.len() {
                    command.pop();
                    i += 1;
                    command.push_str(lines[i]);
                }
                steps.push(Step { command, shown: Vec::new() });
            } else if let Some(step) = steps.last_mut() {
                step.shown.push(lines[i].to_string());
            }
            i += 1;
        }
        for step in &mut steps {
            while step.shown.last().is_some_and(|l| l.trim().is_empty()) {
                step.shown.pop();
            }
        }
        if !marked {
            out.push(Block { line, steps });
        }
        i += 1;
    }
    out
}

fn is_gap(line: &str) -> bool {
    matches!(line.trim(), "..." | "…")
}

/// Whether `printed` is what `shown` shows: line for line (trailing spaces aside), a gap
/// line standing for any number of printed lines.
fn matches(shown: &[String], printed: &[&str]) -> bool {
    // reach[j]: the shown lines so far can account for the first j printed lines.
    let mut reach = vec![false; printed.len() + 1];
    reach[0] = true;
    for want in shown {
        let mut next = vec![false; printed.len() + 1];
        if is_gap(want) {
            let mut any = false;
            for j in 0..=printed.len() {
                any |= reach[j];
                next[j] = any;
            }
        } else {
            for j in 0..printed.len() {
                next[j + 1] = reach[j] && printed[j].trim_end() == want.trim_end();
            }
        }
        reach = next;
    }
    reach[printed.len()]
}

/// The first shown line the output does not bear out, for the failure message: each line
/// looked for, after a gap, at the first place it is printed.
fn first_difference(shown: &[String], printed: &[&str]) -> String {
    let mut at = 0;
    let mut after_gap = false;
    for (i, want) in shown.iter().enumerate() {
        if is_gap(want) {
            after_gap = true;
            continue;
        }
        let found = if after_gap {
            printed[at.min(printed.len())..].iter().position(|p| p.trim_end() == want.trim_end()).map(|k| at + k)
        } else {
            (printed.get(at).map(|p| p.trim_end()) == Some(want.trim_end())).then_some(at)
        };
        match found {
            Some(k) => at = k + 1,
            None => {
                return format!(
                    "its line {} is not printed there:\n    the page: {want}\n    printed:  {}",
                    i + 1,
                    printed.get(at).copied().unwrap_or("(nothing more)")
                );
            }
        }
        after_gap = false;
    }
    if after_gap || at == printed.len() {
        "the lines match, but not as a whole (a gap matched too little or too much)".to_string()
    } else {
        format!("it prints more than the page shows, from: {}", printed[at])
    }
}

/// A scratch folder laid out as the pages expect: `testdata/` and `xtask/` in the folder the
/// commands run in, `shared/` beside it.
fn scratch(name: &str) -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-examples").join(name);
    let _ = std::fs::remove_dir_all(&base);
    let work = base.join("main");
    std::fs::create_dir_all(&work).unwrap();
    let root = workspace_root();
    for dir in ["testdata", "xtask"] {
        std::os::unix::fs::symlink(root.join(dir), work.join(dir)).unwrap();
    }
    if let Some(shared) = shared_dir() {
        std::os::unix::fs::symlink(shared, base.join("shared")).unwrap();
    }
    work
}

/// How long one command may take before it counts as hanging.
const TIMEOUT: Duration = Duration::from_mins(2);

/// Runs `command` through `sh` in `work`, `evaltally` first on the path, and returns what it
/// printed, stdout then stderr; `None` when it had not ended after [`TIMEOUT`] (it is
/// killed).
fn run(work: &Path, command: &str) -> Option<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_evaltally"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let base = work.parent().unwrap();
    let home = base.join("home");
    let (stdout, stderr) = (base.join("stdout"), base.join("stderr"));
    let mut child = Command::new("sh")
        .arg("-c")
        // `exec` for a lone command, so that a kill reaches it and not only the shell
        .arg(if command.contains(['|', ';', '&']) { command.to_string() } else { format!("exec {command}") })
        .current_dir(work)
        .env("PATH", path)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env_remove("EVALTALLY_CACHE")
        .env_remove("EVALTALLY_STORE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("sh runs");
    let start = Instant::now();
    while child.try_wait().expect("the command is waited for").is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    Some(format!("{}{}", read(&stdout), read(&stderr)))
}

#[test]
fn every_console_example_in_the_docs_prints_what_the_page_shows() {
    let root = workspace_root();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    let refdata = shared_dir().is_some_and(|s| s.join("refdata").is_dir());
    let (mut checked, mut wrong, mut without_refdata) = (0, Vec::new(), Vec::new());
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        for block in blocks(&text) {
            let place = format!("{name}:{}", block.line);
            if !refdata && block.steps.iter().any(|s| s.command.contains("../shared/refdata")) {
                without_refdata.push(place);
                continue;
            }
            let work = scratch(&place.replace(['/', ':', '.'], "_"));
            for step in &block.steps {
                checked += 1;
                let Some(printed) = run(&work, &step.command) else {
                    wrong.push(format!("{place}: `{}`: had not ended after {TIMEOUT:?}", step.command));
                    continue;
                };
                let printed: Vec<&str> = printed.lines().collect();
                if !matches(&step.shown, &printed) {
                    wrong.push(format!("{place}: `{}`: {}", step.command, first_difference(&step.shown, &printed)));
                }
            }
        }
    }
    if !without_refdata.is_empty() {
        assert!(!in_ci(), "../shared/refdata is missing; these examples read it: {without_refdata:?}");
        skipped(&format!("../shared/refdata is missing: not run: {}", without_refdata.join(", ")));
    }
    assert!(wrong.is_empty(), "{} of {checked} examples differ from their pages:\n{}", wrong.len(), wrong.join("\n"));
    assert!(checked >= 20, "only {checked} examples found to run: has the pages' format changed?");
}

#[test]
fn a_gap_stands_for_any_number_of_lines_and_nothing_else_is_loose() {
    let shown = |lines: &[&str]| lines.iter().map(|l| (*l).to_string()).collect::<Vec<_>>();
    let printed = ["a", "b", "c", "d"];
    assert!(matches(&shown(&["a", "b", "c", "d"]), &printed));
    assert!(matches(&shown(&["a", "...", "d"]), &printed));
    assert!(matches(&shown(&["…", "c", "..."]), &printed));
    assert!(matches(&shown(&["a", "b", "...", "c", "d"]), &printed));
    assert!(matches(&shown(&["...", "a", "b", "c", "d", "..."]), &printed));
    assert!(matches(&shown(&["a  ", "b", "c", "d"]), &printed));
    // the block's end is the output's end unless a gap closes it
    assert!(!matches(&shown(&["a", "b"]), &printed));
    assert!(!matches(&shown(&["a", "...", "c"]), &printed));
    assert!(!matches(&shown(&["a", "c", "..."]), &printed));
    assert!(!matches(&shown(&["...", "e"]), &printed));
    assert!(!matches(&shown(&[" a", "..."]), &printed));
    assert!(matches(&shown(&[]), &[]));
    assert!(!matches(&shown(&[]), &printed));
    assert!(first_difference(&shown(&["a", "...", "e"]), &printed).contains("its line 3"));
    assert!(first_difference(&shown(&["a", "b"]), &printed).contains("more than the page shows, from: c"));
}

#[test]
fn blocks_read_commands_continuations_and_marks() {
    let page = "text\n```console\n$ evaltally a \\\n  --b\nout 1\n\n$ evaltally c\nout 2\n```\n\
                <!-- example not run: a server -->\n```console\n$ evaltally serve x\n```\n";
    let found = blocks(page);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].line, 2);
    let steps: Vec<(&str, Vec<String>)> =
        found[0].steps.iter().map(|s| (s.command.as_str(), s.shown.clone())).collect();
    assert_eq!(steps, [("evaltally a   --b", vec!["out 1".to_string()]), ("evaltally c", vec!["out 2".to_string()])]);
}
