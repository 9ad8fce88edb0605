//! The markdown summary of an SF-Bench report, as upstream's `generate_markdown_summary`.
//!
//! [`render`] writes the `summary.md` that SF-Bench's `make_run_report` writes
//! (`sfbench/utils/reporting.py` at `b7452ae3`, unchanged at HEAD `79df4f02`): the same
//! headings, emoji, tables and number formats, byte for byte. Like `make_run_report`, which
//! calls `finalize()` first, it uses the summary recomputed from the instances
//! ([`summary::compute`]), not the stored one.
//!
//! It departs from upstream where upstream is wrong (notes §1.7, §1.12), and only there:
//!
//! 1. **Success criteria.** Upstream prints a fixed list ending in "✅ Total score ≥ 80/100",
//!    a threshold its code dropped in `65ccc0f4`. This section instead states the rule the
//!    stored `resolved` flags actually follow ([`summary::judged_by`]), how many instances
//!    agree with each of SF-Bench's two rules and which do not, and which instances have a
//!    `status` that contradicts their flag.
//! 2. **Report Generated.** Upstream prints `datetime.utcnow()`; this prints `generated_at`
//!    when given and otherwise leaves the line out, so the output is deterministic.
//! 3. **Date.** Upstream's `datetime.fromisoformat(start_time)` raises on a missing time,
//!    and on Python < 3.11 on a `Z` suffix; with an offset it prints the local wall time
//!    labelled "UTC". Here `Z` is UTC, an offset is converted to UTC, a missing time prints
//!    `unknown` and a time that is not ISO 8601 prints as written, without "UTC".
//!
//! 4. **Text from the report.** Model, dataset, run id, instance ids, statuses, error
//!    messages and dates are shown with [`evaltally_core::text::printable`]: control
//!    characters (ANSI escape sequences, a raw newline inside an error message) and
//!    bidirectional overrides are escaped, so a report cannot steer the terminal or break
//!    the document's layout; `|` is escaped in table cells.
//!
//! Where upstream reads a Python object that a JSON file may lack, a missing model, dataset,
//! run id or schema version prints as `unknown`. Scores are kept as `f64` by
//! [`Report`], so a whole score prints as an integer (`60`) even if the JSON wrote `60.0`,
//! which upstream would print as `60.0`.
//!
//! ```
//! use evaltally_sfbench::{markdown, report::Report};
//!
//! let report = Report::from_value(&serde_json::json!({
//!     "schema_version": "2.0", "run_id": "r1", "model_name": "m", "dataset": "lite",
//!     "start_time": "2026-01-01T12:30:00Z",
//!     "instances": [{"instance_id": "lwc-component-001", "status": "resolved", "resolved": true,
//!         "duration_seconds": 12.0, "validation": {"deployment_status": "pass",
//!         "unit_test_status": "pass", "functional_status": "pass", "total_score": 80}}]}));
//! let md = markdown::render(&report, Some("2026-01-02T00:00:00"));
//! assert!(md.starts_with("# SF-Bench Evaluation Report\n"));
//! assert!(md.contains("**Date:** 2026-01-01 12:30:00 UTC\n"));
//! assert!(md.contains("| **Resolution Rate** | 100.0% |\n"));
//! assert!(md.contains("### ✅ lwc-component-001\n"));
//! assert!(md.contains("**Report Generated:** 2026-01-02T00:00:00  \n"));
//! assert!(!md.contains("Total score ≥ 80/100\n\n### Scoring"));
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

use evaltally_core::date::{civil_from_days, days_from_civil, days_in_month};
use evaltally_core::text::printable;

use crate::report::{COMPONENTS, Component, ComponentStatus, Instance, Report, TaskStatus};
use crate::summary::{self, ResolvedRule, RuleReport, Summary};

const CHECK: &str = "\u{2705}";
const CROSS: &str = "\u{274c}";
const WARNING: &str = "\u{26a0}\u{fe0f}";
const SKIP: &str = "\u{23ed}\u{fe0f}";
const UNKNOWN: &str = "\u{2753}";

