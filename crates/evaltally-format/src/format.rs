//! The [`Format`] trait and what it is given.

use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::options::Options;
use crate::outputs::{FileValidation, Read, Records, Shown};
use crate::scan::{Before, Member, members_before, object_members, string_value};
use crate::unit::Unit;
use crate::walk::WalkedFile;
use evaltally_core::Diagnostic;

/// What a file's path says to a format, before any byte is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Not this format's file.
    No,
    /// This format's file, known by its name or place; [`Format::group`] makes units of it
    /// (a BFCL result file, a SWE-bench per-instance `report.json`).
    Group,
    /// Perhaps this format's file: its content decides ([`Format::sniff`]).
    Sniff,
}

/// One file's bytes, with what sniffers share: the members of the top-level JSON object,
/// found once and only when first asked for.
#[derive(Debug)]
pub struct Input<'a> {
    /// The file.
    pub path: &'a Path,
    /// Its content (a UTF-8 byte order mark left in place).
    pub bytes: &'a [u8],
    /// Whether the user named the file itself (rather than a folder holding it).
    pub named: bool,
    /// The files beside it that reading it depends on, as its format found them in the
    /// walk's listing ([`Format::beside`]); they need not exist.
    beside: &'a [PathBuf],
    members: OnceLock<Option<Vec<Member>>>,
    /// The worker's files read beside others ([`Input::beside_parsed`]), when the pipeline
    /// gave it.
    parsed: Option<&'a BesideParsed>,
}

/// What a worker made of the files it read beside others, during one read pass: the
/// samples files of one lm-eval run each name the run's results file, which is then read
/// once, not once for each of them.
#[derive(Debug, Default)]
pub(crate) struct BesideParsed(Mutex<HashMap<(PathBuf, TypeId), Arc<dyn Any + Send + Sync>>>);

impl<'a> Input<'a> {
    /// A file's content.
    pub fn new(path: &'a Path, bytes: &'a [u8], named: bool) -> Self {
        Self { path, bytes, named, beside: &[], members: OnceLock::new(), parsed: None }
    }

    /// The content with the worker's store of files read beside others.
    #[must_use]
    pub(crate) fn with_parsed(mut self, parsed: &'a BesideParsed) -> Self {
        self.parsed = Some(parsed);
        self
    }

