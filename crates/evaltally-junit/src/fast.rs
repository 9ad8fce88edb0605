//! The fast path of `stability`: a JUnit report read straight into category runs by a
//! hand-written scanner that looks at tags and attributes only, jumps over element text
//! with `memchr`, and borrows every name it keeps from the document.
//!
//! It reads only what the reader ([`crate::read`]) would read without a word, in the plain
//! XML that test runners write: start and end tags with `name="value"` attributes,
//! comments, processing instructions and CDATA sections. Anything else gives `None` and the
//! caller reads the file with the reader, which says what is wrong or what it tolerated: text
//! that is not UTF-8 (or is UTF-16), a control character XML forbids, a DOCTYPE, a tag or attribute it does not parse
//! strictly, an unknown or numeric reference, a `<property>` whose value is its text,
//! mismatched tags, a `time` or count that is not a plain number, declared counts that
//! disagree, a test case without a name, a token or cost property that is not a number, and
//! a duplicate test. Both paths give the same runs: `src/fast/tests.rs` checks it on every
//! fixture, on the reference data and on thousands of damaged variations.

use std::borrow::Cow;
use std::path::Path;

use evaltally_core::{CategoryRun, Outcome};
use evaltally_format::sixteen::Chunk;
use memchr::{memchr, memchr2, memchr3, memmem};

use crate::MAX_DEPTH;
use crate::convert::group;
use crate::escape::{is_xml_space, unescape_attr};
use crate::model::{CaseFlags, CaseStatus, Declared, ProblemKind, run_meta, run_name};
use crate::naming::{CaseSeat, SuiteSeat, name_cases};
use crate::read::{count_cases, disagreements};
use crate::seconds::{Reading, parse_ms};

/// The fast path cannot read this file; the reader must.
struct Slow;

type Fast<T> = Result<T, Slow>;

/// Who a `<properties>` belongs to.
#[derive(Clone, Copy)]
enum Owner {
    Root,
    Suite(usize),
    Case,
}

/// An open element, as in the reader.
#[derive(Clone, Copy)]
enum Frame {
    Suites,
    Suite(usize),
    Case(usize),
    Properties(Owner),
    /// `<property>`, `<failure>`, `<error>`, `<skipped>`, `<system-out>`, `<system-err>` and
    /// unknown elements: nothing inside them matters to the runs.
    Leaf,
}

/// An attribute, its value unescaped.
struct Attr<'a> {
    full: &'a str,
    local: &'a str,
    value: Cow<'a, str>,
}

fn attr<'x>(attrs: &'x [Attr<'_>], name: &str) -> Option<&'x str> {
    attrs.iter().find(|a| a.local == name).map(|a| a.value.as_ref())
}

/// The value of attribute `name`, moved out (each is taken at most once per tag).
fn take<'a>(attrs: &mut [Attr<'a>], name: &str) -> Option<Cow<'a, str>> {
    attrs.iter_mut().find(|a| a.local == name).map(|a| std::mem::replace(&mut a.value, Cow::Borrowed("")))
}

/// What `<property>` elements of the root or a suite say about the run.
#[derive(Default)]
struct RunProperties<'a> {
    run: Option<Cow<'a, str>>,
    model: Option<Cow<'a, str>>,
}

impl<'a> RunProperties<'a> {
    fn note(&mut self, name: &str, value: Cow<'a, str>) {
        let slot = match name {
            "run" => &mut self.run,
            "model" => &mut self.model,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(value);
        }
    }
}

struct Suite<'a> {
    name: Option<Cow<'a, str>>,
    parent: Option<usize>,
    declared: Declared,
    properties: RunProperties<'a>,
}

