//! A progress bar on stderr for long scans, only on a terminal.

use std::io::IsTerminal;

use evaltally_analyzer::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Scans smaller than this finish before a bar would be worth drawing.
const MIN_BYTES: u64 = 64 << 20;

/// Drives an indicatif bar by bytes read.
#[derive(Debug)]
pub(crate) struct Bar(ProgressBar);

impl Bar {
    pub(crate) fn new() -> Self {
        Self(ProgressBar::hidden())
    }
}

impl Progress for Bar {
    fn start(&self, files: u64, bytes: u64) {
        if bytes < MIN_BYTES || !std::io::stderr().is_terminal() {
            return;
        }
        self.0.set_draw_target(ProgressDrawTarget::stderr());
        self.0.set_length(bytes);
        self.0.set_style(
            ProgressStyle::with_template(
                "{spinner} reading {msg} [{bar:30}] {binary_bytes}/{binary_total_bytes} ({eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        self.0.set_message(format!("{files} files"));
    }

    fn advance(&self, bytes: u64) {
        self.0.inc(bytes);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
