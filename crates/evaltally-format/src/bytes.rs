//! Byte searches: [`lines`] of a whole file with `memchr`, and searches eight bytes at a
//! time in a plain `u64` (SWAR), for fast paths that look for one of a few bytes in short
//! stretches of text, where the set-up of a SIMD search costs more than the search.
//!
//! Each function sets bit 7 of every byte of the word that matches, and may also set it in
//! a byte *after* a match (a borrow carries upward); the lowest set bit is always exact, and
//! so is the lowest set bit of several results or-ed together. Callers take
//! [`first`] of the result.
//!
//! ```
//! use evaltally_format::bytes::{below, equal, first};
//! let w = u64::from_le_bytes(*b"ab\"c\td&e");
//! assert_eq!(first(equal(w, b'"')), Some(2));
//! assert_eq!(first(equal(w, b'&') | below(w, 0x20)), Some(4));
//! assert_eq!(first(equal(w, b'<')), None);
//! ```

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bit 7 of each byte of `w` that equals `c` (see the module documentation for what the
/// other bits mean).
#[inline(always)]
#[allow(clippy::inline_always)]
pub const fn equal(w: u64, c: u8) -> u64 {
    let x = w ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Bit 7 of each byte of `w` below `n`, for `n` at most 128 (see the module documentation
/// for what the other bits mean).
#[inline(always)]
#[allow(clippy::inline_always)]
pub const fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * n as u64) & !w & HIGHS
}

/// The index of the first byte a result of [`equal`] or [`below`] marks, if any.
#[inline(always)]
#[allow(clippy::inline_always)]
pub const fn first(hits: u64) -> Option<usize> {
    if hits == 0 { None } else { Some((hits.trailing_zeros() / 8) as usize) }
}

/// The 8 bytes at `at` as a little-endian word, or `None` when fewer remain.
#[inline(always)]
#[allow(clippy::inline_always)]
pub fn word(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..).and_then(<[u8]>::first_chunk::<8>).map(|w| u64::from_le_bytes(*w))
}

/// Whether `hay` holds `c`: eight bytes at a time in place for a short `hay` (a key, a
/// name, a label), where calling `memchr` costs more than the search; `memchr` for a long one.
///
/// ```
/// use evaltally_format::bytes::contains;
/// assert!(contains(br"a\b", b'\\'));
/// assert!(!contains(b"plain text, no escapes", b'\\'));
/// ```
#[inline]
pub fn contains(hay: &[u8], c: u8) -> bool {
    if hay.len() > 32 {
        return memchr::memchr(c, hay).is_some();
    }
    let mut words = hay.chunks_exact(8);
    for w in &mut words {
        if word(w, 0).is_some_and(|w| equal(w, c) != 0) {
            return true;
        }
    }
    words.remainder().contains(&c)
}

/// The lines of `bytes`, the pieces between `\n`s: what `bytes.split(|&b| b == b'\n')`
/// gives (an empty last piece after a final `\n`, one empty piece for empty `bytes`), found
/// with `memchr`, many bytes at a time, where `split` looks at one byte at a time. A `\r`
/// before the `\n` stays on the line.
///
/// ```
/// use evaltally_format::bytes::lines;
/// let pieces: Vec<&[u8]> = lines(b"{\"a\": 1}\r\n\n{}\n").collect();
/// assert_eq!(pieces, [&b"{\"a\": 1}\r"[..], b"", b"{}", b""]);
/// assert_eq!(lines(b"").count(), 1);
/// ```
pub fn lines(bytes: &[u8]) -> Lines<'_> {
    Lines { rest: Some(bytes) }
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    /// What is left to split; `None` once the last piece was given.
    rest: Option<&'a [u8]>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest?;
        if let Some(end) = memchr::memchr(b'\n', rest) {
            self.rest = Some(&rest[end + 1..]);
            Some(&rest[..end])
        } else {
            self.rest = None;
            Some(rest)
        }
    }
}

impl std::iter::FusedIterator for Lines<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same pieces as `split` at `\n`, on texts with newlines everywhere a line can
    /// have them, long lines (past `memchr`'s vector width) among them.
    #[test]
    fn lines_are_what_split_gives() {
        let long = "x".repeat(100);
        let texts = [
            String::new(),
            "\n".into(),
            "\n\n".into(),
            "a".into(),
            "a\n".into(),
            "\na".into(),
            "a\r\nb\n\nc".into(),
            format!("{long}\n{long}\n\n{long}"),
            format!("\n{long}\n"),
        ];
        for text in &texts {
            let bytes = text.as_bytes();
            let want: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            let got: Vec<&[u8]> = lines(bytes).collect();
            assert_eq!(got, want, "{text:?}");
            let mut it = lines(bytes);
            it.by_ref().for_each(drop);
            assert_eq!(it.next(), None, "{text:?}");
        }
    }

    /// Every byte value in every position, against a plain comparison.
    #[test]
    fn first_match_is_exact() {
        for c in 0..=255u8 {
            for fill in [0u8, b'a', 0x7f, 0x80, 0xff, c ^ 1, c.wrapping_add(1)] {
                for pos in 0..8 {
                    let mut bytes = [fill; 8];
                    bytes[pos] = c;
                    let w = u64::from_le_bytes(bytes);
                    let want = bytes.iter().position(|&x| x == c);
                    assert_eq!(first(equal(w, c)), want, "{c:#x} at {pos} among {fill:#x}");
                    for n in [1u8, 0x0e, 0x20, 0x80] {
                        let want = bytes.iter().position(|&x| x < n);
                        assert_eq!(first(below(w, n)), want, "below {n:#x}: {bytes:?}");
                    }
                }
            }
        }
    }

    /// Every length around the word and `memchr` boundaries, with `c` anywhere or nowhere.
    #[test]
    fn contains_agrees_with_a_byte_walk() {
        for len in 0..70 {
            for at in (0..len).map(Some).chain([None]) {
                let mut hay = vec![b'x'; len];
                if let Some(at) = at {
                    hay[at] = b'\\';
                }
                assert_eq!(contains(&hay, b'\\'), at.is_some(), "{len} {at:?}");
                assert!(!contains(&hay, b'"'), "{len}");
            }
        }
    }

    #[test]
    fn word_needs_eight_bytes() {
        assert_eq!(word(b"12345678", 0), Some(u64::from_le_bytes(*b"12345678")));
        assert_eq!(word(b"12345678", 1), None);
        assert_eq!(word(b"", 3), None);
    }
}
