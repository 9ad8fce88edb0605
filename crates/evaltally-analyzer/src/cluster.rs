//! Which tests share context, for clustered standard errors (`--cluster-by`).
//!
//! Tests that share a scenario, a function document or a repository pass and fail
//! together more than independent tests would, and a standard error that treats them as
//! independent is too small (Miller 2024, "Adding Error Bars to Evals"). The model carries
//! no group field, so groups are read from test ids, by shapes the formats write:
//!
//! | id shape | group | where it comes from |
//! |---|---|---|
//! | `owner__repo-1234` | `owner__repo` | SWE-bench and SF-Bench instance ids: the repository |
//! | `<instance>/<variant>` | `<instance>` | HELM perturbed variants of one instance |
//! | `<case> @ <prompt>` | `<case>` | promptfoo: one test case under several prompts |
//! | `<name>_<n>-<key>-<m>` | `<name>-<key>` | BFCL live entries sharing a function document (`live_simple_4-3-0`), BFCL memory entries of one scenario (`memory_kv_0-customer-0`) |
//! | anything else | the test itself | BFCL non-live and multi-turn ids, τ-bench tasks, inspect samples, … |
//!
//! The rules look at the id only, never at the format, so a format whose ids happen to
//! have one of these shapes is grouped the same way; `--cluster-by test` (the default)
//! keeps every test its own cluster.

use std::borrow::Cow;

use serde::Serialize;

/// How tests are grouped into clusters for the clustered standard error of a category.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ClusterBy {
    /// Every test its own cluster: its runs are correlated, tests independent.
    #[default]
    Test,
    /// Tests grouped by the context their ids say they share ([`group_of`]).
    Group,
}

impl ClusterBy {
    /// The cluster of test `id`.
    pub fn cluster_of(self, id: &str) -> Cow<'_, str> {
        match self {
            ClusterBy::Test => Cow::Borrowed(id),
            ClusterBy::Group => group_of(id),
        }
    }
}

/// The group a test id says it belongs to (see the module documentation), or the id itself.
///
/// ```
/// use evaltally_analyzer::cluster::group_of;
/// assert_eq!(group_of("django__django-11099"), "django__django");
/// assert_eq!(group_of("id12/typos"), "id12");
/// assert_eq!(group_of("greets in French @ v2"), "greets in French");
/// assert_eq!(group_of("live_simple_4-3-0"), "live_simple-3");
/// assert_eq!(group_of("memory_kv_0-customer-0"), "memory_kv-customer");
/// assert_eq!(group_of("multi_turn_base_104"), "multi_turn_base_104");
/// ```
pub fn group_of(id: &str) -> Cow<'_, str> {
    // SWE-bench: owner__repo-1234.
    if let Some((repo, number)) = id.rsplit_once('-')
        && repo.contains("__")
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
    {
        return Cow::Borrowed(repo);
    }
    // HELM: instance/perturbation.
    if let Some((instance, _)) = id.split_once('/')
        && !instance.is_empty()
    {
        return Cow::Borrowed(instance);
    }
    // promptfoo: case @ prompt.
    if let Some((case, _)) = id.rsplit_once(" @ ")
        && !case.is_empty()
    {
        return Cow::Borrowed(case);
    }
    // BFCL live and memory: name_n-key-m.
    let parts: Vec<&str> = id.split('-').collect();
    if let [head, key, last] = parts[..]
        && let Some((name, n)) = head.rsplit_once('_')
        && !name.is_empty()
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && !key.is_empty()
        && !last.is_empty()
        && last.bytes().all(|b| b.is_ascii_digit())
    {
        return Cow::Owned(format!("{name}-{key}"));
    }
    Cow::Borrowed(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_ids_stay_themselves() {
        for id in ["", "-", "a__b-", "a__b-x1", "/x", " @ p", "x_1-2", "x_-2-3", "x_1--3", "_1-2-3", "a-b-c"] {
            assert_eq!(group_of(id), id, "{id:?}");
        }
        assert_eq!(ClusterBy::Test.cluster_of("live_simple_4-3-0"), "live_simple_4-3-0");
        assert_eq!(ClusterBy::Group.cluster_of("astropy__astropy-12907"), "astropy__astropy");
    }
}
