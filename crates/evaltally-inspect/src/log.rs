//! An `inspect_ai` log as read: its header (model, task, run, scorers) and its samples, from
//! a `.json` `EvalLog` or a `.eval` zip archive.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{Cursor, Read as _};
use std::path::Path;

use evaltally_core::Diagnostic;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// The largest member of a `.eval` archive read (decompressed): a guard against archives
/// that inflate without end.
const MAX_MEMBER: u64 = 1 << 30;

/// What a version 1 sample's one score is called until its log's scorer is known.
const V1_SCORER: &str = "score";

/// The zip signature every `.eval` log starts with.
pub(crate) const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// One scorer's score of a sample.
#[derive(Debug, Clone)]
pub(crate) struct Score {
    pub(crate) scorer: String,
    pub(crate) value: Value,
    pub(crate) answer: Option<String>,
}

/// One sample in one epoch.
#[derive(Debug, Clone)]
pub(crate) struct Sample {
    pub(crate) id: String,
    pub(crate) epoch: u64,
    pub(crate) scores: Vec<Score>,
    pub(crate) error: Option<String>,
    pub(crate) input_tokens: Option<u64>,
    pub(crate) output_tokens: Option<u64>,
    /// The first of `input_tokens` and `output_tokens` whose value is no count (negative, a
    /// fraction, past 2^64); its count is `None`.
    pub(crate) not_a_count: Option<&'static str>,
    pub(crate) total_time: Option<f64>,
}

/// A log's header and samples.
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub(crate) model: String,
    pub(crate) task: String,
    pub(crate) created: Option<String>,
    pub(crate) commit: Option<String>,
    /// The eval's id: `eval.eval_id` (written since `inspect_ai` 0.3.95), else what
    /// `inspect_ai` itself derives for older logs as it reads them, from `run_id`, `task_id`
    /// and `created` (`EvalSpec`'s model validator, `src/inspect_ai/log/_log.py`). One eval
    /// written both as `.eval` and as `.json` has one id.
    pub(crate) id: Option<String>,
    /// The task's scorers in the task's order (`eval.scorers[].name`), the same in every
    /// log of the task, whether it finished or was cancelled; empty in logs written before
    /// `inspect_ai` recorded them.
    pub(crate) task_scorers: Vec<String>,
    /// Scorer names in the order the header's results list them (`results.scores[].scorer`:
    /// `name` is a key of the scorer's values when a metric was asked of it); empty in a
    /// log that was cancelled before it had results.
    pub(crate) scorers: Vec<String>,
    /// `None` for a header-only log (no samples were logged).
    pub(crate) samples: Option<Vec<Sample>>,
    /// The tokens each model used over the whole log (`stats.model_usage`), which summaries
    /// of some versions do not give per sample.
    pub(crate) usage: Vec<evaltally_core::ModelCost>,
}

/// The parts of a log header read (the plan, stats and the rest are skipped).
#[derive(Debug, Default, Deserialize)]
struct Header {
    #[serde(default)]
    eval: Option<Value>,
    #[serde(default)]
    results: Option<Value>,
    #[serde(default)]
    stats: Option<Value>,
    #[serde(default)]
    status: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

/// A `.json` `EvalLog`: the header's parts and the samples, kept raw until each is read.
#[derive(Debug, Deserialize)]
struct JsonLog<'a> {
    #[serde(default)]
    eval: Option<Value>,
    #[serde(default)]
    results: Option<Value>,
    #[serde(default)]
    stats: Option<Value>,
    #[serde(default)]
    status: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(borrow, default)]
    samples: Option<Vec<&'a RawValue>>,
}

/// The fields of a sample (or a sample summary) read; messages, events and the rest skipped.
#[derive(Debug, Deserialize)]
struct SampleIn {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    epoch: Option<Value>,
    #[serde(default)]
    scores: Option<Value>,
    /// The one score of a version 1 log (`inspect_ai` 0.3.17 and before).
    #[serde(default)]
    score: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    model_usage: Option<Value>,
    #[serde(default)]
    total_time: Option<Value>,
}

/// Who reads: collects diagnostics on one file, with repeated keys as warnings (analyses)
/// or errors (`validate`).
pub(crate) struct Reader<'p> {
    pub(crate) path: &'p Path,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// `validate`: repeated keys are errors, and an archive's full samples are checked.
    pub(crate) strict_keys: bool,
    /// `validate`: the keys `inspect_ai` never writes, tallied from each document or member
    /// as it is read ([`crate::keys::KEYS`]).
    pub(crate) keys: Option<evaltally_format::check::KeyCheck<'static>>,
}

