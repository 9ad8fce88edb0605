//! Damaged bytes a fast path would otherwise cross in silence: invalid UTF-8 and raw control
//! characters, which no JSON document may hold (JSON's only raw whitespace is space, tab,
//! line feed and carriage return, and a string holds no raw character below U+0020).
//!
//! Fast paths skip the fields they do not need without reading them; this check looks at
//! every byte once, at memory speed (SIMD UTF-8 validation first, the exact place only when
//! a file is damaged), so a damaged line is never counted silently.
//!
//! ```
//! use evaltally_format::damage::{find, Damage};
//! assert!(find(b"{\"id\": \"a\"}\n", 10).is_empty());
//! let found = find(b"{\"id\": \"a\"}\n{\"id\": \"b\xff\"}\n{\"id\": \"c\x00\"}\n", 10);
//! assert_eq!(found, [Damage::InvalidUtf8 { offset: 21 }, Damage::Control { offset: 34, byte: 0 }]);
//! ```

use std::path::Path;

use evaltally_core::Diagnostic;

/// One damaged place in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// Bytes that are not UTF-8 start at `offset`.
    InvalidUtf8 {
        /// Byte offset in the file.
        offset: usize,
    },
    /// A raw control character (below 0x20, other than tab, line feed and carriage return).
    Control {
        /// Byte offset in the file.
        offset: usize,
        /// The byte.
        byte: u8,
    },
}

impl Damage {
    /// Where it is.
    pub fn offset(self) -> usize {
        match self {
            Damage::InvalidUtf8 { offset } | Damage::Control { offset, .. } => offset,
        }
    }
}

/// Bytes a JSON text may not hold raw: below 0x20, except tab, line feed, carriage return.
fn is_control(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')
}

/// The bytes tested at once for control characters.
const BLOCK: usize = 4096;

/// Whether `block` holds a control byte ([`is_control`]).
fn any_control(block: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            #[allow(unsafe_code)]
            let maybe = unsafe { may_have_control_avx2(block) };
            return maybe && block.iter().any(|&b| is_control(b));
        }
    }
    block.iter().any(|&b| is_control(b))
}

/// Whether `block` may hold a control byte, 32 bytes at a time, in four instructions per
/// 32 bytes: XOR with 0x0A maps a line feed to 0x00 (and keeps every byte from 0x20 up at
/// 0x20 or more), subtracting 1 (wrapping) sends it to 0xFF, so exactly the bytes below 0x20
/// other than line feed land at 0x1E or below; their minimum is kept over the block and
/// tested once. Tab and carriage return also land there: a block with one is checked byte
/// by byte ([`any_control`]), which allows them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code, clippy::cast_possible_wrap)]
fn may_have_control_avx2(block: &[u8]) -> bool {
    use std::arch::x86_64::{
        _mm256_add_epi8, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_set1_epi8, _mm256_xor_si256,
    };
    let line_feed = _mm256_set1_epi8(0x0A);
    let minus_one = _mm256_set1_epi8(-1);
    let mut low = _mm256_set1_epi8(-1);
    let chunks = block.chunks_exact(32);
    let tail = chunks.remainder();
    for chunk in chunks {
        // SAFETY: `chunk` is 32 readable bytes; `_mm256_loadu_si256` has no alignment
        // requirement.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        low = _mm256_min_epu8(low, _mm256_add_epi8(_mm256_xor_si256(v, line_feed), minus_one));
    }
    let limit = _mm256_set1_epi8(0x1E);
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(low, limit), limit)) != 0
        || tail.iter().any(|&b| b < 0x20 && b != b'\n')
}

/// Whether `bytes` hold a raw control character JSON forbids (below 0x20, except tab, line
/// feed and carriage return), tested a block at a time: for a fast path whose text is
/// already known to be UTF-8.
///
/// ```
/// assert!(evaltally_format::damage::has_control(b"{\"id\": \"a\x01\"}"));
/// assert!(!evaltally_format::damage::has_control(b"{\"id\":\t\"a\"}\r\n"));
/// ```
pub fn has_control(bytes: &[u8]) -> bool {
    bytes.chunks(BLOCK).any(any_control)
}

/// `bytes` as text when they are UTF-8 with no raw control character ([`find`] finds
/// nothing): what a fast path reads, leaving any other file to a tolerant reader.
///
/// ```
/// assert_eq!(evaltally_format::damage::clean_text(b"{\"a\": 1}\n"), Some("{\"a\": 1}\n"));
/// assert_eq!(evaltally_format::damage::clean_text(b"{\"a\": \"\x1b\"}"), None);
/// assert_eq!(evaltally_format::damage::clean_text(b"{\"a\": \"\xff\"}"), None);
/// ```
pub fn clean_text(bytes: &[u8]) -> Option<&str> {
    crate::utf8(bytes).filter(|_| !has_control(bytes))
}

