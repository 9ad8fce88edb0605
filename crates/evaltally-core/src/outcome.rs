use serde::{Deserialize, Serialize};

/// What one run says about one test.
///
/// A test that is absent from a run's result file did not run there; that is not an
/// outcome a run reports but the absence of one, and analyses represent it as `None`
/// (or as their own "not run" state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The test ran and was judged correct.
    Pass,
    /// The test ran and was judged wrong (including inference errors).
    Fail,
    /// The test ran but no judgement exists (a result file without its score file).
    Unscored,
}

impl Outcome {
    /// Whether the run judged the test at all.
    pub fn is_scored(self) -> bool {
        !matches!(self, Outcome::Unscored)
    }
}