impl<'p> Reader<'p> {
    pub(crate) fn new(path: &'p Path, strict_keys: bool) -> Self {
        let keys = strict_keys.then(|| evaltally_format::check::KeyCheck::new(crate::keys::KEYS));
        Self { path, diagnostics: Vec::new(), strict_keys, keys }
    }

    /// `member: ` before messages about a member of a `.eval` archive.
    fn prefix(member: Option<&str>) -> String {
        member.map_or_else(String::new, |m| format!("{m}: "))
    }

    fn error(&mut self, member: Option<&str>, what: impl std::fmt::Display) {
        self.diagnostics.push(Diagnostic::error(self.path, format!("{}{what}", Self::prefix(member))));
    }

    fn warn(&mut self, member: Option<&str>, what: impl std::fmt::Display) {
        self.diagnostics.push(Diagnostic::warning(self.path, format!("{}{what}", Self::prefix(member))));
    }

    /// Notes every key written twice in `bytes` (a member's, or the file's), and with
    /// `validate` the keys `inspect_ai` never writes. A member's lines and columns are not
    /// the archive's: they go in the message.
    fn note_keys(&mut self, member: Option<&str>, bytes: &[u8]) {
        if let (Some(keys), Some(at)) = (&mut self.keys, at_of(member)) {
            keys.add_bytes(bytes, at);
        }
        for d in evaltally_format::json::repeated_key_warnings(self.path, bytes) {
            let mut message = format!("{}{}", Self::prefix(member), d.message);
            if let (Some(_), Some(line), Some(column)) = (member, d.line, d.column) {
                let _ = write!(message, " (line {line}, column {column})");
            }
            let mut out = if self.strict_keys {
                Diagnostic::error(self.path, message)
            } else {
                Diagnostic::warning(self.path, message)
            };
            if let (None, Some(line), Some(column)) = (member, d.line, d.column) {
                out = out.at(line, column);
            }
            self.diagnostics.push(out);
        }
    }

    /// A JSON syntax error, located.
    fn syntax(&self, member: Option<&str>, e: &serde_json::Error) -> Diagnostic {
        let what = format!("{}{}", Self::prefix(member), evaltally_format::json::problem(e));
        let column = evaltally_format::json::column(e);
        match member {
            None => Diagnostic::error(self.path, what).at(e.line() as u64, column as u64),
            Some(_) => Diagnostic::error(self.path, format!("{what} (line {}, column {column})", e.line())),
        }
    }
}

/// Reads a log from its bytes: a `.eval` archive when they start with the zip signature,
/// else a `.json` `EvalLog`. An error when the file cannot be used at all.
pub(crate) fn read_log(reader: &mut Reader<'_>, bytes: &[u8]) -> Result<Log, Diagnostic> {
    if bytes.starts_with(ZIP_MAGIC) { read_eval(reader, bytes) } else { read_json(reader, bytes) }
}

fn read_json(reader: &mut Reader<'_>, bytes: &[u8]) -> Result<Log, Diagnostic> {
    // The fields skipped below are not checked by the parser.
    if let Some((line, column, byte)) = evaltally_format::json::not_utf8(bytes) {
        return Err(Diagnostic::error(reader.path, format!("not UTF-8 (a byte 0x{byte:02X}); the log is not read"))
            .at(line, column));
    }
    // inspect_ai writes Python's `NaN` for a value a scorer left unscored.
    let bytes = &*evaltally_format::json::python_non_finite_as_null(evaltally_format::json::without_bom(bytes));
    let doc: JsonLog<'_> = serde_json::from_slice(bytes).map_err(|e| reader.syntax(None, &e))?;
    reader.note_keys(None, bytes);
    let mut log = header_log(reader, None, doc.eval.as_ref(), doc.results.as_ref())?;
    log.usage = usage_of(reader, None, doc.stats.as_ref());
    log.samples = doc.samples.map(|raw| {
        let mut samples = Vec::with_capacity(raw.len());
        for (i, r) in raw.iter().enumerate() {
            if let Some(s) = sample(reader, None, &format!("samples[{i}]"), r.get()) {
                samples.push(s);
            }
        }
        samples
    });
    stopped_early(reader, None, doc.status.as_ref(), doc.error.as_ref(), doc.eval.as_ref(), log.samples.as_deref());
    // A version 1 sample's score is its log's one scorer's.
    if let Some(name) =
        doc.results.as_ref().and_then(|r| r.get("scorer")).and_then(|s| s.get("name")).and_then(Value::as_str)
    {
        for score in log.samples.iter_mut().flatten().flat_map(|s| s.scores.iter_mut()) {
            if score.scorer == V1_SCORER {
                name.clone_into(&mut score.scorer);
            }
        }
    }
    Ok(log)
}

