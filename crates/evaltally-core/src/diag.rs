use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How bad a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A fact of the file's shape that its writer always gives (BFCL v1's integer ids, a
    /// score file with no final newline): nothing is wrong. `validate` and `--verbose` say
    /// it; it is not counted as a problem.
    Info,
    /// Said, not wrong: a file found and not read (no format evaltally reads takes it, or
    /// its format keeps no runs in it). Commands count these in one line.
    Note,
    /// Tolerated: the data was read, with an assumption the user should know about.
    Warning,
    /// Something could not be read; the affected part was left out.
    Error,
}

/// A warning or error about one file, and where in it.
///
/// ```
/// use evaltally_core::{Diagnostic, Severity};
/// let d = Diagnostic::warning("run/score/m/BFCL_v4_simple_score.json", "duplicate id `simple_3`")
///     .at_line(7);
/// assert_eq!(d.to_string(), "run/score/m/BFCL_v4_simple_score.json:7: warning: duplicate id `simple_3`");
/// assert_eq!(d.severity, Severity::Warning);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// The file (or folder) the message is about.
    #[serde(serialize_with = "lossy_path")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub path: PathBuf,
    /// 1-based line, when the message is about one line.
    pub line: Option<u64>,
    /// 1-based column (in bytes), when it helps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// What was found and what was expected.
    pub message: String,
    /// How many more problems of the same kind the file holds that were counted, not kept
    /// (readers keep the first few of a kind per file).
    #[serde(skip_serializing_if = "is_zero")]
    pub more: u64,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How a note of a file set aside starts ([`Diagnostic::skipped`]).
const SKIPPED: &str = "skipped: ";

/// What a file set aside is, from a note of one (`skipped: <what>`): for diagnostics and
/// `validate`'s findings alike.
pub(crate) fn set_aside(severity: Severity, message: &str) -> Option<&str> {
    message.strip_prefix(SKIPPED).filter(|_| severity == Severity::Note)
}

impl Diagnostic {
    /// A warning about `path`.
    pub fn warning(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, path.into(), message.into())
    }

    /// A note about `path`: found, and not read (see [`Severity::Note`]).
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::note("runs/pom.xml", "not read: root element `project` is not JUnit's `testsuites`");
    /// assert!(d.is_note() && !d.is_error());
    /// assert_eq!(d.to_string(), "runs/pom.xml: note: not read: root element `project` is not JUnit's `testsuites`");
    /// ```
    pub fn note(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, path.into(), message.into())
    }

    /// A note that `path` is set aside: a file of a format that holds no runs, said as
    /// what it is (`skipped: <what>`; see [`set_aside`](Self::set_aside)).
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::skipped("out/results_2026.json", "lm-eval's aggregate results");
    /// assert_eq!(d.to_string(), "out/results_2026.json: note: skipped: lm-eval's aggregate results");
    /// assert_eq!(d.set_aside(), Some("lm-eval's aggregate results"));
    /// ```
    pub fn skipped(path: impl Into<PathBuf>, what: impl std::fmt::Display) -> Self {
        Self::note(path, format!("{SKIPPED}{what}"))
    }

    /// A fact of `path`'s shape that its writer always gives (see [`Severity::Info`]).
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::info("r/m/simple_result.json", "v1 result lines keyed `idx`");
    /// assert!(d.is_info() && !d.is_problem());
    /// ```
    pub fn info(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, path.into(), message.into())
    }

    /// An error about `path`.
    pub fn error(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path.into(), message.into())
    }

    fn new(severity: Severity, path: PathBuf, message: String) -> Self {
        Self { severity, path, line: None, column: None, message, more: 0 }
    }

    /// Sets the 1-based line.
    #[must_use]
    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }

    /// Sets the 1-based line and column. Column 0 (what `serde_json` reports for an error
    /// at the very end of a line) means "no column".
    #[must_use]
    pub fn at(mut self, line: u64, column: u64) -> Self {
        self.line = Some(line);
        self.column = (column > 0).then_some(column);
        self
    }

    /// Says that `more` further problems of this kind in the same file were counted and
    /// not kept.
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::warning("s.json", "duplicate id `simple_3`").at_line(7).with_more(12);
    /// assert_eq!(d.to_string(), "s.json:7: warning: duplicate id `simple_3` (and 12 more like it in this file)");
    /// assert_eq!(d.count(), 13);
    /// ```
    #[must_use]
    pub fn with_more(mut self, more: u64) -> Self {
        self.more = more;
        self
    }

    /// How many problems this diagnostic stands for: itself and the [`more`](Self::more)
    /// it counted.
    pub fn count(&self) -> u64 {
        1 + self.more
    }

    /// The kind of problem, for saying each kind once: the severity and the message with
    /// what varies from one occurrence to the next masked (text between backticks becomes
    /// `` `…` ``, a run of digits `N`). Messages put names, ids and paths between backticks
    /// so that two occurrences of one problem have one kind.
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let a = Diagnostic::warning("a.json", "duplicate id `simple_3` on line 7");
    /// let b = Diagnostic::warning("b.json", "duplicate id `multiple_12` on line 40");
    /// assert_eq!(a.kind(), b.kind());
    /// assert_eq!(a.kind(), "warning: duplicate id `…` on line N");
    /// assert_ne!(a.kind(), Diagnostic::error("a.json", "duplicate id `x` on line 1").kind());
    /// ```
    pub fn kind(&self) -> String {
        kind(self.severity, &self.message)
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether this is a warning.
    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// Whether this is a note (a file found and not read).
    pub fn is_note(&self) -> bool {
        self.severity == Severity::Note
    }

    /// Whether this is a fact of the file's shape (see [`Severity::Info`]).
    pub fn is_info(&self) -> bool {
        self.severity == Severity::Info
    }

    /// Whether this is the fact that a file was found and not read, as a format or the
    /// registry says it (`info: not read: …`, such as a `README.md` no format claims): said
    /// with `--verbose`, listed by `validate` among the files not read.
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// assert!(Diagnostic::info("runs/README.md", "not read: no format evaltally reads takes a `.md` file of this name").is_fact_not_read());
    /// assert!(!Diagnostic::info("a.json", "no newline at the end of the file").is_fact_not_read());
    /// ```
    pub fn is_fact_not_read(&self) -> bool {
        self.is_info() && self.message.starts_with("not read:")
    }

    /// What a file set aside is, when this says one (`note: skipped: <what>`): a file of a
    /// format that holds no runs (lm-eval's aggregate results, a run report's copy that
    /// another file carries), counted apart from files of no format.
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::skipped("out/results_2026.json", "lm-eval's aggregate results");
    /// assert_eq!(d.set_aside(), Some("lm-eval's aggregate results"));
    /// assert_eq!(Diagnostic::note("a.json", "not read: a JSON list").set_aside(), None);
    /// ```
    pub fn set_aside(&self) -> Option<&str> {
        set_aside(self.severity, &self.message)
    }

    /// Whether this is a problem: a warning or an error.
    pub fn is_problem(&self) -> bool {
        self.severity >= Severity::Warning
    }
}