/// Renders the report as upstream's `summary.md`, with the documented departures (see the
/// module docs). `generated_at` fills the "Report Generated" line; `None` leaves it out.
pub fn render(report: &Report, generated_at: Option<&str>) -> String {
    let s = summary::compute(&report.instances);
    let rules = summary::judged_by(&report.instances);
    let mut md = String::with_capacity(4096 + 1024 * report.instances.len());
    // Writing into a `String` cannot fail.
    let _ = write_header(&mut md, report);
    let _ = write_tables(&mut md, &s);
    let _ = write_task_lists(&mut md, &report.instances);
    let _ = write_details(&mut md, &report.instances);
    let _ = write_interpretation(&mut md, &rules);
    let _ = write_footer(&mut md, report, generated_at);
    md
}

fn or_unknown(s: Option<&str>) -> Cow<'_, str> {
    printable(s.unwrap_or("unknown"))
}

fn write_header(md: &mut String, report: &Report) -> std::fmt::Result {
    let date = match report.start_time.as_deref() {
        None => "unknown".to_string(),
        Some(t) => utc_date(t).unwrap_or_else(|| printable(t).into_owned()),
    };
    write!(
        md,
        "# SF-Bench Evaluation Report\n\n\
         **Model:** {}  \n\
         **Dataset:** {}  \n\
         **Run ID:** {}  \n\
         **Date:** {date}\n\n---\n\n",
        or_unknown(report.model_name.as_deref()),
        or_unknown(report.dataset.as_deref()),
        or_unknown(report.run_id.as_deref()),
    )
}

fn write_tables(md: &mut String, s: &Summary) -> std::fmt::Result {
    write!(
        md,
        "## 📊 Overall Results (SWE-bench Compatible)\n\n\
         | Metric | Value |\n|--------|-------|\n\
         | **Total Instances** | {} |\n\
         | **Instances Submitted** | {} |\n\
         | **Instances Completed** | {} |\n\
         | **Instances Resolved** | {} {CHECK} |\n\
         | **Instances Unresolved** | {} |\n\
         | **Instances Error** | {} {WARNING} |\n\
         | **Instances Empty Patch** | {} |\n\
         | **Resolution Rate** | {}% |\n\n---\n\n",
        s.total_instances,
        s.instances_submitted,
        s.instances_completed,
        s.resolved_instances,
        s.instances_unresolved,
        s.error_instances,
        s.instances_empty_patch,
        py_fixed1(s.resolution_rate),
    )?;
    write!(
        md,
        "## 🎯 Scoring Summary\n\n\
         | Metric | Value |\n|--------|-------|\n\
         | **Average Score** | {}/100 |\n\
         | **Average Functional Score** | {}/50 |\n\
         | **Median Score** | {}/100 |\n\
         | **Min Score** | {}/100 |\n\
         | **Max Score** | {}/100 |\n\n---\n\n",
        py_fixed1(s.avg_score),
        py_fixed1(s.avg_functional_score),
        py_fixed1(s.median_score.as_f64()),
        s.min_score,
        s.max_score,
    )?;
    md.push_str(
        "## 🔍 Component Analysis\n\n\
         | Component | Pass Rate | Max Points |\n|-----------|-----------|------------|\n",
    );
    for c in COMPONENTS {
        let name = match c {
            Component::Deployment => "Deployment",
            Component::UnitTest => "Unit Tests",
            Component::Functional => "Functional Validation",
            Component::Bulk => "Bulk Data",
            Component::NoTweaks => "No Manual Tweaks",
        };
        writeln!(md, "| **{name}** | {}% | {} |", py_fixed1(s.pass_rate(c) * 100.0), c.max_points())?;
    }
    write!(
        md,
        "\n---\n\n## ⏱️ Performance\n\n\
         | Metric | Value |\n|--------|-------|\n\
         | **Average Duration** | {}s |\n\
         | **Total Duration** | {} |\n\n---\n\n",
        py_fixed1(s.avg_duration_seconds),
        format_duration(s.total_duration_seconds),
    )
}

/// A task list of the "Task Results" section: title, emoji, which instances it holds.
type TaskList = (&'static str, &'static str, fn(&Instance) -> bool);

