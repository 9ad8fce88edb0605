//! The round-trip guarantee, checked on generated runs: `read(write(run))` gives back the
//! same outcomes per category (pass and fail counts, unscored tests, order), the same error
//! types and messages, and the same durations, tokens and costs — after `xml_safe`, with an
//! empty message read as none and a missing or blank error type as `failure`.
//!
//! Runs come from a seeded SplitMix64 generator (deterministic, no dependencies) and mix in
//! hostile strings: quotes, `<&>`, `]]>`, comment and CDATA openers, entity look-alikes,
//! every kind of line end, control characters, non-characters, non-ASCII, surrounding
//! whitespace and 1 MB messages.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use evaltally_core::{Outcome, RunRecord, SplitMix64, TestRecord};
use evaltally_junit::{read, write, xml_safe};

/// The seeded generator ([`SplitMix64`]) with the draws the generators below make.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const PIECES: &[&str] = &[
    "a",
    "Z",
    "0",
    "_",
    " ",
    "  ",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "<",
    ">",
    "&",
    "\"",
    "'",
    "]]>",
    "<![CDATA[",
    "<!--",
    "-->",
    "?>",
    "&amp;",
    "&#10;",
    "&nbsp;",
    "&#x0;",
    "\u{0}",
    "\u{1}",
    "\u{8}",
    "\u{b}",
    "\u{c}",
    "\u{1b}",
    "\u{1f}",
    "\u{7f}",
    "\u{85}",
    "\u{2028}",
    "é",
    "日本",
    "🚀",
    "\u{fffd}",
    "\u{fffe}",
    "\u{ffff}",
    "\\",
    "::",
    "›",
    "value_error:string",
];

/// A string of 0 to `max` random pieces.
fn nasty(rng: &mut Rng, max: usize) -> String {
    (0..rng.below(max + 1)).map(|_| rng.pick(PIECES)).collect()
}

/// A name that reads back as itself after `xml_safe`: non-blank.
fn name(rng: &mut Rng, prefix: &str) -> String {
    format!("{prefix}{}", nasty(rng, 6))
}

fn duration(rng: &mut Rng) -> Option<f64> {
    match rng.below(6) {
        0 => None,
        1 => Some(0.0),
        2 => Some(rng.next() as f64 / 1e12),
        3 => Some((rng.next() % 100_000) as f64),
        4 => Some(f64::from_bits(rng.next() >> 2)),
        _ => Some((rng.next() % 10_000) as f64 / 7.0),
    }
}

fn message(rng: &mut Rng, huge: bool) -> Option<String> {
    if huge {
        let mut m = nasty(rng, 20);
        while m.len() < 1 << 20 {
            m.push_str(rng.pick(PIECES));
            m.push_str("lorem ipsum dolor sit amet ");
        }
        return Some(m);
    }
    match rng.below(5) {
        0 => None,
        1 => Some(String::new()),
        2 => Some(rng.pick(&["assert False", "timeout", "x"]).to_string()),
        _ => Some(nasty(rng, 30)),
    }
}

fn generate(rng: &mut Rng, huge_messages: usize) -> RunRecord {
    let mut categories = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..=rng.below(5) {
        let prefix = rng.pick(&["simple", "live_simple", "multi_turn", "c", "c10", "c2"]);
        let c = name(rng, prefix);
        if seen.insert(xml_safe(&c).into_owned()) {
            categories.push(c);
        }
    }
    let mut ids_seen = HashSet::new();
    let mut tests = Vec::new();
    for _ in 0..rng.below(40) {
        let category = categories[rng.below(categories.len())].clone();
        let prefix = format!("{category}_{}", rng.below(50));
        let id = name(rng, &prefix);
        if !ids_seen.insert((xml_safe(&category).into_owned(), xml_safe(&id).into_owned())) {
            continue;
        }
        let outcome = match rng.below(7) {
            0..=2 => Some(Outcome::Pass),
            3..=4 => Some(Outcome::Fail),
            5 => Some(Outcome::Unscored),
            _ => None,
        };
        let huge = outcome == Some(Outcome::Fail) && tests.len() < huge_messages;
        tests.push(TestRecord {
            id,
            category,
            outcome,
            error_type: match rng.below(4) {
                0 => None,
                1 => Some(String::new()),
                2 => Some(rng.pick(&["value_error:string", "inference_error", "timeout"]).to_string()),
                _ => Some(nasty(rng, 8)),
            },
            error_message: message(rng, huge),
            duration_ms: duration(rng),
            input_tokens: rng.chance(50).then(|| rng.next() >> rng.below(64)),
            output_tokens: rng.chance(50).then(|| rng.next() % 5000),
            cost_usd: match rng.below(4) {
                0 => None,
                1 => Some(rng.next() as f64 / 1e19),
                2 => Some(f64::from_bits(rng.next() >> 2)),
                _ => Some(0.0),
            },
        });
    }
    RunRecord {
        run: name(rng, "run-"),
        model: nasty(rng, 5),
        format: rng.pick(&["bfcl", "gstack", ""]).to_string(),
        source: "generated".into(),
        started_at: rng.chance(50).then(|| nasty(rng, 4)),
        tests,
        ..RunRecord::default()
    }
}

