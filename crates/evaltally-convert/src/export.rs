//! One normalised JSON line per (run, test): the shape DuckDB, Spark or BigQuery load
//! directly (`read_json('runs.jsonl')` in DuckDB).

use evaltally_core::schema::SchemaId;
use evaltally_core::{Outcome, RunRecord};
use serde::Serialize;

/// The identifier of [`Line`], `evaltally.export-row/1`.
pub const SCHEMA: SchemaId = SchemaId::new("export-row", 1);

/// One line of `evaltally export`'s JSON Lines: one test in one run, with what the run says
/// about itself. The columns are in order; absent values are `null`, so every line has
/// every column and loaders infer one schema whatever format the first lines came from.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Line<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// The run.
    pub run: &'a str,
    /// The model.
    pub model: &'a str,
    /// The category.
    pub category: &'a str,
    /// The test id.
    pub id: &'a str,
    /// `pass`, `fail`, `errored`, `unscored` or `not_run`.
    pub outcome: &'static str,
    /// The error label.
    pub error_type: Option<&'a str>,
    /// The error message.
    pub error_message: Option<&'a str>,
    /// Wall time in milliseconds.
    pub duration_ms: Option<f64>,
    /// Input tokens.
    pub input_tokens: Option<u64>,
    /// Output tokens.
    pub output_tokens: Option<u64>,
    /// Cost in US dollars.
    pub cost_usd: Option<f64>,
    /// The format the run was read from.
    pub source_format: &'a str,
    /// The file or folder it was read from.
    pub source: &'a str,
    /// When the run started or was written (ISO 8601 where the format has it).
    pub timestamp: Option<&'a str>,
    /// The git branch it ran on.
    pub git_branch: Option<&'a str>,
    /// The git commit it ran on.
    pub git_sha: Option<&'a str>,
    /// The version of what was evaluated (or of the harness).
    pub version: Option<&'a str>,
    /// The tier (gstack: `e2e`, `llm-judge`).
    pub tier: Option<&'a str>,
    /// The machine it ran on.
    pub hostname: Option<&'a str>,
    /// The hash of the prompts it ran with (gstack's `prompt_sha`).
    pub prompt_sha: Option<&'a str>,
    /// The run's wall time in seconds, as it records it.
    pub duration_seconds: Option<f64>,
    /// The run's total cost in US dollars, as it records it.
    pub total_cost_usd: Option<f64>,
}

