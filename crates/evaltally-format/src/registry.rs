//! The registry: the formats, asked in order, and the units they make of the walk.

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use evaltally_core::{Diagnostic, Finding};

use crate::format::{BesideParsed, Claim, Folder, FolderListing, Format, Input, Resemblance};
use crate::options::Options;
use crate::outputs::{FileValidation, Read, Records, Shown, Validated};
use crate::unit::{Scratch, Unit};
use crate::unread;
use crate::walk::{Listings, NoListings, WalkError, WalkedFile, walk_with};
use crate::write::Writer;

/// The formats evaltally reads, in the order they are asked, and the shapes it writes.
#[derive(Clone)]
pub struct Registry {
    formats: Vec<&'static dyn Format>,
    writers: Vec<&'static dyn Writer>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("formats", &self.names())
            .field("writers", &self.writers.iter().map(|w| w.name()).collect::<Vec<_>>())
            .finish()
    }
}

/// The files a walk found when none gave anything to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilesFound {
    /// How many.
    pub count: usize,
    /// The first three, in walk order.
    pub first: Vec<PathBuf>,
    /// How many of them no format claims by name (the others were taken by a format that
    /// found no run in them).
    pub not_claimed: usize,
}

/// Why nothing could be read.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// A path given does not exist or cannot be inspected.
    #[error(transparent)]
    Path(#[from] WalkError),
    /// No file of any format was found below the paths given.
    #[error("no {nouns} found in {}", list(searched))]
    NothingFound {
        /// The paths searched.
        searched: Vec<PathBuf>,
        /// The registry's formats in words (`BFCL result or score files, gstack results …`).
        nouns: String,
        /// What the walk met on the way (a link not followed, a folder that could not be
        /// listed), often the reason nothing was found.
        diagnostics: Vec<Diagnostic>,
        /// The files the walk found: none gave a unit.
        files: FilesFound,
    },
    /// `--as` named no format.
    #[error("unknown format `{name}`; known: {known}")]
    UnknownFormat {
        /// The name given.
        name: String,
        /// The names the registry knows.
        known: String,
    },
}

