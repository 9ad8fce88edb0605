//! The fast path of `stability`: a gstack result read straight into category runs with the
//! pipeline's scanner (`evaltally_format::scan`), which finds the few fields the runs need
//! and jumps over the rest (outputs, transcripts, judge reasoning) without building it.
//!
//! It reads only what the tolerant reader ([`crate::sources::read_bytes`]) would read
//! without a word: text that is not UTF-8, a structure that is not JSON, a test that is not
//! an object or lacks a string `name` or a boolean `passed`, counts that disagree, a
//! partial save, a duplicate test, a repeated key or a string that does not decode give
//! `None`, and the caller reads the file the tolerant way, which says what is wrong. Both
//! paths give the same runs. Like BFCL's fast path, it checks structure and encoding, not
//! the syntax of every skipped number; that is `validate`'s job.

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;

use std::sync::Arc;

use evaltally_core::{CategoryRun, FoundTest, Outcome, RunMeta};
use evaltally_format::Input;
use evaltally_format::fields::{Fallback as Slow, boolean, fields, member, objects, only_objects, string};

use crate::model::Shape;

/// The `model` of every object in the array at `raw` (a `costs` list), when it is an array.
fn cost_models<'a>(t: &'a str, raw: Option<&Range<usize>>, out: &mut Vec<Cow<'a, str>>) -> Result<(), Slow> {
    let b = t.as_bytes();
    objects(b, raw, |i| {
        let ([model], end) = fields(b, i, ["model"])?;
        out.extend(string(t, model.as_ref())?);
        Ok(end)
    })
}

/// A number field as the tolerant reader reads it (`Value::as_f64` of the same bytes).
fn number(b: &[u8], raw: Option<&Range<usize>>) -> Option<f64> {
    serde_json::from_slice::<serde_json::Value>(&b[raw?.clone()]).ok()?.as_f64()
}

/// One test as the runs need it.
struct Test<'a> {
    name: Cow<'a, str>,
    category_fields: [Option<Cow<'a, str>>; 3],
    passed: bool,
    label: Option<String>,
    model: Option<Cow<'a, str>>,
    cost_models: Vec<Cow<'a, str>>,
}

const TEST_KEYS: [&str; 10] =
    ["name", "suite", "category", "tier", "passed", "exit_reason", "error", "model", "costs", "failures"];

fn test(t: &str, start: usize) -> Result<(Test<'_>, usize), Slow> {
    let b = t.as_bytes();
    let ([name, suite, category, tier, passed, exit_reason, error, model, costs, failures], end) =
        fields(b, start, TEST_KEYS)?;
    let name = string(t, name.as_ref())?.ok_or(Slow)?;
    let passed = boolean(b, passed.as_ref()).ok_or(Slow)?;
    let label = if passed {
        None
    } else {
        let failure = first_failure(t, failures.as_ref())?;
        Some(crate::runs::label(
            string(t, exit_reason.as_ref())?.as_deref(),
            string(t, error.as_ref())?.as_deref(),
            || failure,
        ))
    };
    let mut models = Vec::new();
    cost_models(t, costs.as_ref(), &mut models)?;
    let test = Test {
        name,
        category_fields: [string(t, suite.as_ref())?, string(t, category.as_ref())?, string(t, tier.as_ref())?],
        passed,
        label,
        model: string(t, model.as_ref())?,
        cost_models: models,
    };
    Ok((test, end))
}

/// `expectation_type`, else `type`, of the first object in `failures`.
fn first_failure(t: &str, raw: Option<&Range<usize>>) -> Result<Option<String>, Slow> {
    let b = t.as_bytes();
    let mut first = None;
    objects(b, raw, |i| {
        let ([expectation_type, kind], end) = fields(b, i, ["expectation_type", "type"])?;
        if first.is_none() {
            let e = string(t, expectation_type.as_ref())?;
            let k = string(t, kind.as_ref())?;
            first = Some(e.or(k).filter(|s| !s.is_empty()).map(Cow::into_owned));
        }
        Ok(end)
    })?;
    Ok(first.flatten())
}

/// The category runs of a well-formed result of `shape`, or `None` to take the tolerant path.
pub(crate) fn category_runs(file: &Input<'_>, shape: Shape) -> Option<Vec<CategoryRun>> {
    runs(file, shape).ok()
}