/// Appends one line per test of `run` to `out`.
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let run = RunRecord { run: "r".into(), model: "m".into(), format: "bfcl".into(), tests: vec![
///     TestRecord { id: "simple_0".into(), category: "simple".into(), outcome: Some(Outcome::Pass), ..Default::default() }],
///     ..Default::default() };
/// let mut out = String::new();
/// evaltally_convert::export::jsonl(&run, &mut out);
/// assert!(out.starts_with(
///     r#"{"schema":"evaltally.export-row/1","run":"r","model":"m","category":"simple","id":"simple_0","outcome":"pass""#
/// ));
/// assert!(out.ends_with("}\n"));
/// ```
pub fn jsonl(run: &RunRecord, out: &mut String) {
    let source = run.source.to_string_lossy().into_owned();
    let m = &run.meta;
    for t in &run.tests {
        let line = Line {
            schema: SCHEMA,
            run: &run.run,
            model: &run.model,
            category: &t.category,
            id: &t.id,
            outcome: t.outcome.map_or("not_run", Outcome::as_str),
            error_type: t.error_type.as_deref(),
            error_message: t.error_message.as_deref(),
            duration_ms: t.duration_ms,
            input_tokens: t.input_tokens,
            output_tokens: t.output_tokens,
            cost_usd: t.cost_usd,
            source_format: &run.format,
            source: &source,
            timestamp: m.timestamp.as_deref(),
            git_branch: m.git_branch.as_deref(),
            git_sha: m.git_sha.as_deref(),
            version: m.version.as_deref(),
            tier: m.tier.as_deref(),
            hostname: m.hostname.as_deref(),
            prompt_sha: m.prompt_sha.as_deref(),
            duration_seconds: m.duration_seconds,
            total_cost_usd: m.total_cost_usd,
        };
        if let Ok(s) = serde_json::to_string(&line) {
            out.push_str(&s);
            out.push('\n');
        }
    }
}

#[cfg(feature = "parquet")]
/// The Parquet schema of [`parquet`]: the columns of [`Line`], typed, in the same order.
const PARQUET_SCHEMA: &str = "message evaltally_export {
    REQUIRED BINARY run (STRING);
    REQUIRED BINARY model (STRING);
    REQUIRED BINARY category (STRING);
    REQUIRED BINARY id (STRING);
    REQUIRED BINARY outcome (STRING);
    OPTIONAL BINARY error_type (STRING);
    OPTIONAL BINARY error_message (STRING);
    OPTIONAL DOUBLE duration_ms;
    OPTIONAL INT64 input_tokens;
    OPTIONAL INT64 output_tokens;
    OPTIONAL DOUBLE cost_usd;
    REQUIRED BINARY source_format (STRING);
    REQUIRED BINARY source (STRING);
    OPTIONAL BINARY timestamp (STRING);
    OPTIONAL BINARY git_branch (STRING);
    OPTIONAL BINARY git_sha (STRING);
    OPTIONAL BINARY version (STRING);
    OPTIONAL BINARY tier (STRING);
    OPTIONAL BINARY hostname (STRING);
    OPTIONAL BINARY prompt_sha (STRING);
    OPTIONAL DOUBLE duration_seconds;
    OPTIONAL DOUBLE total_cost_usd;
}";

/// One exported row: the run, its source as text, the test.
#[cfg(feature = "parquet")]
type Row<'a> = (&'a RunRecord, String, &'a evaltally_core::TestRecord);

#[cfg(feature = "parquet")]
/// Rows per row group: large enough for good compression, small enough to stream.
const ROW_GROUP: usize = 65_536;

#[cfg(feature = "parquet")]
/// One Parquet column's values for a row group.
enum Column {
    Text(Vec<parquet::data_type::ByteArray>, Option<Vec<i16>>),
    Double(Vec<f64>, Vec<i16>),
    Int(Vec<i64>, Vec<i16>),
}

#[cfg(feature = "parquet")]
/// `values` as a required or optional text column.
fn text<'a>(values: impl Iterator<Item = Option<&'a str>>, required: bool) -> Column {
    let mut data = Vec::new();
    let mut levels = Vec::new();
    for v in values {
        levels.push(i16::from(v.is_some()));
        if let Some(v) = v {
            data.push(parquet::data_type::ByteArray::from(v.as_bytes().to_vec()));
        }
    }
    Column::Text(data, (!required).then_some(levels))
}

#[cfg(feature = "parquet")]
fn double(values: impl Iterator<Item = Option<f64>>) -> Column {
    let (mut data, mut levels) = (Vec::new(), Vec::new());
    for v in values {
        levels.push(i16::from(v.is_some()));
        data.extend(v);
    }
    Column::Double(data, levels)
}

#[cfg(feature = "parquet")]
fn int(values: impl Iterator<Item = Option<u64>>) -> Column {
    let (mut data, mut levels) = (Vec::new(), Vec::new());
    for v in values.map(|v| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX))) {
        levels.push(i16::from(v.is_some()));
        data.extend(v);
    }
    Column::Int(data, levels)
}

