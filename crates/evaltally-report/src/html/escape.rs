//! Text made safe for the page: JSON inside a `<script>` element, text inside HTML.

use std::borrow::Cow;

use evaltally_core::text::printable;
use serde::Serialize;

/// `value` as JSON that can sit inside `<script type="application/json">`: `<`, `>` and `&`
/// are written as `\u003c`, `\u003e` and `\u0026` (they can only occur inside JSON strings,
/// where the escapes mean the same characters), so no text from a file can close the
/// element (`</script>`) or open a comment (`<!--`).
///
/// ```
/// # use evaltally_report::html::script_json;
/// let json = script_json(&["</script><script>alert(1)</script>"]).unwrap();
/// assert!(!json.contains('<'));
/// let back: Vec<String> = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, ["</script><script>alert(1)</script>"]);
/// ```
pub fn script_json(value: &impl Serialize) -> Result<String, serde_json::Error> {
    let json = serde_json::to_string(value)?;
    if !json.contains(['<', '>', '&']) {
        return Ok(json);
    }
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A value from an input as HTML text (element content or a quoted attribute):
/// [`printable`], then `&`, `<`, `>`, `"` and `'` as character references.
///
/// ```
/// # use evaltally_report::html::html_text;
/// assert_eq!(html_text("a<b & \"c\"\u{1b}"), "a&lt;b &amp; &quot;c&quot;\\u{1b}");
/// ```
pub fn html_text(s: &str) -> Cow<'_, str> {
    let p = printable(s);
    if !p.contains(['&', '<', '>', '"', '\'']) {
        return p;
    }
    let mut out = String::with_capacity(p.len() + 16);
    for c in p.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}