struct Case<'a> {
    suite: Option<usize>,
    name: Cow<'a, str>,
    classname: Option<Cow<'a, str>>,
    flags: CaseFlags,
    /// The first failure or error, with its non-blank `type`.
    first_problem: Option<(ProblemKind, Option<Cow<'a, str>>)>,
    /// Whether it holds a `<skipped>`, and the non-blank `type` of the first.
    skipped: bool,
    skip_type: Option<Cow<'a, str>>,
    status: CaseStatus,
}

/// The five names XML predefines, each with its `;`.
const PREDEFINED: [&[u8]; 5] = [b"lt;", b"gt;", b"amp;", b"quot;", b"apos;"];

/// How many 16-byte chunks are looked at in place before `memchr` takes over: most of what
/// the scanner looks for (the end of an indentation, of a tag) is close.
const NEAR_CHUNKS: usize = 3;

/// The first byte of `hay` that `hits` marks in its 16-byte chunk, looked for in the first
/// chunks in place, then with `far`.
#[inline(always)]
#[allow(clippy::inline_always)]
fn find_near(hay: &[u8], hits: impl Fn(&[u8; 16]) -> u32, far: impl Fn(&[u8]) -> Option<usize>) -> Option<usize> {
    let mut at = 0;
    for _ in 0..NEAR_CHUNKS {
        let Some(chunk) = hay.get(at..).and_then(<[u8]>::first_chunk::<16>) else { break };
        let h = hits(chunk);
        if h != 0 {
            return Some(at + h.trailing_zeros() as usize);
        }
        at += 16;
    }
    far(&hay[at..]).map(|i| i + at)
}

/// The first `needle` in `hay`.
fn find(needle: u8, hay: &[u8]) -> Option<usize> {
    find_near(hay, |c| equal_masks(c, [needle]), |rest| memchr(needle, rest))
}

/// The first `a` or `b` in `hay`.
fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    find_near(hay, |c| equal_masks(c, [a, b]), |rest| memchr2(a, b, rest))
}

/// Bit `k` is set where byte `k` of `chunk` is one of `needles`.
#[inline(always)]
#[allow(clippy::inline_always)]
fn equal_masks<const N: usize>(chunk: &[u8; 16], needles: [u8; N]) -> u32 {
    let c = Chunk::load(chunk);
    needles.iter().fold(0, |hits, &n| hits | c.eq(n).bits())
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The class of each byte for names the fast path reads: 0 for a byte that ends a name,
/// [`NAME`] for ASCII letters, digits and `_.-`, [`NAME`]` | `[`COLON`] for `:`.
static NAME_BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        #[allow(clippy::cast_possible_truncation)]
        let b = c as u8;
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-') {
            table[c] = NAME;
        }
        c += 1;
    }
    table[b':' as usize] = NAME | COLON;
    table
};
const NAME: u8 = 1;
const COLON: u8 = 2;

/// The name starting at `b[pos]`: where it ends (at the first byte that cannot be in a name)
/// and where its local part starts (after the first `:`, or at `pos`). Sixteen bytes at a
/// time ([`Chunk`]), the last bytes of a document byte by byte.
fn name_at(b: &[u8], pos: usize) -> (usize, usize) {
    let mut end = pos;
    let mut seen = 0;
    let mut ended = false;
    while let Some(chunk) = b.get(end..).and_then(<[u8]>::first_chunk::<16>) {
        let (others, colons) = name_masks(chunk);
        let len = if others == 0 { 16 } else { others.trailing_zeros() };
        if colons & ((1 << len) - 1) != 0 {
            seen |= COLON;
        }
        end += len as usize;
        if others != 0 {
            ended = true;
            break;
        }
    }
    while !ended && let Some(&c) = b.get(end) {
        let class = NAME_BYTES[usize::from(c)];
        if class == 0 {
            break;
        }
        seen |= class;
        end += 1;
    }
    let local =
        if seen & COLON == 0 { pos } else { pos + b[pos..end].iter().position(|&c| c == b':').map_or(0, |i| i + 1) };
    (end, local)
}

