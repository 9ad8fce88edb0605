//! The examples of the documentation, run: every `$ evaltally …` line of a `console` block in
//! `README.md` and `docs/*.md` that reads only `testdata/` and writes nothing is run in the
//! workspace root, and what it prints (stdout, then stderr) must be the lines the block shows
//! under it, up to a line `...` where the block cuts the output short. The pages cannot
//! drift from the binary: an output that changes fails here until its example does too.
//!
//! Not run: commands that write (`-o`, `--output`, `push`), serve (`serve`), read files
//! outside `testdata/`, or need a shell (quotes, pipes, redirections, line continuations).

mod common;

use common::evaltally;
use evaltally_testkit::workspace_root;

/// One example: where it is, the command's arguments and the lines the page shows.
struct Example {
    page: String,
    command: String,
    shown: Vec<String>,
}

/// The examples of one page's `console` blocks that can be run as they are.
fn examples(page: &str, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    for block in text.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or("");
        let mut lines = block.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ evaltally ") else { continue };
            let mut shown = Vec::new();
            while let Some(next) = lines.peek() {
                if next.starts_with("$ ") {
                    break;
                }
                shown.push((*next).to_string());
                lines.next();
            }
            while shown.last().is_some_and(String::is_empty) {
                shown.pop();
            }
            let words: Vec<&str> = command.split_whitespace().collect();
            let writes = words.iter().any(|w| ["-o", "--output", "push", "serve"].contains(w));
            let shell = command.contains(['\'', '"', '|', '>', '<', '\\', '$', '*']);
            let outside = !command.contains("testdata/") || command.contains("..");
            if !(writes || shell || outside) {
                out.push(Example { page: page.to_string(), command: command.to_string(), shown });
            }
        }
    }
    out
}

#[test]
fn every_console_example_in_the_docs_prints_what_the_page_shows() {
    let root = workspace_root();
    let mut pages: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    let mut checked = 0;
    let mut wrong = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        for example in examples(&name, &text) {
            let args: Vec<&str> = example.command.split_whitespace().collect();
            let run = evaltally(&args);
            let printed = format!("{}{}", run.stdout, run.stderr);
            let printed: Vec<&str> = printed.lines().collect();
            checked += 1;
            for (i, want) in example.shown.iter().enumerate() {
                if want.trim() == "..." || want.trim() == "…" {
                    break;
                }
                let got = printed.get(i).copied();
                if got.map(str::trim_end) != Some(want.trim_end()) {
                    wrong.push(format!(
                        "{}: `evaltally {}`, line {}:\n  the page: {want}\n  printed:  {}",
                        example.page,
                        example.command,
                        i + 1,
                        got.unwrap_or("(nothing)")
                    ));
                    break;
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 10, "only {checked} examples found to run: has the pages' format changed?");
}
