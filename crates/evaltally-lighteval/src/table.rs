//! A Parquet file's rows as [`Val`]s, read with the `parquet` crate's column readers (no
//! Arrow): each leaf column wanted is decoded whole, its definition and repetition levels
//! turned into the nulls, lists and structs above it, and the columns of a row laid over
//! each other ([`merge`]).
//!
//! Damaged input is an error, never a panic: the sizes the file claims are checked against
//! its length before anything is decoded, levels the schema cannot give are refused, and
//! the decoders run under [`decode`], which turns a panic inside the `parquet` crate (an
//! index it does not check, on bytes no writer produces) into an error too.

use parquet::basic::{ConvertedType, LogicalType, Repetition};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::DataType;
use parquet::file::reader::{FileReader, RowGroupReader};
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::schema::types::{SchemaDescriptor, Type};

use crate::val::{Val, merge};

/// The four bytes a Parquet file starts and ends with.
const MAGIC: &[u8; 4] = b"PAR1";

/// The most rows a file may announce: far above any details file lighteval writes (a task
/// of a few thousand samples), far below what would exhaust memory when a damaged footer
/// announces billions.
const MAX_ROWS: i64 = 1 << 24;

/// The most values (levels) a column chunk may announce, for the same reason.
const MAX_VALUES: i64 = 1 << 26;

/// The deepest column read (lighteval's are at most five fields deep); bounds the
/// recursion of [`place`].
const MAX_DEPTH: usize = 32;

/// Whether `bytes` start like a Parquet file.
pub(crate) fn looks_like_parquet(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// An open Parquet file.
pub(crate) struct Parquet {
    reader: SerializedFileReader<bytes::Bytes>,
}

impl std::fmt::Debug for Parquet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parquet").field("rows", &self.rows()).finish_non_exhaustive()
    }
}

/// A top-level column of the file and what is below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Top {
    /// Its name.
    pub(crate) name: String,
    /// The names of its fields, when it is a struct; `None` for a leaf or a list.
    pub(crate) fields: Option<Vec<String>>,
    /// Whether it is a text column.
    pub(crate) text: bool,
}

impl Parquet {
    /// Opens the file in `bytes` (copied: the reader keeps its own handle on them). An error
    /// says what is wrong in words: not Parquet, cut short, a footer that does not decode.
    pub(crate) fn open(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < 12 || !bytes.starts_with(MAGIC) {
            return Err(if bytes.starts_with(MAGIC) || bytes.is_empty() {
                format!("cut short: {} bytes, not a whole Parquet file", bytes.len())
            } else {
                "not a Parquet file (it does not start with `PAR1`)".to_string()
            });
        }
        if !bytes.ends_with(MAGIC) {
            return Err(format!(
                "cut short: {} bytes and no Parquet footer at the end (the file was not written to the end)",
                bytes.len()
            ));
        }
        let owned = bytes::Bytes::copy_from_slice(bytes);
        let reader = decode(|| SerializedFileReader::new(owned).map_err(|e| e.to_string()))
            .map_err(|e| format!("damaged Parquet footer: {e}"))?;
        let parquet = Self { reader };
        parquet.check_extents(bytes.len() as u64)?;
        parquet.check_schema()?;
        Ok(parquet)
    }

    /// The number of rows the footer announces.
    pub(crate) fn rows(&self) -> usize {
        usize::try_from(self.reader.metadata().file_metadata().num_rows()).unwrap_or(0)
    }

