//! Text that XML 1.0 can carry: replacing forbidden characters, escaping for attributes and
//! element content, and resolving references when reading.
//!
//! The writer escapes so that a conforming parser gives back exactly the text it was given
//! (after [`xml_safe`]): attribute values keep their tabs and line breaks (written as
//! character references, which attribute-value normalisation leaves alone), element text
//! keeps its carriage returns (`&#13;`, which end-of-line normalisation leaves alone) and
//! its leading and trailing whitespace (also as references, because [`read`](crate::read)
//! trims only the literal whitespace that pretty-printing puts around element text).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether XML 1.0 forbids `c` anywhere in a document, even as a character reference.
fn forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` with the characters XML 1.0 cannot carry replaced: C0 control characters other
/// than tab, line feed and carriage return become their Unicode control picture (U+0001 →
/// `␁`, U+001B → `␛`), and the non-characters U+FFFE and U+FFFF become U+FFFD.
///
/// [`write`](crate::write) applies this to every string it writes, so its output is always
/// well-formed; a round trip gives back `xml_safe(s)` for every string `s`.
///
/// ```
/// use evaltally_junit::xml_safe;
/// assert_eq!(xml_safe("bell\u{7} esc\u{1b}[0m nul\u{0}"), "bell␇ esc␛[0m nul␀");
/// assert_eq!(xml_safe("tab\tline\ncr\r ok"), "tab\tline\ncr\r ok");
/// assert!(matches!(xml_safe("plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn xml_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(forbidden) {
        return Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c {
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c if forbidden(c) => char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'),
            c => c,
        })
        .collect()
}

/// Whether `c`, which XML allows, is written as a character reference all the same: the C1
/// control characters (U+0080–U+009F: U+009B is a terminal's CSI) and the characters that
/// change the direction or the lines of text around them (U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069, U+2028, U+2029). A parser gives them back exactly; a terminal or a page
/// showing the file as text shows the reference.
fn shown_as_ref(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9f}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// `text` with every character [`shown_as_ref`] written as a character reference.
fn with_refs(text: Cow<'_, str>) -> Cow<'_, str> {
    if !text.chars().any(shown_as_ref) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if shown_as_ref(c) {
            let _ = write!(out, "&#x{:x};", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// XML whitespace: the characters pretty-printing adds and `read` trims.
pub(crate) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// A character reference for a whitespace character.
fn space_ref(c: char) -> &'static str {
    match c {
        '\t' => "&#9;",
        '\n' => "&#10;",
        '\r' => "&#13;",
        _ => "&#32;",
    }
}

/// `value` made [`xml_safe`] and escaped for an attribute value in double quotes, so that
/// a conforming parser gives it back: markup characters and quotes as entities, tabs and
/// line breaks as character references (which attribute-value normalisation keeps), and C1
/// controls and bidirectional controls as references too.
///
/// ```
/// use evaltally_junit::escape_attr;
/// assert_eq!(escape_attr("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
/// assert_eq!(escape_attr("two\nlines"), "two&#10;lines");
/// assert_eq!(escape_attr("csi\u{9b}31m rlo\u{202e}"), "csi&#x9b;31m rlo&#x202e;");
/// ```
pub fn escape_attr(value: &str) -> String {
    let safe = xml_safe(value);
    let escaped = with_refs(quick_xml::escape::escape(safe.as_ref()));
    if !escaped.contains(['\t', '\n', '\r']) {
        return escaped.into_owned();
    }
    let mut out = String::with_capacity(escaped.len() + 16);
    for c in escaped.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push_str(space_ref(c)),
            c => out.push(c),
        }
    }
    out
}

/// `value` made [`xml_safe`] and escaped for element content that a reader gives back
/// unchanged: `<`, `&` and `>` (so `]]>` cannot appear), carriage returns, and leading and
/// trailing whitespace become references, and so do C1 controls and bidirectional controls.
///
/// ```
/// use evaltally_junit::escape_text;
/// assert_eq!(escape_text("run-1: failed\nrun-2: a < b"), "run-1: failed\nrun-2: a &lt; b");
/// assert_eq!(escape_text(" padded\r"), "&#32;padded&#13;");
/// assert_eq!(escape_text("lri\u{2067}x\u{2069}"), "lri&#x2067;x&#x2069;");
/// ```
pub fn escape_text(value: &str) -> String {
    let safe = xml_safe(value);
    let body = safe.trim_matches(is_xml_space);
    let lead = &safe[..safe.len() - safe.trim_start_matches(is_xml_space).len()];
    let trail = if body.is_empty() { "" } else { &safe[lead.len() + body.len()..] };
    let mut out = String::with_capacity(safe.len() + 16);
    lead.chars().for_each(|c| out.push_str(space_ref(c)));
    let escaped = with_refs(quick_xml::escape::partial_escape(body));
    if escaped.contains('\r') {
        out.push_str(&escaped.replace('\r', "&#13;"));
    } else {
        out.push_str(&escaped);
    }
    trail.chars().for_each(|c| out.push_str(space_ref(c)));
    out
}

/// The five entities XML predefines.
pub(crate) fn predefined(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => None,
    }
}

/// A numeric character reference's body (`#38`, `#x26`) as a character XML allows.
pub(crate) fn char_ref(body: &str) -> Option<char> {
    let code = if let Some(hex) = body.strip_prefix("#x") {
        u32::from_str_radix(hex, 16).ok()?
    } else {
        body.strip_prefix('#')?.parse::<u32>().ok()?
    };
    let c = char::from_u32(code)?;
    (!forbidden(c)).then_some(c)
}

