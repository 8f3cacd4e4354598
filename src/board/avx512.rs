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

use super::avx2::{child, flips_over_flipped, or_lanes, rays, targets, up_run};
use std::arch::x86_64::*;

flips_over_flipped!("avx2,avx512f,avx512vl,avx512cd");

/// Per direction (lane), the discs flipped when `p` plays on the empty `sq`
/// against `o`, up the bit order ORed with down. `p` and `o` are broadcast.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
fn flipped(p: __m256i, o: __m256i, sq: u32) -> __m256i {
    let (up_rays, down_rays) = rays(sq);
    // Up the bit order as on AVX2, with a mask register keeping the lanes
    // whose run ends on a disc of the mover.
    let (first, run) = up_run(o, up_rays);
    let up = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, p), run);
    // Down, it is the highest: 1 << (63 - leading zeros), and nothing when
    // the ray has no stop (64 leading zeros: a shift by more than 63 gives
    // 0). The run is the ray's squares above it: -(2 * first).
    let zero = _mm256_setzero_si256();
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
    use crate::board::avx2::tests::check_flips;
    use crate::board::isa::Avx512;

    #[test]
    fn equal_the_portable_code() {
        if Avx512::detect().is_none() {
            eprintln!("skipped: this CPU lacks AVX-512 F, VL and CD");
            return;
        }
        check_flips(
            // SAFETY: the CPU has the features (checked above).
            |p, o, sq| unsafe { flips(p, o, sq) },
            // SAFETY: as above.
            |p, o, sq| unsafe { flips_and_replies(p, o, sq) },
        );
    }
}
