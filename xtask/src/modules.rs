//! The rule that no two files of a crate use each other, in a circle: each file's module
//! and the modules its code names (`crate::…`, `super::…`, `self::…` paths, comments and
//! test modules aside), checked for cycles. A parent module and its own children may name
//! each other (a child using its parent's types is the usual shape); siblings may not
//! circle. `cargo test -p xtask` runs the check over every crate (`CONTRIBUTING.md`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules of the crate whose `src` folder is `src`, by path (`stability`, `html::data`;
/// the crate root is the empty name), with their files.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap_or(&path).with_extension("");
            let mut parts: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                parts.pop();
            }
            out.insert(parts.join("::"), path);
        }
    }
    out
}

/// `text` without comments and without a trailing `#[cfg(test)] mod tests { … }`.
fn code(text: &str) -> String {
    let text = text.find("#[cfg(test)]\nmod tests").map_or(text, |at| &text[..at]);
    text.lines().map(|l| l.find("//").map_or(l, |at| &l[..at])).collect::<Vec<_>>().join("\n")
}

/// The module a path written in module `from` names, the longest one that exists.
fn resolve(from: &str, path: &[&str], mods: &BTreeMap<String, PathBuf>) -> Option<String> {
    let mut base: Vec<&str> = if from.is_empty() { Vec::new() } else { from.split("::").collect() };
    let mut rest = path;
    match rest.first() {
        Some(&"crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some(&"self") => rest = &rest[1..],
        Some(&"super") => {
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut best = None;
    for take in 0..=rest.len() {
        let candidate: Vec<&str> = base.iter().copied().chain(rest[..take].iter().copied()).collect();
        let name = candidate.join("::");
        if mods.contains_key(&name) {
            best = Some(name);
        }
    }
    best
}

/// The edges between the crate's modules: who names whom, a module and its ancestors or
/// descendants aside.
fn edges(mods: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in mods {
        let text = code(&std::fs::read_to_string(file).unwrap_or_default());
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let starts = [&b"crate::"[..], b"super::", b"self::"].iter().any(|p| bytes[at..].starts_with(p))
                && (at == 0
                    || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':'));
            if !starts {
                at += 1;
                continue;
            }
            let end = text[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(text.len(), |e| at + e);
            let prefix: Vec<String> = text[at..end].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            // `crate::{a, b::C}`: every path of the group, nested groups too.
            let (paths, end) = if text[end..].starts_with('{') {
                let close = matching_brace(&text, end);
                (group_paths(&prefix, &text[end + 1..close]), close + 1)
            } else {
                (vec![prefix], end)
            };
            for path in paths {
                let path: Vec<&str> = path.iter().map(String::as_str).collect();
                if let Some(target) = resolve(module, &path, mods) {
                    let related = target == *module
                        || target.is_empty()
                        || module.is_empty()
                        || target.starts_with(&format!("{module}::"))
                        || module.starts_with(&format!("{target}::"));
                    if !related {
                        out.entry(module.clone()).or_default().insert(target);
                    }
                }
            }
            at = end.max(at + 1);
        }
    }
    out
}

/// The index of the `}` closing the `{` at `open` (the text's end when it is not closed).
fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The paths a `use` group names, each `prefix` followed by an item: `a`, `b::C`,
/// `c::{D, e::F}` (nested), `self` (the prefix itself), `g as H`.
fn group_paths(prefix: &[String], group: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
        let item = item.split(" as ").next().unwrap_or(item).trim();
        if let Some(open) = item.find('{') {
            let mut inner: Vec<String> = prefix.to_vec();
            inner.extend(item[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string));
            let close = matching_brace(item, open);
            out.extend(group_paths(&inner, &item[open + 1..close]));
        } else {
            let mut path: Vec<String> = prefix.to_vec();
            path.extend(item.split("::").filter(|s| !s.is_empty() && *s != "self").map(str::to_string));
            out.push(path);
        }
    }
    out
}

/// The cycles among the modules, each as its modules in name order.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Two modules are in one cycle when each reaches the other.
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(m) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (m, r) in &reaches {
        if !r.contains(*m) {
            continue;
        }
        let mut cycle: Vec<String> =
            r.iter().filter(|o| reaches.get(o).is_some_and(|back| back.contains(*m))).cloned().collect();
        cycle.sort();
        if !out.contains(&cycle) {
            out.push(cycle);
        }
    }
    out
}

/// Every crate's import circles, as `crate: a → b → …`.
pub(crate) fn circles(root: &Path) -> Vec<String> {
    let mut srcs: Vec<(String, PathBuf)> = std::fs::read_dir(root.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path().join("src")))
        .collect();
    srcs.push(("xtask".to_string(), root.join("xtask/src")));
    srcs.sort();
    let mut out = Vec::new();
    for (name, src) in srcs.into_iter().filter(|(_, s)| s.is_dir()) {
        for cycle in cycles(&edges(&modules(&src))) {
            out.push(format!("{name}: {}", cycle.join(" ↔ ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_crate_has_an_import_circle_between_its_files() {
        let circles = super::circles(crate::workspace_root());
        assert!(circles.is_empty(), "files that use each other in a circle:\n{}", circles.join("\n"));
    }

    #[test]
    fn a_circle_through_use_groups_is_found() {
        let dir = std::env::temp_dir().join(format!("evaltally-groups-{}", std::process::id()));
        let src = dir.join("crates/demo/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
        std::fs::write(src.join("a.rs"), "use crate::{c::C, b::{B, self as bee}};\npub struct A;\n").unwrap();
        std::fs::write(src.join("b.rs"), "use crate::{a::A};\npub struct B;\n").unwrap();
        std::fs::write(src.join("c.rs"), "pub struct C;\n").unwrap();
        let found = super::circles(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, ["demo: a ↔ b"]);
    }

    #[test]
    fn a_circle_is_found() {
        let dir = std::env::temp_dir().join(format!("evaltally-circles-{}", std::process::id()));
        let src = dir.join("crates/demo/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
        std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
        std::fs::write(src.join("b.rs"), "use super::a::A; // crate::nothing in a comment\npub struct B;\n").unwrap();
        let found = super::circles(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, ["demo: a ↔ b"]);
    }
}
