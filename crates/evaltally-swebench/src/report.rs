//! SWE-bench harness reports: run reports and per-instance reports.
//!
//! * A **run report** `<model>.<run_id>.json` (`make_run_report`) lists instance ids by
//!   outcome: resolved, unresolved, error (no `report.json`: the patch did not apply, a
//!   timeout, a build failure), empty patch, incomplete (not in the predictions). It holds no
//!   model or run id: those come from the file name, split at the **last** dot because model
//!   names contain dots (`opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json`).
//! * A **per-instance report** `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`
//!   says whether one instance resolved, with its test results; it may be wrapped in
//!   `{instance_id: …}` or not.
//!
//! Outcomes: resolved passes; unresolved, error and empty patch fail (labelled so); an
//! incomplete instance did not run.

use evaltally_core::{CategoryRun, Outcome};
use serde_json::{Map, Value};

/// The repository of a SWE-bench instance id: `django__django-11099` → `django/django`.
/// SWE-smith's ids are its mirror's name `<owner>__<repo>.<commit[:8]>` and then the bug,
/// `.<strategy>__<hash>`: the repository is the part before the commit.
///
/// ```
/// use evaltally_swebench::report::repository;
/// assert_eq!(repository("django__django-11099"), "django/django");
/// assert_eq!(repository("scikit-learn__scikit-learn-10297"), "scikit-learn/scikit-learn");
/// assert_eq!(repository("pandas-dev__pandas.95280573.pr_53652"), "pandas-dev/pandas");
/// assert_eq!(repository("oauthlib__oauthlib.1fd52536.combine_file__09vlzwgc"), "oauthlib/oauthlib");
/// assert_eq!(repository("plain"), "plain");
/// ```
pub fn repository(instance_id: &str) -> String {
    let base = match instance_id.rsplit_once('-') {
        Some((head, tail)) if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => swe_smith_repository(instance_id).unwrap_or(instance_id),
    };
    base.replacen("__", "/", 1)
}

/// The `<owner>__<repo>` of a SWE-smith id: what comes before its first `.<8 hex digits>.`.
fn swe_smith_repository(instance_id: &str) -> Option<&str> {
    let b = instance_id.as_bytes();
    let owner_end = instance_id.find("__")?;
    (owner_end + 2..b.len().saturating_sub(9)).find_map(|at| {
        let commit = b.get(at + 1..at + 9)?;
        (b[at] == b'.' && b.get(at + 9) == Some(&b'.') && commit.iter().all(u8::is_ascii_hexdigit))
            .then(|| &instance_id[..at])
    })
}

/// One category run per repository the instances name (their category), in the
/// repositories' order; each instance with its outcome and failure label, in the order
/// given.
pub(crate) fn runs_by_repository<'a>(
    run: &str,
    model: &str,
    instances: impl IntoIterator<Item = (&'a str, Outcome, Option<&'a str>)>,
) -> Vec<CategoryRun> {
    let mut by_repo: std::collections::BTreeMap<String, CategoryRun> = std::collections::BTreeMap::new();
    for (id, outcome, label) in instances {
        let repo = repository(id);
        by_repo.entry(repo.clone()).or_insert_with(|| CategoryRun::new(run, model, repo)).push(id, outcome, label);
    }
    by_repo.into_values().collect()
}

/// Splits a run report's file stem into (model, run id) at the last dot; `None` for the
/// model when there is no dot.
///
/// ```
/// use evaltally_swebench::report::split_file_stem;
/// assert_eq!(
///     split_file_stem("opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331"),
///     (Some("opencode-qwen3.5-35B-A3B-baseline"), "eval_20260311_034331")
/// );
/// assert_eq!(split_file_stem("gold"), (None, "gold"));
/// ```
pub fn split_file_stem(stem: &str) -> (Option<&str>, &str) {
    match stem.rsplit_once('.') {
        Some((model, run)) if !model.is_empty() && !run.is_empty() => (Some(model), run),
        _ => (None, stem),
    }
}

fn ids(m: &Map<String, Value>, k: &str) -> Vec<String> {
    m.get(k)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

fn count(m: &Map<String, Value>, k: &str) -> Option<u64> {
    m.get(k).and_then(Value::as_u64)
}

/// The outcome of an instance in a run report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunOutcome {
    /// Resolved.
    Resolved,
    /// Graded and not resolved.
    Unresolved,
    /// No per-instance report: the patch did not apply, a timeout, a build failure.
    Error,
    /// The prediction's patch was empty.
    EmptyPatch,
    /// sb-cli: the evaluation run did not complete (`failed_ids`, "Failed runs").
    EvalFailed,
    /// sb-cli: not yet graded when the report was fetched (`pending_ids`).
    Pending,
}

