//! Reading runs back: select by filters, then the tests of the selected runs in one
//! `COPY … TO STDOUT` ordered by run and position.

use std::borrow::Cow;
use std::collections::HashMap;
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
    /// id). Every filter is a parameter of one query. `last=N` keeps the runs of the N most
    /// recent pushes among those the other filters keep, as a folder store counts its
    /// entries (a push of three runs counts once): pushes ordered by the earliest date any of
    /// their runs records, those that record none after, the last pushed first.
    pub fn select(&mut self, selection: &Selection) -> Result<Vec<StoredRun>, StoreError> {
        let last = selection.last.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
        let rows = self
            .client
            .query(
                "WITH kept AS (
                     SELECT * FROM runs r
                     WHERE ($1::text IS NULL OR r.run = $1 OR r.source = $1 OR r.digest = $1)
                       AND ($2::text IS NULL OR r.branch = $2)
                       AND ($3::text IS NULL OR r.model = $3)
                       AND ($4::text IS NULL OR r.tier = $4)
                       AND ($5::text IS NULL OR r.\"timestamp\" >= $5)
                 ), pushes AS (
                     SELECT p.source_digest FROM runs p
                     WHERE p.source_digest IN (SELECT source_digest FROM kept)
                     GROUP BY p.source_digest
                     ORDER BY min(p.\"timestamp\") DESC NULLS LAST, max(p.id) DESC
                     LIMIT $6
                 )
                 SELECT r.id, r.run, r.model, r.format, r.source, extract(epoch FROM r.pushed_at)::bigint,
                        r.started_at, r.\"timestamp\", r.branch, r.sha, r.version, r.tier, r.hostname,
                        r.prompt_sha, r.duration_seconds, r.total_cost_usd, r.label
                 FROM kept r
                 WHERE r.source_digest IN (SELECT source_digest FROM pushes)
                 ORDER BY r.\"timestamp\" DESC NULLS LAST, r.id DESC",
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
                    // Not kept in the store (see `RunMeta::test_set`, `RunMeta::setup`,
                    // `RunMeta::run_id`): inputs to checks made as runs are read.
                    test_set: None,
                    setup: None,
                    run_id: None,
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
    ///
    /// Many runs are read in parts, each over a connection of its own on a thread of its own
    /// (up to the cores there are, a part per 64 runs at least), so that the server produces
    /// and this process parses the rows on every core; each part's `COPY` is parsed as it
    /// arrives.
    pub fn category_runs(&mut self, runs: &[StoredRun]) -> Result<Vec<CategoryRun>, StoreError> {
        let scored = self.scored(runs)?;
        let by_id: HashMap<i64, (&StoredRun, Option<Arc<RunMeta>>)> =
            runs.iter().map(|r| (r.id, (r, (!r.meta.is_empty()).then(|| Arc::new(r.meta.clone()))))).collect();
        let url = self.url.as_str();
        let parts = self.read_parallel(runs, CATEGORY_COLUMNS, || CategorySink::new(url, &by_id, &scored))?;
        Ok(parts.into_iter().flat_map(|p| p.out).collect())
    }

    /// The rows of `runs` read into sinks `make` gives, in parts (one per core, up to 4, a
    /// part per [`RUNS_PER_PART`] runs at least), each over a connection of its own on a
    /// thread of its own; the parts come in the order of the runs' ids.
    fn read_parallel<S: Sink>(
        &self,
        runs: &[StoredRun],
        columns: &str,
        make: impl Fn() -> S + Sync,
    ) -> Result<Vec<S>, StoreError> {
        let mut ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        // By id: the order they were pushed in, which is the order of the table's rows.
        ids.sort_unstable();
        ids.dedup();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(4);
        let parts = cores.min(ids.len().div_ceil(RUNS_PER_PART)).max(1);
        let chunks: Vec<&[i64]> = ids.chunks(ids.len().div_ceil(parts).max(1)).collect();
        let (target, url, make) = (&self.target, self.url.as_str(), &make);
        let read: Vec<Result<S, StoreError>> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                chunks.iter().map(|chunk| scope.spawn(move || read_part(target, url, chunk, columns, make))).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(StoreError::Query {
                            url: url.to_string(),
                            what: "reading results",
                            message: "a reading thread failed".into(),
                        })
                    })
                })
                .collect()
        });
        read.into_iter().collect()
    }

    /// The selected runs test by test, with tokens, latency, cost and messages.
    pub fn records(&mut self, runs: &[StoredRun]) -> Result<Vec<RunRecord>, StoreError> {
        let url = self.url.as_str();
        let parts = self.read_parallel(runs, RECORD_COLUMNS, || RecordSink { url, tests: HashMap::new() })?;
        let mut tests: HashMap<i64, Vec<TestRecord>> = parts.into_iter().flat_map(|p| p.tests).collect();
        Ok(runs
            .iter()
            .map(|r| RunRecord {
                run: r.run.clone(),
                model: r.model.clone(),
                format: r.format.clone(),
                source: PathBuf::from(&r.source),
                started_at: r.started_at.clone(),
                meta: r.meta.clone(),
                costs: Vec::new(),
                tests: tests.remove(&r.id).unwrap_or_default(),
            })
            .collect())
    }
}

