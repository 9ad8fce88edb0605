//! The bytes of a stored reading (a unit's category runs and diagnostics; its run records;
//! what validating it found), in a compact little-endian layout that restores without
//! parsing (ids as one buffer and their ends, outcomes as one byte each, error labels
//! interned).
//!
//! Decoding trusts nothing: every length is checked against what is left, every string is
//! checked as UTF-8, and the columns of a run are checked to fit together. Anything off
//! gives `None`, and the caller reads the files instead.

// Reading an optional field can fail (the outer `None`: damaged bytes) or find the field
// absent (the inner `None`); the two must stay apart.
#![allow(clippy::option_option)]

use std::path::PathBuf;
use std::sync::Arc;

use evaltally_core::{
    CategoryRun, Diagnostic, ErrorType, Finding, IdList, IdPool, ModelCost, Outcome, RunMeta, RunRecord, Severity,
    TestRecord,
};
use evaltally_format::{FileValidation, Read, Records, Validated};

/// Marks "no error label" in a run's error index column.
const NO_LABEL: u16 = u16::MAX;

pub(crate) struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        Self { out }
    }

    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    pub(crate) fn u32(&mut self, v: usize) {
        // Lengths past 4 GiB are not stored (see `encode_read`).
        self.out.extend_from_slice(&u32::try_from(v).unwrap_or(u32::MAX).to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.u32(v.len());
        self.out.extend_from_slice(v);
    }

    fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }

    fn opt_str(&mut self, v: Option<&str>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.str(v);
            }
            None => self.u8(0),
        }
    }

    fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u64(v);
            }
            None => self.u8(0),
        }
    }

    fn opt_f64(&mut self, v: Option<f64>) {
        self.opt_u64(v.map(f64::to_bits));
    }

    pub(crate) fn path(&mut self, p: &std::path::Path) {
        self.bytes(path_bytes(p).as_ref());
    }
}

#[cfg(unix)]
fn path_bytes(p: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(p.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(p: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    match p.to_string_lossy() {
        std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
        std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
    }
}

#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)] // `None` elsewhere, for bytes that are not UTF-8
pub(crate) fn path_from(bytes: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

#[cfg(not(unix))]
pub(crate) fn path_from(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}

/// Whether [`path_from`] takes `bytes`, without making the path.
#[cfg(unix)]
pub(crate) fn is_path(_bytes: &[u8]) -> bool {
    true
}

#[cfg(not(unix))]
pub(crate) fn is_path(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok()
}

/// A cursor over stored bytes; every read is checked.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Everything not read yet.
    pub(crate) fn rest(self) -> &'a [u8] {
        self.bytes
    }

    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    pub(crate) fn u32(&mut self) -> Option<usize> {
        let b = self.take(4)?;
        usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }

    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(n)
    }

    /// A string; the long ones (a run's test ids, one buffer) are checked with SIMD.
    fn str(&mut self) -> Option<&'a str> {
        let bytes = self.bytes()?;
        if bytes.len() >= 64 { evaltally_format::utf8(bytes) } else { std::str::from_utf8(bytes).ok() }
    }

    fn flag(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn opt_str(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? { Some(self.str()?.to_string()) } else { None })
    }

    fn opt_u64(&mut self) -> Option<Option<u64>> {
        Some(if self.flag()? { Some(self.u64()?) } else { None })
    }

    fn opt_f64(&mut self) -> Option<Option<f64>> {
        Some(self.opt_u64()?.map(f64::from_bits))
    }

    pub(crate) fn path(&mut self) -> Option<PathBuf> {
        path_from(self.bytes()?)
    }

    /// A count of items at least `each` bytes long, refused when more than the bytes left
    /// could hold (so a damaged count cannot ask for a huge allocation).
    pub(crate) fn count(&mut self, each: usize) -> Option<usize> {
        let n = self.u32()?;
        (n.saturating_mul(each) <= self.bytes.len()).then_some(n)
    }
}

fn outcome_byte(o: Outcome) -> u8 {
    match o {
        Outcome::Pass => 0,
        Outcome::Fail => 1,
        Outcome::Unscored => 2,
        Outcome::Errored => 3,
    }
}