fn list(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// The units found below some paths.
#[derive(Debug, Default)]
pub struct Discovered {
    /// The units, in a fixed order: each format's groups in registry order, then the
    /// sniffed files in walk order.
    pub units: Vec<Box<dyn Unit>>,
    /// Problems met walking and grouping, and the files found and not read
    /// ([`Diagnostic::is_fact_not_read`]): each file no format claims by its name (a
    /// `README.md`, never opened) and each a format groups and passes over.
    pub diagnostics: Vec<Diagnostic>,
    /// The folders the walk listed ([`Walked::folders`](crate::walk::Walked::folders)).
    pub folders: Vec<PathBuf>,
}

impl Registry {
    /// A registry of `formats`, asked in this order.
    pub fn new(formats: Vec<&'static dyn Format>) -> Self {
        Self { formats, writers: Vec::new() }
    }

    /// The registry with `writers`, the shapes `convert --to` writes, in this order.
    #[must_use]
    pub fn with_writers(mut self, writers: Vec<&'static dyn Writer>) -> Self {
        self.writers = writers;
        self
    }

    /// The writers, in order.
    pub fn writers(&self) -> &[&'static dyn Writer] {
        &self.writers
    }

    /// The writer called `name`, ignoring case.
    pub fn writer(&self, name: &str) -> Option<&'static dyn Writer> {
        self.writers.iter().copied().find(|w| w.name().eq_ignore_ascii_case(name))
    }

    /// The formats, in order.
    pub fn formats(&self) -> &[&'static dyn Format] {
        &self.formats
    }

    /// The format called `name` (or with `name` among its aliases), ignoring case.
    pub fn find(&self, name: &str) -> Option<&'static dyn Format> {
        self.formats
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(name) || f.aliases().iter().any(|a| a.eq_ignore_ascii_case(name)))
    }

    /// Every name `--as` accepts, formats in order, aliases after their format.
    pub fn names(&self) -> Vec<&'static str> {
        self.formats.iter().flat_map(|f| std::iter::once(f.name()).chain(f.aliases().iter().copied())).collect()
    }

    /// What every format reads, one indented line each, for "nothing found" messages.
    pub fn describe(&self) -> String {
        self.formats.iter().map(|f| f.describe()).collect::<Vec<_>>().join("\n")
    }

    /// The formats' files in words: `A, B or C`.
    pub fn nouns(&self) -> String {
        let nouns: Vec<&str> = self.formats.iter().map(|f| f.noun()).collect();
        match nouns.split_last() {
            None => "files".to_string(),
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// Walks `paths` once and makes units of what the formats claim. With
    /// [`Options::forced`], only that format is asked, and every file it or no other
    /// format claims is read as that format without sniffing.
    pub fn discover(&self, paths: &[PathBuf], options: &Options) -> Result<Discovered, DiscoverError> {
        self.discover_with(paths, options, &NoListings)
    }

    /// [`discover`](Self::discover), the walk taking folder listings from `listings` where
    /// they still hold ([`crate::walk::walk_with`]).
    pub fn discover_with(
        &self,
        paths: &[PathBuf],
        options: &Options,
        listings: &dyn Listings,
    ) -> Result<Discovered, DiscoverError> {
        let formats: Vec<&'static dyn Format> = match options.forced {
            Some(name) => vec![self.find(name).ok_or_else(|| DiscoverError::UnknownFormat {
                name: name.to_string(),
                known: self.names().join(", "),
            })?],
            None => self.formats.clone(),
        };
        let mut roots = paths.to_vec();
        for path in paths {
            for format in &formats {
                for companion in format.companions(path) {
                    if companion.is_dir() && !roots.contains(&companion) {
                        roots.push(companion);
                    }
                }
            }
        }
        let walked = walk_with(&roots, listings)?;
        let mut diagnostics = walked.diagnostics;
        let folders = walked.folders;
        let listing = FolderNames::new(&walked.files);
        let mut claims: Vec<Claim> = Vec::with_capacity(formats.len());
        let mut candidate_sets = CandidateSets::default();
        let mut candidates: Vec<&'static dyn Format> = Vec::with_capacity(formats.len());
        let goes: Vec<Goes> = walked
            .files
            .iter()
            .map(|file| {
                // The first format that groups the file takes it; else those that would
                // sniff it are its candidates.
                claims.clear();
                for (at, format) in formats.iter().enumerate() {
                    let claim = format.claim(&file.path);
                    if claim == Claim::Group {
                        return Goes::Grouped(at);
                    }
                    claims.push(claim);
                }
                candidates.clear();
                candidates.extend(formats.iter().zip(&claims).filter(|(_, c)| **c == Claim::Sniff).map(|(f, _)| *f));
                if candidates.is_empty() && file.named {
                    candidates.clone_from(&formats);
                }
                if candidates.is_empty() {
                    return Goes::Nowhere;
                }
                let mut beside: Vec<PathBuf> = Vec::new();
                for format in &candidates {
                    for path in format.beside(&file.path, &listing.of(&file.path)) {
                        if path != file.path && !beside.contains(&path) {
                            beside.push(path);
                        }
                    }
                }
                Goes::Sniffed(candidate_sets.shared(&candidates, &formats), beside)
            })
            .collect();
        drop(listing);
        let first: Vec<PathBuf> = walked.files.iter().take(3).map(|f| f.path.clone()).collect();
        let count = walked.files.len();
        let mut grouped: Vec<Vec<WalkedFile>> = vec![Vec::new(); formats.len()];
        let mut sniffed: Vec<Box<dyn Unit>> = Vec::new();
        let mut nowhere: Vec<PathBuf> = Vec::new();
        for (file, goes) in walked.files.into_iter().zip(goes) {
            match goes {
                Goes::Grouped(at) => grouped[at].push(file),
                Goes::Sniffed(candidates, beside) => sniffed.push(Box::new(SniffedFile { file, candidates, beside })),
                Goes::Nowhere => nowhere.push(file.path),
            }
        }
        let mut units: Vec<Box<dyn Unit>> = Vec::new();
        for (format, files) in formats.iter().zip(grouped) {
            if !files.is_empty() {
                units.extend(format.group(files, &mut diagnostics));
            }
        }
        units.extend(sniffed);
        if units.is_empty() {
            return Err(DiscoverError::NothingFound {
                searched: paths.to_vec(),
                nouns: self.nouns(),
                diagnostics,
                files: FilesFound { count, first, not_claimed: nowhere.len() },
            });
        }
        diagnostics.extend(nowhere.iter().map(|path| not_claimed(path)));
        Ok(Discovered { units, diagnostics, folders })
    }
}