/// The header's model, task, creation time, commit, id and scorers. An error without `eval`.
fn header_log(
    reader: &mut Reader<'_>,
    member: Option<&str>,
    eval: Option<&Value>,
    results: Option<&Value>,
) -> Result<Log, Diagnostic> {
    let Some(eval) = eval.filter(|e| e.is_object()) else {
        let what = format!("{}expected `eval`, the log's task and model", Reader::prefix(member));
        return Err(Diagnostic::error(reader.path, what));
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
    let model = text(eval.get("model")).unwrap_or_else(|| {
        reader.warn(member, "`eval.model` missing; the model is `unknown`");
        "unknown".to_string()
    });
    let task = text(eval.get("task")).unwrap_or_else(|| {
        reader.warn(member, "`eval.task` missing; the category is `inspect`");
        "inspect".to_string()
    });
    let mut scorers: Vec<String> = results
        .and_then(|r| r.get("scores"))
        .and_then(Value::as_array)
        .map(|scores| scores.iter().filter_map(|s| text(s.get("scorer").or_else(|| s.get("name")))).collect())
        .unwrap_or_default();
    // Version 1 names its one scorer in `results.scorer`.
    scorers.extend(text(results.and_then(|r| r.get("scorer")).and_then(|s| s.get("name"))));
    let task_scorers = eval
        .get("scorers")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|s| text(s.get("name"))).collect())
        .unwrap_or_default();
    Ok(Log {
        model,
        task,
        created: text(eval.get("created")),
        commit: text(eval.get("revision").and_then(|r| r.get("commit"))),
        id: text(eval.get("eval_id")).or_else(|| {
            let run = text(eval.get("run_id"))?;
            let part = |key: &str| text(eval.get(key)).unwrap_or_default();
            Some(format!("{run} {} {}", part("task_id"), part("created")))
        }),
        task_scorers,
        scorers,
        samples: None,
        usage: Vec::new(),
    })
}

/// Each model's tokens over the log, from the header's `stats.model_usage`
/// (`{model: {input_tokens, output_tokens, …}}`), in the order given. A value that is no
/// count is left out, said once.
fn usage_of(reader: &mut Reader<'_>, member: Option<&str>, stats: Option<&Value>) -> Vec<evaltally_core::ModelCost> {
    let Some(models) = stats.and_then(|s| s.get("model_usage")).and_then(Value::as_object) else { return Vec::new() };
    let mut first_not_a_count: Option<(&str, &str)> = None;
    let usage = models
        .iter()
        .map(|(model, u)| {
            let mut count = |key: &'static str| match token_count(u.get(key)) {
                Tokens::Count(n) => Some(n),
                Tokens::Absent => None,
                Tokens::NotACount => {
                    first_not_a_count.get_or_insert((model, key));
                    None
                }
            };
            evaltally_core::ModelCost {
                model: model.clone(),
                input_tokens: count("input_tokens"),
                output_tokens: count("output_tokens"),
                ..evaltally_core::ModelCost::default()
            }
        })
        .filter(|c| c.input_tokens.is_some() || c.output_tokens.is_some())
        .collect();
    if let Some((model, key)) = first_not_a_count {
        reader.warn(
            member,
            format!(
                "`stats.model_usage` gives `{}`'s `{key}` as no count ({NOT_A_COUNT}): left out of the token sums",
                evaltally_core::text::printable(model)
            ),
        );
    }
    usage
}

