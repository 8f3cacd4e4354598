//! The 8x8 flips on AVX-512 (F, VL and CD, on 256-bit vectors), for the
//! AVX-512 copies of the hot recursions (see [`super::isa`]). The four
//! directions up the bit order and the four down sit in two vectors, as in
//! [`super::avx2`], whose moves they share; what changes is the run of
//! opponent discs down the bit order: its end is the highest stop, found
//! by counting leading zeros (one instruction) instead of smearing the
//! stops down the ray (six), and a mask register keeps the lanes whose run
//! ends on a disc of the mover. They equal [`super::s8::flips_of`]
//! (`tests`).
//!
//! The functions are safe within code compiled with these features;
//! elsewhere the caller must know the CPU has them.

use super::avx2::{child, or_lanes, targets, RAYS};
use std::arch::x86_64::*;

/// Discs flipped when `p` plays on the empty `sq` (< 64) against `o`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    let (pv, ov) = (_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64));
    or_lanes(flipped(pv, ov, sq))
}

/// The flips of `p` playing on the empty `sq` (< 64) against `o`, and the
/// moves the opponent then has (as [`super::avx2::flips_and_replies`]).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub fn flips_and_replies(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let (pv, ov) = (_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64));
    let (f, child_p, child_o) = child(pv, ov, flipped(pv, ov, sq), sq);
    let replies = or_lanes(targets(child_p, child_o)) & !(p | o | 1 << sq);
    (f, replies)
}

/// Per direction (lane), the discs flipped when `p` plays on the empty `sq`
/// against `o`, up the bit order ORed with down. `p` and `o` are broadcast.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
fn flipped(p: __m256i, o: __m256i, sq: u32) -> __m256i {
    let [e, n, nw, ne, w, s, se, sw] = RAYS[sq as usize].0;
    let up_rays = _mm256_set_epi64x(ne as i64, nw as i64, n as i64, e as i64);
    let down_rays = _mm256_set_epi64x(sw as i64, se as i64, s as i64, w as i64);
    let zero = _mm256_setzero_si256();
    // Up the bit order, the first square past the opponent's run is the
    // lowest of the ray's squares that are not the opponent's; the run is
    // the ray's squares below it.
    let stop = _mm256_andnot_si256(o, up_rays);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
    let run = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up_rays);
    let up = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, p), run);
    // Down, it is the highest: 1 << (63 - leading zeros), and nothing when
    // the ray has no stop (64 leading zeros: a shift by more than 63 gives
    // 0). The run is the ray's squares above it: -(2 * first).
    let stop = _mm256_andnot_si256(o, down_rays);
    let high = _mm256_sub_epi64(_mm256_set1_epi64x(63), _mm256_lzcnt_epi64(stop));
    let first = _mm256_sllv_epi64(_mm256_set1_epi64x(1), high);
    let above = _mm256_sub_epi64(zero, _mm256_add_epi64(first, first));
    let run = _mm256_and_si256(above, down_rays);
    _mm256_mask_or_epi64(up, _mm256_test_epi64_mask(first, p), up, run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::avx2::tests::positions;
    use crate::board::isa::Avx512;
    use crate::board::s8::{flips_of, moves_of};
    use crate::board::Bits;

    #[test]
    fn equal_the_portable_code() {
        if Avx512::detect().is_none() {
            eprintln!("skipped: this CPU lacks AVX-512 F, VL and CD");
            return;
        }
        let positions = positions();
        assert!(positions.len() > 30_000);
        for (p, o) in positions {
            for sq in (!(p | o)).squares() {
                // SAFETY: the CPU has the features (checked above).
                let f = unsafe { flips(p, o, sq) };
                assert_eq!(f, flips_of(p, o, sq), "flips {p:#x} {o:#x} {sq}");
                let child = (o ^ f, p ^ f ^ 1 << sq);
                // SAFETY: as above.
                let both = unsafe { flips_and_replies(p, o, sq) };
                assert_eq!(both, (f, moves_of(child.0, child.1)), "{p:#x} {o:#x} {sq}");
            }
        }
    }
}
