//! Python literals as `str()` writes them: what lighteval 0.4 – 0.7 put in every details
//! column (`"{'acc': 1, 'acc_norm': 0.0}"`, `"[(-12.3, False), (-9.1, True)]"`, `"None"`).
//!
//! More than `ast.literal_eval` takes, because the writer's values are not all literals: a
//! float that is not a number (`nan`, `inf`), a NumPy scalar (`np.float64(0.5)`, NumPy 2's
//! repr) read as its value, and any other object (`GenerativeCorpusMetricInput(golds=[…],
//! preds=[…])`, the input of a corpus metric) kept as its repr, [`Val::Object`], so that
//! one such value does not lose the rest of the dict.

use crate::val::Val;

/// How deep containers may nest before the text is refused (no writer nests more than a
/// few levels; this bounds the recursion on damaged text).
const MAX_DEPTH: usize = 64;

/// The value `text` writes, or why it is not a Python literal (a message with the byte
/// offset).
pub(crate) fn parse(text: &str) -> Result<Val, String> {
    let mut p = Parser { s: text.as_bytes(), at: 0, depth: 0 };
    let v = p.value()?;
    p.ws();
    if p.at < p.s.len() {
        return Err(p.err("text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("{what} at character {}", self.at + 1)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Val, String> {
        self.ws();
        let Some(c) = self.peek() else { return Err(self.err("a value expected")) };
        match c {
            b'{' | b'[' | b'(' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(self.err("containers nested too deep"));
                }
                self.at += 1;
                let v = match c {
                    b'{' => self.dict_or_set(),
                    b'[' => self.items(b']').map(Val::List),
                    _ => self.tuple(),
                };
                self.depth -= 1;
                v
            }
            b'\'' | b'"' => self.strings(),
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            c if c.is_ascii_alphabetic() || c == b'_' => self.name(),
            _ => Err(self.err("not a Python literal")),
        }
    }

    /// Items up to `close`, a trailing comma allowed.
    fn items(&mut self, close: u8) -> Result<Vec<Val>, String> {
        let mut out = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(out);
            }
            out.push(self.value()?);
            if !self.eat(b',') {
                return if self.eat(close) { Ok(out) } else { Err(self.err("`,` or a closing bracket expected")) };
            }
        }
    }

    /// `(x)` is `x`; `()`, `(x,)`, `(x, y)` are tuples, read as lists.
    fn tuple(&mut self) -> Result<Val, String> {
        if self.eat(b')') {
            return Ok(Val::List(Vec::new()));
        }
        let first = self.value()?;
        if self.eat(b')') {
            return Ok(first);
        }
        if !self.eat(b',') {
            return Err(self.err("`,` or `)` expected"));
        }
        let mut rest = self.items(b')')?;
        rest.insert(0, first);
        Ok(Val::List(rest))
    }

    /// A dict (keys as text: a string key as it is, any other as Python prints it), or a
    /// set, read as a list.
    fn dict_or_set(&mut self) -> Result<Val, String> {
        if self.eat(b'}') {
            return Ok(Val::Map(Vec::new()));
        }
        let first = self.value()?;
        if !self.eat(b':') {
            let mut rest = if self.eat(b',') {
                self.items(b'}')?
            } else if self.eat(b'}') {
                Vec::new()
            } else {
                return Err(self.err("`:`, `,` or `}` expected"));
            };
            rest.insert(0, first);
            return Ok(Val::List(rest));
        }
        let mut out = vec![(key_text(first), self.value()?)];
        loop {
            if !self.eat(b',') {
                return if self.eat(b'}') { Ok(Val::Map(out)) } else { Err(self.err("`,` or `}` expected")) };
            }
            if self.eat(b'}') {
                return Ok(Val::Map(out));
            }
            let key = self.value()?;
            if !self.eat(b':') {
                return Err(self.err("`:` expected"));
            }
            out.push((key_text(key), self.value()?));
        }
    }

    /// One or more adjacent string literals, joined as Python joins them.
    fn strings(&mut self) -> Result<Val, String> {
        let mut out = String::new();
        loop {
            self.ws();
            let start = self.at;
            // Prefixes: r, b, u, f and their pairs.
            while self.peek().is_some_and(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f')) {
                self.at += 1;
            }
            let prefix = &self.s[start..self.at];
            let Some(q @ (b'\'' | b'"')) = self.peek() else {
                self.at = start;
                break;
            };
            let raw = prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'r'));
            let triple = self.s[self.at..].starts_with(&[q, q, q]);
            self.at += if triple { 3 } else { 1 };
            self.string_body(q, triple, raw, &mut out)?;
            if !self.lookahead_string() {
                break;
            }
        }
        Ok(Val::Text(out))
    }

    /// Whether a string literal follows (for adjacent literals).
    fn lookahead_string(&self) -> bool {
        let mut at = self.at;
        while self.s.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        while self.s.get(at).is_some_and(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f')) {
            at += 1;
        }
        matches!(self.s.get(at), Some(b'\'' | b'"'))
    }

    fn string_body(&mut self, q: u8, triple: bool, raw: bool, out: &mut String) -> Result<(), String> {
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else { return Err(self.err("a string not closed")) };
            if c == q && (!triple || self.s[self.at..].starts_with(&[q, q, q])) {
                self.at += if triple { 3 } else { 1 };
                break;
            }
            self.at += 1;
            if c != b'\\' || raw {
                bytes.push(c);
                continue;
            }
            let Some(e) = self.peek() else { return Err(self.err("a string not closed")) };
            self.at += 1;
            match e {
                b'n' => bytes.push(b'\n'),
                b't' => bytes.push(b'\t'),
                b'r' => bytes.push(b'\r'),
                b'0' => bytes.push(0),
                b'a' => bytes.push(7),
                b'b' => bytes.push(8),
                b'f' => bytes.push(12),
                b'v' => bytes.push(11),
                b'\n' => {}
                b'x' => self.hex_escape(2, &mut bytes)?,
                b'u' => self.hex_escape(4, &mut bytes)?,
                b'U' => self.hex_escape(8, &mut bytes)?,
                other => bytes.push(other),
            }
        }
        out.push_str(&String::from_utf8_lossy(&bytes));
        Ok(())
    }

    fn hex_escape(&mut self, digits: usize, bytes: &mut Vec<u8>) -> Result<(), String> {
        let hex = self.s.get(self.at..self.at + digits).ok_or_else(|| self.err("a cut escape"))?;
        let code = std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("a bad escape"))?;
        self.at += digits;
        let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        let mut buf = [0u8; 4];
        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    fn number(&mut self) -> Result<Val, String> {
        let start = self.at;
        if let Some(sign @ (b'-' | b'+')) = self.peek() {
            let negative = sign == b'-';
            self.at += 1;
            self.ws();
            if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                return match self.name()? {
                    Val::Float(f) => Ok(Val::Float(if negative { -f } else { f })),
                    Val::Int(i) => Ok(Val::Int(if negative { -i } else { i })),
                    _ => Err(self.err("a sign before something that is not a number")),
                };
            }
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'_'))
            || (self.peek().is_some_and(|c| matches!(c, b'-' | b'+'))
                && matches!(self.s.get(self.at.wrapping_sub(1)), Some(b'e' | b'E')))
        {
            self.at += 1;
        }
        let text: String = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("").replace(['_', ' '], "");
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Val::Int(i));
        }
        text.parse::<f64>().map(Val::Float).map_err(|_| self.err("not a number"))
    }

    /// A name: `True`, `False`, `None`, `nan`, `inf`, a NumPy scalar's value
    /// (`np.float64(0.5)`, `np.True_`), or an object's repr kept as it is.
    fn name(&mut self) -> Result<Val, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.') {
            self.at += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        let last = name.rsplit('.').next().unwrap_or(name);
        let plain = match last {
            "True" | "True_" => Some(Val::Bool(true)),
            "False" | "False_" => Some(Val::Bool(false)),
            "None" => Some(Val::Null),
            "nan" | "NaN" => Some(Val::Float(f64::NAN)),
            "inf" | "Infinity" => Some(Val::Float(f64::INFINITY)),
            _ => None,
        };
        self.ws();
        if self.peek() != Some(b'(') {
            return plain.ok_or_else(|| self.err(&format!("`{name}`, a name that is no literal")));
        }
        // A call: a NumPy scalar of one literal is that literal, anything else an object.
        let args_at = self.at;
        self.at += 1;
        let numpy = matches!(name.split('.').next(), Some("np" | "numpy"))
            || last.starts_with("float")
            || last.starts_with("int");
        if numpy
            && let Ok(v) = self.value()
            && self.eat(b')')
            && matches!(v, Val::Int(_) | Val::Float(_) | Val::Bool(_))
        {
            return Ok(v);
        }
        self.at = args_at;
        self.skip_balanced()?;
        Ok(Val::Object(String::from_utf8_lossy(&self.s[start..self.at]).into_owned()))
    }

    /// Skips a bracketed group, strings inside it skipped whole.
    fn skip_balanced(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    self.at += 1;
                }
                b')' | b']' | b'}' => {
                    self.at += 1;
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(());
                    }
                }
                b'\'' | b'"' => {
                    let mut ignored = String::new();
                    let triple = self.s[self.at..].starts_with(&[c, c, c]);
                    self.at += if triple { 3 } else { 1 };
                    self.string_body(c, triple, false, &mut ignored)?;
                }
                _ => self.at += 1,
            }
        }
        Err(self.err("a call not closed"))
    }
}

