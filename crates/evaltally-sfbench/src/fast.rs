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

use std::collections::BTreeMap;

use evaltally_core::{CategoryRun, Outcome};
use evaltally_format::Input;
use evaltally_format::fields::{Fallback, boolean, fields, member, only_objects, string};

use crate::report::{TaskStatus, sfbench_category};

/// The category runs of a well-formed SF-Bench v2 report, or `None` for the tolerant path.
pub(crate) fn category_runs(file: &Input<'_>) -> Option<Vec<CategoryRun>> {
    runs(file).ok()
}

fn runs(file: &Input<'_>) -> Result<Vec<CategoryRun>, Fallback> {
    let t = file.text().ok_or(Fallback)?;
    let b = t.as_bytes();
    let members = file.json_members().ok_or(Fallback)?;
    let top = |key: &str| member(b, members, key);
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
    let instances = top("instances")?.ok_or(Fallback)?;
    // Category runs, and where each is, by name (returned in name order).
    let mut categories: Vec<CategoryRun> = Vec::new();
    let mut by_category: BTreeMap<String, usize> = BTreeMap::new();
    let mut last: Option<(String, usize)> = None;
    let mut seen = hashbrown::HashSet::new();
    only_objects(b, instances, |i| {
        let ([id, status, resolved, error_type], end) =
            fields(b, i, ["instance_id", "status", "resolved", "error_type"])?;
        let id = string(t, id.as_ref())?.unwrap_or_default();
        let status = string(t, status.as_ref())?.map_or(TaskStatus::Error, |s| TaskStatus::parse(&s));
        // A `resolved` that is not a boolean, or a repeated instance, is the tolerant reader's
        // to report.
        if resolved.as_ref().is_some_and(|r| boolean(b, Some(r)).is_none()) {
            return Err(Fallback);
        }
        if status == TaskStatus::Skipped {
            return Ok(end);
        }
        if !seen.insert(id.clone()) {
            return Err(Fallback);
        }
        let category = sfbench_category(&id);
        // Instances of a category mostly come together: the last category is tried first.
        let entry = match last.as_ref() {
            Some((name, at)) if name == category => &mut categories[*at],
            _ => {
                let at = *by_category.entry(category.to_string()).or_insert_with(|| {
                    let mut c = CategoryRun::new(&run, model, category);
                    c.meta.clone_from(&meta);
                    categories.push(c);
                    categories.len() - 1
                });
                last = Some((category.to_string(), at));
                &mut categories[at]
            }
        };
        if boolean(b, resolved.as_ref()).unwrap_or(false) {
            entry.push(&id, Outcome::Pass, None);
        } else {
            let label = string(t, error_type.as_ref())?;
            entry.push(&id, status.unresolved_outcome(), Some(label.as_deref().unwrap_or(status.as_str())));
        }
        Ok(end)
    })?;
    let mut categories: Vec<Option<CategoryRun>> = categories.into_iter().map(Some).collect();
    Ok(by_category.into_values().filter_map(|at| categories[at].take()).collect())
}