fn write_task_lists(md: &mut String, instances: &[Instance]) -> std::fmt::Result {
    let mut by_id: Vec<&Instance> = instances.iter().collect();
    by_id.sort_by(|a, b| a.instance_id.cmp(&b.instance_id));
    md.push_str("## 📋 Task Results (SWE-bench Style)\n\n");
    let lists: [TaskList; 3] = [
        ("Resolved", CHECK, |i| i.resolved),
        ("Unresolved", CROSS, |i| !i.resolved && i.status == TaskStatus::Fail),
        ("Error", WARNING, |i| i.status == TaskStatus::Error),
    ];
    for (title, emoji, keep) in lists {
        let ids: Vec<&str> = by_id.iter().filter(|i| keep(i)).map(|i| i.instance_id.as_str()).collect();
        writeln!(md, "### {title} Tasks ({})", ids.len())?;
        if ids.is_empty() {
            md.push_str("*None*\n");
        } else {
            for id in ids {
                writeln!(md, "- {emoji} {}", printable(id))?;
            }
        }
        md.push('\n');
    }
    md.push_str("---\n\n## 📋 Detailed Task Results\n\n");
    Ok(())
}

fn task_emoji(s: &TaskStatus) -> &'static str {
    match s {
        TaskStatus::Resolved => CHECK,
        TaskStatus::Fail => CROSS,
        TaskStatus::Error => WARNING,
        TaskStatus::Skipped => SKIP,
        TaskStatus::Other(_) => UNKNOWN,
    }
}

fn component_emoji(s: &ComponentStatus) -> &'static str {
    match s {
        ComponentStatus::Pass => CHECK,
        ComponentStatus::Fail => CROSS,
        ComponentStatus::Error => WARNING,
        ComponentStatus::Skipped => SKIP,
        ComponentStatus::Other(_) => UNKNOWN,
    }
}

fn write_details(md: &mut String, instances: &[Instance]) -> std::fmt::Result {
    let mut by_score: Vec<&Instance> = instances.iter().collect();
    by_score.sort_by(|a, b| summary::by_score_desc(a.validation.total_score, b.validation.total_score));
    for inst in by_score {
        let v = &inst.validation;
        writeln!(md, "### {} {}\n", task_emoji(&inst.status), printable(&inst.instance_id))?;
        writeln!(md, "**Status:** {}  ", printable(&inst.status.as_str().to_uppercase()))?;
        writeln!(md, "**Score:** {}/100  ", py_str(v.total_score))?;
        if inst.resolved {
            writeln!(md, "**Duration:** {}s  ", py_fixed1(inst.duration_seconds))?;
        }
        md.push_str("\n**Component Scores:**\n\n| Component | Status | Points |\n|-----------|--------|--------|\n");
        for c in COMPONENTS {
            let name = match c {
                Component::Deployment => "Deployment",
                Component::UnitTest => "Unit Tests",
                Component::Functional => "Functional",
                Component::Bulk => "Bulk Data",
                Component::NoTweaks => "No Tweaks",
            };
            let status = v.status_of(c);
            writeln!(
                md,
                "| {name} | {} {} | {}/{} |",
                component_emoji(status),
                printable(status.as_str()).replace('|', "\\|"),
                py_str(v.points_of(c)),
                c.max_points()
            )?;
        }
        if let Some(msg) = inst.error_message.as_deref().filter(|m| !m.is_empty()) {
            write!(md, "\n**Error:** {}\n", printable(msg))?;
        }
        md.push_str("\n---\n\n");
    }
    Ok(())
}

const CODE_RULE_BULLETS: &str = "- ✅ Code deploys successfully\n\
                                 - ✅ Unit tests pass\n\
                                 - ✅ Functional validation passes (business outcome achieved)\n";

