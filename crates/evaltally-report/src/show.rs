//! One test across runs: a row per run, then the prompt, the expected answer and the
//! details of one run.

use std::fmt::Write as _;

use evaltally_core::schema::SchemaId;
use evaltally_core::text::{printable, printable_block};
use evaltally_core::{Diagnostic, Status, TestDetail};
use serde::Serialize;
use serde_json::Value;

use crate::{Style, width_of};

/// The identifier of [`Document`], `evaltally.show/1`.
pub const SCHEMA: SchemaId = SchemaId::new("show", 1);

/// The JSON document `evaltally show --format json` prints: one test in every run that
/// holds its category, with its outcome, error, prompt, answers, tokens and latency.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// The test id.
    pub id: &'a str,
    /// One entry per run (and model) that holds the test's category.
    pub runs: &'a [TestDetail],
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(id: &str, details: &[TestDetail], diagnostics: &[Diagnostic]) -> String {
    let doc = Document { schema: SCHEMA, id, runs: details, diagnostics: crate::Listed::of(diagnostics) };
    crate::pretty_json(&doc)
}

/// `text` (the status word, maybe padded) in the status's colour.
fn paint(style: Style, s: Status, text: &str) -> String {
    match s {
        Status::Passed => style.green(text),
        Status::Failed => style.red(text),
        Status::NotRun | Status::Unscored | Status::Errored => style.yellow(text),
    }
}

/// JSON laid out for reading: a value that fits on one line of `width` stays on one line;
/// a longer list or object puts each member on a line of its own, recursively. JSON
/// escapes C0 controls in strings, but not DEL, C1 controls or bidirectional overrides:
/// those are escaped as in any text from a file.
fn pretty(v: &Value) -> String {
    let mut out = String::new();
    layout(v, 0, 96, &mut out);
    printable_block(&out).into_owned()
}

fn layout(v: &Value, depth: usize, width: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    // Text of several lines as it was written: by itself (an answer), the lines alone, which
    // `cap_lines` caps; inside details (a traceback), after a `|`.
    if let Some(text) = v.as_str().filter(|_| is_block(v)) {
        if depth == 0 {
            out.push_str(text.trim_end());
        } else {
            block(text, &pad, out);
        }
        return;
    }
    let compact = v.to_string();
    if compact.len() + pad.len() <= width && !holds_block(v) {
        out.push_str(&compact);
        return;
    }
    let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match v {
        Value::Array(a) => ('[', ']', a.iter().map(|x| (None, x)).collect()),
        Value::Object(m) => ('{', '}', m.iter().map(|(k, x)| (Some(k), x)).collect()),
        _ => {
            out.push_str(&compact);
            return;
        }
    };
    out.push(open);
    for (i, (key, item)) in items.iter().enumerate() {
        out.push('\n');
        out.push_str(&pad);
        out.push_str("  ");
        if let Some(k) = key {
            out.push_str(&Value::String((*k).clone()).to_string());
            out.push_str(": ");
        }
        layout(item, depth + 1, width, out);
        if i + 1 < items.len() && !is_block(item) {
            out.push(',');
        }
    }
    out.push('\n');
    out.push_str(&pad);
    out.push(close);
}

/// Whether `v` is text of several lines (a traceback, a log), which [`block`] lays out.
fn is_block(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.trim_end().contains('\n'))
}

/// Whether `v` is or holds text of several lines.
fn holds_block(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.iter().any(holds_block),
        Value::Object(m) => m.values().any(holds_block),
        _ => is_block(v),
    }
}

/// Text of several lines as lines, after a `|`, one level in from `pad`: a traceback read
/// as it was printed, not as one string of `\n`s. Of a long one, the first lines and the
/// last (where a traceback names the error) are kept.
fn block(text: &str, pad: &str, out: &mut String) {
    const HEAD: usize = 3;
    const TAIL: usize = 8;
    let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
    out.push('|');
    let mut put = |line: &str| {
        out.push('\n');
        out.push_str(pad);
        out.push_str("  ");
        out.push_str(line);
    };
    if lines.len() <= HEAD + TAIL + 1 {
        for line in lines {
            put(line);
        }
        return;
    }
    for line in &lines[..HEAD] {
        put(line);
    }
    put(&format!("… {} lines …", lines.len() - HEAD - TAIL));
    for line in &lines[lines.len() - TAIL..] {
        put(line);
    }
}

