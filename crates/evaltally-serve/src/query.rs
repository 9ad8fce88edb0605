//! What a request asks for, from its query string: the runs to look at, the tests to list,
//! the page, the two sides of a comparison. Every value is bounded; none names a file.

use std::collections::{BTreeSet, HashMap};

use evaltally_core::RunMeta;
use evaltally_core::text::printable;

/// The longest value a parameter may have.
pub(crate) const MAX_VALUE: usize = 512;
/// The most rows or columns one heatmap window holds.
pub(crate) const MAX_WINDOW: usize = 1000;
/// The most entries one page of a list holds.
pub(crate) const MAX_PER_PAGE: usize = 500;

/// The query string's parameters.
pub(crate) struct Params(HashMap<String, String>);

impl Params {
    pub(crate) fn new(map: HashMap<String, String>) -> Result<Self, String> {
        if let Some((k, _)) = map.iter().find(|(k, v)| k.len() > 64 || v.len() > MAX_VALUE) {
            return Err(format!("parameter {:?} is longer than {MAX_VALUE} characters", printable(k)));
        }
        Ok(Self(map))
    }

    /// A parameter's value; an empty one counts as absent.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// A number, at most `max`; `default` when absent.
    pub(crate) fn number(&self, key: &str, default: usize, max: usize) -> Result<usize, String> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse::<usize>()
                .map(|n| n.min(max))
                .map_err(|_| format!("{key} must be a number, not {:?}", printable(v))),
        }
    }

    pub(crate) fn run_filter(&self) -> RunFilter {
        RunFilter {
            branch: self.get("branch").map(str::to_string),
            tier: self.get("tier").map(str::to_string),
            since: self.get("since").map(str::to_string),
            until: self.get("until").map(str::to_string),
        }
    }

    pub(crate) fn test_filter(&self) -> TestFilter {
        let classes = self
            .get("status")
            .map(|s| s.split(',').filter(|c| CLASSES.contains(c)).map(str::to_string).collect::<BTreeSet<String>>());
        TestFilter {
            category: self.get("category").map(str::to_string),
            classes,
            q: self.get("q").map(|q| q.trim().to_string()).filter(|q| !q.is_empty()),
        }
    }

    pub(crate) fn page(&self) -> Result<Page, String> {
        Ok(Page { number: self.number("page", 0, usize::MAX / 2)?, per: self.number("per", 50, MAX_PER_PAGE)?.max(1) })
    }

    pub(crate) fn side(&self, key: &str) -> Result<Side, String> {
        let Some(spec) = self.get(key) else {
            return Err(format!("give the {key} side: run names, or branch:, tier:, since:, until:, last:"));
        };
        Side::parse(spec)
    }
}

/// The heatmap's row classes, as the report names them.
const CLASSES: [&str; 5] = ["flaky", "fail", "pass", "errored", "none"];

/// Which runs to look at, by what they say about themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunFilter {
    branch: Option<String>,
    tier: Option<String>,
    /// Runs at or after this time (a prefix of an ISO 8601 timestamp: `2026-03-14`).
    since: Option<String>,
    /// Runs at or before this time (a prefix: `2026-03-15` keeps that whole day).
    until: Option<String>,
}

impl RunFilter {
    pub(crate) fn keeps(&self, _name: &str, meta: &RunMeta) -> bool {
        let same = |want: &Option<String>, have: &Option<String>| {
            want.as_ref().is_none_or(|w| have.as_deref().is_some_and(|h| h == w || printable(h) == w.as_str()))
        };
        same(&self.branch, &meta.git_branch)
            && same(&self.tier, &meta.tier)
            && in_time(meta, self.since.as_deref(), self.until.as_deref())
    }
}

fn in_time(meta: &RunMeta, since: Option<&str>, until: Option<&str>) -> bool {
    if since.is_none() && until.is_none() {
        return true;
    }
    let Some(t) = meta.timestamp.as_deref() else { return false };
    since.is_none_or(|s| t >= s) && until.is_none_or(|u| t.get(..u.len()).unwrap_or(t) <= u)
}

