//! `evaltally push` and `evaltally runs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;

use evaltally_analyzer::{Filter, validate};
use evaltally_core::Diagnostic;
use evaltally_core::schema::{SchemaId, SortedKeys};
use evaltally_core::text::printable;
use serde::Serialize;

use super::stability::explain;
use crate::cli::{PushArgs, RunsArgs, RunsFormat};
use crate::{Exit, output, store};

pub(crate) fn run(args: &PushArgs, explicit: Option<&Path>) -> anyhow::Result<Exit> {
    let location = store::location(explicit)?;
    // Connect before reading anything: a wrong password is said at once.
    let mut db = match &location {
        store::Location::Postgres(url) => Some(store::connect(url)?),
        store::Location::Folder(_) => None,
    };
    let mut exit = Exit::Ok;
    // PATHs stored (or already in the store), for what a fault leaves said.
    let mut done = 0usize;
    // PATHs that hold nothing evaltally reads: said, and the others pushed all the same.
    let mut nothing = 0usize;
    for path in &args.paths {
        let validated = match validate::validate(std::slice::from_ref(path), false) {
            Ok(validated) => validated,
            Err(e) => {
                output::error(&format!("{:#}", explain(&e)));
                nothing += 1;
                continue;
            }
        };
        output::report_diagnostics(&validated.diagnostics);
        let invalid: Vec<_> = validated.files.iter().filter(|f| !f.is_valid()).collect();
        let unreadable: Vec<&Diagnostic> = validated.diagnostics.iter().filter(|d| d.is_error()).collect();
        if !invalid.is_empty() || !unreadable.is_empty() {
            let mut msg = format!("{}: not pushed, ", output::shown(path));
            if invalid.is_empty() {
                msg.push_str("files could not be read (see above)\n");
            } else {
                msg.push_str("invalid:\n");
            }
            for f in invalid {
                for e in f.errors() {
                    let _ = writeln!(msg, "  {}: {e}", output::shown(&f.path));
                }
            }
            output::error(msg.trim_end());
            exit = crate::Exit::Problems;
            continue;
        }
        if validated.files.iter().all(|f| f.format == "unknown") {
            // Stored, it would be an entry of no run that no selection finds by its branch.
            output::error(&format!(
                "{}: not pushed, it holds no result file evaltally reads (`evaltally validate {} --verbose` says why each file was not read)",
                output::shown(path),
                output::shown(path)
            ));
            nothing += 1;
            continue;
        }
        let formats: BTreeSet<&str> = validated
            .files
            .iter()
            .filter(|f| f.format != "unknown")
            .map(|f| f.format.split('-').next().unwrap_or(&f.format))
            .collect();
        let format = formats.into_iter().collect::<Vec<_>>().join("+");
        // A fault (a full disk, a lost server) stops the push: said with the PATH and what
        // the PATHs before it left in the store, each stored whole or not at all.
        let stopped = |e: anyhow::Error| -> anyhow::Error {
            let rest = args.paths.len() - done;
            e.context(format!(
                "pushing {}: not stored; {done} of {} PATHs were stored before it; push the {rest} left again",
                output::shown(path),
                args.paths.len()
            ))
        };
        if let Some(db) = &mut db {
            push_postgres(db, path, &format, args).map_err(stopped)?;
            done += 1;
            continue;
        }
        let store::Location::Folder(dir) = &location else { continue };
        let runs = summaries(path, Some(args));
        let pushed = store::push(dir, path, &format, &runs).map_err(stopped)?;
        done += 1;
        // The copy walks the run with the policy validation read it with: anything it left
        // out (a link leaving the run, a loop) was reported above, unless it is new.
        let new: Vec<Diagnostic> =
            pushed.diagnostics.into_iter().filter(|d| !validated.diagnostics.contains(d)).collect();
        output::report_diagnostics(&new);
        if pushed.already {
            output::print(&format!("{} is already in the store as store:{}\n", output::shown(path), pushed.name))?;
        } else {
            output::print(&format!("pushed {} as store:{}\n", output::shown(path), pushed.name))?;
        }
    }
    // Nothing found anywhere is "not done" (2), as for every command; a PATH of nothing
    // beside PATHs pushed, or beside invalid ones, is a problem with the data (1).
    Ok(match (nothing, done, exit) {
        (0, _, exit) => exit,
        (_, 0, Exit::Ok) => Exit::Usage,
        _ => Exit::Problems,
    })
}

