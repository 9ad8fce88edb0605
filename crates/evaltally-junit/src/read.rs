//! Reading JUnit XML in every dialect seen in the wild into a [`JunitRun`].
//!
//! The reader is a single pass over quick-xml events with an explicit stack (no recursion,
//! nesting capped at [`MAX_DEPTH`]), so no input can make it panic or overflow. The
//! dialects it accepts are listed on [`read`].
//!
//! Everything tolerated is reported in [`JunitRun::diagnostics`]; only text that is not
//! well-formed XML, or whose root is not a test suite, is an error.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_format::sixteen::Chunk;
use quick_xml::errors::{Error as XmlError, IllFormedError, SyntaxError};
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;

use crate::JunitError;
use crate::escape::{TextBuf, char_ref, is_xml_space, predefined, unescape_attr};
use crate::model::{CaseFlags, CaseStatus, Declared, JunitCase, JunitRun, JunitSuite, Problem, ProblemKind, Property};
use crate::naming::{CaseSeat, SuiteSeat, name_cases};
use crate::seconds::{self, Reading};

/// The deepest element nesting accepted (real reports nest a handful of levels).
pub const MAX_DEPTH: usize = 128;

/// Reads a JUnit XML document; `source` names it in diagnostics and errors.
///
/// Accepted, in every combination:
///
/// * a `<testsuites>` root or a bare `<testsuite>` root, suites nested in suites (up to
///   [`MAX_DEPTH`] elements deep), and test cases directly below `<testsuites>`;
/// * `<failure>`, `<error>` and `<skipped>` with or without `message` and `type`, text
///   and CDATA content (several per test case: the first failure or error decides);
/// * `GoogleTest`'s `status="run"` / `status="notrun"` / `result="skipped|suppressed"` and
///   `CTest`'s `status="fail"` / `status="disabled"`;
/// * Surefire's `<flakyFailure>`, `<rerunFailure>` and the like (ignored: the test's own
///   result is what counts), and any other unknown element (skipped whole);
/// * a missing or blank `classname`, a missing `name`; `time` missing, malformed,
///   with thousands separators (`1,234.5`) or a decimal comma (`0,5`);
/// * `<properties>` on test cases, suites and `<testsuites>`, with the value in a `value`
///   attribute or as text; `<system-out>` and `<system-err>`;
/// * a byte order mark, an XML declaration, comments, processing instructions and a
///   DOCTYPE; CRLF line ends; unknown entities and lone `&` (kept as written, with a
///   warning).
///
/// What is tolerated is reported in [`JunitRun::diagnostics`] with its line. Text that is
/// not well-formed XML, or whose root is not `<testsuites>` or `<testsuite>`, is a
/// [`JunitError::Malformed`] with line, column, byte offset and what was expected.
///
/// ```
/// use std::path::Path;
/// use evaltally_core::Outcome;
///
/// let xml = r#"<?xml version="1.0"?>
/// <testsuite name="math" tests="2">
///   <testcase classname="calc" name="adds" time="0.5"/>
///   <testcase classname="calc" name="divides">
///     <failure message="division by zero" type="ZeroDivisionError"/>
///   </testcase>
/// </testsuite>"#;
/// let run = evaltally_junit::read(xml, Path::new("math.xml")).unwrap();
/// assert_eq!(run.cases.len(), 2);
/// assert_eq!(run.cases[0].duration_ms, Some(500.0));
/// assert_eq!(run.cases[1].outcome(), Some(Outcome::Fail));
/// assert_eq!(run.cases[1].error_type(), Some("ZeroDivisionError"));
/// assert_eq!(run.cases[1].message(), Some("division by zero"));
///
/// let cats = run.category_runs("nightly", "acme-7b");
/// assert_eq!((cats[0].category.as_str(), cats[0].passed(), cats[0].failed()), ("math", 1, 1));
/// ```
pub fn read(xml: &str, source: &Path) -> Result<JunitRun, JunitError> {
    let (body, base) = match xml.strip_prefix('\u{feff}') {
        Some(rest) => (rest, '\u{feff}'.len_utf8()),
        None => (xml, 0),
    };
    let mut parser = Parser::new(xml, base, source);
    parser.parse(body)?;
    let mut run = parser.finish();
    if let Some((count, first)) = control_characters(xml.as_bytes()) {
        let (line, column) = evaltally_format::json::line_column(xml.as_bytes(), first);
        let code = xml.as_bytes()[first];
        let message = if count == 1 {
            format!("control character U+{code:04X}, {FORBIDDEN}; kept as written (shown escaped)")
        } else {
            format!(
                "{count} control characters {FORBIDDEN}, the first (U+{code:04X}) here; kept as written (shown escaped)"
            )
        };
        run.diagnostics.push(Diagnostic::warning(source, message).at(line, column));
        run.diagnostics.sort_by_key(|d| d.line);
    }
    Ok(run)
}

