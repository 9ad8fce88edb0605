//! A read [`JunitRun`] in the evaltally model: category runs, a run record, test details.
//!
//! * The category of a test case is its innermost suite's name (see [`JunitCase::category`]);
//!   its id is its name, made unique within the category (see [`JunitCase::id`]).
//! * `<failure>` and `<error>` fail, with the element's `type` as error label (`failure` or
//!   `error` when it has none); a skipped test did not run and is not listed, except one the
//!   writer marked [`UNSCORED_TYPE`](crate::UNSCORED_TYPE), which is listed as unscored.
//! * Duplicates (same category and id) keep the first, as every adapter does.

use std::path::Path;

use evaltally_core::{CategoryRun, Location, Outcome, RunMeta, RunRecord, Status, TestDetail, TestRecord};

use crate::model::{JunitCase, JunitRun};

/// Category runs from (category, id, outcome, error label) in document order: one per
/// category in natural order, tests in the order given, unscored when no test is scored.
pub(crate) fn group<'t>(
    tests: impl Iterator<Item = (&'t str, &'t str, Outcome, Option<&'t str>)>,
    run_name: &str,
    model: &str,
    source: &Path,
    meta: RunMeta,
) -> Vec<CategoryRun> {
    let meta = Some(meta).filter(|m| !m.is_empty()).map(std::sync::Arc::new);
    let tests: Vec<_> = tests.collect();
    let mut out = CategoryRun::from_tests(&tests, run_name, model, Some(source), meta.as_ref());
    for c in &mut out {
        // A category whose every test is skipped as unscored has no scores; errors are scores'
        // absence for one test, not for the file.
        let scored = c.tests().any(|t| t.outcome != Outcome::Unscored);
        c.scored = scored;
    }
    out
}

/// The format name in [`RunRecord::format`].
pub const FORMAT: &str = "junit";

impl JunitRun {
    /// The test cases that count: every one but the duplicates, in document order.
    pub fn kept(&self) -> impl Iterator<Item = &JunitCase> + '_ {
        self.cases.iter().filter(|c| !c.duplicate)
    }

    /// The report as category runs, one per category in natural order, tests in document
    /// order. Skipped tests are not listed (they did not run).
    ///
    /// ```
    /// use std::path::Path;
    /// let xml = r#"<testsuites>
    ///   <testsuite name="b"><testcase name="t1"/><testcase name="t2"><skipped/></testcase></testsuite>
    ///   <testsuite name="a"><testcase name="t1"><error message="boom"/></testcase></testsuite>
    /// </testsuites>"#;
    /// let run = evaltally_junit::read(xml, Path::new("r.xml")).unwrap();
    /// let cats = run.category_runs("r1", "m");
    /// assert_eq!(cats.iter().map(|c| c.category.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(cats[0].error_type(0).map(|e| e.as_str()), Some("error"));
    /// assert_eq!((cats[1].len(), cats[1].passed()), (1, 1));
    /// ```
    pub fn category_runs(&self, run_name: &str, model: &str) -> Vec<CategoryRun> {
        let tests = self.kept().filter_map(|case| {
            let outcome = case.outcome()?;
            let label = if matches!(outcome, Outcome::Fail | Outcome::Errored) { case.error_type() } else { None };
            Some((case.category.as_str(), case.id.as_str(), outcome, label))
        });
        group(tests, run_name, model, &self.source, self.meta())
    }

    /// How many kept test cases did not run (`<skipped>`, `GoogleTest`'s `notrun`), which
    /// [`category_runs`](Self::category_runs) does not list.
    ///
    /// ```
    /// use std::path::Path;
    /// let xml = r#"<testsuite name="s"><testcase name="a"/><testcase name="b"><skipped/></testcase>
    ///   <testcase name="c"><skipped type="evaltally.unscored"/></testcase></testsuite>"#;
    /// assert_eq!(evaltally_junit::read(xml, Path::new("r.xml")).unwrap().not_run(), 1);
    /// ```
    pub fn not_run(&self) -> usize {
        self.kept().filter(|case| case.outcome().is_none()).count()
    }

    /// The report as a run record: every kept test case in document order (skipped ones
    /// with no outcome), with durations, messages, tokens and costs.
    ///
    /// ```
    /// use std::path::Path;
    /// let xml = r#"<testsuite name="s" timestamp="2026-01-02T03:04:05">
    ///   <testcase name="t" time="1.25"><properties><property name="cost_usd" value="0.5"/></properties>
    ///     <failure type="timeout">took too long</failure></testcase></testsuite>"#;
    /// let rec = evaltally_junit::read(xml, Path::new("r.xml")).unwrap().record("r1", "m");
    /// assert_eq!((rec.format.as_str(), rec.started_at.as_deref()), ("junit", Some("2026-01-02T03:04:05")));
    /// let t = &rec.tests[0];
    /// assert_eq!((t.duration_ms, t.cost_usd), (Some(1250.0), Some(0.5)));
    /// assert_eq!((t.error_type.as_deref(), t.error_message.as_deref()), (Some("timeout"), Some("took too long")));
    /// ```
    pub fn record(&self, run_name: &str, model: &str) -> RunRecord {
        RunRecord {
            run: run_name.to_string(),
            model: model.to_string(),
            format: FORMAT.to_string(),
            source: self.source.clone(),
            started_at: self.started_at().map(str::to_string),
            meta: self.meta(),
            tests: self.kept().map(test_record).collect(),
            ..RunRecord::default()
        }
    }

    /// Everything the report says about test `id` (its first test case with that id), or
    /// `None` when it has none. The run is [`JunitRun::run_name`], the model
    /// [`JunitRun::model`] (empty when unknown); callers that know better overwrite them.
    ///
    /// ```
    /// use std::path::Path;
    /// use evaltally_core::Status;
    /// let xml = r#"<testsuite name="s"><testcase name="t" time="2"><skipped message="flaky"/></testcase></testsuite>"#;
    /// let d = evaltally_junit::read(xml, Path::new("r.xml")).unwrap().show("t").unwrap();
    /// assert_eq!((d.status, d.error_message.as_deref(), d.latency_seconds), (Status::NotRun, Some("flaky"), Some(2.0)));
    /// assert_eq!(d.result_at.unwrap().line, 1);
    /// ```
    pub fn show(&self, id: &str) -> Option<TestDetail> {
        let case = self.kept().find(|c| c.id == id)?;
        let status = case.outcome().map_or(Status::NotRun, Status::from);
        let mut d = TestDetail::new(&self.run_name(), self.model().unwrap_or_default(), &case.category, id, status);
        d.error_type = case.error_type().map(str::to_string);
        d.error_message = case.message().map(str::to_string);
        d.input_tokens = case.input_tokens();
        d.output_tokens = case.output_tokens();
        d.latency_seconds = case.duration_ms.map(|ms| ms / 1000.0);
        d.result_at = Some(Location { path: self.source.clone(), line: case.line });
        Some(d)
    }
}

fn test_record(case: &JunitCase) -> TestRecord {
    TestRecord {
        id: case.id.clone(),
        category: case.category.clone(),
        outcome: case.outcome(),
        error_type: case.error_type().map(str::to_string),
        error_message: case.message().map(str::to_string),
        duration_ms: case.duration_ms,
        input_tokens: case.input_tokens(),
        output_tokens: case.output_tokens(),
        cost_usd: case.cost_usd(),
    }
}