/// Pushes the runs below `path` into the PostgreSQL store, in one transaction.
fn push_postgres(db: &mut evaltally_store::Store, path: &Path, format: &str, args: &PushArgs) -> anyhow::Result<()> {
    let paths = [path.to_path_buf()];
    let filter = Filter::default();
    let mut loaded = evaltally_analyzer::load::load_cached(
        &paths,
        &filter,
        &evaltally_analyzer::load::NoProgress,
        crate::cache::get(),
    )
    .map_err(|e| explain(&e))?;
    let mut records = super::stability::records(&paths, &filter)?;
    for run in &mut loaded.runs {
        let mut meta = run.meta.as_deref().cloned().unwrap_or_default();
        if label(&mut meta, args) {
            run.meta = Some(std::sync::Arc::new(meta));
        }
    }
    for run in &mut records.runs {
        label(&mut run.meta, args);
    }
    crate::cache::settle();
    let walked = evaltally_format::walk::walk(&paths)?;
    let mut files = Vec::with_capacity(walked.files.len());
    for f in &walked.files {
        let rel = if f.named {
            f.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
        } else {
            f.path.strip_prefix(path).unwrap_or(&f.path).to_string_lossy().into_owned()
        };
        let bytes = std::fs::read(&f.path).with_context(|| format!("cannot read {}", output::shown(&f.path)))?;
        files.push((rel, bytes));
    }
    let source = evaltally_store::PushSource {
        source: path.to_string_lossy().into_owned(),
        format: format.to_string(),
        files_digest: evaltally_store::PushSource::digest_files(files),
        fail_before_commit: false,
    };
    let pushed = db.push(&source, &loaded.runs, &records.runs).map_err(store::store_error)?;
    let mut line = format!("pushed {} to {}: ", output::shown(path), db.shown_url());
    let _ = write!(line, "{} run{} added", pushed.added.len(), if pushed.added.len() == 1 { "" } else { "s" });
    if !pushed.already.is_empty() {
        let _ = write!(line, ", {} already there", pushed.already.len());
    }
    let names: Vec<String> = pushed
        .added
        .iter()
        .chain(&pushed.already)
        .map(|(run, _, _)| run.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !names.is_empty() {
        let _ = write!(line, " (store:{})", printable(&names.join(", store:")));
    }
    line.push('\n');
    output::print(&line)?;
    Ok(())
}

/// The identifier of [`RunsDocument`], `evaltally.runs/1`.
pub(crate) const RUNS_SCHEMA: SchemaId = SchemaId::new("runs", 1);

/// The JSON document `evaltally runs --format json` prints: what the results store holds,
/// newest first. A folder store lists its entries (`entries`), each with the runs it holds;
/// a PostgreSQL store lists its runs (`runs`). Its keys are written sorted, the `schema`
/// key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct RunsDocument<'a> {
    /// The document's name and version, [`RUNS_SCHEMA`].
    pub(crate) schema: SchemaId,
    /// The store: its folder, or its PostgreSQL URL without the password.
    pub(crate) store: String,
    /// Entries (runs, of a PostgreSQL store) the store holds, before `--limit` (and, for a
    /// PostgreSQL store, after `--branch` and `--tier`).
    pub(crate) found: usize,
    /// What is listed.
    #[serde(flatten)]
    pub(crate) listed: RunsListed<'a>,
}

/// What `runs` lists: a folder store's entries or a PostgreSQL store's runs.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) enum RunsListed<'a> {
    /// A folder store's entries.
    #[serde(rename = "entries")]
    Entries(Vec<EntryDocument<'a>>),
    /// A PostgreSQL store's runs.
    #[serde(rename = "runs")]
    Runs(Vec<StoredRunDocument<'a>>),
}

/// One entry of a folder store: what one `push` stored.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct EntryDocument<'a> {
    /// Its name (`store:NAME` selects it).
    pub(crate) name: &'a str,
    /// The formats of its files (`bfcl`, `gstack+junit`, …).
    pub(crate) format: &'a str,
    /// The path it was pushed from.
    pub(crate) source: &'a str,
    /// When it was pushed, in seconds since 1970.
    pub(crate) pushed_at_unix: u64,
    /// The runs it holds.
    pub(crate) runs: &'a [store::RunSummary],
}

/// One run of a PostgreSQL store.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct StoredRunDocument<'a> {
    /// Its row id.
    pub(crate) id: i64,
    /// The run.
    pub(crate) run: &'a str,
    /// The model.
    pub(crate) model: &'a str,
    /// The formats of its files.
    pub(crate) format: &'a str,
    /// The path it was pushed from.
    pub(crate) source: &'a str,
    /// When it was pushed, in seconds since 1970.
    pub(crate) pushed_at_unix: i64,
    /// When it ran, as it records it.
    pub(crate) timestamp: Option<&'a str>,
    /// Its git branch.
    pub(crate) git_branch: Option<&'a str>,
    /// Its git commit.
    pub(crate) git_sha: Option<&'a str>,
    /// Its tier.
    pub(crate) tier: Option<&'a str>,
    /// Its version.
    pub(crate) version: Option<&'a str>,
    /// Tests passed.
    pub(crate) passed: i64,
    /// Tests passed or failed.
    pub(crate) scored: i64,
    /// Dollars over its tests, when they record them.
    pub(crate) cost_usd: Option<f64>,
}

