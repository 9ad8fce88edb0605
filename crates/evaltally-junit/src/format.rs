//! JUnit as a format of the reading pipeline: `*.xml` files whose root element is
//! `<testsuites>` or `<testsuite>`, read from the pipeline's buffer.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use crate::{JunitError, JunitRun, looks_like_junit, read_bytes};

/// A human-readable line on what the format reads, for "nothing found" messages.
pub const KNOWN: &str =
    "  JUnit XML reports (`*.xml` with a `<testsuites>` or `<testsuite>` root), from test runners and eval tools";

/// The JUnit format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Junit;

/// The one value of [`Junit`], for the registry.
pub static JUNIT: Junit = Junit;

fn is_xml(path: &Path) -> bool {
    evaltally_format::has_extension(path, "xml")
}

/// Whether the start of the bytes looks like a JUnit report, in UTF-8 or in UTF-16 with a
/// byte order mark (as the reader reads it).
fn starts_like_junit(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let utf16 = match head {
        [0xFF, 0xFE, rest @ ..] => Some((rest, u16::from_le_bytes as fn([u8; 2]) -> u16)),
        [0xFE, 0xFF, rest @ ..] => Some((rest, u16::from_be_bytes as fn([u8; 2]) -> u16)),
        _ => None,
    };
    if let Some((rest, unit)) = utf16 {
        let units = rest.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
        let text: String = char::decode_utf16(units).map_while(Result::ok).collect();
        return looks_like_junit(&text);
    }
    // A cut multi-byte character at the end of the window is not a reason to say no.
    let text = evaltally_format::utf8(head).unwrap_or_else(|| {
        let valid = std::str::from_utf8(head).map_or_else(|e| e.valid_up_to(), str::len);
        std::str::from_utf8(&head[..valid]).unwrap_or_default()
    });
    looks_like_junit(text)
}

/// A report's model: the `model` property evaltally writes, else `unknown`.
fn model(run: &JunitRun) -> &str {
    run.model().unwrap_or("unknown")
}

impl Format for Junit {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["xml"]
    }

    fn describe(&self) -> &'static str {
        KNOWN
    }

    fn noun(&self) -> &'static str {
        "JUnit reports"
    }

    fn claim(&self, path: &Path) -> Claim {
        if is_xml(path) { Claim::Sniff } else { Claim::No }
    }

    /// A `*.xml` file the user named is read as JUnit (the reader says what is wrong);
    /// others must start like a report.
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        file.named && is_xml(file.path) || starts_like_junit(file.bytes)
    }

    /// A tag-and-attribute scanner first (the fast path); the reader when it hands over.
    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        if let Some((runs, not_run)) = crate::fast::category_runs(file.bytes, file.path) {
            return Read { runs, diagnostics: not_run_info(file.path, not_run).into_iter().collect() };
        }
        match read_bytes(file.bytes, file.path) {
            Ok(run) => {
                let runs = run.category_runs(&run.run_name(), model(&run));
                let not_run = not_run_info(file.path, run.not_run());
                let mut diagnostics = run.diagnostics;
                diagnostics.extend(not_run);
                Read { runs, diagnostics }
            }
            Err(e) => Read { runs: Vec::new(), diagnostics: vec![e.to_diagnostic()] },
        }
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        match read_bytes(file.bytes, file.path) {
            Ok(run) => Records { runs: vec![run.record(&run.run_name(), model(&run))], diagnostics: run.diagnostics },
            Err(e) => Records { runs: Vec::new(), diagnostics: vec![e.to_diagnostic()] },
        }
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        match read_bytes(file.bytes, file.path) {
            Ok(run) => {
                // Named as `read` names the runs: the model `unknown` when the report names none.
                let mut details: Vec<_> = run.show(test).into_iter().collect();
                for d in &mut details {
                    model(&run).clone_into(&mut d.model);
                }
                Shown { details, diagnostics: Vec::new() }
            }
            Err(e) => Shown { details: Vec::new(), diagnostics: vec![e.to_diagnostic()] },
        }
    }

    /// What the reader refused (an error) or tolerated (warnings), by line.
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let at = |line: Option<u64>, column: Option<u64>| Finding::location(line, column, "file");
        let findings = match read_bytes(file.bytes, file.path) {
            // Raw control characters make the file ill-formed XML 1.0: the reader keeps them,
            // a check does not.
            Ok(run) => run
                .diagnostics
                .iter()
                .map(|d| {
                    let at = at(d.line, d.column);
                    if d.message.contains(crate::read::FORBIDDEN) {
                        Finding::error(at, format!("{}: not well-formed XML 1.0", d.message))
                    } else {
                        Finding::warning(at, d.message.clone())
                    }
                })
                .chain(not_run_info(file.path, run.not_run()).map(|d| Finding::info("file", d.message)))
                .collect(),
            Err(e) => {
                let d = e.to_diagnostic();
                vec![Finding::error(at(d.line, d.column), d.message)]
            }
        };
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}

/// The fact that `n` of the report's test cases did not run, which are in no run: said with
/// `--verbose` and by `validate`, as nothing is wrong.
fn not_run_info(path: &Path, n: usize) -> Option<Diagnostic> {
    let tests = if n == 1 { "test case" } else { "test cases" };
    (n > 0).then(|| {
        Diagnostic::info(
            path,
            format!("{n} {tests} did not run (`<skipped>`, or GoogleTest's `notrun`): not in the run, counted nowhere"),
        )
    })
}

impl JunitError {
    /// The error as a diagnostic on its file, with its line and column when it has them.
    ///
    /// ```
    /// let err = evaltally_junit::read("<testsuites><testsuite>", std::path::Path::new("r.xml")).unwrap_err();
    /// let d = err.to_diagnostic();
    /// assert_eq!((d.line, d.column), (Some(1), Some(24)));
    /// assert_eq!(d.message, "expected `</testsuite>` (opened at line 1), found end of input");
    /// ```
    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            JunitError::Io { path, source } => Diagnostic::error(path, evaltally_format::file::cannot_read(source)),
            JunitError::Encoding { path, line, column, .. } => Diagnostic::error(
                path,
                "expected UTF-8 text (or UTF-16 with a byte order mark), found an invalid byte sequence",
            )
            .at(*line, *column),
            JunitError::Malformed { path, line, column, expected, found, .. } => {
                Diagnostic::error(path, format!("expected {expected}, found {found}")).at(*line, *column)
            }
        }
    }
}

/// JUnit XML as a shape `convert --to junit` writes.
#[derive(Debug, Clone, Copy, Default)]
pub struct JunitWriter;

/// The one [`JunitWriter`], for the registry.
pub static JUNIT_WRITER: JunitWriter = JunitWriter;

impl evaltally_format::Writer for JunitWriter {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn describe(&self) -> &'static str {
        "JUnit XML, for CI test reporters (GitLab, Jenkins, GitHub test-report actions)"
    }

    /// The report [`write`](crate::write()) makes; an unknown duration is written as
    /// `time="0"` (reporters compute NaN without it), and `lost` says so.
    fn write(&self, run: &evaltally_core::RunRecord) -> Result<evaltally_format::Written, String> {
        let unknown = run.tests.iter().filter(|t| t.duration_ms.is_none()).count();
        let lost = (unknown > 0)
            .then(|| format!("duration of {unknown} test(s) unknown: written as time=\"0\", which reporters need"))
            .into_iter()
            .collect();
        Ok(evaltally_format::Written { text: crate::write(run), lost })
    }
}
