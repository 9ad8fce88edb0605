//! `cargo xtask wheel`: `pip install .` from the repository's root (its `pyproject.toml`
//! builds `crates/evaltally-python` with maturin) into a fresh virtual environment, then
//! runs both the `evaltally` command and the `evaltally` module from it, as users who
//! install from a checkout or `pip install git+<url>` would.
//!
//! Needs `python3` with maturin (`pip install maturin`): the environment sees the system's
//! packages and builds without isolation, so that nothing is downloaded, and maturin builds
//! with the dev profile (`MATURIN_PEP517_ARGS`), reusing the workspace's build. Without
//! maturin the step is skipped with a notice, except under `CI=true`, where it fails.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail, ensure};

use crate::{relative, run_cmd, succeeds, target_dir, workspace_root};

/// What the module must print: the models of `testdata/bfcl/v4`, rows, a comparison.
const PROBE: &str = r"
import evaltally
report = evaltally.stability(['testdata/bfcl/v4'])
models = [m['model'] for m in report['models']]
assert models == ['acme_big-70b', 'acme_tiny-7b'], models
assert report['schema'] == 'evaltally.stability/1', report['schema']
rows = evaltally.load('testdata/bfcl/v4', model='acme_tiny-7b')
# A pandas DataFrame where pandas is installed, else a list of dicts.
rows = rows.to_dict('records') if hasattr(rows, 'to_dict') else rows
assert len(rows) > 10 and all(r['model'] == 'acme_tiny-7b' for r in rows), rows
assert all(r['schema'] == 'evaltally.export-row/1' for r in rows), rows
change = evaltally.compare('testdata/bfcl/v4/run-1', 'testdata/bfcl/v4/run-2', category='simple_python')
assert change['models'] and change['schema'] == 'evaltally.compare/1', change
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
    let venv = target_dir()?.join("wheel-venv");
    if venv.exists() {
        std::fs::remove_dir_all(&venv).with_context(|| format!("removing {}", venv.display()))?;
    }
    run_cmd(Command::new("python3").args(["-m", "venv", "--system-site-packages"]).arg(&venv))?;
    let bin = venv.join("bin");
    // This checks the packaging, not the speed: the dev profile reuses the workspace's build.
    run_cmd(
        Command::new(bin.join("python"))
            .args(["-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", "."])
            .env("MATURIN_PEP517_ARGS", "--profile dev")
            .current_dir(workspace_root()),
    )?;

    let cli = output(
        "evaltally stability testdata/bfcl/v4",
        Command::new(bin.join("evaltally")).args(["stability", "testdata/bfcl/v4"]),
    )?;
    ensure!(cli.contains("acme_tiny-7b: 3 runs"), "`evaltally stability` from the wheel printed:\n{cli}");
    let module = output("python -c 'import evaltally; …'", Command::new(bin.join("python")).args(["-c", PROBE]))?;
    eprintln!("xtask: pip install . ({}): command ok, {}", relative(&venv).display(), module.trim());
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
