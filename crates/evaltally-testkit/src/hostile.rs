//! Hostile JSON for no-panic tests of validators and readers: values of every wrong type,
//! huge, negative and deeply nested, put in every place of real documents.

use serde_json::{Value, json};

/// Values of every wrong type, huge, negative, nested.
pub fn values() -> Vec<Value> {
    let mut deep = json!(0);
    for _ in 0..1000 {
        deep = json!([deep]);
    }
    vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(-0.0),
        json!(1.5),
        json!(1e308),
        json!(-1e308),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("PASS"),
        json!("x".repeat(500)),
        json!([]),
        json!([1, "a", null]),
        json!({}),
        json!({"a": {"b": []}}),
        deep,
    ]
}

/// Calls `each` on every hostile [`values`] value, then on every variant of every document
/// in `docs` in which one place (any member, any of the first three elements of an array, at
/// any depth) holds a hostile value.
pub fn each_variant(docs: &[Value], mut each: impl FnMut(&Value)) {
    let values = values();
    for v in &values {
        each(v);
    }
    for doc in docs {
        let mut all = Vec::new();
        paths(doc, &mut Vec::new(), &mut all);
        for path in all.iter().filter(|p| !p.is_empty()) {
            for v in &values {
                each(&replaced(doc, path, v));
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every path in a document, containers included.
fn paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Step::Key(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate().take(3) {
                here.push(Step::Index(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn replaced(doc: &Value, path: &[Step], with: &Value) -> Value {
    let mut out = doc.clone();
    let mut at = &mut out;
    for step in path {
        at = match step {
            Step::Key(k) => &mut at[k.as_str()],
            Step::Index(i) => &mut at[*i],
        };
    }
    *at = with.clone();
    out
}

/// The report documents the JSON validators' no-panic tests start from: the SF-Bench v1
/// fixtures, and from `../shared/refdata` (when it is there) SF-Bench v2 and v1 examples, the
/// SF-Bench documentation's summary and a SWE-bench gold run report.
pub fn report_documents() -> Vec<Value> {
    let mut docs: Vec<Value> = [
        "sfbench/v1-legacy-evaluate.json",
        "sfbench/v1-engine-summary.json",
        "sfbench/v1-legacy-evaluate-inconsistent.json",
    ]
    .into_iter()
    .map(|rel| crate::load_json(&crate::testdata(rel)))
    .collect();
    for rel in [
        "sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json",
        "sfbench/upstream-code-oracle-synthetic/migrate_v1_input.json",
        "sfbench/sf-bench-docs-examples/head.summary_object_example.json",
        "swebench/swebench-official-gold-reports/gold.validate-gold.json",
    ] {
        if let Some(p) = crate::refdata(rel) {
            docs.push(crate::load_json(&p));
        }
    }
    docs
}
