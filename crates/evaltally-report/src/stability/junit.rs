//! The stability report as JUnit XML for CI test reporters: `stability --format junit`.
//!
//! Layout:
//!
//! * `<testsuites name="evaltally stability" tests failures errors skipped="0" time="0">`
//!   holding one `<testsuite name="MODEL/CATEGORY">` per model and category, in the report's
//!   order, whose `<properties>` give the model, the category and its scored runs.
//! * One `<testcase classname="MODEL/CATEGORY" name=ID time="0">` per test (`time` is always
//!   written: some reporters compute NaN without it).
//! * A stable pass is an empty testcase.
//! * A flaky test passes, with Surefire's rerun elements: one `<flakyFailure>` per run it
//!   failed and one `<flakyError>` per run it errored, each
//!   `message="failed in run RUN (P of N runs passed)" type="flaky"`. Jenkins (JUnit
//!   plugin) shows these as flaky; reporters that do not know them (GitLab, GitHub's
//!   reporters) count the test as passed.
//! * A stable failure is `<failure message="failed in all N runs" type="stable_fail">`, its
//!   text the run-by-run outcomes.
//! * A test that errored in more than half of the runs that listed it is `<error
//!   message="errored in E of N runs" type="errored">`, its text the run-by-run outcomes:
//!   judged too rarely to pass or fail.
//!
//! Every string is made XML-safe and escaped as `evaltally convert --to junit` writes it
//! ([`evaltally_junit::escape_attr`], [`evaltally_junit::escape_text`]): control characters
//! XML 1.0 forbids become their Unicode control pictures (U+001B → `␛`).

use std::fmt::Write;

use evaltally_junit::{escape_attr as attr, escape_text as text};

use evaltally_analyzer::stability::{CategoryStability, Class, StabilityReport, TestStability};

/// Renders the report as a JUnit XML document (UTF-8, two-space indentation, final newline).
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::stability;
///
/// let runs: Vec<CategoryRun> = ["r1", "r2"].into_iter().map(|name| {
///     let mut run = CategoryRun::new(name, "m", "simple");
///     run.push("simple_0", Outcome::Pass, None);
///     run.push("simple_1", Outcome::Fail, None);
///     run
/// }).collect();
/// let xml = evaltally_report::stability::junit(&stability::analyze(&runs));
/// assert!(xml.contains(r#"<testcase classname="m/simple" name="simple_0" time="0"/>"#));
/// assert!(xml.contains(r#"<failure message="failed in all 2 runs" type="stable_fail">"#));
/// ```
pub fn junit(report: &StabilityReport) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for model in &report.models {
        for category in &model.categories {
            let suite = Suite::of(category);
            tests += suite.tests;
            failures += suite.failures;
            errors += suite.errors;
            write_suite(&mut suites, &model.model, category, &suite);
        }
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"evaltally stability\" tests=\"{tests}\" \
         failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\" time=\"0\">\n{suites}</testsuites>\n"
    )
}

/// The counts of one suite.
struct Suite {
    tests: usize,
    failures: usize,
    errors: usize,
    flaky: usize,
}

impl Suite {
    fn of(category: &CategoryStability) -> Self {
        Suite {
            tests: category.tests.len(),
            failures: category.stable_fail,
            errors: category.ids.errored.len(),
            flaky: category.flaky,
        }
    }
}

fn write_suite(out: &mut String, model: &str, category: &CategoryStability, suite: &Suite) {
    let class = attr(&format!("{model}/{}", category.category));
    let _ = writeln!(
        out,
        "  <testsuite name=\"{class}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"0\">",
        suite.tests, suite.failures, suite.errors
    );
    out.push_str("    <properties>\n");
    for (name, value) in [
        ("model", model.to_string()),
        ("category", category.category.clone()),
        ("runs", category.runs.join(" ")),
        ("flaky", suite.flaky.to_string()),
    ] {
        let _ = writeln!(out, "      <property name=\"{name}\" value=\"{}\"/>", attr(&value));
    }
    out.push_str("    </properties>\n");
    for test in &category.tests {
        write_test(out, &class, category, test);
    }
    out.push_str("  </testsuite>\n");
}

