//! A test case's category and id, shared by the reader and the fast path so that both name
//! every case the same way.
//!
//! * The category is the case's own suite's name; else its `classname`; else the name of
//!   the nearest named enclosing suite; else the file's stem.
//! * The id is the case's name, prefixed with `classname::` when test cases of different
//!   classes share that name within the category; a case without a name is
//!   `(unnamed testcase at line N)`.
//! * A case with the category and id of an earlier one is a duplicate.

use std::borrow::Cow;

use hashbrown::HashMap;
use hashbrown::hash_map::Entry;

use crate::escape::is_xml_space;

/// A suite as naming needs it.
pub(crate) struct SuiteSeat<'s> {
    /// Its non-blank `name`.
    pub(crate) name: Option<&'s str>,
    /// The enclosing suite.
    pub(crate) parent: Option<usize>,
}

/// A test case as naming needs it.
pub(crate) struct CaseSeat<'s> {
    /// Its suite, by index into the suites.
    pub(crate) suite: Option<usize>,
    /// Its `name` as written.
    pub(crate) name: &'s str,
    /// Its non-blank `classname`.
    pub(crate) classname: Option<&'s str>,
    /// The line of its start tag.
    pub(crate) line: u64,
}

/// A named test case.
pub(crate) struct Named<'s> {
    pub(crate) category: &'s str,
    pub(crate) id: Cow<'s, str>,
    /// For a duplicate, the line of the first case with its category and id.
    pub(crate) first: Option<u64>,
}

/// Names every case, in order.
pub(crate) fn name_cases<'s>(suites: &[SuiteSeat<'s>], cases: &[CaseSeat<'s>], stem: &'s str) -> Vec<Named<'s>> {
    let named_ancestor = |mut at: Option<usize>| {
        while let Some(suite) = at.and_then(|i| suites.get(i)) {
            if suite.name.is_some() {
                return suite.name;
            }
            at = suite.parent;
        }
        None
    };
    let categories: Vec<&'s str> = cases
        .iter()
        .map(|c| {
            let own = c.suite.and_then(|i| suites.get(i)).and_then(|s| s.name);
            own.or(c.classname).or_else(|| named_ancestor(c.suite)).unwrap_or(stem)
        })
        .collect();
    // Per (category, name): the first classname, whether another one shares the name, and
    // the line of the first case.
    let mut classes: HashMap<(&str, &str), (Option<&str>, bool, u64)> = HashMap::with_capacity(cases.len());
    let mut repeated = false;
    for (c, &category) in cases.iter().zip(&categories) {
        match classes.entry((category, c.name)) {
            Entry::Occupied(mut seen) => {
                let (first, shared, _) = seen.get_mut();
                *shared |= *first != c.classname;
                repeated = true;
            }
            Entry::Vacant(slot) => {
                slot.insert((c.classname, false, c.line));
            }
        }
    }
    let unnamed = |c: &CaseSeat<'_>| c.name.chars().all(is_xml_space);
    if !repeated && !cases.iter().any(unnamed) {
        // Every (category, name) is unique: ids are names and nothing is a duplicate.
        return categories
            .into_iter()
            .zip(cases)
            .map(|(category, c)| Named { category, id: Cow::Borrowed(c.name), first: None })
            .collect();
    }
    let ids: Vec<Cow<'s, str>> = cases
        .iter()
        .zip(&categories)
        .map(|(c, &category)| {
            let shared = classes.get(&(category, c.name)).is_some_and(|&(_, shared, _)| shared);
            match (c.classname, shared) {
                _ if unnamed(c) => Cow::Owned(format!("(unnamed testcase at line {})", c.line)),
                (Some(class), true) => Cow::Owned(format!("{class}::{}", c.name)),
                _ => Cow::Borrowed(c.name),
            }
        })
        .collect();
    drop(classes);
    let mut seen: HashMap<(&str, &str), u64> = HashMap::with_capacity(cases.len());
    let firsts: Vec<Option<u64>> = cases
        .iter()
        .zip(&categories)
        .zip(&ids)
        .map(|((case, &category), id)| match seen.entry((category, id.as_ref())) {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert(case.line);
                None
            }
        })
        .collect();
    drop(seen);
    categories.into_iter().zip(ids).zip(firsts).map(|((category, id), first)| Named { category, id, first }).collect()
}
