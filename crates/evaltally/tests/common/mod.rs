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
    let mut out = String::new();
    for args in commands {
        let run = evaltally(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        out.push_str("$ evaltally ");
        out.push_str(&args.join(" "));
        out.push('\n');
        out.push_str(&run.transcript());
        out.push('\n');
    }
    out
}