#[cfg(feature = "parquet")]
/// The runs as one Parquet file (Snappy-compressed), one row per (run, test), with the
/// columns of the JSON Lines export ([`Line`]) typed: text as strings, durations and costs
/// as doubles, tokens as 64-bit integers, absent values null.
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let run = RunRecord { run: "r".into(), model: "m".into(), format: "bfcl".into(), tests: vec![
///     TestRecord { id: "simple_0".into(), category: "simple".into(), outcome: Some(Outcome::Pass),
///                  input_tokens: Some(12), ..Default::default() }],
///     ..Default::default() };
/// let bytes = evaltally_convert::export::parquet(&[run]).unwrap();
/// assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
/// ```
pub fn parquet(runs: &[RunRecord]) -> Result<Vec<u8>, parquet::errors::ParquetError> {
    use std::sync::Arc;

    use parquet::data_type::{ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;

    let schema = Arc::new(parquet::schema::parser::parse_message_type(PARQUET_SCHEMA)?);
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(parquet::basic::Compression::SNAPPY)
            .set_created_by(format!("evaltally {}", env!("CARGO_PKG_VERSION")))
            .build(),
    );
    let mut writer = SerializedFileWriter::new(Vec::new(), schema, props)?;
    let rows: Vec<Row<'_>> = runs
        .iter()
        .flat_map(|r| {
            let source = r.source.to_string_lossy().into_owned();
            r.tests.iter().map(move |t| (r, source.clone(), t))
        })
        .collect();
    for chunk in rows.chunks(ROW_GROUP) {
        let s = |f: for<'a> fn(&'a Row<'a>) -> Option<&'a str>| chunk.iter().map(f);
        let columns = vec![
            text(s(|(r, _, _)| Some(&r.run)), true),
            text(s(|(r, _, _)| Some(&r.model)), true),
            text(s(|(_, _, t)| Some(&t.category)), true),
            text(s(|(_, _, t)| Some(&t.id)), true),
            text(s(|(_, _, t)| Some(t.outcome.map_or("not_run", Outcome::as_str))), true),
            text(s(|(_, _, t)| t.error_type.as_deref()), false),
            text(s(|(_, _, t)| t.error_message.as_deref()), false),
            double(chunk.iter().map(|(_, _, t)| t.duration_ms)),
            int(chunk.iter().map(|(_, _, t)| t.input_tokens)),
            int(chunk.iter().map(|(_, _, t)| t.output_tokens)),
            double(chunk.iter().map(|(_, _, t)| t.cost_usd)),
            text(s(|(r, _, _)| Some(&r.format)), true),
            text(s(|(_, source, _)| Some(source)), true),
            text(s(|(r, _, _)| r.meta.timestamp.as_deref()), false),
            text(s(|(r, _, _)| r.meta.git_branch.as_deref()), false),
            text(s(|(r, _, _)| r.meta.git_sha.as_deref()), false),
            text(s(|(r, _, _)| r.meta.version.as_deref()), false),
            text(s(|(r, _, _)| r.meta.tier.as_deref()), false),
            text(s(|(r, _, _)| r.meta.hostname.as_deref()), false),
            text(s(|(r, _, _)| r.meta.prompt_sha.as_deref()), false),
            double(chunk.iter().map(|(r, _, _)| r.meta.duration_seconds)),
            double(chunk.iter().map(|(r, _, _)| r.meta.total_cost_usd)),
        ];
        let mut group = writer.next_row_group()?;
        let mut columns = columns.into_iter();
        while let Some(mut col) = group.next_column()? {
            match columns.next() {
                Some(Column::Text(data, levels)) => {
                    col.typed::<ByteArrayType>().write_batch(&data, levels.as_deref(), None)?;
                }
                Some(Column::Double(data, levels)) => {
                    col.typed::<DoubleType>().write_batch(&data, Some(&levels), None)?;
                }
                Some(Column::Int(data, levels)) => {
                    col.typed::<Int64Type>().write_batch(&data, Some(&levels), None)?;
                }
                None => return Err(parquet::errors::ParquetError::General("more columns than values".into())),
            }
            col.close()?;
        }
        group.close()?;
    }
    writer.into_inner()
}
