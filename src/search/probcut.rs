//! Multi-ProbCut (Buro 1997): a selective cut for the midgame search.
//!
//! A `depth`-ply search value `v` is predicted by a `shallow`-ply one `s`
//! as `v ≈ s`, with an error that is close to normal with a standard
//! deviation `σ` that depends on the number of empties and on the two
//! depths. Before searching a node in full, the search asks whether the
//! shallow search already shows, with confidence `t` standard deviations,
//! that the deep value would fall outside the window: if `s ≥ β + tσ` it
//! returns `β` (fail high), if `s ≤ α - tσ` it returns `α` (fail low). Each
//! test is a null-window shallow search, far cheaper than the full one
//! (at depths 1 and 2 the static evaluation), tried only where the static
//! evaluation lies near the bound it must clear ([`STATIC_REACH`]).
//!
//! From depth 2 the shallow depth keeps the parity of the deep one: the
//! evaluation of even and odd depths may differ by a side-to-move bias,
//! which would then enter `σ`. The built-in weights are centred (on the
//! samples a 1-ply search reads 0.3 discs below the static evaluation), so
//! depth 1 tests by the static evaluation too.
//!
//! `σ` is a linear model in the empties and both depths, fitted by
//! `othello-probcut` (tools crate) on positions of real games: it
//! searches each to every depth up to 10 and fits the residuals of each
//! (depth, shallow depth) pair; `weights/probcut-samples.txt` holds those
//! samples (positions of WTHOR games, searched with the built-in weights
//! before their recentring), so `othello-probcut fit
//! weights/probcut-samples.txt` reproduces the constants below, and
//! `othello-probcut sample` remakes the samples whenever the evaluation
//! changes.
//!
//! A selective solve (the solver asked for a guess, see
//! `endgame::Selective`) tests its deep nodes the same way, from
//! [`ENDGAME_MIN_EMPTIES`], with a shallow midgame search of the same
//! depth as above against a model of its error from the exact score
//! ([`endgame_sigma`], fitted on solved positions).
//!
//! The exact and win/loss/draw solvers never use it: their scores stay exact.

use crate::eval::SCALE;

/// The confidence `t` of each selectivity setting (`SELECTIVITY_PERCENT`
/// gives the share of cuts a normal error would get right), loosest first;
/// the last setting cuts nothing. The loosest is the timed levels': at
/// equal time it scored better than t 0.95 and t 1.25.
pub const SELECTIVITY_T: [f32; 6] = [1.1, 1.5, 2.0, 2.6, 3.3, f32::INFINITY];
/// The one-sided normal confidence of each setting, in percent.
pub const SELECTIVITY_PERCENT: [u32; 6] = [73, 87, 95, 98, 99, 100];
/// The setting with no selective cuts.
pub const EXACT_SELECTIVITY: u32 = SELECTIVITY_T.len() as u32 - 1;

/// The shallowest node where the cut is tried. At depths 1 and 2 the
/// shallow "search" is the static evaluation itself, so the test costs no
/// node. Its σ is the model's, fitted from [`FIT_MIN_DEPTH`] on, which
/// puts it below the one measured (at depth 2 3.1 against 3.8 discs): the
/// cut there is bolder than its setting says, and scored better at equal
/// time than none.
pub const MIN_DEPTH: u32 = 1;

/// The shallowest depth whose residuals the σ model is fitted on
/// (`othello-probcut fit`).
pub const FIT_MIN_DEPTH: u32 = 3;

/// How far above (or below) the static evaluation a test's bound may lie
/// for the test to be tried, in centi-discs: a shallow search that must
/// clear a bound this far beyond the evaluation seldom does, and a failed
/// test costs its nodes for nothing. Skipping a test never makes a cut, so
/// the search stays as exact as before. On the midgame bench 3 to 5 discs
/// took the fewest nodes (at 4, depth 12 selectivity 4 took 10.05 M nodes
/// instead of 12.79 M).
pub const STATIC_REACH: i32 = 4 * SCALE;

/// The depth of the shallow search that predicts a `depth`-ply one: about
/// half, with the same parity from depth 2 on; the static evaluation
/// (depth 0) at depth 1.
#[inline]
pub fn shallow_depth(depth: u32) -> u32 {
    if depth == 1 {
        return 0;
    }
    2 * (depth / 4) + (depth & 1)
}

