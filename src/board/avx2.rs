//! The 8x8 moves and flips on AVX2, for the x86-64-v3 copies of the hot
//! recursions (see [`super::isa`]): the four axes of the board (shifts 1,
//! 8, 7 and 9, each with the columns it may cross) sit in the four 64-bit
//! lanes of one vector and are filled at once with variable shifts. They
//! equal [`super::s8::moves_of`] and [`super::s8::flips_of`] (`tests`).
//!
//! The functions are safe within code compiled with AVX2; elsewhere the
//! caller must know the CPU has it.

use std::arch::x86_64::*;

/// Columns b..g: where a run along the horizontal and diagonal axes may
/// cross (the vertical axis takes every column).
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four axes' shifts, lanes 0..4.
#[target_feature(enable = "avx2")]
#[inline]
fn steps() -> __m256i {
    _mm256_set_epi64x(9, 7, 8, 1)
}

/// Legal moves of `p` against `o`.
#[target_feature(enable = "avx2")]
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    let (pv, ov) = (_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64));
    or_lanes(targets(pv, ov)) & !(p | o)
}

/// Defines `flips` and `flips_and_replies` over the module's `flipped` (per
/// direction, the discs flipped), compiled with the target features
/// `$features`. The AVX2 and AVX-512 modules differ only in `flipped`.
macro_rules! flips_over_flipped {
    ($features:literal) => {
        /// Discs flipped when `p` plays on the empty `sq` (< 64) against `o`.
        #[target_feature(enable = $features)]
        #[inline]
        pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
            let (pv, ov) = (_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64));
            or_lanes(flipped(pv, ov, sq))
        }

        /// The discs flipped when `p` plays on the empty `sq` (< 64) against
        /// `o`, and the moves the opponent then has. The child's discs stay
        /// in vector registers between the two.
        #[target_feature(enable = $features)]
        #[inline]
        pub fn flips_and_replies(p: u64, o: u64, sq: u32) -> (u64, u64) {
            let (pv, ov) = (_mm256_set1_epi64x(p as i64), _mm256_set1_epi64x(o as i64));
            let (f, child_p, child_o) = child(pv, ov, flipped(pv, ov, sq), sq);
            let replies = or_lanes(targets(child_p, child_o)) & !(p | o | 1 << sq);
            (f, replies)
        }
    };
}
pub(super) use flips_over_flipped;

flips_over_flipped!("avx2");

/// The move to `sq` flipping `lanes` (per direction, as [`flipped`] gives
/// them) of the broadcast `p` and `o`: its flips, and the child's discs to
/// move and not to move, broadcast (they stay in vector registers).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn child(p: __m256i, o: __m256i, lanes: __m256i, sq: u32) -> (u64, __m256i, __m256i) {
    // Every lane holds the flips: OR the halves, then the lanes of each half.
    let f = _mm256_or_si256(lanes, _mm256_permute4x64_epi64::<0x4e>(lanes));
    let f = _mm256_or_si256(f, _mm256_shuffle_epi32::<0x4e>(f));
    let child_p = _mm256_xor_si256(o, f);
    let child_o = _mm256_xor_si256(p, _mm256_or_si256(f, _mm256_set1_epi64x(1 << sq)));
    (
        _mm_cvtsi128_si64(_mm256_castsi256_si128(f)) as u64,
        child_p,
        child_o,
    )
}

/// Per axis (lane), the squares past a run of `o` next to a disc of `p`,
/// in either sense; occupied squares included. `p` and `o` are broadcast.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn targets(p: __m256i, o: __m256i) -> __m256i {
    let shift = steps();
    let shift2 = _mm256_add_epi64(shift, shift);
    let mask = _mm256_and_si256(
        o,
        _mm256_set_epi64x(INNER as i64, INNER as i64, -1, INNER as i64),
    );
    // Opponent runs next to a player disc, grown in both senses of each
    // axis: 1, 2, 4 then 6 discs long; the square past a run is a move.
    let mut up = _mm256_and_si256(mask, _mm256_sllv_epi64(p, shift));
    let mut down = _mm256_and_si256(mask, _mm256_srlv_epi64(p, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, shift)));
    // Squares whose next one along the axis is an opponent disc too.
    let pair_up = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
    let pair_down = _mm256_srlv_epi64(pair_up, shift);
    for _ in 0..2 {
        up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, shift2)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, shift2)),
        );
    }
    _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift))
}

/// The OR of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn or_lanes(v: __m256i) -> u64 {
    let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    _mm_cvtsi128_si64(x) as u64
}

/// A square's rays, on one cache line.
#[repr(align(64))]
struct Rays([u64; 8]);

