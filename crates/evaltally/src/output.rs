//! Writing results: stdout, diagnostics on stderr, colour choice, atomic files.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use evaltally_core::Diagnostic;
use evaltally_core::diag::group;
use evaltally_core::text::printable;
use evaltally_format::walk::identity;

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

/// A path for a message or a line of text output: shown with [`printable`] (control
/// characters escaped, URL passwords redacted).
pub(crate) fn shown(path: &Path) -> String {
    printable(&path.to_string_lossy()).into_owned()
}

/// Paths for a message, each [`shown`], joined by `, `.
pub(crate) fn shown_all(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| shown(p)).collect::<Vec<_>>().join(", ")
}

/// A message for stderr: each line shown with [`printable`], so only the message's own
/// line breaks reach the terminal. The last line of defence for text from files in error
/// messages (which escape each value where they are made, raw newlines included).
pub(crate) fn safe_lines(text: &str) -> String {
    let text = text.split('\n').map(|line| printable(line)).collect::<Vec<_>>().join("\n");
    no_workflow_commands(&text).into_owned()
}

/// `text` with the first `:` of each line that starts (after blanks) with `::` written
/// `\u{3a}`: a CI runner reads such a line of a job's log as a command (GitHub's
/// `::error …`, `::add-mask::…`, `::stop-commands::…`), and a test named so would give it.
pub(crate) fn no_workflow_commands(text: &str) -> std::borrow::Cow<'_, str> {
    let starts = |line: &str| line.trim_start_matches([' ', '\t']).starts_with("::");
    if !text.split('\n').any(starts) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            if starts(line) {
                let at = line.find("::").unwrap_or(0);
                format!("{}\\u{{3a}}{}", &line[..at], &line[at + 1..])
            } else {
                line.to_string()
            }
        })
        .collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// Reads a JSON file, with an error that names the file, line and column.
pub(crate) fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let bytes = std::fs::read(path).map_err(|e| crate::UsageError(format!("cannot read {}: {e}", shown(path))))?;
    evaltally_format::json::from_slice(&bytes).map_err(|e| json_error(path, &e, "not JSON").into())
}

/// `FILE:LINE:COLUMN: …` for a JSON document a command reads whole: `not valid JSON: …`,
/// worded and placed as every reader words and places it, or, for valid JSON of another
/// shape, `wrong_shape: ` and what was expected.
pub(crate) fn json_error(path: &Path, e: &serde_json::Error, wrong_shape: &str) -> crate::UsageError {
    let (msg, column) = (evaltally_format::json::message(e), evaltally_format::json::column(e));
    let what = if e.is_data() { format!("{wrong_shape}: {msg}") } else { evaltally_format::json::problem(e) };
    crate::UsageError(format!("{}:{}:{column}: {what}", shown(path), e.line()))
}

/// Writes `text` to stdout, with no line a CI runner reads as a command ([`no_workflow_commands`]).
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(no_workflow_commands(text).as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Prints what `write` writes, through a buffer, as it is written.
pub(crate) fn stream(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'_>>) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    write(&mut out)?;
    out.flush()?;
    Ok(())
}

/// Whether an error is a closed pipe on stdout (`evaltally … | head`), which is not a failure.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Prints a note on stderr (through [`safe_lines`]).
pub(crate) fn note(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "note: {}", safe_lines(text));
}

/// Prints an error on stderr (through [`safe_lines`]): something the command did not do,
/// which its exit status says too.
pub(crate) fn error(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "error: {}", safe_lines(text));
}

/// Prints a warning on stderr (through [`safe_lines`]).
pub(crate) fn warn(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "warning: {}", safe_lines(text));
}

