//! Reading runs back: select by filters, then the tests of the selected runs in one
//! `COPY … TO STDOUT` ordered by run and position.

use std::collections::HashMap;
use std::io::Read as _;
use std::path::PathBuf;
use std::sync::Arc;

use evaltally_core::{CategoryRun, Outcome, RunMeta, RunRecord, TestRecord};

use crate::{Selection, Store, StoreError};

/// One stored run, as [`Store::select`] finds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredRun {
    /// Its id in the `runs` table.
    pub id: i64,
    /// The run's name.
    pub run: String,
    /// The model.
    pub model: String,
    /// The format it was read from.
    pub format: String,
    /// The path it was pushed from.
    pub source: String,
    /// When it was pushed (seconds since 1970).
    pub pushed_at_unix: i64,
    /// When it started, as written.
    pub started_at: Option<String>,
    /// What it says about itself.
    pub meta: RunMeta,
    /// Its free label.
    pub label: Option<String>,
    /// Tests with a pass or fail outcome (0 until [`Store::count`]).
    pub scored: i64,
    /// Tests that passed (0 until [`Store::count`]).
    pub passed: i64,
    /// The summed cost of its tests, when they record one (`None` until [`Store::count`]).
    pub cost_usd: Option<f64>,
}

impl Store {
    /// The runs `selection` picks, newest first (by timestamp; runs without one after, by
    /// id). Every filter is a parameter of one query.
    pub fn select(&mut self, selection: &Selection) -> Result<Vec<StoredRun>, StoreError> {
        let last = selection.last.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
        let rows = self
            .client
            .query(
                "SELECT r.id, r.run, r.model, r.format, r.source, extract(epoch FROM r.pushed_at)::bigint,
                        r.started_at, r.\"timestamp\", r.branch, r.sha, r.version, r.tier, r.hostname,
                        r.prompt_sha, r.duration_seconds, r.total_cost_usd, r.label
                 FROM runs r
                 WHERE ($1::text IS NULL OR r.run = $1 OR r.source = $1 OR r.digest = $1)
                   AND ($2::text IS NULL OR r.branch = $2)
                   AND ($3::text IS NULL OR r.model = $3)
                   AND ($4::text IS NULL OR r.tier = $4)
                   AND ($5::text IS NULL OR r.\"timestamp\" >= $5)
                 ORDER BY r.\"timestamp\" DESC NULLS LAST, r.id DESC
                 LIMIT $6",
                &[&selection.name, &selection.branch, &selection.model, &selection.tier, &selection.since, &last],
            )
            .map_err(|e| self.query_error("selecting runs", &e))?;
        Ok(rows
            .iter()
            .map(|row| StoredRun {
                id: row.get(0),
                run: row.get(1),
                model: row.get(2),
                format: row.get(3),
                source: row.get(4),
                pushed_at_unix: row.get(5),
                started_at: row.get(6),
                meta: RunMeta {
                    timestamp: row.get(7),
                    git_branch: row.get(8),
                    git_sha: row.get(9),
                    version: row.get(10),
                    tier: row.get(11),
                    hostname: row.get(12),
                    prompt_sha: row.get(13),
                    duration_seconds: row.get(14),
                    total_cost_usd: row.get(15),
                },
                label: row.get(16),
                scored: 0,
                passed: 0,
                cost_usd: None,
            })
            .collect())
    }

    /// Fills in the counts of `runs` (passed, scored, cost) with one grouped query:
    /// [`Store::select`] leaves them out, as reading the runs does not need them.
    pub fn count(&mut self, runs: &mut [StoredRun]) -> Result<(), StoreError> {
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        let rows = self
            .client
            .query(
                "SELECT run_id,
                        count(*) FILTER (WHERE status = 'pass'),
                        count(*) FILTER (WHERE status IN ('pass', 'fail')),
                        sum(cost_usd)
                 FROM results WHERE run_id = ANY($1) GROUP BY run_id",
                &[&ids],
            )
            .map_err(|e| self.query_error("counting results", &e))?;
        let counts: HashMap<i64, (i64, i64, Option<f64>)> =
            rows.iter().map(|r| (r.get(0), (r.get(1), r.get(2), r.get(3)))).collect();
        for run in runs {
            if let Some(&(passed, scored, cost)) = counts.get(&run.id) {
                (run.passed, run.scored, run.cost_usd) = (passed, scored, cost);
            }
        }
        Ok(())
    }

    /// The text of `COPY` of the results of `runs`, ordered by run and position.
    fn copy_results(&mut self, runs: &[StoredRun], columns: &str) -> Result<Vec<u8>, StoreError> {
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        let url = self.url.clone();
        let err = move |e: postgres::Error| StoreError::Query {
            url: url.clone(),
            what: "reading results",
            message: crate::connect::full_message(&e),
        };
        let mut tx = self.client.transaction().map_err(err.clone())?;
        tx.batch_execute("CREATE TEMPORARY TABLE evaltally_selected (id bigint PRIMARY KEY) ON COMMIT DROP")
            .map_err(err.clone())?;
        tx.execute("INSERT INTO evaltally_selected SELECT unnest($1::bigint[])", &[&ids]).map_err(err.clone())?;
        // With its size known the planner reads a few runs by index and many by one scan.
        tx.batch_execute("ANALYZE evaltally_selected").map_err(err.clone())?;
        // No ORDER BY: sorting millions of rows on the server costs more than checking their
        // order here (they come in the order they were written, which is already right).
        let mut reader = tx
            .copy_out(&format!(
                "COPY (SELECT results.run_id, results.position, {columns}
                       FROM results JOIN evaltally_selected s ON s.id = results.run_id) TO STDOUT"
            ))
            .map_err(err.clone())?;
        let mut buf = Vec::new();
        reader.read_to_end(&mut buf).map_err(|e| StoreError::Query {
            url: self.url.clone(),
            what: "reading results",
            message: e.to_string(),
        })?;
        drop(reader);
        tx.commit().map_err(err)?;
        Ok(buf)
    }