/// Runs per part at least, when reading is split over connections.
const RUNS_PER_PART: usize = 64;

/// The columns [`Store::category_runs`] reads (after the run id and position).
const CATEGORY_COLUMNS: &str = "category, test, status, error_type";

/// The columns [`Store::records`] reads (after the run id and position).
const RECORD_COLUMNS: &str =
    "category, test, status, error_type, error_message, duration_ms, input_tokens, output_tokens, cost_usd";

/// What the rows of a part are read into.
trait Sink: Send {
    /// Adds a row of run `id`: `rest` is the `COPY` text that follows its id and position.
    fn row(&mut self, id: i64, rest: &[u8]) -> Result<(), StoreError>;
}

/// Reads the results of runs `ids` (columns `columns` after the run id and position) over
/// a connection of its own into `sink`, parsing each row as it comes.
fn read_part<S: Sink>(
    target: &crate::connect::Target,
    url: &str,
    ids: &[i64],
    columns: &str,
    make: &(impl Fn() -> S + Sync),
) -> Result<S, StoreError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StoreError::Query { url: url.to_string(), what: "reading results", message: e.to_string() })?;
    runtime.block_on(async {
        let (client, driver) = crate::connect::connect_async(target).await?;
        let read = read_rows(&client, url, ids, columns, make).await;
        // Closing cleanly (a Terminate message, not a reset connection).
        drop(client);
        let _ = driver.await;
        read
    })
}

/// [`read_part`]'s statements and rows, over `client`.
async fn read_rows<S: Sink>(
    client: &tokio_postgres::Client,
    url: &str,
    ids: &[i64],
    columns: &str,
    make: &(impl Fn() -> S + Sync),
) -> Result<S, StoreError> {
    use futures_util::StreamExt as _;
    let err = |e: &postgres::Error| StoreError::Query {
        url: url.to_string(),
        what: "reading results",
        message: crate::connect::full_message(e),
    };
    // A sequential scan joining another one in progress (or starting where the last one
    // stopped) would hand the rows over from the middle of the table: out of order.
    client.batch_execute("SET synchronize_seqscans = off").await.map_err(|e| err(&e))?;
    client
        .batch_execute("CREATE TEMPORARY TABLE evaltally_selected (id bigint PRIMARY KEY)")
        .await
        .map_err(|e| err(&e))?;
    client.execute("INSERT INTO evaltally_selected SELECT unnest($1::bigint[])", &[&ids]).await.map_err(|e| err(&e))?;
    // With its size known the planner reads a few runs by index and many by one scan.
    client.batch_execute("ANALYZE evaltally_selected").await.map_err(|e| err(&e))?;
    // No ORDER BY: sorting millions of rows on the server costs more than checking their
    // order here (they come in the order they were written, which is already right).
    let stream = client
        .copy_out(&format!(
            "COPY (SELECT results.run_id, results.position, {columns}
                   FROM results JOIN evaltally_selected s ON s.id = results.run_id) TO STDOUT"
        ))
        .await
        .map_err(|e| err(&e))?;
    let mut stream = std::pin::pin!(stream);
    let mut framer = Framer { url, pending: Vec::new(), previous: None, in_order: true };
    let mut sink = make();
    // Every row is kept, to be read again sorted should they come out of order.
    let mut kept: Vec<u8> = Vec::new();
    while let Some(data) = stream.next().await {
        let data = data.map_err(|e| err(&e))?;
        kept.extend_from_slice(&data);
        if framer.in_order {
            framer.feed(&data, &mut sink)?;
        }
    }
    if framer.in_order {
        framer.finish()?;
        return Ok(sink);
    }
    // Rows out of (run, position) order (written into space that deleted runs left, or moved
    // by an update): all of them again, sorted here, into a new sink.
    let mut lines: Vec<((i64, i64), &[u8])> =
        kept.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(|l| (key(l), l)).collect();
    lines.sort_unstable_by_key(|(k, _)| *k);
    let mut framer = Framer { url, pending: Vec::new(), previous: None, in_order: true };
    let mut sink = make();
    for (_, line) in lines {
        framer.line(line, &mut sink)?;
        if !framer.in_order {
            return Err(framer.data(0, "two results rows of one run at the same position"));
        }
    }
    Ok(sink)
}

