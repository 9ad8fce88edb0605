//! The ids of a result file, read into reusable buffers.

use evaltally_core::IdList;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

use super::reporter::Reporter;
use crate::lines::{self, IdProblem, IdSource, ResultRecord};

/// The tests of one result file, in file order, each id once; the buffers are reused
/// from file to file, so reading allocates nothing per line once they have grown.
#[derive(Debug, Default)]
pub(super) struct Results {
    pub(super) ids: IdList,
    pub(super) lines: Vec<u64>,
    pub(super) inference_error: Vec<bool>,
    /// Indices into `ids`, hashed by id: finds duplicates and failure ids.
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl Results {
    fn clear(&mut self) {
        self.ids.clear();
        self.lines.clear();
        self.inference_error.clear();
        self.table.clear();
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The index of `id`, if the file lists it.
    pub(super) fn find(&self, id: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(id);
        self.table.find(hash, |&i| self.ids.get(i as usize) == id).map(|&i| i as usize)
    }

    /// Adds a test; returns the line of its first occurrence if it is a duplicate (and
    /// then adds nothing).
    fn push(&mut self, id: &str, line: u64, inference_error: bool) -> Option<u64> {
        let hash = self.hasher.hash_one(id);
        let Self { ids, table, hasher, lines, .. } = self;
        if let Some(&first) = table.find(hash, |&i| ids.get(i as usize) == id) {
            return Some(lines[first as usize]);
        }
        let index = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        ids.push(id);
        table.insert_unique(hash, index, |&i| hasher.hash_one(ids.get(i as usize)));
        lines.push(line);
        self.inference_error.push(inference_error);
        None
    }

    /// Reads the ids of a result file. Bad lines and duplicates become diagnostics.
    pub(super) fn read(&mut self, buf: &[u8], category: &str, rep: &mut Reporter<'_>) {
        self.clear();
        rep.check_final_newline(buf);
        let mut first_idx = None;
        for (line_no, line) in lines::split(buf) {
            if lines::is_blank(line) {
                rep.warn("blank line", line_no, "blank line ignored".into());
                continue;
            }
            let record = match ResultRecord::parse(line) {
                Ok(r) => r,
                Err(e) => {
                    rep.bad_line(line_no, &e, "result");
                    continue;
                }
            };
            if let Some(key) = record.repeated {
                rep.warn(
                    "repeated key",
                    line_no,
                    format!("key `{key}` appears twice on this line; the last value is read"),
                );
            }
            let id = match record.test_id(category) {
                Ok((id, IdSource::Id)) => id,
                Ok((id, IdSource::Idx)) => {
                    first_idx.get_or_insert(line_no);
                    id
                }
                Ok((id, IdSource::IntegerId)) => {
                    rep.warn("integer id", line_no, format!("integer id in a result file; named `{id}`"));
                    id
                }
                Err(IdProblem::WrongType) => {
                    let raw = lines::excerpt(record.id.or(record.idx).unwrap_or_default());
                    rep.error(
                        "bad id",
                        line_no,
                        format!("`id` must be a JSON string (or an integer in old files), found `{raw}`; line skipped"),
                    );
                    continue;
                }
                Err(IdProblem::Missing) => {
                    rep.error(
                        "missing id",
                        line_no,
                        "line has no `id`; expected a result object with an `id`; line skipped".into(),
                    );
                    continue;
                }
            };
            if let Some(first) = self.push(&id, line_no, record.is_inference_error()) {
                rep.warn("duplicate id", line_no, format!("duplicate id `{id}` (first at line {first}); counted once"));
            }
        }
        if let Some(first) = first_idx {
            rep.warn(
                "v1 idx",
                first,
                format!("v1 result lines keyed `idx` (0-based) instead of `id`; ids named `{category}_<idx>`"),
            );
        }
    }
}