/// Bit `k` of the first mask is set where byte `k` of `chunk` cannot be in a name, of the
/// second where it is a `:`: the class table's answer for 16 bytes at once.
#[inline(always)]
#[allow(clippy::inline_always)]
fn name_masks(chunk: &[u8; 16]) -> (u32, u32) {
    let c = Chunk::load(chunk);
    // Letters (case folded by bit 0x20), `-./0-9:` less `/`, and `_`.
    let name = c.or(0x20).within(b'a', b'z') | c.within(b'-', b':').and_not(c.eq(b'/')) | c.eq(b'_');
    (!name.bits() & 0xFFFF, c.eq(b':').bits())
}

/// What an attribute value holds besides plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    /// Nothing: the value is its text.
    No,
    /// References (`&`) and nothing else to normalise.
    References,
    /// A tab or line end (to normalise), with or without references.
    Spaces,
}

/// Where an attribute value starting at `b[start]` ends (its closing `quote`) and what it
/// holds to unescape or normalise; `Slow` when it is cut short or holds `<`. Most values
/// are short: the first 64 bytes are searched 16 at a time ([`Chunk`]), the next (and the
/// last bytes of a document) 8 at a time in a word, and `memchr3` takes a long one.
fn attribute_value(b: &[u8], start: usize, quote: u8) -> Fast<(usize, Special)> {
    use evaltally_format::bytes::{below, equal, first, word};
    // Control characters other than tab and line ends were ruled out for the whole
    // document, so any byte below 0x20 here is one to normalise.
    let (mut amp, mut space) = (false, false);
    let mut at = start;
    // The first 64 bytes 16 at a time, every byte of interest in a chunk taken in turn.
    for _ in 0..4 {
        let Some(chunk) = b.get(at..).and_then(<[u8]>::first_chunk::<16>) else { break };
        let mut hits = value_masks(chunk, quote);
        while hits != 0 {
            let k = hits.trailing_zeros() as usize;
            match chunk[k] {
                c if c == quote => return Ok((at + k, Special::of(amp, space))),
                b'<' => return Err(Slow),
                b'&' => amp = true,
                _ => space = true,
            }
            hits &= hits - 1;
        }
        at += 16;
    }
    for _ in 0..8 {
        let Some(w) = word(b, at) else { break };
        let Some(k) = first(equal(w, quote) | equal(w, b'<') | equal(w, b'&') | below(w, 0x20)) else {
            at += 8;
            continue;
        };
        at += k;
        match b[at] {
            c if c == quote => return Ok((at, Special::of(amp, space))),
            b'<' => return Err(Slow),
            b'&' => amp = true,
            _ => space = true,
        }
        at += 1;
    }
    let from = at;
    loop {
        at += memchr3(quote, b'<', b'&', &b[at..]).ok_or(Slow)?;
        match b[at] {
            b'<' => return Err(Slow),
            b'&' => {
                amp = true;
                at += 1;
            }
            _ => {
                space = space || memchr3(b'\t', b'\n', b'\r', &b[from..at]).is_some();
                return Ok((at, Special::of(amp, space)));
            }
        }
    }
}

/// Bit `k` is set where byte `k` of `chunk` is `quote`, `<`, `&` or below 0x20: what an
/// attribute value's scan stops at.
#[inline(always)]
#[allow(clippy::inline_always)]
fn value_masks(chunk: &[u8; 16], quote: u8) -> u32 {
    let c = Chunk::load(chunk);
    (c.eq(quote) | c.eq(b'<') | c.eq(b'&') | c.within(0, 0x1f)).bits()
}

impl Special {
    fn of(amp: bool, space: bool) -> Self {
        match (amp, space) {
            (_, true) => Special::Spaces,
            (true, false) => Special::References,
            (false, false) => Special::No,
        }
    }
}

