//! The fast path gives exactly the reader's runs whenever it reads a file: on every fixture,
//! on the real reports in the shared reference data, on hand-made variations, and on
//! thousands of randomly damaged copies. It must also take the plain reports it exists for.

use std::path::{Path, PathBuf};

use evaltally_core::CategoryRun;
use evaltally_testkit::{refdata, testdata};

use crate::read_bytes;

/// What the reader makes of `bytes` for `stability`.
fn slow(bytes: &[u8], path: &Path) -> Option<Vec<CategoryRun>> {
    let run = read_bytes(bytes, path).ok()?;
    Some(run.category_runs(&run.run_name(), run.model().unwrap_or("unknown")))
}

/// Checks that the fast path, when it reads `bytes`, agrees with the reader; returns
/// whether it read them.
fn agree(bytes: &[u8], path: &Path) -> bool {
    let Some((fast, not_run)) = super::category_runs(bytes, path) else { return false };
    let slow = slow(bytes, path);
    assert_eq!(Some(&fast), slow.as_ref(), "{}:\n{}", path.display(), String::from_utf8_lossy(bytes));
    let slow_not_run = read_bytes(bytes, path).map(|r| r.not_run()).ok();
    assert_eq!(Some(not_run), slow_not_run, "{}: tests that did not run", path.display());
    // Nothing the reader warns about is read by the fast path.
    let warnings = read_bytes(bytes, path).map(|r| r.diagnostics).unwrap_or_default();
    assert!(warnings.is_empty(), "{}: fast path read a file the reader warns about: {warnings:?}", path.display());
    true
}

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(testdata("junit"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    // Without the shared data (a notice says so) only the fixtures are checked.
    if let Some(dir) = refdata("gstack/dorny-test-reporter") {
        files.extend(
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "xml")),
        );
    }
    files.sort();
    files
}

/// A report in the shape the benchmark generator and vitest-evals write.
const PLAIN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- written by a test runner -->
<testsuites name="nightly" tests="5" failures="1" errors="1" skipped="2">
  <testsuite name="evals/tool-use.eval.ts" timestamp="2026-02-01T03:00:00Z" tests="5" failures="1" errors="1" skipped="2" time="1.5">
    <properties>
      <property name="model" value="acme &amp; co"/>
    </properties>
    <testcase classname="evals/tool-use.eval.ts" name="Tool use &gt; plans (case 1)" time="0.5">
      <failure message="expected call" type="ToolCallMismatch">ToolCallMismatch: a &lt; b
    at run (/app/x.ts:1:2)</failure>
    </testcase>
    <testcase classname='evals/tool-use.eval.ts' name='Tool use &gt; books (case 2)' time='0.25'/>
    <testcase classname="evals/tool-use.eval.ts" name="refuses (case 3)" time="3">
      <properties>
        <property name="evals.input_tokens" value="12"/>
        <property name="evals.cost" value="0.5"/>
      </properties>
      <error message="reset" type="APIConnectionError"><![CDATA[reset <by> peer]]></error>
      <system-out>model said: &quot;hi&quot;</system-out>
    </testcase>
    <testcase classname="evals/tool-use.eval.ts" name="skips (case 4)"><skipped message="flaky"/></testcase>
    <testcase classname="evals/tool-use.eval.ts" name="unscored (case 5)"><skipped type="evaltally.unscored"/></testcase>
  </testsuite>
</testsuites>
"#;

#[test]
fn fast_path_reads_plain_reports_as_the_reader_does() {
    assert!(agree(PLAIN.as_bytes(), Path::new("nightly.xml")), "the fast path handed a plain report over");
    let (runs, _) = super::category_runs(PLAIN.as_bytes(), Path::new("nightly.xml")).unwrap();
    assert_eq!((runs[0].run.as_str(), runs[0].model.as_str()), ("nightly", "acme & co"));
    // One `<failure>` fails; one `<error>` errored.
    assert_eq!((runs[0].len(), runs[0].passed(), runs[0].failed(), runs[0].errored()), (4, 1, 1, 1));
    let mut taken = 0;
    for path in fixtures() {
        taken += usize::from(agree(&std::fs::read(&path).unwrap(), &path));
    }
    assert!(taken >= 1, "the fast path read none of the fixtures");
}

