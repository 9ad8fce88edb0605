//! Stability of BFCL runs, with only the `bfcl` feature: the smallest build a tool that
//! reads one format needs (`evaltally-analyzer = { version = "0.1", default-features =
//! false, features = ["bfcl"] }`).
//!
//! ```sh
//! cargo run -p evaltally-analyzer --example stability_bfcl --no-default-features --features bfcl -- testdata/bfcl/v4
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;

use evaltally_analyzer::{Filter, NoProgress, load, stability};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        paths.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/bfcl/v4"));
    }
    let loaded = load::load(&paths, &Filter::default(), &NoProgress)?;
    for d in &loaded.diagnostics {
        eprintln!("{d}");
    }
    let report = stability::analyze(&loaded.runs);
    for model in &report.models {
        let o = model.overall;
        println!(
            "{}: {} runs, {} tests: {} stable pass, {} flaky, {} stable fail",
            model.model,
            model.runs.len(),
            o.total,
            o.stable_pass,
            o.flaky,
            o.stable_fail
        );
    }
    let formats: Vec<&str> = load::registry().formats().iter().map(|f| f.name()).collect();
    println!("formats in this build: {}", formats.join(", "));
    Ok(())
}
