//! Sixteen bytes classified at once, for fast paths that look for a few kinds of byte in
//! short stretches of text (a string's end, a name's, a number's): SSE2 compares on x86-64,
//! where SSE2 is part of every CPU, and a byte loop elsewhere, behind one safe interface.
//! Bit `k` of a [`Mask`] stands for byte `k` of the [`Chunk`].
//!
//! ```
//! use evaltally_format::sixteen::Chunk;
//! let c = Chunk::load(b"key\": 12, \"b\\\"c\"");
//! assert_eq!((c.eq(b'"') | c.eq(b'\\')).bits().trailing_zeros(), 3);
//! assert_eq!(c.within(b'0', b'9').bits(), 0b1100_0000);
//! assert_eq!(c.within(b'a', b'z').and_not(c.eq(b'e')).bits(), 0b101 | 1 << 11 | 1 << 14);
//! ```

#[cfg(target_arch = "x86_64")]
pub use simd::{Chunk, Mask};

#[cfg(not(target_arch = "x86_64"))]
pub use portable::{Chunk, Mask};

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code, clippy::inline_always, clippy::cast_possible_wrap, clippy::cast_sign_loss)]
mod simd {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_sub_epi8,
    };

    // SAFETY (every `unsafe` below): SSE2 is in the x86-64 baseline, so its intrinsics are
    // available on every CPU this code runs on; `_mm_loadu_si128` reads exactly the 16
    // bytes of the array it is given (no alignment needed).

    /// Sixteen bytes in one SSE2 register.
    #[derive(Clone, Copy, Debug)]
    #[must_use]
    pub struct Chunk(__m128i);

    /// One bit per byte of a [`Chunk`], kept in a register until [`Mask::bits`].
    #[derive(Clone, Copy, Debug)]
    #[must_use]
    pub struct Mask(__m128i);

    impl Chunk {
        /// The 16 bytes of `bytes`.
        #[inline(always)]
        pub fn load(bytes: &[u8; 16]) -> Self {
            Self(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
        }

        /// The bytes equal to `c`.
        #[inline(always)]
        pub fn eq(self, c: u8) -> Mask {
            Mask(unsafe { _mm_cmpeq_epi8(self.0, _mm_set1_epi8(c as i8)) })
        }

        /// The bytes in `from..=to`, compared unsigned.
        #[inline(always)]
        pub fn within(self, from: u8, to: u8) -> Mask {
            // `x - from`, wrapping, is at most `to - from` exactly when `x` is in range.
            unsafe {
                let d = _mm_sub_epi8(self.0, _mm_set1_epi8(from as i8));
                Mask(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(to.wrapping_sub(from) as i8)), d))
            }
        }

        /// The bytes with the bits of `bits` set (`0x20` folds ASCII letters to lower case).
        #[inline(always)]
        pub fn or(self, bits: u8) -> Self {
            Self(unsafe { _mm_or_si128(self.0, _mm_set1_epi8(bits as i8)) })
        }
    }

    impl Mask {
        /// Bit `k` set for byte `k`; bits 16 to 31 clear.
        #[inline(always)]
        pub fn bits(self) -> u32 {
            unsafe { _mm_movemask_epi8(self.0) as u32 }
        }

        /// The bytes of `self` that are not in `other`.
        #[inline(always)]
        pub fn and_not(self, other: Mask) -> Mask {
            Mask(unsafe { _mm_andnot_si128(other.0, self.0) })
        }
    }

    impl std::ops::BitOr for Mask {
        type Output = Mask;
        #[inline(always)]
        fn bitor(self, other: Mask) -> Mask {
            Mask(unsafe { _mm_or_si128(self.0, other.0) })
        }
    }
}

/// The same interface a byte at a time (other architectures, and the reference the SSE2
/// one is tested against).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[cfg_attr(target_arch = "x86_64", allow(unreachable_pub))]
mod portable {
    /// Sixteen bytes.
    #[derive(Clone, Copy, Debug)]
    #[must_use]
    pub struct Chunk([u8; 16]);

    /// One bit per byte of a [`Chunk`].
    #[derive(Clone, Copy, Debug)]
    #[must_use]
    pub struct Mask(u32);

    impl Chunk {
        /// The 16 bytes of `bytes`.
        pub fn load(bytes: &[u8; 16]) -> Self {
            Self(*bytes)
        }

        fn mask(self, hit: impl Fn(u8) -> bool) -> Mask {
            Mask(self.0.iter().enumerate().fold(0, |m, (k, &c)| m | u32::from(hit(c)) << k))
        }

        /// The bytes equal to `c`.
        pub fn eq(self, c: u8) -> Mask {
            self.mask(|x| x == c)
        }

        /// The bytes in `from..=to`, compared unsigned.
        pub fn within(self, from: u8, to: u8) -> Mask {
            self.mask(|x| (from..=to).contains(&x))
        }

        /// The bytes with the bits of `bits` set (`0x20` folds ASCII letters to lower case).
        pub fn or(self, bits: u8) -> Self {
            Self(self.0.map(|c| c | bits))
        }
    }

    impl Mask {
        /// Bit `k` set for byte `k`; bits 16 to 31 clear.
        pub fn bits(self) -> u32 {
            self.0
        }

        /// The bytes of `self` that are not in `other`.
        pub fn and_not(self, other: Mask) -> Mask {
            Mask(self.0 & !other.0)
        }
    }

    impl std::ops::BitOr for Mask {
        type Output = Mask;
        fn bitor(self, other: Mask) -> Mask {
            Mask(self.0 | other.0)
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::{portable, simd};

    /// Every operation gives the byte loop's bits, for every byte value in every position
    /// and ranges at the edges of the byte values.
    #[test]
    fn sse2_agrees_with_the_byte_loop() {
        let ranges = [(0, 0x1f), (b'a', b'z'), (b'-', b':'), (0x80, 0xff), (0, 0xff), (7, 7)];
        for c in 0..=255u8 {
            for fill in [0u8, b'a', b' ', 0x7f, 0x80, 0xff, c ^ 1] {
                for pos in 0..16 {
                    let mut bytes = [fill; 16];
                    bytes[pos] = c;
                    let (s, p) = (simd::Chunk::load(&bytes), portable::Chunk::load(&bytes));
                    for probe in [c, fill, b'"'] {
                        assert_eq!(s.eq(probe).bits(), p.eq(probe).bits(), "{c:#x} at {pos}");
                    }
                    for (from, to) in ranges {
                        assert_eq!(s.within(from, to).bits(), p.within(from, to).bits(), "{c:#x} at {pos}");
                        assert_eq!(
                            s.or(0x20).within(from, to).and_not(s.eq(b'/')).bits(),
                            p.or(0x20).within(from, to).and_not(p.eq(b'/')).bits(),
                        );
                        assert_eq!((s.eq(c) | s.within(from, to)).bits(), (p.eq(c) | p.within(from, to)).bits());
                    }
                }
            }
        }
    }
}
