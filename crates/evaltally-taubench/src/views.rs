//! A results file test by test (`export`, `convert`) and one task across its trials (`show`).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Outcome, RunRecord, Status, TestDetail, TestRecord};

use crate::{FAIL_LABEL, FORMAT, identity, trials};

/// Every trial of a results file as a run record (for `export` and `convert`).
pub fn records(path: &Path, bytes: &[u8]) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (trials, diagnostics) = trials(path, bytes, true)?;
    let (model, category) = identity(path);
    let stem = evaltally_format::json::stem(path);
    let mut runs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for t in trials {
        let run = runs.entry(t.trial).or_insert_with(|| RunRecord {
            run: format!("{stem}#trial-{}", t.trial),
            model: model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            ..RunRecord::default()
        });
        let passed = t.passed();
        run.tests.push(TestRecord {
            id: t.id,
            category: category.clone(),
            outcome: Some(if passed { Outcome::Pass } else { Outcome::Fail }),
            error_type: (!passed).then(|| FAIL_LABEL.to_string()),
            error_message: (!passed).then(|| format!("reward {}", t.reward)),
            ..TestRecord::default()
        });
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// Everything a results file says about task `id`: one detail per trial that ran it, with
/// the reward and τ-bench's `info` (the task and its expected actions) as details.
pub fn show(path: &Path, bytes: &[u8], id: &str) -> Result<Vec<TestDetail>, Diagnostic> {
    let (trials, _) = trials(path, bytes, false)?;
    let (model, category) = identity(path);
    let stem = evaltally_format::json::stem(path);
    Ok(trials
        .into_iter()
        .filter(|t| t.id == id)
        .map(|t| {
            let passed = t.passed();
            let status = if passed { Status::Passed } else { Status::Failed };
            let mut d = TestDetail::new(&format!("{stem}#trial-{}", t.trial), &model, &category, id, status);
            if !passed {
                d.error_type = Some(FAIL_LABEL.to_string());
                d.error_message = Some(format!("reward {}", t.reward));
            }
            d.error_details = Some(serde_json::json!({"reward": t.reward, "info": t.info}));
            d
        })
        .collect())
}
