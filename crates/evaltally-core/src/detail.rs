use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

/// What `show` reports about one test in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Ran and was judged correct.
    Passed,
    /// Ran and was judged wrong.
    Failed,
    /// Absent from the run's results.
    NotRun,
    /// Ran, but the run has no scores.
    Unscored,
    /// The harness or the inference failed before a judgement ([`crate::Outcome::Errored`]).
    Errored,
}

impl Status {
    /// The word used in text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::NotRun => "not run",
            Status::Unscored => "unscored",
            Status::Errored => "errored",
        }
    }
}

impl From<crate::Outcome> for Status {
    /// The status of a test a run listed with this outcome.
    fn from(o: crate::Outcome) -> Self {
        match o {
            crate::Outcome::Pass => Status::Passed,
            crate::Outcome::Fail => Status::Failed,
            crate::Outcome::Unscored => Status::Unscored,
            crate::Outcome::Errored => Status::Errored,
        }
    }
}

/// One message of a prompt turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Message {
    /// `user`, `system`, `assistant`, …
    pub role: String,
    /// The text.
    pub content: String,
}

/// A file and the 1-based line a record was read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Location {
    /// The file.
    #[serde(serialize_with = "crate::diag::lossy_path")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub path: PathBuf,
    /// The line.
    pub line: u64,
}

/// Everything known about one test in one run: outcome, error, prompt, answers, cost.
///
/// Fields the run's files do not hold are `None` (BFCL keeps the prompt and the expected
/// answer only with failures, for instance).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestDetail {
    /// The run.
    pub run: String,
    /// The model.
    pub model: String,
    /// The category.
    pub category: String,
    /// The test id.
    pub id: String,
    /// Passed, failed, not run or unscored.
    pub status: Status,
    /// The evaluator's error label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_type: Option<String>,
    /// The evaluator's error message, whatever its shape in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// Extra error details (checker-specific).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_details: Option<Value>,
    /// Whether the model call crashed (`"Error during inference: …"`).
    pub inference_error: bool,
    /// The prompt's question, one list of messages per turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub question: Vec<Vec<Message>>,
    /// The model's raw answer from the result file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
    /// The answer as the evaluator decoded it (score file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decoded_answer: Option<Value>,
    /// The expected answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// Input tokens, summed over turns and steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens, summed over turns and steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Latency in seconds, summed over turns and steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_seconds: Option<f64>,
    /// Where the result record is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_at: Option<Location>,
    /// Where the score record is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_at: Option<Location>,
    /// The id its harness gave the run, where it records one (as
    /// [`crate::RunMeta::run_id`]): `show` tells two files of one run apart from two runs
    /// by it. Not serialised.
    #[serde(skip)]
    pub run_id: Option<String>,
}

impl TestDetail {
    /// A detail with only the identity and status filled in.
    pub fn new(run: &str, model: &str, category: &str, id: &str, status: Status) -> Self {
        Self {
            run: run.to_string(),
            model: model.to_string(),
            category: category.to_string(),
            id: id.to_string(),
            status,
            error_type: None,
            error_message: None,
            error_details: None,
            inference_error: false,
            question: Vec::new(),
            answer: None,
            decoded_answer: None,
            expected: None,
            input_tokens: None,
            output_tokens: None,
            latency_seconds: None,
            result_at: None,
            score_at: None,
            run_id: None,
        }
    }
}
