//! Writing results: stdout, diagnostics on stderr, colour choice, atomic files.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::Context;
use evaltally_core::Diagnostic;

use crate::cli::ColorChoice;

/// Whether text on stdout gets colours: never with `NO_COLOR` set (to anything but the
/// empty string), otherwise as `--color` says, `auto` meaning "stdout is a terminal".
pub(crate) fn use_color(choice: ColorChoice) -> bool {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::io::stdout().is_terminal(),
    }
}

/// Reads a JSON file, with an error that names the file, line and column.
pub(crate) fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.clone(), |p| msg[..p].to_string());
        crate::UsageError(format!("{}:{}:{}: not valid JSON: {msg}", path.display(), e.line(), e.column())).into()
    })
}

/// Writes `text` to stdout.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Whether an error is a closed pipe on stdout (`evaltally … | head`), which is not a failure.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Prints a note on stderr.
pub(crate) fn note(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "note: {text}");
}

/// Prints diagnostics on stderr, then a one-line count.
pub(crate) fn report_diagnostics(diags: &[Diagnostic]) {
    if diags.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    for d in diags {
        let _ = writeln!(err, "{d}");
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let _ = writeln!(err, "{warnings} warning{}, {errors} error{}", plural(warnings), plural(errors));
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Writes `contents` to `path` atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over `path`. Readers see the old file or the new one,
/// never half of one.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create folder {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".evaltally-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(contents).with_context(|| format!("cannot write {}", path.display()))?;
    tmp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A model name made safe as a folder name.
pub(crate) fn folder_name(model: &str) -> String {
    let name: String = model.chars().map(|c| if matches!(c, '/' | '\\' | '\0') { '_' } else { c }).collect();
    match name.as_str() {
        "" | "." | ".." => format!("model-{name}"),
        _ => name,
    }
}
