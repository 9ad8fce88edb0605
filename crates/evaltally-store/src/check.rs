//! What `show` and `validate` read of stored runs: one test across the runs, and whether
//! what a run stored holds together.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use evaltally_core::{Finding, Status, TestDetail};

use crate::{Store, StoreError, StoredRun};

/// The statuses a `results` row may have.
pub const STATUSES: [&str; 5] = ["pass", "fail", "errored", "unscored", "not_run"];

/// At most this many findings of one kind per run are listed (then a count of the rest).
const LISTED: usize = 10;

/// What [`Store::check`] found in one stored run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunCheck {
    /// The run's id in the `runs` table.
    pub id: i64,
    /// Rows per category and status, as stored (unknown statuses included).
    pub counts: BTreeMap<String, BTreeMap<String, i64>>,
    /// What is wrong (errors) or odd (warnings); where is `results`, `run_categories`, or
    /// `results (category C)`.
    pub findings: Vec<Finding>,
}

impl RunCheck {
    /// Rows stored for the run.
    pub fn rows(&self) -> i64 {
        self.counts.values().flat_map(BTreeMap::values).sum()
    }
}

/// One grouped row of the check's main query.
struct Group {
    run_id: i64,
    category: Option<String>,
    status: Option<String>,
    rows: i64,
    first: i32,
    last: i32,
    bad_numbers: i64,
    no_id: i64,
    other_model: i64,
}

impl Store {
    /// Test `test` in each of `runs` that holds its category: one [`TestDetail`] per (run,
    /// category) with the stored outcome, error, tokens and latency ([`Status::NotRun`] when
    /// the run has the category but not the test). Prompts, answers and file locations are
    /// not stored, so they stay empty. Details come in the order of `runs`.
    pub fn test_details(&mut self, runs: &[StoredRun], test: &str) -> Result<Vec<TestDetail>, StoreError> {
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        let rows = self
            .client
            .query(
                "SELECT run_id, category, status, error_type, error_message, input_tokens, output_tokens, duration_ms
                 FROM results WHERE run_id = ANY($1) AND test = $2 ORDER BY run_id, position",
                &[&ids, &test],
            )
            .map_err(|e| self.query_error("reading a test", &e))?;
        let mut found: HashMap<i64, Vec<TestDetail>> = HashMap::new();
        let mut categories: BTreeSet<String> = BTreeSet::new();
        let by_id: HashMap<i64, &StoredRun> = runs.iter().map(|r| (r.id, r)).collect();
        for row in &rows {
            let id: i64 = row.get(0);
            let Some(run) = by_id.get(&id) else { continue };
            let category: String = row.get::<_, Option<String>>(1).unwrap_or_default();
            let status: String = row.get(2);
            let status = match status.as_str() {
                "pass" => Status::Passed,
                "fail" => Status::Failed,
                "errored" => Status::Errored,
                "unscored" => Status::Unscored,
                "not_run" => Status::NotRun,
                other => {
                    return Err(StoreError::Data {
                        url: self.url.clone(),
                        run_id: id,
                        message: format!("unknown status {other:?} (`evaltally validate` checks stored runs)"),
                    });
                }
            };
            let mut d = TestDetail::new(&run.run, &run.model, &category, test, status);
            d.error_type = row.get(3);
            d.error_message = row.get(4);
            d.input_tokens = row.get::<_, Option<i64>>(5).and_then(|v| u64::try_from(v).ok());
            d.output_tokens = row.get::<_, Option<i64>>(6).and_then(|v| u64::try_from(v).ok());
            d.latency_seconds = row.get::<_, Option<f64>>(7).map(|ms| ms / 1000.0);
            categories.insert(category);
            found.entry(id).or_default().push(d);
        }
        // Runs that hold the test's category without the test: not run there.
        let categories: Vec<String> = categories.into_iter().collect();
        let holding = self
            .client
            .query(
                "SELECT run_id, category FROM run_categories WHERE run_id = ANY($1) AND category = ANY($2)
                 UNION SELECT DISTINCT run_id, category FROM results WHERE run_id = ANY($1) AND category = ANY($2)",
                &[&ids, &categories],
            )
            .map_err(|e| self.query_error("reading categories", &e))?;
        for row in &holding {
            let id: i64 = row.get(0);
            let category: String = row.get(1);
            let Some(run) = by_id.get(&id) else { continue };
            let details = found.entry(id).or_default();
            if !details.iter().any(|d| d.category == category) {
                details.push(TestDetail::new(&run.run, &run.model, &category, test, Status::NotRun));
            }
        }
        Ok(runs.iter().flat_map(|r| found.remove(&r.id).unwrap_or_default()).collect())
    }

