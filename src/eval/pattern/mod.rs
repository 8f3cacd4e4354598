//! The trained pattern evaluation and its weights file.
//!
//! A position is scored, from the side to move's point of view, as the sum
//! of weights looked up for the configurations of board patterns, in the
//! same unit as evaluation v1 (1/[`SCALE`] disc, the expected final disc
//! difference), with one weight set per game stage (by empty squares).
//!
//! # Features
//!
//! The 11 [`PATTERNS`] (edge + 2 X-squares, 2x5 corner block, 3x3 corner,
//! rows 2, 3 and 4, diagonals of length 8 down to 4) are read in every
//! distinct placement the 8 board symmetries give them (46 instances), all
//! placements of a pattern sharing one table of 3^n weights. A configuration
//! is indexed by its squares in the order of their bit in the canonical mask
//! (digit 0 = the lowest square): each cell is 0 (empty), 1 (side to move)
//! or 2 (opponent). A placement is read by transforming the board with its
//! symmetry and extracting the canonical mask (`pext` on x86-64 with BMI2).
//! Configurations that a symmetry of the pattern itself maps onto each other
//! (a row read left to right or right to left) share one weight, so the sum
//! is exactly invariant under the 8 board symmetries.
//!
//! That is the built-in weights' set. A weights file names its own patterns
//! (any 1 to [`MAX_PATTERNS`] masks of up to [`MAX_PATTERN_SQUARES`]
//! squares; [`Layout`] derives their placements and tables), so weights
//! trained on another set, such as [`Layout::extended`] (the 11 and
//! [`EXTRA_PATTERNS`]), load and evaluate through the same code.
//!
//! Three small tables complete the sum: the number of legal moves of the
//! side to move (0..=[`MOBILITY_MAX`], capped), the same for the opponent,
//! and a bias by the number of empty squares (which carries parity).
//!
//! Evaluating from scratch costs 46 table reads and two move generations
//! besides reading the 46 configurations from the board (16 board
//! symmetries, 92 bit extractions); `cargo bench --bench eval` measures it
//! against evaluation v1. The search reads no configuration from the
//! board: it carries a [`PatternState`], every placement's configuration
//! seen from both sides, from a node to its children, where
//! [`PatternWeights::play`] adds each placed and flipped square's powers of
//! 3 (a precomputed row of [`STATE_LANES`] per square, a few vector adds),
//! and [`PatternWeights::evaluate_state`] reads the weights alone (in the
//! search's AVX2 and AVX-512 copies by AVX2 gathers, eight placements
//! at a time: 1.2x the search's nodes per second). The value
//! is the same as from scratch, so fixed-depth searches visit the same
//! nodes; sets of more than [`STATE_LANES`] placements evaluate from
//! scratch.
//!
//! # Weights file
//!
//! A set of weights is stored in a checked binary file, which names its
//! pattern set; [`PatternWeights::to_bytes`] states the format.

// The files: `layout` the pattern sets, the board symmetries and `Layout`;
// `state` the incremental state and its vector reads; `file` the weights
// file. Here: `PatternWeights` and the evaluation from scratch.
mod file;
mod layout;
mod state;

pub use file::{MAGIC, VERSION};
pub(crate) use layout::BASE3;
pub use layout::{
    symmetry, Layout, Pattern, EXTRA_PATTERNS, MAX_PATTERNS, MAX_PATTERN_SQUARES, MOBILITY_MAX,
    PATTERNS,
};
pub use state::{PatternState, STATE_LANES};

use crate::board::Bits;
use crate::error::Error;
use crate::eval::{MAX_EVAL, SCALE};
use layout::{all_symmetries, config_index, mobility, pext_soft, Instance, BIAS_LEN};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The 8x8 position, the only one with patterns.
type Position = crate::board::Position<crate::board::S8>;

/// A trained weight set: every stage's weights, each shared weight copied to
/// every index that shares it (so evaluation needs no canonical lookup).
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    layout: Arc<Layout>,
    stages: u32,
    width: u32,
    /// `stages * layout.len` weights, in 1/SCALE disc.
    weights: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights {{ patterns: {}, stages: {}, width: {} }}",
            self.layout.masks.len(),
            self.stages,
            self.width
        )
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(format!("weights: {}", msg.into()))
}

/// The weights built into the library (`weights/pattern.bin`).
static EMBEDDED: &[u8] = include_bytes!("../../../weights/pattern.bin");

static DEFAULT: Lazy<Arc<PatternWeights>> = Lazy::new(|| {
    Arc::new(PatternWeights::from_bytes(EMBEDDED).expect("the embedded weights file is valid"))
});

