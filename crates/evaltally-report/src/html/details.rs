//! What a heatmap cell shows when clicked: error type, message, tokens and latency of one
//! test in one run, from the runs' records; only for cells that did not pass, and with the
//! messages cut so the whole file stays within its size budget.

use hashbrown::{HashMap, HashSet};

use evaltally_core::text::{printable, printable_block};
use evaltally_core::{RunRecord, TestRecord};

use super::number::round;

/// `[column, error type, message, input tokens, output tokens, latency ms]`.
pub type CellDetail = (usize, Option<usize>, Option<usize>, Option<u64>, Option<u64>, Option<f64>);

/// The records of every (model, run, category, test), for lookups.
pub(crate) struct DetailIndex<'a> {
    tests: HashMap<(&'a str, &'a str, &'a str, &'a str), &'a TestRecord>,
}

impl<'a> DetailIndex<'a> {
    pub(crate) fn new(records: &'a [RunRecord]) -> Self {
        let mut tests = HashMap::with_capacity(records.iter().map(|r| r.tests.len()).sum());
        for r in records {
            for t in &r.tests {
                // A test listed twice keeps the first, as the analyses do.
                tests.entry((r.model.as_str(), r.run.as_str(), t.category.as_str(), t.id.as_str())).or_insert(t);
            }
        }
        Self { tests }
    }

    pub(crate) fn get(&self, model: &str, run: &str, category: &str, id: &str) -> Option<&'a TestRecord> {
        self.tests.get(&(model, run, category, id)).copied()
    }
}

/// One cell's details before the messages are cut and interned.
struct Pending {
    row: usize,
    col: usize,
    error_type: Option<String>,
    message: Option<String>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    latency_ms: Option<f64>,
}

/// Per model: its error types, its messages, and `(row, detail)` of each cell.
pub(crate) type ModelDetails = (Vec<String>, Vec<String>, Vec<(usize, CellDetail)>);

/// The details of every model's cells, gathered before the message length is chosen.
#[derive(Default)]
pub(crate) struct Details {
    models: Vec<Vec<Pending>>,
}

/// The message lengths tried, longest first, until the messages fit.
const STEPS: [usize; 5] = [300, 200, 120, 60, 0];

/// `message` cut to `chars` characters, `…` marking the cut.
fn cut(message: &str, chars: usize) -> String {
    match message.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", message[..at].trim_end()),
        None => message.to_string(),
    }
}

/// The bytes a string takes in the embedded JSON.
fn json_len(s: &str) -> usize {
    serde_json::to_string(s).map_or(s.len() + 2, |j| j.len() + 5 * j.matches(['<', '>', '&']).count()) + 1
}

impl Details {
    /// Starts the next model; its slot.
    pub(crate) fn model(&mut self) -> usize {
        self.models.push(Vec::new());
        self.models.len() - 1
    }

    /// Adds the details of `record`, the test of heatmap row `row`, in column `col`.
    pub(crate) fn add(&mut self, model: usize, row: usize, col: usize, record: &TestRecord) {
        let message = record.error_message.as_deref().map(|m| printable_block(m.trim()).into_owned());
        self.models[model].push(Pending {
            row,
            col,
            error_type: record.error_type.as_deref().map(|e| printable(e).into_owned()),
            message: message.filter(|m| !m.is_empty()),
            input_tokens: record.input_tokens,
            output_tokens: record.output_tokens,
            latency_ms: record.duration_ms.filter(|d| d.is_finite()).map(round),
        });
    }

    /// The bytes the cells take in the embedded JSON without their messages: each cell's
    /// `[column, error type, null, tokens, tokens, latency]` and each model's error types.
    pub(crate) fn cells_bytes(&self) -> usize {
        let mut size = 0;
        for model in &self.models {
            let mut types: HashSet<&str> = HashSet::new();
            for p in model {
                // The error type's index is written in place of its name; a few digits.
                let cell: CellDetail =
                    (p.col, p.error_type.as_ref().map(|_| 0), None, p.input_tokens, p.output_tokens, p.latency_ms);
                size += serde_json::to_string(&cell).map_or(0, |j| j.len()) + 2;
                if let Some(t) = &p.error_type
                    && types.insert(t)
                {
                    size += json_len(t);
                }
            }
        }
        size
    }

