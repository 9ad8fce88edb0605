//! A JUnit report as read: suites and test cases, flattened in document order, with what
//! every dialect may add (nested suites, properties, captured output, several problems per
//! test case).

use std::path::PathBuf;

use evaltally_core::{Diagnostic, Outcome};

/// The `<skipped type>` the writer gives a test the run did not judge ([`Outcome::Unscored`]).
pub const UNSCORED_TYPE: &str = "evaltally.unscored";
/// The `<skipped type>` the writer gives a test the run lists without running it.
pub const NOT_RUN_TYPE: &str = "evaltally.not_run";

/// A `<property name value>`. Its value is the `value` attribute, or the element's text
/// when there is no such attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// `name`.
    pub name: String,
    /// `value`.
    pub value: String,
}

/// Looks a property up by name (the first one wins).
pub(crate) fn lookup<'a>(props: &'a [Property], name: &str) -> Option<&'a str> {
    props.iter().find(|p| p.name == name).map(|p| p.value.as_str())
}

/// The counts a `<testsuite>` or `<testsuites>` element declares in its attributes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// `tests`.
    pub tests: Option<u64>,
    /// `failures`.
    pub failures: Option<u64>,
    /// `errors`.
    pub errors: Option<u64>,
    /// `skipped` (or `skip`, as some runners spell it).
    pub skipped: Option<u64>,
    /// `disabled` (`GoogleTest`: tests turned off, counted apart from `skipped`).
    pub disabled: Option<u64>,
}

/// One `<testsuite>`.
#[derive(Clone, Debug, PartialEq)]
pub struct JunitSuite {
    /// `name`, if present and not blank.
    pub name: Option<String>,
    /// The enclosing suite (an index into [`JunitRun::suites`]) when suites are nested.
    pub parent: Option<usize>,
    /// 1-based line of the start tag.
    pub line: u64,
    /// `timestamp`, as written.
    pub timestamp: Option<String>,
    /// `hostname`.
    pub hostname: Option<String>,
    /// `time`, in milliseconds.
    pub duration_ms: Option<f64>,
    /// The counts the suite declares.
    pub declared: Declared,
    /// `<properties>`.
    pub properties: Vec<Property>,
    /// `<system-out>` text.
    pub system_out: Option<String>,
    /// `<system-err>` text.
    pub system_err: Option<String>,
}

/// The kind of a [`Problem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// `<failure>`: an assertion failed.
    Failure,
    /// `<error>`: the test crashed.
    Error,
    /// `<skipped>`: the test did not run.
    Skipped,
}

impl ProblemKind {
    /// The element name.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Failure => "failure",
            ProblemKind::Error => "error",
            ProblemKind::Skipped => "skipped",
        }
    }
}

/// A `<failure>`, `<error>` or `<skipped>` element of a test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Which element.
    pub kind: ProblemKind,
    /// `message`, if present and not blank.
    pub message: Option<String>,
    /// `type`, if present and not blank.
    pub type_name: Option<String>,
    /// The element's text (CDATA included), without the indentation around it.
    pub text: Option<String>,
}

impl Problem {
    /// The message: the element's text, else the `message` attribute unless it only repeats
    /// the `type` (or is one of the writer's own skip reasons).
    pub fn best_message(&self) -> Option<&str> {
        if let Some(text) = &self.text {
            return Some(text);
        }
        let own_marker = self.type_name.as_deref().is_some_and(|t| t.starts_with("evaltally."));
        self.message.as_deref().filter(|m| !own_marker && Some(*m) != self.type_name.as_deref())
    }
}

/// What a test case's elements say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaseStatus {
    /// No failure, error or skip.
    Passed,
    /// Its first problem is a `<failure>` (or `status="fail"`).
    Failed,
    /// Its first problem is an `<error>` (or `status="error"`).
    Errored,
    /// `<skipped>`, or `GoogleTest`'s `status="notrun"` / `result="skipped"`, with no failure.
    Skipped,
}

/// What a test case's own attributes say (`GoogleTest`'s `status="notrun"`, `CTest`'s
/// `status="fail"`, `result="skipped"`), before its child elements are seen.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CaseFlags {
    pub(crate) skipped: bool,
    pub(crate) failed: bool,
    pub(crate) errored: bool,
}