/// The fact that a file no format claims by its name is not read (a `README.md`, a CSV
/// beside the results): said with `--verbose` and by `validate`, never looked into.
fn not_claimed(path: &Path) -> Diagnostic {
    match path.extension() {
        Some(ext) => Diagnostic::info(
            path,
            format!(
                "not read: no format evaltally reads takes a `.{}` file of this name",
                evaltally_core::text::printable(&ext.to_string_lossy())
            ),
        ),
        None => Diagnostic::info(path, "not read: no format evaltally reads takes a file of this name"),
    }
}

/// Where a walked file goes: the format that groups it, or the formats that would sniff it
/// (and the files beside it they read with it, from the walk's own listing).
enum Goes {
    Grouped(usize),
    Sniffed(Arc<Candidates>, Vec<PathBuf>),
    Nowhere,
}

/// A file whose content decides its format: read once into the worker's buffer, sniffed by
/// the candidate formats, read by the first that says yes.
struct SniffedFile {
    file: WalkedFile,
    candidates: Arc<Candidates>,
    /// The files beside it its candidates read with it ([`Format::beside`]).
    beside: Vec<PathBuf>,
}

/// The names of the files the walk found in each folder, gathered the first time a format
/// asks ([`Format::beside`]): most walks hold no file whose format reads another beside it.
struct FolderNames<'a> {
    files: &'a [WalkedFile],
    by_folder: std::cell::OnceCell<std::collections::HashMap<&'a Path, Vec<&'a str>>>,
}

impl<'a> FolderNames<'a> {
    fn new(files: &'a [WalkedFile]) -> Self {
        Self { files, by_folder: std::cell::OnceCell::new() }
    }

    /// What a format is given as the listing of `path`'s folder: the names of the files
    /// the walk found in it (those that are UTF-8), built only when it is read.
    fn of<'s>(&'s self, path: &'s Path) -> Folder<'s> {
        Folder::new(self, path.parent().unwrap_or(Path::new("")))
    }
}

impl FolderListing for FolderNames<'_> {
    fn names(&self, folder: &Path) -> &[&str] {
        let by_folder = self.by_folder.get_or_init(|| {
            let mut map: std::collections::HashMap<&Path, Vec<&str>> = std::collections::HashMap::new();
            for f in self.files {
                if let (Some(parent), Some(name)) = (f.path.parent(), f.path.file_name().and_then(|n| n.to_str())) {
                    map.entry(parent).or_default().push(name);
                }
            }
            map
        });
        by_folder.get(folder).map_or(&[], Vec::as_slice)
    }
}

/// The formats that may take a file, shared by the files that have the same (a walk meets
/// a handful of sets: files of one kind have the same).
struct Candidates {
    formats: Vec<&'static dyn Format>,
    /// The other formats of the walk, which claim files by name: asked only whether the
    /// document is wholly one of theirs under another name, for the note on a file no
    /// format read.
    others: Vec<&'static dyn Format>,
    /// ` candidate <length>:<name>` for each, the part of a unit's identity, made on every
    /// run, that they give: written once.
    identity: String,
}