    /// What `parse` makes of `path`, a file beside this one ([`Input::beside`]). When the
    /// pipeline read this file, `parse` runs once for a path (and type `T`) in a worker's
    /// read pass, and every file that names the path shares what it made: a file that
    /// many name is opened once by each worker, not once for each of them. Else (an `Input`
    /// made with [`Input::new`]) it runs on every call.
    ///
    /// ```
    /// use evaltally_format::Input;
    /// use std::path::Path;
    /// let file = Input::new(Path::new("samples.jsonl"), b"", false);
    /// let size = file.beside_parsed(Path::new("no such results.json"), |p| std::fs::metadata(p).ok().map(|m| m.len()));
    /// assert_eq!(*size, None);
    /// ```
    pub fn beside_parsed<T: Send + Sync + 'static>(&self, path: &Path, parse: impl FnOnce(&Path) -> T) -> Arc<T> {
        let Some(parsed) = self.parsed else { return Arc::new(parse(path)) };
        let key = (path.to_path_buf(), TypeId::of::<T>());
        let known = parsed.0.lock().unwrap_or_else(PoisonError::into_inner).get(&key).cloned();
        if let Some(made) = known.and_then(|known| Arc::downcast::<T>(known).ok()) {
            return made;
        }
        let made = Arc::new(parse(path));
        parsed
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, Arc::clone(&made) as Arc<dyn Any + Send + Sync>);
        made
    }

    /// The content with the files beside it that reading it depends on ([`Format::beside`]).
    #[must_use]
    pub fn with_beside(mut self, beside: &'a [PathBuf]) -> Self {
        self.beside = beside;
        self
    }

    /// The files beside this one that its format said reading it depends on, found in the
    /// walk's listing of its folder (empty when the file was not found by a walk).
    pub fn beside(&self) -> &'a [PathBuf] {
        self.beside
    }

    /// The content without a UTF-8 byte order mark.
    pub fn text_bytes(&self) -> &'a [u8] {
        crate::json::without_bom(self.bytes)
    }

    /// The content as text when it is UTF-8 with no byte order mark (checked with SIMD, at
    /// several GB/s): what fast paths read, leaving any other file to a tolerant reader.
    ///
    /// ```
    /// use evaltally_format::Input;
    /// let path = std::path::Path::new("r.json");
    /// assert_eq!(Input::new(path, b"{}", false).text(), Some("{}"));
    /// assert_eq!(Input::new(path, b"\xEF\xBB\xBF{}", false).text(), None);
    /// assert_eq!(Input::new(path, b"{\"a\": \"\xFF\"}", false).text(), None);
    /// ```
    pub fn text(&self) -> Option<&'a str> {
        if self.bytes.starts_with(crate::json::BOM) {
            return None;
        }
        utf8(self.bytes)
    }

    /// The members of the top-level JSON object, or `None` when the content is not one
    /// complete object (not JSON, an array, cut short). Found without building any value.
    pub fn json_members(&self) -> Option<&[Member]> {
        self.members.get_or_init(|| object_members(self.text_bytes()).ok()).as_deref()
    }

    /// Whether the top-level JSON object has member `key` with one of `any` among the
    /// members before it, found by scanning the document only as far as `key`: a sniffer
    /// that knows a format by its header does not pay for skipping the big member after it.
    /// Unlike [`json_members`](Self::json_members), nothing after `key` is checked, so the
    /// reader must still read the rest strictly. A scan that meets the end of the object
    /// instead has found every member (or the error), which `json_members` then returns
    /// without scanning again.
    ///
    /// ```
    /// use evaltally_format::Input;
    /// let path = std::path::Path::new("report.json");
    /// let doc = br#"{"schema_version": "2.0", "instances": [{"id": 1}], "summary": {}}"#;
    /// let file = Input::new(path, doc, false);
    /// assert!(file.has_before("instances", &["run_id", "schema_version"]));
    /// assert!(!file.has_before("schema_version", &["instances"]));
    /// assert!(!file.has_before("results", &["schema_version"]));
    /// // A document cut short after the header still has it, whoever asked first.
    /// let cut = Input::new(path, &doc[..40], false);
    /// assert!(cut.json_members().is_none());
    /// assert!(cut.has_before("instances", &["schema_version"]));
    /// ```
    pub fn has_before(&self, key: &str, any: &[&str]) -> bool {
        let text = self.text_bytes();
        let named = |m: &Member, k: &str| &text[m.key.clone()] == k.as_bytes();
        let any_in = |members: &[Member]| members.iter().any(|m| any.iter().any(|k| named(m, k)));
        // Members found before answer; a document found broken is scanned again, so that
        // the answer does not depend on who asked first.
        if let Some(Some(members)) = self.members.get() {
            return members.iter().position(|m| named(m, key)).is_some_and(|at| any_in(&members[..at]));
        }
        match members_before(text, key.as_bytes()) {
            Ok(Before::Met(members)) => any_in(&members),
            Ok(Before::All(members)) => {
                let _ = self.members.set(Some(members));
                false
            }
            // The scan up to the error is the one `json_members` makes.
            Err(_) => {
                let _ = self.members.set(None);
                false
            }
        }
    }

    /// Whether the top-level JSON object has member `key`.
    pub fn has(&self, key: &str) -> bool {
        self.json(key).is_some()
    }

    /// The raw bytes of member `key`'s value (the first one, if the key repeats).
    pub fn json(&self, key: &str) -> Option<&'a [u8]> {
        let text = self.text_bytes();
        self.json_members()?.iter().find(|m| &text[m.key.clone()] == key.as_bytes()).map(|m| &text[m.value.clone()])
    }

    /// Member `key`'s value when it is a string.
    pub fn json_str(&self, key: &str) -> Option<std::borrow::Cow<'a, str>> {
        string_value(self.json(key)?)
    }

    /// The file name without its last extension (`night-1.json` → `night-1`).
    pub fn stem(&self) -> String {
        self.path.file_stem().map_or_else(|| self.path.display().to_string(), |s| s.to_string_lossy().into_owned())
    }
}

