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
