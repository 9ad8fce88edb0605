//! Who wrote a report, told from its root element, and what its `<error>` means.
//!
//! JUnit XML has no one meaning for `<error>`. pytest writes it for a fixture, collection or
//! internal error; jest-junit for a test file that could not run; go-junit-report for a
//! build or runtime error; promptfoo for a provider or evaluation error: the harness failed,
//! and the test was not judged (errored). Two producers write it for the test's own
//! failure, which is a failure:
//!
//! * Playwright 1.59 and later: a test timeout, an action timeout or a thrown exception (a
//!   failed `expect` is a `<failure>`; 1.58 and before wrote `<failure>` for all of them).
//!   Known by its root, `<testsuites id="" name="" …>`.
//! * Maven Surefire and Failsafe: an exception other than an assertion error thrown by the
//!   test. Known by its bare `<testsuite>` root with the Surefire schema location.
//!
//! `docs/formats/junit.md` lists every producer and its sources.

/// Whether a test case is a runner's report of a failure around the tests, which judged
/// no test, rather than a test: jest-junit's `Test suite failed to run` (a test file that
/// could not load), mocha's `"before all" hook …` (and the other hooks), gotestsum's
/// `TestMain` without a class (a package that did not build, or a test binary that timed
/// out). Such a case errored, whichever element it holds.
///
/// ```
/// use evaltally_junit::Producer;
/// assert!(Producer::is_harness_case(Some("Test suite failed to run"), "broken.test.js"));
/// assert!(Producer::is_harness_case(Some("judge"), "\"before all\" hook for \"grades\""));
/// assert!(Producer::is_harness_case(None, "TestMain"));
/// assert!(!Producer::is_harness_case(Some("capitals"), "TestMain"));
/// ```
impl Producer {
    pub fn is_harness_case(classname: Option<&str>, name: &str) -> bool {
        const HOOKS: [&str; 4] =
            ["\"before all\" hook", "\"after all\" hook", "\"before each\" hook", "\"after each\" hook"];
        classname == Some("Test suite failed to run")
            || name.trim_start().starts_with("Test execution failure")
            || HOOKS.iter().any(|h| name.contains(h) || classname.is_some_and(|c| c.starts_with(h)))
            || classname.is_none() && name == "TestMain"
    }
}

/// A report's writer, as far as its root tells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Producer {
    /// Playwright's JUnit reporter.
    Playwright,
    /// Maven Surefire or Failsafe.
    Surefire,
    /// Any other writer: an `<error>` is the harness's.
    #[default]
    Other,
}

impl Producer {
    /// The writer of a `<testsuites>` root with these attributes (`attr` gives each by its
    /// local name).
    pub(crate) fn of_testsuites(attr: impl Fn(&str) -> Option<String>) -> Self {
        // Playwright writes `id=""` and `name=""` first, and no one else writes `id` there.
        if attr("id").is_some_and(|v| v.is_empty()) && attr("name").is_some_and(|v| v.is_empty()) {
            Producer::Playwright
        } else {
            Producer::Other
        }
    }

    /// The writer of a bare `<testsuite>` root with these attributes.
    pub(crate) fn of_testsuite(attr: impl Fn(&str) -> Option<String>) -> Self {
        if attr("noNamespaceSchemaLocation").is_some_and(|l| l.contains("maven.apache.org/surefire")) {
            Producer::Surefire
        } else {
            Producer::Other
        }
    }

    /// Whether its `<error>` is the test's failure rather than the harness's.
    ///
    /// ```
    /// use evaltally_junit::Producer;
    /// assert!(Producer::Playwright.errors_are_failures());
    /// assert!(!Producer::Other.errors_are_failures());
    /// ```
    pub fn errors_are_failures(self) -> bool {
        matches!(self, Producer::Playwright | Producer::Surefire)
    }
}
