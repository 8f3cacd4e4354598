//! The incremental evaluation: a [`PatternState`], every placement's
//! configuration seen from both sides, that the search carries from a node
//! to its children ([`PatternWeights::play`] adds the placed and flipped
//! squares' powers of 3, a few vector adds), and the weight reads of
//! [`PatternWeights::evaluate_state`] (eight placements an AVX2 gather in
//! the search's AVX2 and AVX-512 copies).

use super::layout::{capped, symmetry, Instance};
use super::{PatternWeights, Position};
#[cfg(target_arch = "x86_64")]
use crate::board::isa::Haswell;
use crate::board::isa::{Isa, Portable};
use crate::board::s8::moves_of;

/// Lanes of a [`PatternState`]: the most placements the incremental
/// evaluation follows (the built-in set has 46,
/// [`Layout::extended`](super::Layout::extended) 58). The search evaluates
/// a set with more from scratch.
pub const STATE_LANES: usize = 64;

/// The incremental evaluation's tables, for a set whose placements fit
/// the lanes of a [`PatternState`].
#[derive(PartialEq, Eq)]
pub(super) struct Deltas {
    /// `rows[sq][i]`: 3^d, `d` the digit of square `sq` in placement `i`'s
    /// configuration, or 0 where the placement does not hold `sq`; lanes
    /// past the last placement are 0. A disc of the side counted as digit
    /// 1 on `sq` adds this to every configuration, a disc of the other
    /// side twice this.
    rows: [[u16; STATE_LANES]; 64],
    /// `offsets[i]`: where placement `i`'s table starts in a stage's
    /// weights; 0 past the last placement.
    offsets: [u32; STATE_LANES],
    /// `last[i]`: the last weight of placement `i`'s table, 0 past the
    /// last placement: the vector reads stop there whatever the state.
    last: [u32; STATE_LANES],
    /// `live[i]`: -1 (all bits) for the placements, 0 past the last: the
    /// mask of the vector reads.
    live: [i32; STATE_LANES],
    /// The number of placements.
    lanes: usize,
    /// The furthest weight a vector read touches: one past the largest
    /// `last`.
    reach: usize,
}

impl std::fmt::Debug for Deltas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Deltas")
    }
}

impl Deltas {
    /// The deltas of `instances`, if they fit the lanes.
    pub(super) fn of(instances: &[Instance]) -> Option<Box<Deltas>> {
        if instances.len() > STATE_LANES {
            return None;
        }
        let mut d = Box::new(Deltas {
            rows: [[0; STATE_LANES]; 64],
            offsets: [0; STATE_LANES],
            last: [0; STATE_LANES],
            live: [0; STATE_LANES],
            lanes: instances.len(),
            reach: 0,
        });
        for (i, inst) in instances.iter().enumerate() {
            for (sq, row) in d.rows.iter_mut().enumerate() {
                let t = symmetry(1u64 << sq, inst.symmetry as usize);
                if t & inst.mask != 0 {
                    row[i] = 3u16.pow((inst.mask & (t - 1)).count_ones());
                }
            }
            d.offsets[i] = inst.offset;
            d.last[i] = inst.offset + 3u32.pow(inst.mask.count_ones()) - 1;
            d.live[i] = -1;
            d.reach = d.reach.max(d.last[i] as usize + 1);
        }
        Some(d)
    }

    /// The sum of the deltas of the squares of `b`.
    #[inline(always)]
    fn sum(&self, mut b: u64) -> [u16; STATE_LANES] {
        let mut out = [0u16; STATE_LANES];
        while b != 0 {
            let row = &self.rows[b.trailing_zeros() as usize];
            b &= b - 1;
            for (o, &d) in out.iter_mut().zip(row) {
                *o = o.wrapping_add(d);
            }
        }
        out
    }

    /// The sum of the weights in `w` (a stage's) of the placements'
    /// configurations `configs`, read by `isa`'s kernel.
    #[inline(always)]
    fn weights<I: Isa>(&self, isa: I, w: &[i16], configs: &[u16; STATE_LANES]) -> i32 {
        // The vector kernels read 32 bits, the weight and the one after
        // it, unchecked: each placement's index is held to its table (the
        // configurations of a state made by `state` and `play` are within
        // it anyway), and every table has a weight after it (the mobility
        // tables follow the patterns'), all within a stage of `len`.
        assert!(self.reach < w.len(), "a stage's weights hold every table");
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = isa.haswell() {
            // SAFETY: `v3` proves the CPU has AVX2 (the AVX-512 copy's
            // too); the reads are within `w` (above).
            return unsafe { weights_gather8(v3, w.as_ptr(), self, configs) };
        }
        let _ = isa;
        self.offsets[..self.lanes]
            .iter()
            .zip(configs)
            .map(|(&at, &c)| w[at as usize + c as usize] as i32)
            .sum()
    }
}

