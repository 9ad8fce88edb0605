//! The runs of gstack's sharded paid runner, one file per shard.
//!
//! `scripts/test-paid-shards.ts` (gstack ≥ v1.63.0.0) runs the paid test files as shards,
//! several at once, and points each shard's collector at
//! `<evalDir>/shards/<slug>/`; each writes an ordinary result file there, named after its
//! own finish time (`<version>-<branch>-<tier>-<YYYY-MM-DD-HHMM>.json`). One invocation of
//! the runner is one run of the suite, spread over as many files as it has shards, whose
//! names differ in their minutes. No file names the invocation; the files of one are told
//! by their places and names alone:
//!
//! - the same eval folder, version, branch and tier (the name before its date);
//! - each shard at most once: a shard met again starts the next invocation;
//! - finished within [`GAP_MINUTES`] of the one before: a shard finishes at most one shard
//!   timeout (30 minutes by default) after the last, since the next waiting shard starts as
//!   each one ends.
//!
//! The run takes the name of its first file. Shards that record nothing (a timeout leaves
//! only `_partial` saves) are simply absent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The longest time, in minutes, between two shards of one invocation finishing: four
/// times the runner's default shard timeout, for runs given a longer `--timeout`.
pub const GAP_MINUTES: i64 = 120;

/// A shard's file: its eval folder, its shard, the name before its date, when it
/// finished (minutes since 1970), its stem, and its index among the files asked about.
struct ShardFile<'a> {
    eval_dir: &'a Path,
    slug: &'a str,
    prefix: &'a str,
    minute: i64,
    stem: &'a str,
    index: usize,
}

/// The file as a shard's, when it is in `<evalDir>/shards/<slug>/` under a name gstack's
/// collector gives (not a partial save).
fn shard_file(index: usize, path: &Path) -> Option<ShardFile<'_>> {
    let stem = path.file_name()?.to_str()?.strip_suffix(".json")?;
    let folder = path.parent()?;
    let shards = folder.parent()?;
    if shards.file_name()? != "shards" || stem.starts_with("_partial") {
        return None;
    }
    let (prefix, date) = stem.split_at_checked(stem.len().checked_sub(16)?)?;
    let date = date.strip_prefix('-')?;
    let number = |at: std::ops::Range<usize>| -> Option<i64> {
        let digits = date.get(at)?;
        if digits.bytes().all(|b| b.is_ascii_digit()) { digits.parse().ok() } else { None }
    };
    let (y, m, d, hh, mm) = (number(0..4)?, number(5..7)?, number(8..10)?, number(11..13)?, number(13..15)?);
    let separators = [4, 7, 10].iter().all(|&at| date.as_bytes().get(at) == Some(&b'-'));
    if !separators || !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || prefix.is_empty() {
        return None;
    }
    let minute = (evaltally_core::date::days_from_civil(y, m, d) * 24 + hh) * 60 + mm;
    Some(ShardFile {
        eval_dir: shards.parent().unwrap_or(Path::new("")),
        slug: folder.file_name()?.to_str()?,
        prefix,
        minute,
        stem,
        index,
    })
}

/// The run each of `files` is a shard of, named after the run's first file (that file too);
/// `None` for a file outside a `shards/<slug>/` folder and for a shard read alone (see the
/// module).
///
/// ```
/// use std::path::Path;
/// use evaltally_gstack::shards::run_names;
/// let files = [
///     Path::new("evals/shards/skill-e2e-qa/1.66.0.0-main-e2e-2026-08-16-0212.json"),
///     Path::new("evals/shards/skill-e2e-ship/1.66.0.0-main-e2e-2026-08-16-0231.json"),
///     Path::new("evals/shards/skill-e2e-qa/1.66.0.0-main-e2e-2026-08-17-0209.json"),
///     Path::new("evals/1.66.0.0-main-e2e-2026-08-16-0240.json"),
/// ];
/// let night = Some("1.66.0.0-main-e2e-2026-08-16-0212".to_string());
/// assert_eq!(run_names(&files), [night.clone(), night, None, None]);
/// ```
pub fn run_names(files: &[&Path]) -> Vec<Option<String>> {
    let mut out = vec![None; files.len()];
    let mut by_series: BTreeMap<(&Path, &str), Vec<ShardFile<'_>>> = BTreeMap::new();
    for (i, path) in files.iter().enumerate() {
        if let Some(file) = shard_file(i, path) {
            by_series.entry((file.eval_dir, file.prefix)).or_default().push(file);
        }
    }
    for mut series in by_series.into_values() {
        series.sort_by(|a, b| (a.minute, a.stem, a.slug).cmp(&(b.minute, b.stem, b.slug)));
        let mut run: Vec<&ShardFile<'_>> = Vec::new();
        let mut slugs: BTreeSet<&str> = BTreeSet::new();
        for file in &series {
            let apart = run.last().is_some_and(|last| file.minute - last.minute > GAP_MINUTES);
            if apart || slugs.contains(file.slug) {
                name_run(&run, &mut out);
                run.clear();
                slugs.clear();
            }
            slugs.insert(file.slug);
            run.push(file);
        }
        name_run(&run, &mut out);
    }
    out
}

