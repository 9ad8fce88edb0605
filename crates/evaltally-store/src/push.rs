//! Pushing runs: one transaction per push, idempotent by digest, results by `COPY`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;

use evaltally_core::{CategoryRun, Outcome, RunMeta, RunRecord, TestRecord};
use xxhash_rust::xxh3::Xxh3;

use crate::{Store, StoreError};

/// Where pushed runs come from.
#[derive(Clone, Debug, Default)]
pub struct PushSource {
    /// The pushed path, as given.
    pub source: String,
    /// The format(s) it was read as (`bfcl`, `gstack`, `bfcl+junit`).
    pub format: String,
    /// The digest of the pushed files ([`PushSource::digest_files`]).
    pub files_digest: String,
    /// Fail after writing everything, before committing: for tests of atomicity.
    #[doc(hidden)]
    pub fail_before_commit: bool,
}

impl PushSource {
    /// The digest of pushed files: XXH3-128 over each file's relative path and bytes, in the
    /// order of the paths (sorted here), as 32 hex digits.
    ///
    /// ```
    /// use evaltally_store::PushSource;
    /// let a = PushSource::digest_files(vec![("b.json".into(), b"2".to_vec()), ("a.json".into(), b"1".to_vec())]);
    /// let b = PushSource::digest_files(vec![("a.json".into(), b"1".to_vec()), ("b.json".into(), b"2".to_vec())]);
    /// assert_eq!(a, b);
    /// assert_eq!(a.len(), 32);
    /// assert_ne!(a, PushSource::digest_files(vec![("a.json".into(), b"1".to_vec())]));
    /// ```
    pub fn digest_files(mut files: Vec<(String, Vec<u8>)>) -> String {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let mut h = Xxh3::new();
        for (path, bytes) in &files {
            h.update(&(path.len() as u64).to_le_bytes());
            h.update(path.as_bytes());
            h.update(&(bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        }
        format!("{:032x}", h.digest128())
    }
}

/// What a push did, run by run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pushed {
    /// Runs added: (run, model, id).
    pub added: Vec<(String, String, i64)>,
    /// Runs the store already held (the same files pushed before): (run, model, id).
    pub already: Vec<(String, String, i64)>,
}

/// The run's digest: the files', its name and its model.
fn run_digest(files_digest: &str, run: &str, model: &str) -> String {
    let mut h = Xxh3::new();
    for part in [files_digest, run, model] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    format!("{:032x}", h.digest128())
}

/// The stored name of a test's status.
pub(crate) fn status_name(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("not_run", Outcome::as_str)
}

/// Appends `value` as a field of COPY's text format (`\N` for none).
fn field(out: &mut String, value: Option<&str>) {
    let Some(v) = value else {
        out.push_str("\\N");
        return;
    };
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

fn number<T: std::fmt::Display>(out: &mut String, value: Option<T>) {
    match value {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("\\N"),
    }
}

/// A float as PostgreSQL reads it back to the same value (Rust prints the shortest exact
/// form); non-finite values are stored as none.
fn float(out: &mut String, value: Option<f64>) {
    number(out, value.filter(|v| v.is_finite()));
}

/// The runs of one push, grouped by (run, model) in the order they come.
struct Group<'a> {
    run: &'a str,
    model: &'a str,
    categories: Vec<&'a CategoryRun>,
    record: Option<&'a RunRecord>,
}

fn groups<'a>(runs: &'a [CategoryRun], records: &'a [RunRecord]) -> Vec<Group<'a>> {
    let mut out: Vec<Group<'a>> = Vec::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for r in runs {
        let key = (r.run.as_str(), r.model.as_str());
        let i = *index.entry(key).or_insert_with(|| {
            out.push(Group { run: &r.run, model: &r.model, categories: Vec::new(), record: None });
            out.len() - 1
        });
        out[i].categories.push(r);
    }
    for rec in records {
        let key = (rec.run.as_str(), rec.model.as_str());
        if let Some(&i) = index.get(&key) {
            out[i].record = Some(rec);
        } else {
            // A run only the record reading knows (no test the analyses count).
            index.insert(key, out.len());
            out.push(Group { run: &rec.run, model: &rec.model, categories: Vec::new(), record: Some(rec) });
        }
    }
    out
}