/// A sample from its JSON text; `None` (with an error naming it) when it cannot be read.
fn sample(reader: &mut Reader<'_>, member: Option<&str>, name: &str, text: &str) -> Option<Sample> {
    let left_out = |reader: &mut Reader<'_>, what: &str| reader.error(member, format!("{name}: {what}; left out"));
    let Ok(s) = serde_json::from_str::<SampleIn>(text) else {
        left_out(reader, "expected a sample, an object with `id` and `epoch`");
        return None;
    };
    let id = match &s.id {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
        _ => {
            left_out(reader, "expected `id`, a string or an integer");
            return None;
        }
    };
    let epoch = match &s.epoch {
        None | Some(Value::Null) => {
            reader.warn(member, format!("{name}: sample {id} has no epoch; read as epoch 1"));
            1
        }
        Some(e) => {
            if let Some(n) = e.as_u64() {
                n
            } else {
                left_out(reader, &format!("sample {id}: expected `epoch`, a whole number, found {e}"));
                return None;
            }
        }
    };
    let scores = match &s.scores {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(scorer, score)| Score {
                scorer: scorer.clone(),
                value: score.get("value").cloned().unwrap_or(Value::Null),
                answer: score.get("answer").and_then(Value::as_str).map(str::to_string),
            })
            .collect(),
        None | Some(Value::Null) => match &s.score {
            // Version 1: one score, of the scorer `results.scorer` names (renamed once the
            // header is known).
            Some(score @ Value::Object(_)) => vec![Score {
                scorer: V1_SCORER.to_string(),
                value: score.get("value").cloned().unwrap_or(Value::Null),
                answer: score.get("answer").and_then(Value::as_str).map(str::to_string),
            }],
            _ => Vec::new(),
        },
        Some(other) => {
            reader.warn(member, format!("{name}: sample {id}: `scores` is {other}, not an object; unscored"));
            Vec::new()
        }
    };
    let error = match &s.error {
        None | Some(Value::Null) => None,
        Some(Value::String(e)) => Some(e.clone()),
        Some(e) => Some(e.get("message").and_then(Value::as_str).map_or_else(|| e.to_string(), str::to_string)),
    };
    let input = usage(s.model_usage.as_ref(), "input_tokens");
    let output = usage(s.model_usage.as_ref(), "output_tokens");
    Some(Sample {
        id,
        epoch,
        scores,
        error,
        input_tokens: input.count(),
        output_tokens: output.count(),
        not_a_count: [(input, "input_tokens"), (output, "output_tokens")]
            .into_iter()
            .find_map(|(t, key)| matches!(t, Tokens::NotACount).then_some(key)),
        total_time: seconds(s.total_time.as_ref()),
    })
}

/// What a token count that is no count is, in `inspect_ai`'s logs ([`token_count`]).
pub(crate) const NOT_A_COUNT: &str = "negative, a fraction, or past 2^64";

/// A token count as read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tokens {
    /// Absent or `null`.
    Absent,
    Count(u64),
    /// A value no token count can be: negative, a fraction, past 2^64, not a number.
    NotACount,
}

impl Tokens {
    /// The count, when there is one.
    pub(crate) fn count(self) -> Option<u64> {
        match self {
            Tokens::Count(n) => Some(n),
            Tokens::Absent | Tokens::NotACount => None,
        }
    }
}

/// `value` as a token count: a whole number from 0 to 2^64 − 1, written as an integer or
/// (as a writer other than `inspect_ai` may) as a float with no fraction (`41.0`).
fn token_count(value: Option<&Value>) -> Tokens {
    match value {
        None | Some(Value::Null) => Tokens::Absent,
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_f64().and_then(evaltally_core::count_of))
            .map_or(Tokens::NotACount, Tokens::Count),
    }
}

/// A token count of a sample's `model_usage` (`{model: {input_tokens, …}}`), summed over its
/// models: absent unless every model gives it, no count when one model's is none (or the sum
/// passes 2^64).
pub(crate) fn usage(model_usage: Option<&Value>, key: &str) -> Tokens {
    let Some(models) = model_usage.and_then(Value::as_object) else { return Tokens::Absent };
    let mut sum = Some(0_u64);
    let mut absent = models.is_empty();
    for u in models.values() {
        match token_count(u.get(key)) {
            Tokens::NotACount => return Tokens::NotACount,
            Tokens::Absent => absent = true,
            Tokens::Count(n) => sum = sum.and_then(|s| s.checked_add(n)),
        }
    }
    match sum {
        None => Tokens::NotACount,
        Some(_) if absent => Tokens::Absent,
        Some(n) => Tokens::Count(n),
    }
}

