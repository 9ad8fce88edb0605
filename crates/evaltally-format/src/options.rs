//! How to read: what for, which files, and how scores become pass or fail.

/// What the files are read for: sniffers may accept more when validating (a fragment of a
/// document, a document example with placeholders).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Purpose {
    /// Analysing runs: `stability`, `compare`, `show`, `export`, `convert`.
    #[default]
    Read,
    /// `validate`.
    Validate,
}

/// How formats that record a score rather than a verdict (`inspect_ai`, lm-eval, HELM) turn
/// it into pass or fail: `--pass-threshold` and `--scorer`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scoring {
    /// A score at or above this passes; `None`: only a full score (1) passes, the rule
    /// these harnesses' accuracy metrics count.
    pub pass_threshold: Option<f64>,
    /// The scorer (inspect) or metric (lm-eval) to read when a log has several; `None`: the
    /// first the log lists.
    pub scorer: Option<String>,
}

impl Scoring {
    /// Whether a score passes.
    ///
    /// ```
    /// use evaltally_format::Scoring;
    /// assert!(Scoring::default().passes(1.0) && !Scoring::default().passes(0.5));
    /// let half = Scoring { pass_threshold: Some(0.5), ..Scoring::default() };
    /// assert!(half.passes(0.5) && !half.passes(0.49) && !half.passes(f64::NAN));
    /// ```
    pub fn passes(&self, score: f64) -> bool {
        match self.pass_threshold {
            Some(t) => score >= t,
            None => (score - 1.0).abs() <= 1e-9,
        }
    }

    /// How a failing score is labelled, by the rule it failed: `<what>_not_1` (only a full
    /// score passes; 0.5 and 8 alike fail it), or `<what>_below_<threshold>`.
    ///
    /// ```
    /// use evaltally_format::Scoring;
    /// assert_eq!(Scoring::default().fail_label("exact_match"), "exact_match_not_1");
    /// assert_eq!(Scoring { pass_threshold: Some(0.5), ..Scoring::default() }.fail_label("match"), "match_below_0.5");
    /// ```
    pub fn fail_label(&self, what: &str) -> String {
        match self.pass_threshold {
            Some(t) => format!("{what}_below_{t}"),
            None => format!("{what}_not_1"),
        }
    }

    /// What a failing score was and the rule it failed, for a failure's message.
    ///
    /// ```
    /// use evaltally_format::Scoring;
    /// assert_eq!(Scoring::default().fail_message("suspicion", 8.0), "suspicion = 8, pass needs 1");
    /// assert_eq!(Scoring::default().fail_message("acc", 0.25), "acc = 0.25, pass needs 1");
    /// let half = Scoring { pass_threshold: Some(0.5), ..Scoring::default() };
    /// assert_eq!(half.fail_message("match", 0.3), "match = 0.3, below the threshold 0.5");
    /// // A value as its log wrote it, with the number it counts as.
    /// assert_eq!(Scoring::default().fail_message("match", "I (0)"), "match = I (0), pass needs 1");
    /// ```
    pub fn fail_message(&self, what: &str, score: impl std::fmt::Display) -> String {
        match self.pass_threshold {
            Some(t) => format!("{what} = {score}, below the threshold {t}"),
            None => format!("{what} = {score}, pass needs 1"),
        }
    }
}

/// How to read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// What the files are read for.
    pub purpose: Purpose,
    /// Read files the format marks as unfinished (gstack's `_partial` saves), which are left
    /// out by default.
    pub include_partial: bool,
    /// Add the checks upstream validators lack (for [`Purpose::Validate`]).
    pub strict: bool,
    /// Read every file as this format (its [`Format::name`](crate::Format::name)) without
    /// sniffing: `--as`.
    pub forced: Option<&'static str>,
    /// How scores become pass or fail, for formats that record scores.
    pub scoring: Scoring,
}