impl RunOutcome {
    /// The label used as the error type of failures.
    pub fn label(self) -> &'static str {
        match self {
            Self::Resolved => "resolved",
            Self::Unresolved => "unresolved",
            Self::Error => "error",
            Self::EmptyPatch => "empty_patch",
            Self::EvalFailed => "eval_failed",
            Self::Pending => "pending",
        }
    }

    /// The key of the run report's list that gives it.
    fn list(self) -> &'static str {
        match self {
            Self::Resolved => "resolved_ids",
            Self::Unresolved => "unresolved_ids",
            Self::Error => "error_ids",
            Self::EmptyPatch => "empty_patch_ids",
            Self::EvalFailed => "failed_ids",
            Self::Pending => "pending_ids",
        }
    }

    /// What a message says it was counted as.
    fn counted_as(self) -> &'static str {
        match self {
            Self::Resolved => "resolved",
            Self::Unresolved => "unresolved",
            Self::Error => "error",
            Self::EmptyPatch => "empty patch",
            Self::EvalFailed => "an evaluation that did not complete",
            Self::Pending => "pending",
        }
    }

    /// The outcome it counts as: an error instance (no per-instance report) and an
    /// evaluation run that did not complete errored, which `--errors-as fail` turns back
    /// into SWE-bench's own counting (not resolved); a pending one is not judged yet.
    ///
    /// ```
    /// use evaltally_core::Outcome;
    /// use evaltally_swebench::report::RunOutcome;
    /// assert_eq!(RunOutcome::Error.outcome(), Outcome::Errored);
    /// assert_eq!(RunOutcome::EvalFailed.outcome(), Outcome::Errored);
    /// assert_eq!(RunOutcome::Pending.outcome(), Outcome::Unscored);
    /// assert_eq!(RunOutcome::EmptyPatch.outcome(), Outcome::Fail);
    /// ```
    pub fn outcome(self) -> Outcome {
        match self {
            Self::Resolved => Outcome::Pass,
            Self::Error | Self::EvalFailed => Outcome::Errored,
            Self::Unresolved | Self::EmptyPatch => Outcome::Fail,
            Self::Pending => Outcome::Unscored,
        }
    }
}

/// A harness run report, every version (v2.1 to v5).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunReport {
    /// `total_instances`.
    pub total_instances: Option<u64>,
    /// `submitted_instances` (can exceed `total_instances`: SWE-bench issue #666).
    pub submitted_instances: Option<u64>,
    /// `completed_instances`.
    pub completed_instances: Option<u64>,
    /// `resolved_ids`.
    pub resolved_ids: Vec<String>,
    /// `unresolved_ids`.
    pub unresolved_ids: Vec<String>,
    /// `error_ids`.
    pub error_ids: Vec<String>,
    /// `empty_patch_ids`.
    pub empty_patch_ids: Vec<String>,
    /// `completed_ids`.
    pub completed_ids: Vec<String>,
    /// `incomplete_ids`.
    pub incomplete_ids: Vec<String>,
    /// `submitted_ids`.
    pub submitted_ids: Vec<String>,
    /// v5: `infra_failure_ids` (a subset of unresolved and error).
    pub infra_failure_ids: Vec<String>,
    /// v5: `failure_reasons`, `{instance_id: reason}`.
    pub failure_reasons: Map<String, Value>,
    /// sb-cli: `failed_ids`, submitted instances whose evaluation run did not complete.
    pub failed_ids: Vec<String>,
    /// sb-cli: `pending_ids`, submitted instances not yet graded.
    pub pending_ids: Vec<String>,
}

