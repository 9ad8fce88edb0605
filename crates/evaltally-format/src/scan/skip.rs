//! Skipping a JSON string or container without building it.
//!
//! Containers are walked 64 bytes at a time: SIMD compares give bit masks of quotes,
//! backslashes and brackets; backslash runs give the escaped bytes (simdjson's method),
//! unescaped quotes the bytes inside strings (by prefix parity), and brackets outside
//! strings the nesting depth. A block whose closing brackets cannot bring the depth to zero
//! is passed over whole. The last partial block goes byte by byte.

use super::ScanError;
use crate::sixteen::Chunk;

/// `b[i]` is `"`; returns the offset just past the closing quote.
///
/// Most strings a scan crosses are keys and short values: their first 64 bytes are searched
/// 16 at a time in place ([`Chunk`]: SSE2 on x86-64; escapes stepped over without leaving
/// the loop), and `memchr2` takes over for a long string.
#[inline]
pub(super) fn skip_string(b: &[u8], i: usize) -> Result<usize, ScanError> {
    let mut j = i + 1;
    let near = j + 64;
    while j < near {
        let Some(chunk) = b.get(j..).and_then(<[u8]>::first_chunk::<16>) else { break };
        match first_quote_or_backslash(chunk) {
            None => j += 16,
            Some(k) if chunk[k] == b'"' => return Ok(j + k + 1),
            Some(k) => j += k + 2, // skip the escaped byte
        }
    }
    skip_string_far(b, j)
}

/// The rest of a string from `b[j]` on, past its first 64 bytes or near the end of `b`:
/// out of line, so that the short strings' loop inlines into its callers without it.
///
/// Long strings (a program, a transcript) are full of escapes (`\n`, `\"`), so they are
/// searched 64 bytes at a time with bit masks, as containers are: the escaped bytes of a
/// block come from its backslash runs ([`escaped_bytes`]), and its first quote not escaped
/// ends the string. The last partial block goes byte by byte.
#[inline(never)]
fn skip_string_far(b: &[u8], j: usize) -> Result<usize, ScanError> {
    let (j, escaped) = match string_blocks(b, j) {
        Ok(end) => return Ok(end),
        Err(tail) => tail,
    };
    string_end_bytewise(b, j, escaped).ok_or_else(|| ScanError::at(b.len(), "a closing `\"` (the string is cut short)"))
}

/// The offset just past the closing quote of a string whose bytes go on at `b[j]` (escaped
/// when `escaped`), one byte at a time: for the last partial block, and the reference the
/// block path is tested against.
fn string_end_bytewise(b: &[u8], j: usize, mut escaped: bool) -> Option<usize> {
    for (k, &c) in b.get(j..).unwrap_or_default().iter().enumerate() {
        if escaped {
            escaped = false;
        } else if c == b'\\' {
            escaped = true;
        } else if c == b'"' {
            return Some(j + k + 1);
        }
    }
    None
}

/// Whole blocks of a string's bytes from `j` (not an escaped byte): `Ok(end)` just past
/// its closing quote, or `Err((tail, escaped))` with the offset of the last partial block
/// and whether its first byte is escaped.
#[allow(clippy::inline_always)]
#[inline(always)]
fn string_blocks_with(b: &[u8], mut j: usize, masks: impl Fn(&[u8; 64]) -> Masks) -> Result<usize, (usize, bool)> {
    let mut carry = 0;
    while let Some(block) = b.get(j..).and_then(<[u8]>::first_chunk::<64>) {
        let m = masks(block);
        let escaped = if m.backslash == 0 && carry == 0 { 0 } else { escaped_bytes(m.backslash, &mut carry) };
        let quotes = m.quote & !escaped;
        if quotes != 0 {
            return Ok(j + quotes.trailing_zeros() as usize + 1);
        }
        j += 64;
    }
    Err((j, carry == 1))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1")]
fn string_blocks_avx2(b: &[u8], j: usize) -> Result<usize, (usize, bool)> {
    string_blocks_with(b, j, |block| masks_avx2(block))
}

/// Whole blocks of a string from `j`, with the widest compare the CPU has.
fn string_blocks(b: &[u8], j: usize) -> Result<usize, (usize, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi1") {
            // SAFETY: the CPU has AVX2 and BMI1 (checked just above).
            #[allow(unsafe_code)]
            return unsafe { string_blocks_avx2(b, j) };
        }
        string_blocks_with(b, j, masks_sse2)
    }
    #[cfg(not(target_arch = "x86_64"))]
    string_blocks_with(b, j, masks_portable)
}