#[test]
fn fast_path_hands_over_what_it_does_not_read_plainly() {
    let path = Path::new("nightly.xml");
    let handed_over = [
        PLAIN.replacen("<?xml", "<!DOCTYPE testsuites>\n<?xml", 1),
        PLAIN.replacen("acme &amp; co", "acme &nbsp; co", 1),
        PLAIN.replacen("acme &amp; co", "acme & co", 1),
        PLAIN.replacen("a &lt; b", "a &#0; b", 1),
        PLAIN.replacen("time=\"0.5\"", "time=\"0,5\"", 1),
        PLAIN.replacen("time=\"0.5\"", "time=\"soon\"", 1),
        PLAIN.replacen("tests=\"5\" failures", "tests=\"6\" failures", 1),
        PLAIN.replacen("tests=\"5\"", "tests=\"many\"", 1),
        PLAIN.replacen("name=\"refuses (case 3)\"", "name=\"  \"", 1),
        PLAIN.replacen("name=\"refuses (case 3)\"", "name=\"skips (case 4)\"", 1),
        PLAIN.replacen("value=\"12\"", "value=\"twelve\"", 1),
        PLAIN.replacen(
            "<property name=\"model\" value=\"acme &amp; co\"/>",
            "<property name=\"model\">acme</property>",
            1,
        ),
        PLAIN.replacen("</testcase>", "</testcas>", 1),
        PLAIN.replacen("time=\"3\"", "time=\"3\" time=\"4\"", 1),
        PLAIN.replacen("time=\"3\"", "time = \"3\"", 1),
        PLAIN.replacen("time=\"3\"", "time=\"3\"id=\"x\"", 1),
        PLAIN.replacen("message=\"reset\"", "message=\"a<b\"", 1),
        PLAIN.replacen("</testsuites>", "</testsuites>\n<testsuites/>", 1),
        PLAIN.replacen("</testsuites>", "</testsuites>\ntrailing", 1),
        PLAIN.replacen("<!-- written", "<!--- written", 1),
        format!("{}</testsuites>", PLAIN.trim_end().trim_end_matches("</testsuites>")).replacen("</testsuite>", "", 1),
    ];
    for (i, text) in handed_over.iter().enumerate() {
        assert!(super::category_runs(text.as_bytes(), path).is_none(), "variation {i} was read:\n{text}");
    }
    // UTF-16 and broken UTF-8 go to the reader too.
    let utf16: Vec<u8> = [0xFF, 0xFE].into_iter().chain(PLAIN.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert!(super::category_runs(&utf16, path).is_none());
    let mut broken = PLAIN.as_bytes().to_vec();
    broken[200] = 0xFF;
    assert!(super::category_runs(&broken, path).is_none());
    // What the reader takes without a word, the fast path reads alike.
    let read_alike = [
        format!("\u{feff}{PLAIN}"),
        PLAIN.replace('\n', "\r\n"),
        PLAIN.replacen("<testsuite name=", "<testsuite\n    name=", 1),
        PLAIN.replacen("</testcase>", "</testcase  >", 1),
        PLAIN.replacen("<system-out>", "<system-out a='>' b=\"'\">", 1),
        PLAIN.replacen("name=\"nightly\"", "name=\"night&#x6C;y\"", 1),
        PLAIN.replacen("type=\"ToolCallMismatch\"", "type=\"Tool&#9;Call\nMismatch\"", 1),
        PLAIN.replacen("<testsuite name=\"evals/tool-use.eval.ts\"", "<testsuite", 1),
        PLAIN.replacen(
            " classname=\"evals/tool-use.eval.ts\" name=\"refuses",
            " classname=\"other\" name=\"Tool use &gt; books",
            1,
        ),
    ];
    for text in &read_alike {
        assert!(agree(text.as_bytes(), path), "not read:\n{text}");
    }
}

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

#[test]
fn fast_path_agrees_with_the_reader_on_damaged_reports() {
    const PIECES: [&str; 24] = [
        "<",
        ">",
        "/",
        "&",
        ";",
        "\"",
        "'",
        "=",
        " ",
        "\n",
        "!",
        "?",
        "-",
        "[",
        "]",
        ":",
        "&amp;",
        "&#10;",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "</testcase>",
        "<testcase name=\"x\"/>",
    ];
    let mut sources: Vec<(PathBuf, Vec<u8>)> =
        fixtures().into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect();
    sources.push((PathBuf::from("nightly.xml"), PLAIN.as_bytes().to_vec()));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut read, mut tried) = (0, 0);
    for (path, good) in &sources {
        for _ in 0..1000 {
            let mut bytes = good.clone();
            for _ in 0..=rng.below(3) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        bytes.splice(at..at, piece.bytes());
                    }
                    2 if at < bytes.len() => {
                        let end = (at + 1 + rng.below(40)).min(bytes.len());
                        let copy = bytes[at..end].to_vec();
                        let to = rng.below(bytes.len() + 1);
                        bytes.splice(to..to, copy);
                    }
                    _ => {
                        let end = (at + rng.below(40)).min(bytes.len());
                        bytes.drain(at..end);
                    }
                }
            }
            tried += 1;
            read += usize::from(agree(&bytes, path));
        }
    }
    // Most damage is noticed; some (in text, in a value) is harmless and read.
    assert!(read > tried / 20 && read < tried, "fast path read {read} of {tried} damaged reports");
}

