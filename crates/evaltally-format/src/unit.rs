//! Units: what the parallel readers work on.

use std::any::Any;
use std::fmt::Debug;

use crate::options::Options;
use crate::outputs::{Read, Records, Shown, Validated};

/// Reusable memory for one worker thread: a file buffer every format reads into, and one
/// slot per type for a format's own reusable state (BFCL keeps its id tables there).
#[derive(Debug, Default)]
pub struct Scratch {
    /// A file buffer, cleared before each use; its allocation is kept.
    pub buf: Vec<u8>,
    slots: Vec<Box<dyn Any + Send>>,
}

impl Scratch {
    /// The worker's value of type `T`, made with `T::default()` on first use.
    ///
    /// ```
    /// let mut scratch = evaltally_format::Scratch::default();
    /// scratch.slot::<Vec<u32>>().push(7);
    /// assert_eq!(scratch.slot::<Vec<u32>>(), &[7]);
    /// ```
    pub fn slot<T: Default + Send + 'static>(&mut self) -> &mut T {
        let at = self.slots.iter().position(|s| s.is::<T>()).unwrap_or_else(|| {
            self.slots.push(Box::new(T::default()));
            self.slots.len() - 1
        });
        self.slots[at].downcast_mut::<T>().unwrap_or_else(|| unreachable!("the slot at {at} holds a T"))
    }
}

/// One thing to read: a file, or files that only make sense together (a BFCL result file
/// with its score file, a folder of SWE-bench per-instance reports). Units are independent
/// of each other, so callers read them in parallel, each worker with its own [`Scratch`].
pub trait Unit: Send + Sync + Debug {
    /// The format's name.
    fn format(&self) -> &'static str;

    /// Total size in bytes, for scheduling large units first.
    fn size(&self) -> u64;

    /// A short name that tells units apart (a file name without `.json`), for runs whose
    /// names clash.
    fn label(&self) -> String;

    /// The file the unit reads, when it is one file: lengthens [`label`](Unit::label) by
    /// its folders when two clashing units have the same label.
    fn source(&self) -> Option<&std::path::Path> {
        None
    }

    /// Every file whose bytes the unit's reading depends on: its own files and those read
    /// beside them (a run spec, a results file naming the model). The digest cache stamps
    /// them to know that a stored reading still holds, so a unit that reads a file must
    /// list it; a unit that lists none is never stored, and is read every time. By default,
    /// [`source`](Unit::source).
    fn inputs(&self) -> Vec<std::path::PathBuf> {
        self.source().map(std::path::Path::to_path_buf).into_iter().collect()
    }

    /// What the walk saw of `input`, which is `inputs()[index]`
    /// ([`inputs`](Unit::inputs)), when the walk found it
    /// ([`WalkedFile::meta`](crate::WalkedFile::meta)): the digest cache stamps the input
    /// from it instead of asking the system again. `None` (the default) for a file the walk
    /// did not see, such as one read beside the unit's own. The index lets a unit of
    /// hundreds of files answer without searching for the path.
    fn seen(&self, _index: usize, _input: &std::path::Path) -> Option<&std::fs::Metadata> {
        None
    }

    /// (model, category) when the unit's place already says them (a BFCL file pair), so a
    /// filter can drop the unit before any file is opened.
    fn scope(&self) -> Option<(&str, &str)> {
        None
    }

    /// Whether the unit may hold test `test` (a BFCL pair holds only its category's ids), so
    /// `show` opens likely units first.
    fn may_hold(&self, _test: &str) -> bool {
        true
    }

    /// Reads the unit's runs.
    fn read(&self, scratch: &mut Scratch, options: &Options) -> Read;

    /// Reads the unit's run records.
    fn records(&self, scratch: &mut Scratch, options: &Options) -> Records;

    /// The unit's runs and its run records from one reading of its files, for commands that
    /// need both (`compare`: outcomes, then cost and tokens). By default the two are read
    /// one after the other; units that can, read their files once.
    fn read_both(&self, scratch: &mut Scratch, options: &Options) -> (Read, Records) {
        (self.read(scratch, options), self.records(scratch, options))
    }

    /// Everything the unit says about test `test`.
    fn show(&self, scratch: &mut Scratch, test: &str, options: &Options) -> Shown;

    /// Validates the unit's files.
    fn validate(&self, scratch: &mut Scratch, options: &Options) -> Validated;
}