/// `raw` with the five predefined entities replaced, or `None` when it holds another
/// reference (the general [`unescape_attr`] decides what it means).
fn predefined_only(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = memchr(b'&', rest.as_bytes()) {
        out.push_str(&rest[..amp]);
        let tail = &rest.as_bytes()[amp + 1..];
        let (c, len) = match tail.first()? {
            b'l' if tail.starts_with(b"lt;") => ('<', 3),
            b'g' if tail.starts_with(b"gt;") => ('>', 3),
            b'a' if tail.starts_with(b"amp;") => ('&', 4),
            b'a' if tail.starts_with(b"apos;") => ('\'', 5),
            b'q' if tail.starts_with(b"quot;") => ('"', 5),
            _ => return None,
        };
        out.push(c);
        rest = &rest[amp + 1 + len..];
    }
    out.push_str(rest);
    Some(out)
}

/// A `time` that the reader takes as a plain number of seconds, without a word.
fn plain_time(raw: &str) -> bool {
    let (mut digits, mut dots) = (0, 0);
    let simple = raw.len() <= 24
        && raw.bytes().all(|c| {
            digits += usize::from(c.is_ascii_digit());
            dots += usize::from(c == b'.');
            c.is_ascii_digit() || c == b'.'
        })
        && digits > 0
        && dots <= 1;
    simple || matches!(parse_ms(raw), Some((_, Reading::Plain)))
}