/// The fitted model: `σ = C0 + C_EMPTIES * empties + C_DEPTH * depth +
/// C_SHALLOW * shallow`, in discs (see the module comment for the fit).
const C0: f32 = 4.528;
const C_EMPTIES: f32 = -0.0585;
const C_DEPTH: f32 = 0.2779;
const C_SHALLOW: f32 = -0.5003;

/// The predicted error of a `shallow`-ply search against a `depth`-ply one
/// at `empties` empties, in centi-discs (at least one disc).
#[inline]
pub fn sigma(empties: u32, depth: u32, shallow: u32) -> f32 {
    let s = C0 + C_EMPTIES * empties as f32 + C_DEPTH * depth as f32 + C_SHALLOW * shallow as f32;
    s.max(1.0) * SCALE as f32
}

/// The cut margin `tσ` of a setting at a node, in centi-discs; `None` when
/// the setting cuts nothing or the node is too shallow.
#[inline]
pub fn margin(t: f32, empties: u32, depth: u32) -> Option<i32> {
    if depth < MIN_DEPTH || !t.is_finite() {
        return None;
    }
    Some((t * sigma(empties, depth, shallow_depth(depth))) as i32)
}

/// The fewest empties at which a selective solve tries the cut: replayed
/// endgames (`othello-replay`) lost fewer discs a move from 10 than from 8
/// (0.030-0.047 against 0.054-0.059), and no fewer from 13.
pub const ENDGAME_MIN_EMPTIES: u32 = 10;

/// The predicted error of a `shallow`-ply midgame search against the exact
/// score, in discs, at least 3. Fitted by `othello-probcut endgame-fit`
/// (tools crate) on solved positions of WTHOR games held out of training,
/// 11-24 empties; the error is nearly alike at every number of empties.
#[inline]
pub fn endgame_sigma(shallow: u32) -> f32 {
    (ENDGAME_C0 + ENDGAME_C_SHALLOW * shallow as f32).max(3.0)
}

/// How much more a selective shallow search errs than the fit's, searched
/// with no cuts: the margins of a selective solve are this much wider.
/// Replayed endgames (`othello-replay`) lost fewer discs a move at 1.2
/// times the fit than at the fit itself (0.039-0.054 against 0.049-0.062).
const ENDGAME_SELECTIVE_ERROR: f32 = 1.2;

/// The fitted line of [`endgame_sigma`].
const ENDGAME_C0: f32 = 8.69;
const ENDGAME_C_SHALLOW: f32 = -0.461;

/// The shallow depth and the margin `tσ` (in whole discs) of a selective
/// solve's test at `empties` empties; None where it is not tried.
#[inline]
pub fn endgame_margin(t: f32, empties: u32) -> Option<(u32, i32)> {
    if empties < ENDGAME_MIN_EMPTIES || !t.is_finite() {
        return None;
    }
    let shallow = shallow_depth(empties);
    let sigma = ENDGAME_SELECTIVE_ERROR * endgame_sigma(shallow);
    Some((shallow, (t * sigma).ceil() as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_parity_and_stay_below() {
        for d in MIN_DEPTH..=60 {
            let s = shallow_depth(d);
            assert!(s < d, "{d} -> {s}");
            // Only depths 1 and 2 test by the static evaluation.
            assert_eq!(s == 0, d <= 2, "{d} -> {s}");
            if d >= 2 {
                assert_eq!(s % 2, d % 2);
            }
        }
    }

    #[test]
    fn margins_grow_with_confidence_and_vanish_at_the_last_setting() {
        for e in [20, 40, 58] {
            for d in MIN_DEPTH..=20 {
                let m: Vec<Option<i32>> = SELECTIVITY_T.iter().map(|&t| margin(t, e, d)).collect();
                assert!(m[..5].windows(2).all(|w| w[0] < w[1]), "{m:?}");
                assert_eq!(m[5], None);
                assert!(m[0].unwrap() >= SCALE);
            }
        }
        assert_eq!(margin(1.1, 40, MIN_DEPTH - 1), None);
    }
}