impl Severity {
    /// The word diagnostics are printed with: `info`, `note`, `warning` or `error`.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Paths that are not UTF-8 are written with U+FFFD in place of the bad bytes rather
/// than failing the whole document.
pub(crate) fn lossy_path<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// For people: the path and message are shown with [`crate::text::printable`] (control
/// characters escaped, URL passwords redacted); the fields themselves, and the JSON a
/// `Diagnostic` serializes to, keep the exact text.
///
/// ```
/// use evaltally_core::Diagnostic;
/// let d = Diagnostic::error("run/\u{1b}[2J.json", "test `a\u{1b}]0;x\u{7}`: bad\nvalue");
/// assert_eq!(d.to_string(), "run/\\u{1b}[2J.json: error: test `a\\u{1b}]0;x\\u{7}`: bad\\nvalue");
/// ```
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::text::printable(&self.path.to_string_lossy()))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}: {}", self.severity.word(), crate::text::printable(&self.message))?;
        match self.more {
            0 => Ok(()),
            n => write!(f, " (and {n} more like it in this file)"),
        }
    }
}

/// A diagnostic is an error value too, so that `?` takes it into a caller's error type.
///
/// ```
/// fn check() -> Result<(), Box<dyn std::error::Error>> {
///     Err(evaltally_core::Diagnostic::error("a.json", "not a result file"))?
/// }
/// assert_eq!(check().unwrap_err().to_string(), "a.json: error: not a result file");
/// ```
impl std::error::Error for Diagnostic {}

/// The kind of a problem of `severity` told in `message`, for saying each kind once: the
/// severity and the message with what varies from one occurrence to the next masked (text
/// between backticks becomes `` `…` ``, a run of digits `N`). [`Diagnostic::kind`] and
/// [`crate::Finding::kind`] are this.
///
/// ```
/// use evaltally_core::{Severity, diag::kind};
/// assert_eq!(kind(Severity::Note, "not read: `a.json` line 3"), "note: not read: `…` line N");
/// ```
pub fn kind(severity: Severity, message: &str) -> String {
    shown_kind(severity, &[message])
}

/// What varies in a message from one problem of its kind to the next ([`kind`]): a run of
/// digits, or text between backticks (the backticks with it).
#[derive(Clone, Copy, PartialEq)]
enum Part<'a> {
    Fixed(char),
    Digits(&'a str),
    Quoted(&'a str),
}

/// `message` cut into [`Part`]s; an unclosed backtick quotes the rest.
fn parts(message: &str) -> impl Iterator<Item = Part<'_>> {
    let mut rest = message;
    std::iter::from_fn(move || {
        let c = rest.chars().next()?;
        let len = if c == '`' {
            rest[1..].find('`').map_or(rest.len(), |end| end + 2)
        } else if c.is_ascii_digit() {
            rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len())
        } else {
            let (part, after) = (Part::Fixed(c), &rest[c.len_utf8()..]);
            rest = after;
            return Some(part);
        };
        let (part, after) = rest.split_at(len);
        rest = after;
        Some(if c == '`' { Part::Quoted(part) } else { Part::Digits(part) })
    })
}

