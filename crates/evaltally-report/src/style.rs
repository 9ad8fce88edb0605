use evaltally_core::text::printable;

/// How text output looks: with ANSI colours or plain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Whether to emit ANSI colour codes.
    pub color: bool,
}

impl Style {
    /// No colours.
    pub fn plain() -> Self {
        Self { color: false }
    }

    /// ANSI colours.
    pub fn colored() -> Self {
        Self { color: true }
    }

    pub(crate) fn paint(self, code: &str, text: &str) -> String {
        if self.color { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
    }

    pub(crate) fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    pub(crate) fn green(self, text: &str) -> String {
        self.paint("32", text)
    }

    pub(crate) fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub(crate) fn red(self, text: &str) -> String {
        self.paint("31", text)
    }
}

/// How many run names a text output lists in full; longer lists show the first two and
/// the last (JSON outputs always list every run).
pub const RUN_LIST_MAX: usize = 8;

/// Run names for a text line: all of them up to [`RUN_LIST_MAX`], else the first two, an
/// ellipsis and the last, so a header stays one line at thousands of runs. Each name is
/// shown with [`printable`].
///
/// ```
/// use evaltally_report::run_list;
/// let few: Vec<String> = ["a", "b\u{1b}[2J"].map(String::from).to_vec();
/// assert_eq!(run_list(&few), "a, b\\u{1b}[2J");
/// let many: Vec<String> = (0..40).map(|i| format!("run-{i:03}")).collect();
/// assert_eq!(run_list(&many), "run-000, run-001, …, run-039");
/// ```
pub fn run_list(runs: &[String]) -> String {
    match runs {
        [first, second, .., last] if runs.len() > RUN_LIST_MAX => {
            format!("{}, {}, …, {}", printable(first), printable(second), printable(last))
        }
        _ => runs.iter().map(|r| printable(r)).collect::<Vec<_>>().join(", "),
    }
}

/// The widest a table's column is padded to: a longer name (a model named by a 20 MB
/// string) runs past its column rather than widening every row, and stays within what
/// `format!`'s width takes (65,535).
pub(crate) const MAX_COLUMN: usize = 200;

/// How many columns a value from an input takes once shown with [`printable`], at most
/// [`MAX_COLUMN`].
pub(crate) fn width_of(s: &str) -> usize {
    printable(s).chars().take(MAX_COLUMN + 1).count().min(MAX_COLUMN)
}

/// How many per-run outcomes a text line shows; longer strings keep the most recent ones.
pub const OUTCOMES_MAX: usize = 60;

/// A test's per-run outcome string (`PFP-F`) for a text line: whole up to
/// [`OUTCOMES_MAX`] runs, else `…` and the last [`OUTCOMES_MAX`] (the most recent runs, in
/// run order); JSON keeps the whole string.
///
/// ```
/// use evaltally_report::outcomes_text;
/// assert_eq!(outcomes_text("PF-P"), "PF-P");
/// let long = "PF".repeat(100);
/// let shown = outcomes_text(&long);
/// assert!(shown.starts_with('…') && shown.ends_with("PF") && shown.chars().count() == 61);
/// ```
pub fn outcomes_text(outcomes: &str) -> String {
    let n = outcomes.chars().count();
    if n <= OUTCOMES_MAX {
        return outcomes.to_string();
    }
    let tail: String = outcomes.chars().skip(n - OUTCOMES_MAX).collect();
    format!("…{tail}")
}

/// The diagnostics of a Markdown report, folded in a `<details>` block headed by their
/// counts (nothing when there are none). Facts (`info`) are left out: they are said with
/// `--verbose`, and are no problem.
pub(crate) fn diagnostics_markdown(out: &mut String, diagnostics: &[evaltally_core::Diagnostic]) {
    use std::fmt::Write as _;
    if diagnostics.iter().all(evaltally_core::Diagnostic::is_info) {
        return;
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.iter().filter(|d| d.is_warning()).count();
    let notes = diagnostics.iter().filter(|d| d.is_note()).count();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let not_read = if notes == 0 { String::new() } else { format!(", {} not read", count(notes, "file")) };
    let _ = writeln!(
        out,
        "\n<details><summary>{}, {}{not_read}</summary>\n",
        count(warnings, "warning"),
        count(errors, "error")
    );
    for d in diagnostics.iter().filter(|d| !d.is_info()) {
        let _ = writeln!(out, "- {}", evaltally_core::text::markdown_code(&d.to_string().replace('`', "'"), false));
    }
    out.push_str("\n</details>\n");
}

/// `n` with a comma between thousands: `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    group_digits(&n.to_string())
}

/// A string of digits with a comma between thousands.
pub(crate) fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The diagnostics of a JSON document, in its `warnings`, `errors` and (when there are any)
/// `not_read` lists.
#[derive(Debug, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Listed<'a> {
    /// Warnings: what was tolerated.
    pub warnings: Vec<&'a evaltally_core::Diagnostic>,
    /// Errors: what could not be read and was left out.
    pub errors: Vec<&'a evaltally_core::Diagnostic>,
    /// Files found and not read, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_read: Vec<&'a evaltally_core::Diagnostic>,
}

impl<'a> Listed<'a> {
    /// `diagnostics` sorted into the three lists.
    pub fn of(diagnostics: &'a [evaltally_core::Diagnostic]) -> Self {
        Listed { warnings: warnings(diagnostics), errors: errors(diagnostics), not_read: notes(diagnostics) }
    }
}

/// The warnings among `diagnostics`, for a JSON document's `warnings`.
pub(crate) fn warnings(diagnostics: &[evaltally_core::Diagnostic]) -> Vec<&evaltally_core::Diagnostic> {
    diagnostics.iter().filter(|d| d.is_warning()).collect()
}

/// The notes among `diagnostics` (files found and not read), for a JSON document's
/// `not_read`.
pub(crate) fn notes(diagnostics: &[evaltally_core::Diagnostic]) -> Vec<&evaltally_core::Diagnostic> {
    diagnostics.iter().filter(|d| d.is_note()).collect()
}

/// The errors among `diagnostics`, for a JSON document's `errors`.
pub(crate) fn errors(diagnostics: &[evaltally_core::Diagnostic]) -> Vec<&evaltally_core::Diagnostic> {
    diagnostics.iter().filter(|d| d.is_error()).collect()
}

/// "1 run" / "3 runs".
pub(crate) use evaltally_core::text::plural;
