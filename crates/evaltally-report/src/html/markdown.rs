//! A Markdown summary of the report that links to the HTML file, for a CI job summary.

use std::fmt::Write as _;

use evaltally_core::text::{markdown_code, markdown_text};

use super::Data;

/// A link destination for `path`, a file path or a URL: a space, a parenthesis, a bracket, a
/// quote, a backslash, a control character or a byte past ASCII is percent-encoded, so it can
/// neither end the link nor reach the reader raw. A URL's own characters (`:`, `?`, `#`, `&`,
/// `=`, an escape such as `%20`, …) are kept, so `https://…` stays a working link.
fn link_target(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    for (i, &b) in bytes.iter().enumerate() {
        let escape = b == b'%' && bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
        if b.is_ascii_alphanumeric()
            || escape
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'/'
                    | b':'
                    | b'?'
                    | b'#'
                    | b'&'
                    | b'='
                    | b'+'
                    | b','
                    | b';'
                    | b'@'
                    | b'!'
                    | b'$'
                    | b'*'
            )
        {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn percent(part: usize, total: usize) -> String {
    if total == 0 { "-".to_string() } else { format!("{:.1}%", 100.0 * part as f64 / total as f64) }
}

/// The summary: per model its runs and its stable pass, flaky, stable fail and errored
/// counts; the comparison's overall line per model when there is one; and a link to
/// `html_path` (as the reader of the summary reaches it: relative to the summary, or a CI
/// artifact's name).
///
/// ```
/// use evaltally_report::html::{self, Input, Options};
/// use evaltally_analyzer::stability;
/// use evaltally_core::{CategoryRun, Outcome};
///
/// let mut run = CategoryRun::new("run-1", "m", "simple");
/// run.push("simple_0", Outcome::Pass, None);
/// let runs = [run];
/// let report = stability::analyze(&runs);
/// let input = Input { stability: &report, runs: &runs, records: &[], compare: None, diagnostics: &[], inputs: &[], estimates: &[] };
/// let data = html::data(&input, &Options::default());
/// let md = html::markdown(&data, "out/my report.html");
/// assert!(md.contains("(out/my%20report.html)"));
/// assert!(md.contains("| m | 1 | 1 | 1 (100.0%) | 0 (0.0%) | 0 (0.0%) | 0 |"));
/// ```
pub fn markdown(data: &Data, html_path: &str) -> String {
    let mut out = String::from("# evaltally report\n\n");
    let _ = writeln!(
        out,
        "[Open the report]({}): overview, tests × runs heatmap{}{}, filters and per-run details.\n",
        link_target(html_path),
        if data.models.iter().any(|m| m.timed) { ", pass rate over time" } else { "" },
        if data.compare.is_some() { ", comparison" } else { "" },
    );
    out.push_str("| model | runs | tests | stable pass | flaky | stable fail | errored |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for m in &data.models {
        let c = &m.overall;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} ({}) | {} ({}) | {} ({}) | {} |",
            markdown_text(&m.model),
            m.runs.len(),
            c.total,
            c.stable_pass,
            percent(c.stable_pass, c.total),
            c.flaky,
            percent(c.flaky, c.total),
            c.stable_fail,
            percent(c.stable_fail, c.total),
            c.errored
        );
    }
    if let Some(compare) = &data.compare {
        let _ = writeln!(
            out,
            "\n## Compare\n\n{} → {} ({}; p-values: {})\n",
            side(&compare.base_runs),
            side(&compare.new_runs),
            if compare.mode == "runs" { "single runs" } else { "groups" },
            compare.test
        );
        out.push_str("| model | base | new | regressions | improvements | p-value |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|\n");
        for m in &compare.models {
            let s = &m.overall;
            let rate = |r: Option<f64>| r.map_or_else(|| "-".to_string(), |r| format!("{:.1}%", 100.0 * r));
            // No test on both sides: no p-value, as `compare` says ("not compared").
            let p = match (s.common, s.significant) {
                (0, _) => "- (not compared)".to_string(),
                (_, true) => format!("**{:.3}**", s.p_value),
                (_, false) => format!("{:.3}", s.p_value),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {p} |",
                markdown_text(&m.model),
                rate(s.base_rate),
                rate(s.new_rate),
                s.regressions,
                s.improvements,
            );
        }
    }
    let d = &data.diagnostics;
    if d.warnings + d.errors > 0 {
        let _ = writeln!(
            out,
            "\nReading gave {} warning{} and {} error{} (listed in the report).",
            d.warnings,
            if d.warnings == 1 { "" } else { "s" },
            d.errors,
            if d.errors == 1 { "" } else { "s" }
        );
    }
    out
}

/// A side's runs for a line: one name, or how many and the first and last.
fn side(runs: &[String]) -> String {
    match runs {
        [] => "no runs".to_string(),
        [one] => markdown_code(one, false),
        [first, .., last] => {
            format!("{} runs ({} … {})", runs.len(), markdown_code(first, false), markdown_code(last, false))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_are_percent_encoded() {
        assert_eq!(link_target("a b/(c).html"), "a%20b/%28c%29.html");
        assert_eq!(link_target("x\u{1b}]y"), "x%1B%5Dy");
        assert_eq!(link_target("héllo.html"), "h%C3%A9llo.html");
        // A URL stays one: its scheme, query, fragment and escapes are kept.
        assert_eq!(link_target("https://x.example/a?b=1&c=2#frag"), "https://x.example/a?b=1&c=2#frag");
        assert_eq!(link_target("https://x.example/my%20report.html"), "https://x.example/my%20report.html");
        assert_eq!(link_target("100%.html"), "100%25.html");
        assert_eq!(link_target("a)[b]<c>\"d'"), "a%29%5Bb%5D%3Cc%3E%22d%27");
    }
}