/// The index of the first `"` or `\` among 16 bytes.
#[inline(always)]
#[allow(clippy::inline_always)]
fn first_quote_or_backslash(chunk: &[u8; 16]) -> Option<usize> {
    let c = Chunk::load(chunk);
    let hits = (c.eq(b'"') | c.eq(b'\\')).bits();
    if hits == 0 { None } else { Some(hits.trailing_zeros() as usize) }
}

/// Bit `k` is set where byte `k` of `chunk` cannot be in a number (see `is_number_byte`):
/// `0-9`, `+`, `-`, `.`, `e` and `E` can.
#[inline(always)]
#[allow(clippy::inline_always)]
pub(super) fn not_number_masks(chunk: &[u8; 16]) -> u32 {
    let c = Chunk::load(chunk);
    let number = c.within(b'-', b'9').and_not(c.eq(b'/')) | c.eq(b'+') | c.eq(b'e') | c.eq(b'E');
    !number.bits() & 0xFFFF
}

/// Bit masks of one 64-byte block: bit `k` is set where byte `k` is that character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Masks {
    quote: u64,
    backslash: u64,
    /// `{` or `[`.
    open: u64,
    /// `}` or `]`.
    close: u64,
}

/// The block's masks, 16 bytes per SSE2 compare (SSE2 is part of every x86-64 CPU).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code, clippy::cast_possible_wrap, clippy::cast_sign_loss, clippy::cast_possible_truncation)]
fn masks_sse2(block: &[u8; 64]) -> Masks {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    let mut m = Masks::default();
    // SAFETY: SSE2 is in the x86-64 baseline, so these intrinsics are available on every
    // CPU this code runs on; each `_mm_loadu_si128` reads the 16 bytes of one `chunk`
    // (no alignment needed).
    unsafe {
        let (quote, backslash) = (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8));
        let (open, close, fold) = (_mm_set1_epi8(b'{' as i8), _mm_set1_epi8(b'}' as i8), _mm_set1_epi8(0x20));
        for (i, chunk) in block.chunks_exact(16).enumerate() {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            // `[`/`{` and `]`/`}` differ only in bit 0x20.
            let folded = _mm_or_si128(v, fold);
            let shift = 16 * i;
            m.quote |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) as u16) << shift;
            m.backslash |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) as u16) << shift;
            m.open |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)) as u16) << shift;
            m.close |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)) as u16) << shift;
        }
    }
    m
}

/// The block's masks, 32 bytes per AVX2 compare. Only called after checking the CPU.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unsafe_code, clippy::cast_possible_wrap, clippy::cast_sign_loss, clippy::cast_possible_truncation)]
fn masks_avx2(block: &[u8; 64]) -> Masks {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    };
    let (quote, backslash) = (_mm256_set1_epi8(b'"' as i8), _mm256_set1_epi8(b'\\' as i8));
    let (open, close, fold) = (_mm256_set1_epi8(b'{' as i8), _mm256_set1_epi8(b'}' as i8), _mm256_set1_epi8(0x20));
    let mut m = Masks::default();
    for (i, chunk) in block.chunks_exact(32).enumerate() {
        // SAFETY: `chunk` is 32 readable bytes; `_mm256_loadu_si256` has no alignment
        // requirement.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let folded = _mm256_or_si256(v, fold);
        let shift = 32 * i;
        m.quote |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) as u32) << shift;
        m.backslash |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) as u32) << shift;
        m.open |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(folded, open)) as u32) << shift;
        m.close |= u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(folded, close)) as u32) << shift;
    }
    m
}

/// The block's masks, byte by byte (other architectures).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn masks_portable(block: &[u8; 64]) -> Masks {
    let mut m = Masks::default();
    for (k, &c) in block.iter().enumerate() {
        let bit = 1u64 << k;
        match c {
            b'"' => m.quote |= bit,
            b'\\' => m.backslash |= bit,
            b'{' | b'[' => m.open |= bit,
            b'}' | b']' => m.close |= bit,
            _ => {}
        }
    }
    m
}