/// What the diagnostic about raw control characters says of them: the reader keeps them (a
/// warning), `validate` refuses them (an error: the file is not well-formed XML 1.0).
pub(crate) const FORBIDDEN: &str = "which XML 1.0 does not allow";

/// Whether a byte is a C0 control character XML 1.0 forbids (all but tab, line feed and
/// carriage return).
fn is_forbidden_control(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')
}

/// How many control characters XML 1.0 forbids `bytes` hold, and the offset of the first;
/// `None` when there are none. Checked a block at a time, so that the usual answer (none)
/// costs one fast pass.
pub(crate) fn control_characters(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut first = None;
    for (i, block) in bytes.chunks(64).enumerate() {
        if forbidden_in(block) {
            let at = block.iter().position(|&b| is_forbidden_control(b)).unwrap_or(0);
            first = Some(i * 64 + at);
            break;
        }
    }
    let first = first?;
    let count = bytes[first..].iter().filter(|&&b| is_forbidden_control(b)).count();
    Some((count, first))
}

/// Whether `block` (at most 64 bytes) holds a control character XML forbids: a whole
/// block 16 bytes at a time ([`Chunk`]), a shorter one byte by byte.
fn forbidden_in(block: &[u8]) -> bool {
    if let Some(block) = block.first_chunk::<64>() {
        let forbidden = |c: &[u8; 16]| {
            let c = Chunk::load(c);
            c.within(0, 0x1f).and_not(c.eq(b'\t') | c.eq(b'\n') | c.eq(b'\r')).bits()
        };
        return block.chunks_exact(16).filter_map(<[u8]>::first_chunk::<16>).fold(0, |any, c| any | forbidden(c)) != 0;
    }
    forbidden_by_bytes(block)
}

/// [`forbidden_in`] a byte at a time, branch-free so that the compiler checks many bytes
/// per instruction.
fn forbidden_by_bytes(block: &[u8]) -> bool {
    let forbidden = |b: u8| u8::from(b < 0x20) & u8::from(b != b'\t') & u8::from(b != b'\n') & u8::from(b != b'\r');
    block.iter().fold(0u8, |acc, &b| acc | forbidden(b)) != 0
}

/// Reads a JUnit XML file: UTF-8 (with or without a byte order mark), or UTF-16 with one.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("evaltally-junit-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("r.xml");
/// std::fs::write(&path, "\u{feff}<testsuites><testsuite name=\"s\"><testcase name=\"t\"/></testsuite></testsuites>").unwrap();
/// let run = evaltally_junit::read_file(&path).unwrap();
/// assert_eq!(run.cases[0].id, "t");
/// # std::fs::remove_dir_all(&dir).ok();
/// ```
pub fn read_file(path: &Path) -> Result<JunitRun, JunitError> {
    let bytes =
        evaltally_format::file::read(path).map_err(|source| JunitError::Io { path: path.to_path_buf(), source })?;
    read_bytes(&bytes, path)
}

/// Reads a report from a file's bytes already in memory (UTF-8, or UTF-16 with a byte order
/// mark); `source` names the file in messages.
///
/// ```
/// let run = evaltally_junit::read_bytes(b"<testsuite name=\"s\"><testcase name=\"t\"/></testsuite>", "r.xml".as_ref()).unwrap();
/// assert_eq!(run.cases.len(), 1);
/// ```
pub fn read_bytes(bytes: &[u8], source: &Path) -> Result<JunitRun, JunitError> {
    let text = decode(bytes).map_err(|offset| {
        let (line, column) = evaltally_format::json::line_column(bytes, offset);
        JunitError::Encoding { path: source.to_path_buf(), line, column, offset }
    })?;
    read(&text, source)
}

/// The file's bytes as text (borrowed when UTF-8); the error is the offset of the first
/// invalid byte.
fn decode(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, usize> {
    let utf16 = |be: bool| {
        if bytes.len() % 2 == 1 {
            return Err(bytes.len() - 1);
        }
        let units = bytes[2..].chunks(2).map(|c| {
            let pair = [c[0], c.get(1).copied().unwrap_or(0)];
            if be { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) }
        });
        char::decode_utf16(units)
            .enumerate()
            .map(|(i, c)| c.map_err(|_| 2 + 2 * i))
            .collect::<Result<String, usize>>()
            .map(std::borrow::Cow::Owned)
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        _ => match std::str::from_utf8(bytes) {
            Ok(s) => Ok(std::borrow::Cow::Borrowed(s)),
            Err(e) => Err(e.valid_up_to()),
        },
    }
}

/// Who a `<properties>`, `<system-out>` or `<system-err>` element belongs to.
#[derive(Clone, Copy, Debug)]
enum Owner {
    Root,
    Suite(usize),
    Case(usize),
}

