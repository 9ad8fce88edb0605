//! A report's summary, recomputed: SF-Bench v2 (every `EvaluationSummary` field, the
//! stored-against-computed differences, the resolved rule the flags follow) and SWE-bench
//! run reports (counts and resolve rates over each denominator in use).

pub mod stored;

use std::fmt::Write as _;

use evaltally_core::schema::{SchemaId, SortedKeys};
use evaltally_core::text::{Printable, markdown_code, printable};
use evaltally_sfbench::report::{IdLists, Report};
use evaltally_sfbench::summary::{self, ResolvedRule, RuleReport, Summary};
use evaltally_swebench::report::RunReport;
use serde::Serialize;
use serde_json::Value;

/// The identifier of [`SfbenchDocument`], `evaltally.summary-sfbench/1`.
pub const SFBENCH_SCHEMA: SchemaId = SchemaId::new("summary-sfbench", 1);

/// The identifier of [`SwebenchDocument`], `evaltally.summary-swebench/1`.
pub const SWEBENCH_SCHEMA: SchemaId = SchemaId::new("summary-swebench", 1);

/// The JSON document `evaltally summary --format json` prints for an SF-Bench v2 report:
/// its summary recomputed, the stored summary's fields that differ, the resolved rule the
/// stored flags follow, and the id lists recomputed. Its keys are written sorted, the
/// `schema` key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SfbenchDocument<'a> {
    /// The document's name and version, [`SFBENCH_SCHEMA`].
    pub schema: SchemaId,
    /// The report file, as given.
    pub path: &'a str,
    /// `sfbench-v2`.
    pub format: &'static str,
    /// Every `EvaluationSummary` field, recomputed from the instances.
    pub summary: &'a Summary,
    /// The fields of the stored summary whose value differs from the recomputed one.
    pub stored_differences: Vec<Difference<'a>>,
    /// Which resolved rule the stored flags follow.
    pub resolved_rule: RuleDocument<'a>,
    /// The id lists, recomputed from the instances.
    pub id_lists: IdLists,
}

/// A field of the stored summary whose value differs from the recomputed one.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Difference<'a> {
    /// The field.
    pub field: &'a str,
    /// Its stored value.
    pub stored: &'a Value,
    /// Its recomputed value.
    pub computed: &'a Value,
}

/// Which resolved rule the stored `resolved` flags follow.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuleDocument<'a> {
    /// The rules every stored flag agrees with, described; empty when none.
    pub followed: Vec<&'static str>,
    /// How far the flags agree with each computed rule.
    pub rules: Vec<RuleAgreement<'a>>,
    /// The instances whose status contradicts their `resolved` flag.
    pub status_mismatch_ids: &'a [String],
}

/// How far the stored flags agree with one rule.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuleAgreement<'a> {
    /// The rule, described.
    pub rule: &'static str,
    /// Where the rule comes from.
    pub origin: &'static str,
    /// Instances whose flag agrees.
    pub agree: usize,
    /// Instances whose flag disagrees.
    pub disagree: usize,
    /// Their ids, sorted.
    pub disagreeing_ids: &'a [String],
}

/// An SF-Bench v2 report's recomputed summary and what it says about the stored one.
#[derive(Debug)]
pub struct SfbenchSummary<'a> {
    /// The report.
    pub report: &'a Report,
    /// The summary recomputed from the instances (upstream's `calculate_summary`).
    pub computed: Summary,
    /// (field, stored, computed) where the stored summary differs.
    pub differences: Vec<(String, Value, Value)>,
    /// Which resolved rule the stored flags follow.
    pub rules: RuleReport,
}

impl<'a> SfbenchSummary<'a> {
    /// Recomputes everything from the report's instances.
    pub fn new(report: &'a Report) -> Self {
        let computed = summary::compute(&report.instances);
        let differences = report.summary.as_ref().map(|s| summary::differences(s, &computed)).unwrap_or_default();
        let rules = summary::judged_by(&report.instances);
        Self { report, computed, differences, rules }
    }

    fn rule_sentence(&self) -> String {
        let followed = self.rules.followed();
        let n = self.rules.instances;
        match followed.first() {
            _ if n == 0 => "no instances to judge".to_string(),
            Some(rule) => format!("the stored flags follow: {} ({n} of {n} agree)", rule.describe()),
            None => {
                let c = self.rules.agreement(ResolvedRule::Components);
                format!(
                    "the stored flags follow neither rule: {} of {n} agree with \"{}\" (disagreeing: {})",
                    c.agree,
                    ResolvedRule::Components.describe(),
                    ids(&c.disagreeing_ids)
                )
            }
        }
    }