/// Whole blocks from `j` with the given mask function: `Ok(end)` when the container
/// closes (offset just past it), `Err(tail)` with the offset of the last partial block.
///
/// Always inlined, so that the AVX2 entry point compiles the whole loop with AVX2.
#[allow(clippy::inline_always)]
#[inline(always)]
fn blocks_with(
    b: &[u8],
    mut j: usize,
    walk: &mut Walk,
    masks: impl Fn(&[u8; 64]) -> Masks,
    prefix: impl Fn(u64) -> u64,
) -> Result<usize, usize> {
    while let Some(block) = b.get(j..).and_then(<[u8]>::first_chunk::<64>) {
        if let Some(k) = walk.block(masks(block), &prefix) {
            return Ok(j + k + 1);
        }
        j += 64;
    }
    Err(j)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,pclmulqdq,popcnt,bmi1")]
fn blocks_avx2(b: &[u8], j: usize, walk: &mut Walk) -> Result<usize, usize> {
    blocks_with(b, j, walk, |block| masks_avx2(block), |x| prefix_xor_clmul(x))
}

/// [`prefix_xor`] in one carry-less multiplication by all ones (simdjson's way): bit `k`
/// of the product is the parity of bits `0..=k`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq")]
#[inline]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
fn prefix_xor_clmul(x: u64) -> u64 {
    use std::arch::x86_64::{_mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_set1_epi8};
    _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, x as i64), _mm_set1_epi8(-1), 0)) as u64
}

/// Whole blocks from `j`, with the widest compare the CPU has.
fn blocks(b: &[u8], j: usize, walk: &mut Walk) -> Result<usize, usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
        {
            // SAFETY: the CPU has AVX2, carry-less multiplication, POPCNT and BMI1 (every
            // CPU with AVX2 so far).
            #[allow(unsafe_code)]
            return unsafe { blocks_avx2(b, j, walk) };
        }
        blocks_with(b, j, walk, masks_sse2, prefix_xor)
    }
    #[cfg(not(target_arch = "x86_64"))]
    blocks_with(b, j, walk, masks_portable, prefix_xor)
}

/// Bit `k` is the parity of the set bits at positions `0..=k`: for a mask of quotes, the
/// bytes inside strings (opening quote included, closing quote not).
#[inline]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// The bytes escaped by a backslash: bit `k` is set when byte `k` follows an odd-length
/// run of backslashes (simdjson's odd-backslash-sequence method, Langdale & Lemire 2019).
/// `carry` says whether the previous block ended in such a run, and is updated for the
/// next block.
#[inline]
fn escaped_bytes(backslash: u64, carry: &mut u64) -> u64 {
    const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
    const ODD_BITS: u64 = !EVEN_BITS;
    let start_edges = backslash & !(backslash << 1);
    let even_start_mask = EVEN_BITS ^ *carry;
    let even_starts = start_edges & even_start_mask;
    let odd_starts = start_edges & !even_start_mask;
    let even_carries = backslash.wrapping_add(even_starts);
    let (odd_carries, overflow) = backslash.overflowing_add(odd_starts);
    let odd_carries = odd_carries | *carry;
    *carry = u64::from(overflow);
    let even_carry_ends = even_carries & !backslash;
    let odd_carry_ends = odd_carries & !backslash;
    (even_carry_ends & ODD_BITS) | (odd_carry_ends & EVEN_BITS)
}

/// Where a container skip stands between blocks.
struct Walk {
    depth: usize,
    in_string: bool,
    /// The previous byte was an unpaired backslash: the next byte is escaped.
    escaped: bool,
}