impl RunReport {
    /// Reads a run report (tolerant: missing or mistyped keys read as empty).
    pub fn from_value(v: &Value) -> Self {
        let empty = Map::new();
        let m = v.as_object().unwrap_or(&empty);
        Self {
            total_instances: count(m, "total_instances"),
            submitted_instances: count(m, "submitted_instances"),
            completed_instances: count(m, "completed_instances"),
            resolved_ids: ids(m, "resolved_ids"),
            unresolved_ids: ids(m, "unresolved_ids"),
            error_ids: ids(m, "error_ids"),
            empty_patch_ids: ids(m, "empty_patch_ids"),
            completed_ids: ids(m, "completed_ids"),
            incomplete_ids: ids(m, "incomplete_ids"),
            submitted_ids: ids(m, "submitted_ids"),
            infra_failure_ids: ids(m, "infra_failure_ids"),
            failure_reasons: m.get("failure_reasons").and_then(Value::as_object).cloned().unwrap_or_default(),
            failed_ids: ids(m, "failed_ids"),
            pending_ids: ids(m, "pending_ids"),
        }
    }

    /// Every instance with an outcome, in the report's order by outcome. An id listed
    /// twice keeps its first outcome (resolved, unresolved, error, empty patch, and sb-cli's
    /// failed and pending).
    ///
    /// ```
    /// use evaltally_swebench::report::{RunOutcome, RunReport};
    /// let v = serde_json::json!({"resolved_ids": ["a__b-1"], "unresolved_ids": [],
    ///     "failed_ids": ["a__b-2"], "pending_ids": ["a__b-3"]});
    /// assert_eq!(RunReport::from_value(&v).outcomes(), [
    ///     ("a__b-1", RunOutcome::Resolved),
    ///     ("a__b-2", RunOutcome::EvalFailed),
    ///     ("a__b-3", RunOutcome::Pending),
    /// ]);
    /// ```
    pub fn outcomes(&self) -> Vec<(&str, RunOutcome)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (list, outcome) in self.lists() {
            for id in list {
                if seen.insert(id.as_str()) {
                    out.push((id.as_str(), outcome));
                }
            }
        }
        out
    }

    /// What contradicts itself in the lists, one message each: an id listed twice in one
    /// list, or in two outcome lists (it keeps its first outcome, see [`outcomes`](Self::outcomes)).
    ///
    /// ```
    /// use evaltally_swebench::report::RunReport;
    /// let v = serde_json::json!({"resolved_ids": ["a__b-1", "a__b-2", "a__b-2"], "unresolved_ids": ["a__b-1"]});
    /// assert_eq!(RunReport::from_value(&v).contradictions(), [
    ///     "instance `a__b-2` is listed twice in `resolved_ids`; counted once",
    ///     "instance `a__b-1` is in both `resolved_ids` and `unresolved_ids`; counted as resolved (the first)",
    /// ]);
    /// ```
    pub fn contradictions(&self) -> Vec<String> {
        let mut first: std::collections::HashMap<&str, RunOutcome> = std::collections::HashMap::new();
        let mut out = Vec::new();
        for (list, outcome) in self.lists() {
            let name = outcome.list();
            for id in list {
                match first.get(id.as_str()) {
                    Some(&earlier) if earlier == outcome => {
                        out.push(format!("instance `{id}` is listed twice in `{name}`; counted once"));
                    }
                    Some(&earlier) => {
                        out.push(format!(
                            "instance `{id}` is in both `{}` and `{name}`; counted as {} (the first)",
                            earlier.list(),
                            earlier.counted_as()
                        ));
                    }
                    None => {
                        first.insert(id, outcome);
                    }
                }
            }
        }
        out
    }

    /// The lists that give an instance its outcome, in the order an id listed in two keeps
    /// the first.
    fn lists(&self) -> [(&Vec<String>, RunOutcome); 6] {
        [
            (&self.resolved_ids, RunOutcome::Resolved),
            (&self.unresolved_ids, RunOutcome::Unresolved),
            (&self.error_ids, RunOutcome::Error),
            (&self.empty_patch_ids, RunOutcome::EmptyPatch),
            (&self.failed_ids, RunOutcome::EvalFailed),
            (&self.pending_ids, RunOutcome::Pending),
        ]
    }

    /// The outcome of one instance, if the report lists it.
    pub fn outcome_of(&self, id: &str) -> Option<RunOutcome> {
        self.outcomes().into_iter().find(|(i, _)| *i == id).map(|(_, o)| o)
    }

    /// The report's tests as category runs (one per repository).
    ///
    /// ```
    /// use evaltally_swebench::report::RunReport;
    /// let v = serde_json::json!({"resolved_ids": ["django__django-1"], "unresolved_ids": ["astropy__astropy-2"],
    ///     "empty_patch_ids": ["django__django-3"], "incomplete_ids": ["django__django-4"]});
    /// let runs = RunReport::from_value(&v).category_runs("run-1", "gold");
    /// assert_eq!(runs.len(), 2);
    /// assert_eq!(runs[1].category, "django/django");
    /// assert_eq!((runs[1].len(), runs[1].passed()), (2, 1));
    /// ```
    pub fn category_runs(&self, run: &str, model: &str) -> Vec<CategoryRun> {
        runs_by_repository(run, model, self.verdicts())
    }

    /// Every instance with an outcome (as [`outcomes`](Self::outcomes) lists them) and its
    /// label: an instance of v5's `infra_failure_ids` errored, labelled `infra_failure`,
    /// whichever list holds it; a resolved one has no label.
    ///
    /// ```
    /// use evaltally_core::Outcome;
    /// use evaltally_swebench::report::RunReport;
    /// let v = serde_json::json!({"resolved_ids": ["a__b-1"], "unresolved_ids": ["a__b-2"],
    ///     "infra_failure_ids": ["a__b-2"]});
    /// let report = RunReport::from_value(&v);
    /// let verdicts = report.verdicts();
    /// assert_eq!(verdicts[1], ("a__b-2", Outcome::Errored, Some("infra_failure")));
    /// ```
    pub fn verdicts(&self) -> Vec<(&str, Outcome, Option<&'static str>)> {
        let infra: std::collections::HashSet<&str> = self.infra_failure_ids.iter().map(String::as_str).collect();
        self.outcomes()
            .into_iter()
            .map(|(id, outcome)| match outcome {
                RunOutcome::Resolved => (id, Outcome::Pass, None),
                _ if infra.contains(id) => (id, Outcome::Errored, Some("infra_failure")),
                other => (id, other.outcome(), Some(other.label())),
            })
            .collect()
    }
}