fn write_interpretation(md: &mut String, rules: &RuleReport) -> std::fmt::Result {
    md.push_str("\n## 📈 Interpretation\n\n### Success Criteria\n\n");
    let n = rules.instances;
    let followed = rules.followed();
    let headline = |md: &mut String, rule: ResolvedRule| {
        writeln!(
            md,
            "The stored `resolved` flags follow: {} — {} of {n} instances agree.",
            rule.describe(),
            rules.agreement(rule).agree
        )
    };
    if n == 0 {
        md.push_str("No instances: there are no stored `resolved` flags to judge a rule by.\n\n");
        md.push_str("SF-Bench's code (since `65ccc0f4`) considers a task **RESOLVED** if:\n");
        md.push_str(CODE_RULE_BULLETS);
    } else if followed.contains(&ResolvedRule::Components) {
        md.push_str("A task is considered **RESOLVED** if:\n");
        md.push_str(CODE_RULE_BULLETS);
        md.push('\n');
        headline(md, ResolvedRule::Components)?;
        if followed.contains(&ResolvedRule::ComponentsAndScore80) {
            md.push_str(
                "They fit the older rule with a total score ≥ 80/100 as well: the two rules differ only on \
                 instances that pass the three components with a total score below 80, and there are none here.\n",
            );
        }
    } else if followed.contains(&ResolvedRule::ComponentsAndScore80) {
        md.push_str("A task is considered **RESOLVED** if:\n");
        md.push_str(CODE_RULE_BULLETS);
        md.push_str("- ✅ Total score ≥ 80/100\n\n");
        headline(md, ResolvedRule::ComponentsAndScore80)?;
        md.push_str(
            "That is the rule of SF-Bench's first schema commit (`94809d04`) and of its docs; its code has had \
             no score threshold since `65ccc0f4`.\n",
        );
    } else {
        writeln!(
            md,
            "The stored `resolved` flags follow neither of SF-Bench's rules: {} of {n} instances agree with \
             its code's rule, {} of {n} with the score-threshold rule of its docs.\n",
            rules.agreement(ResolvedRule::Components).agree,
            rules.agreement(ResolvedRule::ComponentsAndScore80).agree,
        )?;
        md.push_str("SF-Bench's code (since `65ccc0f4`) considers a task **RESOLVED** if:\n");
        md.push_str(CODE_RULE_BULLETS);
    }
    if n > 0 {
        md.push_str(
            "\n| Rule | Source | Agree | Disagreeing instances |\n|------|--------|-------|-----------------------|\n",
        );
        for a in &rules.rules {
            let name = match a.rule {
                ResolvedRule::ComponentsAndScore80 => "The same, and total score ≥ 80/100",
                _ => "Deployment, unit tests and functional validation pass",
            };
            let source = a.rule.origin();
            let ids = if a.disagreeing_ids.is_empty() { "*None*".to_string() } else { id_cell(&a.disagreeing_ids) };
            writeln!(md, "| {name} | {source} | {} of {n} | {ids} |", a.agree)?;
        }
    }
    if !rules.status_mismatch_ids.is_empty() {
        let k = rules.status_mismatch_ids.len();
        writeln!(
            md,
            "\n**Note:** {k} instance{} a `status` that contradicts {} `resolved` flag; the counts follow the \
             flag, the detailed results show the status: {}.",
            if k == 1 { " has" } else { "s have" },
            if k == 1 { "its" } else { "their" },
            id_cell(&rules.status_mismatch_ids),
        )?;
    }
    md.push_str(
        "\n### Scoring Breakdown\n\n\
         - **Deploy (10%):** Code deploys without errors\n\
         - **Unit Tests (20%):** All tests pass\n\
         - **Functional (50%):** Business requirement met (most important!)\n\
         - **Bulk (10%):** Handles 200+ records\n\
         - **No Tweaks (10%):** Works without manual fixes\n\n\
         ### Key Insight\n\n\
         A high score means the AI model can:\n\
         1. Understand Salesforce-specific requirements\n\
         2. Generate correct Apex/Flow/LWC code\n\
         3. Meet real business outcomes (not just syntax)\n\n---\n\n",
    );
    Ok(())
}

/// Ids joined by `, `, shown with [`printable`] and with `|` escaped so they stay in one
/// table cell.
fn id_cell(ids: &[String]) -> String {
    ids.iter().map(|id| printable(id).replace('|', "\\|")).collect::<Vec<_>>().join(", ")
}

fn write_footer(md: &mut String, report: &Report, generated_at: Option<&str>) -> std::fmt::Result {
    if let Some(t) = generated_at {
        writeln!(md, "**Report Generated:** {}  ", printable(t))?;
    }
    let schema = match &report.schema_version {
        None => "unknown".to_string(),
        Some(serde_json::Value::String(s)) => printable(s).into_owned(),
        Some(v) => printable(&v.to_string()).into_owned(),
    };
    write!(
        md,
        "**SF-Bench Version:** 1.0.0  \n\
         **Schema Version:** {schema}\n\n---\n\n\
         *To reproduce these results:*\n\
         ```bash\n\
         python scripts/evaluate.py --model \"{}\" --tasks data/tasks/{}.json\n\
         ```\n",
        or_unknown(report.model_name.as_deref()),
        or_unknown(report.dataset.as_deref()),
    )
}

