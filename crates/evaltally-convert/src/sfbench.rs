//! To an SF-Bench v2 report, through the same builder as the v1 migration.

use evaltally_core::{Outcome, RunRecord};
use evaltally_sfbench::migrate;
use evaltally_sfbench::report::TaskStatus;
use evaltally_sfbench::v1::{V1Run, V1Shape, V1Task};

use crate::{Converted, carried};

/// The v2 report of `run`: passes are `resolved`, failures `fail` (or `error` for an error
/// label `error`/`inference_error`), tests that did not run `skipped`; durations,
/// error labels and messages are kept. SF-Bench's per-component validation has no
/// counterpart: components stay `skipped`, as the list of defaulted fields says.
pub fn convert(run: &RunRecord) -> Converted {
    let c = carried(run);
    let tasks = run
        .tests
        .iter()
        .map(|t| {
            let status = match (t.outcome, t.error_type.as_deref()) {
                (Some(Outcome::Pass), _) => TaskStatus::Resolved,
                (Some(Outcome::Errored), _)
                | (Some(Outcome::Fail), Some("error" | "inference_error" | "infra_failure")) => TaskStatus::Error,
                (Some(Outcome::Fail), _) => TaskStatus::Fail,
                (Some(Outcome::Unscored) | None, _) => TaskStatus::Skipped,
            };
            V1Task {
                id: Some(t.id.clone()),
                raw_status: Some(status.as_str().to_string()),
                resolved: Some(status == TaskStatus::Resolved),
                status: Some(status),
                score: None,
                duration: t.duration_ms.map(|ms| ms / 1000.0),
                error_message: t.error_message.clone(),
                error_type: t.error_type.clone(),
                timestamp: run.when().map(str::to_string),
                end_time: None,
                log_path: None,
                solution_patch: None,
                components: None,
            }
        })
        .collect();
    let v1 = V1Run {
        shape: V1Shape::MigrateInput,
        model: Some(run.model.clone()),
        dataset: None,
        run_id: Some(run.run.clone()),
        timestamp: run.when().map(str::to_string),
        tasks_file: None,
        validation_mode: None,
        tasks,
    };
    let m = migrate::to_v2(&v1);
    let mut text = migrate::to_json_pretty(&m.report);
    text.push('\n');
    let mut lost = vec![format!("defaulted (no counterpart): {}", m.defaulted.join(", "))];
    if c.tokens || c.cost {
        lost.push("tokens and costs: an SF-Bench report has no field for them".into());
    }
    Converted { text, lost }
}
