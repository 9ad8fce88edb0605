//! The rule that adapters never list a folder (`docs/architecture.md`): the walk is the
//! only code that lists folders of results, and a format finds the files beside one in the
//! walk's listing (`Format::beside`). Checked on the source of every adapter crate (the
//! crates `evaltally-formats` names), test code aside.

use std::path::Path;

/// The adapter crates: those `evaltally-formats` depends on, but the interface and the
/// writers.
fn adapters(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("crates/evaltally-formats/Cargo.toml")).unwrap_or_default();
    manifest
        .lines()
        .filter_map(|l| l.split(|c: char| c.is_whitespace() || c == '.' || c == '=').next())
        .filter(|name| name.starts_with("evaltally-") && !matches!(*name, "evaltally-format" | "evaltally-convert"))
        .map(str::to_string)
        .collect()
}

/// Every place an adapter's code (not its tests) lists a folder, as `file:line`.
pub(crate) fn listings(root: &Path) -> Vec<String> {
    const CALLS: [&str; 3] = ["read_dir(", "walkdir", "glob("];
    let mut out = Vec::new();
    for name in adapters(root) {
        let mut stack = vec![root.join("crates").join(&name).join("src")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") || path.file_name().is_some_and(|n| n == "tests.rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                // Test modules come last in a file.
                let code = text.find("#[cfg(test)]").map_or(text.as_str(), |at| &text[..at]);
                for (i, line) in code.lines().enumerate() {
                    let line = line.find("//").map_or(line, |at| &line[..at]);
                    if CALLS.iter().any(|c| line.contains(c)) {
                        let rel = path.strip_prefix(root).unwrap_or(&path);
                        out.push(format!("{}:{}", rel.display(), i + 1));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn adapters_never_list_a_folder() {
        let root = crate::workspace_root();
        assert!(super::adapters(root).len() >= 11, "{:?}", super::adapters(root));
        let found = super::listings(root);
        assert!(
            found.is_empty(),
            "adapters list folders (use the walk's listing, Format::beside):\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn a_listing_in_an_adapter_is_found() {
        let dir = std::env::temp_dir().join(format!("evaltally-listing-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("crates/evaltally-formats")).unwrap();
        std::fs::write(
            dir.join("crates/evaltally-formats/Cargo.toml"),
            "[dependencies]\nevaltally-demo.workspace = true\n",
        )
        .unwrap();
        let src = dir.join("crates/evaltally-demo/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(
            src.join("lib.rs"),
            "fn a() { let _ = std::fs::read_dir(\".\"); }\n// read_dir( in a comment\n#[cfg(test)]\nmod tests { fn t() { let _ = std::fs::read_dir(\".\"); } }\n",
        )
        .unwrap();
        let found = super::listings(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, ["crates/evaltally-demo/src/lib.rs:1"]);
    }
}