fn runs(file: &Input<'_>, shape: Shape) -> Result<Vec<CategoryRun>, Slow> {
    // Not UTF-8, a byte order mark serde_json refuses, a raw control character (in a field
    // this path would skip too): the tolerant reader says so.
    let t = file.text().ok_or(Slow)?;
    let b = t.as_bytes();
    if evaltally_format::damage::has_control(b) {
        return Err(Slow);
    }
    let legacy = shape == Shape::Legacy;
    let members = file.json_members().ok_or(Slow)?;
    let top = |key: &str| member(b, members, key);
    if top("_partial")?.is_some_and(|r| &b[r.clone()] == b"true") {
        return Err(Slow);
    }
    let tests_at = top(shape.tests_key())?.ok_or(Slow)?;
    // The count the result declares, checked against the tests found below.
    let declared = top(shape.total_key())?
        .and_then(|r| serde_json::from_slice::<serde_json::Value>(&b[r.clone()]).ok())
        .and_then(|n| crate::model::fields::as_count(&n));
    // Room for that many tests (at most 4,096, so that a count that lies costs little), so
    // that the list is not copied as it grows.
    let room = declared.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)).min(4096);
    let mut tests = Vec::with_capacity(room);
    only_objects(b, tests_at, |i| {
        let (one, end) = test(t, i)?;
        tests.push(one);
        Ok(end)
    })?;
    if declared.is_some_and(|n| usize::try_from(n).ok() != Some(tests.len())) {
        return Err(Slow);
    }
    let run_tier = string(t, top("tier")?)?;
    let label = if legacy { None } else { string(t, top("label")?)? };
    let name = match label.as_deref().filter(|l| !l.is_empty()) {
        Some(label) => label.to_string(),
        None => file.path.file_name().map_or_else(
            || "gstack".to_string(),
            |n| {
                let n = n.to_string_lossy();
                n.strip_suffix(".json").unwrap_or(&n).to_string()
            },
        ),
    };
    let mut run_costs = Vec::new();
    cost_models(t, top("costs")?, &mut run_costs)?;
    let model = model(&tests, &run_costs);
    let text = |key: &str| -> Result<Option<String>, Slow> { Ok(string(t, top(key)?)?.map(Cow::into_owned)) };
    let meta = RunMeta {
        timestamp: text("timestamp")?,
        git_branch: text(if legacy { "branch" } else { "git_branch" })?,
        git_sha: text("git_sha")?,
        version: text("version")?,
        tier: run_tier.as_deref().map(str::to_string),
        hostname: text("hostname")?,
        prompt_sha: text("prompt_sha")?,
        duration_seconds: if legacy {
            number(b, top("total_duration_ms")?).map(|ms| ms / 1000.0)
        } else {
            number(b, top("duration_seconds")?)
        },
        total_cost_usd: number(b, top("total_cost_usd")?),
        test_set: None,
        setup: None,
        run_id: None,
    };
    let meta = Some(meta).filter(|m| !m.is_empty()).map(Arc::new);
    build(file.path, &name, &model, &tests, run_tier.as_deref(), meta.as_ref())
}

fn build(
    path: &Path,
    name: &str,
    model: &str,
    tests: &[Test<'_>],
    run_tier: Option<&str>,
    meta: Option<&Arc<RunMeta>>,
) -> Result<Vec<CategoryRun>, Slow> {
    fn category<'t>(t: &'t Test<'_>, run_tier: Option<&'t str>) -> &'t str {
        t.category_fields
            .iter()
            .map(Option::as_deref)
            .chain([run_tier])
            .flatten()
            .find(|s| !s.is_empty())
            .unwrap_or("unknown")
    }
    let found: Vec<FoundTest<'_>> = tests
        .iter()
        .map(|t| {
            let outcome = if t.passed { Outcome::Pass } else { Outcome::Fail };
            (category(t, run_tier), t.name.as_ref(), outcome, t.label.as_deref())
        })
        .collect();
    let mut seen = hashbrown::HashSet::with_capacity(found.len());
    if !found.iter().all(|&(category, name, _, _)| seen.insert((category, name))) {
        return Err(Slow);
    }
    Ok(CategoryRun::from_tests(&found, name, model, Some(path), meta))
}

/// [`crate::GstackRun::model`] on the scanned fields.
fn model(tests: &[Test<'_>], run_costs: &[Cow<'_, str>]) -> String {
    fn single<'s>(models: impl Iterator<Item = &'s str>) -> Option<String> {
        let mut distinct: Vec<&str> = models.collect();
        distinct.sort_unstable();
        distinct.dedup();
        (distinct.len() == 1).then(|| distinct[0].to_string())
    }
    if let Some(m) = single(tests.iter().filter_map(|t| t.model.as_deref())) {
        return m;
    }
    let found = if run_costs.is_empty() {
        single(tests.iter().flat_map(|t| t.cost_models.iter()).map(AsRef::as_ref))
    } else {
        single(run_costs.iter().map(AsRef::as_ref))
    };
    found.unwrap_or_else(|| "unknown".to_string())
}
