//! The fast path of `stability`: a `per_instance_stats.json` read into instances with the
//! pipeline's scanner (`evaltally_format::scan`), which walks every entry and every stat
//! and builds only an instance's key (`instance_id`, `train_trial_index`, `perturbation`)
//! and the means of the judging metrics ([`METRICS`]). The other stats' numbers and names
//! are jumped over without being built.
//!
//! It reads only what the tolerant reader ([`crate::instances`]) reads without a word: bytes
//! that are not UTF-8 or hold a raw control character, a byte order mark, a structure that
//! is not JSON, a key written twice in an object walked or a value built, a member that does
//! not parse, or anything the tolerant reader would note (an entry it leaves out, a default
//! it takes, a stat without a name, a metric given twice with another mean, an empty list)
//! give `None`, and the caller reads the file the tolerant way, which says what is wrong.
//! Like the other fast paths, it checks the structure and the encoding of what it skips,
//! not the syntax of every skipped number; that is `validate`'s job.
//! Nor does it look for keys written twice inside the values it skips, which the tolerant
//! reader warns about.
//!
//! The instances it gives carry what the runs need: their `stats` are left empty (`records`
//! and `show` take the tolerant path).

use std::collections::HashMap;
use std::ops::Range;

use evaltally_format::fields::{Fallback as Slow, Found, built as value, walk_distinct};
use evaltally_format::scan::{array_at, string_value, value_end};
use serde_json::Map;

use crate::{Instance, METRICS, entry_key};

/// Walks the object at `b[start]` ([`walk_distinct`]), keeping the value ranges of
/// `wanted`'s members; returns them with the offset just past the object. `keys` is scratch
/// room for the object's keys.
fn fields<const N: usize>(
    b: &[u8],
    start: usize,
    wanted: [&str; N],
    keys: &mut Vec<Range<usize>>,
) -> Result<(Found<N>, usize), Slow> {
    let mut found: Found<N> = std::array::from_fn(|_| None);
    let end = walk_distinct(b, start, keys, |key, v| {
        let end = value_end(b, v)?;
        if let Some(at) = wanted.iter().position(|w| w.as_bytes() == key) {
            found[at] = Some(v..end);
        }
        Ok(end)
    })?;
    Ok((found, end))
}

/// Scratch room for the keys of the objects walked, one per depth.
#[derive(Default)]
struct Keys {
    entry: Vec<Range<usize>>,
    stat: Vec<Range<usize>>,
    name: Vec<Range<usize>>,
}

const ENTRY_KEYS: [&str; 4] = ["instance_id", "train_trial_index", "perturbation", "stats"];

/// Adds the stats at `b[start]` (a list) to `instance`, as [`crate::add_stats`] does with
/// the means of the judging metrics; anything it would note is [`Slow`].
fn add_stats(b: &[u8], start: usize, instance: &mut Instance, entry: usize, keys: &mut Keys) -> Result<(), Slow> {
    if b.get(start) != Some(&b'[') {
        return Err(Slow);
    }
    let mut failed = false;
    array_at(b, start, |i| {
        if failed {
            return value_end(b, i);
        }
        stat(b, i, instance, entry, keys).or_else(|Slow| {
            failed = true;
            value_end(b, i)
        })
    })?;
    if failed { Err(Slow) } else { Ok(()) }
}

/// One stat at `b[start]`; returns the offset just past it.
fn stat(b: &[u8], start: usize, instance: &mut Instance, entry: usize, keys: &mut Keys) -> Result<usize, Slow> {
    if b.get(start) != Some(&b'{') {
        return Err(Slow);
    }
    let ([name, mean], end) = fields(b, start, ["name", "mean"], &mut keys.stat)?;
    // `name.name`, a string: else the tolerant reader skips the stat with a warning.
    let name = name.filter(|r| b[r.start] == b'{').ok_or(Slow)?;
    let ([name], _) = fields(b, name.start, ["name"], &mut keys.name)?;
    let name = name.filter(|r| b[r.start] == b'"').and_then(|r| string_value(&b[r])).ok_or(Slow)?;
    if let Some(m) = METRICS.iter().position(|m| *m == name) {
        let mean = mean.map(|r| value(b, &r)).transpose()?.and_then(|v| v.as_f64()).ok_or(Slow)?;
        match instance.means[m] {
            None => instance.means[m] = Some((mean, entry)),
            Some((first, _)) if first.to_bits() == mean.to_bits() => {}
            Some(_) => return Err(Slow),
        }
    }
    Ok(end)
}

/// The instances of a stats file, as [`crate::instances`] reads them when it notes nothing
/// (without their stats); `None` to take the tolerant path.
pub(crate) fn instances(bytes: &[u8]) -> Option<Vec<Instance>> {
    read(bytes).ok()
}

