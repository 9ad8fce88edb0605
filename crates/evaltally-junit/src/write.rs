//! Writing a [`RunRecord`] as JUnit XML that CI reporters read (dorny/test-reporter,
//! GitLab `artifacts:reports:junit`, Jenkins), and that [`read`](crate::read) reads back.
//!
//! Layout:
//!
//! * `<testsuites name=RUN tests failures errors="0" skipped time>` holding one
//!   `<testsuite name=CATEGORY tests failures errors="0" skipped time [timestamp]>` per
//!   category, in natural order; tests keep the run's order within their category.
//! * Each suite starts with `<properties>`: `run`, `model` and `format` (the format the
//!   run was read from). They sit in every suite rather than on `<testsuites>` because the
//!   schemas reporters follow allow properties only there.
//! * `<testcase classname=CATEGORY name=ID time=SECONDS>`; `time` is always written (`0` when
//!   unknown), because some reporters compute NaN without it.
//! * Per test, `<properties>` with `input_tokens`, `output_tokens` and `cost_usd` when known
//!   (vitest-evals style `<property name value/>`).
//! * A failure is `<failure message=HEADLINE type=ERROR_TYPE>MESSAGE</failure>`: the text is
//!   the whole message; the attribute is its first non-blank line (at most
//!   [`HEADLINE_CHARS`] characters), which reporters show in their summaries, or the error
//!   type when there is no message. `type` is left out when the test has no error type.
//! * An unscored test is `<skipped type="evaltally.unscored" message="unscored"/>`, a test
//!   listed without running `<skipped type="evaltally.not_run" message="not run"/>`; a
//!   message they carry is the element's text.
//!
//! Every string goes through [`xml_safe`](crate::xml_safe) and is escaped so that a
//! conforming parser gives it back unchanged, whatever it holds (quotes, `<&>`, `]]>`, line
//! breaks, leading or trailing whitespace, megabytes of text).
//!
//! A test that passed keeps no error type or message, an empty message reads back as none,
//! an error type of only whitespace (or none) as `failure`; categories must not be empty (an empty suite name
//! reads back as the file stem). Everything else round-trips: see `tests/round_trip.rs`.

use std::borrow::Cow;
use std::io;

use evaltally_core::id::natural_str_cmp;
use evaltally_core::{Outcome, RunRecord, TestRecord};
use quick_xml::Writer;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;

use crate::escape;
use crate::model::{NOT_RUN_TYPE, UNSCORED_TYPE};
use crate::seconds;

/// The most characters of a message the `message` attribute repeats.
pub const HEADLINE_CHARS: usize = 200;

/// Writes `run` as a JUnit XML document (UTF-8, two-space indentation, final newline).
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
///
/// let test = |id: &str, outcome| TestRecord { id: id.into(), category: "simple".into(), outcome, ..Default::default() };
/// let mut run = RunRecord { run: "run-1".into(), model: "acme-7b".into(), format: "bfcl".into(), ..Default::default() };
/// run.tests.push(test("simple_1", Some(Outcome::Pass)));
/// run.tests.push(TestRecord { error_type: Some("value_error".into()), error_message: Some("1 < 2 & \"x\"".into()),
///     ..test("simple_2", Some(Outcome::Fail)) });
///
/// let xml = evaltally_junit::write(&run);
/// assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"run-1\" tests=\"2\" failures=\"1\""));
/// assert!(xml.contains(r#"<failure message="1 &lt; 2 &amp; &quot;x&quot;" type="value_error">1 &lt; 2 &amp; "x"</failure>"#));
///
/// let back = evaltally_junit::read(&xml, std::path::Path::new("run-1.xml")).unwrap();
/// let cats = back.category_runs("run-1", "acme-7b");
/// assert_eq!((cats[0].passed(), cats[0].failed()), (1, 1));
/// assert_eq!(back.record("run-1", "acme-7b").tests[1].error_message.as_deref(), Some("1 < 2 & \"x\""));
/// ```
pub fn write(run: &RunRecord) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    // Writing into a Vec cannot fail; an error would only cut the document short.
    let _ = write_run(&mut w, run);
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Counts of one suite (or of the whole run).
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    ms: f64,
}

impl Counts {
    fn of<'a>(tests: impl IntoIterator<Item = &'a TestRecord>) -> Self {
        let mut c = Counts::default();
        for t in tests {
            c.tests += 1;
            match t.outcome {
                Some(Outcome::Fail) => c.failures += 1,
                Some(Outcome::Errored) => c.errors += 1,
                Some(Outcome::Unscored) | None => c.skipped += 1,
                Some(Outcome::Pass) => {}
            }
            c.ms += t.duration_ms.filter(|d| d.is_finite() && *d >= 0.0).unwrap_or(0.0);
        }
        c
    }

    fn push_to(self, e: &mut BytesStart<'_>) {
        push(e, "tests", &self.tests.to_string());
        push(e, "failures", &self.failures.to_string());
        push(e, "errors", &self.errors.to_string());
        push(e, "skipped", &self.skipped.to_string());
        push(e, "time", &seconds::format_ms(self.ms).unwrap_or_else(|| "0".to_string()));
    }
}