static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--verbose`: every note is printed, not only counted.
pub(crate) fn set_verbose(on: bool) {
    VERBOSE.store(on, std::sync::atomic::Ordering::Relaxed);
}

pub(crate) fn verbose() -> bool {
    VERBOSE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Prints diagnostics on stderr (their `Display` escapes what came from files), then a
/// one-line count. Each kind of problem is one line, errors first: the first occurrence,
/// then how many and in how many files ([`evaltally_core::diag::Group::line`]). Notes (files found and not read)
/// are counted in one line, naming the first few. With `--verbose`, every diagnostic is
/// printed, the facts of each file's shape (`info`) and the notes with them.
pub(crate) fn report_diagnostics(diags: &[Diagnostic]) {
    if diags.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    let notes: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_note()).collect();
    let mut folded = false;
    if verbose() {
        for d in diags.iter().filter(|d| !d.is_note()).chain(notes.iter().copied()) {
            let _ = writeln!(err, "{}", no_workflow_commands(&d.to_string()));
        }
    } else {
        let mut groups = group(diags);
        groups.retain(|g| g.first().is_problem());
        groups.sort_by_key(|g| std::cmp::Reverse(g.first().severity));
        for g in &groups {
            folded |= g.count > 1;
            let _ = writeln!(err, "{}", no_workflow_commands(&g.line()));
        }
    }
    for line in not_read_lines(&notes) {
        let _ = writeln!(err, "note: {line}");
    }
    let count = |pick: fn(&Diagnostic) -> bool| diags.iter().filter(|d| pick(d)).map(Diagnostic::count).sum::<u64>();
    let (warnings, errors) = (count(Diagnostic::is_warning), count(Diagnostic::is_error));
    if warnings + errors > 0 {
        let every = if folded { " (--verbose lists every one)" } else { "" };
        let _ = writeln!(err, "{warnings} warning{}, {errors} error{}{every}", plural(warnings), plural(errors));
    }
}

/// The lines that count the files found and not read: those no format takes, by name (the
/// first few), and those their formats keep no runs in (`skipped: …`).
fn not_read_lines(notes: &[&Diagnostic]) -> Vec<String> {
    const NAMED: usize = 3;
    let (skipped, unknown): (Vec<&&Diagnostic>, Vec<&&Diagnostic>) =
        notes.iter().partition(|d| d.set_aside().is_some());
    let why = if verbose() { "" } else { " (--verbose says why)" };
    let mut lines = Vec::new();
    if !unknown.is_empty() {
        let mut names: Vec<String> = unknown.iter().take(NAMED).map(|d| shown(&d.path)).collect();
        if unknown.len() > NAMED {
            names.push(format!("and {} more", unknown.len() - NAMED));
        }
        let files = if unknown.len() == 1 { "file" } else { "files" };
        lines.push(format!("{} {files} not read: {}{why}", unknown.len(), names.join(", ")));
    }
    if !skipped.is_empty() {
        // Copies of runs read elsewhere, sidecars, unfinished saves: each says why with
        // --verbose.
        let files = if skipped.len() == 1 { "file" } else { "files" };
        lines.push(format!("{} {files} set aside, not read as runs{why}", skipped.len()));
    }
    lines
}

/// Whether `diags` hold a warning or an error (notes aside).
pub(crate) fn has_problems(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_problem)
}

fn plural(n: impl Into<u64>) -> &'static str {
    let n: u64 = n.into();
    if n == 1 { "" } else { "s" }
}

/// Writes `contents` to `path` atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over `path`. Readers see the old file or the new one,
/// never half of one.
///
/// The file gets the permissions of the file it replaces; a new file gets the mode any
/// program's new file gets (0666 less the umask), not the temporary file's 0600.
///
/// A symbolic link is followed: the file it names is replaced, the link stays. A path that
/// names something other than a file or a folder (`/dev/stdout`, a named pipe, a terminal,
/// `/dev/full`) cannot be replaced and is written into as it is ([`Target`]). A write that
/// fails leaves no folder made for it ([`write_atomic_set`] of one file).
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    write_atomic_set(&[(path.to_path_buf(), contents)])
}

/// Where a write to a path goes.
#[derive(Debug, PartialEq)]
enum Target {
    /// A file (or none yet) to replace atomically: the path, or the file a link names.
    File(PathBuf),
    /// Something that is not a file (a named pipe, a device, a terminal): written into.
    Stream(PathBuf),
}

impl Target {
    fn of(path: &Path) -> Target {
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => return Target::Stream(path.to_path_buf()),
            _ => {}
        }
        // A link, followed to the file it names (a dangling one to the file it would make).
        let mut at = path.to_path_buf();
        for _ in 0..40 {
            let Ok(link) = std::fs::read_link(&at) else { break };
            at = folder_of(&at).join(link);
        }
        Target::File(at)
    }
}

/// `contents` written into `path`, which is not a file to replace (see [`Target`]).
fn write_into(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    let mut out =
        std::fs::OpenOptions::new().write(true).open(path).with_context(|| format!("cannot write {}", shown(path)))?;
    out.write_all(contents).and_then(|()| out.flush()).with_context(|| format!("cannot write {}", shown(path)))
}

/// Writes several files as a set: every one is written beside its place and synced before
/// any takes its place, so a full disk or a refused write leaves none of them (and no folder
/// made for them), and an earlier set stays whole.
pub(crate) fn write_atomic_set(files: &[(PathBuf, &[u8])]) -> anyhow::Result<()> {
    // The folders made for the set, outermost first, to take away again if it fails.
    let mut made: Vec<PathBuf> = Vec::new();
    let mut streams: Vec<(PathBuf, &[u8])> = Vec::new();
    let staged_all = (|| -> anyhow::Result<Vec<(PathBuf, tempfile::NamedTempFile)>> {
        let mut staged_files = Vec::with_capacity(files.len());
        for (path, contents) in files {
            let path = match Target::of(path) {
                Target::Stream(path) => {
                    streams.push((path, contents));
                    continue;
                }
                Target::File(path) => path,
            };
            let dir = folder_of(&path);
            let missing: Vec<PathBuf> = dir
                .ancestors()
                .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
                .map(Path::to_path_buf)
                .collect();
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create folder {}", shown(dir)))?;
            made.extend(missing.into_iter().rev());
            let file = staged(&path, contents)?;
            staged_files.push((path, file));
        }
        Ok(staged_files)
    })();
    match staged_all {
        Ok(staged_files) => {
            for (path, tmp) in staged_files {
                tmp.persist(&path).with_context(|| format!("cannot write {}", shown(&path)))?;
            }
            streams.iter().try_for_each(|(path, contents)| write_into(path, contents))
        }
        Err(e) => {
            // The temporary files are gone with their handles; the folders made for them are
            // empty again (removed innermost first; one that is not empty stays).
            for dir in made.iter().rev() {
                let _ = std::fs::remove_dir(dir);
            }
            Err(e)
        }
    }
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `contents` written and synced to a temporary file beside `path` (in its folder, which
/// exists), with the permissions of the file it will replace.
fn staged(path: &Path, contents: &[u8]) -> anyhow::Result<tempfile::NamedTempFile> {
    let dir = folder_of(path);
    let existing = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file).map(|m| m.permissions());
    let mut builder = tempfile::Builder::new();
    builder.prefix(".evaltally-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // Given to open(2), so the umask applies, as it does to any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp =
        builder.tempfile_in(dir).with_context(|| format!("cannot create a temporary file in {}", shown(dir)))?;
    if let Some(permissions) = existing {
        tmp.as_file()
            .set_permissions(permissions)
            .with_context(|| format!("cannot keep the permissions of {}", shown(path)))?;
    }
    tmp.write_all(contents).with_context(|| format!("cannot write {}", shown(path)))?;
    tmp.as_file().sync_all().with_context(|| format!("cannot write {}", shown(path)))?;
    Ok(tmp)
}

/// Refuses (a usage error naming both) to write `out` where the command reads:
///
/// * over a PATH given, or a file the walk lists below one (compared by device and inode,
///   so a link or a hard link to an input counts; by canonical path where the platform has
///   no inodes);
/// * inside a folder given (or one a PATH implies, as BFCL's `score-<run>` beside
///   `result-<run>`), even as a new file: the next run over that folder would read it.
pub(crate) fn refuse_overwriting_input(out: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let refuse = |what: String| {
        crate::UsageError(format!("refusing to write {}: {what}; write the output somewhere else", shown(out)))
    };
    if out.is_dir() {
        return Err(crate::UsageError(format!("-o {}: a folder; give a file name in it", shown(out))).into());
    }
    let existing = std::fs::metadata(out).ok().filter(std::fs::Metadata::is_file);
    let target = existing.as_ref().map(|m| (identity(m), std::fs::canonicalize(out).ok()));
    let same = |p: &Path| {
        let Some((id, canonical)) = &target else { return false };
        match (id, std::fs::metadata(p).ok().as_ref().and_then(identity)) {
            (Some(a), Some(b)) => *a == b,
            _ => canonical.is_some() && std::fs::canonicalize(p).ok() == *canonical,
        }
    };
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|m| m.is_file()) && same(input) {
            return Err(refuse(format!("it is the input file {}", shown(input))).into());
        }
    }
    let mut folders: Vec<PathBuf> = inputs.iter().filter(|p| p.is_dir()).cloned().collect();
    for input in inputs {
        for format in evaltally_analyzer::load::registry().formats() {
            folders.extend(format.companions(input).into_iter().filter(|c| c.is_dir()));
        }
    }
    if target.is_some() && !folders.is_empty() {
        // The walk lists what the command reads, with the same policy; by identity, this
        // also finds a hard link to one of its files.
        if let Ok(walked) = evaltally_format::walk::walk(&folders)
            && let Some(file) = walked.files.iter().find(|f| same(&f.path))
        {
            return Err(refuse(format!("it is the input file {}", shown(&file.path))).into());
        }
    }
    if let Some(place) = canonical_place(out) {
        for folder in &folders {
            if std::fs::canonicalize(folder).is_ok_and(|f| place.starts_with(f)) {
                return Err(refuse(format!("it is inside {}, a folder this command reads", shown(folder))).into());
            }
        }
    }
    Ok(())
}

/// Where `path` is or would be, absolute: its existing part canonicalized (links resolved),
/// the rest, which cannot hold links, taken as written (`..` going up one).
fn canonical_place(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut place = if path.is_absolute() { PathBuf::new() } else { std::fs::canonicalize(".").ok()? };
    let mut exists = true;
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if !exists => {
                place.pop();
            }
            _ => {
                place.push(part);
                if exists {
                    match std::fs::canonicalize(&place) {
                        Ok(c) => place = c,
                        Err(_) => exists = false,
                    }
                }
            }
        }
    }
    Some(place)
}

/// A model name made safe as a folder name.
pub(crate) fn folder_name(model: &str) -> String {
    let name: String = model.chars().map(|c| if matches!(c, '/' | '\\' | '\0') { '_' } else { c }).collect();
    match name.as_str() {
        "" | "." | ".." => format!("model-{name}"),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_line_starts_a_workflow_command() {
        use super::no_workflow_commands as f;
        assert_eq!(
            f("  ::error title=x::y\nok :: y\n::add-mask::s"),
            "  \\u{3a}:error title=x::y\nok :: y\n\\u{3a}:add-mask::s"
        );
        assert!(matches!(f("a::b\n c :: d"), std::borrow::Cow::Borrowed(_)));
    }
}