/// The damaged places of `bytes`, in file order, at most `limit` of them.
pub fn find(bytes: &[u8], limit: usize) -> Vec<Damage> {
    let mut out = Vec::new();
    if simdutf8::basic::from_utf8(bytes).is_err() {
        let mut at = 0;
        while at < bytes.len() && out.len() < limit {
            match std::str::from_utf8(&bytes[at..]) {
                Ok(_) => break,
                Err(e) => {
                    let bad = at + e.valid_up_to();
                    out.push(Damage::InvalidUtf8 { offset: bad });
                    at = bad + e.error_len().unwrap_or(bytes.len() - bad).max(1);
                }
            }
        }
    }
    // Whole blocks are tested at once (with AVX2 where the CPU has it); only a block with a
    // control byte is looked at byte by byte.
    let mut controls = Vec::new();
    for (c, block) in bytes.chunks(BLOCK).enumerate() {
        if any_control(block) {
            for (i, &b) in block.iter().enumerate() {
                if is_control(b) && controls.len() < limit {
                    controls.push(Damage::Control { offset: c * BLOCK + i, byte: b });
                }
            }
            if controls.len() >= limit {
                break;
            }
        }
    }
    if !controls.is_empty() {
        out.extend(controls);
        out.sort_by_key(|d| d.offset());
        out.truncate(limit);
    }
    out
}

/// Counting stops here: a binary file given by mistake has damage everywhere.
const COUNTED: usize = 10_000;

/// The most damaged lines reported per file; the rest are counted in the last message.
pub const REPORTED: usize = 5;

/// A warning per damaged line of `path`'s `bytes` (at most [`REPORTED`], then one that
/// counts the rest), naming line and column of its first damaged place and saying what
/// `then` happens to the line.
///
/// ```
/// let w = evaltally_format::damage::warnings("r.json".as_ref(), b"{\"id\": \"a\xff\xfe\"}\n", "read");
/// assert_eq!(w[0].to_string(), "r.json:1:10: warning: bytes that are not UTF-8 (0xFF) and 1 more damaged place on the line; read");
/// ```
pub fn warnings(path: &Path, bytes: &[u8], then: &str) -> Vec<Diagnostic> {
    let found = find(bytes, COUNTED);
    // (line, column, first damage, places on the line)
    let mut lines: Vec<(u64, u64, Damage, usize)> = Vec::new();
    for d in &found {
        let (line, column) = crate::json::line_column(bytes, d.offset());
        match lines.last_mut() {
            Some(last) if last.0 == line => last.3 += 1,
            _ => lines.push((line, column, *d, 1)),
        }
    }
    let mut out: Vec<Diagnostic> = lines
        .iter()
        .take(REPORTED)
        .map(|&(line, column, d, places)| {
            let what = match d {
                Damage::InvalidUtf8 { offset } => format!("bytes that are not UTF-8 (0x{:02X})", bytes[offset]),
                Damage::Control { byte, .. } => format!("a raw control character (0x{byte:02X}), not valid JSON"),
            };
            let more = match places {
                1 => String::new(),
                2 => " and 1 more damaged place on the line".to_string(),
                n => format!(" and {} more damaged places on the line", n - 1),
            };
            Diagnostic::warning(path, format!("{what}{more}; {then}")).at(line, column)
        })
        .collect();
    if lines.len() > REPORTED {
        let more = lines.len() - REPORTED;
        let more = if found.len() == COUNTED { format!("{more} or more") } else { more.to_string() };
        out.push(Diagnostic::warning(path, format!("{more} more damaged lines not listed")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Damage, any_control, find, is_control};

    /// The wide test agrees with the byte-by-byte one, wherever the control byte falls
    /// (in a full 32-byte lane, in the tail) and whatever surrounds it (high bytes too).
    #[test]
    fn wide_and_plain_control_tests_agree() {
        let mut state: u32 = 12345;
        let mut next = || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (state >> 16).to_le_bytes()[0]
        };
        for len in [0, 1, 31, 32, 33, 63, 64, 65, 100, 4095, 4096] {
            for round in 0..40 {
                // Printable text with line ends, high bytes and (in half the rounds) tabs,
                // maybe one control byte.
                let with_tabs = round % 2 == 0;
                let mut block: Vec<u8> = (0..len)
                    .map(|_| match next() % 8 {
                        0 => b'\n',
                        1 if with_tabs => b'\t',
                        1 => b'x',
                        2 => 0x80 | next(),
                        _ => b' ' + next() % 90,
                    })
                    .collect();
                if len > 0 && next() % 2 == 0 {
                    let at = usize::from(next()) * len / 256;
                    block[at] = next() % 0x20;
                }
                assert_eq!(any_control(&block), block.iter().any(|&b| is_control(b)), "{block:?}");
            }
        }
    }

    #[test]
    fn every_place_is_found_in_order() {
        let mut bytes = vec![b'a'; 9000];
        bytes[10] = 0x1B;
        bytes[5000] = 0xFF;
        bytes[8999] = 0x00;
        assert_eq!(
            find(&bytes, 10),
            [
                Damage::Control { offset: 10, byte: 0x1B },
                Damage::InvalidUtf8 { offset: 5000 },
                Damage::Control { offset: 8999, byte: 0 }
            ]
        );
        assert_eq!(find(&bytes, 1).len(), 1);
    }
}