/// An open element and what its content is for.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// `<testsuites>`.
    Suites,
    /// `<testsuite>`, by index.
    Suite(usize),
    /// `<testcase>`, by index.
    Case(usize),
    /// `<properties>`.
    Properties(Owner),
    /// `<property>`: owner, index, whether the value comes from its text.
    Property(Owner, usize, bool),
    /// `<failure>`, `<error>`, `<skipped>`: case index, problem index.
    Problem(usize, usize),
    /// `<system-out>` (false) or `<system-err>` (true).
    Output(Owner, bool),
    /// Anything else: ignored with its content.
    Skip,
}

impl Frame {
    /// Whether the element's text is collected.
    fn collects(self) -> bool {
        matches!(self, Frame::Problem(..) | Frame::Output(..) | Frame::Property(_, _, true))
    }
}

/// Turns byte offsets into 1-based lines and columns, moving forward incrementally.
#[derive(Debug)]
struct Lines<'a> {
    text: &'a [u8],
    offset: usize,
    line: u64,
    line_start: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Self { text: text.as_bytes(), offset: 0, line: 1, line_start: 0 }
    }

    /// (line, column) of `offset`.
    fn at(&mut self, offset: usize) -> (u64, u64) {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            *self = Self { text: self.text, offset: 0, line: 1, line_start: 0 };
        }
        let span = &self.text[self.offset..offset];
        let newlines = memchr::memchr_iter(b'\n', span).count();
        if newlines > 0 {
            self.line += newlines as u64;
            self.line_start = self.offset + memchr::memrchr(b'\n', span).unwrap_or(0) + 1;
        }
        self.offset = offset;
        (self.line, (offset - self.line_start + 1) as u64)
    }
}

struct Parser<'a> {
    source: &'a Path,
    base: usize,
    lines: Lines<'a>,
    run: JunitRun,
    stack: Vec<Frame>,
    /// Open element names with their line, for truncation errors.
    names: Vec<(Cow<'static, str>, u64)>,
    flags: Vec<CaseFlags>,
    text: TextBuf,
    root_done: bool,
    /// Byte offset (in the parsed body) where the current event starts.
    event_start: usize,
}

/// An attribute list read into (name, value) pairs, borrowed from the document where
/// nothing needed unescaping.
type Attrs<'e> = Vec<(Cow<'e, str>, Cow<'e, str>)>;

fn attr<'x>(attrs: &'x Attrs<'_>, name: &str) -> Option<&'x str> {
    attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_ref())
}