impl Store {
    /// Pushes the runs read from one path, `runs` as the analyses read them and `records`
    /// with the per-test details (tokens, latency, cost, messages), in one transaction.
    ///
    /// Statuses come from `runs`; a test only `records` lists is stored as `not_run`.
    pub fn push(
        &mut self,
        from: &PushSource,
        runs: &[CategoryRun],
        records: &[RunRecord],
    ) -> Result<Pushed, StoreError> {
        let url = self.url.clone();
        let err = |what: &'static str| {
            let url = url.clone();
            move |e: postgres::Error| StoreError::Query { url, what, message: crate::connect::full_message(&e) }
        };
        let mut pushed = Pushed::default();
        let mut tx = self.client.transaction().map_err(err("starting the push"))?;
        for g in groups(runs, records) {
            let digest = run_digest(&from.files_digest, g.run, g.model);
            let empty = RunMeta::default();
            let meta: &RunMeta = g
                .record
                .map(|r| &r.meta)
                .or_else(|| g.categories.iter().find_map(|c| c.meta.as_deref()))
                .unwrap_or(&empty);
            let format = g.record.map_or(from.format.as_str(), |r| r.format.as_str());
            let started_at = g.record.and_then(|r| r.started_at.as_deref());
            let row = tx
                .query_opt(
                    "INSERT INTO runs (digest, source_digest, run, model, format, source, \"timestamp\", started_at,
                                       branch, sha, version, tier, hostname, prompt_sha, duration_seconds, total_cost_usd)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
                     ON CONFLICT (digest) DO NOTHING
                     RETURNING id",
                    &[
                        &digest,
                        &from.files_digest,
                        &g.run,
                        &g.model,
                        &format,
                        &from.source,
                        &meta.timestamp,
                        &started_at,
                        &meta.git_branch,
                        &meta.git_sha,
                        &meta.version,
                        &meta.tier,
                        &meta.hostname,
                        &meta.prompt_sha,
                        &meta.duration_seconds,
                        &meta.total_cost_usd,
                    ],
                )
                .map_err(err("adding a run"))?;
            let Some(row) = row else {
                let id: i64 = tx
                    .query_one("SELECT id FROM runs WHERE digest = $1", &[&digest])
                    .map_err(err("finding a run pushed before"))?
                    .get(0);
                pushed.already.push((g.run.to_string(), g.model.to_string(), id));
                continue;
            };
            let id: i64 = row.get(0);
            for c in &g.categories {
                tx.execute(
                    "INSERT INTO run_categories (run_id, category, scored) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                    &[&id, &c.category, &c.scored],
                )
                .map_err(err("adding a run's category"))?;
            }
            let text = copy_rows(id, &g);
            let mut writer = tx
                .copy_in(
                    "COPY results (run_id, position, model, category, test, status, error_type, error_message,
                                   duration_ms, input_tokens, output_tokens, cost_usd) FROM STDIN",
                )
                .map_err(err("adding results"))?;
            writer.write_all(text.as_bytes()).map_err(|e| StoreError::Query {
                url: self.url.clone(),
                what: "adding results",
                message: match e.get_ref().and_then(|inner| inner.downcast_ref::<postgres::Error>()) {
                    Some(pg) => crate::connect::full_message(pg),
                    None if crate::connect::is_lost(&e) => crate::connect::LOST.to_string(),
                    None => e.to_string(),
                },
            })?;
            writer.finish().map_err(err("adding results"))?;
            pushed.added.push((g.run.to_string(), g.model.to_string(), id));
        }
        if from.fail_before_commit {
            return Err(StoreError::Query {
                url: self.url.clone(),
                what: "pushing",
                message: "stopped before committing (test)".into(),
            });
        }
        if !pushed.added.is_empty() {
            // Heard by `evaltally serve` (`Store::listen`) once the push is committed.
            let ids: Vec<String> = pushed.added.iter().map(|(_, _, id)| id.to_string()).collect();
            tx.execute("SELECT pg_notify($1, $2)", &[&crate::CHANNEL, &ids.join(",")])
                .map_err(err("announcing the push"))?;
        }
        tx.commit().map_err(err("committing the push"))?;
        Ok(pushed)
    }
}

/// The results of one run as COPY text rows.
fn copy_rows(id: i64, g: &Group<'_>) -> String {
    let details: HashMap<(&str, &str), &TestRecord> = g
        .record
        .map(|r| r.tests.iter().map(|t| ((t.category.as_str(), t.id.as_str()), t)).collect())
        .unwrap_or_default();
    let mut seen: std::collections::HashSet<(&str, &str)> = std::collections::HashSet::new();
    let mut out = String::new();
    let mut position: i64 = 0;
    let mut row = |out: &mut String,
                   category: &str,
                   test: &str,
                   status: &str,
                   error_type: Option<&str>,
                   t: Option<&TestRecord>| {
        let _ = write!(out, "{id}\t{position}\t");
        position += 1;
        field(out, Some(g.model));
        out.push('\t');
        field(out, Some(category));
        out.push('\t');
        field(out, Some(test));
        out.push('\t');
        out.push_str(status);
        out.push('\t');
        field(out, error_type);
        out.push('\t');
        field(out, t.and_then(|t| t.error_message.as_deref()));
        out.push('\t');
        float(out, t.and_then(|t| t.duration_ms));
        out.push('\t');
        number(out, t.and_then(|t| t.input_tokens).and_then(|v| i64::try_from(v).ok()));
        out.push('\t');
        number(out, t.and_then(|t| t.output_tokens).and_then(|v| i64::try_from(v).ok()));
        out.push('\t');
        float(out, t.and_then(|t| t.cost_usd));
        out.push('\n');
    };
    for c in &g.categories {
        for t in c.tests() {
            seen.insert((c.category.as_str(), t.id));
            let detail = details.get(&(c.category.as_str(), t.id)).copied();
            row(
                &mut out,
                &c.category,
                t.id,
                status_name(Some(t.outcome)),
                t.error_type.map(evaltally_core::ErrorType::as_str),
                detail,
            );
        }
    }
    if let Some(r) = g.record {
        for t in &r.tests {
            if !seen.contains(&(t.category.as_str(), t.id.as_str())) {
                row(&mut out, &t.category, &t.id, status_name(t.outcome), t.error_type.as_deref(), Some(t));
            }
        }
    }
    out
}