    /// Whether each (run, category) was scored.
    fn scored(&mut self, runs: &[StoredRun]) -> Result<HashMap<(i64, String), bool>, StoreError> {
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        let rows = self
            .client
            .query("SELECT run_id, category, scored FROM run_categories WHERE run_id = ANY($1)", &[&ids])
            .map_err(|e| self.query_error("reading categories", &e))?;
        Ok(rows.iter().map(|r| ((r.get(0), r.get(1)), r.get(2))).collect())
    }

    /// The selected runs as the analyses read them: one [`CategoryRun`] per (run,
    /// category), tests in the order they were pushed (`not_run` tests left out). Sources
    /// are `store:<run>`.
    pub fn category_runs(&mut self, runs: &[StoredRun]) -> Result<Vec<CategoryRun>, StoreError> {
        let scored = self.scored(runs)?;
        let text = self.copy_results(runs, "category, test, status, error_type")?;
        let by_id: HashMap<i64, (&StoredRun, Option<Arc<RunMeta>>)> =
            runs.iter().map(|r| (r.id, (r, (!r.meta.is_empty()).then(|| Arc::new(r.meta.clone()))))).collect();
        let mut out: Vec<CategoryRun> = Vec::new();
        // (run id, category) -> index in `out`; rows come grouped by run and, within a run,
        // mostly by category, so the last one is checked first.
        let mut index: HashMap<(i64, String), usize> = HashMap::new();
        let mut last: Option<(i64, Vec<u8>, usize)> = None;
        for line in in_order(&text) {
            let mut f = line.split(|b| *b == b'\t');
            let (Some(id), Some(_position), Some(category), Some(test), Some(status), Some(error_type), None) =
                (f.next(), f.next(), f.next(), f.next(), f.next(), f.next(), f.next())
            else {
                return Err(self.data(0, "a results row without its 6 columns"));
            };
            let id: i64 =
                std::str::from_utf8(id).ok().and_then(|s| s.parse().ok()).ok_or_else(|| self.data(0, "a run id"))?;
            let outcome = match status {
                b"pass" => Outcome::Pass,
                b"fail" => Outcome::Fail,
                b"errored" => Outcome::Errored,
                b"unscored" => Outcome::Unscored,
                b"not_run" => continue,
                other => return Err(self.data(id, &format!("unknown status {:?}", String::from_utf8_lossy(other)))),
            };
            let at = match &last {
                Some((lid, lcat, at)) if *lid == id && lcat.as_slice() == category => *at,
                _ => {
                    let Some((run, meta)) = by_id.get(&id) else { continue };
                    let name = unescape(category).into_owned();
                    let at = if let Some(&at) = index.get(&(id, name.clone())) {
                        at
                    } else {
                        let mut c = CategoryRun::new(run.run.clone(), run.model.clone(), name.clone());
                        c.sources = vec![PathBuf::from(format!("store:{}", run.run))];
                        c.scored = scored.get(&(id, name.clone())).copied().unwrap_or(true);
                        c.meta.clone_from(meta);
                        out.push(c);
                        index.insert((id, name), out.len() - 1);
                        out.len() - 1
                    };
                    last = Some((id, category.to_vec(), at));
                    at
                }
            };
            let test = unescape(test);
            let error_type = (error_type != b"\\N").then(|| unescape(error_type));
            out[at].push(&test, outcome, error_type.as_deref());
        }
        Ok(out)
    }

