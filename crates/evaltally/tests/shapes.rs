//! Every shape the format catalogues (`docs/formats/<format>.md`) list, through `stability`
//! on its fixture: what evaltally makes of each file the harnesses write, reviewed once as
//! a snapshot (output and exit code) and held to it.
//!
//! A catalogue's `## Shapes` table has one row per shape: its name, its writer, its fixture
//! (the first code span: a file or folder below `testdata/`; further code spans are
//! arguments for `stability`) and what evaltally does with it. Every fixture folder below
//! `testdata/shapes/<format>/` is a row's.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::evaltally;
use evaltally_testkit::workspace_root;

/// One row of a catalogue's table.
#[derive(Debug)]
struct Shape {
    format: String,
    name: String,
    fixture: String,
    args: Vec<String>,
}

/// The code spans of a Markdown table cell, in order.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The rows of the `## Shapes` table of every catalogue.
fn shapes() -> Vec<Shape> {
    let dir = workspace_root().join("docs/formats");
    let mut docs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    assert!(!docs.is_empty(), "no catalogue in {}", dir.display());
    let mut out = Vec::new();
    for doc in docs {
        let format = doc.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&doc).unwrap();
        let table = text.split("\n## Shapes\n").nth(1).unwrap_or_else(|| panic!("{format}: no `## Shapes` section"));
        let rows = table.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).skip(2);
        let mut count = 0;
        for row in rows {
            let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
            assert_eq!(cells.len(), 4, "{format}: a row of shape, writer, fixture and evaltally: {row}");
            let name =
                code_spans(cells[0]).into_iter().next().unwrap_or_else(|| panic!("{format}: no shape name: {row}"));
            let mut spans = code_spans(cells[2]).into_iter();
            let fixture = spans.next().unwrap_or_else(|| panic!("{format}/{name}: no fixture"));
            assert!(fixture.starts_with("testdata/"), "{format}/{name}: a fixture below testdata/, not {fixture}");
            assert!(workspace_root().join(&fixture).exists(), "{format}/{name}: {fixture} does not exist");
            out.push(Shape { format: format.clone(), name, fixture, args: spans.collect() });
            count += 1;
        }
        assert!(count > 0, "{format}: an empty shapes table");
    }
    out
}

#[test]
fn every_shape_in_the_catalogues_through_stability() {
    for shape in shapes() {
        let mut args = vec!["stability", shape.fixture.as_str()];
        args.extend(shape.args.iter().map(String::as_str));
        let run = evaltally(&args);
        assert!(matches!(run.code, 0..=2), "{shape:?}: {}", run.transcript());
        let name = format!("{}__{}", shape.format, shape.name);
        insta::assert_snapshot!(name, format!("$ evaltally {}\n{}", args.join(" "), run.transcript()));
    }
}

#[test]
fn every_fixture_folder_is_a_catalogued_shape() {
    let listed: BTreeSet<PathBuf> = shapes().iter().map(|s| PathBuf::from(&s.fixture)).collect();
    let root = workspace_root().join("testdata/shapes");
    for format in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        for entry in std::fs::read_dir(&format).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
            let relative = entry.strip_prefix(workspace_root()).unwrap();
            let covered = listed.iter().any(|f| f.starts_with(relative) || relative.starts_with(f));
            assert!(covered, "{} is no shape's fixture in docs/formats/", relative.display());
        }
    }
    // Each catalogue is a format evaltally reads.
    let names: BTreeSet<String> = shapes().into_iter().map(|s| s.format).collect();
    for name in &names {
        assert!(evaltally_analyzer::load::registry().find(name).is_some(), "docs/formats/{name}.md: not a format");
    }
    assert_eq!(names.len(), evaltally_analyzer::load::registry().formats().len(), "a catalogue per format");
}