/// Whether `s` holds only XML whitespace (such attributes count as missing).
fn blank(s: &str) -> bool {
    s.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

/// What the guarantee says comes back for a failed test's error type and message.
fn expected_error(t: &TestRecord) -> (String, Option<String>) {
    let kind =
        t.error_type.as_deref().filter(|k| !blank(k)).map_or("failure".to_string(), |k| xml_safe(k).into_owned());
    let message = t.error_message.as_deref().filter(|m| !m.is_empty()).map(|m| xml_safe(m).into_owned());
    (kind, message)
}

/// The tests a category run lists: id, outcome, error type.
type Listed = Vec<(String, Outcome, Option<String>)>;

/// Checks the guarantee for one run; `label` names the run in failures.
fn check(run: &RunRecord, label: &str) {
    let xml = write(run);
    let back = read(&xml, Path::new("generated.xml")).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert!(back.diagnostics.is_empty(), "{label}: {:?}", back.diagnostics);

    // Category runs: per category, the listed tests in order with outcome and error type.
    let mut want: BTreeMap<String, Listed> = BTreeMap::new();
    for t in &run.tests {
        let Some(outcome) = t.outcome else { continue };
        let kind = (outcome == Outcome::Fail).then(|| expected_error(t).0);
        want.entry(xml_safe(&t.category).into_owned()).or_default().push((xml_safe(&t.id).into_owned(), outcome, kind));
    }
    let cats = back.category_runs(&run.run, &run.model);
    let got: BTreeMap<String, Listed> = cats
        .iter()
        .map(|c| {
            let tests =
                c.tests().map(|t| (t.id.to_string(), t.outcome, t.error_type.map(ToString::to_string))).collect();
            (c.category.clone(), tests)
        })
        .collect();
    assert_eq!(got, want, "{label}: category runs");
    for c in &cats {
        let tests = &want[&c.category];
        let passed = tests.iter().filter(|t| t.1 == Outcome::Pass).count();
        let failed = tests.iter().filter(|t| t.1 == Outcome::Fail).count();
        assert_eq!((c.passed(), c.failed()), (passed, failed), "{label}: counts of {}", c.category);
    }

    // The record: every test, with outcome, messages, durations, tokens and costs.
    let rec = back.record(&run.run, &run.model);
    assert_eq!(rec.tests.len(), run.tests.len(), "{label}: test count");
    let started_at = run.started_at.as_deref().filter(|s| !blank(s) && !run.tests.is_empty());
    assert_eq!(rec.started_at, started_at.map(|s| xml_safe(s).into_owned()), "{label}: started_at");
    let mut original: BTreeMap<(String, String), &TestRecord> = BTreeMap::new();
    for t in &run.tests {
        original.insert((xml_safe(&t.category).into_owned(), xml_safe(&t.id).into_owned()), t);
    }
    for b in &rec.tests {
        let t = original[&(b.category.clone(), b.id.clone())];
        assert_eq!(b.outcome, t.outcome, "{label}: outcome of {:?}", b.id);
        if t.outcome == Some(Outcome::Fail) {
            let (kind, message) = expected_error(t);
            assert_eq!(b.error_type.as_deref(), Some(kind.as_str()), "{label}: error type of {:?}", b.id);
            assert_eq!(b.error_message, message, "{label}: message of {:?}", b.id);
        }
        let duration = t.duration_ms.filter(|d| d.is_finite() && *d >= 0.0).unwrap_or(0.0);
        assert_eq!(b.duration_ms.map(f64::to_bits), Some(duration.to_bits()), "{label}: duration of {:?}", b.id);
        assert_eq!((b.input_tokens, b.output_tokens), (t.input_tokens, t.output_tokens), "{label}: tokens");
        assert_eq!(
            b.cost_usd.map(f64::to_bits),
            t.cost_usd.filter(|c| c.is_finite()).map(f64::to_bits),
            "{label}: cost"
        );
    }
}

#[test]
fn generated_runs_round_trip() {
    let mut rng = Rng(SplitMix64::new(0x5EED_0001));
    for i in 0..400 {
        let run = generate(&mut rng, 0);
        check(&run, &format!("run #{i}"));
    }
}

#[test]
fn megabyte_messages_round_trip() {
    let mut rng = Rng(SplitMix64::new(0x5EED_0002));
    for i in 0..3 {
        let run = generate(&mut rng, 2);
        check(&run, &format!("huge run #{i}"));
    }
    // One message of exactly the shape that used to break writers: 1 MB of `]]>` and NULs.
    let message = "]]>\u{0}<&>\"'\r\n".repeat((1 << 20) / 10);
    let run = RunRecord {
        run: "r".into(),
        tests: vec![TestRecord {
            id: "t".into(),
            category: "c".into(),
            outcome: Some(Outcome::Fail),
            error_message: Some(message),
            ..Default::default()
        }],
        ..Default::default()
    };
    check(&run, "1 MB of markup");
}

#[test]
fn every_piece_alone_round_trips() {
    for (i, piece) in PIECES.iter().enumerate() {
        for text in [piece.to_string(), format!(" {piece} "), format!("x{piece}x"), piece.repeat(3)] {
            let run = RunRecord {
                run: format!("r{text}"),
                model: text.clone(),
                tests: vec![TestRecord {
                    id: format!("id{text}"),
                    category: format!("c{text}"),
                    outcome: Some(Outcome::Fail),
                    error_type: Some(text.clone()),
                    error_message: Some(text.clone()),
                    ..Default::default()
                }],
                ..Default::default()
            };
            check(&run, &format!("piece #{i} {text:?}"));
        }
    }
}
