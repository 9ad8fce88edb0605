//! What a run says about itself: when, on which branch and commit, with which version.

use serde::Serialize;

/// A run's metadata, as far as its format records it; every field is optional and kept as
/// written. Category runs of one run share it (`Arc`), so it costs one copy per run.
///
/// ```
/// use evaltally_core::RunMeta;
/// let meta = RunMeta { timestamp: Some("2026-03-16T02:00:00Z".into()), git_branch: Some("main".into()), ..Default::default() };
/// assert!(!meta.is_empty());
/// assert_eq!(serde_json::to_value(&meta).unwrap(), serde_json::json!({"timestamp": "2026-03-16T02:00:00Z", "git_branch": "main"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunMeta {
    /// When the run started or was written (ISO 8601 where the format has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// The git branch it ran on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_branch: Option<String>,
    /// The git commit it ran on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_sha: Option<String>,
    /// The version of what was evaluated (or of the harness).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The tier (gstack: `e2e`, `llm-judge`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// The machine it ran on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    /// The hash of the prompts it ran with (gstack's `prompt_sha`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_sha: Option<String>,
    /// Its wall time in seconds, as the run records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<f64>,
    /// Its total cost in US dollars, as the run records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_cost_usd: Option<f64>,
    /// A digest of the set of tests the run drew its tests from, as the run records it
    /// (lighteval's `hash_examples`). Two runs of one category with different digests did
    /// not run the same tests, whatever their ids say: the analyzer warns when runs
    /// disagree. An input to that check only, so not serialised.
    #[serde(skip)]
    pub test_set: Option<String>,
    /// The settings that shaped the prompts the run posed, as its format records them, in
    /// a few words (lm-eval's `5-shot, chat template`). Runs of one model and category
    /// with different setups are different experiments, not repeats: the analyzer reads
    /// each setup as a category of its own when a model's runs of a category mix them. An
    /// input to that split only, so not serialised.
    #[serde(skip)]
    pub setup: Option<String>,
    /// The id its harness gave the run, where the run records one (`inspect_ai`'s
    /// `eval_id`). Two readings of one format with the same id and the same tests and
    /// outcomes are one run saved twice, whatever their bytes (a log written both as
    /// `.eval` and as `.json`): the analyzer reads it once. An input to that check only, so
    /// not serialised.
    #[serde(skip)]
    pub run_id: Option<String>,
}

impl RunMeta {
    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// What a run written in pieces (gstack's shards, a file each) says about itself, from
    /// what each piece says: the earliest timestamp; the branch, commit, version, tier,
    /// machine and prompts where every piece that records one agrees, else none; the costs
    /// added up; a duration only when one piece records it, since pieces may have run at
    /// once; the run's id where the pieces agree. The prompts' set and setup are a
    /// category's, so they stay each piece's own: `None` here.
    ///
    /// ```
    /// use evaltally_core::RunMeta;
    /// let piece = |at: &str, host: &str, usd: f64| RunMeta {
    ///     timestamp: Some(at.into()),
    ///     hostname: Some(host.into()),
    ///     git_sha: Some("85fd9db".into()),
    ///     duration_seconds: Some(275.0),
    ///     total_cost_usd: Some(usd),
    ///     ..RunMeta::default()
    /// };
    /// let run = RunMeta::joined(&[&piece("2026-08-16T02:31:00Z", "ci-1", 1.27), &piece("2026-08-16T02:12:38Z", "ci-2", 1.71)]);
    /// assert_eq!(run.timestamp.as_deref(), Some("2026-08-16T02:12:38Z"));
    /// assert_eq!((run.git_sha.as_deref(), run.hostname), (Some("85fd9db"), None));
    /// assert_eq!((run.total_cost_usd, run.duration_seconds), (Some(2.98), None));
    /// ```
    pub fn joined(pieces: &[&RunMeta]) -> RunMeta {
        /// The one value the pieces that record the field give, when they agree.
        fn agreed(pieces: &[&RunMeta], field: impl Fn(&RunMeta) -> Option<&String>) -> Option<String> {
            let mut values = pieces.iter().filter_map(|p| field(p));
            let first = values.next()?;
            values.all(|v| v == first).then(|| first.clone())
        }
        RunMeta {
            timestamp: pieces.iter().filter_map(|p| p.timestamp.as_ref()).min().cloned(),
            git_branch: agreed(pieces, |p| p.git_branch.as_ref()),
            git_sha: agreed(pieces, |p| p.git_sha.as_ref()),
            version: agreed(pieces, |p| p.version.as_ref()),
            tier: agreed(pieces, |p| p.tier.as_ref()),
            hostname: agreed(pieces, |p| p.hostname.as_ref()),
            prompt_sha: agreed(pieces, |p| p.prompt_sha.as_ref()),
            duration_seconds: match pieces.iter().filter_map(|p| p.duration_seconds).collect::<Vec<_>>()[..] {
                [one] => Some(one),
                _ => None,
            },
            total_cost_usd: pieces.iter().filter_map(|p| p.total_cost_usd).reduce(|a, b| a + b),
            test_set: None,
            setup: None,
            run_id: agreed(pieces, |p| p.run_id.as_ref()),
        }
    }
}