/// `RAYS[sq]`: the squares strictly beyond `sq` to the edge, in the four
/// directions that go up the bit order (lanes 0..4: east, north,
/// north-west, north-east: the steps of [`steps`]), then the four that go
/// down (west, south, south-east, south-west: the same steps).
static RAYS: [Rays; 64] = {
    let rays = super::s8::rays_along([
        (1, 0),
        (0, 1),
        (-1, 1),
        (1, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
        (-1, -1),
    ]);
    let mut t = [const { Rays([0; 8]) }; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = Rays(rays[sq]);
        sq += 1;
    }
    t
};

/// The rays of `sq` in two vectors: the four directions up the bit order,
/// then the four down, in the lanes of [`steps`].
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn rays(sq: u32) -> (__m256i, __m256i) {
    let [e, n, nw, ne, w, s, se, sw] = RAYS[sq as usize].0;
    (
        _mm256_set_epi64x(ne as i64, nw as i64, n as i64, e as i64),
        _mm256_set_epi64x(sw as i64, se as i64, s as i64, w as i64),
    )
}

/// Up the bit order, per lane: the first square past the opponent's run,
/// which is the lowest of the ray's squares that are not the opponent's,
/// and the run, the ray's squares below it.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn up_run(o: __m256i, up_rays: __m256i) -> (__m256i, __m256i) {
    let stop = _mm256_andnot_si256(o, up_rays);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(_mm256_setzero_si256(), stop));
    let run = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up_rays);
    (first, run)
}

/// Per direction (lane), the discs flipped when `p` plays on the empty `sq`
/// against `o`. `p` and `o` are broadcast.
#[target_feature(enable = "avx2")]
#[inline]
fn flipped(p: __m256i, o: __m256i, sq: u32) -> __m256i {
    let (up_rays, down_rays) = rays(sq);
    let zero = _mm256_setzero_si256();
    let (first, run) = up_run(o, up_rays);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
    let up = _mm256_andnot_si256(open, run);
    // Down the bit order it is the highest: smear the stops down the ray
    // (rays are at most 7 squares), so the run is what stays above them.
    let shift = steps();
    let stop = _mm256_andnot_si256(o, down_rays);
    let mut below = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, shift));
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_add_epi64(shift, shift)),
    );
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_slli_epi64::<2>(shift)),
    );
    let run = _mm256_andnot_si256(below, down_rays);
    let last = _mm256_andnot_si256(_mm256_srlv_epi64(below, shift), stop);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(last, p), zero);
    let down = _mm256_andnot_si256(open, run);
    _mm256_or_si256(up, down)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::isa::Haswell;
    use crate::board::s8::{flips_of, moves_of};
    use crate::board::testing::random_positions;
    use crate::board::{Bits, S8};
    use crate::rng::Rng;

    /// Positions of random games (passes and ends included), and random
    /// boards of every density.
    pub(in crate::board) fn positions() -> Vec<(u64, u64)> {
        // Miri (tests/miri.sh): every sixth position of a game and 30 boards.
        let (games, step, boards) = if cfg!(miri) {
            (1, 6, 30)
        } else {
            (300, 1, 20_000)
        };
        let mut out: Vec<(u64, u64)> = random_positions::<S8>(14, games)
            .into_iter()
            .step_by(step)
            .map(|pos| (pos.player, pos.opponent))
            .collect();
        let mut rng = Rng::new(14);
        for i in 0..boards {
            let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
            let filled = match i % 3 {
                0 => a,
                1 => a | b,
                _ => a & b,
            };
            out.push((filled & c, filled & !c));
        }
        out
    }

    /// Checks an instruction set's `flips` and `flips_and_replies` against
    /// the portable code on every empty square of [`positions`].
    pub(in crate::board) fn check_flips(
        flips: impl Fn(u64, u64, u32) -> u64,
        flips_and_replies: impl Fn(u64, u64, u32) -> (u64, u64),
    ) {
        let positions = positions();
        assert!(positions.len() > if cfg!(miri) { 30 } else { 30_000 });
        for (p, o) in positions {
            for sq in (!(p | o)).squares() {
                let f = flips(p, o, sq);
                assert_eq!(f, flips_of(p, o, sq), "flips {p:#x} {o:#x} {sq}");
                let child = (o ^ f, p ^ f ^ 1 << sq);
                let both = flips_and_replies(p, o, sq);
                assert_eq!(both, (f, moves_of(child.0, child.1)), "{p:#x} {o:#x} {sq}");
            }
        }
    }

    #[test]
    fn equal_the_portable_code() {
        if Haswell::detect().is_none() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        for (p, o) in positions() {
            // SAFETY: the CPU has AVX2 (checked above).
            let m = unsafe { moves(p, o) };
            assert_eq!(m, moves_of(p, o), "moves {p:#x} {o:#x}");
        }
        check_flips(
            // SAFETY: as above.
            |p, o, sq| unsafe { flips(p, o, sq) },
            // SAFETY: as above.
            |p, o, sq| unsafe { flips_and_replies(p, o, sq) },
        );
    }
}
