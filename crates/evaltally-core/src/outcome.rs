use serde::{Deserialize, Serialize};

/// What one run says about one test.
///
/// A test that is absent from a run's result file did not run there; that is not an
/// outcome a run reports but the absence of one, and analyses represent it as `None`
/// (or as their own "not run" state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The test ran and was judged correct.
    Pass,
    /// The test ran and was judged wrong.
    Fail,
    /// The test ran but no judgement exists (a result file without its score file).
    Unscored,
    /// The harness or the inference failed before the model's answer could be judged: an
    /// inspect sample error, promptfoo's `failureReason` 2, a BFCL inference error, a
    /// SWE-bench error instance. Not a judgement of the model; analyses count it apart, and
    /// `--errors-as fail` ([`Outcome::errors_as_failures`]) restores a benchmark's official
    /// counting, where it fails.
    Errored,
}

impl Outcome {
    /// Whether the run judged the test at all (passed or failed).
    ///
    /// ```
    /// use evaltally_core::Outcome;
    /// assert!(Outcome::Fail.is_scored());
    /// assert!(!Outcome::Errored.is_scored() && !Outcome::Unscored.is_scored());
    /// ```
    pub fn is_scored(self) -> bool {
        matches!(self, Outcome::Pass | Outcome::Fail)
    }

    /// The outcome with an error counted as a failure, as most benchmarks count officially.
    ///
    /// ```
    /// use evaltally_core::Outcome;
    /// assert_eq!(Outcome::Errored.errors_as_failures(), Outcome::Fail);
    /// assert_eq!(Outcome::Pass.errors_as_failures(), Outcome::Pass);
    /// ```
    #[must_use]
    pub fn errors_as_failures(self) -> Outcome {
        if self == Outcome::Errored { Outcome::Fail } else { self }
    }

    /// The word used in outputs and exports: `pass`, `fail`, `unscored`, `errored`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Unscored => "unscored",
            Outcome::Errored => "errored",
        }
    }
}