    /// The summary as text; `path` and the report's strings are shown with [`printable`].
    pub fn text(&self, path: &str) -> String {
        let r = self.report;
        let s = &self.computed;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} (SF-Bench v2): run {}, model {}, dataset {}",
            printable(path),
            printable(r.run_id.as_deref().unwrap_or("unknown")),
            printable(r.model_name.as_deref().unwrap_or("unknown")),
            printable(r.dataset.as_deref().unwrap_or("unknown"))
        );
        let _ = writeln!(
            out,
            "\n  instances    {} submitted, {} completed, {} resolved, {} unresolved, {} errors, {} empty patches",
            s.instances_submitted,
            s.instances_completed,
            s.resolved_instances,
            s.instances_unresolved,
            s.error_instances,
            s.instances_empty_patch
        );
        let _ = writeln!(
            out,
            "  resolved     resolve_rate {} (a fraction), resolution_rate {:.2}% (a percentage)",
            round4(s.resolve_rate),
            s.resolution_rate
        );
        let _ = writeln!(
            out,
            "  scores       average {:.1}/100, functional average {:.1}/50, median {}, min {}, max {}",
            s.avg_score, s.avg_functional_score, s.median_score, s.min_score, s.max_score
        );
        let _ = writeln!(
            out,
            "  components   deployment {:.1}%, unit tests {:.1}%, functional {:.1}%, bulk {:.1}%, no tweaks {:.1}% pass",
            100.0 * s.deployment_pass_rate,
            100.0 * s.unit_test_pass_rate,
            100.0 * s.functional_pass_rate,
            100.0 * s.bulk_pass_rate,
            100.0 * s.no_tweaks_pass_rate
        );
        let _ = writeln!(
            out,
            "  durations    average {:.1} s, total {:.1} s (instances with a duration > 0)",
            s.avg_duration_seconds, s.total_duration_seconds
        );
        let _ = writeln!(out, "  rule         {}", self.rule_sentence());
        if !self.rules.status_mismatch_ids.is_empty() {
            let _ = writeln!(
                out,
                "               status contradicts the resolved flag: {}",
                ids(&self.rules.status_mismatch_ids)
            );
        }
        let stored = r.summary.as_ref().and_then(Value::as_object).is_some_and(|m| !m.is_empty());
        if self.differences.is_empty() && !stored {
            let _ = writeln!(out, "\n  the report stores no summary to check against the recomputed one");
        } else if self.differences.is_empty() {
            let _ = writeln!(out, "\n  the stored summary agrees with the recomputed one");
        } else {
            let _ = writeln!(out, "\n  the stored summary differs from the recomputed one:");
            for (field, stored, computed) in &self.differences {
                let _ = writeln!(
                    out,
                    "    {}: stored {}, recomputed {}",
                    printable(field),
                    printable(&stored.to_string()),
                    printable(&computed.to_string())
                );
            }
        }
        let _ = writeln!(
            out,
            "\n  note: SF-Bench's code writes resolve_rate as a fraction (0-1) and resolution_rate as a percentage;\n  its docs' \"Complete Report\" example shows resolve_rate 41.67, a percentage."
        );
        out
    }

    /// The JSON document.
    pub fn document<'b>(&'b self, path: &'b str) -> SfbenchDocument<'b> {
        SfbenchDocument {
            schema: SFBENCH_SCHEMA,
            path,
            format: "sfbench-v2",
            summary: &self.computed,
            stored_differences: self
                .differences
                .iter()
                .map(|(field, stored, computed)| Difference { field, stored, computed })
                .collect(),
            resolved_rule: RuleDocument {
                followed: self.rules.followed().iter().map(|r| r.describe()).collect(),
                rules: self
                    .rules
                    .rules
                    .iter()
                    .map(|a| RuleAgreement {
                        rule: a.rule.describe(),
                        origin: a.rule.origin(),
                        agree: a.agree,
                        disagree: a.disagree,
                        disagreeing_ids: &a.disagreeing_ids,
                    })
                    .collect(),
                status_mismatch_ids: &self.rules.status_mismatch_ids,
            },
            id_lists: summary::id_lists(&self.report.instances),
        }
    }

    /// The JSON document as pretty-printed text with a final newline.
    pub fn json(&self, path: &str) -> String {
        pretty(&SortedKeys(self.document(path)))
    }
}

