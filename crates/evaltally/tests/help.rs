//! Text people read first: `evaltally -h` fits a screen with one line per command,
//! `evaltally formats` names every format, and `stability`'s default answer fits a screen.

mod common;

use common::evaltally;

#[test]
fn the_top_help_fits_a_screen_with_one_line_per_command() {
    let help = evaltally(&["-h"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    let lines: Vec<&str> = help.stdout.lines().collect();
    // 37: one line a command, and the options every command takes under their own heading.
    assert!(lines.len() <= 37, "{} lines:\n{}", lines.len(), help.stdout);
    let commands = lines.iter().position(|l| *l == "Commands:").expect("a command list");
    let listed: Vec<&&str> = lines[commands + 1..].iter().take_while(|l| !l.is_empty()).collect();
    for line in &listed {
        // A continuation line would start with the description's indent, not a name.
        assert!(line.starts_with("  ") && !line.starts_with("   "), "a summary on two lines: {line:?}");
    }
    assert!(listed.len() >= 17, "{listed:?}");
    // The first line names no partial list of formats.
    assert!(lines[0].contains("evaltally formats"), "{}", lines[0]);
}

/// A command's help lists its own options first, then those every command takes, under
/// their own heading.
#[test]
fn a_commands_help_lists_the_global_options_apart() {
    for command in ["stability", "formats"] {
        let help = evaltally(&[command, "-h"]);
        assert_eq!(help.code, 0, "{}", help.stderr);
        let (own, global) = help.stdout.split_once("\nGlobal options:\n").expect(&help.stdout);
        for flag in ["--color", "--store", "--no-cache", "--verbose"] {
            assert!(global.contains(flag) && !own.contains(flag), "{command}: {flag}\n{}", help.stdout);
        }
        assert!(own.contains("--format"), "{}", help.stdout);
    }
}

#[test]
fn formats_lists_every_format_by_the_names_as_takes() {
    let listed = evaltally(&["formats", "--format", "json"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let doc: serde_json::Value = serde_json::from_str(&listed.stdout).unwrap();
    let registry = evaltally_analyzer::load::registry();
    let names: Vec<&str> = doc["formats"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    let want: Vec<&str> = registry.formats().iter().map(|f| f.name()).collect();
    assert_eq!(names, want);
    for f in doc["formats"].as_array().unwrap() {
        assert!(!f["files"].as_array().unwrap().is_empty(), "{f}");
        for name in std::iter::once(&f["name"]).chain(f["aliases"].as_array().unwrap()) {
            let name = name.as_str().unwrap();
            assert!(registry.find(name).is_some(), "--as {name} is refused");
        }
    }
    let text = evaltally(&["formats"]);
    for name in want {
        assert!(text.stdout.lines().any(|l| l.starts_with(name)), "{name} missing:\n{}", text.stdout);
    }
}

#[test]
fn stability_answers_which_tests_flip_on_the_first_screen() {
    let run = evaltally(&["stability", "testdata/bfcl/v4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.stdout.lines().count();
    assert!(lines <= 40, "{lines} lines:\n{}", run.stdout);
    // Every flaky test of acme_tiny-7b is named, under its model's table.
    let json = evaltally(&["stability", "testdata/bfcl/v4", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    for model in doc["models"].as_array().unwrap() {
        for c in model["categories"].as_array().unwrap() {
            for t in c["tests"].as_array().unwrap().iter().filter(|t| t["class"] == "flaky") {
                assert!(run.stdout.contains(t["id"].as_str().unwrap()), "{} not listed:\n{}", t["id"], run.stdout);
            }
        }
    }
    // The rest is one flag away, and every heading is explained.
    let detail = evaltally(&["stability", "testdata/bfcl/v4", "--detail"]);
    assert!(detail.stdout.contains("pass^k") && detail.stdout.contains("SE clust"), "{}", detail.stdout);
    let help = evaltally(&["help", "stability"]);
    for heading in ["SE clust", "run noise", "pass^k", "stable fail", "one run"] {
        assert!(help.stdout.contains(heading), "help stability does not explain {heading}");
    }
}
