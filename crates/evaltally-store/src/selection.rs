//! `store:` selections: an entry or run name, or filters (`branch=main,last=20`).

use crate::StoreError;

/// Which stored runs a `store:…` argument selects.
///
/// `store:NAME` selects by name (a folder store's entry, or the runs of that name in a
/// PostgreSQL store); `store:KEY=VALUE[,KEY=VALUE…]` by filters, all of which must hold:
/// `branch=`, `model=`, `tier=`, `since=` (a timestamp at or after this ISO 8601 date or
/// time), `name=` and `last=N` (the runs of the N most recent pushes among those the other
/// filters keep).
/// `store:` alone, or `store:all`, selects everything.
///
/// ```
/// use evaltally_store::Selection;
/// let s = Selection::parse("branch=main,last=20").unwrap();
/// assert_eq!(s.branch.as_deref(), Some("main"));
/// assert_eq!(s.last, Some(20));
/// assert_eq!(Selection::parse("run-7").unwrap().name.as_deref(), Some("run-7"));
/// assert!(Selection::parse("colour=blue").is_err());
/// assert!(Selection::parse("last=many").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The entry or run name.
    pub name: Option<String>,
    /// Only runs on this git branch.
    pub branch: Option<String>,
    /// Only runs of this model.
    pub model: Option<String>,
    /// Only runs of this tier.
    pub tier: Option<String>,
    /// Only runs whose timestamp is at or after this one (ISO 8601, compared as text).
    pub since: Option<String>,
    /// Only the N most recent runs (by timestamp; runs without one count as oldest).
    pub last: Option<usize>,
}

impl Selection {
    /// Parses what follows `store:`.
    pub fn parse(text: &str) -> Result<Self, StoreError> {
        let mut s = Self::default();
        if text.is_empty() || text == "all" {
            return Ok(s);
        }
        if !text.contains('=') {
            s.name = Some(text.to_string());
            return Ok(s);
        }
        for part in text.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(StoreError::Selection(format!("`{part}` is not KEY=VALUE (in `store:{text}`)")));
            };
            if value.is_empty() {
                return Err(StoreError::Selection(format!("`{key}=` needs a value (in `store:{text}`)")));
            }
            let v = Some(value.to_string());
            match key {
                "name" => s.name = v,
                "branch" => s.branch = v,
                "model" => s.model = v,
                "tier" => s.tier = v,
                "since" => s.since = v,
                "last" => {
                    s.last = Some(value.parse().map_err(|_| {
                        StoreError::Selection(format!("`last={value}`: expected a whole number of runs"))
                    })?);
                }
                other => {
                    return Err(StoreError::Selection(format!(
                        "unknown filter `{other}` in `store:{text}`: expected branch=, model=, tier=, since=, name= or last="
                    )));
                }
            }
        }
        Ok(s)
    }

    /// Whether a run with these fields passes every filter but `last`.
    pub fn keeps(
        &self,
        names: &[&str],
        branch: Option<&str>,
        model: &str,
        tier: Option<&str>,
        timestamp: Option<&str>,
    ) -> bool {
        let eq = |want: &Option<String>, have: Option<&str>| want.as_deref().is_none_or(|w| have == Some(w));
        self.name.as_deref().is_none_or(|n| names.contains(&n))
            && eq(&self.branch, branch)
            && eq(&self.model, Some(model))
            && eq(&self.tier, tier)
            && self.since.as_deref().is_none_or(|s| timestamp.is_some_and(|t| t >= s))
    }
}