/// A declared count: absent, or a number the reader parses without a word.
fn count(attrs: &[Attr<'_>], name: &str) -> Fast<Option<u64>> {
    attr(attrs, name).map(|raw| raw.trim().parse::<u64>().map_err(|_| Slow)).transpose()
}

fn declared(attrs: &[Attr<'_>]) -> Fast<Declared> {
    let skipped = match count(attrs, "skipped")? {
        Some(n) => Some(n),
        None => count(attrs, "skip")?,
    };
    Ok(Declared {
        tests: count(attrs, "tests")?,
        failures: count(attrs, "failures")?,
        errors: count(attrs, "errors")?,
        skipped,
        disabled: count(attrs, "disabled")?,
    })
}

fn check_time(attrs: &[Attr<'_>]) -> Fast<()> {
    match attr(attrs, "time") {
        Some(raw) if !plain_time(raw) => Err(Slow),
        _ => Ok(()),
    }
}

/// Whether `value` is digits with at most one `.` between digits: a number every numeric
/// parse takes, told without parsing.
fn plain_decimal(value: &str, point: bool) -> bool {
    let b = value.as_bytes();
    let dot = if point { b.iter().position(|&c| c == b'.') } else { None };
    let (int, frac) = match dot {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    let digits = |s: &[u8]| !s.is_empty() && s.len() <= 18 && s.iter().all(u8::is_ascii_digit);
    digits(int) && frac.is_none_or(digits)
}

/// A token or cost property of a test case that the reader would warn about.
fn bad_number(name: &str, value: &str) -> bool {
    match name {
        "input_tokens" | "output_tokens" | "evals.input_tokens" | "evals.output_tokens" => {
            !plain_decimal(value, false) && value.trim().parse::<u64>().is_err()
        }
        "cost_usd" | "evals.cost_usd" | "evals.cost" => {
            !plain_decimal(value, true) && !value.trim().parse::<f64>().is_ok_and(f64::is_finite)
        }
        _ => false,
    }
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Open elements and their names as written.
    stack: Vec<(Frame, &'a str)>,
    root_done: bool,
    attrs: Vec<Attr<'a>>,
    root_name: Option<Cow<'a, str>>,
    producer: crate::Producer,
    root_declared: Declared,
    root_properties: RunProperties<'a>,
    /// The first suite `timestamp` and `hostname` (not blank).
    timestamp: Option<Cow<'a, str>>,
    hostname: Option<Cow<'a, str>>,
    suites: Vec<Suite<'a>>,
    cases: Vec<Case<'a>>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            stack: Vec::with_capacity(16),
            root_done: false,
            attrs: Vec::with_capacity(16),
            root_name: None,
            producer: crate::Producer::Other,
            root_declared: Declared::default(),
            root_properties: RunProperties::default(),
            timestamp: None,
            hostname: None,
            suites: Vec::new(),
            cases: Vec::with_capacity(128),
        }
    }

    /// Walks the document: each `<` and the markup it opens, each `&` in text (which must
    /// start one of the five predefined entities), and outside the root nothing but XML
    /// whitespace.
    fn scan(&mut self) -> Fast<()> {
        let b = self.bytes;
        let mut pos = 0;
        loop {
            let Some(at) = find2(b'<', b'&', &b[pos..]).map(|i| pos + i) else {
                self.outside(&b[pos..])?;
                break;
            };
            if b[at] == b'&' {
                if self.stack.is_empty() || !PREDEFINED.iter().any(|p| b[at + 1..].starts_with(p)) {
                    return Err(Slow);
                }
                pos = at + 1;
                continue;
            }
            self.outside(&b[pos..at])?;
            pos = at + 1;
            pos = match b.get(pos) {
                Some(b'/') => self.end_tag(pos + 1)?,
                Some(b'?') => {
                    if b.get(pos + 1) == Some(&b'>') {
                        return Err(Slow);
                    }
                    pos + 1 + memmem::find(&b[pos + 1..], b"?>").ok_or(Slow)? + 2
                }
                Some(b'!') => self.bang(pos)?,
                Some(_) => self.start_tag(pos)?,
                None => return Err(Slow),
            };
        }
        if self.stack.is_empty() && self.root_done { Ok(()) } else { Err(Slow) }
    }

    /// Text outside the root must be XML whitespace.
    fn outside(&self, run: &[u8]) -> Fast<()> {
        if self.stack.is_empty() && !run.iter().copied().all(is_space) { Err(Slow) } else { Ok(()) }
    }

    /// `<!--` comments and `<![CDATA[` sections (inside the root); a DOCTYPE or anything
    /// else is the reader's.
    fn bang(&self, pos: usize) -> Fast<usize> {
        let b = &self.bytes[pos..];
        if let Some(body) = b.strip_prefix(b"!--") {
            if matches!(body.first(), Some(b'-' | b'>') | None) {
                return Err(Slow);
            }
            return Ok(pos + 3 + memmem::find(body, b"-->").ok_or(Slow)? + 3);
        }
        if let Some(body) = b.strip_prefix(b"![CDATA[") {
            if self.stack.is_empty() {
                return Err(Slow);
            }
            return Ok(pos + 8 + memmem::find(body, b"]]>").ok_or(Slow)? + 3);
        }
        Err(Slow)
    }

    /// `</name>`, with optional whitespace before `>`, closing the innermost element.
    fn end_tag(&mut self, pos: usize) -> Fast<usize> {
        let gt = pos + find(b'>', &self.bytes[pos..]).ok_or(Slow)?;
        let name = self.text[pos..gt].trim_end_matches(is_xml_space);
        match self.stack.last() {
            Some(&(_, open)) if open == name => {}
            _ => return Err(Slow),
        }
        self.close();
        Ok(gt + 1)
    }

    fn close(&mut self) {
        if let Some((Frame::Case(i), _)) = self.stack.pop()
            && let Some(case) = self.cases.get_mut(i)
        {
            case.status = CaseStatus::decide(case.first_problem.as_ref().map(|p| p.0), case.flags, case.skipped);
        }
        if self.stack.is_empty() {
            self.root_done = true;
        }
    }

    /// A start tag (or an empty element) at `pos`, just after its `<`.
    fn start_tag(&mut self, pos: usize) -> Fast<usize> {
        let b = self.bytes;
        let (name_end, local_start) = name_at(b, pos);
        match b.get(name_end) {
            Some(&c) if is_space(c) || c == b'/' || c == b'>' => {}
            _ => return Err(Slow),
        }
        let name = &self.text[pos..name_end];
        if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
            return Err(Slow);
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(Slow);
        }
        let local = &self.text[local_start..name_end];
        let parent = self.stack.last().map(|&(frame, _)| frame);
        // Elements whose attributes the runs (or the reader's warnings) depend on.
        let parsed = match parent {
            None => {
                if self.root_done {
                    return Err(Slow);
                }
                matches!(local, "testsuites" | "testsuite") || return Err(Slow)
            }
            Some(Frame::Suites | Frame::Suite(_)) => matches!(local, "testsuite" | "testcase"),
            Some(Frame::Case(_)) => matches!(local, "failure" | "error" | "skipped"),
            Some(Frame::Properties(_)) => local == "property",
            Some(Frame::Leaf) => false,
        };
        let (end, empty) = if parsed { self.attributes(name_end)? } else { self.skip_tag(name_end)? };
        let frame = match parent {
            None if local == "testsuites" => {
                self.producer = crate::Producer::of_testsuites(|k| attr(&self.attrs, k).map(str::to_string));
                self.root_name = take(&mut self.attrs, "name");
                self.root_name = self.root_name.take().filter(|n| !n.chars().all(is_xml_space));
                self.root_declared = declared(&self.attrs)?;
                Frame::Suites
            }
            None => {
                self.producer = crate::Producer::of_testsuite(|k| attr(&self.attrs, k).map(str::to_string));
                self.suite(None)?
            }
            Some(Frame::Suites) => self.in_suite(local, None)?,
            Some(Frame::Suite(i)) => self.in_suite(local, Some(i))?,
            Some(Frame::Case(i)) => self.in_case(local, i),
            Some(Frame::Properties(owner)) if parsed => self.property(owner)?,
            Some(_) => Frame::Leaf,
        };
        self.stack.push((frame, name));
        if empty {
            self.close();
        }
        Ok(end)
    }

    fn in_suite(&mut self, local: &str, suite: Option<usize>) -> Fast<Frame> {
        Ok(match local {
            "testsuite" => self.suite(suite)?,
            "testcase" => self.case(suite)?,
            "properties" => Frame::Properties(suite.map_or(Owner::Root, Owner::Suite)),
            _ => Frame::Leaf,
        })
    }

    fn in_case(&mut self, local: &str, case: usize) -> Frame {
        let kind = match local {
            "failure" => ProblemKind::Failure,
            "error" => ProblemKind::Error,
            "skipped" => ProblemKind::Skipped,
            "properties" => return Frame::Properties(Owner::Case),
            _ => return Frame::Leaf,
        };
        let type_name = take(&mut self.attrs, "type");
        let type_name = type_name.filter(|t| !t.chars().all(is_xml_space));
        if let Some(c) = self.cases.get_mut(case) {
            match kind {
                ProblemKind::Skipped if !c.skipped => (c.skipped, c.skip_type) = (true, type_name),
                ProblemKind::Failure | ProblemKind::Error if c.first_problem.is_none() => {
                    c.first_problem = Some((kind, type_name));
                }
                _ => {}
            }
        }
        Frame::Leaf
    }

    fn suite(&mut self, parent: Option<usize>) -> Fast<Frame> {
        check_time(&self.attrs)?;
        let declared = declared(&self.attrs)?;
        let name = take(&mut self.attrs, "name");
        let name = name.filter(|n| !n.chars().all(is_xml_space));
        for (key, slot) in [("timestamp", &mut self.timestamp), ("hostname", &mut self.hostname)] {
            if slot.is_none() {
                let value = take(&mut self.attrs, key);
                *slot = value.filter(|v| !v.chars().all(is_xml_space));
            }
        }
        self.suites.push(Suite { name, parent, declared, properties: RunProperties::default() });
        Ok(Frame::Suite(self.suites.len() - 1))
    }

    fn case(&mut self, suite: Option<usize>) -> Fast<Frame> {
        check_time(&self.attrs)?;
        let name = take(&mut self.attrs, "name").unwrap_or_default();
        if name.chars().all(is_xml_space) {
            return Err(Slow);
        }
        let classname = take(&mut self.attrs, "classname");
        let classname = classname.filter(|c| !c.chars().all(is_xml_space));
        let flags = CaseFlags::from_attributes(attr(&self.attrs, "status"), attr(&self.attrs, "result"));
        self.cases.push(Case {
            suite,
            name,
            classname,
            flags,
            first_problem: None,
            skipped: false,
            skip_type: None,
            status: CaseStatus::Passed,
        });
        Ok(Frame::Case(self.cases.len() - 1))
    }

    fn property(&mut self, owner: Owner) -> Fast<Frame> {
        // A value written as the element's text is the reader's.
        let value = self.attrs.iter().position(|a| a.local == "value").ok_or(Slow)?;
        let name = attr(&self.attrs, "name").unwrap_or_default();
        if let Owner::Case = owner {
            return if bad_number(name, &self.attrs[value].value) { Err(Slow) } else { Ok(Frame::Leaf) };
        }
        let key = match name {
            "run" => "run",
            "model" => "model",
            _ => return Ok(Frame::Leaf),
        };
        let value = std::mem::replace(&mut self.attrs[value].value, Cow::Borrowed(""));
        let props = match owner {
            Owner::Suite(i) => &mut self.suites.get_mut(i).ok_or(Slow)?.properties,
            Owner::Root | Owner::Case => &mut self.root_properties,
        };
        props.note(key, value);
        Ok(Frame::Leaf)
    }

    /// The attributes of a tag whose name ends at `pos`, strictly as `name="value"` (or
    /// `'value'`) after whitespace; returns the end of the tag and whether it is empty.
    fn attributes(&mut self, mut pos: usize) -> Fast<(usize, bool)> {
        let (b, text) = (self.bytes, self.text);
        self.attrs.clear();
        loop {
            let start = pos;
            while b.get(pos).copied().is_some_and(is_space) {
                pos += 1;
            }
            match b.get(pos) {
                Some(b'>') => return Ok((pos + 1, false)),
                Some(b'/') if b.get(pos + 1) == Some(&b'>') => return Ok((pos + 2, true)),
                Some(_) if pos > start => {}
                _ => return Err(Slow),
            }
            let (key_end, local_start) = name_at(b, pos);
            if key_end == pos || b.get(key_end) != Some(&b'=') {
                return Err(Slow);
            }
            let quote = *b.get(key_end + 1).ok_or(Slow)?;
            if quote != b'"' && quote != b'\'' {
                return Err(Slow);
            }
            let value_start = key_end + 2;
            // One look at the value: where it ends, and whether it holds `<` (left to the
            // reader) or something to unescape.
            let (value_end, special) = attribute_value(b, value_start, quote)?;
            let raw = &text[value_start..value_end];
            let full = &text[pos..key_end];
            if self.attrs.iter().any(|a| a.full == full) {
                return Err(Slow);
            }
            let fast = match special {
                Special::No => Some(Cow::Borrowed(raw)),
                Special::References => predefined_only(raw).map(Cow::Owned),
                Special::Spaces => None,
            };
            let value = if let Some(value) = fast {
                value
            } else {
                let mut warned = false;
                let value = unescape_attr(raw, &mut |_| warned = true);
                if warned {
                    return Err(Slow);
                }
                value
            };
            let local = &text[local_start..key_end];
            self.attrs.push(Attr { full, local, value });
            pos = value_end + 1;
        }
    }

    /// Jumps to the end of a tag whose attributes do not matter, over quoted values as the
    /// reader does; returns the end of the tag and whether it is empty.
    fn skip_tag(&self, mut pos: usize) -> Fast<(usize, bool)> {
        let b = self.bytes;
        loop {
            let at = pos + memchr3(b'>', b'"', b'\'', &b[pos..]).ok_or(Slow)?;
            match b[at] {
                b'>' => return Ok((at + 1, b[at - 1] == b'/')),
                quote => pos = at + 1 + find(quote, &b[at + 1..]).ok_or(Slow)? + 1,
            }
        }
    }

    /// Category runs, unless something the reader would warn about turns up at the end:
    /// declared counts that disagree, or a duplicate test.
    fn finish(self, source: &Path) -> Fast<(Vec<CategoryRun>, usize)> {
        let suites = &self.suites;
        let (counted, total) =
            count_cases(suites.len(), |i| suites[i].parent, self.cases.iter().map(|c| (c.status, c.suite)));
        let disagree = self.suites.iter().zip(&counted).any(|(s, c)| disagreements(&s.declared, c).next().is_some())
            || disagreements(&self.root_declared, &total).next().is_some();
        if disagree {
            return Err(Slow);
        }
        let stem = source.file_stem().map_or_else(|| "junit".to_string(), |s| s.to_string_lossy().into_owned());
        let suites: Vec<SuiteSeat<'_>> =
            self.suites.iter().map(|s| SuiteSeat { name: s.name.as_deref(), parent: s.parent }).collect();
        let seats: Vec<CaseSeat<'_>> = self
            .cases
            .iter()
            .map(|c| CaseSeat { suite: c.suite, name: &c.name, classname: c.classname.as_deref(), line: 0 })
            .collect();
        let named = name_cases(&suites, &seats, &stem);
        if named.iter().any(|n| n.first.is_some()) {
            return Err(Slow);
        }
        let (root, suites) = (&self.root_properties, &self.suites);
        let run_property = root.run.as_deref().or_else(|| suites.iter().find_map(|s| s.properties.run.as_deref()));
        let model = root.model.as_deref().or_else(|| suites.iter().find_map(|s| s.properties.model.as_deref()));
        let run = run_name(run_property, source);
        let model = model.unwrap_or("unknown");
        let errors_fail = self.producer.errors_are_failures();
        let mut not_run = 0;
        let tests = self.cases.iter().zip(&named).filter_map(|(case, n)| {
            let deciding = match case.status {
                CaseStatus::Skipped => case.skip_type.as_deref(),
                _ => case.first_problem.as_ref().and_then(|p| p.1.as_deref()),
            };
            let status = match case.status {
                CaseStatus::Errored if errors_fail => CaseStatus::Failed,
                CaseStatus::Failed if crate::Producer::is_harness_case(case.classname.as_deref(), &case.name) => {
                    CaseStatus::Errored
                }
                status => status,
            };
            let Some(outcome) = status.outcome(deciding) else {
                not_run += 1;
                return None;
            };
            let label =
                if matches!(outcome, Outcome::Fail | Outcome::Errored) { status.error_label(deciding) } else { None };
            Some((n.category, n.id.as_ref(), outcome, label))
        });
        let meta = run_meta(self.timestamp.as_deref(), self.hostname.as_deref());
        let runs = group(tests, &run, model, source, meta);
        Ok((runs, not_run))
    }
}

/// The category runs of the report in `bytes`, as [`JunitRun::category_runs`] gives them
/// with the run named and the model taken as the reader does, and how many of its tests did
/// not run; or `None` when the reader must read it (see the module documentation).
///
/// [`JunitRun::category_runs`]: crate::JunitRun::category_runs
pub(crate) fn category_runs(bytes: &[u8], source: &Path) -> Option<(Vec<CategoryRun>, usize)> {
    let text = evaltally_format::utf8(bytes)?;
    // Control characters XML forbids are the reader's to report.
    if crate::read::control_characters(bytes).is_some() {
        return None;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut scanner = Scanner::new(text);
    scanner.scan().ok()?;
    scanner.finish(source).ok()
}

#[cfg(test)]
mod tests;