/// A sample's `total_time`, when a finite number of seconds.
pub(crate) fn seconds(total_time: Option<&Value>) -> Option<f64> {
    total_time.and_then(Value::as_f64).filter(|t| t.is_finite() && *t >= 0.0)
}

/// The archive's members, opened once.
pub(crate) struct Archive<'b> {
    zip: zip::ZipArchive<Cursor<&'b [u8]>>,
    pub(crate) names: Vec<String>,
}

impl<'b> Archive<'b> {
    pub(crate) fn open(path: &Path, bytes: &'b [u8]) -> Result<Self, Diagnostic> {
        let zip = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| Diagnostic::error(path, format!("not a readable .eval archive (zip): {e}")))?;
        let names = zip.file_names().filter_map(Result::ok).map(std::borrow::Cow::into_owned).collect();
        Ok(Self { zip, names })
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    /// A member's bytes, or why it cannot be read. Members are stored, deflated (older
    /// `inspect_ai`) or Zstandard-compressed (zip method 93, what current `inspect_ai` writes);
    /// the last are decoded here and checked against the entry's CRC-32, the others by `zip`.
    pub(crate) fn member(&mut self, name: &str) -> Result<Vec<u8>, String> {
        let raw = self.zip.by_name_raw(name.as_bytes()).map_err(|e| format!("cannot open: {e}"))?;
        if raw.compression() == zip::CompressionMethod::ZSTD {
            let (crc, size) = (raw.crc32(), raw.size());
            let mut packed = Vec::with_capacity(usize::try_from(raw.compressed_size()).unwrap_or(0));
            raw.take(MAX_MEMBER).read_to_end(&mut packed).map_err(|e| format!("cannot read: {e}"))?;
            let out = unzstd(&packed, size)?;
            if crc32fast::hash(&out) != crc {
                return Err("damaged: its CRC-32 does not match its Zstandard-decoded bytes".to_string());
            }
            return Ok(finite(out));
        }
        drop(raw);
        let file = self.zip.by_name(name).map_err(|e| format!("cannot open: {e}"))?;
        let mut out = Vec::with_capacity(usize::try_from(file.size().min(MAX_MEMBER)).unwrap_or(0));
        file.take(MAX_MEMBER + 1).read_to_end(&mut out).map_err(|e| format!("cannot read: {e}"))?;
        if out.len() as u64 > MAX_MEMBER {
            return Err(too_large());
        }
        Ok(finite(out))
    }
}

/// A member's JSON with `inspect_ai`'s `NaN` (a value a scorer left unscored) read as `null`.
fn finite(member: Vec<u8>) -> Vec<u8> {
    match evaltally_format::json::python_non_finite_as_null(&member) {
        std::borrow::Cow::Owned(fixed) => fixed,
        std::borrow::Cow::Borrowed(_) => member,
    }
}

fn too_large() -> String {
    format!("larger than {} MiB decompressed; not read", MAX_MEMBER >> 20)
}

/// The bytes of a Zstandard stream (one frame or several, one after another) that the zip
/// entry says are `size` long, never more than [`MAX_MEMBER`].
fn unzstd(mut packed: &[u8], size: u64) -> Result<Vec<u8>, String> {
    use ruzstd::decoding::StreamingDecoder;
    let mut out = Vec::with_capacity(usize::try_from(size.min(MAX_MEMBER)).unwrap_or(0));
    while !packed.is_empty() {
        let frame = StreamingDecoder::new(&mut packed).map_err(|e| format!("cannot read (Zstandard): {e}"))?;
        let room = (MAX_MEMBER + 1).saturating_sub(out.len() as u64);
        frame.take(room).read_to_end(&mut out).map_err(|e| format!("cannot read (Zstandard): {e}"))?;
        if out.len() as u64 > MAX_MEMBER {
            return Err(too_large());
        }
    }
    Ok(out)
}

/// A member parsed as JSON of type `T`, or an error diagnostic naming it.
fn member_json<T: for<'de> Deserialize<'de>>(
    reader: &mut Reader<'_>,
    archive: &mut Archive<'_>,
    name: &str,
) -> Option<T> {
    let bytes = match archive.member(name) {
        Ok(b) => b,
        Err(what) => {
            reader.error(Some(name), what);
            return None;
        }
    };
    if let Some((line, column, byte)) = evaltally_format::json::not_utf8(&bytes) {
        reader.error(Some(name), format!("not UTF-8 (a byte 0x{byte:02X} at line {line}, column {column}); not read"));
        return None;
    }
    match evaltally_format::json::from_slice(&bytes) {
        Ok(v) => {
            reader.note_keys(Some(name), &bytes);
            Some(v)
        }
        Err(e) => {
            let d = reader.syntax(Some(name), &e);
            reader.diagnostics.push(d);
            None
        }
    }
}

