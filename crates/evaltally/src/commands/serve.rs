//! `evaltally serve`: the server of `evaltally-serve` over the PATHs, read through the
//! pipeline and digest cache every command uses; the team store's pushes heard with
//! `LISTEN`.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use evaltally_analyzer::{Filter, LoadError, NoProgress, load};
use evaltally_core::CategoryRun;
use evaltally_format::DiscoverError;
use evaltally_serve::{Config, Input, RunNotes, Server, Shown, Source, SourceError};

use crate::cli::ServeArgs;
use crate::{Exit, UsageError, output, store};

pub(crate) fn run(args: &ServeArgs, explicit_store: Option<&Path>) -> anyhow::Result<Exit> {
    let filter = super::stability::filter(
        &args.read,
        args.select.models.clone(),
        args.select.categories.clone(),
        args.pool_models,
    )?;
    for p in &args.paths {
        if store::selection_of(p).is_none() && !p.exists() {
            return Err(UsageError(format!("{}: no such file or folder", output::shown(p))).into());
        }
    }
    let bind = SocketAddr::new(args.bind, args.port);
    let token = match (&args.token, bind.ip().is_loopback()) {
        (Some(t), _) => Some(t.clone()),
        (None, false) => Some(evaltally_serve::random_token()),
        (None, true) => None,
    };
    let served = Arc::new(Served {
        paths: args.paths.clone(),
        filter,
        explicit_store: explicit_store.map(Path::to_path_buf),
        stored: Mutex::default(),
    });
    let subset = args.subset.as_deref().map(super::subset::read).transpose()?.map(Arc::new);
    let config = Config {
        bind,
        token,
        inputs: args.paths.iter().map(|p| output::shown(p)).collect(),
        subset,
        ..Config::default()
    };
    let server =
        Server::start(&config, Arc::clone(&served) as Arc<dyn Source>).map_err(|e| UsageError(e.to_string()))?;
    output::print(&format!("serving {} at {}\n", output::shown_all(&args.paths), server.url()))?;
    if args.open {
        open(server.url());
    }
    if served.uses_postgres() {
        listen_for_pushes(&server);
    }
    say_loads(&server)
}

/// Prints one line per load on stderr (its runs and problems), for the terminal it runs
/// in; serves until the process is stopped.
fn say_loads(server: &Server) -> anyhow::Result<Exit> {
    let mut seen = 0;
    loop {
        let Some(load) = server.next_load(seen, Duration::from_hours(1)) else { continue };
        seen = load.number;
        #[allow(clippy::print_stderr)]
        {
            match &load.error {
                Some(e) => eprintln!(
                    "load {}: failed: {} (the page keeps the load before)",
                    load.generation,
                    output::safe_lines(e)
                ),
                None => eprintln!(
                    "load {}: {} of {} in {} ms{}{}",
                    load.generation,
                    count(load.runs, "run"),
                    count(load.models, "model"),
                    load.ms,
                    load.units_read
                        .map(|n| format!(
                            ", {} read from files",
                            count(usize::try_from(n).unwrap_or(usize::MAX), "unit")
                        ))
                        .unwrap_or_default(),
                    said(&load.problems)
                ),
            }
        }
    }
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn said(problems: &[usize; 3]) -> String {
    let [errors, warnings, notes] = *problems;
    let mut parts = Vec::new();
    if errors > 0 {
        parts.push(count(errors, "error"));
    }
    if warnings > 0 {
        parts.push(count(warnings, "warning"));
    }
    if notes > 0 {
        parts.push(count(notes, "note"));
    }
    if parts.is_empty() { String::new() } else { format!("; {} (the page lists them)", parts.join(", ")) }
}

/// Opens `url` in the default browser; says so when it cannot.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        output::note(&format!("could not start `{opener}`: open {url} yourself"));
    }
}

/// A thread that hears pushes to the PostgreSQL store and makes the server load again;
/// when the connection is lost it says so and connects again.
fn listen_for_pushes(server: &Server) {
    let trigger = server.trigger();
    let started = std::thread::Builder::new().name("evaltally-serve-listen".into()).spawn(move || {
        loop {
            let listener = store::postgres().and_then(|s| s.listen().map_err(store::store_error));
            match listener {
                Ok(mut listener) => loop {
                    match listener.wait(Duration::from_mins(1)) {
                        Ok(ids) if ids.is_empty() => {}
                        Ok(_) => trigger.changed(),
                        Err(e) => {
                            output::warn(&format!("{e}; listening again in 5 s"));
                            break;
                        }
                    }
                },
                Err(e) => output::warn(&format!("cannot hear pushes to the store ({e:#}); trying again in 5 s")),
            }
            std::thread::sleep(Duration::from_secs(5));
            trigger.changed();
        }
    });
    if started.is_err() {
        output::warn("cannot start the thread that hears pushes: the page shows new pushes on its next load only");
    }
}

/// What `serve` serves: the PATHs, read through the cache, and the runs the `store:`
/// paths select in the PostgreSQL store, of which only those not read before are read.
struct Served {
    paths: Vec<PathBuf>,
    filter: Filter,
    explicit_store: Option<PathBuf>,
    stored: Mutex<Stored>,
}

/// The PostgreSQL store's runs read so far, by id.
#[derive(Default)]
struct Stored {
    runs: BTreeMap<i64, (Vec<CategoryRun>, Vec<RunNotes>)>,
}