/// The sum over `d`'s placements of `w[offsets[i] + configs[i]]`, each
/// index held to `last[i]`, eight placements a gather, on AVX2.
///
/// # Safety
/// `w` holds the weights at and after every `last` (up to `d.reach`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn weights_gather8(
    _v3: Haswell,
    w: *const i16,
    d: &Deltas,
    configs: &[u16; STATE_LANES],
) -> i32 {
    use std::arch::x86_64::*;
    let mut acc = _mm256_setzero_si256();
    let mut l = 0;
    while l < d.lanes {
        // SAFETY: `l + 8 <= STATE_LANES` (a multiple of 8), so the loads
        // stay within the arrays.
        let (c, at, last, live) = unsafe {
            (
                _mm256_cvtepu16_epi32(_mm_loadu_si128(configs.as_ptr().add(l).cast())),
                _mm256_loadu_si256(d.offsets.as_ptr().add(l).cast()),
                _mm256_loadu_si256(d.last.as_ptr().add(l).cast()),
                _mm256_loadu_si256(d.live.as_ptr().add(l).cast()),
            )
        };
        let idx = _mm256_min_epu32(_mm256_add_epi32(at, c), last);
        // SAFETY: the caller's promise: the 32 bits at `w + idx` (in i16
        // units) are weights of `w`.
        let pair = unsafe {
            _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), w.cast(), idx, live)
        };
        // The low 16 bits are the weight, sign-extended.
        acc = _mm256_add_epi32(acc, _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(pair)));
        l += 8;
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
    _mm_cvtsi128_si32(one)
}

/// The configuration of every placement of a pattern set in a position,
/// seen from each side: what the search carries from a node to its
/// children ([`PatternWeights::play`]) instead of reading the patterns
/// from the board at each leaf. Unused lanes stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct PatternState {
    /// The side to move as digit 1, the opponent as 2 (what the evaluation
    /// reads).
    mover: [u16; STATE_LANES],
    /// The opponent as digit 1 (the configurations after a pass).
    other: [u16; STATE_LANES],
}

impl PatternState {
    /// The state of a set that does not fit the lanes, or of no pattern
    /// evaluation: all zero, never read.
    pub const UNUSED: PatternState = PatternState {
        mover: [0; STATE_LANES],
        other: [0; STATE_LANES],
    };

    /// The state after a pass: the sides' views swapped.
    #[inline(always)]
    pub fn passed(&self) -> PatternState {
        PatternState {
            mover: self.other,
            other: self.mover,
        }
    }
}

impl PatternWeights {
    /// Whether [`PatternWeights::play`] follows this set's placements (at
    /// most [`STATE_LANES`] of them); for another set the state is
    /// [`PatternState::UNUSED`] and [`PatternWeights::evaluate_state`]
    /// evaluates from scratch.
    pub fn incremental(&self) -> bool {
        self.layout.deltas.is_some()
    }

    /// The state of `pos`, read from its discs.
    #[inline]
    pub fn state(&self, pos: Position) -> PatternState {
        let Some(d) = &self.layout.deltas else {
            return PatternState::UNUSED;
        };
        let (p, o) = (d.sum(pos.player), d.sum(pos.opponent));
        let mut s = PatternState::UNUSED;
        for l in 0..STATE_LANES {
            s.mover[l] = p[l].wrapping_add(o[l].wrapping_mul(2));
            s.other[l] = o[l].wrapping_add(p[l].wrapping_mul(2));
        }
        s
    }

    /// The state of the child when the side to move of the position of `s`
    /// plays on `x`, flipping `flips`: the placed and flipped discs change
    /// the configurations of the placements through them, and the sides
    /// swap.
    #[inline(always)]
    pub fn play(&self, s: &PatternState, x: u32, flips: u64) -> PatternState {
        let Some(d) = &self.layout.deltas else {
            return *s;
        };
        let flipped = d.sum(flips);
        let placed = &d.rows[x as usize];
        let mut child = PatternState::UNUSED;
        for l in 0..STATE_LANES {
            // For the mover, `x` goes from 0 to 1 and the flips from 2 to
            // 1; for the opponent, `x` to 2 and the flips from 1 to 2.
            child.other[l] = s.mover[l].wrapping_add(placed[l]).wrapping_sub(flipped[l]);
            child.mover[l] = s.other[l]
                .wrapping_add(placed[l].wrapping_mul(2))
                .wrapping_add(flipped[l]);
        }
        child
    }

    /// The evaluation of `pos` whose state is `s` (made by
    /// [`PatternWeights::state`], [`PatternWeights::play`] and
    /// [`PatternState::passed`]): the value of [`PatternWeights::evaluate`],
    /// without reading the patterns from the board.
    #[inline(always)]
    pub fn evaluate_state(&self, s: &PatternState, pos: Position) -> i32 {
        let (p, o) = (pos.player, pos.opponent);
        self.evaluate_state_with(Portable, s, pos, (moves_of(p, o), moves_of(o, p)))
    }