/// The walk's listing of a file's folder, for [`Format::beside`]: the names of the files the
/// walk found there, gathered when first asked.
pub struct Folder<'a> {
    listing: Option<&'a dyn FolderListing>,
    folder: &'a Path,
}

/// Where [`Folder`] finds its names (the registry's listing of the walk).
pub(crate) trait FolderListing {
    /// The names of the files found in `folder`.
    fn names(&self, folder: &Path) -> &[&str];
}

impl<'a> Folder<'a> {
    pub(crate) fn new(listing: &'a dyn FolderListing, folder: &'a Path) -> Self {
        Self { listing: Some(listing), folder }
    }

    /// A folder of which nothing is known (a file read outside a walk).
    ///
    /// ```
    /// let folder = evaltally_format::Folder::unknown();
    /// assert!(folder.names().is_empty());
    /// ```
    pub fn unknown() -> Folder<'static> {
        Folder { listing: None, folder: Path::new("") }
    }

    /// The names of the files the walk found in the folder (those that are UTF-8).
    pub fn names(&self) -> &[&str] {
        self.listing.map_or(&[], |l| l.names(self.folder))
    }
}

impl std::fmt::Debug for Folder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Folder").field("folder", &self.folder).finish_non_exhaustive()
    }
}

/// One result-file format: how its files are found, grouped, told apart, read, shown and
/// validated. Implemented once per adapter crate and listed in the registry.
///
/// Every method gets its input from the pipeline (paths from the one walk, bytes from the one
/// read) and reports problems as [`Diagnostic`]s naming file, line and column: a broken file
/// never stops the rest of the work. Only [`group`](Format::group)'s units and the methods'
/// defaults open files. An adapter never writes a file and never lists a folder: its paths
/// come from the walk.
pub trait Format: Send + Sync + Debug + 'static {
    /// The name `--as` takes and outputs show (`bfcl`, `gstack`, `junit`, …).
    fn name(&self) -> &'static str;

    /// Other names `--as` accepts.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// What "nothing found" messages list for this format: the files and layouts it knows,
    /// one indented line each.
    fn describe(&self) -> &'static str;

    /// The files in a few words, for "no … found" (`gstack results`).
    fn noun(&self) -> &'static str;

    /// Whether its files record scores, not verdicts, so that `--pass-threshold` and
    /// `--scorer` ([`crate::Scoring`]) choose what passes (`inspect_ai`, lm-eval, lighteval).
    /// When no file read is of such a format, those options change nothing, which is said.
    fn reads_scores(&self) -> bool {
        false
    }

    /// What the path alone says. Called for every file the walk finds, so it must not
    /// touch the file system.
    fn claim(&self, path: &Path) -> Claim;

    /// Other folders a path given implies, walked with it: BFCL's `result-<run>` folder
    /// implies its `score-<run>` sibling. Only existing folders are walked.
    fn companions(&self, _given: &Path) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// Files beside `path` whose bytes reading it as this format also depends on (HELM's
    /// `run_spec.json`, lm-eval's `results_<date>.json`), chosen from `folder`, the names
    /// of the files the walk found in `path`'s folder: an adapter never lists a folder. The
    /// reader gets them in [`Input::beside`], and the digest cache stamps them with the
    /// file, so a change to them is never hidden by a stored reading. Paths only; they need
    /// not exist.
    fn beside(&self, _path: &Path, _folder: &Folder<'_>) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// How many bytes at the start of `path` tell whether it may be this format's at all
    /// ([`Format::may_be`]), so that a file it would sniff need not be read whole when it is
    /// not: 0 (the default) when only the whole file tells. The head is read only when every
    /// format that would sniff the file gives a length.
    fn head(&self, _path: &Path) -> usize {
        0
    }

    /// Whether a file whose first [`Format::head`] bytes (all of it, when shorter) are `head`
    /// may be this format's; `false` spares reading the rest (an `oaieval` record log begins
    /// `{"spec"`, a harness's own `.log` does not).
    fn may_be(&self, _path: &Path, _head: &[u8]) -> bool {
        true
    }

    /// Whether a file this format claimed with [`Claim::Sniff`] (or one the user named that
    /// no format claimed) is this format's, from its bytes. The first format in registry
    /// order that says yes reads the file.
    fn sniff(&self, _file: &Input<'_>, _options: &Options) -> bool {
        false
    }

    /// Makes units of the files this format claimed with [`Claim::Group`], from every path
    /// given at once (so one run spread over several paths is one unit). Problems with the
    /// layout go to `diagnostics`.
    fn group(&self, _files: Vec<WalkedFile>, _diagnostics: &mut Vec<Diagnostic>) -> Vec<Box<dyn Unit>> {
        Vec::new()
    }

    /// Reads one sniffed file into runs, one per (run, model, category) it holds.
    fn read(&self, file: &Input<'_>, options: &Options) -> Read;

    /// The run each of `files` is a piece of, where this format's writer splits one run
    /// into several files that each name their runs after themselves (gstack's sharded
    /// runner: a file per shard, each stamped with its own finish time), for every piece
    /// (the one whose name the run takes too); `None` for any other file. `files` are the
    /// files of every unit one command reads, of any format
    /// (which format reads a sniffed file is known only once it is read), so a format names
    /// only files its writer's places tell apart. The answer depends on the paths alone (no
    /// file is opened), so the digest cache keeps what it stored of each. A run a file
    /// names after its stem (`<stem>` or `<stem>#…`) takes the new name. All `None` by
    /// default.
    ///
    /// ```
    /// use std::path::Path;
    /// use evaltally_format::Format;
    /// # #[derive(Debug)] struct Csv;
    /// # impl Format for Csv {
    /// #     fn name(&self) -> &'static str { "csv" }
    /// #     fn describe(&self) -> &'static str { "" }
    /// #     fn noun(&self) -> &'static str { "" }
    /// #     fn claim(&self, _: &Path) -> evaltally_format::Claim { evaltally_format::Claim::No }
    /// #     fn read(&self, _: &evaltally_format::Input<'_>, _: &evaltally_format::Options) -> evaltally_format::Read { Default::default() }
    /// # }
    /// assert_eq!(Csv.run_names(&[Path::new("a.csv"), Path::new("b.csv")]), [None, None]);
    /// ```
    fn run_names(&self, files: &[&Path]) -> Vec<Option<String>> {
        vec![None; files.len()]
    }

    /// What a document this format did not take is, when it is one of the format's files that
    /// hold no runs (HELM's `stats.json` beside `per_instance_stats.json`, lm-eval's
    /// aggregate `results_<date>.json`, `inspect_ai`'s `logs.json` listing): the file is
    /// reported as `skipped: <this>`, which commands show with `--verbose`, rather than as a
    /// file no format knows. `None` by default.
    fn aside(&self, _file: &Input<'_>) -> Option<String> {
        None
    }

    /// How close a document this format did not take comes to being one of its own, for
    /// the "not a format evaltally knows" message (which names the closest format and what
    /// the document lacks). `None`: nothing in common, or the format does not say.
    fn resemblance(&self, _file: &Input<'_>) -> Option<Resemblance> {
        None
    }

    /// Reads one sniffed file into run records, with everything per test the format keeps
    /// (durations, tokens, costs, messages), for `convert` and `export`.
    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        let _ = file;
        Records::default()
    }

    /// Everything one sniffed file says about test `test`.
    fn show(&self, file: &Input<'_>, _test: &str, _options: &Options) -> Shown {
        let _ = file;
        Shown::default()
    }

    /// Checks one sniffed file against the format.
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        vec![FileValidation::new(file.path, self.name(), Vec::new())]
    }
}