impl Walk {
    /// One byte at a time, for the last partial block (and the reference the block path
    /// is tested against). Returns true when the container closes at this byte.
    ///
    /// A backslash escapes the next byte wherever it stands, as in the block path (JSON
    /// allows backslashes only inside strings anyway).
    #[inline]
    fn byte(&mut self, c: u8) -> bool {
        if self.escaped {
            self.escaped = false;
            return false;
        }
        if c == b'\\' {
            self.escaped = true;
            return false;
        }
        if self.in_string {
            if c == b'"' {
                self.in_string = false;
            }
            return false;
        }
        match c {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth -= 1;
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }

    /// One 64-byte block, classified with bit masks: unescaped quotes give the in-string
    /// mask by prefix parity, brackets outside strings change the depth, and a block whose
    /// closing brackets cannot bring the depth to zero is passed over whole. Returns the
    /// offset in the block where the container closes.
    #[allow(clippy::inline_always)] // part of the loop `blocks_with` compiles per instruction set
    #[inline(always)]
    fn block(&mut self, m: Masks, prefix_xor: impl Fn(u64) -> u64) -> Option<usize> {
        let mut carry = u64::from(self.escaped);
        let escaped = if m.backslash == 0 && carry == 0 { 0 } else { escaped_bytes(m.backslash, &mut carry) };
        self.escaped = carry == 1;
        let quotes = m.quote & !escaped;
        let string_carry = if self.in_string { u64::MAX } else { 0 };
        let inside = prefix_xor(quotes) ^ string_carry;
        self.in_string = inside >> 63 == 1;
        let outside = !inside & !quotes & !escaped;
        let opens = m.open & outside;
        let closes = m.close & outside;
        if self.depth > closes.count_ones() as usize {
            self.depth = self.depth + opens.count_ones() as usize - closes.count_ones() as usize;
            return None;
        }
        let mut both = opens | closes;
        while both != 0 {
            let k = both.trailing_zeros() as usize;
            both &= both - 1;
            if opens >> k & 1 == 1 {
                self.depth += 1;
            } else {
                self.depth -= 1;
                if self.depth == 0 {
                    return Some(k);
                }
            }
        }
        None
    }
}

/// `b[i]` is `{` or `[`; returns the offset just past the bracket that closes it.
///
/// Brackets are counted, not matched by kind (`[}` closes): enough to find where a value
/// ends and to reject a value cut short. Deep nesting needs no recursion.
pub(super) fn skip_container(b: &[u8], i: usize) -> Result<usize, ScanError> {
    let mut walk = Walk { depth: 1, in_string: false, escaped: false };
    let j = match blocks(b, i + 1, &mut walk) {
        Ok(end) => return Ok(end),
        Err(tail) => tail,
    };
    // The last, partial block, byte by byte.
    let tail = b.get(j..).unwrap_or_default();
    match tail.iter().position(|&c| walk.byte(c)) {
        Some(k) => Ok(j + k + 1),
        None if walk.in_string => Err(ScanError::at(b.len(), "a closing `\"` (the string is cut short)")),
        None => Err(ScanError::at(b.len(), "a closing bracket (the value is cut short)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks of the best path this CPU has.
    fn test_masks(block: &[u8; 64]) -> Masks {
        #[cfg(target_arch = "x86_64")]
        {
            masks_sse2(block)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            masks_portable(block)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_and_sse2_masks_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut block = [0u8; 64];
        for (k, b) in block.iter_mut().enumerate() {
            *b = b"ab\"\\{}[];=x"[k * 7 % 11];
        }
        // SAFETY: the CPU has AVX2 (checked above).
        #[allow(unsafe_code)]
        let wide = unsafe { masks_avx2(&block) };
        assert_eq!(wide, masks_sse2(&block));
    }

    /// A small seeded generator (xorshift64) for the random inputs.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// The block path against the byte-at-a-time path on random bytes drawn from the
    /// characters that matter, at every block offset.
    #[test]
    fn blocks_agree_with_bytes() {
        fn bytewise(b: &[u8], i: usize) -> Option<usize> {
            let mut w = Walk { depth: 1, in_string: false, escaped: false };
            b[i + 1..].iter().position(|&c| w.byte(c)).map(|k| i + 1 + k + 1)
        }
        let alphabet = b"\"\\{}[]ab";
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..4000 {
            let len = 1 + usize::try_from(next() % 300).unwrap_or(0);
            let mut line = vec![b'['];
            line.extend((0..len).map(|_| alphabet[usize::try_from(next() % alphabet.len() as u64).unwrap_or(0)]));
            let expected = bytewise(&line, 0);
            let got = skip_container(&line, 0).ok();
            assert_eq!(got, expected, "round {round}: {}", String::from_utf8_lossy(&line));
        }
    }

    /// Long strings: the block path against the byte-at-a-time path, on random bytes drawn
    /// from quotes, backslashes and letters, for strings that end in every block and none.
    #[test]
    fn long_strings_end_where_bytes_say() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for round in 0..6000 {
            let len = 1 + usize::try_from(next() % 400).unwrap_or(0);
            // Few quotes (most strings run past a block or more), many backslashes, and
            // sometimes runs of them.
            let mut line = vec![b'"'];
            line.extend((0..len).map(|_| match next() % 40 {
                0 => b'"',
                1..=8 => b'\\',
                _ => b'a',
            }));
            let expected = string_end_bytewise(&line, 1, false);
            let got = skip_string(&line, 0).ok();
            assert_eq!(got, expected, "round {round}: {}", String::from_utf8_lossy(&line));
        }
    }

    #[test]
    fn escape_runs_across_blocks() {
        let mut carry = 0;
        // One backslash escapes the next byte; two escape each other and nothing after.
        assert_eq!(escaped_bytes(0b0001, &mut carry), 0b0010);
        assert_eq!(escaped_bytes(0b0011, &mut carry), 0);
        assert_eq!(carry, 0);
        // A run of three ending a block escapes the first byte of the next one.
        assert_eq!(escaped_bytes(0b111 << 61, &mut carry), 0);
        assert_eq!(carry, 1);
        assert_eq!(escaped_bytes(0, &mut carry) & 1, 1);
        assert_eq!(carry, 0);
    }

    #[test]
    fn block_masks_mark_each_character() {
        let mut block = [b'a'; 64];
        for (k, c) in [(0, b'"'), (15, b'\\'), (16, b'{'), (17, b'['), (40, b'}'), (63, b']')] {
            block[k] = c;
        }
        let m = test_masks(&block);
        assert_eq!(m, Masks { quote: 1, backslash: 1 << 15, open: 0b11 << 16, close: 1 << 40 | 1 << 63 });
        // Bytes that differ from a bracket only in bit 0x20 elsewhere are not brackets.
        assert_eq!(test_masks(&[b';'; 64]), Masks::default());
    }

    /// The word-at-a-time start of `skip_string` finds the closing quote (or an escape)
    /// wherever it falls, as a byte-by-byte walk does.
    #[test]
    fn strings_end_where_a_byte_walk_says() {
        fn by_bytes(b: &[u8]) -> Option<usize> {
            let mut j = 1;
            while j < b.len() {
                match b[j] {
                    b'"' => return Some(j + 1),
                    b'\\' => j += 2,
                    _ => j += 1,
                }
            }
            None
        }
        for len in 0..100 {
            for tail in [&b"\"x"[..], b"\\\"\"x", b"\\\\\"", b"\\u00e9\"", b"\\"] {
                let mut doc = vec![b'"'];
                doc.extend((0..len).map(|k| b"ab\xC3\xA9 c"[k % 6]));
                doc.extend_from_slice(tail);
                assert_eq!(skip_string(&doc, 0).ok(), by_bytes(&doc), "{len} {tail:?}");
            }
        }
        // Escapes every few bytes, then plain stretches long enough for `memchr2`, with the
        // end anywhere: a patch's `\n`s and a log's long lines.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..3000 {
            let mut doc = vec![b'"'];
            while doc.len() < 200 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let plain = usize::try_from(state % 50).unwrap_or(0);
                doc.extend(std::iter::repeat_n(b'p', plain));
                doc.extend_from_slice([&b"\\n"[..], b"\\\\", b"\\\""][usize::try_from(state >> 60).unwrap_or(0) % 3]);
            }
            let cut = 1 + usize::try_from(state >> 40).unwrap_or(0) % (doc.len() - 1);
            doc.truncate(cut);
            doc.extend_from_slice(b"\"tail");
            assert_eq!(skip_string(&doc, 0).ok(), by_bytes(&doc), "round {round}: {}", String::from_utf8_lossy(&doc));
        }
    }

    /// The 16-byte searches find what a byte walk finds, for every byte value in every
    /// position.
    #[test]
    fn sixteen_byte_searches_agree_with_bytes() {
        for c in 0..=255u8 {
            for fill in [b'a', b'7', b'e', b' ', b',', b'/', 0x00, 0x80, 0xff] {
                for pos in 0..=16 {
                    let mut chunk = [fill; 16];
                    if let Some(at) = chunk.get_mut(pos) {
                        *at = c;
                    }
                    let want = chunk.iter().position(|&x| x == b'"' || x == b'\\');
                    assert_eq!(first_quote_or_backslash(&chunk), want, "{c:#x} at {pos} among {fill:#x}");
                    let others = chunk
                        .iter()
                        .enumerate()
                        .fold(0, |m, (k, &x)| m | u32::from(!super::super::is_number_byte(x)) << k);
                    assert_eq!(not_number_masks(&chunk), others, "{c:#x} at {pos} among {fill:#x}");
                }
            }
        }
    }

    /// The carry-less multiplication gives the same parities as the shifts.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn carry_less_prefix_xor_agrees_with_shifts() {
        if !std::arch::is_x86_feature_detected!("pclmulqdq") {
            return;
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // SAFETY: the CPU has carry-less multiplication.
            #[allow(unsafe_code)]
            let clmul = unsafe { prefix_xor_clmul(x) };
            assert_eq!(clmul, prefix_xor(x), "{x:#x}");
        }
        for x in [0, 1, u64::MAX, 1 << 63] {
            #[allow(unsafe_code)]
            let clmul = unsafe { prefix_xor_clmul(x) };
            assert_eq!(clmul, prefix_xor(x));
        }
    }
}