/// Python's `f"{x:.1f}"` (Rust's fixed formatting rounds the same way; only NaN is spelled
/// differently).
fn py_fixed1(x: f64) -> String {
    if x.is_nan() { "nan".to_string() } else { format!("{x:.1}") }
}

/// Python's `str()` of a score or points value upstream holds as an `int` (see the module
/// docs on whole floats).
fn py_str(x: f64) -> String {
    summary::PyNumber::from_score(x).to_string()
}

/// Upstream's `format_duration`: seconds under a minute, minutes under an hour, else hours,
/// one decimal. NaN falls through to hours, as in Python.
fn format_duration(seconds: f64) -> String {
    if seconds < 60.0 {
        format!("{}s", py_fixed1(seconds))
    } else if seconds < 3600.0 {
        format!("{}m", py_fixed1(seconds / 60.0))
    } else {
        format!("{}h", py_fixed1(seconds / 3600.0))
    }
}

/// `datetime.fromisoformat(t).strftime('%Y-%m-%d %H:%M:%S UTC')`, except that a stated
/// offset is converted to UTC (upstream prints the local wall time labelled UTC). `None` when
/// `t` is not an ISO 8601 date or date-time Python would read.
///
/// Accepted: `YYYY-MM-DD`, then optionally one separator character and
/// `HH[:MM[:SS[.f…]]]`, then optionally `Z`, `z` or `±HH[:MM[:SS[.f…]]]` / `±HHMM`.
fn utc_date(t: &str) -> Option<String> {
    let mut p = Parser { s: t, i: 0 };
    let year = p.digits(4)?;
    p.lit('-')?;
    let month = p.digits(2)?;
    p.lit('-')?;
    let day = p.digits(2)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let (mut h, mut m, mut s, mut offset) = (0, 0, 0, 0);
    if !p.done() {
        p.any_char()?;
        h = p.digits(2)?;
        if p.peek() == Some(':') {
            p.lit(':')?;
            m = p.digits(2)?;
            if p.peek() == Some(':') {
                p.lit(':')?;
                s = p.digits(2)?;
                if matches!(p.peek(), Some('.' | ',')) {
                    p.any_char()?;
                    p.fraction()?;
                }
            }
        }
        if h > 23 || m > 59 || s > 59 {
            return None;
        }
        offset = p.offset()?;
    }
    if !p.done() {
        return None;
    }
    let secs = days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + s - offset;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, mo, d) = civil_from_days(days);
    Some(format!("{y:04}-{mo:02}-{d:02} {:02}:{:02}:{:02} UTC", rem / 3600, rem % 3600 / 60, rem % 60))
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }

    fn peek(&self) -> Option<char> {
        self.s[self.i..].chars().next()
    }

    fn any_char(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        Some(c)
    }

    fn lit(&mut self, want: char) -> Option<()> {
        (self.any_char()? == want).then_some(())
    }

    fn digits(&mut self, n: usize) -> Option<i64> {
        let part = self.s.get(self.i..self.i + n)?;
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.i += n;
        part.parse().ok()
    }

    fn fraction(&mut self) -> Option<()> {
        let n = self.s[self.i..].bytes().take_while(u8::is_ascii_digit).count();
        self.i += n;
        (n > 0).then_some(())
    }

    /// The UTC offset in seconds (0 when there is none).
    fn offset(&mut self) -> Option<i64> {
        let sign = match self.peek() {
            None => return Some(0),
            Some('Z' | 'z') => {
                self.i += 1;
                return Some(0);
            }
            Some('+') => 1,
            Some('-') => -1,
            Some(_) => return None,
        };
        self.i += 1;
        let h = self.digits(2)?;
        let mut m = 0;
        let mut s = 0;
        if !self.done() {
            let colon = self.peek() == Some(':');
            if colon {
                self.i += 1;
            }
            m = self.digits(2)?;
            if colon && self.peek() == Some(':') {
                self.i += 1;
                s = self.digits(2)?;
                if self.peek() == Some('.') {
                    self.i += 1;
                    self.fraction()?;
                }
            }
        }
        if h > 23 || m > 59 || s > 59 {
            return None;
        }
        Some(sign * (h * 3600 + m * 60 + s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dates_read_like_fromisoformat() {
        for (t, want) in [
            ("2026-01-01T00:00:00", Some("2026-01-01 00:00:00 UTC")),
            ("2025-12-29T14:30:00Z", Some("2025-12-29 14:30:00 UTC")),
            ("2025-12-29T14:30:00.123456", Some("2025-12-29 14:30:00 UTC")),
            ("2025-12-29 14:30", Some("2025-12-29 14:30:00 UTC")),
            ("2025-12-29", Some("2025-12-29 00:00:00 UTC")),
            ("2025-12-31T23:30:00-01:00", Some("2026-01-01 00:30:00 UTC")),
            ("2024-03-01T01:00:00+0200", Some("2024-02-29 23:00:00 UTC")),
            ("2025-02-29T00:00:00", None),
            ("2025-12-29T24:00:00", None),
            ("<nondeterministic utcnow>", None),
            ("2025-12-29T14:30:00Zjunk", None),
            ("", None),
            ("2025-12-2é", None),
        ] {
            assert_eq!(utc_date(t).as_deref(), want, "{t}");
        }
    }

    #[test]
    fn durations_format_like_upstream() {
        assert_eq!(format_duration(59.94), "59.9s");
        assert_eq!(format_duration(440.5), "7.3m");
        assert_eq!(format_duration(7200.0), "2.0h");
        assert_eq!(format_duration(f64::NAN), "nanh");
        assert_eq!(format_duration(0.0), "0.0s");
    }

    #[test]
    fn odd_reports_render_without_panicking() {
        let r = Report::from_value(&json!({"instances": [
            {"instance_id": "a|b", "status": "PASS", "resolved": true, "validation": {"total_score": "x",
                "deployment_status": "weird", "functional_points": 62.5}},
            {"status": "resolved", "error_message": ""},
            7
        ]}));
        let md = render(&r, None);
        assert!(md.contains("**Date:** unknown\n"));
        assert!(md.contains("### ❓ a|b\n\n**Status:** PASS  \n"));
        assert!(md.contains("| Deployment | ❓ weird | 0/10 |"));
        assert!(md.contains("| Functional | ⏭️ skipped | 62.5/50 |"));
        assert!(md.contains("a\\|b"));
        assert!(!md.contains("**Error:**"));
        assert!(!md.contains("Report Generated"));
        assert!(md.ends_with("--model \"unknown\" --tasks data/tasks/unknown.json\n```\n"));
        let empty = render(&Report::from_value(&json!({})), None);
        assert!(empty.contains("### Resolved Tasks (0)\n*None*\n"));
        assert!(empty.contains("## 📋 Detailed Task Results\n\n\n## 📈 Interpretation"));
        assert!(empty.contains("No instances"));
    }

    #[test]
    fn success_criteria_state_the_rule_followed() {
        let inst = |id: &str, resolved: bool, score: f64| {
            json!({"instance_id": id, "status": if resolved {"resolved"} else {"fail"}, "resolved": resolved,
                "validation": {"deployment_status": "pass", "unit_test_status": "pass",
                "functional_status": "pass", "total_score": score}})
        };
        let md =
            |instances: Vec<serde_json::Value>| render(&Report::from_value(&json!({"instances": instances})), None);
        let code = md(vec![inst("a", true, 70.0)]);
        assert!(
            code.contains(
                "follow: deployment, unit tests and functional validation pass (no score threshold) — 1 of 1"
            )
        );
        assert!(!code.contains("- ✅ Total score"));
        assert!(code.contains("| 0 of 1 | a |"));
        let old = md(vec![inst("a", false, 70.0), inst("b", true, 90.0)]);
        assert!(old.contains("- ✅ Total score ≥ 80/100\n\nThe stored `resolved` flags follow: deployment, unit tests and functional validation pass, and total score ≥ 80/100 — 2 of 2"));
        let neither = md(vec![inst("a", false, 90.0)]);
        assert!(neither.contains("follow neither of SF-Bench's rules: 0 of 1"));
    }
}