/// How close a document comes to a format's documents (see [`Format::resemblance`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resemblance {
    /// How many of the document's top-level keys the format knows.
    pub shares: usize,
    /// The fields the format requires that the document lacks, in the format's order.
    pub lacks: Vec<&'static str>,
}

impl Resemblance {
    /// The resemblance of a JSON document to a format that knows the top-level keys
    /// `known` and requires `required`; `None` when it has none of them.
    ///
    /// ```
    /// use evaltally_format::{Input, Resemblance};
    /// let file = Input::new("x.json".as_ref(), br#"{"failures": [], "tier": "e2e"}"#, true);
    /// let r = Resemblance::of_keys(&file, &["failures"], &["tier", "total"]).unwrap();
    /// assert_eq!((r.shares, r.lacks), (2, vec!["total"]));
    /// assert!(Resemblance::of_keys(&file, &["x"], &["y"]).is_none());
    /// ```
    pub fn of_keys(file: &Input<'_>, known: &[&str], required: &[&'static str]) -> Option<Self> {
        let shares = known.iter().chain(required).filter(|k| file.has(k)).count();
        (shares > 0).then(|| Self { shares, lacks: required.iter().copied().filter(|k| !file.has(k)).collect() })
    }
}

/// `bytes` as text when they are UTF-8, checked with SIMD (several GB/s, against about one
/// for `std::str::from_utf8`): for fast paths that check a whole document before reading it.
///
/// ```
/// assert_eq!(evaltally_format::utf8(b"caf\xC3\xA9"), Some("café"));
/// assert_eq!(evaltally_format::utf8(b"caf\xE9"), None);
/// ```
pub fn utf8(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

/// Whether the file name of `path` has extension `ext` (any ASCII case), as
/// [`Path::extension`] would say, from the path's bytes: every format's
/// [`claim`](Format::claim) asks this of every file the walk finds, and taking a path apart
/// into components costs more than the comparison.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::has_extension;
/// assert!(has_extension(Path::new("runs/a/report.JSON"), "json"));
/// assert!(has_extension(Path::new("..json"), "json"));
/// assert!(!has_extension(Path::new("runs/.json"), "json"));
/// assert!(!has_extension(Path::new("runs/a.jsonl"), "json"));
/// assert!(!has_extension(Path::new("json"), "json"));
/// ```
pub fn has_extension(path: &Path, ext: &str) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    let name = bytes.iter().rposition(|&b| std::path::is_separator(char::from(b))).map_or(bytes, |i| &bytes[i + 1..]);
    let ext = ext.as_bytes();
    // `name` is `<something>.<ext>`, where the something is not empty (`.json` is a hidden
    // file's name, without an extension).
    name.len() > ext.len() + 1
        && name[name.len() - ext.len()..].eq_ignore_ascii_case(ext)
        && name[name.len() - ext.len() - 1] == b'.'
}

