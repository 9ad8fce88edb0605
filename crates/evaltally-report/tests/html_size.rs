//! The HTML report of 40 runs × 5,000 tests, a quarter failing in each run with a message of
//! its own, stays under 10 MB: messages are cut shorter until they fit, every cell is kept.

use evaltally_analyzer::stability;
use evaltally_core::{CategoryRun, Outcome, RunRecord, TestRecord};
use evaltally_report::html::{self, Input, Options};

const RUNS: usize = 40;
const TESTS: usize = 5_000;

#[test]
fn forty_runs_of_five_thousand_tests_stay_under_ten_megabytes() {
    let mut runs = Vec::new();
    let mut records = Vec::new();
    for r in 0..RUNS {
        let name = format!("run-{r:02}");
        let mut run = CategoryRun::new(&name, "m", "simple_python");
        let mut record =
            RunRecord { run: name.clone(), model: "m".into(), format: "bfcl".into(), ..RunRecord::default() };
        for t in 0..TESTS {
            let id = format!("simple_python_{t}");
            // Test t fails in run r about a quarter of the time, differently per run.
            let fails = (t * 7 + r * 13) % 4 == 0;
            let outcome = if fails { Outcome::Fail } else { Outcome::Pass };
            run.push(&id, outcome, fails.then_some("value_error:string"));
            record.tests.push(TestRecord {
                id,
                category: "simple_python".into(),
                outcome: Some(outcome),
                error_type: fails.then(|| "value_error:string".to_string()),
                error_message: fails
                    .then(|| format!("run {r} test {t}: {}", "Invalid value for parameter. ".repeat(12))),
                duration_ms: Some(1234.5),
                input_tokens: Some(1850),
                output_tokens: Some(27),
                cost_usd: None,
            });
        }
        runs.push(run);
        records.push(record);
    }
    let report = stability::analyze(&runs);
    let input = Input {
        stability: &report,
        runs: &runs,
        records: &records,
        compare: None,
        diagnostics: &[],
        inputs: &[],
        estimates: &[],
    };
    let data = html::data(&input, &Options::default());
    let page = html::page(&data).unwrap();
    assert!(page.len() < 10_000_000, "{} bytes", page.len());
    // 50,000 distinct messages of 300 characters would be 15 MB alone.
    assert!(data.message_chars < 300 && data.message_chars > 0, "{}", data.message_chars);
    let model = &data.models[0];
    assert_eq!(model.tests.len(), TESTS);
    assert!(model.tests.iter().all(|t| t.outcomes.len() == RUNS));
    let failed: usize = model.tests.iter().map(|t| t.outcomes.matches('F').count()).sum();
    let details: usize = model.tests.iter().map(|t| t.details.len()).sum();
    assert_eq!(failed, details);
    assert_eq!(failed, RUNS * TESTS / 4);
}
