//! `cargo xtask man [DIR]`: evaltally's man pages, from the clap definition the executable
//! parses with (`clap_mangen`): `evaltally.1` and `evaltally-<command>.1` per subcommand.

use std::path::Path;

use anyhow::{Context, Result};

use crate::{relative, target_dir};

pub(crate) fn run(dir: Option<&Path>) -> Result<()> {
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None => target_dir()?.join("man"),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let command = evaltally::command().version(evaltally::VERSION);
    clap_mangen::generate_to(command, &dir).with_context(|| format!("writing man pages into {}", dir.display()))?;
    let mut pages: Vec<_> = std::fs::read_dir(&dir)?.filter_map(Result::ok).map(|e| e.file_name()).collect();
    pages.sort();
    eprintln!("xtask: wrote {} man pages into {}", pages.len(), relative(&dir).display());
    Ok(())
}
