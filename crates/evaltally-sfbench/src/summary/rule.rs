//! Which "resolved" rule a report's stored flags follow: the stored flag, SF-Bench's
//! component rule, or one of the score-threshold rules its docs and older code describe.

use crate::report::{Instance, TaskStatus};

/// A rule deciding whether an instance is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResolvedRule {
    /// The stored `resolved` flag, as written (what upstream counts).
    Stored,
    /// Deployment, unit tests and functional validation pass, no score threshold: SF-Bench's
    /// code since `65ccc0f4` (2025-12-30), [`Validation::is_resolved`](crate::report::Validation::is_resolved).
    Components,
    /// The same three components pass and `total_score >= 80`: SF-Bench's first schema commit
    /// `94809d04` and, still, its docs and its markdown report.
    ComponentsAndScore80,
}

impl ResolvedRule {
    /// Whether this rule calls the instance resolved.
    ///
    /// ```
    /// use evaltally_sfbench::report::Instance;
    /// use evaltally_sfbench::summary::ResolvedRule;
    /// let inst = Instance::from_value(&serde_json::json!({"resolved": true, "validation": {
    ///     "deployment_status": "pass", "unit_test_status": "pass", "functional_status": "pass",
    ///     "total_score": 80}}));
    /// assert!(ResolvedRule::Components.decides(&inst));
    /// assert!(ResolvedRule::ComponentsAndScore80.decides(&inst)); // 80 is enough
    /// ```
    pub fn decides(self, inst: &Instance) -> bool {
        match self {
            Self::Stored => inst.resolved,
            Self::Components => inst.validation.is_resolved(),
            Self::ComponentsAndScore80 => inst.validation.is_resolved_with_threshold(),
        }
    }

    /// The rule in words, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Stored => "the stored `resolved` flag",
            Self::Components => "deployment, unit tests and functional validation pass (no score threshold)",
            Self::ComponentsAndScore80 => {
                "deployment, unit tests and functional validation pass, and total score ≥ 80/100"
            }
        }
    }

    /// Where the rule comes from, for reports.
    pub fn origin(self) -> &'static str {
        match self {
            Self::Stored => "the report",
            Self::Components => "SF-Bench code since `65ccc0f4` (2025-12-30)",
            Self::ComponentsAndScore80 => "SF-Bench's first schema commit `94809d04`, its docs and its markdown report",
        }
    }
}

/// How far the stored `resolved` flags agree with one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleAgreement {
    /// The rule.
    pub rule: ResolvedRule,
    /// Instances whose stored flag equals the rule's verdict.
    pub agree: usize,
    /// Instances whose stored flag differs from it.
    pub disagree: usize,
    /// The ids of those instances, sorted.
    pub disagreeing_ids: Vec<String>,
}

/// Which resolved rule the stored `resolved` flags follow: see [`judged_by`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleReport {
    /// Number of instances judged.
    pub instances: usize,
    /// Agreement with [`ResolvedRule::Components`] then [`ResolvedRule::ComponentsAndScore80`].
    /// ([`ResolvedRule::Stored`] is the reference and always agrees with itself.)
    pub rules: Vec<RuleAgreement>,
    /// Instances whose `status` contradicts their `resolved` flag (status `resolved` with the
    /// flag false, or the flag true with another status), sorted. SF-Bench's converter can
    /// write such rows; upstream counts the flag and shows the status.
    pub status_mismatch_ids: Vec<String>,
}

impl RuleReport {
    /// The agreement with one rule; `Stored` agrees with every instance.
    pub fn agreement(&self, rule: ResolvedRule) -> RuleAgreement {
        self.rules.iter().find(|a| a.rule == rule).cloned().unwrap_or(RuleAgreement {
            rule,
            agree: self.instances,
            disagree: 0,
            disagreeing_ids: Vec::new(),
        })
    }

    /// The computed rules every stored flag agrees with, the code's rule first. Empty when
    /// the flags follow neither rule or there are no instances.
    pub fn followed(&self) -> Vec<ResolvedRule> {
        if self.instances == 0 {
            return Vec::new();
        }
        self.rules.iter().filter(|a| a.disagree == 0).map(|a| a.rule).collect()
    }
}

/// States which resolved rule the stored `resolved` flags actually follow.
///
/// SF-Bench has had two rules (notes §1.7): the code since `65ccc0f4` resolves a task when
/// deployment, unit tests and functional validation pass, with no score threshold; the first
/// schema commit, and the docs to this day, also require `total_score >= 80`. The flags in a
/// report come from whichever code wrote it (or from a hand-made file), so this checks each
/// rule against every instance.
///
/// ```
/// use evaltally_sfbench::report::Instance;
/// use evaltally_sfbench::summary::{judged_by, ResolvedRule};
/// let pass3 = serde_json::json!({"deployment_status": "pass", "unit_test_status": "pass",
///     "functional_status": "pass", "total_score": 70});
/// let inst = Instance::from_value(&serde_json::json!({"instance_id": "apex-x-001",
///     "status": "resolved", "resolved": true, "validation": pass3}));
/// let r = judged_by(&[inst]);
/// assert_eq!(r.followed(), vec![ResolvedRule::Components]);
/// assert_eq!(r.agreement(ResolvedRule::ComponentsAndScore80).disagreeing_ids, ["apex-x-001"]);
/// ```
pub fn judged_by(instances: &[Instance]) -> RuleReport {
    let rules = [ResolvedRule::Components, ResolvedRule::ComponentsAndScore80]
        .into_iter()
        .map(|rule| {
            let mut disagreeing_ids: Vec<String> =
                instances.iter().filter(|i| rule.decides(i) != i.resolved).map(|i| i.instance_id.clone()).collect();
            disagreeing_ids.sort();
            RuleAgreement {
                rule,
                agree: instances.len() - disagreeing_ids.len(),
                disagree: disagreeing_ids.len(),
                disagreeing_ids,
            }
        })
        .collect();
    let mut status_mismatch_ids: Vec<String> = instances
        .iter()
        .filter(|i| (i.status == TaskStatus::Resolved) != i.resolved)
        .map(|i| i.instance_id.clone())
        .collect();
    status_mismatch_ids.sort();
    RuleReport { instances: instances.len(), rules, status_mismatch_ids }
}