fn outcome_from(b: u8) -> Option<Outcome> {
    Some(match b {
        0 => Outcome::Pass,
        1 => Outcome::Fail,
        2 => Outcome::Unscored,
        3 => Outcome::Errored,
        _ => return None,
    })
}

/// Whether a reading can be stored: every buffer fits the 32-bit lengths of the layout.
pub(crate) fn storable(read: &Read) -> bool {
    let limit = u32::MAX as usize / 2;
    read.runs.iter().all(|r| r.ids().as_parts().0.len() < limit && r.len() < limit)
}

/// Whether records can be stored: every string and list fits the 32-bit lengths.
pub(crate) fn records_storable(records: &Records) -> bool {
    let limit = u32::MAX as usize / 2;
    records.runs.iter().all(|r| {
        r.tests.len() < limit && r.tests.iter().all(|t| t.error_message.as_ref().is_none_or(|m| m.len() < limit))
    })
}

/// Appends a reading's bytes.
pub(crate) fn encode_read(read: &Read, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    w.u32(read.runs.len());
    for run in &read.runs {
        encode_run(run, &mut w);
    }
    encode_diagnostics(&read.diagnostics, &mut w);
}

/// Whether a validation can be stored: every string and list fits the 32-bit lengths.
pub(crate) fn validated_storable(validated: &Validated) -> bool {
    let limit = u32::MAX as usize / 2;
    validated.files.len() < limit
        && validated.files.iter().all(|f| {
            f.findings.len() < limit && f.findings.iter().all(|x| x.message.len() < limit && x.path.len() < limit)
        })
        && validated.diagnostics.iter().all(|d| d.message.len() < limit)
}

/// Appends a validation's bytes: per file its path, format and findings, then the
/// diagnostics.
pub(crate) fn encode_validated(validated: &Validated, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    w.u32(validated.files.len());
    for file in &validated.files {
        w.path(&file.path);
        w.str(&file.format);
        w.u32(file.findings.len());
        for f in &file.findings {
            w.u8(severity_byte(f.severity));
            w.str(&f.path);
            w.str(&f.message);
        }
    }
    encode_diagnostics(&validated.diagnostics, &mut w);
}

pub(crate) fn decode_validated(bytes: &[u8]) -> Option<Validated> {
    let mut r = Reader::new(bytes);
    let n_files = r.count(4 + 4 + 4)?;
    let mut files = Vec::with_capacity(n_files);
    for _ in 0..n_files {
        let path = r.path()?;
        let format = r.str()?.to_string();
        let n = r.count(1 + 4 + 4)?;
        let mut findings = Vec::with_capacity(n);
        for _ in 0..n {
            let severity = severity_from(r.u8()?)?;
            findings.push(Finding { severity, path: r.str()?.to_string(), message: r.str()?.to_string() });
        }
        files.push(FileValidation { path, format, findings });
    }
    let diagnostics = decode_diagnostics(&mut r)?;
    r.is_empty().then_some(Validated { files, diagnostics })
}

fn severity_byte(severity: Severity) -> u8 {
    match severity {
        Severity::Warning => 0,
        Severity::Error => 1,
        Severity::Note => 2,
        Severity::Info => 3,
    }
}

fn severity_from(byte: u8) -> Option<Severity> {
    match byte {
        0 => Some(Severity::Warning),
        1 => Some(Severity::Error),
        2 => Some(Severity::Note),
        3 => Some(Severity::Info),
        _ => None,
    }
}

fn encode_diagnostics(diagnostics: &[Diagnostic], w: &mut Writer<'_>) {
    w.u32(diagnostics.len());
    for d in diagnostics {
        w.u8(severity_byte(d.severity));
        w.path(&d.path);
        w.opt_u64(d.line);
        w.opt_u64(d.column);
        w.str(&d.message);
        w.u64(d.more);
    }
}

fn decode_diagnostics(r: &mut Reader<'_>) -> Option<Vec<Diagnostic>> {
    let n = r.count(1)?;
    let mut diagnostics = Vec::with_capacity(n);
    for _ in 0..n {
        let severity = severity_from(r.u8()?)?;
        let path = r.path()?;
        let (line, column) = (r.opt_u64()?, r.opt_u64()?);
        let message = r.str()?.to_string();
        let more = r.u64()?;
        diagnostics.push(Diagnostic { severity, path, line, column, message, more });
    }
    Some(diagnostics)
}