/// The word-at-a-time value scan stops where a byte walk does: at the closing quote, or
/// at a `<`, and notes `&` and line ends wherever they fall.
#[test]
fn attribute_values_end_where_a_byte_walk_says() {
    use super::Special::{No, References, Spaces};
    // Past 64 bytes the search goes on with `memchr`.
    for len in 0..90 {
        for (tail, want) in [
            (&b"\"rest"[..], Some(No)),
            (b"&amp;\"", Some(References)),
            (b"\n\"", Some(Spaces)),
            (b"\t'\"", Some(Spaces)),
            (b"&lt;\r\n\"", Some(Spaces)),
            (b"<\"", None),
            (b"", None),
        ] {
            let mut value: Vec<u8> = (0..len).map(|k| b"ab\xC3\xA9 '"[k % 6]).collect();
            let end = value.len() + tail.iter().position(|&c| c == b'"').unwrap_or(0);
            value.extend_from_slice(tail);
            let got = super::attribute_value(&value, 0, b'"').ok();
            assert_eq!(got, want.map(|special| (end, special)), "{len} {tail:?}");
        }
    }
}

/// Bit `k` set where `hit` holds for byte `k`: the byte walk the 16-byte searches are
/// checked against.
fn bits(chunk: &[u8; 16], hit: impl Fn(u8) -> bool) -> u32 {
    chunk.iter().enumerate().fold(0, |m, (k, &c)| m | u32::from(hit(c)) << k)
}

