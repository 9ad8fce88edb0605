//! The ids of a result file, read into reusable buffers.

use evaltally_core::IdList;
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

use super::numbers::Numbers;
use super::reporter::Reporter;
use crate::lines::{self, IdProblem, IdSource, ResultRecord};

/// The tests of one result file, in file order, each id once; the buffers are reused
/// from file to file, so reading allocates nothing per line once they have grown.
#[derive(Debug, Default)]
pub(super) struct Results {
    pub(super) ids: IdList,
    pub(super) lines: Vec<u64>,
    pub(super) inference_error: Vec<bool>,
    /// Each test's numbers, when the file was read with them (for records): those of the
    /// last line with its id as a string, as a lookup by id would find them.
    numbers: Vec<Numbers>,
    /// Indices into `ids`, hashed by id: finds duplicates and failure ids.
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl Results {
    fn clear(&mut self) {
        self.ids.clear();
        self.lines.clear();
        self.inference_error.clear();
        self.numbers.clear();
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

    /// The numbers of the test `id` (none unless the file was read with them).
    pub(crate) fn numbers_of(&self, id: &str) -> Numbers {
        self.find(id).and_then(|i| self.numbers.get(i)).copied().unwrap_or_default()
    }

    /// Adds a test; for a duplicate adds nothing and returns the index and line of its
    /// first occurrence.
    fn push(&mut self, id: &str, line: u64, inference_error: bool) -> Result<(), (usize, u64)> {
        let hash = self.hasher.hash_one(id);
        let Self { ids, table, hasher, lines, .. } = self;
        if let Some(&first) = table.find(hash, |&i| ids.get(i as usize) == id) {
            return Err((first as usize, lines[first as usize]));
        }
        let index = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        ids.push(id);
        table.insert_unique(hash, index, |&i| hasher.hash_one(ids.get(i as usize)));
        lines.push(line);
        self.inference_error.push(inference_error);
        Ok(())
    }

    /// Reads the ids of a result file (and with `NUMBERS` each test's [`Numbers`], from the
    /// same scan of each line; a reading of its own, so that reading the ids alone, the
    /// analyses' path, pays nothing for them). Bad lines and duplicates become
    /// diagnostics, the same either way.
    pub(super) fn read<const NUMBERS: bool>(&mut self, buf: &[u8], category: &str, rep: &mut Reporter<'_>) {
        self.clear();
        // Pretty-printed JSON (`jq .` of the file, a list): said once, not once per line.
        if let Some(spread) = evaltally_format::json::Spread::of(buf) {
            rep.file_error(format!("{}; file skipped", spread.message("BFCL writes them")));
            return;
        }
        rep.check_final_newline(buf);
        let mut first_idx = None;
        let mut first_integer = None;
        for (line_no, line) in lines::split(buf) {
            if lines::is_blank(line) {
                rep.warn("blank line", line_no, "blank line ignored".into());
                continue;
            }
            let parsed = if NUMBERS {
                ResultRecord::parse_with_numbers(line).map(|(r, n)| (r, Some(n)))
            } else {
                ResultRecord::parse(line).map(|r| (r, None))
            };
            let (record, raw_numbers) = match parsed {
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
            let (id, source) = match record.test_id(category) {
                Ok((id, IdSource::Id)) => (id, IdSource::Id),
                Ok((id, IdSource::Idx)) => {
                    first_idx.get_or_insert(line_no);
                    (id, IdSource::Idx)
                }
                Ok((id, IdSource::IntegerId)) => {
                    first_integer.get_or_insert(line_no);
                    (id, IdSource::IntegerId)
                }
                Err(IdProblem::WrongType) => {
                    let value = record.id.or(record.idx).unwrap_or_default();
                    let raw = lines::excerpt(value);
                    rep.error_at(
                        "bad id",
                        line_no,
                        line,
                        value,
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
            // Records have always taken numbers from lines whose id is a string, the last
            // such line of an id.
            let own = raw_numbers.filter(|_| source == IdSource::Id).map(Numbers::from_raw);
            match self.push(&id, line_no, record.is_inference_error()) {
                Ok(()) if NUMBERS => self.numbers.push(own.unwrap_or_default()),
                Ok(()) => {}
                Err((first, first_line)) => {
                    if let (Some(n), Some(slot)) = (own, self.numbers.get_mut(first)) {
                        *slot = n;
                    }
                    rep.warn(
                        "duplicate id",
                        line_no,
                        format!("duplicate id `{id}` (first at line {first_line}); counted once"),
                    );
                }
            }
        }
        // What BFCL v1's writer always did: facts of the file's shape, not problems.
        if let Some(first) = first_idx {
            rep.info(
                first,
                format!("v1 result lines keyed `idx` (0-based) instead of `id`; ids named `{category}_<idx>`"),
            );
        }
        if let Some(first) = first_integer {
            let message = format!("integer ids in a result file; named `{category}_<id>`");
            if rep.is_v1() {
                rep.info(first, format!("v1 {message}"));
            } else {
                rep.warn("integer id", first, format!("{message} (only BFCL v1's writer wrote integer ids)"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Reporter, Results};

    /// Reads `buf` with and without numbers: the same diagnostics either way.
    fn read_both(buf: &[u8]) -> (Results, Results) {
        let path = Path::new("r.json");
        let (mut with, mut without) = (Results::default(), Results::default());
        let (mut said_with, mut said_without) = (Vec::new(), Vec::new());
        let mut rep = Reporter::new(path);
        with.read::<true>(buf, "simple", &mut rep);
        rep.finish(&mut said_with);
        let mut rep = Reporter::new(path);
        without.read::<false>(buf, "simple", &mut rep);
        rep.finish(&mut said_without);
        assert_eq!(said_with, said_without);
        assert!(!said_with.is_empty());
        (with, without)
    }

    #[test]
    fn numbers_come_from_the_scan_that_reads_the_ids() {
        let buf = br#"{"id": "simple_0", "latency": 1.5, "input_token_count": 10, "output_token_count": 3}
{"id": 1, "latency": 9}
{"id": "multi_turn_0", "latency": [[1, 2], [3]], "input_token_count": [[5], [6]]}
{"id": "simple_0", "latency": 2.5}
{"id": "simple_2", "latency": 1, "latency": 4, "id": "simple_2"}
"#;
        let (with, without) = read_both(buf);
        assert_eq!(with.ids.iter().collect::<Vec<_>>(), without.ids.iter().collect::<Vec<_>>());
        // A duplicate's string-id line replaces the numbers of the first, as a lookup by
        // id always gave them.
        let n = with.numbers_of("simple_0");
        assert_eq!((n.latency, n.input, n.output), (Some(2.5), None, None));
        // An integer id gets no numbers; multi-turn lists are summed; the last value of a
        // repeated key is read.
        assert_eq!(with.numbers_of("simple_1").latency, None);
        let n = with.numbers_of("multi_turn_0");
        assert_eq!((n.latency, n.input), (Some(6.0), Some(11)));
        assert_eq!(with.numbers_of("simple_2").latency, Some(4.0));
        // Read without them, a file has none.
        assert_eq!(without.numbers_of("simple_2").latency, None);
    }
}