/// Instance ids for a text line, each shown with [`printable`].
fn ids(ids: &[String]) -> String {
    ids.iter().map(|i| printable(i)).collect::<Vec<_>>().join(", ")
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn pretty<T: Serialize>(v: &T) -> String {
    crate::pretty_json(v)
}

/// The JSON document `evaltally summary --format json` prints for a SWE-bench run report:
/// its counts, and its resolve rate over each denominator in use (total, submitted,
/// completed), since the harness, sb-cli and leaderboards each pick one. Its keys are
/// written sorted, the `schema` key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwebenchDocument<'a> {
    /// The document's name and version, [`SWEBENCH_SCHEMA`].
    pub schema: SchemaId,
    /// The report file, as given.
    pub path: &'a str,
    /// `swebench-run-report`.
    pub format: &'static str,
    /// Instances in the dataset, when the report says.
    pub total_instances: Option<u64>,
    /// Instances submitted: as the report says, else the submitted ids counted.
    pub submitted_instances: Option<u64>,
    /// Instances completed: as the report says, else the completed ids counted.
    pub completed_instances: Option<u64>,
    /// Instances resolved.
    pub resolved_instances: usize,
    /// Instances unresolved.
    pub unresolved_instances: usize,
    /// Instances that errored.
    pub error_instances: usize,
    /// Instances with an empty patch.
    pub empty_patch_instances: usize,
    /// Instances not completed.
    pub incomplete_instances: usize,
    /// Resolved over total (`null` without a total).
    pub resolve_rate_of_total: Option<f64>,
    /// Resolved over submitted (`null` when none were).
    pub resolve_rate_of_submitted: Option<f64>,
    /// Resolved over completed (`null` when none were).
    pub resolve_rate_of_completed: Option<f64>,
}

/// A SWE-bench run report's summary as pretty-printed JSON with a final newline.
pub fn swebench_json(path: &str, run: &RunReport) -> String {
    pretty(&SortedKeys(swebench_document(path, run)))
}

fn rate(n: usize, d: Option<u64>) -> Option<f64> {
    d.filter(|d| *d > 0).map(|d| n as f64 / d as f64)
}

/// The summary of a SWE-bench run report.
pub fn swebench_document<'a>(path: &'a str, run: &RunReport) -> SwebenchDocument<'a> {
    let resolved = run.resolved_ids.len();
    let submitted = run.submitted_instances.or(Some(run.submitted_ids.len() as u64));
    let completed = run.completed_instances.or(Some(run.completed_ids.len() as u64));
    SwebenchDocument {
        schema: SWEBENCH_SCHEMA,
        path,
        format: "swebench-run-report",
        total_instances: run.total_instances,
        submitted_instances: submitted,
        completed_instances: completed,
        resolved_instances: resolved,
        unresolved_instances: run.unresolved_ids.len(),
        error_instances: run.error_ids.len(),
        empty_patch_instances: run.empty_patch_ids.len(),
        incomplete_instances: run.incomplete_ids.len(),
        resolve_rate_of_total: rate(resolved, run.total_instances),
        resolve_rate_of_submitted: rate(resolved, submitted),
        resolve_rate_of_completed: rate(resolved, completed),
    }
}

/// The counts of a SWE-bench summary, in display order.
const SWEBENCH_COUNTS: [&str; 8] = [
    "total_instances",
    "submitted_instances",
    "completed_instances",
    "resolved_instances",
    "unresolved_instances",
    "error_instances",
    "empty_patch_instances",
    "incomplete_instances",
];

/// The SWE-bench summary's rows, counts then resolve rates: (label, shown value).
fn swebench_rows(path: &str, run: &RunReport) -> Vec<(String, String)> {
    let v = serde_json::to_value(swebench_document(path, run)).unwrap_or_default();
    let counts = SWEBENCH_COUNTS.iter().map(|k| (k.replace('_', " "), v[k].to_string()));
    let rates = [
        ("resolve_rate_of_total", "total"),
        ("resolve_rate_of_submitted", "submitted"),
        ("resolve_rate_of_completed", "completed"),
    ]
    .into_iter()
    .map(|(k, label)| {
        let shown = v[k].as_f64().map_or("-".to_string(), |r| format!("{:.2}%", 100.0 * r));
        (format!("resolved / {label}"), shown)
    });
    counts.chain(rates).collect()
}

/// The SWE-bench summary as text (`path` shown with [`printable`]).
pub fn swebench_text(path: &str, run: &RunReport) -> String {
    let mut out = format!("{} (SWE-bench run report)\n\n", Printable(path));
    for (label, shown) in swebench_rows(path, run) {
        let _ = writeln!(out, "  {label:<22} {shown}");
    }
    out
}

/// The SWE-bench summary as Markdown.
pub fn swebench_markdown(path: &str, run: &RunReport) -> String {
    let mut out =
        format!("# SWE-bench run report\n\n{}\n\n| metric | value |\n|---|---:|\n", markdown_code(path, false));
    for (label, shown) in swebench_rows(path, run) {
        let _ = writeln!(out, "| {label} | {shown} |");
    }
    out
}