impl CaseFlags {
    /// The flags from a test case's `status` and `result` attributes.
    pub(crate) fn from_attributes(status: Option<&str>, result: Option<&str>) -> Self {
        // Most test cases have neither (a hundred thousand of them in a thousand reports).
        if status.is_none() && result.is_none() {
            return CaseFlags::default();
        }
        let (status, result) = (status.unwrap_or_default().trim(), result.unwrap_or_default().trim());
        let is = |value: &str, words: &[&str]| words.iter().any(|w| value.eq_ignore_ascii_case(w));
        CaseFlags {
            skipped: is(status, &["notrun", "disabled", "skipped", "skip"]) || is(result, &["skipped", "suppressed"]),
            failed: is(status, &["fail", "failed", "failure"]),
            errored: is(status, &["error"]),
        }
    }
}

impl CaseStatus {
    /// The status of a test case whose first failure or error (if any) is `first_problem`,
    /// with `flags` from its attributes and whether it holds a `<skipped>`: the first
    /// failure or error decides, then the attributes, then a skip.
    pub(crate) fn decide(first_problem: Option<ProblemKind>, flags: CaseFlags, has_skip: bool) -> Self {
        match first_problem {
            Some(ProblemKind::Failure) => CaseStatus::Failed,
            Some(ProblemKind::Error) => CaseStatus::Errored,
            _ if flags.failed => CaseStatus::Failed,
            _ if flags.errored => CaseStatus::Errored,
            _ if flags.skipped || has_skip => CaseStatus::Skipped,
            _ => CaseStatus::Passed,
        }
    }

    /// The outcome in the evaltally model, given the `type` of the deciding problem.
    pub(crate) fn outcome(self, deciding_type: Option<&str>) -> Option<Outcome> {
        match self {
            CaseStatus::Passed => Some(Outcome::Pass),
            CaseStatus::Failed => Some(Outcome::Fail),
            // An `<error>` is the harness's problem (a setup or fixture error, a crash), not a
            // wrong answer: errored, a failure only with `--errors-as fail`.
            CaseStatus::Errored => Some(Outcome::Errored),
            CaseStatus::Skipped => (deciding_type == Some(UNSCORED_TYPE)).then_some(Outcome::Unscored),
        }
    }

    /// The error label of a failed test, given the `type` of the deciding problem.
    pub(crate) fn error_label(self, deciding_type: Option<&str>) -> Option<&str> {
        let kind = match self {
            CaseStatus::Failed => ProblemKind::Failure,
            CaseStatus::Errored => ProblemKind::Error,
            CaseStatus::Passed | CaseStatus::Skipped => return None,
        };
        Some(deciding_type.unwrap_or(kind.as_str()))
    }
}

/// One `<testcase>`.
#[derive(Clone, Debug, PartialEq)]
pub struct JunitCase {
    /// The innermost enclosing suite (an index into [`JunitRun::suites`]), `None` for a test
    /// case directly below `<testsuites>`.
    pub suite: Option<usize>,
    /// 1-based line of the start tag.
    pub line: u64,
    /// `name` (empty when missing; the id then says where the test case is).
    pub name: String,
    /// `classname`, if present and not blank.
    pub classname: Option<String>,
    /// The category: the innermost suite's name, else the classname, else the nearest
    /// named outer suite, else the file stem.
    pub category: String,
    /// The id, unique within the category: the name, prefixed with `classname::` when
    /// test cases of different classes share the name.
    pub id: String,
    /// Whether a later test case has the same category and id (a runner's rerun: the last
    /// attempt is the verdict); duplicates are left out of [`JunitRun::category_runs`] and
    /// [`JunitRun::record`].
    pub duplicate: bool,
    /// `time`, in milliseconds.
    pub duration_ms: Option<f64>,
    /// Passed, failed, errored or skipped.
    pub status: CaseStatus,
    /// The `<failure>`, `<error>` and `<skipped>` elements, in document order.
    pub problems: Vec<Problem>,
    /// `<properties>`.
    pub properties: Vec<Property>,
    /// `<system-out>` text.
    pub system_out: Option<String>,
    /// `<system-err>` text.
    pub system_err: Option<String>,
}

impl JunitCase {
    /// The problem that decides the status: the first failure or error of a failed test,
    /// the first skip of a skipped one.
    pub fn deciding_problem(&self) -> Option<&Problem> {
        match self.status {
            CaseStatus::Passed => None,
            CaseStatus::Failed | CaseStatus::Errored => self.problems.iter().find(|p| p.kind != ProblemKind::Skipped),
            CaseStatus::Skipped => self.problems.iter().find(|p| p.kind == ProblemKind::Skipped),
        }
    }

