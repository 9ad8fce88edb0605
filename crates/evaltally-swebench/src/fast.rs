//! The fast path of `stability` for a run's folder of per-instance reports: each report's
//! flags, found with the pipeline's scanner (`evaltally_format::fields`) while
//! `tests_status` is jumped over.
//!
//! Anything not plainly well-formed (text that is not UTF-8, a repeated key, a wrapper that
//! is not one object) is a [`Fallback`]: the caller reads the report with the tolerant
//! reader ([`crate::sources::instance_report`]), which says what is wrong. Both give the
//! same report.

use std::borrow::Cow;

use evaltally_format::Input;
use evaltally_format::fields::{Fallback, boolean, fields, member, string};

use crate::report::InstanceReport;

/// A SWE-bench per-instance report (`{"resolved": …}`, or wrapped in `{instance_id: {…}}`)
/// with the flags its outcome needs (`tests_status` is left out: only `show` and
/// `export` use it), or a [`Fallback`] for the tolerant reader
/// ([`crate::sources::instance_report`]).
pub(crate) fn instance_report(file: &Input<'_>, folder_id: &str) -> Result<InstanceReport, Fallback> {
    let t = file.text().ok_or(Fallback)?;
    let b = t.as_bytes();
    let members = file.json_members().ok_or(Fallback)?;
    let (id, body) = if member(b, members, "resolved")?.is_some() {
        (folder_id.to_string(), None)
    } else if let [only] = members
        && b.get(only.value.start) == Some(&b'{')
    {
        let key = evaltally_format::scan::string_value(&b[(only.key.start - 1)..=only.key.end]).ok_or(Fallback)?;
        // A key that differs from the folder is the tolerant reader's to report.
        if key != folder_id {
            return Err(Fallback);
        }
        (key.into_owned(), Some(only.value.start))
    } else {
        return Err(Fallback);
    };
    let keys = [
        "resolved",
        "patch_is_None",
        "patch_exists",
        "patch_successfully_applied",
        "infra_failure",
        "model_name_or_path",
    ];
    let [resolved, patch_is_none, patch_exists, patch_applied, infra_failure, model] = if let Some(start) = body {
        fields(b, start, keys)?.0
    } else {
        let mut found: [Option<std::ops::Range<usize>>; 6] = Default::default();
        for (slot, key) in found.iter_mut().zip(keys) {
            *slot = member(b, members, key)?.cloned();
        }
        found
    };
    // A flag that is there and not a boolean is the tolerant reader's to report.
    let flag = |raw: Option<std::ops::Range<usize>>| match raw {
        None => Ok(None),
        Some(r) => boolean(b, Some(&r)).map(Some).ok_or(Fallback),
    };
    Ok(InstanceReport {
        instance_id: id,
        resolved: flag(resolved)?.unwrap_or(false),
        patch_is_none: flag(patch_is_none)?.unwrap_or(false),
        patch_exists: flag(patch_exists)?,
        patch_applied: flag(patch_applied)?,
        infra_failure: flag(infra_failure)?.unwrap_or(false),
        timed_out: false,
        graded: true,
        tests_status: None,
        model: string(t, model.as_ref())?.map(Cow::into_owned),
        notes: Vec::new(),
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
            r#"{"folder-id": {"resolved": "yes"}}"#,
            r#"{"other-id": {"resolved": true}}"#,
            r#"{"resolved": null}"#,
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
        // What the tolerant reader notes is never read by the fast path.
        for doc in &docs[7..] {
            assert!(
                instance_report(&Input::new(Path::new("report.json"), doc.as_bytes(), false), "folder-id").is_err()
            );
        }
        // SWE-smith's reports name their model; both readers read it, escapes decoded.
        for (doc, model) in [
            (
                r#"{"resolved": true, "patch_exists": true, "model_name_or_path": "acme/agent-1.5"}"#,
                Some("acme/agent-1.5"),
            ),
            (r#"{"folder-id": {"resolved": false, "model_name_or_path": "acme\u002fagent"}}"#, Some("acme/agent")),
            (r#"{"resolved": false, "patch_exists": true, "model_name_or_path": null}"#, None),
        ] {
            let fast = instance_report(&Input::new(Path::new("report.json"), doc.as_bytes(), false), "folder-id");
            let slow = InstanceReport::from_value(&serde_json::from_str(doc).unwrap(), Some("folder-id")).unwrap();
            assert_eq!(fast.ok().map(|r| r.model), Some(model.map(str::to_string)), "{doc}");
            assert_eq!(slow.model.as_deref(), model, "{doc}");
        }
    }
}