impl Served {
    fn uses_postgres(&self) -> bool {
        self.paths.iter().any(|p| store::selection_of(p).is_some())
            && matches!(store::location(self.explicit_store.as_deref()), Ok(store::Location::Postgres(_)))
    }

    /// The PATHs with `store:` selections of a folder store replaced by its entries' folders
    /// as they are now, and the folder store's folder (to watch) when there is one.
    fn resolved(&self) -> anyhow::Result<(Vec<PathBuf>, Option<PathBuf>)> {
        let resolved = store::resolve(&self.paths, self.explicit_store.as_deref())?;
        let folder_store = match store::location(self.explicit_store.as_deref()) {
            Ok(store::Location::Folder(dir)) if self.paths.iter().any(|p| store::selection_of(p).is_some()) => {
                Some(dir)
            }
            _ => None,
        };
        Ok((resolved, folder_store))
    }

    fn read(&self) -> anyhow::Result<Input> {
        let (paths, folder_store) = self.resolved()?;
        let (stored, files) = store::split(&paths);
        let mut input = Input::default();
        let cache = crate::cache::get();
        let units_before = cache.stats().units_read;
        if !files.is_empty() {
            let read =
                load::load_reduced(&files, &self.filter, &NoProgress, crate::cache::get(), evaltally_serve::notes_of);
            match read {
                Ok((loaded, notes)) => {
                    input.runs = loaded.runs;
                    input.diagnostics = loaded.diagnostics;
                    input.watch = loaded.folders;
                    input.notes =
                        notes.into_iter().map(|r| RunNotes { run: r.run, model: r.model, ..r.value }).collect();
                }
                // An empty folder: runs may land in it later. What the walk met on the way
                // (a link it did not follow) is shown meanwhile.
                Err(LoadError::Discover(DiscoverError::NothingFound { diagnostics, .. })) => {
                    input.diagnostics = diagnostics;
                }
                Err(e) => return Err(super::stability::explain(&e)),
            }
            // The folders given (a new run lands in one), and the folders of the files
            // named.
            for p in &files {
                let folder =
                    if p.is_dir() { Some(p.as_path()) } else { p.parent().filter(|d| !d.as_os_str().is_empty()) };
                input.watch.extend(folder.map(Path::to_path_buf).or_else(|| Some(PathBuf::from("."))));
            }
        }
        input.watch.extend(folder_store);
        input.watch.sort();
        input.watch.dedup();
        // What reading stored in the cache is written now, not when the process ends (and
        // counted).
        input.units_read = Some(cache.stats().units_read - units_before);
        if !stored.is_empty() {
            self.read_stored(&stored, &mut input)?;
        }
        Ok(input)
    }

    /// Adds the runs the `store:` paths select: only those not read before are read.
    fn read_stored(&self, paths: &[&Path], input: &mut Input) -> anyhow::Result<()> {
        let mut pg = store::postgres()?;
        let selected = store::select(&mut pg, paths, true)?;
        let mut kept = self.stored.lock().unwrap_or_else(PoisonError::into_inner);
        kept.runs.retain(|id, _| selected.iter().any(|s| s.id == *id));
        let new: Vec<_> = selected.into_iter().filter(|s| !kept.runs.contains_key(&s.id)).collect();
        if !new.is_empty() {
            let runs = pg.category_runs(&new).map_err(store::store_error)?;
            let records = pg.records(&new).map_err(store::store_error)?;
            for s in &new {
                let mine: Vec<CategoryRun> =
                    runs.iter().filter(|r| r.run == s.run && r.model == s.model).cloned().collect();
                let notes: Vec<RunNotes> = records
                    .iter()
                    .filter(|r| r.run == s.run && r.model == s.model)
                    .map(evaltally_serve::notes_of)
                    .collect();
                kept.runs.insert(s.id, (mine, notes));
            }
        }
        let mut loaded = evaltally_analyzer::Loaded {
            runs: std::mem::take(&mut input.runs),
            diagnostics: std::mem::take(&mut input.diagnostics),
            folders: Vec::new(),
        };
        let all: Vec<CategoryRun> = kept.runs.values().flat_map(|(r, _)| r.iter().cloned()).collect();
        load::add_runs(&mut loaded, all, &self.filter);
        input.runs = loaded.runs;
        input.diagnostics = loaded.diagnostics;
        input.notes.extend(kept.runs.values().flat_map(|(_, n)| n.iter().cloned()));
        Ok(())
    }
}

impl Source for Served {
    fn load(&self) -> Result<Input, SourceError> {
        self.read().map_err(|e| SourceError(format!("{e:#}")))
    }

    fn show(&self, id: &str) -> Result<Shown, SourceError> {
        let fail = |e: anyhow::Error| SourceError(format!("{e:#}"));
        let (paths, _) = self.resolved().map_err(fail)?;
        let (stored, files) = store::split(&paths);
        let mut shown = if files.is_empty() {
            load::Shown::default()
        } else {
            load::show(&files, id, &self.filter).map_err(|e| fail(super::stability::explain(&e)))?
        };
        let mut note = None;
        if !stored.is_empty() {
            super::show::add_stored(&mut shown, store::test_details(&stored, id).map_err(fail)?, &self.filter);
            note = Some(
                "runs of the team store keep outcomes, errors, tokens and latency; prompts and answers stay in the \
                 pushed files"
                    .to_string(),
            );
        }
        Ok(Shown { details: shown.details, diagnostics: shown.diagnostics, note })
    }
}