/// A per-instance `report.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceReport {
    /// The instance id (from the wrapper key, or given by the caller for unwrapped files).
    pub instance_id: String,
    /// Whether the instance resolved.
    pub resolved: bool,
    /// `patch_is_None`.
    pub patch_is_none: bool,
    /// `patch_exists`.
    pub patch_exists: Option<bool>,
    /// `patch_successfully_applied`.
    pub patch_applied: Option<bool>,
    /// v5: `infra_failure`.
    pub infra_failure: bool,
    /// SWE-smith's `{"timed_out": true, "timeout": …}` entry: the harness gave up on it.
    pub timed_out: bool,
    /// Whether it was graded: `"resolved": null` (NeMo-Skills writes it for an instance it
    /// did not evaluate) leaves it unscored.
    pub graded: bool,
    /// `tests_status`: `{FAIL_TO_PASS: {success, failure}, PASS_TO_PASS: …}`.
    pub tests_status: Option<Value>,
    /// SWE-smith's `model_name_or_path`: the model, which the harness's reports leave to
    /// their folder.
    pub model: Option<String>,
    /// What the reader tolerated, one message each: a flag that is not `true` or `false`
    /// (`resolved` is then read as `false`, the others are ignored), a wrapper key that
    /// differs from the folder name (the key is used).
    pub notes: Vec<String>,
}