/// An attribute value as a conforming parser reports it: line ends normalised, literal
/// tabs and line breaks turned into spaces, references resolved.
///
/// References that cannot be resolved (an entity declared in a DTD, `&nbsp;` from HTML, a
/// lone `&`) are kept as written and reported through `warn`; a character reference to a
/// character XML forbids becomes U+FFFD.
pub(crate) fn unescape_attr<'a>(raw: &'a str, warn: &mut dyn FnMut(String)) -> Cow<'a, str> {
    let special = |b: &u8| matches!(b, b'&' | b'\t' | b'\n' | b'\r');
    let Some(first) = raw.bytes().position(|b| special(&b)) else {
        return Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(raw.len());
    out.push_str(&raw[..first]);
    let mut rest = &raw[first..];
    while let Some(pos) = rest.bytes().position(|b| special(&b)) {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix("\r\n") {
            out.push(' ');
            rest = after;
            continue;
        }
        if !tail.starts_with('&') {
            out.push(' ');
            rest = &tail[1..];
            continue;
        }
        if let Some((c, len)) = [("&lt;", '<'), ("&gt;", '>'), ("&amp;", '&'), ("&quot;", '"'), ("&apos;", '\'')]
            .iter()
            .find_map(|&(r, c)| tail.starts_with(r).then_some((c, r.len())))
        {
            out.push(c);
            rest = &tail[len..];
            continue;
        }
        let end = tail.find(';').filter(|&e| e <= 40 && !tail[1..e].contains(['&', '<', ' ']));
        let Some(end) = end else {
            warn("a lone `&` in an attribute value, kept as written".to_string());
            out.push('&');
            rest = &tail[1..];
            continue;
        };
        let name = &tail[1..end];
        if let Some(c) = predefined(name) {
            out.push(c);
        } else if name.starts_with('#') {
            if let Some(c) = char_ref(name) {
                out.push(c);
            } else {
                warn(format!("character reference `&{name};` is not an XML character; read as U+FFFD"));
                out.push('\u{fffd}');
            }
        } else {
            warn(format!("unknown entity `&{name};` in an attribute value, kept as written"));
            out.push_str(&tail[..=end]);
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Element text being collected from text, CDATA and reference events, with the literal
/// whitespace at both ends (indentation around the text) trimmed and everything else kept:
/// CDATA content and characters written as references are never trimmed.
#[derive(Debug, Default)]
pub(crate) struct TextBuf {
    buf: String,
    /// Whether only literal whitespace has been seen so far.
    blank: bool,
    /// End of the leading literal whitespace.
    lead_end: usize,
    /// End of the last content that is not literal whitespace.
    trail_start: usize,
}

impl TextBuf {
    /// Starts collecting a new element's text.
    pub(crate) fn clear(&mut self) {
        self.buf.clear();
        self.blank = true;
        self.lead_end = 0;
        self.trail_start = 0;
    }

    /// Appends literal text (whitespace at the ends is trimmable).
    pub(crate) fn literal(&mut self, s: &str) {
        if self.blank {
            let ws = s.len() - s.trim_start_matches(is_xml_space).len();
            self.lead_end += ws;
            self.blank = ws == s.len();
        }
        let content = s.trim_end_matches(is_xml_space).len();
        if content > 0 {
            self.trail_start = self.buf.len() + content;
        }
        self.buf.push_str(s);
    }

    /// Appends text that is kept whole (CDATA, references).
    pub(crate) fn protected(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.blank = false;
        self.buf.push_str(s);
        self.trail_start = self.buf.len();
    }

    /// The collected text, `None` when it is empty after trimming.
    pub(crate) fn take(&mut self) -> Option<String> {
        let text = if self.blank || self.lead_end >= self.trail_start {
            None
        } else {
            Some(self.buf[self.lead_end..self.trail_start].to_string())
        };
        self.clear();
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_escaping_keeps_whitespace_and_markup() {
        assert_eq!(escape_attr("a\"b'c<d>e&f"), "a&quot;b&apos;c&lt;d&gt;e&amp;f");
        assert_eq!(escape_attr("l1\nl2\r\n\tx"), "l1&#10;l2&#13;&#10;&#9;x");
        assert_eq!(escape_attr("nul\u{0}"), "nul␀");
    }

    #[test]
    fn text_escaping_protects_the_ends() {
        assert_eq!(escape_text("  x ]]> y\r\n"), "&#32;&#32;x ]]&gt; y&#13;&#10;");
        assert_eq!(escape_text(" \n"), "&#32;&#10;");
        assert_eq!(escape_text("a\r\nb"), "a&#13;\nb");
    }

    #[test]
    fn attribute_unescaping() {
        let mut warnings = Vec::new();
        let mut warn = |w: String| warnings.push(w);
        assert_eq!(unescape_attr("a&lt;b&#10;c\nd\r\ne", &mut warn), "a<b\nc d e");
        assert_eq!(unescape_attr("x &nbsp; & y &#0; &#x41;", &mut warn), "x &nbsp; & y \u{fffd} A");
        assert_eq!(warnings.len(), 3);
    }

    #[test]
    fn text_buffer_trims_only_literal_whitespace() {
        let mut t = TextBuf::default();
        t.clear();
        t.literal("\n   ");
        t.protected(" ");
        t.literal(" a \n ");
        t.protected("\n");
        t.literal("  ");
        assert_eq!(t.take().as_deref(), Some("  a \n \n"));
        t.literal("\n  \n");
        assert_eq!(t.take(), None);
        t.literal("  x  ");
        assert_eq!(t.take().as_deref(), Some("x"));
    }
}