/// Text from the document's bytes, borrowed when it is UTF-8 (it always is: the document is
/// a `&str`).
fn text(bytes: Cow<'_, [u8]>) -> Cow<'_, str> {
    match bytes {
        Cow::Borrowed(b) => std::str::from_utf8(b).map_or_else(|_| String::from_utf8_lossy(b), Cow::Borrowed),
        Cow::Owned(b) => Cow::Owned(String::from_utf8_lossy(&b).into_owned()),
    }
}

/// An attribute value that is not only XML whitespace.
fn non_blank(attrs: &Attrs<'_>, name: &str) -> Option<String> {
    attr(attrs, name).filter(|v| !v.chars().all(is_xml_space)).map(str::to_string)
}

/// An element's name, without an allocation for the names reports use.
fn element_name(bytes: &[u8]) -> Cow<'static, str> {
    const KNOWN: [&str; 11] = [
        "testsuites",
        "testsuite",
        "testcase",
        "failure",
        "error",
        "skipped",
        "properties",
        "property",
        "system-out",
        "system-err",
        "flakyFailure",
    ];
    match KNOWN.iter().find(|k| k.as_bytes() == bytes) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// Cuts `s` to at most 40 characters for an error message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

impl<'a> Parser<'a> {
    fn new(full: &'a str, base: usize, source: &'a Path) -> Self {
        Self {
            source,
            base,
            lines: Lines::new(full),
            run: JunitRun {
                source: source.to_path_buf(),
                name: None,
                declared: Declared::default(),
                root_line: 1,
                properties: Vec::new(),
                suites: Vec::new(),
                cases: Vec::new(),
                diagnostics: Vec::new(),
                producer: crate::Producer::Other,
            },
            stack: Vec::new(),
            names: Vec::new(),
            flags: Vec::new(),
            text: TextBuf::default(),
            root_done: false,
            event_start: 0,
        }
    }

    fn error_at(&mut self, body_offset: usize, expected: impl Into<String>, found: impl Into<String>) -> JunitError {
        let offset = self.base.saturating_add(body_offset);
        let (line, column) = self.lines.at(offset);
        JunitError::Malformed {
            path: self.source.to_path_buf(),
            line,
            column,
            offset,
            expected: expected.into(),
            found: found.into(),
        }
    }

    fn line_here(&mut self) -> u64 {
        self.lines.at(self.base.saturating_add(self.event_start)).0
    }

    fn warn(&mut self, line: u64, message: impl Into<String>) {
        self.run.diagnostics.push(Diagnostic::warning(self.source, message).at_line(line));
    }

    fn parse(&mut self, body: &str) -> Result<(), JunitError> {
        let mut reader = Reader::from_str(body);
        reader.config_mut().allow_dangling_amp = true;
        loop {
            self.event_start = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let event = match reader.read_event() {
                Ok(event) => event,
                Err(e) => {
                    let at = usize::try_from(reader.error_position()).unwrap_or(usize::MAX);
                    let (expected, found) = describe(&e);
                    return Err(self.error_at(at, expected, found));
                }
            };
            match event {
                Event::Start(e) => self.start(&e, false)?,
                Event::Empty(e) => self.start(&e, true)?,
                Event::End(_) => self.end(),
                Event::Text(e) => {
                    let text = e.xml10_content().unwrap_or_else(|_| String::from_utf8_lossy(&e).into_owned().into());
                    self.content(&text, false)?;
                }
                Event::CData(e) => {
                    let text = e.xml10_content().unwrap_or_else(|_| String::from_utf8_lossy(&e).into_owned().into());
                    self.content(&text, true)?;
                }
                Event::GeneralRef(r) => self.reference(&r)?,
                Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
                Event::Eof => return self.eof(body.len()),
            }
        }
    }

    fn eof(&mut self, len: usize) -> Result<(), JunitError> {
        if let Some((name, line)) = self.names.last().cloned() {
            return Err(self.error_at(len, format!("`</{name}>` (opened at line {line})"), "end of input"));
        }
        if !self.root_done {
            return Err(self.error_at(len, "a `<testsuites>` or `<testsuite>` root element", "end of input"));
        }
        Ok(())
    }

    /// Text or CDATA content.
    fn content(&mut self, text: &str, cdata: bool) -> Result<(), JunitError> {
        match self.stack.last() {
            Some(frame) if frame.collects() => {
                if cdata {
                    self.text.protected(text);
                } else {
                    if text.contains('&') {
                        // References arrive as their own events: an `&` here stands alone.
                        let line = self.line_here();
                        self.warn(line, "a lone `&` in text, kept as written");
                    }
                    self.text.literal(text);
                }
            }
            Some(_) => {}
            None if !cdata && text.chars().all(is_xml_space) => {}
            None => {
                let what = if cdata { "CDATA" } else { "text" };
                let expected =
                    if self.root_done { "the end of the document" } else { "`<testsuites>` or `<testsuite>`" };
                return Err(self.error_at(self.event_start, expected, format!("{what} `{}`", clip(text.trim()))));
            }
        }
        Ok(())
    }

    /// An entity or character reference in text.
    fn reference(&mut self, r: &BytesRef<'_>) -> Result<(), JunitError> {
        let name = String::from_utf8_lossy(r).into_owned();
        let Some(frame) = self.stack.last().copied() else {
            return Err(self.error_at(self.event_start, "`<testsuites>` or `<testsuite>`", format!("`&{name};`")));
        };
        if !frame.collects() {
            return Ok(());
        }
        if let Some(c) = predefined(&name) {
            self.text.protected(c.encode_utf8(&mut [0; 4]));
        } else if name.starts_with('#') {
            let c = char_ref(&name).unwrap_or_else(|| {
                let line = self.line_here();
                self.warn(line, format!("character reference `&{name};` is not an XML character; read as U+FFFD"));
                '\u{fffd}'
            });
            self.text.protected(c.encode_utf8(&mut [0; 4]));
        } else {
            let line = self.line_here();
            self.warn(line, format!("unknown entity `&{name};`, kept as written"));
            self.text.protected(&format!("&{name};"));
        }
        Ok(())
    }

    /// The attributes of a start tag, unescaped.
    fn attributes<'e>(&mut self, e: &'e BytesStart<'_>, line: u64) -> Result<Attrs<'e>, JunitError> {
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        for a in e.attributes() {
            let a = match a {
                Ok(a) => a,
                Err(err) => {
                    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                    let expected = format!("well-formed attributes in `<{name}>`");
                    // Positions count from the tag's name, just after `<`.
                    let within = match err {
                        AttrError::ExpectedEq(p)
                        | AttrError::ExpectedValue(p)
                        | AttrError::UnquotedValue(p)
                        | AttrError::ExpectedQuote(p, _)
                        | AttrError::Duplicated(p, _) => p,
                    };
                    let at = self.event_start.saturating_add(1).saturating_add(within);
                    return Err(self.error_at(at, expected, err.to_string()));
                }
            };
            let key = text(Cow::Borrowed(a.key.local_name().into_inner()));
            let value = match text(a.value) {
                Cow::Borrowed(raw) => unescape_attr(raw, &mut |w| warnings.push(format!("attribute `{key}`: {w}"))),
                Cow::Owned(raw) => Cow::Owned(
                    unescape_attr(&raw, &mut |w| warnings.push(format!("attribute `{key}`: {w}"))).into_owned(),
                ),
            };
            out.push((key, value));
        }
        for w in warnings {
            self.warn(line, w);
        }
        Ok(out)
    }

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), JunitError> {
        let name = element_name(e.local_name().as_ref());
        if self.stack.len() >= MAX_DEPTH {
            let expected = format!("at most {MAX_DEPTH} nested elements");
            return Err(self.error_at(self.event_start, expected, format!("`<{name}>` nested deeper")));
        }
        let line = self.line_here();
        let frame = match self.stack.last().copied() {
            None => self.root(e, &name, line)?,
            Some(Frame::Suites) => self.in_suite(e, &name, line, None)?,
            Some(Frame::Suite(i)) => self.in_suite(e, &name, line, Some(i))?,
            Some(Frame::Case(i)) => self.in_case(e, &name, line, i)?,
            Some(Frame::Properties(owner)) if name == "property" => self.property(e, line, owner)?,
            Some(_) => Frame::Skip,
        };
        if frame.collects() {
            self.text.clear();
        }
        self.stack.push(frame);
        self.names.push((name, line));
        if empty {
            self.end();
        }
        Ok(())
    }

    /// An attribute of `e` by its local name, as written (to tell the report's producer).
    fn root_attribute(e: &BytesStart<'_>, name: &str) -> Option<String> {
        e.attributes()
            .filter_map(Result::ok)
            .find(|a| a.key.local_name().into_inner() == name.as_bytes())
            .map(|a| String::from_utf8_lossy(&a.value).into_owned())
    }

    fn root(&mut self, e: &BytesStart<'_>, name: &str, line: u64) -> Result<Frame, JunitError> {
        if self.root_done {
            return Err(self.error_at(
                self.event_start,
                "the end of the document",
                format!("a second root `<{name}>`"),
            ));
        }
        match name {
            "testsuites" => {
                let attrs = self.attributes(e, line)?;
                self.run.producer = crate::Producer::of_testsuites(|k| attr(&attrs, k).map(str::to_string));
                self.run.name = non_blank(&attrs, "name");
                self.run.declared = self.check_counts(&attrs, line, "testsuites");
                self.run.root_line = line;
                Ok(Frame::Suites)
            }
            "testsuite" => {
                let frame = self.suite(e, line, None)?;
                self.run.producer = crate::Producer::of_testsuite(|k| Self::root_attribute(e, k));
                Ok(frame)
            }
            other => Err(self.error_at(
                self.event_start,
                "`<testsuites>` or `<testsuite>` as the root element",
                format!("`<{}>`", clip(other)),
            )),
        }
    }

    fn in_suite(
        &mut self,
        e: &BytesStart<'_>,
        name: &str,
        line: u64,
        suite: Option<usize>,
    ) -> Result<Frame, JunitError> {
        let owner = suite.map_or(Owner::Root, Owner::Suite);
        Ok(match name {
            "testsuite" => self.suite(e, line, suite)?,
            "testcase" => self.case(e, line, suite)?,
            "properties" => Frame::Properties(owner),
            "system-out" => Frame::Output(owner, false),
            "system-err" => Frame::Output(owner, true),
            _ => Frame::Skip,
        })
    }

    fn in_case(&mut self, e: &BytesStart<'_>, name: &str, line: u64, case: usize) -> Result<Frame, JunitError> {
        let kind = match name {
            "failure" => ProblemKind::Failure,
            "error" => ProblemKind::Error,
            "skipped" => ProblemKind::Skipped,
            "properties" => return Ok(Frame::Properties(Owner::Case(case))),
            "system-out" => return Ok(Frame::Output(Owner::Case(case), false)),
            "system-err" => return Ok(Frame::Output(Owner::Case(case), true)),
            // Surefire's flakyFailure, rerunFailure, … and anything else.
            _ => return Ok(Frame::Skip),
        };
        let attrs = self.attributes(e, line)?;
        let problem =
            Problem { kind, message: non_blank(&attrs, "message"), type_name: non_blank(&attrs, "type"), text: None };
        let Some(c) = self.run.cases.get_mut(case) else { return Ok(Frame::Skip) };
        c.problems.push(problem);
        Ok(Frame::Problem(case, c.problems.len() - 1))
    }

    fn property(&mut self, e: &BytesStart<'_>, line: u64, owner: Owner) -> Result<Frame, JunitError> {
        let attrs = self.attributes(e, line)?;
        let name = attr(&attrs, "name").unwrap_or_default().to_string();
        let value = attr(&attrs, "value").map(str::to_string);
        let from_text = value.is_none();
        let prop = Property { name, value: value.unwrap_or_default() };
        let list = self.properties_of(owner);
        list.push(prop);
        Ok(Frame::Property(owner, list.len() - 1, from_text))
    }

    fn properties_of(&mut self, owner: Owner) -> &mut Vec<Property> {
        match owner {
            Owner::Suite(i) if i < self.run.suites.len() => &mut self.run.suites[i].properties,
            Owner::Case(i) if i < self.run.cases.len() => &mut self.run.cases[i].properties,
            _ => &mut self.run.properties,
        }
    }

    fn duration(&mut self, attrs: &Attrs<'_>, line: u64, what: &str) -> Option<f64> {
        let raw = attr(attrs, "time")?;
        match seconds::parse_ms(raw) {
            Some((ms, Reading::Plain)) => Some(ms),
            Some((ms, reading)) => {
                let how = if reading == Reading::Thousands { "thousands separators" } else { "a decimal comma" };
                self.warn(line, format!("{what} time=\"{raw}\" read with {how} as {} s", ms / 1000.0));
                Some(ms)
            }
            None => {
                self.warn(line, format!("{what} time=\"{}\" is not a number of seconds; duration unknown", clip(raw)));
                None
            }
        }
    }

    fn check_counts(&mut self, attrs: &Attrs<'_>, line: u64, what: &str) -> Declared {
        let mut count = |name: &str| {
            let raw = attr(attrs, name)?;
            let parsed = raw.trim().parse::<u64>().ok();
            if parsed.is_none() {
                self.run.diagnostics.push(
                    Diagnostic::warning(self.source, format!("{what} {name}=\"{}\" is not a count", clip(raw)))
                        .at_line(line),
                );
            }
            parsed
        };
        Declared {
            tests: count("tests"),
            failures: count("failures"),
            errors: count("errors"),
            skipped: count("skipped").or_else(|| count("skip")),
            disabled: count("disabled"),
        }
    }

    fn suite(&mut self, e: &BytesStart<'_>, line: u64, parent: Option<usize>) -> Result<Frame, JunitError> {
        let attrs = self.attributes(e, line)?;
        let declared = self.check_counts(&attrs, line, "testsuite");
        let duration_ms = self.duration(&attrs, line, "testsuite");
        self.run.suites.push(JunitSuite {
            name: non_blank(&attrs, "name"),
            parent,
            line,
            timestamp: non_blank(&attrs, "timestamp"),
            hostname: non_blank(&attrs, "hostname"),
            duration_ms,
            declared,
            properties: Vec::new(),
            system_out: None,
            system_err: None,
        });
        Ok(Frame::Suite(self.run.suites.len() - 1))
    }

    fn case(&mut self, e: &BytesStart<'_>, line: u64, suite: Option<usize>) -> Result<Frame, JunitError> {
        let attrs = self.attributes(e, line)?;
        let duration_ms = self.duration(&attrs, line, "testcase");
        let name = attr(&attrs, "name").unwrap_or_default().to_string();
        if name.chars().all(is_xml_space) {
            self.warn(line, "testcase without a name");
        }
        // GoogleTest: status="run|notrun", result="completed|skipped|suppressed"; CTest:
        // status="run|fail|notrun|disabled".
        let flags = CaseFlags::from_attributes(attr(&attrs, "status"), attr(&attrs, "result"));
        self.flags.push(flags);
        self.run.cases.push(JunitCase {
            suite,
            line,
            name,
            classname: non_blank(&attrs, "classname"),
            category: String::new(),
            id: String::new(),
            duplicate: false,
            duration_ms,
            status: CaseStatus::Passed,
            problems: Vec::new(),
            properties: Vec::new(),
            system_out: None,
            system_err: None,
        });
        Ok(Frame::Case(self.run.cases.len() - 1))
    }

    fn end(&mut self) {
        self.names.pop();
        let Some(frame) = self.stack.pop() else { return };
        match frame {
            Frame::Problem(case, index) => {
                let text = self.text.take();
                if let Some(p) = self.run.cases.get_mut(case).and_then(|c| c.problems.get_mut(index)) {
                    p.text = text;
                }
            }
            Frame::Output(owner, err) => {
                let text = self.text.take();
                let slot = match owner {
                    Owner::Suite(i) => {
                        self.run.suites.get_mut(i).map(|s| if err { &mut s.system_err } else { &mut s.system_out })
                    }
                    Owner::Case(i) => {
                        self.run.cases.get_mut(i).map(|c| if err { &mut c.system_err } else { &mut c.system_out })
                    }
                    Owner::Root => None,
                };
                if let (Some(slot), Some(text)) = (slot, text) {
                    match slot {
                        Some(existing) => {
                            existing.push('\n');
                            existing.push_str(&text);
                        }
                        None => *slot = Some(text),
                    }
                }
            }
            Frame::Property(owner, index, true) => {
                let text = self.text.take().unwrap_or_default();
                if let Some(p) = self.properties_of(owner).get_mut(index) {
                    p.value = text;
                }
            }
            Frame::Case(i) => self.close_case(i),
            Frame::Suites | Frame::Suite(_) | Frame::Properties(_) | Frame::Property(..) | Frame::Skip => {}
        }
        if self.stack.is_empty() {
            self.root_done = true;
        }
    }

    fn close_case(&mut self, i: usize) {
        let flags = self.flags.get(i).copied().unwrap_or_default();
        let Some(case) = self.run.cases.get_mut(i) else { return };
        let first = case.problems.iter().find(|p| p.kind != ProblemKind::Skipped).map(|p| p.kind);
        let has_skip = case.problems.iter().any(|p| p.kind == ProblemKind::Skipped);
        case.status = CaseStatus::decide(first, flags, has_skip);
    }

    /// Categories, ids, duplicates and count checks, once every case is known.
    fn finish(mut self) -> JunitRun {
        let stem = self.source.file_stem().map_or_else(|| "junit".to_string(), |s| s.to_string_lossy().into_owned());
        let suites: Vec<SuiteSeat<'_>> =
            self.run.suites.iter().map(|s| SuiteSeat { name: s.name.as_deref(), parent: s.parent }).collect();
        let seats: Vec<CaseSeat<'_>> = self
            .run
            .cases
            .iter()
            .map(|c| CaseSeat { suite: c.suite, name: &c.name, classname: c.classname.as_deref(), line: c.line })
            .collect();
        let mut warnings = Vec::new();
        let named: Vec<(String, String, bool)> = name_cases(&suites, &seats, &stem)
            .into_iter()
            .zip(&seats)
            .map(|(n, seat)| {
                if let Some(first) = n.first {
                    let (id, category) = (&n.id, n.category);
                    warnings.push((
                        seat.line,
                        format!(
                            "test `{id}` in `{category}` listed again (first at line {first}): read as one test, \
                             its last listing kept, as a rerun's last attempt (a teardown error after a failure keeps \
                             the failure); two tests of one name cannot be told apart"
                        ),
                    ));
                }
                (n.category.to_string(), n.id.into_owned(), n.first.is_some())
            })
            .collect();
        drop((suites, seats));
        for (case, (category, id, _)) in self.run.cases.iter_mut().zip(&named) {
            case.category.clone_from(category);
            case.id.clone_from(id);
        }
        // Every case but the last of its (category, id) is a duplicate: runners that rerun a
        // failed test (pytest-rerunfailures, gotestsum --rerun-fails) write each attempt, the
        // last being the verdict.
        // pytest writes a teardown error after a failed call as a second case: the failure is
        // the verdict.
        if named.iter().any(|n| n.2) {
            let mut kept: HashMap<(&str, &str), usize> = HashMap::new();
            for (i, (category, id, _)) in named.iter().enumerate() {
                let cases = &self.run.cases;
                let after_failure = |earlier: usize| {
                    cases[earlier].status == CaseStatus::Failed && cases[i].status == CaseStatus::Errored
                };
                match kept.get(&(category.as_str(), id.as_str())) {
                    Some(&earlier) if after_failure(earlier) => {}
                    _ => {
                        kept.insert((category, id), i);
                    }
                }
            }
            let keep: Vec<bool> = named
                .iter()
                .enumerate()
                .map(|(i, (c, id, _))| kept.get(&(c.as_str(), id.as_str())) == Some(&i))
                .collect();
            for (case, keep) in self.run.cases.iter_mut().zip(keep) {
                case.duplicate = !keep;
            }
        }
        let errors_fail = self.run.producer.errors_are_failures();
        for case in &mut self.run.cases {
            if errors_fail && case.status == CaseStatus::Errored {
                case.status = CaseStatus::Failed;
            }
            if case.status == CaseStatus::Failed
                && crate::Producer::is_harness_case(case.classname.as_deref(), &case.name)
            {
                case.status = CaseStatus::Errored;
            }
        }
        for (line, w) in warnings {
            self.warn(line, w);
        }
        self.check_numbers();
        self.compare_counts();
        self.run.diagnostics.sort_by_key(|d| d.line);
        self.run
    }

    /// Warns about token and cost properties that are not numbers.
    fn check_numbers(&mut self) {
        let mut warnings = Vec::new();
        for case in &self.run.cases {
            for p in &case.properties {
                let ok = match p.name.as_str() {
                    "input_tokens" | "output_tokens" | "evals.input_tokens" | "evals.output_tokens" => {
                        p.value.trim().parse::<u64>().is_ok()
                    }
                    "cost_usd" | "evals.cost_usd" | "evals.cost" => {
                        p.value.trim().parse::<f64>().is_ok_and(f64::is_finite)
                    }
                    _ => true,
                };
                if !ok {
                    warnings.push((
                        case.line,
                        format!("property {}=\"{}\" is not a number; ignored", p.name, clip(&p.value)),
                    ));
                }
            }
        }
        for (line, w) in warnings {
            self.warn(line, w);
        }
    }

    /// Warns when a suite's declared counts disagree with the test cases it holds.
    fn compare_counts(&mut self) {
        let suites = &self.run.suites;
        let (counted, total) =
            count_cases(suites.len(), |i| suites[i].parent, self.run.cases.iter().map(|c| (c.status, c.suite)));
        let mut warnings = Vec::new();
        for (suite, counts) in self.run.suites.iter().zip(&counted) {
            let label = suite.name.as_deref().map_or_else(|| "testsuite".to_string(), |n| format!("testsuite `{n}`"));
            warnings.extend(disagreements(&suite.declared, counts).map(|w| (suite.line, format!("{label} {w}"))));
        }
        let line = self.run.root_line;
        warnings.extend(disagreements(&self.run.declared, &total).map(|w| (line, format!("testsuites {w}"))));
        for (line, w) in warnings {
            self.warn(line, w);
        }
    }
}

