//! JSON documents as pretty-printed text: `serde_json`'s layout (two-space indents, `": "`
//! after keys, empty containers as `[]` and `{}`), written with fewer, larger writes.
//!
//! `serde_json`'s own pretty formatter writes an indent as one two-byte write per level:
//! the tests of a stability report sit five levels deep, so most of its writes were
//! spaces. Here a line break and its indent are one write.

use std::io;

use serde_json::ser::Formatter;

/// Spaces for indents up to 32 levels deep; deeper ones take several writes.
const SPACES: &[u8; 66] = b",\n                                                                ";

/// `serde_json::ser::PrettyFormatter` with a two-space indent, byte for byte.
#[derive(Debug, Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    /// A line break (after a comma unless `first`) and the indent of the current depth.
    fn newline<W: ?Sized + io::Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        let start = usize::from(first);
        let mut indent = 2 * self.depth;
        let head = indent.min(SPACES.len() - 2);
        writer.write_all(&SPACES[start..2 + head])?;
        indent -= head;
        while indent > 0 {
            let n = indent.min(SPACES.len() - 2);
            writer.write_all(&SPACES[2..2 + n])?;
            indent -= n;
        }
        Ok(())
    }

    fn close<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline(writer, true)?;
        }
        writer.write_all(bracket)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.newline(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.newline(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// A JSON document as pretty-printed text with a final newline (an `{"error": …}` object in
/// the unlikely case it cannot be serialized).
pub(crate) fn pretty_json(doc: &impl serde::Serialize) -> String {
    let mut out = Vec::with_capacity(64 << 10);
    if let Err(e) = write_pretty(doc, &mut out) {
        return format!("{{\"error\": \"{e}\"}}\n");
    }
    // serde_json writes only valid UTF-8 (strings come from `str`, escapes are ASCII).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes [`pretty_json`]'s text to `out` as it is made (a caller that prints a large
/// document saves holding all of it).
pub(crate) fn write_pretty(doc: &impl serde::Serialize, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, Pretty::default());
    doc.serialize(&mut serializer)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::pretty_json;

    /// The same text as `serde_json::to_string_pretty`, at every depth (past the 32 levels
    /// one write covers too) and for empty containers.
    #[test]
    fn pretty_json_is_serde_jsons_layout() {
        let mut deep = serde_json::json!([1, {"a": []}, {}]);
        for i in 0..40 {
            deep = serde_json::json!({ "level": i, "inner": deep, "list": [i, "x\n\"y\"", null, 1.5, {}] });
        }
        let docs = [
            deep,
            serde_json::json!({}),
            serde_json::json!([]),
            serde_json::json!("text"),
            serde_json::json!({"models": [{"m": 1, "runs": ["a", "b"], "empty": {}, "none": []}]}),
        ];
        for doc in docs {
            assert_eq!(pretty_json(&doc), serde_json::to_string_pretty(&doc).unwrap() + "\n");
        }
    }
}
