//! `cargo xtask wheel`: builds the Python wheel (maturin, `crates/evaltally-python`),
//! installs it into a fresh virtual environment and runs both the `evaltally` command and
//! the `evaltally` module from it, as `pip install evaltally` users would.
//!
//! Needs `python3` with maturin (`pip install maturin`). Without maturin the step is skipped
//! with a notice, except under `CI=true`, where it fails.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail, ensure};

use crate::{relative, run_cmd, succeeds, target_dir, workspace_root};

/// What the module must print: the models of `testdata/bfcl/v4`, rows, a comparison.
const PROBE: &str = r"
import evaltally
report = evaltally.stability(['testdata/bfcl/v4'])
models = [m['model'] for m in report['models']]
assert models == ['acme_big-70b', 'acme_tiny-7b'], models
rows = evaltally.load('testdata/bfcl/v4', model='acme_tiny-7b')
assert len(rows) > 10 and all(r['model'] == 'acme_tiny-7b' for r in rows), rows
change = evaltally.compare('testdata/bfcl/v4/run-1', 'testdata/bfcl/v4/run-2', category='simple_python')
assert change['models'], change
try:
    evaltally.stability(['testdata/bfcl/v4'], modle='x')
    raise SystemExit('an unknown filter was accepted')
except ValueError:
    pass
print('evaltally', evaltally.__version__, 'module: ok')
";

pub(crate) fn run() -> Result<()> {
    let mut maturin = Command::new("python3");
    maturin.args(["-m", "maturin", "--version"]);
    if !succeeds(maturin) {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            bail!("maturin is missing (python3 -m pip install maturin): the wheel cannot be tested");
        }
        eprintln!("xtask: notice: skipping the wheel test: maturin is missing (python3 -m pip install maturin)");
        return Ok(());
    }
    let root = target_dir()?;
    let wheels = root.join("wheels");
    let venv = root.join("wheel-venv");
    for dir in [&wheels, &venv] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
        }
    }
    // The dev profile: this checks the packaging, not the speed, and reuses the build.
    let mut build = Command::new("python3");
    build.args(["-m", "maturin", "build", "--profile", "dev", "-m", "crates/evaltally-python/Cargo.toml", "--out"]);
    build.arg(&wheels).current_dir(workspace_root());
    run_cmd(&mut build)?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .context("maturin built no wheel")?;

    run_cmd(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    let bin = venv.join("bin");
    // The wheel has no dependencies: nothing is downloaded.
    run_cmd(Command::new(bin.join("python")).args(["-m", "pip", "install", "--quiet", "--no-index"]).arg(&wheel))?;

    let cli = output(
        "evaltally stability testdata/bfcl/v4",
        Command::new(bin.join("evaltally")).args(["stability", "testdata/bfcl/v4"]),
    )?;
    ensure!(cli.contains("acme_tiny-7b: 3 runs"), "`evaltally stability` from the wheel printed:\n{cli}");
    let module = output("python -c 'import evaltally; …'", Command::new(bin.join("python")).args(["-c", PROBE]))?;
    eprintln!("xtask: wheel {}: command ok, {}", relative(&wheel).display(), module.trim());
    Ok(())
}

/// Runs `cmd` (shown as `shown`, from the virtual environment) in the workspace root,
/// outside any other virtual environment; its stdout, or an error with its stderr.
fn output(shown: &str, cmd: &mut Command) -> Result<String> {
    eprintln!("xtask: (wheel-venv) {shown}");
    let out = cmd
        .current_dir(workspace_root())
        .env_remove("VIRTUAL_ENV")
        .env_remove("PYTHONPATH")
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("could not start {shown}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(out.status.success(), "{shown} failed ({}):\n{stdout}{}", out.status, String::from_utf8_lossy(&out.stderr));
    Ok(stdout)
}