/// Names every file of `run` after its first, when it has more than one file.
fn name_run(run: &[&ShardFile<'_>], out: &mut [Option<String>]) {
    let [first, _, ..] = run else { return };
    for file in run {
        out[file.index] = Some(first.stem.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[&str]) -> Vec<Option<String>> {
        let paths: Vec<&Path> = files.iter().map(Path::new).collect();
        run_names(&paths)
    }

    /// Two nights of three shards each, given out of order: each night is one run, named
    /// after its first shard to finish; every shard of it takes that name.
    #[test]
    fn each_invocation_is_one_run_named_after_its_first_shard() {
        let got = names(&[
            "e/shards/b/1.0-main-e2e-2026-08-16-0231.json",
            "e/shards/a/1.0-main-e2e-2026-08-15-0214.json",
            "e/shards/c/1.0-main-e2e-2026-08-15-0250.json",
            "e/shards/a/1.0-main-e2e-2026-08-16-0212.json",
            "e/shards/b/1.0-main-e2e-2026-08-15-0214.json",
            "e/shards/c/1.0-main-e2e-2026-08-16-0300.json",
        ]);
        let night = |d: &str| Some(format!("1.0-main-e2e-2026-08-{d}"));
        assert_eq!(
            got,
            [
                night("16-0212"),
                night("15-0214"),
                night("15-0214"),
                night("16-0212"),
                night("15-0214"),
                night("16-0212")
            ]
        );
    }

    /// A shard met again starts a new run, however close in time; so do two hours without
    /// a shard finishing; other branches, versions, tiers and eval folders are other series.
    #[test]
    fn a_repeated_shard_a_long_gap_or_another_series_starts_another_run() {
        let repeated =
            names(&["e/shards/a/1.0-main-e2e-2026-08-16-0200.json", "e/shards/a/1.0-main-e2e-2026-08-16-0210.json"]);
        assert_eq!(repeated, [None, None]);
        let gap = names(&[
            "e/shards/a/1.0-main-e2e-2026-08-16-0200.json",
            "e/shards/b/1.0-main-e2e-2026-08-16-0400.json",
            "e/shards/c/1.0-main-e2e-2026-08-16-0601.json",
        ]);
        let first = Some("1.0-main-e2e-2026-08-16-0200".to_string());
        assert_eq!(gap, [first.clone(), first, None]);
        // Across midnight and a month's end, minutes are counted on the calendar.
        let midnight =
            names(&["e/shards/a/1.0-main-e2e-2026-08-31-2350.json", "e/shards/b/1.0-main-e2e-2026-09-01-0010.json"]);
        let first = Some("1.0-main-e2e-2026-08-31-2350".to_string());
        assert_eq!(midnight, [first.clone(), first]);
        let others = names(&[
            "e/shards/a/1.0-main-e2e-2026-08-16-0200.json",
            "e/shards/b/1.0-fix-x-e2e-2026-08-16-0201.json",
            "e/shards/c/1.1-main-e2e-2026-08-16-0202.json",
            "e/shards/d/1.0-main-llm-judge-2026-08-16-0203.json",
            "f/shards/e/1.0-main-e2e-2026-08-16-0204.json",
        ]);
        assert_eq!(others, [None, None, None, None, None]);
    }

    /// Files outside `shards/<slug>/`, partial saves and names gstack does not give are
    /// left as they are.
    #[test]
    fn other_files_keep_their_names() {
        let got = names(&[
            "e/shards/a/1.0-main-e2e-2026-08-16-0200.json",
            "e/shards/b/_partial-e2e.json",
            "e/a/1.0-main-e2e-2026-08-16-0201.json",
            "e/shards/c/results.json",
            "e/shards/d/1.0-main-e2e-2026-13-16-0202.json",
            "shards/e/1.0-main-e2e-2026-08-16-0203.json",
        ]);
        assert_eq!(got, [None, None, None, None, None, None]);
    }
}
