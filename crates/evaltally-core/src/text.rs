//! Text that came from an input file, made safe to print.
//!
//! Result files are written by programs we do not control, and their strings (test names,
//! suite names, error messages, run and model names, paths) reach a terminal, a log or a
//! CI job summary. One rule applies to all of them in text and Markdown output:
//!
//! * Characters that steer a terminal or reorder text are shown escaped, never written:
//!   the C0 controls, DEL, the C1 controls (U+0080–U+009F), the bidirectional embeddings,
//!   overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the line and paragraph
//!   separators (U+2028, U+2029). `\n`, `\r`, `\t` and `\0` are written as those two
//!   characters, everything else as `\u{1b}`, the way Rust's `{:?}` writes them (and the
//!   way `validate` quotes values in its findings). So `ESC[31m` prints as `\u{1b}[31m`.
//! * A URL's password is replaced by `***` (`postgres://user:***@host/db`, and the value of
//!   a `password=` query parameter), see [`redact_url_passwords`].
//! * Backslashes are written as they are: `\u{1b}` in a file and an escaped ESC print alike,
//!   which costs nothing in safety (neither steers the terminal) and keeps Windows paths and
//!   regular expressions readable.
//!
//! [`printable`] applies the rule to a value on one line (a raw newline or tab inside it is
//! escaped too, so it cannot break a table row); [`printable_block`] to free text shown as an
//! indented block (a traceback), keeping its line breaks and tabs. [`markdown_text`] and
//! [`markdown_code`] add what Markdown needs on top. JSON output needs none of this: serde
//! writes every string exactly, escaped as JSON.
//!
//! ```
//! use evaltally_core::text::{printable, printable_block};
//! assert_eq!(printable("\u{1b}[31mred\u{1b}[0m"), "\\u{1b}[31mred\\u{1b}[0m");
//! assert_eq!(printable("two\nlines\r"), "two\\nlines\\r");
//! assert_eq!(printable("plain_test_3"), "plain_test_3");
//! assert_eq!(printable_block("Traceback:\r\n\tline 1\u{7}"), "Traceback:\n\tline 1\\u{7}");
//! ```

use std::borrow::Cow;
use std::fmt::{self, Write as _};

/// Whether `c` is shown escaped by [`printable`]: a control character (C0, DEL, C1), a
/// bidirectional embedding, override or isolate, or a line or paragraph separator.
///
/// ```
/// use evaltally_core::text::is_unsafe;
/// assert!(is_unsafe('\u{1b}') && is_unsafe('\n') && is_unsafe('\u{9b}') && is_unsafe('\u{202e}'));
/// assert!(!is_unsafe('a') && !is_unsafe('é') && !is_unsafe('→') && !is_unsafe('\u{200d}'));
/// ```
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

fn escape_char(c: char, out: &mut impl fmt::Write) -> fmt::Result {
    match c {
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        '\0' => out.write_str("\\0"),
        c => write!(out, "\\u{{{:x}}}", u32::from(c)),
    }
}

/// Writes `s` with every [`is_unsafe`] character escaped, except those `keep` accepts.
fn write_escaped(s: &str, keep: fn(char) -> bool, out: &mut impl fmt::Write) -> fmt::Result {
    let mut rest = s;
    while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_unsafe(c) && !keep(c)) {
        out.write_str(&rest[..at])?;
        escape_char(c, out)?;
        rest = &rest[at + c.len_utf8()..];
    }
    out.write_str(rest)
}

fn escaped(s: &str, keep: fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let _ = write_escaped(s, keep, &mut out);
    Cow::Owned(out)
}

fn keep_none(_: char) -> bool {
    false
}

fn keep_layout(c: char) -> bool {
    matches!(c, '\n' | '\t')
}

/// A value from an input, for one line of text output: URL passwords redacted, every
/// [`is_unsafe`] character escaped (newlines and tabs included). Borrows when there is
/// nothing to change.
///
/// ```
/// use evaltally_core::text::printable;
/// assert_eq!(printable("t1\u{1b}]0;title\u{7}"), "t1\\u{1b}]0;title\\u{7}");
/// assert_eq!(printable("a\u{202e}b"), "a\\u{202e}b");
/// assert_eq!(printable("postgres://u:secret@db/x"), "postgres://u:***@db/x");
/// ```
pub fn printable(s: &str) -> Cow<'_, str> {
    match redact_url_passwords(s) {
        Cow::Borrowed(s) => escaped(s, keep_none),
        Cow::Owned(s) => Cow::Owned(escaped(&s, keep_none).into_owned()),
    }
}

