//! promptfoo as a format of the reading pipeline: a `*.json` object whose `results` is an
//! object with `version` and `results`, or a `*.jsonl` file of results, one per line.

use std::path::Path;

use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

/// promptfoo output files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Promptfoo;

/// The one value of [`Promptfoo`], for the registry.
pub static PROMPTFOO: Promptfoo = Promptfoo;

/// Whether the top-level `results` member is an object holding `version` and `results`
/// (looked at with the pipeline's scanner, nothing built).
fn looks_like_output(file: &Input<'_>) -> bool {
    let Some(results) = file.json("results") else { return false };
    let mut keys = (false, false);
    let scanned = evaltally_format::scan::object_at(results, 0, |k, _| match &results[k] {
        b"version" => keys.0 = true,
        b"results" => keys.1 = true,
        _ => {}
    });
    scanned.is_ok() && keys == (true, true)
}

/// Whether the first line of a JSON Lines file is an object with `success`, `provider`
/// and `testIdx` or `promptIdx`: promptfoo's `EvaluateResult`, as `-o out.jsonl` writes
/// one per line.
fn looks_like_result_line(bytes: &[u8]) -> bool {
    let bytes = evaltally_format::json::without_bom(bytes);
    let Some(start) = bytes.iter().position(|c| !c.is_ascii_whitespace()) else { return false };
    let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |e| start + e);
    let line = &bytes[..end];
    let mut keys = (false, false, false);
    // A line holding two results (`}{`, promptfoo 0.99 to 0.114) ends after the first.
    let scanned = evaltally_format::scan::object_at(line, start, |k, _| match &line[k] {
        b"success" => keys.0 = true,
        b"provider" => keys.1 = true,
        b"testIdx" | b"promptIdx" => keys.2 = true,
        _ => {}
    });
    scanned.is_ok() && keys == (true, true, true)
}

impl Format for Promptfoo {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn describe(&self) -> &'static str {
        "  promptfoo output (`promptfoo eval -o out.json`: {results: {version, results}}, or `-o out.jsonl`); each repeat is a run"
    }

    fn noun(&self) -> &'static str {
        "promptfoo results"
    }

    fn claim(&self, path: &Path) -> Claim {
        if evaltally_format::json::is_json_path(path) || crate::eval::is_jsonl(path) { Claim::Sniff } else { Claim::No }
    }

    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        if crate::eval::is_jsonl(file.path) { looks_like_result_line(file.bytes) } else { looks_like_output(file) }
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        crate::read_input(file).map(|read| (read.runs, read.diagnostics)).into()
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        crate::records(file.path, file.bytes).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        crate::show(file.path, file.bytes, test).into()
    }

    /// Results left out and keys repeated in an object are errors; defaults taken are
    /// warnings; each located by JSON path.
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        vec![FileValidation::new(file.path, crate::FORMAT, crate::validate(file.path, file.bytes))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_only_results_with_version_and_results() {
        let yes = |doc: &[u8]| looks_like_output(&Input::new(Path::new("x.json"), doc, false));
        assert!(yes(br#"{"evalId": "e", "results": {"version": 3, "timestamp": "t", "results": []}}"#));
        assert!(yes(b"\xEF\xBB\xBF{\"results\": {\"results\": [], \"version\": 2}}"));
        assert!(!yes(br#"{"results": {"version": 3}}"#));
        assert!(!yes(br#"{"results": [{"version": 3, "results": []}]}"#));
        assert!(!yes(br#"{"model": "m", "results": {"a": 1}, "total_tasks": 1}"#));
        assert!(!yes(br#"[{"results": {"version": 3, "results": []}}]"#));
        assert!(!yes(br#"{"results": {"version": 3, "results": []"#));
    }
}