fn read(b: &[u8]) -> Result<Vec<Instance>, Slow> {
    // A byte order mark serde_json refuses, bytes that are not UTF-8, a raw control
    // character: the tolerant reader says so.
    if b.starts_with(evaltally_format::json::BOM) || !evaltally_format::damage::find(b, 1).is_empty() {
        return Err(Slow);
    }
    let is_ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let start = b.iter().position(|c| !is_ws(c)).ok_or(Slow)?;
    if b[start] != b'[' {
        return Err(Slow);
    }
    let mut out: Vec<Instance> = Vec::new();
    let mut at: HashMap<(u64, String), usize> = HashMap::new();
    let mut keys = Keys::default();
    let mut index = 0;
    let mut failed = false;
    let end = array_at(b, start, |i| {
        let entry = index;
        index += 1;
        if failed {
            return value_end(b, i);
        }
        let read = one(b, i, entry, &mut keys, &mut out, &mut at);
        read.or_else(|Slow| {
            failed = true;
            value_end(b, i)
        })
    })?;
    if failed || index == 0 || !b[end..].iter().all(is_ws) {
        return Err(Slow);
    }
    Ok(out)
}

/// Entry `entry`, at `b[start]`, added to the instances; returns the offset just past it.
fn one(
    b: &[u8],
    start: usize,
    entry: usize,
    keys: &mut Keys,
    out: &mut Vec<Instance>,
    at: &mut HashMap<(u64, String), usize>,
) -> Result<usize, Slow> {
    if b.get(start) != Some(&b'{') {
        return Err(Slow);
    }
    let ([id, trial, perturbation, stats], end) = fields(b, start, ENTRY_KEYS, &mut keys.entry)?;
    let mut key = Map::new();
    for (name, r) in ENTRY_KEYS.iter().zip([id, trial, perturbation]) {
        if let Some(r) = r {
            key.insert((*name).to_string(), value(b, &r)?);
        }
    }
    let mut warnings = Vec::new();
    let (id, trial, perturbation) = entry_key(&key, &mut warnings).map_err(|_| Slow)?;
    if !warnings.is_empty() {
        return Err(Slow);
    }
    let stats = stats.ok_or(Slow)?;
    let slot = *at.entry((trial, id.clone())).or_insert_with(|| {
        out.push(Instance { trial, id, means: [None, None], stats: Vec::new(), perturbation });
        out.len() - 1
    });
    add_stats(b, stats.start, &mut out[slot], entry, keys)?;
    Ok(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(doc: &str) -> (Vec<Instance>, usize) {
        let (instances, diagnostics) =
            crate::instances(std::path::Path::new("per_instance_stats.json"), doc.as_bytes(), true).unwrap();
        (instances, diagnostics.len())
    }

    /// What the runs are made of, and the perturbation, as text.
    fn key(i: &[Instance]) -> Vec<String> {
        i.iter().map(|i| format!("{} {} {:?} {:?}", i.trial, i.id, i.means, i.perturbation)).collect()
    }

    /// Where the fast path reads, it reads what the tolerant reader reads.
    #[test]
    fn agrees_with_the_tolerant_reader() {
        let doc = r#"[
          {"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "num_prompt_tokens", "split": "test"}, "mean": 3, "sum": 1e3},
            {"name": {"name": "exact_match"}, "count": 1, "mean": 1.0}]},
          {"instance_id": 7, "train_trial_index": 1, "perturbation": {"name": "typos", "prob": 0.1}, "stats": [{"name": {"name": "quasi_exact_match"}, "mean": 0}]},
          {"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1}, {"name": {"name": "quasi_exact_match"}, "mean": 0.5}]},
          {"instance_id": "b", "train_trial_index": 0, "perturbation": null, "stats": []}
        ]"#;
        let (want, notes) = slow(doc);
        assert_eq!(notes, 0);
        let got = instances(doc.as_bytes()).expect("the fast path reads it");
        assert_eq!(key(&got), key(&want));
    }

    /// Whatever the tolerant reader would say something about goes to it.
    #[test]
    fn leaves_to_the_tolerant_reader_what_it_would_note() {
        let ok = r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1}]}]"#;
        assert!(instances(ok.as_bytes()).is_some());
        for doc in [
            "[]",
            "{}",
            "[1]",
            r#"[{"instance_id": "a", "stats": []}]"#,
            r#"[{"instance_id": "", "train_trial_index": 0, "stats": []}]"#,
            r#"[{"instance_id": "a", "train_trial_index": -1, "stats": []}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": {}}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "perturbation": {}, "stats": []}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "train_trial_index": 0, "stats": []}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": "exact_match", "mean": 1}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": "1"}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1, "mean": 0}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1.}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1}, {"name": {"name": "exact_match"}, "mean": 0}]}]"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "x"}, "mean": 1}]}] x"#,
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "x"}, "mean": 1}]"#,
            "[{\"instance_id\": \"a\", \"train_trial_index\": 0, \"stats\": [{\"name\": {\"name\": \"x\\u0001\"}, \"mean\": \"\u{1}\"}]}]",
            "\u{feff}[{\"instance_id\": \"a\", \"train_trial_index\": 0, \"stats\": []}]",
        ] {
            assert!(instances(doc.as_bytes()).is_none(), "{doc}");
        }
    }
}