/// The kind of `messages` (all of one [`kind`]) as people read it: the severity and the
/// first message, with what differs among them masked as [`kind`] masks it (`` `…` ``, `N`)
/// and what they share kept, so "ISO 8601" stays as it is where every message says it.
///
/// ```
/// use evaltally_core::{Severity, diag::shown_kind};
/// let said = ["ISO 8601 expected at line 3, found `x`", "ISO 8601 expected at line 9, found `x`"];
/// assert_eq!(shown_kind(Severity::Warning, &said), "warning: ISO 8601 expected at line N, found `x`");
/// ```
pub fn shown_kind(severity: Severity, messages: &[&str]) -> String {
    let first = messages.first().copied().unwrap_or_default();
    let mut others: Vec<_> = messages.iter().skip(1).map(|m| parts(m)).collect();
    let mut out = String::with_capacity(first.len() + 10);
    out.push_str(severity.word());
    out.push_str(": ");
    for part in parts(first) {
        // Every message of one kind has the same parts but for what varies (one that does
        // not, of another kind, masks the rest); each moves on by one part, whatever the
        // one before it found.
        let mut shared = true;
        for other in &mut others {
            shared &= other.next() == Some(part);
        }
        match part {
            Part::Fixed(c) => out.push(c),
            Part::Digits(d) | Part::Quoted(d) if shared && messages.len() > 1 => out.push_str(d),
            Part::Digits(_) => out.push('N'),
            Part::Quoted(_) => out.push_str("`…`"),
        }
    }
    out
}

/// The diagnostics of one [kind](Diagnostic::kind), as [`group`] gathers them.
#[derive(Clone, Debug)]
pub struct Group<'a> {
    /// Every diagnostic of the kind, in the order given.
    pub members: Vec<&'a Diagnostic>,
    /// How many problems they stand for, with those counted and not kept
    /// ([`Diagnostic::more`]).
    pub count: u64,
    /// How many files they are about.
    pub files: usize,
}

impl Group<'_> {
    /// The first diagnostic of the kind.
    pub fn first(&self) -> &Diagnostic {
        self.members[0]
    }

    /// The group in one line for people: the first diagnostic as it prints, then, when
    /// there are more, how many and in how many files, naming the next file.
    ///
    /// ```
    /// use evaltally_core::{diag::group, Diagnostic};
    /// let d = [
    ///     Diagnostic::warning("a.json", "holds no tests"),
    ///     Diagnostic::warning("b.json", "holds no tests"),
    ///     Diagnostic::warning("c.json", "holds no tests"),
    /// ];
    /// let groups = group(&d);
    /// assert_eq!(groups.len(), 1);
    /// assert_eq!(groups[0].line(), "a.json: warning: holds no tests (3 files like it: also b.json and 1 more)");
    /// ```
    pub fn line(&self) -> String {
        use std::fmt::Write as _;
        let first = self.first();
        let mut line = Diagnostic { more: 0, ..first.clone() }.to_string();
        if self.count == 1 {
            return line;
        }
        if self.files == 1 {
            let _ = write!(line, " ({} like it in this file)", self.count);
            return line;
        }
        let times = if self.count == self.files as u64 { String::new() } else { format!("{} times, ", self.count) };
        let _ = write!(line, " ({times}{} files like it", self.files);
        // The next file the kind is about, as it was first met.
        if let Some(next) = self.members.iter().find(|d| d.path != first.path) {
            let _ = write!(line, ": also {}", crate::text::printable(&next.path.to_string_lossy()));
        }
        match self.files - 2 {
            0 => line.push(')'),
            n => {
                let _ = write!(line, " and {n} more)");
            }
        }
        line
    }
}

/// Gathers `diagnostics` by [kind](Diagnostic::kind), the groups in the order their kinds
/// first appear, so that each kind of problem can be said once.
///
/// ```
/// use evaltally_core::{diag::group, Diagnostic};
/// let d = [
///     Diagnostic::warning("a.json", "duplicate id `x`").at_line(3),
///     Diagnostic::error("b.json", "not valid JSON"),
///     Diagnostic::warning("a.json", "duplicate id `y`").at_line(9).with_more(4),
/// ];
/// let groups = group(&d);
/// assert_eq!(groups.len(), 2);
/// assert_eq!((groups[0].members.len(), groups[0].count, groups[0].files), (2, 6, 1));
/// assert_eq!(groups[0].line(), "a.json:3: warning: duplicate id `x` (6 like it in this file)");
/// ```
pub fn group(diagnostics: &[Diagnostic]) -> Vec<Group<'_>> {
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut paths: Vec<std::collections::HashSet<&Path>> = Vec::new();
    for d in diagnostics {
        let i = *index.entry(d.kind()).or_insert_with(|| {
            groups.push(Group { members: Vec::new(), count: 0, files: 0 });
            paths.push(std::collections::HashSet::new());
            groups.len() - 1
        });
        groups[i].members.push(d);
        groups[i].count += d.count();
        if paths[i].insert(&d.path) {
            groups[i].files += 1;
        }
    }
    groups
}
