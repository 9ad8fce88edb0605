//! The efficiency part of a comparison (cost, duration, tokens), in text and Markdown.

use std::fmt::Write as _;

use evaltally_analyzer::efficiency::{Efficiency, Figures};
use evaltally_core::text::{markdown_code, markdown_text, printable};

use crate::Style;

/// `a → b (±d, ±p%)` for one figure, `None` when neither side has it.
fn change(a: Option<f64>, b: Option<f64>, show: impl Fn(f64) -> String) -> Option<String> {
    match (a, b) {
        (None, None) => None,
        (Some(a), Some(b)) => {
            let d = b - a;
            let sign = if d < 0.0 { "-" } else { "+" };
            let pct = if a == 0.0 { String::new() } else { format!(", {sign}{:.1}%", (d / a * 100.0).abs()) };
            Some(format!("{} → {} ({sign}{}{pct})", show(a), show(b), show(d.abs())))
        }
        (a, b) => {
            Some(format!("{} → {}", a.map_or_else(|| "-".to_string(), &show), b.map_or_else(|| "-".to_string(), &show)))
        }
    }
}

fn usd(v: f64) -> String {
    format!("${v:.2}")
}

fn seconds(ms: f64) -> String {
    format!("{:.1} s", ms / 1000.0)
}

fn tokens(v: f64) -> String {
    crate::group_digits(&format!("{:.0}", v.abs()))
}

/// The total lines: (label, change).
fn totals(e: &Efficiency) -> Vec<(&'static str, String)> {
    [
        ("cost", change(e.base.cost_usd, e.new.cost_usd, usd)),
        ("duration", change(e.base.duration_ms, e.new.duration_ms, seconds)),
        ("tokens", change(e.base.tokens, e.new.tokens, tokens)),
    ]
    .into_iter()
    .filter_map(|(label, c)| c.map(|c| (label, c)))
    .collect()
}

/// What changed in one test, in words.
fn test_changes(base: &Figures, new: &Figures, changed: &[&str]) -> String {
    changed
        .iter()
        .filter_map(|what| match *what {
            "cost" => change(base.cost_usd, new.cost_usd, usd).map(|c| format!("cost {c}")),
            "duration" => change(base.duration_ms, new.duration_ms, seconds).map(|c| format!("duration {c}")),
            _ => change(base.tokens, new.tokens, tokens).map(|c| format!("tokens {c}")),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The efficiency section as text.
pub(crate) fn text(out: &mut String, e: &Efficiency, style: Style) {
    let per = if e.base.runs > 1 || e.new.runs > 1 { ", each test's mean over its runs" } else { "" };
    let _ = writeln!(out, "\n{} (the {} tests both sides ran{per}; base → new):", style.bold("efficiency"), e.common);
    for (label, c) in totals(e) {
        let _ = writeln!(out, "  {label:<10}  {c}");
    }
    if e.tests.is_empty() {
        let _ =
            writeln!(out, "  no test changed notably (cost 30% and $0.05, duration 20% and 5 s, tokens 20% and 500)");
        return;
    }
    let _ = writeln!(out, "  changed notably:");
    for t in &e.tests {
        let _ = writeln!(
            out,
            "    {} ({} / {}): {}",
            printable(&t.id),
            printable(&t.model),
            printable(&t.category),
            test_changes(&t.base, &t.new, &t.changed)
        );
    }
}

/// The efficiency section as Markdown.
pub(crate) fn markdown(out: &mut String, e: &Efficiency) {
    let _ = writeln!(out, "\n## Efficiency\n\nOver the {} tests both sides ran.\n", e.common);
    out.push_str("| figure | base → new |\n|---|---|\n");
    for (label, c) in totals(e) {
        let _ = writeln!(out, "| {label} | {} |", markdown_text(&c));
    }
    if !e.tests.is_empty() {
        out.push_str("\n| test | model | category | change |\n|---|---|---|---|\n");
        for t in &e.tests {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                markdown_code(&t.id, true),
                markdown_text(&t.model),
                markdown_text(&t.category),
                markdown_text(&test_changes(&t.base, &t.new, &t.changed))
            );
        }
    }
}