/// The names of the `N` folders above a file's place, nearest first: `skip` components
/// are passed over from the end (1 for the file's own name, 2 to start above its folder);
/// `None` when fewer than `N` remain or one of them is not a name (`..`, the root). For
/// claims that go by where a file sits (`…/logs/run_evaluation/<run>/<model>/<id>/report.json`),
/// in one pass over the path from its end: a claim is asked of every file a walk finds.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::names_above;
/// let report = Path::new("x/logs/run_evaluation/night-1/acme/django-1/report.json");
/// let [model, run, rv, logs] = names_above::<4>(report, 2).unwrap();
/// assert_eq!([&*model, &*run, &*rv, &*logs], ["acme", "night-1", "run_evaluation", "logs"]);
/// assert!(names_above::<4>(Path::new("night-1/acme/django-1/report.json"), 2).is_none());
/// assert!(names_above::<2>(Path::new("../django-1/report.json"), 1).is_none());
/// ```
pub fn names_above<const N: usize>(path: &Path, skip: usize) -> Option<[Cow<'_, str>; N]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        // From the path's bytes when every piece up to the last one asked for is a
        // component of its own: not empty (`a//b`, `a/`, the root) and not `.`.
        let mut rest = path.as_os_str().as_bytes();
        let mut names: [&[u8]; N] = [&[]; N];
        let mut plain = true;
        for at in 0..skip + N {
            let (piece, more) = match memchr::memrchr(b'/', rest) {
                Some(i) => (&rest[i + 1..], Some(&rest[..i])),
                None => (rest, None),
            };
            if matches!(piece, b"" | b".") {
                plain = false;
                break;
            }
            if at >= skip {
                if piece == b".." {
                    return None;
                }
                names[at - skip] = piece;
            }
            match more {
                Some(more) => rest = more,
                None if at + 1 < skip + N => return None,
                None => {}
            }
        }
        if plain {
            // Checking plain UTF-8 first is quicker for the usual ASCII names.
            return Some(
                names.map(|n| std::str::from_utf8(n).map_or_else(|_| String::from_utf8_lossy(n), Cow::Borrowed)),
            );
        }
    }
    first_names(path.components().rev().skip(skip).map(|c| match c {
        std::path::Component::Normal(name) => Some(name.to_string_lossy()),
        _ => None,
    }))
}