    /// Every column chunk lies inside the file, and the counts of rows and values are ones
    /// a details file can have.
    fn check_extents(&self, len: u64) -> Result<(), String> {
        let mut rows: i64 = 0;
        for (g, group) in self.reader.metadata().row_groups().iter().enumerate() {
            rows = rows.saturating_add(group.num_rows());
            if !(0..=MAX_ROWS).contains(&group.num_rows()) || rows > MAX_ROWS {
                return Err(format!("damaged Parquet footer: row group {g} announces {} rows", group.num_rows()));
            }
            for column in group.columns() {
                if !(0..=MAX_VALUES).contains(&column.num_values()) {
                    return Err(format!(
                        "damaged Parquet footer: column `{}` of row group {g} announces {} values",
                        column.column_path().string(),
                        column.num_values()
                    ));
                }
                // `byte_range` asserts what a damaged footer breaks: checked here instead.
                let start = column.dictionary_page_offset().unwrap_or_else(|| column.data_page_offset());
                let size = column.compressed_size();
                let end = u64::try_from(start).ok().zip(u64::try_from(size).ok()).and_then(|(a, b)| a.checked_add(b));
                if end.is_none_or(|end| end > len) {
                    return Err(format!(
                        "cut short or damaged: column `{}` of row group {g} lies at bytes {start}+{size}, past the end ({len} bytes)",
                        column.column_path().string()
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every field below the root has a repetition (the column readers assume it).
    fn check_schema(&self) -> Result<(), String> {
        fn check(t: &Type) -> Result<(), String> {
            for field in fields(t) {
                if !field.get_basic_info().has_repetition() {
                    return Err(format!("damaged Parquet schema: field `{}` has no repetition", field.name()));
                }
                if field.is_group() {
                    check(field)?;
                }
            }
            Ok(())
        }
        check(self.schema().root_schema())
    }

    fn schema(&self) -> &SchemaDescriptor {
        self.reader.metadata().file_metadata().schema_descr()
    }

    /// The top-level columns, in the file's order.
    pub(crate) fn tops(&self) -> Vec<Top> {
        fields(self.schema().root_schema())
            .iter()
            .map(|t| {
                let fields =
                    (t.is_group() && !is_list(t)).then(|| fields(t).iter().map(|f| f.name().to_string()).collect());
                let text = t.is_primitive() && t.get_physical_type() == parquet::basic::Type::BYTE_ARRAY;
                Top { name: t.name().to_string(), fields, text }
            })
            .collect()
    }

    /// The rows, each a struct of the top-level columns named by `wanted` (a path prefix
    /// each: `["doc", "id"]` reads only that field of `doc`, `["doc"]` all of it).
    pub(crate) fn read(&self, wanted: &[&[&str]]) -> Result<Vec<Val>, String> {
        let schema = self.schema();
        let leaves: Vec<(usize, Vec<Step>)> = (0..schema.num_columns())
            .filter_map(|i| {
                let path = schema.column(i).path().parts().to_vec();
                let keep = wanted.iter().any(|w| w.len() <= path.len() && w.iter().zip(&path).all(|(a, b)| a == b));
                keep.then(|| steps(schema.root_schema(), &path).map(|s| (i, s)))
            })
            .collect::<Result<_, String>>()?;
        let mut rows: Vec<Val> = Vec::with_capacity(self.rows());
        for g in 0..self.reader.num_row_groups() {
            let group = decode(|| self.reader.get_row_group(g).map_err(|e| e.to_string()))?;
            let count = usize::try_from(group.metadata().num_rows()).unwrap_or(0);
            let mut group_rows: Vec<Val> = vec![Val::Map(Vec::new()); count];
            for (i, chain) in &leaves {
                let column = read_leaf(group.as_ref(), *i, chain, count)
                    .map_err(|e| format!("column `{}` of row group {g}: {e}", schema.column(*i).path().string()))?;
                for (row, value) in group_rows.iter_mut().zip(column) {
                    merge(row, value);
                }
            }
            rows.append(&mut group_rows);
        }
        Ok(rows)
    }
}

/// A group's fields; none for a primitive (a damaged schema can put one where a group
/// belongs, and the `parquet` crate's `get_fields` panics on it).
fn fields(t: &Type) -> &[parquet::schema::types::TypePtr] {
    if t.is_group() { t.get_fields() } else { &[] }
}

/// Whether a group is a list: annotated `LIST`.
fn is_list(t: &Type) -> bool {
    let info = t.get_basic_info();
    t.is_group()
        && (matches!(info.logical_type_ref(), Some(LogicalType::List))
            || matches!(info.converted_type(), ConvertedType::LIST | ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE)
            || matches!(info.logical_type_ref(), Some(LogicalType::Map)))
}

/// One node on the way from a row down to a leaf value.
#[derive(Clone, Debug)]
enum Kind {
    /// A field of a struct, by name.
    Key(String),
    /// An element of a list: the node is repeated.
    Elem,
    /// A node that adds nothing to the value's shape (the element of a three-level list),
    /// but may be null.
    Through,
}

#[derive(Clone, Debug)]
struct Step {
    kind: Kind,
    /// The definition level at which the node is there (not null).
    def: i16,
    /// The repetition level of the node (for [`Kind::Elem`]).
    rep: i16,
}

/// The steps from the root to the leaf at `path`, lists read as the Parquet spec's
/// backward-compatibility rules say: a `LIST` group is a field whose value is the list of
/// its repeated child's elements; a repeated group of one field that is not named `array`
/// or `<list>_tuple` is a three-level list's element wrapper, its field the element.
fn steps(root: &Type, path: &[String]) -> Result<Vec<Step>, String> {
    if path.len() > MAX_DEPTH {
        return Err(format!("a column nested {} deep", path.len()));
    }
    let mut out = Vec::with_capacity(path.len() + 2);
    let (mut def, mut rep) = (0i16, 0i16);
    let mut node: &Type = root;
    // Whether the node just entered is a list group, whose repeated child is its element.
    let mut in_list = false;
    // The repeated wrapper just entered, whose single field is the element.
    let mut wrapper = false;
    for name in path {
        let child =
            fields(node).iter().find(|f| f.name() == name).ok_or_else(|| format!("no field `{name}` in the schema"))?;
        let info = child.get_basic_info();
        let repetition = if info.has_repetition() { info.repetition() } else { Repetition::REQUIRED };
        match repetition {
            Repetition::OPTIONAL => def += 1,
            Repetition::REPEATED => {
                def += 1;
                rep += 1;
            }
            Repetition::REQUIRED => {}
        }
        let repeated = repetition == Repetition::REPEATED;
        let list_child = std::mem::take(&mut in_list);
        if repeated {
            if !list_child {
                out.push(Step { kind: Kind::Key(name.clone()), def: def - 1, rep });
            }
            out.push(Step { kind: Kind::Elem, def, rep });
            let parent_name = node.name();
            wrapper = child.is_group()
                && fields(child).len() == 1
                && name != "array"
                && name != &format!("{parent_name}_tuple");
        } else if wrapper {
            wrapper = false;
            out.push(Step { kind: Kind::Through, def, rep });
        } else {
            out.push(Step { kind: Kind::Key(name.clone()), def, rep });
        }
        in_list = is_list(child) && !repeated;
        node = child;
    }
    Ok(out)
}

/// Reads leaf column `i` of a row group whole: one value per row, the row's struct down to
/// the leaf.
fn read_leaf(group: &dyn RowGroupReader, i: usize, chain: &[Step], rows: usize) -> Result<Vec<Val>, String> {
    let reader = decode(|| group.get_column_reader(i).map_err(|e| e.to_string()))?;
    let descr = group.metadata().column(i).column_descr_ptr();
    let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
    let text = |b: &[u8]| Val::Text(String::from_utf8_lossy(b).into_owned());
    let null_type = matches!(descr.logical_type_ref(), Some(LogicalType::Unknown));
    let (values, defs, reps) = match reader {
        ColumnReader::BoolColumnReader(r) => levels(r, rows, max_def, max_rep, |v| Val::Bool(*v))?,
        ColumnReader::Int32ColumnReader(r) => {
            levels(r, rows, max_def, max_rep, |v| if null_type { Val::Null } else { Val::Int(i64::from(*v)) })?
        }
        ColumnReader::Int64ColumnReader(r) => levels(r, rows, max_def, max_rep, |v| Val::Int(*v))?,
        ColumnReader::Int96ColumnReader(r) => levels(r, rows, max_def, max_rep, |_| Val::Null)?,
        ColumnReader::FloatColumnReader(r) => levels(r, rows, max_def, max_rep, |v| Val::Float(f64::from(*v)))?,
        ColumnReader::DoubleColumnReader(r) => levels(r, rows, max_def, max_rep, |v| Val::Float(*v))?,
        ColumnReader::ByteArrayColumnReader(r) => levels(r, rows, max_def, max_rep, |v| text(v.data()))?,
        ColumnReader::FixedLenByteArrayColumnReader(r) => levels(r, rows, max_def, max_rep, |v| text(v.data()))?,
    };
    assemble(chain, values, &defs, &reps, max_def, max_rep, rows)
}

/// The values (non-null ones only), definition levels and repetition levels of a whole
/// column chunk.
type Levels = (Vec<Val>, Vec<i16>, Vec<i16>);

fn levels<T: DataType>(
    mut reader: ColumnReaderImpl<T>,
    rows: usize,
    max_def: i16,
    max_rep: i16,
    convert: impl Fn(&T::T) -> Val,
) -> Result<Levels, String> {
    let mut defs: Vec<i16> = Vec::new();
    let mut reps: Vec<i16> = Vec::new();
    let mut raw: Vec<T::T> = Vec::new();
    let mut records = 0;
    loop {
        let (read, values, levels) = decode(|| {
            reader
                .read_records(rows.saturating_sub(records).max(1), Some(&mut defs), Some(&mut reps), &mut raw)
                .map_err(|e| e.to_string())
        })?;
        records += read;
        if read == 0 && values == 0 && levels == 0 {
            break;
        }
    }
    if max_def == 0 {
        defs.clear();
    }
    if max_rep == 0 {
        reps.clear();
    }
    Ok((raw.iter().map(convert).collect(), defs, reps))
}

/// Builds one value per row from a leaf's levels (Dremel's record assembly, one column at
/// a time): a repetition level of 0 starts a row, a definition level below a node's makes
/// it null (or an empty list), and a value is taken at the maximum definition level.
fn assemble(
    chain: &[Step],
    values: Vec<Val>,
    defs: &[i16],
    reps: &[i16],
    max_def: i16,
    max_rep: i16,
    rows: usize,
) -> Result<Vec<Val>, String> {
    let count = if max_def > 0 {
        defs.len()
    } else if max_rep > 0 {
        reps.len()
    } else {
        values.len()
    };
    if max_rep > 0 && reps.len() != count || max_def > 0 && defs.len() != count {
        return Err(format!("{} definition levels and {} repetition levels", defs.len(), reps.len()));
    }
    let mut values = values.into_iter();
    let mut out: Vec<Val> = Vec::with_capacity(rows);
    for k in 0..count {
        let d = if max_def > 0 { defs[k] } else { 0 };
        let r = if max_rep > 0 { reps[k] } else { 0 };
        if d > max_def || d < 0 || r > max_rep || r < 0 {
            return Err(format!("level {d}/{r} at value {k}, beyond the schema's {max_def}/{max_rep}"));
        }
        if r == 0 {
            if out.len() == rows {
                return Err(format!("more than the row group's {rows} rows"));
            }
            out.push(Val::Map(Vec::new()));
        }
        let Some(row) = out.last_mut() else { return Err("a first value that continues a list".to_string()) };
        let mut take = || values.next().ok_or_else(|| format!("fewer values than levels at value {k}"));
        place(row, chain, d, r, &mut take)?;
    }
    if out.len() != rows {
        return Err(format!("{} rows, the row group has {rows}", out.len()));
    }
    if values.next().is_some() {
        return Err("more values than levels say".to_string());
    }
    Ok(out)
}

/// Puts one leaf value (or the null or empty list its levels say) into `cur`, following
/// `chain` down from it.
fn place(
    cur: &mut Val,
    chain: &[Step],
    d: i16,
    r: i16,
    take: &mut dyn FnMut() -> Result<Val, String>,
) -> Result<(), String> {
    let Some((step, rest)) = chain.split_first() else {
        // Every node down to the leaf is there: the leaf's value.
        *cur = take()?;
        return Ok(());
    };
    match &step.kind {
        Kind::Key(name) => {
            if cur.is_null() {
                *cur = Val::Map(Vec::new());
            }
            let Val::Map(fields) = cur else { return Err(format!("field `{name}` inside a non-struct")) };
            let at = if let Some(at) = fields.iter().position(|(k, _)| k == name) {
                at
            } else {
                fields.push((name.clone(), Val::Null));
                fields.len() - 1
            };
            if d < step.def {
                return Ok(());
            }
            place(&mut fields[at].1, rest, d, r, take)
        }
        Kind::Elem => {
            if cur.is_null() {
                *cur = Val::List(Vec::new());
            }
            let Val::List(items) = cur else { return Err("a list element inside a non-list".to_string()) };
            if d < step.def {
                return Ok(());
            }
            // A list goes on in its last element when a deeper list repeats; else the
            // level starts an element here (a new list's first, or the next).
            if step.rep >= r || items.is_empty() {
                items.push(Val::Null);
            }
            let last = items.len() - 1;
            place(&mut items[last], rest, d, r, take)
        }
        Kind::Through => {
            if d < step.def {
                return Ok(());
            }
            place(cur, rest, d, r, take)
        }
    }
}

/// Runs a step of the `parquet` crate's decoding, turning a panic in it into an error: the
/// crate indexes some tables with values read from the file (a dictionary index, a level
/// count) without checking them, so a damaged file could otherwise stop the process.
pub(crate) fn decode<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    quiet::run(f)
}

/// Panics caught around the decoder, kept off stderr.
mod quiet {
    use std::cell::Cell;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::Once;

    thread_local! {
        /// Whether this thread is inside [`run`].
        static INSIDE: Cell<bool> = const { Cell::new(false) };
    }

    /// Runs `f`, a panic in it an error. The process's panic hook is wrapped once so that a
    /// panic inside `run` is not printed; every other panic goes to the hook as before.
    pub(super) fn run<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if !INSIDE.with(Cell::get) {
                    previous(info);
                }
            }));
        });
        let outer = INSIDE.with(|i| i.replace(true));
        let out = catch_unwind(AssertUnwindSafe(f));
        INSIDE.with(|i| i.set(outer));
        match out {
            Ok(result) => result,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "an unknown fault".to_string());
                Err(format!("the Parquet decoder failed on damaged data ({what})"))
            }
        }
    }
}