/// A dict key as text: a string as it is, anything else as Python would print it.
fn key_text(key: Val) -> String {
    match key {
        Val::Text(s) | Val::Object(s) => s,
        other => other.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, Val)]) -> Val {
        Val::Map(pairs.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect())
    }

    #[test]
    fn the_reprs_lighteval_wrote() {
        assert_eq!(
            parse("{'acc': 1, 'acc_norm': 0.0}").unwrap(),
            map(&[("acc", Val::Int(1)), ("acc_norm", Val::Float(0.0))])
        );
        assert_eq!(
            parse("[(-12.3, False), (-9.1, True)]").unwrap(),
            Val::List(vec![
                Val::List(vec![Val::Float(-12.3), Val::Bool(false)]),
                Val::List(vec![Val::Float(-9.1), Val::Bool(true)])
            ])
        );
        assert_eq!(parse("None").unwrap(), Val::Null);
        assert_eq!(parse("[1]").unwrap(), Val::List(vec![Val::Int(1)]));
        assert_eq!(
            parse("['it\\'s', \"a \\\"b\\\"\\n\"]").unwrap(),
            Val::List(vec![Val::Text("it's".into()), Val::Text("a \"b\"\n".into())])
        );
        assert_eq!(
            parse("{'extractive_match': np.float64(1.0)}").unwrap(),
            map(&[("extractive_match", Val::Float(1.0))])
        );
        assert_eq!(parse("{'x': nan, 'y': -inf}").unwrap().get("y"), Some(&Val::Float(f64::NEG_INFINITY)));
        assert_eq!(parse("(1)").unwrap(), Val::Int(1));
        assert_eq!(parse("{1, 2}").unwrap(), Val::List(vec![Val::Int(1), Val::Int(2)]));
        assert_eq!(parse("'caf\\xe9' 'x'").unwrap(), Val::Text("caféx".into()));
        assert_eq!(parse("1e-05").unwrap(), Val::Float(1e-5));
    }

    #[test]
    fn an_object_is_kept_whole_and_the_rest_read() {
        let v = parse("{'bleu': GenerativeCorpusMetricInput(golds=['a)'], preds=['b']), 'em': 1}").unwrap();
        assert_eq!(v.get("bleu"), Some(&Val::Object("GenerativeCorpusMetricInput(golds=['a)'], preds=['b'])".into())));
        assert_eq!(v.get("em"), Some(&Val::Int(1)));
    }

    #[test]
    fn damaged_text_is_an_error_not_a_panic() {
        for bad in
            ["", "{'acc': 1", "{'acc' 1}", "[1 2]", "'open", "{'a': foo}", "\\", "-", "np.float64(", "{(", "'\\x4'"]
        {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).is_err());
    }
}