impl InstanceReport {
    /// Reads a per-instance report, wrapped (`{instance_id: {…}}`) or not; `fallback_id`
    /// names an unwrapped one (usually its folder name).
    ///
    /// ```
    /// use evaltally_swebench::report::InstanceReport;
    /// let wrapped = serde_json::json!({"django__django-1": {"resolved": false, "patch_successfully_applied": false}});
    /// let r = InstanceReport::from_value(&wrapped, None).unwrap();
    /// assert_eq!((r.instance_id.as_str(), r.failure_label()), ("django__django-1", Some("patch_apply_failed")));
    /// let bare = serde_json::json!({"resolved": true, "patch_exists": true});
    /// assert_eq!(InstanceReport::from_value(&bare, Some("x__y-2")).unwrap().instance_id, "x__y-2");
    /// ```
    pub fn from_value(v: &Value, fallback_id: Option<&str>) -> Option<Self> {
        let m = v.as_object()?;
        if m.get("timed_out") == Some(&Value::Bool(true)) && !m.contains_key("resolved") {
            return Some(Self {
                instance_id: fallback_id?.to_string(),
                resolved: false,
                patch_is_none: false,
                patch_exists: None,
                patch_applied: None,
                infra_failure: false,
                timed_out: true,
                graded: true,
                tests_status: None,
                model: None,
                notes: Vec::new(),
            });
        }
        let mut notes = Vec::new();
        let (id, body) = if m.contains_key("resolved") {
            (fallback_id?.to_string(), m)
        } else if m.len() == 1 {
            let (k, inner) = m.iter().next()?;
            if let Some(folder) = fallback_id.filter(|f| f != k) {
                notes.push(format!("the report is keyed `{k}` but sits in the folder `{folder}`; read as `{k}`"));
            }
            (k.clone(), inner.as_object()?)
        } else if let Some(folder) = fallback_id
            && let Some(inner) = m.get(folder).and_then(Value::as_object)
        {
            // The harness writes one key, its folder's instance: another is no report of
            // this folder's (a merged map copied here, a hand edit).
            let others: Vec<String> = m.keys().filter(|k| *k != folder).map(|k| format!("`{k}`")).collect();
            notes.push(format!(
                "the report also holds {} besides `{folder}`, the instance of its folder (the harness writes one \
                 key, its folder's); only `{folder}` is read",
                others.join(", ")
            ));
            (folder.to_string(), inner)
        } else {
            return None;
        };
        let graded = !body.get("resolved").is_some_and(Value::is_null);
        let mut flag = |k: &str| match body.get(k) {
            None => None,
            Some(Value::Null) if k == "resolved" => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                let read_as = if k == "resolved" { "read as false" } else { "ignored" };
                notes.push(format!("`{k}` is {other}, expected true or false; {read_as}"));
                None
            }
        };
        let resolved = flag("resolved").unwrap_or(false);
        let patch_is_none = flag("patch_is_None").unwrap_or(false);
        let patch_exists = flag("patch_exists");
        let patch_applied = flag("patch_successfully_applied");
        let infra_failure = flag("infra_failure").unwrap_or(false);
        Some(Self {
            instance_id: id,
            resolved,
            patch_is_none,
            patch_exists,
            patch_applied,
            infra_failure,
            timed_out: false,
            graded,
            tests_status: body.get("tests_status").cloned(),
            model: body.get("model_name_or_path").and_then(Value::as_str).map(str::to_string),
            notes,
        })
    }

    /// Why it did not resolve: `empty_patch`, `infra_failure` (v5: the harness's
    /// environment failed; written with `patch_successfully_applied: false`), `timeout`
    /// (SWE-smith), `patch_apply_failed` or `tests_failed`; `None` when it resolved.
    ///
    /// ```
    /// use evaltally_swebench::report::InstanceReport;
    /// use evaltally_core::Outcome;
    /// let v5 = serde_json::json!({"resolved": false, "patch_exists": true,
    ///     "patch_successfully_applied": false, "infra_failure": true});
    /// let r = InstanceReport::from_value(&v5, Some("a__b-1")).unwrap();
    /// assert_eq!((r.failure_label(), r.outcome()), (Some("infra_failure"), Outcome::Errored));
    /// ```
    pub fn failure_label(&self) -> Option<&'static str> {
        if self.resolved || !self.graded {
            None
        } else if self.timed_out {
            Some("timeout")
        } else if self.patch_is_none || self.patch_exists == Some(false) {
            Some("empty_patch")
        } else if self.infra_failure {
            Some("infra_failure")
        } else if self.patch_applied == Some(false) {
            Some("patch_apply_failed")
        } else {
            Some("tests_failed")
        }
    }

    /// The outcome it counts as: resolved passes, an infrastructure failure errored, any
    /// other reason fails.
    pub fn outcome(&self) -> Outcome {
        if !self.graded {
            return Outcome::Unscored;
        }
        match self.failure_label() {
            None => Outcome::Pass,
            Some("infra_failure" | "timeout") => Outcome::Errored,
            Some(_) => Outcome::Fail,
        }
    }

    /// The failing tests, as `FAIL_TO_PASS: a, b; PASS_TO_PASS: c`, for messages.
    pub fn failing_tests(&self) -> Option<String> {
        let status = self.tests_status.as_ref()?.as_object()?;
        let mut parts = Vec::new();
        for (kind, groups) in status {
            let failures: Vec<&str> = groups
                .get("failure")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if !failures.is_empty() {
                parts.push(format!("{kind}: {}", failures.join(", ")));
            }
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}