fn encode_meta(meta: &RunMeta, w: &mut Writer<'_>) {
    for field in [
        &meta.timestamp,
        &meta.git_branch,
        &meta.git_sha,
        &meta.version,
        &meta.tier,
        &meta.hostname,
        &meta.prompt_sha,
        &meta.test_set,
        &meta.setup,
        &meta.run_id,
    ] {
        w.opt_str(field.as_deref());
    }
    w.opt_f64(meta.duration_seconds);
    w.opt_f64(meta.total_cost_usd);
}

fn decode_meta(r: &mut Reader<'_>) -> Option<RunMeta> {
    let mut text = || r.opt_str();
    Some(RunMeta {
        timestamp: text()?,
        git_branch: text()?,
        git_sha: text()?,
        version: text()?,
        tier: text()?,
        hostname: text()?,
        prompt_sha: text()?,
        test_set: text()?,
        setup: text()?,
        run_id: text()?,
        duration_seconds: r.opt_f64()?,
        total_cost_usd: r.opt_f64()?,
    })
}

fn encode_opt_outcome(o: Option<Outcome>, w: &mut Writer<'_>) {
    w.u8(o.map_or(0xFF, outcome_byte));
}

fn decode_opt_outcome(r: &mut Reader<'_>) -> Option<Option<Outcome>> {
    match r.u8()? {
        0xFF => Some(None),
        b => outcome_from(b).map(Some),
    }
}

/// Appends run records' bytes.
pub(crate) fn encode_records(records: &Records, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    w.u32(records.runs.len());
    for run in &records.runs {
        w.str(&run.run);
        w.str(&run.model);
        w.str(&run.format);
        w.path(&run.source);
        w.opt_str(run.started_at.as_deref());
        encode_meta(&run.meta, &mut w);
        w.u32(run.costs.len());
        for c in &run.costs {
            w.str(&c.model);
            w.opt_u64(c.calls);
            w.opt_u64(c.input_tokens);
            w.opt_u64(c.output_tokens);
            w.opt_f64(c.cost_usd);
        }
        w.u32(run.tests.len());
        for t in &run.tests {
            w.str(&t.id);
            w.str(&t.category);
            encode_opt_outcome(t.outcome, &mut w);
            w.opt_str(t.error_type.as_deref());
            w.opt_str(t.error_message.as_deref());
            w.opt_f64(t.duration_ms);
            w.opt_u64(t.input_tokens);
            w.opt_u64(t.output_tokens);
            w.opt_f64(t.cost_usd);
        }
    }
    encode_diagnostics(&records.diagnostics, &mut w);
}

/// Run records from their bytes, or `None` when they are not such.
pub(crate) fn decode_records(bytes: &[u8]) -> Option<Records> {
    let mut r = Reader::new(bytes);
    let n_runs = r.count(1)?;
    let mut runs = Vec::with_capacity(n_runs);
    for _ in 0..n_runs {
        let (run, model, format) = (r.str()?.to_string(), r.str()?.to_string(), r.str()?.to_string());
        let source = r.path()?;
        let started_at = r.opt_str()?;
        let meta = decode_meta(&mut r)?;
        let n_costs = r.count(4)?;
        let mut costs = Vec::with_capacity(n_costs);
        for _ in 0..n_costs {
            costs.push(ModelCost {
                model: r.str()?.to_string(),
                calls: r.opt_u64()?,
                input_tokens: r.opt_u64()?,
                output_tokens: r.opt_u64()?,
                cost_usd: r.opt_f64()?,
            });
        }
        let n_tests = r.count(8)?;
        let mut tests = Vec::with_capacity(n_tests);
        for _ in 0..n_tests {
            tests.push(TestRecord {
                id: r.str()?.to_string(),
                category: r.str()?.to_string(),
                outcome: decode_opt_outcome(&mut r)?,
                error_type: r.opt_str()?,
                error_message: r.opt_str()?,
                duration_ms: r.opt_f64()?,
                input_tokens: r.opt_u64()?,
                output_tokens: r.opt_u64()?,
                cost_usd: r.opt_f64()?,
            });
        }
        runs.push(RunRecord { run, model, format, source, started_at, meta, costs, tests });
    }
    let diagnostics = decode_diagnostics(&mut r)?;
    r.is_empty().then_some(Records { runs, diagnostics })
}