/// Adds an attribute, escaped so that it reads back exactly.
fn push(e: &mut BytesStart<'_>, name: &str, value: &str) {
    let value = escape::escape_attr(value);
    e.push_attribute(Attribute { key: QName(name.as_bytes()), value: Cow::Owned(value.into_bytes()) });
}

/// The tests grouped by category, categories in natural order, tests in run order.
fn by_category(run: &RunRecord) -> Vec<(&str, Vec<&TestRecord>)> {
    let mut groups: Vec<(&str, Vec<&TestRecord>)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for t in &run.tests {
        let at = *index.entry(t.category.as_str()).or_insert_with(|| {
            groups.push((t.category.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(t);
    }
    groups.sort_by(|a, b| natural_str_cmp(a.0, b.0));
    groups
}

fn write_run(w: &mut Writer<Vec<u8>>, run: &RunRecord) -> io::Result<()> {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut root = BytesStart::new("testsuites");
    push(&mut root, "name", &run.run);
    Counts::of(&run.tests).push_to(&mut root);
    let groups = by_category(run);
    if groups.is_empty() {
        return w.write_event(Event::Empty(root));
    }
    w.write_event(Event::Start(root))?;
    for (category, tests) in &groups {
        let mut suite = BytesStart::new("testsuite");
        push(&mut suite, "name", category);
        Counts::of(tests.iter().copied()).push_to(&mut suite);
        if let Some(ts) = run.started_at.as_deref().filter(|s| !s.chars().all(escape::is_xml_space)) {
            push(&mut suite, "timestamp", ts);
        }
        w.write_event(Event::Start(suite))?;
        let props = [("run", run.run.as_str()), ("model", run.model.as_str()), ("format", run.format.as_str())];
        write_properties(w, props.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (*k, Cow::Borrowed(*v))))?;
        for t in tests {
            write_test(w, t)?;
        }
        w.write_event(Event::End(BytesEnd::new("testsuite")))?;
    }
    w.write_event(Event::End(BytesEnd::new("testsuites")))
}

fn write_properties<'a>(
    w: &mut Writer<Vec<u8>>,
    props: impl IntoIterator<Item = (&'a str, Cow<'a, str>)>,
) -> io::Result<()> {
    let mut props = props.into_iter().peekable();
    if props.peek().is_none() {
        return Ok(());
    }
    w.write_event(Event::Start(BytesStart::new("properties")))?;
    for (name, value) in props {
        let mut p = BytesStart::new("property");
        push(&mut p, "name", name);
        push(&mut p, "value", &value);
        w.write_event(Event::Empty(p))?;
    }
    w.write_event(Event::End(BytesEnd::new("properties")))
}

/// The first non-blank line of a message, cut to [`HEADLINE_CHARS`] characters.
fn headline(message: &str) -> Option<String> {
    let line = message.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut out: String = line.chars().take(HEADLINE_CHARS).collect();
    if out.len() < line.len() {
        out.push('…');
    }
    Some(out)
}

fn write_test(w: &mut Writer<Vec<u8>>, t: &TestRecord) -> io::Result<()> {
    let mut case = BytesStart::new("testcase");
    push(&mut case, "classname", &t.category);
    push(&mut case, "name", &t.id);
    let time = t.duration_ms.and_then(seconds::format_ms).unwrap_or_else(|| "0".to_string());
    push(&mut case, "time", &time);

    let mut props: Vec<(&str, Cow<'_, str>)> = Vec::new();
    if let Some(n) = t.input_tokens {
        props.push(("input_tokens", n.to_string().into()));
    }
    if let Some(n) = t.output_tokens {
        props.push(("output_tokens", n.to_string().into()));
    }
    if let Some(c) = t.cost_usd.filter(|c| c.is_finite()) {
        props.push(("cost_usd", c.to_string().into()));
    }
    let message = t.error_message.as_deref().filter(|m| !m.is_empty());
    let problem = match t.outcome {
        Some(Outcome::Pass) => None,
        Some(outcome @ (Outcome::Fail | Outcome::Errored)) => {
            let kind = t.error_type.as_deref().filter(|k| !k.chars().all(escape::is_xml_space));
            let summary = message.and_then(headline).or_else(|| kind.map(str::to_string));
            Some((if outcome == Outcome::Fail { "failure" } else { "error" }, summary, kind))
        }
        Some(Outcome::Unscored) => Some(("skipped", Some("unscored".to_string()), Some(UNSCORED_TYPE))),
        None => Some(("skipped", Some("not run".to_string()), Some(NOT_RUN_TYPE))),
    };
    if props.is_empty() && problem.is_none() {
        return w.write_event(Event::Empty(case));
    }
    w.write_event(Event::Start(case))?;
    write_properties(w, props)?;
    if let Some((element, summary, kind)) = problem {
        let mut p = BytesStart::new(element);
        if let Some(summary) = summary {
            push(&mut p, "message", &summary);
        }
        if let Some(kind) = kind {
            push(&mut p, "type", kind);
        }
        match message {
            Some(m) => {
                w.write_event(Event::Start(p))?;
                w.write_event(Event::Text(BytesText::from_escaped(escape::escape_text(m))))?;
                w.write_event(Event::End(BytesEnd::new(element)))?;
            }
            None => w.write_event(Event::Empty(p))?,
        }
    }
    w.write_event(Event::End(BytesEnd::new("testcase")))
}
