//! Running the `evaltally` binary from tests.

#![allow(dead_code, unreachable_pub)]

use std::path::Path;
use std::process::{Command, Output};

use evaltally_testkit::workspace_root;

/// The result of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exit code, stdout and stderr in one text, for snapshots.
    pub fn transcript(&self) -> String {
        format!("exit: {}\n--- stdout\n{}--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

fn finish(out: Output) -> Run {
    let Output { status, stdout, stderr } = out;
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        stderr: String::from_utf8(stderr).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// Runs `evaltally ARGS` in the workspace root, without colour settings inherited from
/// the caller.
pub fn evaltally(args: &[&str]) -> Run {
    evaltally_in(&workspace_root(), args, &[])
}

/// Runs `evaltally ARGS` in `dir` with extra environment variables.
pub fn evaltally_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_evaltally"));
    cmd.current_dir(dir).args(args).env_remove("NO_COLOR");
    // One digest cache for the test processes, in the target folder, never the user's: every
    // test reads through it, the first cold and the rest warm, so both paths are exercised.
    cmd.env("EVALTALLY_CACHE", Path::new(env!("CARGO_TARGET_TMPDIR")).join("evaltally-cache"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    finish(cmd.output().expect("the evaltally binary runs"))
}

/// Runs each of `commands` in the workspace root, each expected to exit 0, and returns
/// them as one text for a snapshot: `$ evaltally ARGS`, the run's transcript, a blank line.
pub fn session(commands: &[&[&str]]) -> String {
    session_with(&[], commands)
}

/// [`session`], each command run with the extra environment variables `env`.
pub fn session_with(env: &[(&str, &str)], commands: &[&[&str]]) -> String {
    let mut out = String::new();
    for args in commands {
        let run = evaltally_in(&workspace_root(), args, env);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        out.push_str("$ evaltally ");
        out.push_str(&args.join(" "));
        out.push('\n');
        out.push_str(&run.transcript());
        out.push('\n');
    }
    out
}

/// The JSON document a report page embeds in `<script type="application/json"
/// id="evaltally-data">`.
pub fn report_data(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="evaltally-data">"#;
    let start = html.find(open).expect("the page embeds its data") + open.len();
    let end = start + html[start..].find("</script>").expect("the data element is closed");
    serde_json::from_str(&html[start..end]).expect("the embedded data is JSON")
}

/// JSON laid out for a snapshot: a value that fits on one line of 110 columns (indent
/// included) stays on one line; longer arrays and objects put each member on its own line.
pub fn compact_json(v: &serde_json::Value) -> String {
    fn layout(v: &serde_json::Value, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let flat = v.to_string();
        let items: Vec<(Option<&String>, &serde_json::Value)> = match v {
            serde_json::Value::Array(a) if !a.is_empty() => a.iter().map(|x| (None, x)).collect(),
            serde_json::Value::Object(m) if !m.is_empty() => m.iter().map(|(k, x)| (Some(k), x)).collect(),
            _ => Vec::new(),
        };
        if items.is_empty() || flat.len() + pad.len() <= 110 {
            out.push_str(&flat);
            return;
        }
        out.push(if v.is_array() { '[' } else { '{' });
        for (i, (key, item)) in items.iter().enumerate() {
            out.push('\n');
            out.push_str(&pad);
            out.push_str("  ");
            if let Some(k) = key {
                out.push_str(&serde_json::Value::String((*k).clone()).to_string());
                out.push_str(": ");
            }
            layout(item, depth + 1, out);
            if i + 1 < items.len() {
                out.push(',');
            }
        }
        out.push('\n');
        out.push_str(&pad);
        out.push(if v.is_array() { ']' } else { '}' });
    }
    let mut out = String::new();
    layout(v, 0, &mut out);
    out.push('\n');
    out
}
