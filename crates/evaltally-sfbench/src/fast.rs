//! The fast path of `stability` for SF-Bench v2 reports: the run's identity and each
//! instance's id, status, `resolved` flag and error type, found with the pipeline's scanner
//! (`evaltally_format::fields`) while patches, logs and validation details are jumped over.
//!
//! Anything not plainly well-formed (text that is not UTF-8, a repeated key, `instances`
//! that is not a list of objects, a string that does not decode) is a
//! [`Fallback`](evaltally_format::fields::Fallback): the caller reads the report with the
//! tolerant reader ([`crate::sources::read_document`]), which says what is wrong. Both give
//! the same runs.

use std::collections::{BTreeMap, HashSet};

use evaltally_core::{CategoryRun, Outcome};
use evaltally_format::Input;
use evaltally_format::fields::{Fallback, boolean, fields, member, only_objects, string};

use crate::report::{TaskStatus, sfbench_category};
use crate::swebench::InstanceReport;

/// The category runs of a well-formed SF-Bench v2 report, or `None` for the tolerant path.
pub(crate) fn category_runs(file: &Input<'_>) -> Option<Vec<CategoryRun>> {
    runs(file).ok()
}

fn runs(file: &Input<'_>) -> Result<Vec<CategoryRun>, Fallback> {
    let b = file.bytes;
    if std::str::from_utf8(b).is_err() {
        return Err(Fallback);
    }
    let members = file.json_members().ok_or(Fallback)?;
    if file.text_bytes().len() != b.len() {
        return Err(Fallback);
    }
    let top = |key: &str| member(b, members, key);
    let run = match string(b, top("run_id")?)? {
        Some(id) => id.into_owned(),
        None => file.stem(),
    };
    let model = match string(b, top("model_name")?)? {
        Some(m) => Some(m),
        None => string(b, top("model_name_or_path")?)?,
    };
    let model = model.as_deref().unwrap_or("unknown");
    let instances = top("instances")?.ok_or(Fallback)?;
    let mut by_category: BTreeMap<String, CategoryRun> = BTreeMap::new();
    let mut seen = HashSet::new();
    only_objects(b, instances, |i| {
        let ([id, status, resolved, error_type], end) =
            fields(b, i, ["instance_id", "status", "resolved", "error_type"])?;
        let id = string(b, id.as_ref())?.unwrap_or_default();
        let status = string(b, status.as_ref())?.map_or(TaskStatus::Error, |s| TaskStatus::parse(&s));
        if status == TaskStatus::Skipped || !seen.insert(id.clone()) {
            return Ok(end);
        }
        let category = sfbench_category(&id);
        if !by_category.contains_key(category) {
            by_category.insert(category.to_string(), CategoryRun::new(&run, model, category));
        }
        let entry = by_category.get_mut(category).ok_or(Fallback)?;
        if boolean(b, resolved.as_ref()).unwrap_or(false) {
            entry.push(&id, Outcome::Pass, None);
        } else {
            let label = string(b, error_type.as_ref())?;
            entry.push(&id, Outcome::Fail, Some(label.as_deref().unwrap_or(status.as_str())));
        }
        Ok(end)
    })?;
    Ok(by_category.into_values().collect())
}

/// A SWE-bench per-instance report (`{"resolved": …}`, or wrapped in `{instance_id: {…}}`)
/// with the flags its outcome needs (`tests_status` is left out: only `show` and
/// `export` use it), or a [`Fallback`] for the tolerant reader
/// ([`crate::sources::instance_report`]).
pub(crate) fn instance_report(file: &Input<'_>, folder_id: &str) -> Result<InstanceReport, Fallback> {
    let b = file.bytes;
    if std::str::from_utf8(b).is_err() || file.text_bytes().len() != b.len() {
        return Err(Fallback);
    }
    let members = file.json_members().ok_or(Fallback)?;
    let (id, body) = if member(b, members, "resolved")?.is_some() {
        (folder_id.to_string(), None)
    } else if let [only] = members
        && b.get(only.value.start) == Some(&b'{')
    {
        let key = evaltally_format::scan::string_value(&b[(only.key.start - 1)..=only.key.end]).ok_or(Fallback)?;
        (key.into_owned(), Some(only.value.start))
    } else {
        return Err(Fallback);
    };
    let keys = ["resolved", "patch_is_None", "patch_exists", "patch_successfully_applied", "infra_failure"];
    let [resolved, patch_is_none, patch_exists, patch_applied, infra_failure] = if let Some(start) = body {
        fields(b, start, keys)?.0
    } else {
        let mut found: [Option<std::ops::Range<usize>>; 5] = Default::default();
        for (slot, key) in found.iter_mut().zip(keys) {
            *slot = member(b, members, key)?.cloned();
        }
        found
    };
    Ok(InstanceReport {
        instance_id: id,
        resolved: boolean(b, resolved.as_ref()).unwrap_or(false),
        patch_is_none: boolean(b, patch_is_none.as_ref()).unwrap_or(false),
        patch_exists: boolean(b, patch_exists.as_ref()),
        patch_applied: boolean(b, patch_applied.as_ref()),
        infra_failure: boolean(b, infra_failure.as_ref()).unwrap_or(false),
        tests_status: None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The fast reader gives the tolerant reader's report (without `tests_status`), or hands
    /// the document over.
    #[test]
    fn instance_reports_read_as_the_tolerant_reader_reads_them() {
        let docs = [
            r#"{"resolved": true, "patch_exists": true, "tests_status": {"FAIL_TO_PASS": {"success": ["a"]}}}"#,
            r#"{"django__django-1": {"resolved": false, "patch_successfully_applied": false}}"#,
            r#"{"x__y-2": {"resolved": false, "patch_is_None": true, "infra_failure": "yes"}}"#,
            r#"{"x__y-\u0033": {"resolved": "no", "infra_failure": true}}"#,
            r#"{"resolved": false, "resolved": true}"#,
            r#"{"a": {"resolved": true}, "b": {}}"#,
            r#"{"a": [1]}"#,
        ];
        for doc in docs {
            let fast = instance_report(&Input::new(Path::new("report.json"), doc.as_bytes(), false), "folder-id");
            let slow = InstanceReport::from_value(&serde_json::from_str(doc).unwrap(), Some("folder-id"))
                .map(|r| InstanceReport { tests_status: None, ..r });
            // A document handed to the tolerant reader needs no comparison.
            if let Ok(fast) = fast {
                assert_eq!(Some(fast), slow, "{doc}");
            }
        }
        let first = instance_report(&Input::new(Path::new("r.json"), docs[0].as_bytes(), false), "f").ok();
        assert!(first.is_some_and(|r| r.resolved && r.instance_id == "f"));
    }
}