    /// Whether what each of `runs` stored holds together, with server-side queries (the
    /// rows are not read here):
    ///
    /// - errors: no results at all; a status other than those of [`STATUSES`]; a test
    ///   stored twice in one category; a row without a test id; a row of another model
    ///   than its run; a negative or not-a-number token count, duration or cost; a category
    ///   stored as not scored whose tests passed or failed;
    /// - warnings: positions that are not 0…N−1 (rows removed by hand); a category with
    ///   results but no `run_categories` row, or the reverse; a scored category whose tests
    ///   are all unscored.
    ///
    /// The results come in the order of `runs`.
    pub fn check(&mut self, runs: &[StoredRun]) -> Result<Vec<RunCheck>, StoreError> {
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        let groups: Vec<Group> = self
            .client
            .query(
                "SELECT s.run_id, s.category, s.status, count(*), min(s.position), max(s.position),
                        count(*) FILTER (WHERE s.input_tokens < 0 OR s.output_tokens < 0 OR s.duration_ms < 0
                                         OR s.duration_ms = 'NaN' OR s.cost_usd < 0 OR s.cost_usd = 'NaN'),
                        count(*) FILTER (WHERE s.test IS NULL OR s.test = ''),
                        count(*) FILTER (WHERE s.model IS DISTINCT FROM r.model)
                 FROM results s JOIN runs r ON r.id = s.run_id
                 WHERE s.run_id = ANY($1)
                 GROUP BY s.run_id, s.category, s.status",
                &[&ids],
            )
            .map_err(|e| self.query_error("checking results", &e))?
            .iter()
            .map(|row| Group {
                run_id: row.get(0),
                category: row.get(1),
                status: row.get(2),
                rows: row.get(3),
                first: row.get(4),
                last: row.get(5),
                bad_numbers: row.get(6),
                no_id: row.get(7),
                other_model: row.get(8),
            })
            .collect();
        let duplicates = self
            .client
            .query(
                "SELECT run_id, category, test, count(*) FROM results
                 WHERE run_id = ANY($1) AND test IS NOT NULL AND test <> ''
                 GROUP BY run_id, category, test HAVING count(*) > 1
                 ORDER BY run_id, category, test",
                &[&ids],
            )
            .map_err(|e| self.query_error("checking results", &e))?;
        let listed = self
            .client
            .query("SELECT run_id, category, scored FROM run_categories WHERE run_id = ANY($1)", &[&ids])
            .map_err(|e| self.query_error("reading categories", &e))?;

        let mut out: Vec<RunCheck> = runs.iter().map(|r| RunCheck { id: r.id, ..RunCheck::default() }).collect();
        let at: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        let mut positions: HashMap<i64, (i64, i32, i32)> = HashMap::new();
        let mut sums: HashMap<i64, [i64; 3]> = HashMap::new();
        for g in &groups {
            let Some(&i) = at.get(&g.run_id) else { continue };
            let category = g.category.clone().unwrap_or_default();
            let status = g.status.clone().unwrap_or_else(|| "(none)".into());
            *out[i].counts.entry(category.clone()).or_default().entry(status.clone()).or_default() += g.rows;
            if !STATUSES.contains(&status.as_str()) {
                out[i].findings.push(Finding::error(
                    format!("results (category {category})"),
                    format!(
                        "{} row{} with status `{}`, not one of {}",
                        g.rows,
                        plural(g.rows),
                        evaltally_core::text::printable(&status),
                        STATUSES.join(", ")
                    ),
                ));
            }
            let p = positions.entry(g.run_id).or_insert((0, i32::MAX, i32::MIN));
            *p = (p.0 + g.rows, p.1.min(g.first), p.2.max(g.last));
            let s = sums.entry(g.run_id).or_default();
            s[0] += g.bad_numbers;
            s[1] += g.no_id;
            s[2] += g.other_model;
        }
        for (run, check) in runs.iter().zip(&mut out) {
            let f = &mut check.findings;
            let Some(&(rows, first, last)) = positions.get(&run.id) else {
                f.push(Finding::error("results", "the run has no results"));
                continue;
            };
            let [bad_numbers, no_id, other_model] = sums.get(&run.id).copied().unwrap_or_default();
            if no_id > 0 {
                f.push(Finding::error("results", format!("{no_id} row{} without a test id", plural(no_id))));
            }
            if other_model > 0 {
                f.push(Finding::error(
                    "results",
                    format!(
                        "{other_model} row{} of another model than the run's (`{}`)",
                        plural(other_model),
                        evaltally_core::text::printable(&run.model)
                    ),
                ));
            }
            if bad_numbers > 0 {
                f.push(Finding::error(
                    "results",
                    format!(
                        "{bad_numbers} row{} with a negative or not-a-number token count, duration or cost",
                        plural(bad_numbers)
                    ),
                ));
            }
            if i64::from(first) != 0 || i64::from(last) != rows - 1 {
                f.push(Finding::warning(
                    "results",
                    format!(
                        "positions run from {first} to {last} over {rows} row{}, not 0 to {}: rows were removed or added by hand",
                        plural(rows),
                        rows - 1
                    ),
                ));
            }
        }
        let mut dup_count: HashMap<i64, usize> = HashMap::new();
        for row in &duplicates {
            let id: i64 = row.get(0);
            let Some(&i) = at.get(&id) else { continue };
            let n = dup_count.entry(id).or_default();
            *n += 1;
            if *n <= LISTED {
                let category: Option<String> = row.get(1);
                let test: String = row.get(2);
                let times: i64 = row.get(3);
                out[i].findings.push(Finding::error(
                    format!("results (category {})", category.unwrap_or_default()),
                    format!("test `{}` is stored {times} times", evaltally_core::text::printable(&test)),
                ));
            }
        }
        for (id, n) in dup_count {
            if n > LISTED {
                out[at[&id]]
                    .findings
                    .push(Finding::error("results", format!("and {} more tests stored more than once", n - LISTED)));
            }
        }
        let mut scored: HashMap<(i64, String), bool> = HashMap::new();
        for row in &listed {
            scored.insert((row.get(0), row.get(1)), row.get(2));
        }
        for check in &mut out {
            let id = check.id;
            for (category, by_status) in &check.counts {
                let count = |s: &str| by_status.get(s).copied().unwrap_or(0);
                let place = format!("results (category {category})");
                match scored.get(&(id, category.clone())) {
                    None => check.findings.push(Finding::warning(
                        "run_categories",
                        format!("category `{category}` has results but no row saying whether it was scored"),
                    )),
                    Some(false) if count("pass") + count("fail") > 0 => check.findings.push(Finding::error(
                        place,
                        format!(
                            "the category is stored as not scored, yet {} of its tests passed or failed",
                            count("pass") + count("fail")
                        ),
                    )),
                    Some(true) if count("unscored") > 0 && count("unscored") == by_status.values().sum::<i64>() => {
                        check.findings.push(Finding::warning(
                            place,
                            "the category is stored as scored, yet every one of its tests is unscored",
                        ));
                    }
                    _ => {}
                }
            }
            let mut orphans: Vec<&String> =
                scored.keys().filter(|(run, c)| *run == id && !check.counts.contains_key(c)).map(|(_, c)| c).collect();
            orphans.sort();
            for c in orphans {
                check
                    .findings
                    .push(Finding::warning("run_categories", format!("category `{c}` is listed but has no results")));
            }
        }
        Ok(out)
    }
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