impl std::ops::Deref for Candidates {
    type Target = [&'static dyn Format];

    fn deref(&self) -> &Self::Target {
        &self.formats
    }
}

/// ` candidate <length>:<name>` for each format.
struct Names<'a>(&'a [&'static dyn Format]);

impl fmt::Display for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|c| crate::identity::text(f, "candidate", c.name()))
    }
}

/// The sets of candidates a walk has met.
#[derive(Default)]
struct CandidateSets(Vec<Arc<Candidates>>);

impl CandidateSets {
    /// The shared set of these formats, of all the walk's formats `all`.
    fn shared(&mut self, formats: &[&'static dyn Format], all: &[&'static dyn Format]) -> Arc<Candidates> {
        let same = |known: &Candidates| {
            known.len() == formats.len() && known.iter().zip(formats).all(|(a, b)| std::ptr::addr_eq(*a, *b))
        };
        if let Some(known) = self.0.iter().find(|known| same(known)) {
            return Arc::clone(known);
        }
        let others = all.iter().copied().filter(|a| !formats.iter().any(|f| std::ptr::addr_eq(*a, *f))).collect();
        let set = Arc::new(Candidates { formats: formats.to_vec(), others, identity: Names(formats).to_string() });
        self.0.push(Arc::clone(&set));
        set
    }
}

/// The digest cache's identity of the unit (see [`crate::identity`]).
impl fmt::Debug for SniffedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::identity::path;
        f.write_str("SniffedFile")?;
        path(f, "path", Some(&self.file.path))?;
        path(f, "root", Some(&self.file.root))?;
        f.write_str(" size ")?;
        crate::identity::number(f, self.file.size)?;
        f.write_str(if self.file.named { " named true" } else { " named false" })?;
        f.write_str(&self.candidates.identity)?;
        for b in &self.beside {
            path(f, "beside", Some(b))?;
        }
        Ok(())
    }
}

/// What became of a sniffed file.
enum Sniffed<'a> {
    /// Read by this format.
    Format(&'static dyn Format, Input<'a>),
    /// No format took it; the diagnostic says why, when it is worth saying.
    Unknown(Input<'a>),
    /// The file could not be read.
    Unreadable(std::io::Error),
}

