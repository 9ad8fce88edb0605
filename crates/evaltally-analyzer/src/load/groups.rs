//! Several groups of paths loaded with one reading of each unit: the two sides of a
//! comparison shown beside the runs of both (`evaltally report --base A --new B`).

use std::collections::HashMap;
use std::path::PathBuf;

use evaltally_cache::Cache;
use evaltally_format::{Read, Scratch};

use super::{Filter, LoadError, Loaded, Progress, Records, discover, finish_loaded, finish_records, read_both, split};

/// What [`load_groups_with_records`] gives.
#[derive(Debug, Default)]
pub struct Groups {
    /// The runs below the paths of every group, as [`super::load_with_records`] of all the
    /// paths gives them.
    pub all: Loaded,
    /// Their records (cost, duration, tokens, messages).
    pub records: Records,
    /// Each group's runs, as loading its paths alone gives them (its runs named apart from
    /// the other groups' only where they are within the group).
    pub groups: Vec<Loaded>,
}

/// [`super::load_with_records`] of the paths of every group together, and [`super::load_cached`]
/// of each group, from one reading of each unit: a unit that two of them find is read
/// once. A group whose paths hold nothing the filter keeps is an error, as loading it
/// alone would be.
///
/// ```no_run
/// use std::path::PathBuf;
/// use evaltally_analyzer::{Filter, load};
/// use evaltally_cache::Cache;
///
/// let (base, new) = ([PathBuf::from("runs/last-week")], [PathBuf::from("runs/today")]);
/// let loaded = load::load_groups_with_records(&[&base, &new], &Filter::default(), &load::NoProgress, &Cache::disabled())?;
/// let comparison = evaltally_analyzer::compare::compare(&loaded.groups[0].runs, &loaded.groups[1].runs);
/// # Ok::<(), load::LoadError>(())
/// ```
pub fn load_groups_with_records(
    groups: &[&[PathBuf]],
    filter: &Filter,
    progress: &dyn Progress,
    cache: &Cache,
) -> Result<Groups, LoadError> {
    let paths: Vec<PathBuf> = groups.iter().flat_map(|g| g.iter().cloned()).collect();
    let found = discover(&paths, filter, cache)?;
    let both = read_both(&found.units, filter, progress, cache);
    let options = filter.options();
    // A unit is the same unit wherever it was found when its identity (what the cache keys
    // it by: its files, layout and the path it was found below) is the same.
    let at: HashMap<String, usize> = found.units.iter().enumerate().map(|(i, u)| (format!("{u:?}"), i)).collect();
    let mut loaded = Vec::with_capacity(groups.len());
    for group in groups {
        let own = discover(group, filter, cache)?;
        let mut scratch = Scratch::default();
        let read: Vec<(usize, Read)> = own
            .units
            .iter()
            .enumerate()
            .map(|(i, unit)| {
                let reading = match at.get(&format!("{unit:?}")) {
                    Some(&k) => Read { runs: both[k].0.runs.clone(), diagnostics: both[k].0.diagnostics.clone() },
                    // Found otherwise below the group's paths alone (BFCL names a run after
                    // the folders the paths share): read as loading the group alone reads
                    // it, with its records, so that `compare` of the same groups after
                    // `report` finds both in the cache.
                    None => cache.read_both(unit.as_ref(), &mut scratch, &options).0,
                };
                (i, reading)
            })
            .collect();
        loaded.push(Loaded {
            folders: own.folders,
            ..finish_loaded(own.diagnostics, &own.units, &own.pruned, read, filter)?.loaded
        });
    }
    let (read, records) = split(both);
    let all = Loaded {
        folders: found.folders,
        ..finish_loaded(found.diagnostics, &found.units, &found.pruned, read, filter)?.loaded
    };
    Ok(Groups { all, records: finish_records(Vec::new(), &found.units, records, filter), groups: loaded })
}