/// The 16-byte name classes are the class table's, for every byte value in every
/// position; names of any length end, and find their local part, where a byte walk says.
#[test]
fn names_end_where_the_class_table_says() {
    use super::{COLON, NAME_BYTES};
    for c in 0..=255u8 {
        for fill in [b'a', b'Z', b'7', b'_', b':', b' ', 0x80] {
            for pos in 0..16 {
                let mut chunk = [fill; 16];
                chunk[pos] = c;
                let class = |x: u8| NAME_BYTES[usize::from(x)];
                let want = (bits(&chunk, |x| class(x) == 0), bits(&chunk, |x| class(x) & COLON != 0));
                assert_eq!(super::name_masks(&chunk), want, "{c:#x} at {pos} among {fill:#x}");
            }
        }
    }
    let by_bytes = |b: &[u8]| {
        let end = b.iter().position(|&c| NAME_BYTES[usize::from(c)] == 0).unwrap_or(b.len());
        let local = b[..end].iter().position(|&c| c == b':').map_or(0, |i| i + 1);
        (end, local)
    };
    for len in 0..40usize {
        for colon in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
            for tail in [&b"=\"v\""[..], b" x", b"", b"/>", b"\xC3\xA9"] {
                let mut doc: Vec<u8> = (0..len).map(|k| b"aZ9_.-"[k % 6]).collect();
                if let Some(at) = colon.filter(|&at| at < len) {
                    doc[at] = b':';
                }
                doc.extend_from_slice(tail);
                assert_eq!(super::name_at(&doc, 0), by_bytes(&doc), "{len} {colon:?} {tail:?}");
            }
        }
    }
}

/// The 16-byte searches (an attribute value's stops, one or two bytes) agree with a byte
/// walk, for every byte value in every position.
#[test]
fn sixteen_byte_masks_agree_with_bytes() {
    for quote in [b'"', b'\''] {
        for c in 0..=255u8 {
            for fill in [b'a', b' ', 0x80, b'"', b'\t'] {
                for pos in 0..16 {
                    let mut chunk = [fill; 16];
                    chunk[pos] = c;
                    let stop = |x: u8| x == quote || x == b'<' || x == b'&' || x < 0x20;
                    assert_eq!(super::value_masks(&chunk, quote), bits(&chunk, stop), "{c:#x} at {pos}");
                    assert_eq!(super::equal_masks(&chunk, [quote]), bits(&chunk, |x| x == quote), "{c:#x} at {pos}");
                    let either = |x: u8| x == quote || x == b'&';
                    assert_eq!(super::equal_masks(&chunk, [quote, b'&']), bits(&chunk, either), "{c:#x} at {pos}");
                }
            }
        }
    }
}

/// The predefined-entity unescaper gives what the general one gives, or hands over.
#[test]
fn predefined_only_agrees_with_the_reader() {
    let pieces = ["a", "&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#38;", "&nbsp;", "&", "&lt", " é "];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                let raw = format!("{a}{b}{c}");
                let mut warned = false;
                let general = crate::escape::unescape_attr(&raw, &mut |_| warned = true);
                match super::predefined_only(&raw) {
                    Some(fast) => assert_eq!((fast.as_str(), warned), (general.as_ref(), false), "{raw}"),
                    None => assert!(raw.contains("&#") || warned, "{raw} handed over without a reason"),
                }
            }
        }
    }
}

/// Numbers told plain without parsing are numbers the parse takes.
#[test]
fn plain_decimals_parse() {
    for (value, point, plain) in [
        ("0", false, true),
        ("123456789012345678", false, true),
        ("1234567890123456789", false, false),
        ("1.5", false, false),
        ("1.5", true, true),
        (".5", true, false),
        ("5.", true, false),
        ("1.2.3", true, false),
        ("", true, false),
        ("-1", true, false),
        (" 1", false, false),
    ] {
        assert_eq!(super::plain_decimal(value, point), plain, "{value:?}");
        if plain {
            assert!(value.parse::<f64>().is_ok_and(f64::is_finite), "{value}");
            assert!(point || value.parse::<u64>().is_ok(), "{value}");
        }
    }
    assert!(!super::bad_number("evals.input_tokens", "369"));
    assert!(super::bad_number("evals.input_tokens", "3.5"));
    assert!(!super::bad_number("evals.cost", "0.01142"));
    assert!(!super::bad_number("evals.cost", " 1e-3 "));
    assert!(super::bad_number("cost_usd", "inf"));
}