fn read_eval(reader: &mut Reader<'_>, bytes: &[u8]) -> Result<Log, Diagnostic> {
    let mut archive = Archive::open(reader.path, bytes)?;
    let header_name = if archive.has("header.json") {
        "header.json"
    } else if archive.has("_journal/start.json") {
        reader.warn(None, "no header.json (an unfinished log); read from _journal/start.json");
        "_journal/start.json"
    } else {
        return Err(Diagnostic::error(reader.path, "expected header.json or _journal/start.json in the archive"));
    };
    let header: Header = member_json(reader, &mut archive, header_name).ok_or_else(|| {
        reader
            .diagnostics
            .pop()
            .unwrap_or_else(|| Diagnostic::error(reader.path, format!("{header_name}: cannot be read")))
    })?;
    let mut log = header_log(reader, Some(header_name), header.eval.as_ref(), header.results.as_ref())?;
    log.usage = usage_of(reader, Some(header_name), header.stats.as_ref());

    // Summaries carry what an analysis needs; the full samples only what `show` adds.
    let mut lists: Vec<String> = Vec::new();
    if archive.has("summaries.json") {
        lists.push("summaries.json".to_string());
    } else {
        let mut journal: Vec<(u64, &String)> = archive
            .names
            .iter()
            .filter_map(|n| Some((n.strip_prefix("_journal/summaries/")?.strip_suffix(".json")?.parse().ok()?, n)))
            .collect();
        journal.sort();
        lists.extend(journal.into_iter().map(|(_, n)| n.clone()));
    }
    let mut samples = Vec::new();
    if lists.is_empty() {
        let files: Vec<String> = archive.names.iter().filter(|n| is_sample_file(n)).cloned().collect();
        for name in files {
            let Ok(bytes) = archive.member(&name).map_err(|what| reader.error(Some(&name), what)) else { continue };
            match std::str::from_utf8(&bytes) {
                Ok(text) => {
                    if let Err(e) = serde_json::from_str::<&RawValue>(text) {
                        let d = reader.syntax(Some(&name), &e);
                        reader.diagnostics.push(d);
                        continue;
                    }
                    reader.note_keys(Some(&name), &bytes);
                    samples.extend(sample(reader, None, &name, text));
                }
                Err(_) => reader.error(Some(&name), "not UTF-8; left out"),
            }
        }
    } else {
        for list in lists {
            let Some(entries) = member_json::<Vec<Box<RawValue>>>(reader, &mut archive, &list) else { continue };
            for (i, raw) in entries.iter().enumerate() {
                samples.extend(sample(reader, Some(&list), &format!("[{i}]"), raw.get()));
            }
        }
        // An analysis reads the summaries; `validate` (strict) checks the full samples too,
        // which `show` reads: each must be a JSON document.
        if reader.strict_keys {
            let files: Vec<String> = archive.names.iter().filter(|n| is_sample_file(n)).cloned().collect();
            for name in files {
                let Ok(bytes) = archive.member(&name).map_err(|what| reader.error(Some(&name), what)) else { continue };
                if let Some((line, column, byte)) = evaltally_format::json::not_utf8(&bytes) {
                    reader
                        .error(Some(&name), format!("not UTF-8 (a byte 0x{byte:02X} at line {line}, column {column})"));
                    continue;
                }
                match evaltally_format::json::from_slice::<serde::de::IgnoredAny>(&bytes) {
                    Ok(_) => reader.note_keys(Some(&name), &bytes),
                    Err(e) => {
                        let d = reader.syntax(Some(&name), &e);
                        reader.diagnostics.push(d);
                    }
                }
            }
        }
    }
    stopped_early(
        reader,
        Some(header_name),
        header.status.as_ref(),
        header.error.as_ref(),
        header.eval.as_ref(),
        Some(&samples),
    );
    log.samples = Some(samples);
    Ok(log)
}