impl PatternWeights {
    /// The weights built into the library, decoded once.
    pub fn embedded() -> Arc<PatternWeights> {
        DEFAULT.clone()
    }

    /// All-zero weights for [`PATTERNS`]: `stages` stages of `width`
    /// empties each.
    pub fn zero(stages: u32, width: u32) -> Result<PatternWeights, Error> {
        PatternWeights::zero_with(Layout::standard(), stages, width)
    }

    /// All-zero weights for the patterns of `layout`.
    pub fn zero_with(
        layout: Arc<Layout>,
        stages: u32,
        width: u32,
    ) -> Result<PatternWeights, Error> {
        if stages == 0 || width == 0 || stages > 65 || width > 65 {
            return Err(bad(format!(
                "{stages} stages of {width} empties: both must be within 1..65"
            )));
        }
        Ok(PatternWeights {
            weights: vec![0; stages as usize * layout.len],
            layout,
            stages,
            width,
        })
    }

    /// The pattern set and weight layout.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    pub fn stages(&self) -> u32 {
        self.stages
    }

    /// Empty squares per stage.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The stage used at `empties` empty squares.
    pub fn stage_of(&self, empties: u32) -> usize {
        stage_of(empties, self.width, self.stages)
    }

    /// Sets the weights of `stage` from `values` (one per index of
    /// [`Layout`], in discs); shared weights take their canonical index's
    /// value; values are rounded to 1/SCALE disc and saturated to i16.
    pub fn set_stage(&mut self, stage: usize, values: &[f32]) {
        let f = &*self.layout;
        assert_eq!(values.len(), f.len);
        let base = stage * f.len;
        for j in 0..f.len {
            let v = values[f.canonical[j] as usize] * SCALE as f32;
            self.weights[base + j] = v.round().clamp(-32767.0, 32767.0) as i16;
        }
    }

    /// Adds `by` (in 1/SCALE disc) to the bias weights of every stage, so
    /// every position's value for its side to move rises by that much
    /// (up to the clamp): the recentring of weights whose values read low
    /// or high against exact scores on average.
    pub fn shift_bias(&mut self, by: i16) {
        let f = &*self.layout;
        for stage in 0..self.stages as usize {
            let at = stage * f.len + f.bias_offset;
            for w in &mut self.weights[at..at + BIAS_LEN] {
                *w = w.saturating_add(by);
            }
        }
    }

    /// The weights of `stage`, in 1/SCALE disc.
    pub fn stage(&self, stage: usize) -> &[i16] {
        let n = self.layout.len;
        &self.weights[stage * n..(stage + 1) * n]
    }

    /// The evaluation of `pos` for the side to move, in 1/SCALE disc, within
    /// `-MAX_EVAL..=MAX_EVAL`.
    #[inline]
    pub fn evaluate(&self, pos: Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                // SAFETY: the CPU has the features the copy is compiled for.
                return unsafe { self.evaluate_bmi2(pos) };
            }
        }
        self.evaluate_with(pos, pext_soft)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn evaluate_bmi2(&self, pos: Position) -> i32 {
        // SAFETY: this copy runs only on CPUs with BMI2.
        self.evaluate_with(pos, |x, m| std::arch::x86_64::_pext_u64(x, m))
    }

    #[inline(always)]
    fn evaluate_with(&self, pos: Position, pext: impl Fn(u64, u64) -> u64) -> i32 {
        let ps = all_symmetries(pos.player);
        let os = all_symmetries(pos.opponent);
        self.sum_over(pos, mobility(pos.player, pos.opponent), |w, instances| {
            let mut sum = 0i32;
            for inst in instances {
                let s = inst.symmetry as usize;
                let config = config_index(ps[s], os[s], inst.mask, &pext);
                sum += w[inst.offset as usize + config] as i32;
            }
            sum
        })
    }

    /// The evaluation of `pos` given `patterns(w, instances)`, the sum of
    /// the weights in the stage's `w` of the configurations of the
    /// placements: plus the mobility weights of `(mp, mo)` (the sides'
    /// capped move counts) and the bias weight, clamped.
    #[inline(always)]
    fn sum_over(
        &self,
        pos: Position,
        (mp, mo): (usize, usize),
        patterns: impl Fn(&[i16], &[Instance]) -> i32,
    ) -> i32 {
        let f = &*self.layout;
        let (p, o) = (pos.player, pos.opponent);
        let empties = (!(p | o)).count_ones();
        let base = self.stage_of(empties) * f.len;
        let w = &self.weights[base..base + f.len];
        let mut sum = patterns(w, &f.instances);

        sum += w[f.mobility_offset + mp] as i32
            + w[f.opponent_mobility_offset + mo] as i32
            + w[f.bias_offset + empties as usize] as i32;
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The evaluation as the plain sum of [`Layout::feature_indices`]: what
    /// the training tool fits, and a check of [`PatternWeights::evaluate`].
    pub fn evaluate_reference(&self, pos: Position) -> i32 {
        let empties = pos.empties().count();
        let w = self.stage(self.stage_of(empties));
        let sum: i32 = self
            .layout
            .feature_indices(pos)
            .iter()
            .map(|&j| w[j as usize] as i32)
            .sum();
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

/// The stage of a position with `empties` empty squares.
#[inline(always)]
fn stage_of(empties: u32, width: u32, count: u32) -> usize {
    (empties / width).min(count - 1) as usize
}

#[cfg(test)]
mod tests {
    //! The tests of the evaluation, and the weights and positions that the
    //! tests of the other files share.

    use super::*;
    use crate::board::S8;
    use crate::rng::Rng;

    pub(super) fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        crate::board::testing::random_positions::<S8>(seed, games)
    }

    /// Weights with a random value on every index (shared ones equal).
    pub(super) fn random_weights(seed: u64) -> PatternWeights {
        random_weights_with(Layout::standard(), seed)
    }

    /// Random weights of the built-in set (seed `standard`) and of the
    /// extended one (seed `extended`). Under Miri (tests/miri.sh), where
    /// filling the built-in set's 170,000 weights a stage takes minutes,
    /// one set of its three smallest patterns (12 placements, seed
    /// `standard`) instead.
    pub(super) fn weight_sets(standard: u64, extended: u64) -> Vec<PatternWeights> {
        if cfg!(miri) {
            let masks: Vec<u64> = PATTERNS[8..].iter().map(|p| p.mask).collect();
            return vec![random_weights_with(
                Arc::new(Layout::new(&masks).unwrap()),
                standard,
            )];
        }
        vec![
            random_weights(standard),
            random_weights_with(Layout::extended(), extended),
        ]
    }

    /// The same for the patterns of `layout`.
    pub(super) fn random_weights_with(layout: Arc<Layout>, seed: u64) -> PatternWeights {
        let mut rng = Rng::new(seed);
        let len = layout.len;
        let mut w = PatternWeights::zero_with(layout, 6, 11).unwrap();
        for s in 0..6 {
            let values: Vec<f32> = (0..len)
                .map(|j| {
                    // Leave some runs of zeros for the encoder.
                    if j % 97 < 20 {
                        0.0
                    } else {
                        (rng.below(2001) as f32 - 1000.0) / 400.0
                    }
                })
                .collect();
            w.set_stage(s, &values);
        }
        w
    }

    #[test]
    fn evaluation_is_the_sum_of_the_features() {
        let games = if cfg!(miri) { 1 } else { 30 };
        for w in weight_sets(1, 1) {
            for pos in random_positions(2, games) {
                assert_eq!(w.evaluate(pos), w.evaluate_reference(pos), "{pos:?}");
                assert_eq!(w.evaluate(pos), w.evaluate_with(pos, pext_soft));
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "weighs the built-in and extended sets: slow under Miri"
    )]
    fn symmetric_positions_evaluate_the_same() {
        let w = random_weights(3);
        let extended = random_weights_with(Layout::extended(), 3);
        let mut differing = 0;
        for pos in random_positions(4, 60) {
            let v = w.evaluate(pos);
            let x = extended.evaluate(pos);
            for s in 1..8 {
                let image = Position::new(symmetry(pos.player, s), symmetry(pos.opponent, s));
                differing += (image != pos) as usize;
                assert_eq!(w.evaluate(image), v, "{pos:?} symmetry {s}");
                assert_eq!(extended.evaluate(image), x, "{pos:?} symmetry {s}");
            }
        }
        assert!(differing > 3000);
    }

    #[test]
    #[cfg_attr(miri, ignore = "weighs the built-in set: minutes under Miri")]
    fn a_bias_shift_moves_every_value_by_it_and_survives_the_file() {
        let w = random_weights(7);
        let mut shifted = w.clone();
        shifted.shift_bias(150);
        let back = PatternWeights::from_bytes(&shifted.to_bytes()).unwrap();
        let mut inside = 0;
        for pos in random_positions(9, 20) {
            let (v, s) = (w.evaluate(pos), back.evaluate(pos));
            // Values near the clamp move less.
            assert_eq!(s, (v + 150).clamp(-MAX_EVAL, MAX_EVAL), "{pos:?}");
            inside += usize::from(v + 150 < MAX_EVAL);
        }
        assert!(inside > 100);
    }
}