    /// The selected runs test by test, with tokens, latency, cost and messages.
    pub fn records(&mut self, runs: &[StoredRun]) -> Result<Vec<RunRecord>, StoreError> {
        let text = self.copy_results(
            runs,
            "category, test, status, error_type, error_message, duration_ms, input_tokens, output_tokens, cost_usd",
        )?;
        let mut out: Vec<RunRecord> = runs
            .iter()
            .map(|r| RunRecord {
                run: r.run.clone(),
                model: r.model.clone(),
                format: r.format.clone(),
                source: PathBuf::from(&r.source),
                started_at: r.started_at.clone(),
                meta: r.meta.clone(),
                costs: Vec::new(),
                tests: Vec::new(),
            })
            .collect();
        let index: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        for line in in_order(&text) {
            let f = fields(line);
            let [id, _position, category, test, status, error_type, message, duration, input, output, cost] =
                f.as_slice()
            else {
                return Err(self.data(0, "a results row without its 11 columns"));
            };
            let id: i64 = id.as_deref().and_then(|s| s.parse().ok()).ok_or_else(|| self.data(0, "a run id"))?;
            let Some(&i) = index.get(&id) else { continue };
            let outcome = match status.as_deref() {
                Some("pass") => Some(Outcome::Pass),
                Some("fail") => Some(Outcome::Fail),
                Some("errored") => Some(Outcome::Errored),
                Some("unscored") => Some(Outcome::Unscored),
                Some("not_run") => None,
                other => return Err(self.data(id, &format!("unknown status {other:?}"))),
            };
            out[i].tests.push(TestRecord {
                id: test.clone().unwrap_or_default(),
                category: category.clone().unwrap_or_default(),
                outcome,
                error_type: error_type.clone(),
                error_message: message.clone(),
                duration_ms: duration.as_deref().and_then(|s| s.parse().ok()),
                input_tokens: input.as_deref().and_then(|s| s.parse().ok()),
                output_tokens: output.as_deref().and_then(|s| s.parse().ok()),
                cost_usd: cost.as_deref().and_then(|s| s.parse().ok()),
            });
        }
        Ok(out)
    }

    fn data(&self, run_id: i64, message: &str) -> StoreError {
        StoreError::Data { url: self.url.clone(), run_id, message: message.to_string() }
    }
}

/// The fields of one line of COPY's text format, unescaped (`None` for `\N`).
fn fields(line: &[u8]) -> Vec<Option<String>> {
    line.split(|b| *b == b'\t')
        .map(|raw| {
            if raw == b"\\N" {
                return None;
            }
            let mut out = Vec::with_capacity(raw.len());
            let mut i = 0;
            while i < raw.len() {
                if raw[i] == b'\\' && i + 1 < raw.len() {
                    out.push(match raw[i + 1] {
                        b't' => b'\t',
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b'b' => 8,
                        b'f' => 12,
                        b'v' => 11,
                        other => other,
                    });
                    i += 2;
                } else {
                    out.push(raw[i]);
                    i += 1;
                }
            }
            Some(String::from_utf8_lossy(&out).into_owned())
        })
        .collect()
}

/// One field of COPY's text format, unescaped; borrowed when it has no escape.
fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    if !raw.contains(&b'\\') {
        return String::from_utf8_lossy(raw);
    }
    match fields(raw).pop().flatten() {
        Some(s) => std::borrow::Cow::Owned(s),
        None => std::borrow::Cow::Borrowed(""),
    }
}

/// The (run id, position) a COPY line starts with.
fn key(line: &[u8]) -> (i64, i64) {
    let mut f = line.split(|b| *b == b'\t');
    let mut number = || f.next().and_then(|v| std::str::from_utf8(v).ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    (number(), number())
}

/// The lines of COPY text ordered by run id and position: as they come when they already
/// are (one pass to check), else sorted.
fn in_order(text: &[u8]) -> Box<dyn Iterator<Item = &[u8]> + '_> {
    let lines = || text.split(|b| *b == b'\n').filter(|l| !l.is_empty());
    let mut previous = None;
    let sorted = lines().all(|l| {
        let k = key(l);
        let ok = previous.is_none_or(|p| p < k);
        previous = Some(k);
        ok
    });
    if sorted {
        return Box::new(lines());
    }
    let mut all: Vec<((i64, i64), &[u8])> = lines().map(|l| (key(l), l)).collect();
    all.sort_unstable_by_key(|(k, _)| *k);
    Box::new(all.into_iter().map(|(_, l)| l))
}