/// What `runs` shows of each run below `path` (quietly: its files were checked already).
/// The summaries of the runs below `path`, labelled as `push` was told (`--branch`, `--commit`).
fn summaries(path: &Path, args: Option<&PushArgs>) -> Vec<store::RunSummary> {
    let records = super::stability::records(std::slice::from_ref(&path.to_path_buf()), &Filter::default());
    let mut runs = records.map(|r| r.runs).unwrap_or_default();
    if let Some(args) = args {
        for run in &mut runs {
            label(&mut run.meta, args);
        }
    }
    runs.iter().map(store::RunSummary::of).collect()
}

/// Fills the branch and commit `--branch` and `--commit` give where the run's files do not
/// say them; whether anything changed.
fn label(meta: &mut evaltally_core::RunMeta, args: &PushArgs) -> bool {
    let mut changed = false;
    for (field, given) in [(&mut meta.git_branch, &args.branch), (&mut meta.git_sha, &args.commit)] {
        if field.is_none() && given.is_some() {
            field.clone_from(given);
            changed = true;
        }
    }
    changed
}

/// One line of `runs`: an entry with what its runs say (the first run that says it).
struct Listed {
    entry: store::Entry,
    runs: Vec<store::RunSummary>,
}

impl Listed {
    fn first<'a>(&'a self, pick: impl Fn(&'a store::RunSummary) -> Option<&'a String>) -> Option<&'a str> {
        self.runs.iter().find_map(pick).map(String::as_str)
    }

    /// When the runs ran (the earliest timestamp), as gstack's list shows it.
    fn date(&self) -> Option<&str> {
        self.runs.iter().filter_map(|r| r.timestamp.as_deref()).min()
    }

    fn cost(&self) -> Option<f64> {
        let costs: Vec<f64> = self.runs.iter().filter_map(|r| r.cost_usd).collect();
        (!costs.is_empty()).then(|| costs.iter().sum())
    }
}

