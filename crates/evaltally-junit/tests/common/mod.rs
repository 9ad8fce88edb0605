//! Rendering a read report as reviewable text, shared by the snapshot tests.

use std::fmt::Write as _;

use evaltally_junit::JunitRun;

/// At most `n` characters of `s` on one line, for snapshots.
pub(crate) fn clip(s: &str, n: usize) -> String {
    let flat = s.replace('\n', "⏎").replace('\r', "␍").replace('\t', "→");
    let mut out: String = flat.chars().take(n).collect();
    if out.len() < flat.len() {
        out.push('…');
    }
    out
}

/// Everything the adapter saw: suites, test cases, category runs, diagnostics.
pub(crate) fn render(run: &JunitRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "run {:?} (testsuites name {:?}), model {:?}, started at {:?}",
        run.run_name(),
        run.name,
        run.model(),
        run.started_at()
    );
    out.push_str("suites:\n");
    for (i, s) in run.suites.iter().enumerate() {
        let props: Vec<String> = s.properties.iter().map(|p| format!("{}={}", p.name, clip(&p.value, 30))).collect();
        let _ = writeln!(
            out,
            "  [{i}] {:?} parent {:?} line {}, {:?} ms, declared {:?}{}{}",
            s.name,
            s.parent,
            s.line,
            s.duration_ms,
            s.declared,
            if props.is_empty() { String::new() } else { format!(", properties {}", props.join(" ")) },
            s.system_out.as_deref().map(|o| format!(", out {:?}", clip(o, 40))).unwrap_or_default(),
        );
    }
    out.push_str("cases:\n");
    for c in &run.cases {
        let _ = writeln!(
            out,
            "  line {} [{}] {:?}{}: {:?}, {:?} ms{}",
            c.line,
            c.category,
            c.id,
            if c.duplicate { " (duplicate)" } else { "" },
            c.status,
            c.duration_ms,
            match (c.input_tokens(), c.output_tokens(), c.cost_usd()) {
                (None, None, None) => String::new(),
                (i, o, cost) => format!(", tokens {i:?}/{o:?}, cost {cost:?}"),
            }
        );
        if let Some(t) = c.error_type() {
            let _ = writeln!(out, "      error type {t:?}");
        }
        if let Some(m) = c.message() {
            let _ = writeln!(out, "      message {:?}", clip(m, 90));
        }
        for (label, text) in [("out", &c.system_out), ("err", &c.system_err)] {
            if let Some(text) = text {
                let _ = writeln!(out, "      system-{label} {:?}", clip(text, 60));
            }
        }
    }
    out.push_str("category runs:\n");
    for cat in run.category_runs("r", "m") {
        let _ = writeln!(
            out,
            "  {}: {} listed, {} passed, {} failed{}",
            cat.category,
            cat.len(),
            cat.passed(),
            cat.failed(),
            if cat.scored { "" } else { ", unscored" }
        );
        for t in cat.tests() {
            let label = t.error_type.map(|e| format!(" {e}")).unwrap_or_default();
            let _ = writeln!(out, "    {} {:?}{label}", t.id, t.outcome);
        }
    }
    out.push_str("diagnostics:\n");
    for d in &run.diagnostics {
        let _ = writeln!(out, "  {d}");
    }
    out
}