    /// The outcome in the evaltally model: failures and errors fail; a skipped test did not
    /// run (`None`), except one the writer marked [`UNSCORED_TYPE`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.status.outcome(self.deciding_problem().and_then(|p| p.type_name.as_deref()))
    }

    /// The error label of a failed test: the problem's `type`, else `failure` or `error`.
    pub fn error_type(&self) -> Option<&str> {
        self.status.error_label(self.deciding_problem().and_then(|p| p.type_name.as_deref()))
    }

    /// The message of a failed or skipped test (see [`Problem::best_message`]).
    pub fn message(&self) -> Option<&str> {
        self.deciding_problem().and_then(Problem::best_message)
    }

    /// A property's value, by name.
    pub fn property(&self, name: &str) -> Option<&str> {
        lookup(&self.properties, name)
    }

    /// `input_tokens` (or vitest-evals style `evals.input_tokens`).
    pub fn input_tokens(&self) -> Option<u64> {
        self.first_property(&["input_tokens", "evals.input_tokens"]).and_then(|v| v.trim().parse().ok())
    }

    /// `output_tokens` (or `evals.output_tokens`).
    pub fn output_tokens(&self) -> Option<u64> {
        self.first_property(&["output_tokens", "evals.output_tokens"]).and_then(|v| v.trim().parse().ok())
    }

    /// `cost_usd` (or `evals.cost_usd`, `evals.cost`), when it is a finite number.
    pub fn cost_usd(&self) -> Option<f64> {
        self.first_property(&["cost_usd", "evals.cost_usd", "evals.cost"])
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|c| c.is_finite())
    }

    fn first_property(&self, names: &[&str]) -> Option<&str> {
        names.iter().find_map(|n| self.property(n))
    }
}

/// The run metadata a report holds: its first suite timestamp and hostname.
pub(crate) fn run_meta(timestamp: Option<&str>, hostname: Option<&str>) -> evaltally_core::RunMeta {
    evaltally_core::RunMeta {
        timestamp: timestamp.map(str::to_string),
        hostname: hostname.map(str::to_string),
        ..Default::default()
    }
}

/// A run's name: its `run` property (which `convert --to junit` writes), else its file's
/// stem. `<testsuites name>` names the producer (`jest tests`, `pytest tests`, `AllTests`),
/// not the run.
pub(crate) fn run_name(property: Option<&str>, source: &std::path::Path) -> String {
    property
        .map(str::to_string)
        .or_else(|| source.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "junit".to_string())
}

/// A JUnit XML document as read by [`read`](crate::read).
#[derive(Clone, Debug, PartialEq)]
pub struct JunitRun {
    /// The file it was read from.
    pub source: PathBuf,
    /// `<testsuites name>`; `None` for a bare `<testsuite>` root.
    pub name: Option<String>,
    /// The counts `<testsuites>` declares (none for a bare `<testsuite>` root).
    pub declared: Declared,
    /// 1-based line of the root element.
    pub root_line: u64,
    /// `<properties>` directly below `<testsuites>` (not in the common schema, but written).
    pub properties: Vec<Property>,
    /// Every `<testsuite>`, outer before inner, in document order.
    pub suites: Vec<JunitSuite>,
    /// Every `<testcase>`, in document order.
    pub cases: Vec<JunitCase>,
    /// What was tolerated, with the line it is about.
    pub diagnostics: Vec<Diagnostic>,
    /// Who wrote it, as far as its root tells: whose `<error>` is a failure of the test
    /// (read as one) rather than the harness's.
    pub producer: crate::Producer,
}

impl JunitRun {
    /// A property from `<testsuites>` or the first suite that has it.
    pub fn property(&self, name: &str) -> Option<&str> {
        lookup(&self.properties, name).or_else(|| self.suites.iter().find_map(|s| lookup(&s.properties, name)))
    }

    /// The run's name: the `run` property the writer stores, else the file stem (which the
    /// analyzer replaces with the run's folder when it is generic, `junit.xml`).
    pub fn run_name(&self) -> String {
        run_name(self.property("run"), &self.source)
    }

    /// The model, from the `model` property the writer stores.
    pub fn model(&self) -> Option<&str> {
        self.property("model")
    }

    /// What the report says about its run: the first suite `timestamp` and `hostname`.
    pub fn meta(&self) -> evaltally_core::RunMeta {
        run_meta(self.started_at(), self.suites.iter().find_map(|s| s.hostname.as_deref()))
    }

    /// When the report's first suite with a `timestamp` says it started.
    pub fn started_at(&self) -> Option<&str> {
        self.suites.iter().find_map(|s| s.timestamp.as_deref())
    }
}