/// The (run id, position) a row of `COPY` text starts with ((0, 0) when it cannot be read:
/// reading it then says what is wrong).
fn key(line: &[u8]) -> (i64, i64) {
    let mut fields = line.split(|b| *b == b'\t');
    let mut next = || fields.next().and_then(number).unwrap_or(0);
    (next(), next())
}

/// `COPY` text cut into rows, checked to come in (run, position) order, each handed to a
/// sink with its run id.
struct Framer<'a> {
    url: &'a str,
    /// The start of a row that the last message did not end (the server sends a row per
    /// message, so this stays empty).
    pending: Vec<u8>,
    /// The (run id, position) of the last row.
    previous: Option<(i64, i64)>,
    /// Whether every row so far came after the one before.
    in_order: bool,
}

impl Framer<'_> {
    fn data(&self, run_id: i64, message: &str) -> StoreError {
        StoreError::Data { url: self.url.to_string(), run_id, message: message.to_string() }
    }

    /// Adds the rows of one message of `COPY` data: one whole row, as the server sends them,
    /// or any run of bytes.
    fn feed(&mut self, data: &[u8], sink: &mut impl Sink) -> Result<(), StoreError> {
        if self.pending.is_empty()
            && let Some((b'\n', row)) = data.split_last()
            && !row.contains(&b'\n')
        {
            return self.line(row, sink);
        }
        self.pending.extend_from_slice(data);
        let Some(end) = self.pending.iter().rposition(|b| *b == b'\n') else { return Ok(()) };
        let rest = self.pending.split_off(end + 1);
        let whole = std::mem::replace(&mut self.pending, rest);
        for line in whole.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            self.line(line, sink)?;
            if !self.in_order {
                break;
            }
        }
        Ok(())
    }

    /// One row without its newline: its run id and position read and checked; a row out of
    /// order only clears `in_order`.
    fn line(&mut self, line: &[u8], sink: &mut impl Sink) -> Result<(), StoreError> {
        let mut tabs = line.iter().enumerate().filter(|(_, b)| **b == b'\t').map(|(i, _)| i);
        let (Some(first), Some(second)) = (tabs.next(), tabs.next()) else {
            return Err(self.data(0, "a results row without its run id and position"));
        };
        let id = number(&line[..first]).ok_or_else(|| self.data(0, "a run id"))?;
        let position = number(&line[first + 1..second]).ok_or_else(|| self.data(id, "a position"))?;
        if self.previous.is_some_and(|p| p >= (id, position)) {
            self.in_order = false;
            return Ok(());
        }
        self.previous = Some((id, position));
        sink.row(id, &line[second + 1..])
    }

    /// Checks nothing was left half way.
    fn finish(&self) -> Result<(), StoreError> {
        if self.pending.is_empty() { Ok(()) } else { Err(self.data(0, "a results row cut short")) }
    }
}

/// Category runs built row by row from the `COPY` text of [`CATEGORY_COLUMNS`].
struct CategorySink<'a> {
    url: &'a str,
    by_id: &'a HashMap<i64, (&'a StoredRun, Option<Arc<RunMeta>>)>,
    scored: &'a HashMap<(i64, String), bool>,
    out: Vec<CategoryRun>,
    /// (run id, category as sent) -> index in `out`.
    index: HashMap<(i64, Vec<u8>), usize>,
    /// The (run id, category as sent, index) of the last row: rows come grouped by run and,
    /// within a run, mostly by category.
    last: Option<(i64, Vec<u8>, usize)>,
}

