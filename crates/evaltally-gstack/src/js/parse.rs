//! `JSON.parse`, keeping JavaScript's key order and double-precision numbers.

use std::fmt;

use super::{JsObject, JsValue};

/// Arrays and objects nested deeper than this are refused rather than risking the stack.
const MAX_DEPTH: usize = 512;

/// Why a text is not JSON, and where (1-based line and column, in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What was wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

impl std::error::Error for ParseError {}

/// Parses a JSON text as `JSON.parse` does: the ECMA-404 grammar with no extensions,
/// numbers as correctly rounded doubles (`1e400` is `Infinity`), objects in JavaScript key
/// order. A string value with lone UTF-16 surrogates (`"\ud83d"`, which `JSON.stringify`
/// writes for a string cut mid-pair) becomes [`JsValue::Utf16`]; in object keys they
/// become U+FFFD.
///
/// ```
/// let v = evaltally_gstack::js::parse("[1, 2.50, \"a\"]").unwrap();
/// assert_eq!(v.to_pretty_string(), "[\n  1,\n  2.5,\n  \"a\"\n]");
/// let e = evaltally_gstack::js::parse("{\"a\": 1,}").unwrap_err();
/// assert_eq!((e.line, e.column), (1, 9));
/// ```
pub fn parse(text: &str) -> Result<JsValue, ParseError> {
    let mut p = Parser { text, bytes: text.as_bytes(), pos: 0, depth: 0 };
    p.skip_ws();
    let v = p.value()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error("unexpected text after the JSON value"));
    }
    Ok(v)
}

/// A string as parsed: UTF-8, or UTF-16 once a lone surrogate has been met.
enum Text {
    Utf8(String),
    Utf16(Vec<u16>),
}

impl Text {
    fn push_str(&mut self, s: &str) {
        match self {
            Text::Utf8(t) => t.push_str(s),
            Text::Utf16(u) => u.extend(s.encode_utf16()),
        }
    }

    fn push(&mut self, c: char) {
        match self {
            Text::Utf8(t) => t.push(c),
            Text::Utf16(u) => u.extend(c.encode_utf16(&mut [0; 2]).iter()),
        }
    }

    fn push_lone(&mut self, unit: u16) {
        if let Text::Utf8(t) = self {
            *self = Text::Utf16(t.encode_utf16().collect());
        }
        if let Text::Utf16(u) = self {
            u.push(unit);
        }
    }

    fn into_value(self) -> JsValue {
        match self {
            Text::Utf8(t) => JsValue::String(t),
            Text::Utf16(u) => JsValue::Utf16(u),
        }
    }