pub(crate) fn list(args: &RunsArgs, explicit: Option<&Path>) -> anyhow::Result<Exit> {
    let dir = match store::location(explicit)? {
        store::Location::Folder(dir) => dir,
        store::Location::Postgres(url) => return list_postgres(args, &url),
    };
    // A push killed while copying left its entry unfinished: no later command keeps it.
    store::remove_abandoned(&dir);
    let total = store::entries(&dir)?;
    let found = total.len();
    let mut listed: Vec<Listed> = total
        .into_iter()
        .map(|entry| {
            // An entry pushed before summaries were kept is read now.
            let runs = entry.runs.clone().unwrap_or_else(|| summaries(&dir.join(&entry.name), None));
            Listed { entry, runs }
        })
        .filter(|l| {
            let matches = |want: &Option<String>, have: Option<&str>| want.as_deref().is_none_or(|w| have == Some(w));
            matches(&args.branch, l.first(|r| r.git_branch.as_ref()))
                && matches(&args.tier, l.first(|r| r.tier.as_ref()))
        })
        .collect();
    listed.sort_by(|a, b| {
        store::newest_first(
            (a.date(), a.entry.pushed_at_unix, &a.entry.name),
            (b.date(), b.entry.pushed_at_unix, &b.entry.name),
        )
    });
    if args.limit > 0 {
        listed.truncate(args.limit);
    }
    let text = match args.format {
        RunsFormat::Json => {
            let entries = listed
                .iter()
                .map(|l| EntryDocument {
                    name: &l.entry.name,
                    format: &l.entry.format,
                    source: &l.entry.source,
                    pushed_at_unix: l.entry.pushed_at_unix,
                    runs: &l.runs,
                })
                .collect();
            let doc = RunsDocument {
                schema: RUNS_SCHEMA,
                store: dir.to_string_lossy().into_owned(),
                found,
                listed: RunsListed::Entries(entries),
            };
            format!("{}\n", serde_json::to_string_pretty(&SortedKeys(&doc))?)
        }
        RunsFormat::Text => list_text(&dir, &listed, found),
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}

fn list_text(dir: &Path, listed: &[Listed], found: usize) -> String {
    let shown_n = if listed.len() < found { format!(", showing {}", listed.len()) } else { String::new() };
    let entries = if found == 1 { "entry" } else { "entries" };
    let mut out = format!("{} ({found} {entries}{shown_n})\n", output::shown(dir));
    if listed.is_empty() {
        return out;
    }
    let cell = |s: Option<&str>| s.map_or_else(|| "-".to_string(), |v| printable(v).into_owned());
    let rows: Vec<[String; 9]> = listed
        .iter()
        .map(|l| {
            let date = l.date().map(|d| d.replace('T', " ").chars().take(16).collect::<String>());
            let (passed, scored) = l.runs.iter().fold((0, 0), |(p, s), r| (p + r.passed, s + r.scored));
            [
                format!("store:{}", printable(&l.entry.name)),
                cell(date.as_deref()),
                cell(l.first(|r| r.git_branch.as_ref())),
                cell(l.first(|r| r.tier.as_ref())),
                if scored > 0 { format!("{passed}/{scored}") } else { "-".to_string() },
                l.cost().map_or_else(|| "-".to_string(), |c| format!("${c:.2}")),
                cell(l.first(|r| r.version.as_ref())),
                printable(&l.entry.format).into_owned(),
                printable(&l.entry.source).into_owned(),
            ]
        })
        .collect();
    out.push_str(&table(&["entry", "date", "branch", "tier", "pass", "cost", "version", "format", "source"], &rows));
    out
}

/// `runs` of a PostgreSQL store: one line per stored run.
fn list_postgres(args: &RunsArgs, url: &str) -> anyhow::Result<Exit> {
    let mut db = store::connect(url)?;
    let selection = evaltally_store::Selection {
        branch: args.branch.clone(),
        tier: args.tier.clone(),
        ..evaltally_store::Selection::default()
    };
    let mut runs = db.select(&selection).map_err(store::store_error)?;
    let found = runs.len();
    if args.limit > 0 {
        runs.truncate(args.limit);
    }
    db.count(&mut runs).map_err(store::store_error)?;
    let text = match args.format {
        RunsFormat::Json => {
            let listed = runs
                .iter()
                .map(|r| StoredRunDocument {
                    id: r.id,
                    run: &r.run,
                    model: &r.model,
                    format: &r.format,
                    source: &r.source,
                    pushed_at_unix: r.pushed_at_unix,
                    timestamp: r.meta.timestamp.as_deref(),
                    git_branch: r.meta.git_branch.as_deref(),
                    git_sha: r.meta.git_sha.as_deref(),
                    tier: r.meta.tier.as_deref(),
                    version: r.meta.version.as_deref(),
                    passed: r.passed,
                    scored: r.scored,
                    cost_usd: r.cost_usd,
                })
                .collect();
            let doc = RunsDocument {
                schema: RUNS_SCHEMA,
                store: db.shown_url().to_string(),
                found,
                listed: RunsListed::Runs(listed),
            };
            format!("{}\n", serde_json::to_string_pretty(&SortedKeys(&doc))?)
        }
        RunsFormat::Text => {
            let shown_n = if runs.len() < found { format!(", showing {}", runs.len()) } else { String::new() };
            let mut out = format!("{} ({found} runs{shown_n})\n", db.shown_url());
            let cell = |s: Option<&str>| s.map_or_else(|| "-".to_string(), |v| printable(v).into_owned());
            let rows: Vec<[String; 9]> = runs
                .iter()
                .map(|r| {
                    let date =
                        r.meta.timestamp.as_deref().map(|d| d.replace('T', " ").chars().take(16).collect::<String>());
                    [
                        format!("store:{}", printable(&r.run)),
                        printable(&r.model).into_owned(),
                        cell(date.as_deref()),
                        cell(r.meta.git_branch.as_deref()),
                        cell(r.meta.tier.as_deref()),
                        if r.scored > 0 { format!("{}/{}", r.passed, r.scored) } else { "-".to_string() },
                        r.cost_usd.map_or_else(|| "-".to_string(), |c| format!("${c:.2}")),
                        cell(r.meta.version.as_deref()),
                        printable(&r.format).into_owned(),
                    ]
                })
                .collect();
            if !rows.is_empty() {
                out.push_str(&table(
                    &["run", "model", "date", "branch", "tier", "pass", "cost", "version", "format"],
                    &rows,
                ));
            }
            out
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}

/// Rows under a header, columns padded to their widest cell.
fn table<const N: usize>(header: &[&str; N], rows: &[[String; N]]) -> String {
    let mut widths = header.map(str::len);
    for row in rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w.saturating_sub(c.chars().count()))))
            .collect();
        format!("  {}\n", padded.join("  ").trim_end())
    };
    let mut out = line(header);
    for row in rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    out
}