/// At most `max` lines of `text`, with a note of how many were cut.
fn cap_lines(text: &str, max: usize) -> String {
    let total = text.lines().count();
    if total <= max {
        return text.to_string();
    }
    let mut kept: Vec<&str> = text.lines().take(max).collect();
    let note = format!("… {} more lines (`--format json` has everything)", total - max);
    kept.push(&note);
    kept.join("\n")
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}")).collect::<Vec<_>>().join("\n")
}

/// The test as text. `focus` names the run whose details are printed; by default the
/// last run (in natural order) in which the test failed, else the last run. Names, ids and
/// paths are shown with [`printable`], messages and prompts with [`printable_block`].
pub fn text(details: &[TestDetail], focus: Option<&str>, style: Style) -> String {
    let mut out = String::new();
    let Some(first) = details.first() else { return out };
    // Every model and category the rows cover, in their order.
    let distinct = |of: fn(&TestDetail) -> &str| {
        let mut seen: Vec<&str> = Vec::new();
        for d in details {
            if !seen.contains(&of(d)) {
                seen.push(of(d));
            }
        }
        seen.into_iter().map(|s| printable(s).into_owned()).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(
        out,
        "{}  ({} / {})",
        style.bold(&printable(&first.id)),
        distinct(|d| d.model.as_str()),
        distinct(|d| d.category.as_str())
    );

    let several_models = details.iter().any(|d| d.model != first.model);
    // lighteval's, lm-eval's and inspect_ai's ids count within a task: one id may name a
    // test in each of several categories, which are other tests.
    let several_categories = details.iter().any(|d| d.category != first.category);
    let names: Vec<String> = details
        .iter()
        .map(|d| match (several_models, several_categories) {
            (true, true) => format!("{} ({} / {})", printable(&d.run), printable(&d.model), printable(&d.category)),
            (true, false) => format!("{} ({})", printable(&d.run), printable(&d.model)),
            (false, true) => format!("{} ({})", printable(&d.run), printable(&d.category)),
            (false, false) => printable(&d.run).into_owned(),
        })
        .collect();
    let run_w = names.iter().map(|n| n.chars().count().min(crate::MAX_COLUMN)).max().unwrap_or(0).max("run".len());
    let type_w =
        details.iter().filter_map(|d| d.error_type.as_deref().map(width_of)).max().unwrap_or(0).max("error type".len());
    let _ = writeln!(
        out,
        "\n  {:<run_w$}  {:<8}  {:<type_w$}  {:>13}  {:>9}",
        "run", "outcome", "error type", "tokens in/out", "latency"
    );
    for (d, run) in details.iter().zip(&names) {
        let tokens = match (d.input_tokens, d.output_tokens) {
            (None, None) => "-".to_string(),
            (i, o) => format!(
                "{}/{}",
                i.map_or("-".to_string(), |i| i.to_string()),
                o.map_or("-".to_string(), |o| o.to_string())
            ),
        };
        let latency = d.latency_seconds.map_or("-".to_string(), |s| format!("{s:.2} s"));
        // Pad before colouring so escape codes do not break the columns.
        let outcome = paint(style, d.status, &format!("{:<8}", d.status.as_str()));
        let _ = writeln!(
            out,
            "  {run:<run_w$}  {outcome}  {:<type_w$}  {tokens:>13}  {latency:>9}",
            printable(d.error_type.as_deref().unwrap_or(""))
        );
    }

    // The run shown: `focus` (of several models' runs of that name, one where the test
    // failed), else the last where it failed, else the last that has it.
    let failed = |d: &TestDetail| matches!(d.status, Status::Failed | Status::Errored);
    let last = |pick: &dyn Fn(&TestDetail) -> bool| details.iter().rposition(pick);
    let at = match focus {
        Some(name) => last(&|d| d.run == name && failed(d)).or_else(|| last(&|d| d.run == name)),
        None => None,
    }
    .or_else(|| last(&failed))
    .or_else(|| last(&|d| d.status != Status::NotRun))
    .unwrap_or(0);
    let pick = &details[at];

    // The prompt and the expected answer do not change between runs; BFCL stores them only
    // with failures, so take them from any run that failed, of the category of the run shown.
    let same_test = || details.iter().filter(|d| d.category == pick.category);
    let with_prompt = same_test().find(|d| !d.question.is_empty());
    match with_prompt {
        Some(d) => {
            let _ = writeln!(out, "\n{}", style.bold("question"));
            let several = d.question.len() > 1;
            for (i, turn) in d.question.iter().enumerate() {
                if several {
                    let _ = writeln!(out, "  turn {}", i + 1);
                }
                for m in turn {
                    let _ = writeln!(
                        out,
                        "{}",
                        indent(
                            &format!("{}: {}", printable(&m.role), printable_block(&m.content)),
                            if several { "    " } else { "  " }
                        )
                    );
                }
            }
        }
        None => {
            // BFCL keeps the prompt only in score files, which list failures only.
            let _ = writeln!(out, "\n{}: not in these files", style.bold("question"));
        }
    }
    if let Some(expected) = same_test().find_map(|d| d.expected.as_ref()) {
        let _ = writeln!(out, "\n{}\n{}", style.bold("expected answer"), indent(&pretty(expected), "  "));
    }

    // Named as in the table: with its model and category where several are shown.
    let _ = writeln!(
        out,
        "\n{} {}: {}",
        style.bold("run"),
        style.bold(&names[at]),
        paint(style, pick.status, pick.status.as_str())
    );
    if let Some(t) = &pick.error_type {
        let _ = writeln!(out, "  error type: {}", printable(t));
    }
    // What kept a test from a verdict is no error of the model's.
    let unscored = pick.status == Status::Unscored;
    if let Some(m) = &pick.error_message {
        let label = if unscored { "not judged" } else { "error" };
        let _ = writeln!(out, "  {label}: {}", indent(&printable_block(m), "    ").trim_start());
    }
    if let Some(details) = &pick.error_details {
        let label = if unscored { "details" } else { "error details" };
        let _ = writeln!(out, "  {label}:\n{}", indent(&cap_lines(&pretty(details), 30), "    "));
    }
    if pick.inference_error {
        let _ = writeln!(out, "  the model call crashed (inference error)");
    }
    if let Some(a) = &pick.answer {
        let _ = writeln!(out, "  model answer (result file):\n{}", indent(&pretty(a), "    "));
    }
    if let Some(a) = &pick.decoded_answer {
        let _ = writeln!(out, "  model answer as decoded (score file):\n{}", indent(&pretty(a), "    "));
    }
    for (what, at) in [("result", &pick.result_at), ("score", &pick.score_at)] {
        if let Some(at) = at {
            let _ = writeln!(out, "  {what} record: {}:{}", printable(&at.path.to_string_lossy()), at.line);
        }
    }
    if several_categories {
        let _ = writeln!(
            out,
            "\n(the id names a test in each of these categories, other tests; the details are those of one run; \
             `--category C` keeps one, `--run NAME` picks another run)"
        );
    } else if details.len() > 1 {
        let _ = writeln!(out, "\n(details of one run; `--run NAME` picks another, `--format json` shows all)");
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// Text of several lines inside details is laid out as lines after a `|` (no `\n`s,
    /// no comma glued to its last line), a long one by its first 3 and last 8 lines; by
    /// itself, it is its lines alone.
    #[test]
    fn text_of_several_lines_is_laid_out_as_lines() {
        let traceback: Vec<String> = (1..=20).map(|i| format!("line {i}")).collect();
        let details = json!({"error": {"traceback": traceback.join("\n") + "\n", "type": "E"}, "n": 1});
        let shown = super::pretty(&details);
        let expected = "{\n  \"error\": {\n    \"traceback\": |\n      line 1\n      line 2\n      line 3\n      … 9 lines …\n      \
                        line 13\n      line 14\n      line 15\n      line 16\n      line 17\n      line 18\n      line 19\n      \
                        line 20\n    \"type\": \"E\"\n  },\n  \"n\": 1\n}";
        assert_eq!(shown, expected);
        assert_eq!(super::pretty(&json!("def f():\n    return 1\n")), "def f():\n    return 1");
        assert_eq!(super::pretty(&json!({"a": "one line"})), "{\"a\":\"one line\"}");
        assert_eq!(super::pretty(&json!({"a": "two\nlines"})), "{\n  \"a\": |\n    two\n    lines\n}");
    }
}