    /// The longest message length, at most `chars`, whose distinct messages take at most
    /// `budget` bytes; 0 when even the shortest step does not fit.
    pub(crate) fn fit(&self, chars: usize, budget: usize) -> usize {
        let mut steps: Vec<usize> = STEPS.iter().copied().filter(|&s| s < chars).collect();
        steps.insert(0, chars);
        for step in steps {
            if step == 0 {
                return 0;
            }
            let mut size = 0;
            for model in &self.models {
                let mut seen: HashSet<String> = HashSet::new();
                for p in model {
                    if let Some(m) = &p.message {
                        let m = cut(m, step);
                        if !seen.contains(&m) {
                            size += json_len(&m);
                            seen.insert(m);
                        }
                    }
                }
            }
            if size <= budget {
                return step;
            }
        }
        0
    }

    /// Each model's tables and cells, messages cut to `chars` (left out at 0).
    pub(crate) fn finish(self, chars: usize) -> Vec<ModelDetails> {
        self.models
            .into_iter()
            .map(|cells| {
                let (mut types, mut messages) = (Interner::default(), Interner::default());
                let cells = cells
                    .into_iter()
                    .map(|p| {
                        let error_type = p.error_type.map(|e| types.intern(e));
                        let message = p.message.filter(|_| chars > 0).map(|m| messages.intern(cut(&m, chars)));
                        (p.row, (p.col, error_type, message, p.input_tokens, p.output_tokens, p.latency_ms))
                    })
                    .collect();
                (types.values, messages.values, cells)
            })
            .collect()
    }
}

/// Strings by index, each once.
#[derive(Default)]
struct Interner {
    values: Vec<String>,
    index: HashMap<String, usize>,
}

impl Interner {
    fn intern(&mut self, s: String) -> usize {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        self.values.push(s.clone());
        self.index.insert(s, self.values.len() - 1);
        self.values.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(message: &str) -> TestRecord {
        TestRecord {
            id: "t".into(),
            category: "c".into(),
            error_type: Some("value_error:\u{1b}[31m".into()),
            error_message: Some(message.into()),
            input_tokens: Some(10),
            duration_ms: Some(1_700.000_000_1),
            ..TestRecord::default()
        }
    }

    #[test]
    fn cuts_on_characters_and_marks_the_cut() {
        assert_eq!(cut("héllo wörld", 5), "héllo…");
        assert_eq!(cut("short", 300), "short");
    }

    #[test]
    fn interns_types_and_messages_and_escapes_them() {
        let mut d = Details::default();
        let m = d.model();
        d.add(m, 0, 1, &record("same"));
        d.add(m, 2, 0, &record("same"));
        let out = d.finish(300);
        let (types, messages, cells) = &out[0];
        assert_eq!(types, &["value_error:\\u{1b}[31m"]);
        assert_eq!(messages, &["same"]);
        assert_eq!(format!("{:?}", cells[1]), "(2, (0, Some(0), Some(0), Some(10), None, Some(1700.0)))");
    }

    #[test]
    fn shortens_messages_to_fit_the_budget() {
        let mut d = Details::default();
        let m = d.model();
        for i in 0..100 {
            d.add(m, i, 0, &record(&format!("{i:03} {}", "x".repeat(400))));
        }
        // 100 distinct messages of ~300 chars do not fit in 20 KB; of ~200 they do.
        assert_eq!(d.fit(300, 40_000), 300);
        assert_eq!(d.fit(300, 25_000), 200);
        assert_eq!(d.fit(300, 100), 0);
        assert_eq!(d.fit(80, 1_000_000), 80);
        let out = d.finish(0);
        assert!(out[0].1.is_empty());
    }
}