impl SniffedFile {
    /// Reads the file into `scratch.buf` and finds its format, then calls `then`.
    fn with<T>(&self, scratch: &mut Scratch, options: &Options, then: impl FnOnce(Sniffed<'_>) -> T) -> T {
        let mut buf = std::mem::take(&mut scratch.buf);
        let parsed = std::mem::take(scratch.slot::<BesideParsed>());
        let path = &self.file.path;
        // Only the start, when it tells every candidate that the file is not theirs.
        let head =
            if options.forced.is_some() { 0 } else { self.candidates.iter().map(|f| f.head(path)).min().unwrap_or(0) };
        let read = if head == 0 {
            crate::read_file(path, self.file.size, &mut buf).map(|()| true)
        } else {
            crate::read_file_if(path, self.file.size, head, &mut buf, |start| {
                self.candidates.iter().any(|f| f.may_be(path, start))
            })
        };
        let out = match read {
            Err(e) => then(Sniffed::Unreadable(e)),
            Ok(whole) => {
                let input = Input::new(path, &buf, self.file.named).with_beside(&self.beside).with_parsed(&parsed);
                let format = if options.forced.is_some() {
                    self.candidates.first().copied()
                } else if whole {
                    self.candidates.iter().copied().find(|f| f.sniff(&input, options))
                } else {
                    None
                };
                match format {
                    Some(format) => then(Sniffed::Format(format, input)),
                    None => then(Sniffed::Unknown(input)),
                }
            }
        };
        scratch.buf = buf;
        *scratch.slot::<BesideParsed>() = parsed;
        out
    }

    fn unreadable(&self, e: &std::io::Error) -> Diagnostic {
        Diagnostic::error(&self.file.path, crate::file::cannot_read(e))
    }

    /// Why no format took the file. An error when it looks like JSON cut short or damaged
    /// (a broken report looks exactly so), or when the user named it (unless a format knows
    /// it as one of its files that hold no runs: [`Format::aside`]); a warning when it has
    /// a format's key fields and fails one of its checks; else, for a JSON or XML document,
    /// and for text that is not JSON under a JSON name (a hand-annotated copy with comment
    /// lines, JSON Lines in a `.json` file), a note (`not read: …`) that commands count in
    /// one line: formats claim files only under the names their writers use, so such a file
    /// is no run's. Text that is neither (a `.log` that is not a record log) is a fact
    /// (`info`), said with --verbose and by `validate`. Files no format claims by name or
    /// sniffs (a CSV) are never opened: [`not_claimed`] says so of each.
    fn unknown(&self, input: &Input<'_>) -> Diagnostic {
        let path = input.path;
        let broken = match unread::kind(input) {
            unread::Kind::JsonLines => unread::json_lines_problem(path, input.bytes),
            unread::Kind::Json => match unread::json_problem(path, input.bytes) {
                // JSON Lines under a `.json` name (BFCL's old `result.json` answer files):
                // said as what it is.
                Some(broken)
                    if !broken.damaged
                        && !broken.empty
                        && !input.named
                        && unread::json_lines_problem(path, input.bytes).is_none() =>
                {
                    return Diagnostic::note(
                        path,
                        format!(
                            "not read: {} in a `.json` file, a shape no format evaltally reads",
                            unread::json_lines_what(input.bytes)
                        ),
                    );
                }
                other => other,
            },
            unread::Kind::Xml | unread::Kind::Other => None,
        };
        if let Some(broken) = broken {
            return broken.said(input.named);
        }
        if input.named {
            // A file of a format that holds no runs (lm-eval's aggregate results, SWE-smith's
            // run summary) is said as what it is, named or found.
            if let Some(what) = self.candidates.iter().find_map(|f| f.aside(input)) {
                return Diagnostic::skipped(path, what);
            }
            return Diagnostic::error(path, self.not_known(input));
        }
        if let Some((format, lacks)) =
            self.closest(input).filter(|(_, r)| r.lacks.len() == 1 && r.shares >= 2).map(|(f, r)| (f, r.lacks[0]))
        {
            return Diagnostic::warning(
                path,
                format!(
                    "not read: has the fields of {} but lacks `{lacks}`; `--as {}` reads it as one",
                    format.noun(),
                    format.name()
                ),
            );
        }
        // Every field a format requires, under a name its writer does not give (a copy
        // renamed `1.json`): a format that claims files by name passes it by.
        let whole =
            |f: &&&'static dyn Format| f.resemblance(input).is_some_and(|r| r.lacks.is_empty() && r.shares >= 2);
        if let Some(format) = self.candidates.others.iter().find(whole) {
            return Diagnostic::note(
                path,
                format!(
                    "not read: has the fields of {} under a name its writer does not give; `--as {}` reads it",
                    format.noun(),
                    format.name()
                ),
            );
        }
        if let Some(what) = self.candidates.iter().find_map(|f| f.aside(input)) {
            return Diagnostic::skipped(path, what);
        }
        // evaltally's own output (a quarantine list `stability --out` wrote into the runs'
        // folder): a fact, said with --verbose, not counted among the files not read.
        if let Some(schema) = unread::own_schema(input.bytes) {
            return Diagnostic::info(
                path,
                format!(
                    "not read: evaltally's own output ({}), not a result file",
                    evaltally_core::text::printable(schema)
                ),
            );
        }
        match unread::what(input) {
            Some(what) => Diagnostic::note(path, format!("not read: {what}, a shape no format evaltally reads")),
            // A `.log` that is not a record log: a fact, said with --verbose, not counted
            // among the files not read.
            None if crate::has_extension(path, "log") => {
                Diagnostic::info(path, "not read: a program's log, not a result file of any format evaltally reads")
            }
            // Text under a format's name (a Git LFS pointer named `.eval`).
            None => Diagnostic::note(
                path,
                "not read: text that is no JSON, XML or archive, a shape no format evaltally reads",
            ),
        }
    }

    /// The candidate this document comes closest to, and how close.
    fn closest(&self, input: &Input<'_>) -> Option<(&'static dyn Format, Resemblance)> {
        self.candidates.iter().filter_map(|f| f.resemblance(input).map(|r| (*f, r))).fold(
            None::<(&'static dyn Format, Resemblance)>,
            |best, (f, r)| match best {
                Some((_, ref b)) if b.shares >= r.shares => best,
                _ => Some((f, r)),
            },
        )
    }

    /// `not a format evaltally knows (tried: …)`, and the closest format with what the
    /// document lacks of it, when one resembles it.
    fn not_known(&self, input: &Input<'_>) -> String {
        let mut message = format!("not a format evaltally knows ({})", self.expected());
        if let Some((format, r)) = self.closest(input) {
            const SHOWN: usize = 6;
            let mut lacks = r.lacks.iter().take(SHOWN).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            if r.lacks.len() > SHOWN {
                let _ = write!(lacks, " and {} more", r.lacks.len() - SHOWN);
            }
            let what = if r.lacks.is_empty() { String::new() } else { format!(", lacking {lacks}") };
            let _ = write!(message, "; closest: {}{what}; `--as {}` checks it as one", format.noun(), format.name());
        }
        message
    }

    fn expected(&self) -> String {
        let nouns: Vec<&str> = self.candidates.iter().map(|c| c.noun()).collect();
        format!("tried: {}", nouns.join(", "))
    }
}

impl Unit for SniffedFile {
    fn format(&self) -> &'static str {
        self.candidates.first().map_or("unknown", |f| f.name())
    }

    fn size(&self) -> u64 {
        self.file.size
    }

    fn label(&self) -> String {
        let name = self
            .file
            .path
            .file_name()
            .map_or_else(|| self.file.path.display().to_string(), |n| n.to_string_lossy().into_owned());
        name.strip_suffix(".json").map(str::to_string).unwrap_or(name)
    }

    fn source(&self) -> Option<&Path> {
        Some(&self.file.path)
    }

    fn inputs(&self) -> Vec<std::path::PathBuf> {
        let mut inputs = vec![self.file.path.clone()];
        inputs.extend(self.beside.iter().cloned());
        inputs
    }

    fn seen(&self, _index: usize, input: &std::path::Path) -> Option<&std::fs::Metadata> {
        self.file.meta_of(input)
    }

    fn read(&self, scratch: &mut Scratch, options: &Options) -> Read {
        self.with(scratch, options, |sniffed| match sniffed {
            Sniffed::Format(format, input) => format.read(&input, options),
            Sniffed::Unknown(input) => Read { runs: Vec::new(), diagnostics: vec![self.unknown(&input)] },
            Sniffed::Unreadable(e) => Read { runs: Vec::new(), diagnostics: vec![self.unreadable(&e)] },
        })
    }

    fn records(&self, scratch: &mut Scratch, options: &Options) -> Records {
        self.with(scratch, options, |sniffed| match sniffed {
            Sniffed::Format(format, input) => format.records(&input, options),
            Sniffed::Unknown(input) => Records { runs: Vec::new(), diagnostics: vec![self.unknown(&input)] },
            Sniffed::Unreadable(e) => Records { runs: Vec::new(), diagnostics: vec![self.unreadable(&e)] },
        })
    }

    fn read_both(&self, scratch: &mut Scratch, options: &Options) -> (Read, Records) {
        self.with(scratch, options, |sniffed| match sniffed {
            Sniffed::Format(format, input) => (format.read(&input, options), format.records(&input, options)),
            Sniffed::Unknown(input) => {
                let diagnostics = vec![self.unknown(&input)];
                (Read { runs: Vec::new(), diagnostics: diagnostics.clone() }, Records { runs: Vec::new(), diagnostics })
            }
            Sniffed::Unreadable(e) => {
                let diagnostic = self.unreadable(&e);
                (
                    Read { runs: Vec::new(), diagnostics: vec![diagnostic.clone()] },
                    Records { runs: Vec::new(), diagnostics: vec![diagnostic] },
                )
            }
        })
    }

    fn show(&self, scratch: &mut Scratch, test: &str, options: &Options) -> Shown {
        self.with(scratch, options, |sniffed| match sniffed {
            Sniffed::Format(format, input) => format.show(&input, test, options),
            Sniffed::Unknown(input) => Shown { details: Vec::new(), diagnostics: vec![self.unknown(&input)] },
            Sniffed::Unreadable(e) => Shown { details: Vec::new(), diagnostics: vec![self.unreadable(&e)] },
        })
    }

    fn validate(&self, scratch: &mut Scratch, options: &Options) -> Validated {
        let path: &Path = &self.file.path;
        self.with(scratch, options, |sniffed| match sniffed {
            Sniffed::Format(format, input) => {
                let mut files = format.validate(&input, options);
                FileValidation::note_bom(&mut files, input.path, input.bytes);
                Validated { files, diagnostics: Vec::new() }
            }
            Sniffed::Unknown(input) => {
                let finding = Finding::from_diagnostic(self.unknown(&input), "$");
                let files = vec![FileValidation::new(path, "unknown", vec![finding])];
                Validated { files, diagnostics: Vec::new() }
            }
            Sniffed::Unreadable(e) => Validated {
                files: vec![FileValidation::new(
                    path,
                    "unknown",
                    vec![Finding::error("file", crate::file::cannot_read(&e))],
                )],
                diagnostics: Vec::new(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes any file it is asked about (`any`), or only `*.y` files (`wy`).
    #[derive(Debug)]
    struct Named(&'static str, Option<&'static str>);

    impl Format for Named {
        fn name(&self) -> &'static str {
            self.0
        }
        fn describe(&self) -> &'static str {
            "  test files"
        }
        fn noun(&self) -> &'static str {
            "test files"
        }
        fn claim(&self, path: &Path) -> Claim {
            let taken = self.1.is_none_or(|ext| path.extension().is_some_and(|e| e == ext));
            if taken { Claim::Sniff } else { Claim::No }
        }
        fn sniff(&self, _file: &Input<'_>, _options: &Options) -> bool {
            true
        }
        fn read(&self, _file: &Input<'_>, _options: &Options) -> Read {
            Read::default()
        }
    }

    static ANY: Named = Named("any", None);
    static WY: Named = Named("wy", Some("y"));

    /// A sniffed file's identity names its candidates, written once per set of them and
    /// the same text as each written in turn.
    #[test]
    fn sniffed_files_name_their_candidates_in_their_identity() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["1.y", "2.z", "3.y"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let registry = Registry::new(vec![&ANY, &WY]);
        let found = registry.discover(&[dir.path().to_path_buf()], &Options::default()).unwrap();
        let identities: Vec<String> = found.units.iter().map(|u| format!("{u:?}")).collect();
        assert_eq!(identities.len(), 3);
        let both = " candidate 3:any candidate 2:wy";
        for (identity, (name, candidates)) in
            identities.iter().zip([("1.y", both), ("2.z", " candidate 3:any"), ("3.y", both)])
        {
            let path = dir.path().join(name);
            let expected = format!(
                "SniffedFile path {}:{} root {}:{} size 1 named false{candidates}",
                path.as_os_str().len(),
                path.display(),
                dir.path().as_os_str().len(),
                dir.path().display()
            );
            assert_eq!(identity, &expected);
        }
    }

    /// A file no format claims by its name is said as not read, once, and is no unit;
    /// when nothing else is found, the error lists such files instead.
    #[test]
    fn files_no_format_claims_are_said_not_read() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["1.y", "README.md", "Makefile"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let registry = Registry::new(vec![&WY]);
        let found = registry.discover(&[dir.path().to_path_buf()], &Options::default()).unwrap();
        assert_eq!(found.units.len(), 1);
        let said: Vec<String> = found.diagnostics.iter().map(ToString::to_string).collect();
        let at = |name: &str| dir.path().join(name).display().to_string();
        assert_eq!(
            said,
            [
                format!("{}: info: not read: no format evaltally reads takes a file of this name", at("Makefile")),
                format!(
                    "{}: info: not read: no format evaltally reads takes a `.md` file of this name",
                    at("README.md")
                ),
            ]
        );
        std::fs::remove_file(dir.path().join("1.y")).unwrap();
        match registry.discover(&[dir.path().to_path_buf()], &Options::default()) {
            Err(DiscoverError::NothingFound { files, diagnostics, .. }) => {
                let first = vec![dir.path().join("Makefile"), dir.path().join("README.md")];
                assert_eq!(files, FilesFound { count: 2, first, not_claimed: 2 });
                assert!(diagnostics.is_empty(), "{diagnostics:?}");
            }
            other => panic!("expected nothing found, got {:?}", other.map(|d| d.units.len())),
        }
    }

    /// Reads `*.s` files, each with the `r.txt` beside it, counting how often `r.txt` is
    /// read; a reading's one diagnostic says what `r.txt` held.
    #[derive(Debug, Default)]
    struct Beside(std::sync::atomic::AtomicUsize);

    impl Format for Beside {
        fn name(&self) -> &'static str {
            "beside"
        }
        fn describe(&self) -> &'static str {
            "  test files with a file beside them"
        }
        fn noun(&self) -> &'static str {
            "test files"
        }
        fn claim(&self, path: &Path) -> Claim {
            if path.extension().is_some_and(|e| e == "s") { Claim::Sniff } else { Claim::No }
        }
        fn sniff(&self, _file: &Input<'_>, _options: &Options) -> bool {
            true
        }
        fn beside(&self, path: &Path, _folder: &Folder<'_>) -> Vec<PathBuf> {
            vec![path.with_file_name("r.txt")]
        }
        fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
            let held = file.beside_parsed(&file.beside()[0], |p| {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                std::fs::read_to_string(p).unwrap_or_default()
            });
            Read { runs: Vec::new(), diagnostics: vec![Diagnostic::info(file.path, held.as_str())] }
        }
    }

    /// The file beside three others is read once by a worker in a pass, and read again,
    /// as it is then, by the next pass (a new `Scratch`).
    #[test]
    fn a_file_beside_many_is_read_once_a_pass() {
        static BESIDE: Beside = Beside(std::sync::atomic::AtomicUsize::new(0));
        let dir = tempfile::tempdir().unwrap();
        for name in ["1.s", "2.s", "3.s"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        std::fs::write(dir.path().join("r.txt"), "first").unwrap();
        let registry = Registry::new(vec![&BESIDE]);
        let found = registry.discover(&[dir.path().to_path_buf()], &Options::default()).unwrap();
        assert_eq!(found.units.len(), 3);
        let pass = || {
            let mut scratch = Scratch::default();
            let said: Vec<String> = found
                .units
                .iter()
                .flat_map(|u| u.read(&mut scratch, &Options::default()).diagnostics)
                .map(|d| d.message)
                .collect();
            (said, BESIDE.0.swap(0, std::sync::atomic::Ordering::Relaxed))
        };
        assert_eq!(pass(), (vec!["first".to_string(); 3], 1));
        std::fs::write(dir.path().join("r.txt"), "second").unwrap();
        assert_eq!(pass(), (vec!["second".to_string(); 3], 1));
    }
}