fn encode_run(run: &CategoryRun, w: &mut Writer<'_>) {
    w.str(&run.run);
    w.str(&run.model);
    w.str(&run.category);
    w.u32(run.sources.len());
    for s in &run.sources {
        w.path(s);
    }
    w.u8(u8::from(run.scored));
    match &run.meta {
        Some(meta) => {
            w.u8(1);
            encode_meta(meta, w);
        }
        None => w.u8(0),
    }
    let (buf, ends) = run.ids().as_parts();
    w.u32(ends.len());
    w.str(buf);
    for &end in ends {
        w.u32(end);
    }
    w.out.extend(run.outcomes().iter().map(|&o| outcome_byte(o)));
    let (labels, index) = run.error_parts();
    w.u32(labels.len());
    for label in labels {
        w.str(label.as_str());
    }
    for i in index {
        w.out.extend_from_slice(&i.unwrap_or(NO_LABEL).to_le_bytes());
    }
}

/// A reading from its bytes, or `None` when they are not one. A run that lists the ids
/// `pool` last saw for its (model, category) shares them.
pub(crate) fn decode_read(bytes: &[u8], pool: &mut IdPool) -> Option<Read> {
    let mut r = Reader::new(bytes);
    let n_runs = r.count(1)?;
    let mut runs = Vec::with_capacity(n_runs);
    let mut shared = None;
    for _ in 0..n_runs {
        runs.push(decode_run(&mut r, &mut shared, pool)?);
    }
    let diagnostics = decode_diagnostics(&mut r)?;
    r.is_empty().then_some(Read { runs, diagnostics })
}

/// The run metadata last decoded, with its bytes: the category runs of one run share it,
/// as they did when read.
type SharedMeta<'a> = Option<(&'a [u8], Arc<RunMeta>)>;