    fn into_lossy(self) -> String {
        match self {
            Text::Utf8(t) => t,
            Text::Utf16(u) => String::from_utf16_lossy(&u),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ParseError {
        let mut end = self.pos.min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &self.text[..end];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ParseError { message: message.to_string(), line, column }
    }

    fn unexpected(&self) -> ParseError {
        match self.text.get(self.pos..).and_then(|rest| rest.chars().next()) {
            Some(c) => self.error(&format!("unexpected character {c:?}")),
            None => self.error("unexpected end of input"),
        }
    }

    fn skip_ws(&mut self) {
        while matches!(self.bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.bytes.get(self.pos) == Some(&b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<JsValue, ParseError> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => self.string().map(Text::into_value),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", JsValue::Bool(true)),
            Some(b'f') => self.literal("false", JsValue::Bool(false)),
            Some(b'n') => self.literal("null", JsValue::Null),
            _ => Err(self.unexpected()),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<JsValue, ParseError>) -> Result<JsValue, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(&format!("arrays and objects nested deeper than {MAX_DEPTH}")));
        }
        self.depth += 1;
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn literal(&mut self, word: &str, v: JsValue) -> Result<JsValue, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.unexpected())
        }
    }

    fn object(&mut self) -> Result<JsValue, ParseError> {
        self.pos += 1;
        let mut o = JsObject::new();
        self.skip_ws();
        if self.eat(b'}') {
            return Ok(JsValue::Object(o));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.unexpected());
            }
            let key = self.string()?.into_lossy();
            self.skip_ws();
            if !self.eat(b':') {
                return Err(self.unexpected());
            }
            self.skip_ws();
            let v = self.value()?;
            o.insert(key, v);
            self.skip_ws();
            if self.eat(b'}') {
                return Ok(JsValue::Object(o));
            }
            if !self.eat(b',') {
                return Err(self.unexpected());
            }
        }
    }

    fn array(&mut self) -> Result<JsValue, ParseError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b']') {
            return Ok(JsValue::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            if self.eat(b']') {
                return Ok(JsValue::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.unexpected());
            }
        }
    }

    fn digits(&mut self) -> usize {
        let n = self.bytes[self.pos..].iter().take_while(|b| b.is_ascii_digit()).count();
        self.pos += n;
        n
    }

    fn number(&mut self) -> Result<JsValue, ParseError> {
        let start = self.pos;
        self.eat(b'-');
        if self.eat(b'0') {
            // No digits may follow a leading zero.
        } else if self.digits() == 0 {
            return Err(self.unexpected());
        }
        if self.eat(b'.') && self.digits() == 0 {
            return Err(self.unexpected());
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            if self.digits() == 0 {
                return Err(self.unexpected());
            }
        }
        // The grammar above is a subset of what `f64::from_str` reads, and it rounds
        // correctly, as `JSON.parse` does; out-of-range exponents give ±inf or ±0.
        let n: f64 = self.text[start..self.pos].parse().map_err(|_| self.error("invalid number"))?;
        Ok(JsValue::Number(n))
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let hex = self.bytes.get(self.pos..self.pos + 4).ok_or_else(|| self.error("unexpected end of input"))?;
        let mut n = 0;
        for &b in hex {
            let d = char::from(b).to_digit(16).ok_or_else(|| self.error("invalid \\u escape"))?;
            n = n * 16 + d;
        }
        self.pos += 4;
        Ok(n)
    }

    fn string(&mut self) -> Result<Text, ParseError> {
        self.pos += 1;
        let mut out = Text::Utf8(String::new());
        loop {
            let run = self.bytes[self.pos..].iter().take_while(|&&b| b != b'"' && b != b'\\' && b >= 0x20).count();
            // Runs stop only at ASCII bytes, so both ends are character boundaries.
            out.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run;
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let esc = self.bytes.get(self.pos).copied();
                    self.pos += 1;
                    match esc {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => match self.unicode_escape()? {
                            Ok(c) => out.push(c),
                            Err(unit) => out.push_lone(unit),
                        },
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("invalid escape"));
                        }
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unexpected end of input in a string")),
            }
        }
    }

    /// The character of a `\uXXXX` escape (after `\u`), joining a surrogate pair; a lone
    /// surrogate as `Err(unit)`.
    fn unicode_escape(&mut self) -> Result<Result<char, u16>, ParseError> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) && self.bytes[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xDC00..0xE000).contains(&second) {
                let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                return Ok(char::from_u32(c).ok_or(0xFFFD));
            }
            self.pos = save;
        }
        Ok(char::from_u32(first).ok_or_else(|| u16::try_from(first).unwrap_or(0xFFFD)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_is_strict() {
        for bad in ["", "01", "1.", ".5", "+1", "[1,]", "{\"a\" 1}", "'a'", "tru", "\"\t\"", "\"\\x\"", "1 2", "-"] {
            assert!(parse(bad).is_err(), "{bad:?} should not parse");
        }
        for good in ["0", "-0.5e-3", " [ ] ", "{\"\":{}}", "\"\\u00e9\\ud83d\\ude00\"", "1E+2"] {
            assert!(parse(good).is_ok(), "{good:?} should parse");
        }
    }

    #[test]
    fn surrogates_join_or_stay_lone() {
        assert_eq!(parse("\"\\ud83d\\ude00\"").unwrap(), JsValue::String("😀".into()));
        assert_eq!(parse("\"é\\ud83dx\"").unwrap(), JsValue::Utf16(vec![0xE9, 0xD83D, u16::from(b'x')]));
        assert_eq!(parse("\"\\ude00\\ud83d\"").unwrap(), JsValue::Utf16(vec![0xDE00, 0xD83D]));
        let v = parse("{\"k\\ud83d\": \"\\ud83d\"}").unwrap();
        assert_eq!(v.to_pretty_string(), "{\n  \"k\u{FFFD}\": \"\\ud83d\"\n}");
        assert_eq!(v.to_value(), serde_json::json!({"k\u{FFFD}": "\u{FFFD}"}));
    }

    #[test]
    fn numbers_are_doubles() {
        assert_eq!(parse("12345678901234567890").unwrap(), JsValue::Number(12_345_678_901_234_567_000.0));
        assert_eq!(parse("1e400").unwrap(), JsValue::Number(f64::INFINITY));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let e = parse(&deep).unwrap_err();
        assert!(e.message.contains("nested deeper"), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("{\n  \"a\": é\n}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert_eq!(e.to_string(), "unexpected character 'é' at line 2 column 8");
    }
}