/// A warning for a log whose run stopped before its end (`status` `cancelled` or `error`):
/// how many of the samples it was to run it holds, and the error that stopped it. The
/// samples it holds are read as they are.
fn stopped_early(
    reader: &mut Reader<'_>,
    member: Option<&str>,
    status: Option<&Value>,
    error: Option<&Value>,
    eval: Option<&Value>,
    samples: Option<&[Sample]>,
) {
    let Some(status) = status.and_then(Value::as_str).filter(|s| matches!(*s, "cancelled" | "error")) else { return };
    let held = samples.map_or(0, <[Sample]>::len);
    let planned = eval.and_then(|e| {
        let samples = e.get("dataset")?.get("samples")?.as_u64()?;
        let epochs = e.get("config").and_then(|c| c.get("epochs")).and_then(Value::as_u64).unwrap_or(1);
        Some(samples.saturating_mul(epochs.max(1)))
    });
    let of = planned.map_or_else(|| format!("{held} samples"), |p| format!("{held} of {p} samples"));
    // The error's first line, cut at 100 characters (a repr can hold a whole log in one).
    let why = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .and_then(|m| m.lines().next())
        .map(|m| {
            let cut: String = m.chars().take(100).collect();
            let more = if cut.len() < m.len() { "…" } else { "" };
            format!(" (`{}{more}`)", cut.replace('`', "'"))
        })
        .unwrap_or_default();
    reader.warn(
        member,
        format!("the run stopped before its end: status `{status}`{why}; {of} in the log, read as they are"),
    );
}

/// Where the objects of a document the reader reads sit in a `.json` log: a `.json` log
/// itself (no `member`) and an archive's header or journal start at `$`, its summary lists
/// at `$.summaries`, each full sample at `$.samples[*]`; `None` for other members.
pub(crate) fn at_of(member: Option<&str>) -> Option<&'static str> {
    match member {
        None | Some("header.json" | "_journal/start.json") => Some("$"),
        Some("summaries.json") => Some("$.summaries"),
        Some(n) if n.strip_prefix("_journal/summaries/").and_then(|n| n.strip_suffix(".json")).is_some() => {
            Some("$.summaries")
        }
        Some(n) if is_sample_file(n) => Some("$.samples[*]"),
        Some(_) => None,
    }
}

/// `samples/<id>_epoch_<n>.json`.
pub(crate) fn is_sample_file(name: &str) -> bool {
    name.strip_prefix("samples/").and_then(|n| n.strip_suffix(".json")).is_some_and(|n| n.contains("_epoch_"))
}

/// The samples of a log with each (id, epoch) once: a repeat is a warning and the first is
/// kept.
pub(crate) fn unique(reader: &mut Reader<'_>, samples: Vec<Sample>) -> Vec<Sample> {
    let mut seen: HashSet<(String, u64)> = HashSet::with_capacity(samples.len());
    let mut out = Vec::with_capacity(samples.len());
    for s in samples {
        if seen.insert((s.id.clone(), s.epoch)) {
            out.push(s);
        } else {
            reader.warn(None, format!("sample {} epoch {} listed again; the first is kept", s.id, s.epoch));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole numbers are counts, written as integers or as floats with no fraction; the
    /// rest are none, and a sum over models that passes 2^64 is none.
    #[test]
    fn token_counts() {
        let count = |v: Value| token_count(Some(&v));
        assert_eq!(count(serde_json::json!(41)), Tokens::Count(41));
        assert_eq!(count(serde_json::json!(41.0)), Tokens::Count(41));
        assert_eq!(count(Value::Null), Tokens::Absent);
        assert_eq!(token_count(None), Tokens::Absent);
        for none in [serde_json::json!(-1), serde_json::json!(41.5), serde_json::json!(2e19), serde_json::json!("41")] {
            assert_eq!(count(none.clone()), Tokens::NotACount, "{none}");
        }
        let usage_of = |v: Value| usage(Some(&v), "input_tokens");
        assert_eq!(usage_of(serde_json::json!({"a": {"input_tokens": 2}, "b": {"input_tokens": 3}})), Tokens::Count(5));
        assert_eq!(usage_of(serde_json::json!({"a": {"input_tokens": 2}, "b": {}})), Tokens::Absent);
        assert_eq!(usage_of(serde_json::json!({"a": {"input_tokens": -2}, "b": {}})), Tokens::NotACount);
        let big = u64::MAX;
        assert_eq!(
            usage_of(serde_json::json!({"a": {"input_tokens": big}, "b": {"input_tokens": 1}})),
            Tokens::NotACount
        );
    }
}
