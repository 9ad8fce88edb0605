//! Validating files of every format, found by the same walk as every other command: each
//! format's validator over the units the registry makes (BFCL file pairs byte by byte,
//! SF-Bench and SWE-bench reports, gstack results with gstack's own validator, JUnit
//! reports).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use evaltally_cache::Cache;
use evaltally_core::Diagnostic;
use evaltally_format::{Options, Purpose};

pub use evaltally_format::FileValidation;

use crate::LoadError;

/// Everything validated below the given paths.
#[derive(Debug, Default)]
pub struct Validated {
    /// One entry per file, in a stable order.
    pub files: Vec<FileValidation>,
    /// Problems finding the files (unreadable folders, links not followed).
    pub diagnostics: Vec<Diagnostic>,
}

/// Validates every file of a known format below `paths`. JSON documents of no known format
/// are passed over (a file given by name is reported as unknown), as is JSON that does not
/// parse only when it is not named `*.json`. gstack results get gstack's own validator, or
/// with `strict` also the checks it lacks ([`evaltally_format::Options::strict`]).
pub fn validate(paths: &[PathBuf], strict: bool) -> Result<Validated, LoadError> {
    validate_as(paths, strict, None)
}

/// [`validate`], reading every file as format `forced` (a name or alias the registry knows)
/// when given: `validate --as`.
pub fn validate_as(paths: &[PathBuf], strict: bool, forced: Option<&'static str>) -> Result<Validated, LoadError> {
    validate_cached(paths, strict, forced, &Cache::disabled())
}

/// [`validate_as`] through the digest cache: a unit whose files are unchanged since it was
/// validated with the same options gives the findings stored then (the same as checking
/// the files again); the others are checked and stored. The walk's folder listings come
/// from the cache too.
///
/// ```
/// use evaltally_cache::Cache;
///
/// let runs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/gstack");
/// let root = tempfile::tempdir()?;
/// let cache = Cache::new(root.path(), "example").settle_after(std::time::Duration::ZERO);
/// let checked = evaltally_analyzer::validate::validate_cached(&[runs.clone()], false, None, &cache)?;
/// cache.flush();
/// let again = evaltally_analyzer::validate::validate_cached(&[runs], false, None, &cache)?;
/// assert_eq!(checked.files, again.files);
/// assert!(cache.stats().hits > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate_cached(
    paths: &[PathBuf],
    strict: bool,
    forced: Option<&'static str>,
    cache: &Cache,
) -> Result<Validated, LoadError> {
    let options = Options { purpose: Purpose::Validate, strict, forced, ..Options::default() };
    let found = crate::load::registry().discover_with(paths, &options, cache)?;
    let results = crate::load::read_units(&found.units, &crate::load::NoProgress, |u, scratch| {
        cache.validate(u, scratch, &options)
    });
    cache.write_behind();
    // A file no format claims by its name, or one a format passes over (BFCL's memory
    // snapshots), is a file not read, said with the others.
    let (unclaimed, mut diagnostics): (Vec<Diagnostic>, Vec<Diagnostic>) =
        found.diagnostics.into_iter().partition(Diagnostic::is_fact_not_read);
    let mut files = Vec::new();
    for r in results {
        files.extend(r.files);
        diagnostics.extend(r.diagnostics);
    }
    // With `--as`, a file the format could not read is still of the format the user named.
    let label = forced.and_then(|f| crate::load::registry().find(f)).map_or("unknown", |f| f.name());
    files.extend(unclaimed.into_iter().map(|d| {
        let path = d.path.clone();
        FileValidation::new(&path, label, vec![evaltally_core::Finding::from_diagnostic(d, "$")])
    }));
    if !files.iter().any(|f| f.format == "unknown" || f.notes().next().is_some()) {
        return Ok(Validated { files, diagnostics });
    }
    // Files read beside another (a HELM run spec, a lighteval results file), each with the
    // file it is read beside, when the unit is one file.
    let mut beside: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    for u in &found.units {
        let own = u.source();
        for input in u.inputs() {
            if Some(input.as_path()) != own {
                beside.insert(input, own.map(Path::to_path_buf));
            }
        }
    }
    // One that no format could read (a broken lighteval results file) is of the format of
    // the file it is read beside.
    let format_of: HashMap<&Path, &str> =
        files.iter().filter(|f| f.format != "unknown").map(|f| (f.path.as_path(), f.format.as_str())).collect();
    let found: Vec<Option<String>> = files
        .iter()
        .map(|f| {
            let by = beside.get(&f.path)?.as_deref()?;
            let format = format_of.get(by)?;
            (f.format == "unknown").then(|| (*format).to_string())
        })
        .collect();
    for (f, format) in files.iter_mut().zip(found) {
        if let Some(format) = format {
            f.format = format;
        }
    }
    // A file read beside another is checked with it, not reported alone.
    let only_notes = |f: &evaltally_format::FileValidation| {
        !f.findings.is_empty() && f.findings.iter().all(|x| x.severity == evaltally_core::Severity::Note)
    };
    files.retain(|f| !(beside.contains_key(&f.path) && only_notes(f)));
    Ok(Validated { files, diagnostics })
}