/// The test cases counted per suite (each case in its suite and every enclosing one) and in
/// all: [tests, failures, errors, skipped], from each case's status and suite; `parent`
/// gives a suite's enclosing suite, for the `n` suites.
pub(crate) fn count_cases(
    n: usize,
    parent: impl Fn(usize) -> Option<usize>,
    cases: impl Iterator<Item = (CaseStatus, Option<usize>)>,
) -> (Vec<[u64; 4]>, [u64; 4]) {
    let mut counted = vec![[0u64; 4]; n];
    let mut total = [0u64; 4];
    for (status, suite) in cases {
        let slot = match status {
            CaseStatus::Passed => None,
            CaseStatus::Failed => Some(1),
            CaseStatus::Errored => Some(2),
            CaseStatus::Skipped => Some(3),
        };
        let bump = |c: &mut [u64; 4]| {
            c[0] += 1;
            if let Some(s) = slot {
                c[s] += 1;
            }
        };
        bump(&mut total);
        let mut at = suite;
        while let Some(i) = at.filter(|&i| i < n) {
            bump(&mut counted[i]);
            at = parent(i);
        }
    }
    (counted, total)
}

/// `declares tests="6", counted 1` for each declared count that disagrees.
pub(crate) fn disagreements<'d>(declared: &'d Declared, counted: &'d [u64; 4]) -> impl Iterator<Item = String> + 'd {
    let pairs = [
        ("tests", declared.tests, counted[0]),
        ("failures", declared.failures, counted[1]),
        ("errors", declared.errors, counted[2]),
        // GoogleTest counts disabled tests apart from skipped ones; both did not run.
        ("skipped", declared.skipped.map(|s| s.saturating_add(declared.disabled.unwrap_or(0))), counted[3]),
    ];
    pairs
        .into_iter()
        .filter_map(|(name, d, c)| d.filter(|&d| d != c).map(|d| format!("declares {name}=\"{d}\", counted {c}")))
}

