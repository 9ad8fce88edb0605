//! Telling a JUnit report from other XML (or other text) without parsing it.

/// How far into the text the root element is looked for.
const WINDOW: usize = 64 * 1024;

/// Whether `text` looks like a JUnit report: its first element, after an optional byte
/// order mark, XML declaration, comments, processing instructions and DOCTYPE, is
/// `<testsuites` or `<testsuite`, within the first 64 KiB.
///
/// Cheap (no allocation, no parsing of the content); [`read`](crate::read) decides for sure.
///
/// ```
/// use evaltally_junit::looks_like_junit;
/// assert!(looks_like_junit("\u{feff}<?xml version=\"1.0\"?>\n<!-- by jest -->\n<testsuites name=\"jest\">"));
/// assert!(looks_like_junit("<testsuite>"));
/// assert!(!looks_like_junit("<testsuitex>"));
/// assert!(!looks_like_junit("<html><testsuites>"));
/// assert!(!looks_like_junit("{\"testsuites\": []}"));
/// ```
pub fn looks_like_junit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut s = &bytes[..bytes.len().min(WINDOW)];
    s = s.strip_prefix("\u{feff}".as_bytes()).unwrap_or(s);
    loop {
        let start = s.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(s.len());
        s = &s[start..];
        let skip = if s.starts_with(b"<?") {
            find(s, b"?>").map(|e| e + 2)
        } else if s.starts_with(b"<!--") {
            find(&s[4..], b"-->").map(|e| e + 7)
        } else if s.starts_with(b"<!DOCTYPE") || s.starts_with(b"<!doctype") {
            doctype_end(s)
        } else {
            return root_is_suite(s);
        };
        match skip {
            Some(n) => s = &s[n..],
            None => return false,
        }
    }
}

fn root_is_suite(s: &[u8]) -> bool {
    [b"<testsuites".as_slice(), b"<testsuite"].iter().any(|tag| {
        s.strip_prefix(*tag)
            .is_some_and(|rest| rest.first().is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/')))
    })
}

/// The length of a DOCTYPE declaration, internal subset (`[...]`) included.
fn doctype_end(s: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'>' if depth == 0 => return Some(i + 1),
            _ => {}
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::looks_like_junit;

    #[test]
    fn sniffs() {
        assert!(looks_like_junit("<!DOCTYPE testsuites [<!ENTITY x \"y\">]>\n<?pi x?><testsuites/>"));
        assert!(looks_like_junit("  \n<testsuite\n name=\"x\">"));
        assert!(!looks_like_junit(""));
        assert!(!looks_like_junit("<!-- unterminated"));
        assert!(!looks_like_junit("<?xml version=\"1.0\"?><project>"));
        let long_comment = format!("<!--{}--><testsuites>", "x".repeat(70_000));
        assert!(!looks_like_junit(&long_comment));
    }
}
