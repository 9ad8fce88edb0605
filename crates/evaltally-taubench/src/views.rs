//! A results file test by test (`export`, `convert`) and one task across its trials (`show`).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, RunRecord, Status, TestDetail, TestRecord};

use crate::{FORMAT, run_name, trials};

/// Every trial of a results file as a run record (for `export` and `convert`).
pub fn records(path: &Path, bytes: &[u8]) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (results, diagnostics) = trials(path, bytes, true)?;
    let stem = results.stem(path);
    let mut runs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for t in results.tasks {
        let run = runs.entry(t.trial).or_insert_with(|| RunRecord {
            run: run_name(&stem, t.trial),
            model: results.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            ..RunRecord::default()
        });
        let v = t.verdict();
        run.tests.push(TestRecord {
            id: t.id,
            category: results.category.clone(),
            outcome: Some(v.outcome),
            error_type: v.label,
            error_message: v.message,
            duration_ms: t.duration.map(evaltally_core::seconds_to_ms),
            cost_usd: t.cost,
            ..TestRecord::default()
        });
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// Everything a results file says about task `id`: one detail per trial that ran it, with
/// the reward and τ-bench's `info` (τ²: `reward_info`, the checks that made the reward) as
/// details.
pub fn show(path: &Path, bytes: &[u8], id: &str) -> Result<Vec<TestDetail>, Diagnostic> {
    let (results, _) = trials(path, bytes, false)?;
    let stem = results.stem(path);
    Ok(results
        .tasks
        .into_iter()
        .filter(|t| t.id == id)
        .map(|t| {
            let v = t.verdict();
            let mut d = TestDetail::new(
                &run_name(&stem, t.trial),
                &results.model,
                &results.category,
                id,
                Status::from(v.outcome),
            );
            d.error_type = v.label;
            d.error_message = v.message;
            d.latency_seconds = t.duration;
            let mut details = serde_json::json!({"reward": t.reward, "info": t.info});
            if let Some(reason) = t.termination {
                details["termination_reason"] = reason.into();
            }
            d.error_details = Some(details);
            d
        })
        .collect())
}