fn write_test(out: &mut String, class: &str, category: &CategoryStability, test: &TestStability) {
    let open = format!("    <testcase classname=\"{class}\" name=\"{}\" time=\"0\"", attr(&test.id));
    // `outcomes` has one character per scored run of the category, in run order.
    let runs = || category.runs.iter().zip(test.outcomes.chars());
    let outcomes = || -> Vec<String> {
        runs()
            .filter(|(_, o)| *o != '-')
            .map(|(run, o)| {
                let what = match o {
                    'E' => "errored",
                    'P' => "passed",
                    _ => "failed",
                };
                format!("{run}: {what}")
            })
            .collect()
    };
    match test.class() {
        Class::StablePass if test.errored == 0 => {
            let _ = writeln!(out, "{open}/>");
        }
        Class::StablePass | Class::Flaky => {
            let _ = writeln!(out, "{open}>");
            for (run, outcome) in runs() {
                let element = match outcome {
                    'F' => "flakyFailure",
                    'E' => "flakyError",
                    _ => continue,
                };
                let what = if outcome == 'F' { "failed" } else { "errored" };
                let _ = writeln!(
                    out,
                    "      <{element} message=\"{what} in run {} ({} of {} runs passed)\" type=\"flaky\"/>",
                    attr(run),
                    test.passed,
                    test.runs
                );
            }
            out.push_str("    </testcase>\n");
        }
        Class::StableFail => {
            let _ = writeln!(
                out,
                "{open}>\n      <failure message=\"failed in all {} runs\" type=\"stable_fail\">{}</failure>\n    \
                 </testcase>",
                test.runs,
                text(&outcomes().join("\n"))
            );
        }
        Class::Errored => {
            let _ = writeln!(
                out,
                "{open}>\n      <error message=\"errored in {} of {} runs\" type=\"errored\">{}</error>\n    \
                 </testcase>",
                test.errored,
                test.errored + test.runs,
                text(&outcomes().join("\n"))
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use evaltally_analyzer::stability;
    use evaltally_core::{CategoryRun, Outcome};

    use super::junit;

    #[test]
    fn errors_flaky_errors_and_escaping() {
        let runs: Vec<CategoryRun> = [("r1", Outcome::Pass), ("r2", Outcome::Fail)]
            .into_iter()
            .map(|(name, second)| {
                let mut run = CategoryRun::new(name, "m<1>", "c&d");
                run.push("always_errors", Outcome::Errored, None);
                run.push("passes_or_errors", if name == "r1" { Outcome::Pass } else { Outcome::Errored }, None);
                run.push("a\"b\u{1}\nc", second, None);
                run
            })
            .collect();
        let xml = junit(&stability::analyze(&runs));
        assert!(xml.contains(
            r#"<testsuites name="evaltally stability" tests="3" failures="0" errors="1" skipped="0" time="0">"#
        ));
        assert!(xml.contains(r#"<testsuite name="m&lt;1&gt;/c&amp;d" tests="3" failures="0" errors="1""#));
        assert!(xml.contains(
            "<testcase classname=\"m&lt;1&gt;/c&amp;d\" name=\"always_errors\" time=\"0\">\n      \
             <error message=\"errored in 2 of 2 runs\" type=\"errored\">r1: errored\nr2: errored</error>"
        ));
        assert!(xml.contains(
            "name=\"passes_or_errors\" time=\"0\">\n      \
             <flakyError message=\"errored in run r2 (1 of 1 runs passed)\" type=\"flaky\"/>"
        ));
        assert!(xml.contains(
            "name=\"a&quot;b\u{2401}&#10;c\" time=\"0\">\n      \
             <flakyFailure message=\"failed in run r2 (1 of 2 runs passed)\" type=\"flaky\"/>"
        ));
    }
}