/// Whether stored ids (their buffer and 32-bit ends) are those of `known`.
fn same_ids(known: &IdList, buf: &[u8], ends: &[u8]) -> bool {
    let (known_buf, known_ends) = known.as_parts();
    known_buf.as_bytes() == buf
        && known_ends.len() * 4 == ends.len()
        && known_ends
            .iter()
            .zip(ends.chunks_exact(4))
            .all(|(&e, b)| e == u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

fn decode_run<'a>(r: &mut Reader<'a>, shared: &mut SharedMeta<'a>, pool: &mut IdPool) -> Option<CategoryRun> {
    let (name, model, category) = (r.str()?, r.str()?, r.str()?);
    let mut run = CategoryRun::new(name, model, category);
    let n_sources = r.count(4)?;
    for _ in 0..n_sources {
        run.sources.push(r.path()?);
    }
    run.scored = r.flag()?;
    if r.flag()? {
        run.meta = Some(match shared {
            // The same bytes decode to the same metadata, and to nothing longer: the
            // encoding says where each field ends.
            Some((bytes, meta)) if r.bytes.starts_with(bytes) => {
                r.take(bytes.len())?;
                Arc::clone(meta)
            }
            _ => {
                let before = r.bytes;
                let meta = decode_meta(r)?;
                let raw = &before[..before.len() - r.bytes.len()];
                Arc::clone(&shared.insert((raw, Arc::new(meta))).1)
            }
        });
    }
    let n = r.count(4 + 1 + 2)?;
    let buf = r.bytes()?;
    let ends_bytes = r.take(n.checked_mul(4)?)?;
    let ids = match pool.find(model, category) {
        // The ids of the run decoded before it in its category, shared: no copy, no check.
        Some(known) if same_ids(known, buf, ends_bytes) => known.clone(),
        _ => {
            let buf = if buf.len() >= 64 { evaltally_format::utf8(buf) } else { std::str::from_utf8(buf).ok() }?;
            let ends = ends_bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            let mut ids = IdList::from_parts(buf.to_string(), ends.collect())?;
            pool.set(model, category, ids.share());
            ids
        }
    };
    let outcomes: Vec<Outcome> = r.take(n)?.iter().map(|&b| outcome_from(b)).collect::<Option<_>>()?;
    let n_labels = r.count(4)?;
    let mut labels = Vec::with_capacity(n_labels);
    for _ in 0..n_labels {
        labels.push(ErrorType::new(r.str()?));
    }
    let index: Vec<Option<u16>> = r
        .take(n.checked_mul(2)?)?
        .chunks_exact(2)
        .map(|b| match u16::from_le_bytes([b[0], b[1]]) {
            NO_LABEL => None,
            i => Some(i),
        })
        .collect();
    run.with_tests(ids, outcomes, index, labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Read {
        let mut a = CategoryRun::new("run-1", "m", "simple");
        a.sources.push(PathBuf::from("runs/run-1/result.json"));
        a.push("simple_0", Outcome::Pass, None);
        a.push("simple_1", Outcome::Fail, Some("value_error:string"));
        a.push("simple_2", Outcome::Errored, Some("inference_error"));
        a.push("simple_3", Outcome::Unscored, None);
        a.push("simple_é", Outcome::Fail, Some("value_error:string"));
        a.meta = Some(Arc::new(RunMeta {
            timestamp: Some("2026-11-01T00:00:00Z".into()),
            duration_seconds: Some(1.5),
            run_id: Some("cBtZmgSbYZSZPj6CihDuQZ".into()),
            ..RunMeta::default()
        }));
        let mut b = CategoryRun::new("run-1", "m", "empty");
        b.scored = false;
        Read {
            runs: vec![a, b],
            diagnostics: vec![
                Diagnostic::warning("runs/run-1/score.json", "duplicate id `simple_1`").at_line(3),
                Diagnostic::error("x", "cut short").at(2, 7),
            ],
        }
    }

    /// `decode` gives nothing for every cut of `bytes` short of the whole.
    fn refuses_every_cut<T>(bytes: &[u8], decode: impl Fn(&[u8]) -> Option<T>) {
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn a_reading_comes_back_as_it_went_in() {
        let read = sample();
        let mut bytes = Vec::new();
        encode_read(&read, &mut bytes);
        let back = decode_read(&bytes, &mut IdPool::default()).unwrap();
        assert_eq!(back.runs, read.runs);
        assert_eq!(back.diagnostics, read.diagnostics);
    }

    #[test]
    fn records_come_back_as_they_went_in() {
        let records = Records {
            runs: vec![RunRecord {
                run: "r".into(),
                model: "m".into(),
                format: "gstack".into(),
                source: PathBuf::from("a/b.json"),
                started_at: Some("2026-01-01".into()),
                meta: RunMeta { git_branch: Some("main".into()), ..RunMeta::default() },
                costs: vec![ModelCost {
                    model: "m".into(),
                    calls: Some(3),
                    cost_usd: Some(0.25),
                    ..ModelCost::default()
                }],
                tests: vec![
                    TestRecord {
                        id: "t1".into(),
                        category: "c".into(),
                        outcome: Some(Outcome::Fail),
                        error_type: Some("x".into()),
                        error_message: Some("long\nmessage".into()),
                        duration_ms: Some(12.5),
                        input_tokens: Some(10),
                        output_tokens: None,
                        cost_usd: Some(0.01),
                    },
                    TestRecord { id: "t2".into(), category: "c".into(), ..TestRecord::default() },
                ],
            }],
            diagnostics: vec![Diagnostic::warning("a/b.json", "odd")],
        };
        let mut bytes = Vec::new();
        encode_records(&records, &mut bytes);
        let back = decode_records(&bytes).unwrap();
        assert_eq!(back.runs, records.runs);
        assert_eq!(back.diagnostics, records.diagnostics);
        refuses_every_cut(&bytes, decode_records);
    }

    #[test]
    fn a_validation_comes_back_as_it_went_in() {
        let validated = Validated {
            files: vec![
                FileValidation::new(
                    std::path::Path::new("runs/a.json"),
                    "gstack",
                    vec![
                        Finding::error("$.tests[3].passed", "expected a boolean"),
                        Finding::warning("line 2", "odd é"),
                    ],
                ),
                FileValidation::new(std::path::Path::new("runs/b.xml"), "junit", Vec::new()),
            ],
            diagnostics: vec![Diagnostic::error("runs/c", "cannot read folder").at(1, 2)],
        };
        let mut bytes = Vec::new();
        encode_validated(&validated, &mut bytes);
        let back = decode_validated(&bytes).unwrap();
        assert_eq!(back.files, validated.files);
        assert_eq!(back.diagnostics, validated.diagnostics);
        refuses_every_cut(&bytes, decode_validated);
        bytes.push(0);
        assert!(decode_validated(&bytes).is_none(), "a byte too many");
    }

    #[test]
    fn damaged_bytes_are_refused_not_trusted() {
        let mut bytes = Vec::new();
        encode_read(&sample(), &mut bytes);
        refuses_every_cut(&bytes, |b| decode_read(b, &mut IdPool::default()));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_read(&longer, &mut IdPool::default()).is_none());
        // Any single flipped byte decodes to something or nothing, never a panic.
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0xFF;
            let _ = decode_read(&flipped, &mut IdPool::default());
        }
    }

    /// Runs restored through one pool share the ids of the run restored before them in
    /// their (model, category) when the ids are the same, in the same order; other ids,
    /// another order or another category get their own.
    #[test]
    fn restored_runs_share_ids_with_the_last_of_their_category() {
        let run = |name: &str, category: &str, ids: &[&str]| {
            let mut r = CategoryRun::new(name, "m", category);
            for id in ids {
                r.push(id, Outcome::Pass, None);
            }
            r
        };
        let first = Read { runs: vec![run("r1", "c", &["a", "b"]), run("r1", "d", &["a", "b"])], diagnostics: vec![] };
        let second = Read {
            runs: vec![run("r2", "c", &["a", "b"]), run("r2", "d", &["b", "a"]), run("r2", "e", &["a", "b"])],
            diagnostics: vec![],
        };
        let mut pool = IdPool::default();
        let mut decoded = Vec::new();
        for read in [&first, &second] {
            let mut bytes = Vec::new();
            encode_read(read, &mut bytes);
            let back = decode_read(&bytes, &mut pool).unwrap();
            assert_eq!(back.runs, read.runs, "restored as stored, shared or not");
            decoded.extend(back.runs);
        }
        let [c1, d1, c2, d2, e2] = &decoded[..] else { panic!("five runs") };
        assert!(c2.ids().shares_with(c1.ids()), "same category, same ids");
        assert!(!d2.ids().shares_with(d1.ids()), "same category, another order");
        assert!(!e2.ids().shares_with(c1.ids()) && !c1.ids().shares_with(d1.ids()), "other categories");
        assert_eq!(pool.find("m", "d"), Some(d2.ids()), "the last of a category is the one compared");
        assert!(pool.find("m", "d").unwrap().shares_with(d2.ids()));
    }

    /// Category runs of one run share their metadata when restored, as when read; runs
    /// with other metadata get their own.
    #[test]
    fn restored_runs_share_equal_metadata() {
        let meta = Arc::new(RunMeta { git_branch: Some("main".into()), ..RunMeta::default() });
        let other = Arc::new(RunMeta { git_branch: Some("mainline".into()), ..RunMeta::default() });
        let runs: Vec<CategoryRun> = [&meta, &meta, &other, &meta]
            .into_iter()
            .enumerate()
            .map(|(i, m)| {
                let mut r = CategoryRun::new("r", "m", format!("c{i}"));
                r.meta = Some(Arc::clone(m));
                r
            })
            .collect();
        let read = Read { runs, diagnostics: Vec::new() };
        assert!(storable(&read));
        let mut bytes = Vec::new();
        encode_read(&read, &mut bytes);
        let back = decode_read(&bytes, &mut IdPool::default()).unwrap();
        let metas: Vec<&Arc<RunMeta>> = back.runs.iter().map(|r| r.meta.as_ref().unwrap()).collect();
        assert!(Arc::ptr_eq(metas[0], metas[1]));
        assert!(!Arc::ptr_eq(metas[1], metas[2]));
        let branches: Vec<Option<&str>> = metas.iter().map(|m| m.git_branch.as_deref()).collect();
        assert_eq!(branches, [Some("main"), Some("main"), Some("mainline"), Some("main")]);
    }
}