/// Which tests to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TestFilter {
    /// Only this category (as shown).
    pub(crate) category: Option<String>,
    /// Only these classes (`flaky`, `fail`, `pass`, `errored`, `none`).
    classes: Option<BTreeSet<String>>,
    /// Tests whose id or one of whose error messages contains this (any case).
    q: Option<String>,
}

impl TestFilter {
    pub(crate) fn keeps_class(&self, class: &str) -> bool {
        self.classes.as_ref().is_none_or(|c| c.contains(class))
    }

    pub(crate) fn search(&self) -> Option<&str> {
        self.q.as_deref()
    }
}

/// A page of a list: `per` entries from entry `number × per`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Page {
    pub(crate) number: usize,
    pub(crate) per: usize,
}

impl Page {
    /// The entries of this page among `total`.
    pub(crate) fn range(self, total: usize) -> (usize, usize) {
        let from = self.number.saturating_mul(self.per).min(total);
        (from, (from + self.per).min(total))
    }
}

/// One side of a comparison: run names (any of them), or what the runs say about themselves
/// (all of it), and perhaps only the latest `last` of those.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Side {
    names: BTreeSet<String>,
    filter: RunFilter,
    pub(crate) last: Option<usize>,
}

impl Side {
    /// `run-1,run-2`, or `branch:main,last:5`, or `tier:e2e,since:2026-03-01`.
    pub(crate) fn parse(spec: &str) -> Result<Self, String> {
        let mut side = Side::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let value = |v: &str| Some(v.to_string());
            match item.split_once(':') {
                Some(("branch", v)) => side.filter.branch = value(v),
                Some(("tier", v)) => side.filter.tier = value(v),
                Some(("since", v)) => side.filter.since = value(v),
                Some(("until", v)) => side.filter.until = value(v),
                Some(("last", v)) => {
                    side.last = Some(v.parse().map_err(|_| format!("last: takes a number, not {:?}", printable(v)))?);
                }
                _ => {
                    side.names.insert(item.to_string());
                }
            }
        }
        Ok(side)
    }

    pub(crate) fn keeps(&self, name: &str, meta: &RunMeta) -> bool {
        (self.names.is_empty() || self.names.contains(name) || self.names.contains(printable(name).as_ref()))
            && self.filter.keeps(name, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(branch: &str, ts: &str) -> RunMeta {
        RunMeta { git_branch: Some(branch.into()), timestamp: Some(ts.into()), ..RunMeta::default() }
    }

    #[test]
    fn dates_are_prefixes_and_until_keeps_its_whole_day() {
        let f =
            RunFilter { since: Some("2026-03-14".into()), until: Some("2026-03-15".into()), ..RunFilter::default() };
        assert!(!f.keeps("a", &meta("main", "2026-03-13T23:59:59Z")));
        assert!(f.keeps("a", &meta("main", "2026-03-14T00:00:00Z")));
        assert!(f.keeps("a", &meta("main", "2026-03-15T23:00:00Z")));
        assert!(!f.keeps("a", &meta("main", "2026-03-16T00:00:00Z")));
        assert!(!f.keeps("a", &RunMeta::default()), "a run without a time is not in a time range");
    }

    #[test]
    fn a_side_is_names_or_what_runs_say() {
        let s = Side::parse("branch:main, last:2").unwrap();
        assert_eq!(s.last, Some(2));
        assert!(s.keeps("x", &meta("main", "t")) && !s.keeps("x", &meta("dev", "t")));
        let s = Side::parse("run-1,run-3").unwrap();
        assert!(s.keeps("run-3", &RunMeta::default()) && !s.keeps("run-2", &RunMeta::default()));
        assert!(Side::parse("last:x").is_err());
    }

    #[test]
    fn pages_stay_inside_the_list() {
        assert_eq!(Page { number: 2, per: 10 }.range(25), (20, 25));
        assert_eq!(Page { number: 9, per: 10 }.range(25), (25, 25));
    }
}