impl<'a> CategorySink<'a> {
    fn new(
        url: &'a str,
        by_id: &'a HashMap<i64, (&'a StoredRun, Option<Arc<RunMeta>>)>,
        scored: &'a HashMap<(i64, String), bool>,
    ) -> Self {
        Self { url, by_id, scored, out: Vec::new(), index: HashMap::new(), last: None }
    }

    fn data(&self, run_id: i64, message: &str) -> StoreError {
        StoreError::Data { url: self.url.to_string(), run_id, message: message.to_string() }
    }
}

impl Sink for CategorySink<'_> {
    fn row(&mut self, id: i64, line: &[u8]) -> Result<(), StoreError> {
        // One pass over the bytes: where the tabs are, and where the first escape is.
        let mut cut = [0usize; 3];
        let mut tabs = 0;
        let mut first_escape = line.len();
        for (i, &b) in line.iter().enumerate() {
            if b == b'\t' {
                if tabs == cut.len() {
                    return Err(self.data(id, "a results row with more than 6 columns"));
                }
                cut[tabs] = i;
                tabs += 1;
            } else if b == b'\\' && first_escape == line.len() {
                first_escape = i;
            }
        }
        if tabs < cut.len() {
            return Err(self.data(id, "a results row without its 6 columns"));
        }
        let category = &line[..cut[0]];
        let test = &line[cut[0] + 1..cut[1]];
        let outcome = match &line[cut[1] + 1..cut[2]] {
            b"pass" => Outcome::Pass,
            b"fail" => Outcome::Fail,
            b"errored" => Outcome::Errored,
            b"unscored" => Outcome::Unscored,
            b"not_run" => return Ok(()),
            other => return Err(self.data(id, &format!("unknown status {:?}", String::from_utf8_lossy(other)))),
        };
        let error_type = &line[cut[2] + 1..];
        let at = match &self.last {
            Some((lid, lcat, at)) if *lid == id && lcat.as_slice() == category => *at,
            _ => {
                let Some((run, meta)) = self.by_id.get(&id) else { return Ok(()) };
                let at = if let Some(&at) = self.index.get(&(id, category.to_vec())) {
                    at
                } else {
                    let name = unescape(category).into_owned();
                    let mut c = CategoryRun::new(run.run.clone(), run.model.clone(), name.clone());
                    c.sources = vec![PathBuf::from(format!("store:{}", run.run))];
                    c.scored = self.scored.get(&(id, name)).copied().unwrap_or(true);
                    c.meta.clone_from(meta);
                    self.out.push(c);
                    self.index.insert((id, category.to_vec()), self.out.len() - 1);
                    self.out.len() - 1
                };
                self.last = Some((id, category.to_vec(), at));
                at
            }
        };
        let test = if first_escape > cut[1] {
            // Nothing escaped in the id: read in place.
            Cow::Borrowed(std::str::from_utf8(test).map_err(|_| self.data(id, "a test id that is not UTF-8"))?)
        } else {
            unescape(test)
        };
        let error_type = (error_type != b"\\N").then(|| unescape(error_type));
        self.out[at].push(&test, outcome, error_type.as_deref());
        Ok(())
    }
}

/// Tests of run records, per run id, from the `COPY` text of [`RECORD_COLUMNS`].
struct RecordSink<'a> {
    url: &'a str,
    tests: HashMap<i64, Vec<TestRecord>>,
}

impl Sink for RecordSink<'_> {
    fn row(&mut self, id: i64, line: &[u8]) -> Result<(), StoreError> {
        let data = |message: String| StoreError::Data { url: self.url.to_string(), run_id: id, message };
        let f = fields(line);
        let [category, test, status, error_type, message, duration, input, output, cost] = f.as_slice() else {
            return Err(data("a results row without its 11 columns".into()));
        };
        let outcome = match status.as_deref() {
            Some("pass") => Some(Outcome::Pass),
            Some("fail") => Some(Outcome::Fail),
            Some("errored") => Some(Outcome::Errored),
            Some("unscored") => Some(Outcome::Unscored),
            Some("not_run") => None,
            other => return Err(data(format!("unknown status {other:?}"))),
        };
        self.tests.entry(id).or_default().push(TestRecord {
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
        Ok(())
    }
}

/// A whole number written in ASCII digits (a leading `-` allowed), without going through
/// `str`; `None` for anything else or on overflow.
fn number(digits: &[u8]) -> Option<i64> {
    let (negative, digits) = match digits.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if negative { -n } else { n })
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