/// Free text from an input shown as an indented block of lines (an error message, a
/// prompt): like [`printable`], but line breaks (`\n`, and `\r\n` turned into `\n`) and tabs
/// are kept for the layout to place.
///
/// ```
/// use evaltally_core::text::printable_block;
/// assert_eq!(printable_block("a\r\nb\rc\u{1b}[2J"), "a\nb\\rc\\u{1b}[2J");
/// ```
pub fn printable_block(s: &str) -> Cow<'_, str> {
    let s = redact_url_passwords(s);
    let s = if s.contains("\r\n") { Cow::Owned(s.replace("\r\n", "\n")) } else { s };
    match s {
        Cow::Borrowed(s) => escaped(s, keep_layout),
        Cow::Owned(s) => Cow::Owned(escaped(&s, keep_layout).into_owned()),
    }
}

/// [`printable`] as a `Display` value, for `format!` arguments and padding
/// (`{:<20}` pads the escaped text).
///
/// ```
/// use evaltally_core::text::Printable;
/// assert_eq!(format!("[{:<8}]", Printable("a\tb")), "[a\\tb    ]");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Printable<'a>(pub &'a str);

impl fmt::Display for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&printable(self.0))
    }
}

/// Text from an input for Markdown, outside code spans (table cells, headings, list items):
/// [`printable`], then `\`, `|`, `` ` `` and `<` backslash-escaped, so a value can neither
/// end a table cell nor open a code span or an HTML tag.
///
/// ```
/// use evaltally_core::text::markdown_text;
/// assert_eq!(markdown_text("a|b"), "a\\|b");
/// assert_eq!(markdown_text("</details>"), "\\</details>");
/// assert_eq!(markdown_text("x\u{1b}[2J"), "x\\\\u{1b}[2J");
/// assert_eq!(markdown_text("simple_python"), "simple_python");
/// ```
pub fn markdown_text(s: &str) -> Cow<'_, str> {
    let p = printable(s);
    if !p.contains(['\\', '|', '`', '<']) {
        return p;
    }
    let mut out = String::with_capacity(p.len() + 8);
    for c in p.chars() {
        if matches!(c, '\\' | '|' | '`' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// Text from an input as a Markdown code span: [`printable`], fenced with one backtick more
/// than the longest run of backticks inside (padded with spaces when it starts or ends
/// with one), and, with `in_table`, `|` written `\|` so the span cannot end a table cell
/// (GitHub's tables read `\|` inside a code span as `|`).
///
/// ```
/// use evaltally_core::text::markdown_code;
/// assert_eq!(markdown_code("simple_3", true), "`simple_3`");
/// assert_eq!(markdown_code("a|b", true), "`a\\|b`");
/// assert_eq!(markdown_code("a|b", false), "`a|b`");
/// assert_eq!(markdown_code("x`y", false), "``x`y``");
/// assert_eq!(markdown_code("`x", false), "`` `x ``");
/// assert_eq!(markdown_code("\u{1b}[31m", false), "`\\u{1b}[31m`");
/// ```
pub fn markdown_code(s: &str, in_table: bool) -> String {
    let p = printable(s);
    let body = if in_table && p.contains('|') { Cow::Owned(p.replace('|', "\\|")) } else { p };
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    if body.is_empty() {
        return "` `".to_string();
    }
    let fence = "`".repeat(longest + 1);
    let pad = if body.starts_with('`') || body.ends_with('`') { " " } else { "" };
    let mut out = String::with_capacity(body.len() + 2 * fence.len() + 2);
    let _ = write!(out, "{fence}{pad}{body}{pad}{fence}");
    out
}

/// `s` with the password of every URL in it replaced by `***`: the password in the user
/// information (`scheme://user:password@host`) and the value of a query parameter whose name
/// ends in `password` (`?password=…`, `&sslpassword=…`, any case). Borrows when there is
/// nothing to change.
///
/// ```
/// use evaltally_core::text::redact_url_passwords;
/// assert_eq!(redact_url_passwords("postgres://user:s3cr@t@host:5432/db"), "postgres://user:***@host:5432/db");
/// assert_eq!(
///     redact_url_passwords("store postgresql://db/x?user=u&password=p&sslmode=require is down"),
///     "store postgresql://db/x?user=u&password=***&sslmode=require is down"
/// );
/// assert_eq!(redact_url_passwords("postgres://user@host/db"), "postgres://user@host/db");
/// assert_eq!(redact_url_passwords("no URL: a:b@c"), "no URL: a:b@c");
/// ```
pub fn redact_url_passwords(s: &str) -> Cow<'_, str> {
    if !s.contains("://") {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut changed = false;
    while let Some(sep) = rest.find("://") {
        let scheme_start = rest[..sep]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            .last()
            .map_or(sep, |(i, _)| i);
        let after = sep + 3;
        // The URL runs to the next whitespace (or a quote or bracket closing it).
        let end = rest[after..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>'))
            .map_or(rest.len(), |e| after + e);
        out.push_str(&rest[..after]);
        if scheme_start == sep {
            // `://` without a scheme before it: not a URL.
            rest = &rest[after..];
            continue;
        }
        let url = &rest[after..end];
        let (redacted, did) = redact_one(url);
        changed |= did;
        out.push_str(&redacted);
        rest = &rest[end..];
    }
    out.push_str(rest);
    if changed { Cow::Owned(out) } else { Cow::Borrowed(s) }
}

/// Redacts one URL, given without its `scheme://`.
fn redact_one(url: &str) -> (String, bool) {
    let authority_end = url.find(['/', '?', '#']).unwrap_or(url.len());
    let authority = &url[..authority_end];
    let mut out = String::with_capacity(url.len());
    let mut changed = false;
    match authority.rfind('@').map(|at| (at, authority[..at].find(':'))) {
        Some((at, Some(colon))) => {
            out.push_str(&authority[..=colon]);
            out.push_str("***");
            out.push_str(&authority[at..]);
            changed = true;
        }
        _ => out.push_str(authority),
    }
    let tail = &url[authority_end..];
    match tail.find('?') {
        None => out.push_str(tail),
        Some(q) => {
            out.push_str(&tail[..=q]);
            let query = &tail[q + 1..];
            let (query, fragment) = query.split_at(query.find('#').unwrap_or(query.len()));
            for (i, pair) in query.split('&').enumerate() {
                if i > 0 {
                    out.push('&');
                }
                match pair.split_once('=') {
                    Some((key, value)) if key.to_ascii_lowercase().ends_with("password") && !value.is_empty() => {
                        out.push_str(key);
                        out.push_str("=***");
                        changed = true;
                    }
                    _ => out.push_str(pair),
                }
            }
            out.push_str(fragment);
        }
    }
    (out, changed)
}

/// A count and its noun for a message, `s` added but for one.
///
/// ```
/// use evaltally_core::text::plural;
/// assert_eq!(plural(1, "run"), "1 run");
/// assert_eq!(plural(3, "JSON value"), "3 JSON values");
/// ```
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// What every adapter says, once per file, of token counts it leaves out of the sums
/// because no count can be them: `n` of its `noun`s have one, `why` says what such a value
/// is in the format, `first` names the first.
///
/// ```
/// use evaltally_core::text::tokens_left_out;
/// assert_eq!(
///     tokens_left_out(2, "test", "negative, or past 2^64", "`a`'s `input_token_count`"),
///     "2 tests have a token count that is no count (negative, or past 2^64; first: `a`'s \
///      `input_token_count`): left out of the token sums"
/// );
/// ```
pub fn tokens_left_out(n: usize, noun: &str, why: &str, first: &str) -> String {
    format!(
        "{} {} a token count that is no count ({why}; first: {first}): left out of the token sums",
        plural(n, noun),
        if n == 1 { "has" } else { "have" }
    )
}

/// What `show` says, once per file, of the shown test's token counts that are no count
/// ([`tokens_left_out`]), which it shows as `-`: `n` of them, `first` names the first, `why`
/// says what such a value is in the format.
///
/// ```
/// use evaltally_core::text::token_not_shown;
/// let why = "negative, or past 2^64";
/// assert_eq!(
///     token_not_shown(1, "`a`'s `input_token_count`", why),
///     "`a`'s `input_token_count` is no count (negative, or past 2^64): shown as `-`"
/// );
/// assert_eq!(
///     token_not_shown(2, "`a`'s `input_token_count`", why),
///     "2 token counts are no count (negative, or past 2^64; first: `a`'s `input_token_count`): shown as `-`"
/// );
/// ```
pub fn token_not_shown(n: usize, first: &str, why: &str) -> String {
    if n == 1 {
        format!("{first} is no count ({why}): shown as `-`")
    } else {
        format!("{n} token counts are no count ({why}; first: {first}): shown as `-`")
    }
}

/// A list for a message: `shown` joined with `, `, then ` and N more` when `total` is more
/// than were shown.
///
/// ```
/// use evaltally_core::text::and_more;
/// assert_eq!(and_more(&["a".into(), "b".into()], 5), "a, b and 3 more");
/// assert_eq!(and_more(&["a".into()], 1), "a");
/// ```
pub fn and_more(shown: &[String], total: usize) -> String {
    let list = shown.join(", ");
    if total > shown.len() { format!("{list} and {} more", total - shown.len()) } else { list }
}

/// The first `n` of `items` for a message, then how many more: [`and_more`] of a prefix.
///
/// ```
/// use evaltally_core::text::first_of;
/// let items: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
/// assert_eq!(first_of(&items, 2), "a, b and 1 more");
/// assert_eq!(first_of(&items, 6), "a, b, c");
/// ```
pub fn first_of(items: &[String], n: usize) -> String {
    and_more(&items[..items.len().min(n)], items.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unsafe_class_is_escaped_and_nothing_else() {
        for c in ['\0', '\u{7}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{7f}', '\u{80}', '\u{9b}'] {
            let shown = printable(&c.to_string()).into_owned();
            assert!(shown.starts_with('\\') && shown.is_ascii(), "{c:?} → {shown}");
        }
        for c in ['\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{2028}', '\u{2029}'] {
            assert_eq!(printable(&c.to_string()), format!("\\u{{{:x}}}", u32::from(c)));
        }
        for s in ["", "simple_python_10", "Weather > What's up?", "é → ✅", "C:\\x\\y", "a\u{200d}b", "\u{a0}"] {
            assert!(matches!(printable(s), Cow::Borrowed(_)), "{s:?}");
        }
    }

    #[test]
    fn escaped_text_holds_no_control_character() {
        let hostile = "\u{1b}[31m\u{1b}]0;title\u{7}\u{1b}[2J\n\r\t\u{85}\u{9b}2J\u{202e}";
        assert!(!printable(hostile).chars().any(is_unsafe));
        assert!(!printable_block(hostile).chars().any(|c| is_unsafe(c) && !matches!(c, '\n' | '\t')));
        assert!(!markdown_text(hostile).chars().any(is_unsafe));
        assert!(!markdown_code(hostile, true).chars().any(is_unsafe));
    }

    #[test]
    fn urls_lose_their_passwords_only() {
        let cases = [
            ("postgres://user:pw@host/db", "postgres://user:***@host/db"),
            ("postgresql://user:pw@host", "postgresql://user:***@host"),
            ("x+y://a:b@c?d=e#f", "x+y://a:***@c?d=e#f"),
            ("https://host/path?Password=p#frag", "https://host/path?Password=***#frag"),
            ("a postgres://u:p@h/d and mysql://v:q@i/e", "a postgres://u:***@h/d and mysql://v:***@i/e"),
            ("https://host/a:b@c", "https://host/a:b@c"),
            ("://u:p@h", "://u:p@h"),
            ("postgres://:p@h", "postgres://:***@h"),
            ("file:///tmp/x", "file:///tmp/x"),
            ("see \"postgres://u:p@h\"", "see \"postgres://u:***@h\""),
        ];
        for (given, want) in cases {
            assert_eq!(redact_url_passwords(given), want, "{given}");
        }
    }

    #[test]
    fn markdown_code_spans_survive_backticks() {
        assert_eq!(markdown_code("a``b", false), "```a``b```");
        assert_eq!(markdown_code("", false), "` `");
    }
}