/// The first `N` names, when there are that many and each is a name.
fn first_names<'a, const N: usize>(mut names: impl Iterator<Item = Option<Cow<'a, str>>>) -> Option<[Cow<'a, str>; N]> {
    let found: [Option<Cow<'a, str>>; N] = std::array::from_fn(|_| names.next().flatten());
    if found.iter().any(Option::is_none) {
        return None;
    }
    Some(found.map(Option::unwrap_or_default))
}

/// [`Path::file_name`], from the path's bytes when its last piece is a name: a claim asks
/// it of every file a walk finds, and taking a path apart into components costs more than
/// the comparison that follows.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::file_name;
/// for p in ["runs/a/report.json", "report.json", "runs/a/", "runs/a/.", "runs/..", "/", ""] {
///     assert_eq!(file_name(Path::new(p)), Path::new(p).file_name(), "{p}");
/// }
/// ```
pub fn file_name(path: &Path) -> Option<&std::ffi::OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        let name = bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes);
        if !matches!(name, b"" | b"." | b"..") {
            return Some(std::ffi::OsStr::from_bytes(name));
        }
    }
    path.file_name()
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::path::{Component, Path};

    /// What [`super::names_above`] says, worked out from the path's components.
    fn by_components<const N: usize>(path: &Path, skip: usize) -> Option<[Cow<'_, str>; N]> {
        let names: Vec<Option<Cow<'_, str>>> = path
            .components()
            .rev()
            .skip(skip)
            .take(N)
            .map(|c| match c {
                Component::Normal(name) => Some(name.to_string_lossy()),
                _ => None,
            })
            .collect();
        let names: Option<Vec<Cow<'_, str>>> = names.into_iter().collect();
        names?.try_into().ok()
    }

    #[test]
    fn names_above_and_file_name_agree_with_the_components() {
        let paths = [
            "x/logs/run_evaluation/night-1/acme/django-1/report.json",
            "/abs/logs/run_evaluation/night-1/acme/django-1/report.json",
            "logs/run_evaluation/night-1/acme/django-1/report.json",
            "run_evaluation/night-1/acme/django-1/report.json",
            "./logs/run_evaluation/night-1/acme/django-1/report.json",
            "x/logs//run_evaluation/./night-1/acme/django-1/report.json",
            "x/logs/run_evaluation/night-1/acme/django-1/",
            "x/logs/../night-1/acme/django-1/report.json",
            "x/logs/run_evaluation/night-1/acme/../report.json",
            "x/logs/run_evaluation/night-1/acme/django-1/.",
            "/logs/a/b/c/d",
            "a/b",
            "/",
            "",
            ".",
            "..",
        ];
        for p in paths.map(Path::new) {
            for skip in 0..4 {
                assert_eq!(super::names_above::<4>(p, skip), by_components::<4>(p, skip), "{p:?} {skip}");
                assert_eq!(super::names_above::<1>(p, skip), by_components::<1>(p, skip), "{p:?} {skip}");
            }
            assert_eq!(super::file_name(p), p.file_name(), "{p:?}");
        }
    }
}