/// (expected, found) for a quick-xml error.
fn describe(e: &XmlError) -> (String, String) {
    let eoi = || "end of input".to_string();
    match e {
        XmlError::Syntax(s) => {
            let expected = match s {
                SyntaxError::InvalidBangMarkup => "`<!--`, `<![CDATA[` or `<!DOCTYPE` after `<!`",
                SyntaxError::UnclosedPIOrXmlDecl => "`?>` closing the declaration or processing instruction",
                SyntaxError::UnclosedComment => "`-->` closing the comment",
                SyntaxError::UnclosedDoctype => "`>` closing the DOCTYPE",
                SyntaxError::UnclosedCData => "`]]>` closing the CDATA section",
                SyntaxError::UnclosedTag => "`>` closing the tag",
            };
            (expected.to_string(), if matches!(s, SyntaxError::InvalidBangMarkup) { "`<!`".into() } else { eoi() })
        }
        XmlError::IllFormed(ill) => match ill {
            IllFormedError::MismatchedEndTag { expected, found } => {
                (format!("`</{expected}>`"), format!("`</{found}>`"))
            }
            IllFormedError::UnmatchedEndTag(name) => ("an open element to close".into(), format!("`</{name}>`")),
            IllFormedError::MissingEndTag(name) => (format!("`</{name}>`"), eoi()),
            IllFormedError::UnclosedReference => ("`;` ending the reference".into(), eoi()),
            other => ("well-formed XML".into(), other.to_string()),
        },
        XmlError::InvalidAttr(a) => ("well-formed attributes".into(), a.to_string()),
        other => ("well-formed XML".into(), other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::{control_characters, forbidden_by_bytes, forbidden_in};

    /// The 64-byte check says what the byte check says, for every byte value in every
    /// position, and the first forbidden byte is found wherever it falls.
    #[test]
    fn block_check_agrees_with_bytes() {
        for c in 0..=255u8 {
            for fill in [b'a', b'\n', b'\t', b'\r', 0x80, 0xff] {
                for pos in 0..64 {
                    let mut block = [fill; 64];
                    block[pos] = c;
                    assert_eq!(forbidden_in(&block), forbidden_by_bytes(&block), "{c:#x} at {pos} among {fill:#x}");
                }
            }
        }
        for len in 0..200usize {
            for at in [0, len / 3, len.saturating_sub(1)] {
                let mut doc = vec![b' '; len];
                if let Some(b) = doc.get_mut(at) {
                    *b = 0x0b;
                }
                assert_eq!(control_characters(&doc), (len > 0).then_some((1, at)), "{len} {at}");
            }
        }
    }
}
