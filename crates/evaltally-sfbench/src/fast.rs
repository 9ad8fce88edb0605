//! The fast path of `stability` for SF-Bench v2 reports: the run's identity and each
//! instance's id, status, `resolved` flag and error type, found with the pipeline's scanner
//! (`evaltally_format::fields`) while patches, logs and validation details are jumped over.
//!
//! Anything not plainly well-formed (text that is not UTF-8, a repeated key, `instances`
//! that is not a list of objects, a string that does not decode, a repeated instance, a
//! `resolved` that is not a boolean) is a
//! [`Fallback`](evaltally_format::fields::Fallback): the caller reads the report with the
//! tolerant reader ([`crate::sources::read_document`]), which says what is wrong. Both give
//! the same runs.

use std::borrow::Cow;

use evaltally_core::{CategoryRun, FoundTest, Outcome};
use evaltally_format::Input;
use evaltally_format::fields::{Fallback, boolean, fields, member, string};
use evaltally_format::scan::{array_at, object_members_walking, value_end};

use crate::report::{TaskStatus, sfbench_category};

/// The category runs of a well-formed SF-Bench v2 report, or `None` for the tolerant path.
pub(crate) fn category_runs(file: &Input<'_>) -> Option<Vec<CategoryRun>> {
    runs(file).ok()
}

/// What one instance gave: its id, outcome and error label (`None` for a pass).
type Found<'a> = (Cow<'a, str>, Outcome, Option<Cow<'a, str>>);

/// One pass over the report: the top level, and the instances in place (a report is mostly
/// its instances, so they are walked once, not skipped and then walked).
fn runs(file: &Input<'_>) -> Result<Vec<CategoryRun>, Fallback> {
    let t = file.text().ok_or(Fallback)?;
    let b = t.as_bytes();
    // A raw control character, in a field this path would skip too: the tolerant reader
    // says so.
    if evaltally_format::damage::has_control(b) {
        return Err(Fallback);
    }
    // Sized for an instance per KiB of report, at most 4,096: grown eight times over a
    // report of 300 instances, the set cost 2% of reading it.
    let instances = (b.len() / 1024).min(4096);
    let mut found: Vec<Found<'_>> = Vec::with_capacity(instances);
    let mut seen = hashbrown::HashSet::with_capacity(instances);
    // Set by an instance the tolerant reader must read; the rest is only skipped.
    let mut failed = false;
    let members = object_members_walking(b, b"instances", |start| {
        array_at(b, start, |i| {
            if failed || b[i] != b'{' {
                failed = true;
                return value_end(b, i);
            }
            if let Ok(end) = instance(t, i, &mut seen, &mut found) {
                Ok(end)
            } else {
                failed = true;
                value_end(b, i)
            }
        })
    })
    .map_err(|_| Fallback)?;
    let top = |key: &str| member(b, &members, key);
    if failed || top("instances")?.is_none() {
        return Err(Fallback);
    }
    let run = match string(t, top("run_id")?)? {
        Some(id) => id.into_owned(),
        None => file.stem(),
    };
    let model = match string(t, top("model_name")?)? {
        Some(m) => Some(m),
        None => string(t, top("model_name_or_path")?)?,
    };
    let model = model.as_deref().unwrap_or("unknown");
    let started = match string(t, top("start_time")?)? {
        Some(t) => Some(t),
        None => string(t, top("created_at")?)?,
    };
    let meta = crate::report::run_meta(started.as_deref());
    // A skipped id that is also run is the run's; one skipped twice is one test (only a
    // skipped instance is unscored here).
    if found.iter().any(|f| f.1 == Outcome::Unscored) {
        let mut skipped = hashbrown::HashSet::new();
        found.retain(|(id, outcome, _)| {
            *outcome != Outcome::Unscored || (!seen.contains(id) && skipped.insert(id.clone()))
        });
    }
    let tests: Vec<FoundTest<'_>> = found
        .iter()
        .map(|(id, outcome, label)| (sfbench_category(id), id.as_ref(), *outcome, label.as_deref()))
        .collect();
    let mut runs = CategoryRun::from_tests(&tests, &run, model, None, meta.as_ref());
    // Task families in byte order, as the tolerant reader gives them.
    runs.sort_by(|a, b| a.category.cmp(&b.category));
    Ok(runs)
}

/// The instance object at `b[i]`: its outcome goes to `found` (a skipped one as
/// unscored); returns the offset just past it.
fn instance<'a>(
    t: &'a str,
    i: usize,
    seen: &mut hashbrown::HashSet<Cow<'a, str>>,
    found: &mut Vec<Found<'a>>,
) -> Result<usize, Fallback> {
    let b = t.as_bytes();
    let ([id, status, resolved, error_type], end) = fields(b, i, ["instance_id", "status", "resolved", "error_type"])?;
    // An id that is missing, empty or not a string is the tolerant reader's to report.
    let id = string(t, id.as_ref())?.filter(|id| !id.is_empty()).ok_or(Fallback)?;
    let status = string(t, status.as_ref())?.map_or(TaskStatus::Error, |s| TaskStatus::parse(&s));
    // A `resolved` that is not a boolean, or a repeated instance, is the tolerant reader's
    // to report.
    if resolved.as_ref().is_some_and(|r| boolean(b, Some(r)).is_none()) {
        return Err(Fallback);
    }
    // Not run: unscored, labelled `skipped` (left out below when its id is also run).
    if status == TaskStatus::Skipped {
        found.push((id, Outcome::Unscored, Some(Cow::Borrowed("skipped"))));
        return Ok(end);
    }
    if !seen.insert(id.clone()) {
        return Err(Fallback);
    }
    if boolean(b, resolved.as_ref()).unwrap_or(false) {
        found.push((id, Outcome::Pass, None));
    } else {
        let outcome = status.unresolved_outcome();
        let label = match string(t, error_type.as_ref())? {
            Some(label) => label,
            None => match status {
                TaskStatus::Other(s) => Cow::Owned(s),
                TaskStatus::Fail => Cow::Borrowed("fail"),
                TaskStatus::Error => Cow::Borrowed("error"),
                known => Cow::Owned(known.as_str().to_owned()),
            },
        };
        found.push((id, outcome, Some(label)));
    }
    Ok(end)
}