    /// [`PatternWeights::evaluate_state`] given `moves`, the legal moves
    /// of the side to move and of the opponent (the search has them, or
    /// makes them faster), the weights read by `isa`'s kernel.
    #[inline(always)]
    pub fn evaluate_state_with<I: Isa>(
        &self,
        isa: I,
        s: &PatternState,
        pos: Position,
        moves: (u64, u64),
    ) -> i32 {
        let Some(d) = &self.layout.deltas else {
            return self.evaluate(pos);
        };
        let mobility = (capped(moves.0), capped(moves.1));
        self.sum_over(pos, mobility, |w, _| d.weights(isa, w, &s.mover))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::board::isa::Avx512;
    use crate::board::Bits;
    use crate::eval::pattern::tests::{random_weights_with, weight_sets};
    use crate::eval::pattern::Layout;
    use crate::rng::Rng;
    use std::sync::Arc;

    /// A set of more placements than a state has lanes: the extended set
    /// and a 2x4 corner block, which no symmetry maps onto itself (8 more).
    fn too_many_placements() -> Arc<Layout> {
        let masks: Vec<u64> = Layout::extended()
            .masks()
            .iter()
            .copied()
            .chain([0x0f0f])
            .collect();
        Arc::new(Layout::new(&masks).unwrap())
    }

    #[test]
    fn incremental_evaluation_is_the_evaluation_through_random_games() {
        let mut sets: Vec<_> = weight_sets(11, 12).into_iter().map(|w| (w, true)).collect();
        if !cfg!(miri) {
            sets.push((random_weights_with(too_many_placements(), 13), false));
        }
        let games = if cfg!(miri) { 1 } else { 60 };
        for (w, incremental) in sets {
            assert_eq!(w.incremental(), incremental);
            assert_eq!(w.layout().instances() <= STATE_LANES, incremental);
            let mut rng = Rng::new(14);
            let (mut plies, mut passes) = (0, 0);
            for _ in 0..games {
                let mut pos = Position::start();
                let mut s = w.state(pos);
                loop {
                    // Both orientations the search reads: the side to move's,
                    // and the opponent's (a leaf whose mover must pass).
                    let other = Position::new(pos.opponent, pos.player);
                    assert_eq!(w.evaluate_state(&s, pos), w.evaluate(pos), "{pos:?}");
                    assert_eq!(w.evaluate_state(&s.passed(), other), w.evaluate(other));
                    // The vector kernels of the weights, where the CPU has
                    // them.
                    #[cfg(target_arch = "x86_64")]
                    {
                        let (p, o) = (pos.player, pos.opponent);
                        let moves = (moves_of(p, o), moves_of(o, p));
                        if let Some(v3) = Haswell::detect() {
                            let v = w.evaluate_state_with(v3, &s, pos, moves);
                            assert_eq!(v, w.evaluate(pos), "{pos:?}");
                        }
                        if let Some(v4) = Avx512::detect() {
                            let v = w.evaluate_state_with(v4, &s, pos, moves);
                            assert_eq!(v, w.evaluate(pos), "{pos:?}");
                        }
                    }
                    assert_eq!(s, w.state(pos), "{pos:?}");
                    plies += 1;
                    let moves: Vec<u32> = pos.legal_moves().squares().collect();
                    if moves.is_empty() {
                        if pos.pass().legal_moves().is_zero() {
                            break;
                        }
                        pos = pos.pass();
                        s = s.passed();
                        passes += 1;
                        continue;
                    }
                    let x = moves[rng.below(moves.len())];
                    let f = pos.flips(x);
                    s = w.play(&s, x, f);
                    pos = pos.play_with(x, f);
                }
            }
            let enough = if cfg!(miri) {
                plies > 50
            } else {
                plies > 3000 && passes > 5
            };
            assert!(enough, "{plies} plies, {passes} passes");
        }
    }

    /// Configurations no position has (a state made from wrong flips)
    /// are read within their tables by the vector kernels: each index is
    /// held to its table's last weight.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_reads_stay_within_each_table() {
        let draws = if cfg!(miri) { 20 } else { 200 };
        for w in weight_sets(21, 22) {
            let d = w.layout().deltas.as_ref().unwrap();
            let stage = w.stage(0);
            let mut rng = Rng::new(23);
            for _ in 0..draws {
                let mut configs = [0u16; STATE_LANES];
                for c in configs.iter_mut() {
                    *c = rng.below(1 << 16) as u16;
                }
                let expected: i32 = (0..d.lanes)
                    .map(|i| {
                        let at = (d.offsets[i] + configs[i] as u32).min(d.last[i]);
                        stage[at as usize] as i32
                    })
                    .sum();
                if let Some(v3) = Haswell::detect() {
                    assert_eq!(d.weights(v3, stage, &configs), expected);
                }
                if let Some(v4) = Avx512::detect() {
                    assert_eq!(d.weights(v4, stage, &configs), expected);
                }
            }
        }
    }
}
