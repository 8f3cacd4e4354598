//! Static evaluation: an estimate of the final disc difference for the side
//! to move, in centi-discs ([`SCALE`] per disc), the unit of exact scores
//! times [`SCALE`].
//!
//! [`Evaluate`] is what the search asks of an evaluation. There are two:
//! [`v1`], hand-made terms (edges, mobility, corners, parity) measured on
//! every board size, and the trained
//! [`pattern`] evaluation of the 8x8 board. [`Evaluator`] is an engine's
//! choice between them.

pub mod pattern;
pub mod v1;

use crate::board::isa::Isa;
use crate::board::s8::{on_s8, to_s8};
use crate::board::{Geometry, Position};
use pattern::{PatternState, PatternWeights};
use std::sync::Arc;

/// Evaluation units per disc.
pub const SCALE: i32 = 100;

/// A score in centi-discs rounded to the nearest disc, halves away from
/// zero: how scores are reported in discs (the C API, the book).
pub fn discs(centi: i32) -> i32 {
    let half = SCALE / 2;
    (if centi >= 0 {
        centi + half
    } else {
        centi - half
    }) / SCALE
}

/// The largest 8x8 evaluation, 63 discs: exact results reach 64, so a search
/// that scores finished games exactly never sees an estimate claim more than
/// the largest real win. (Other sizes: [`v1::max_eval`].)
pub const MAX_EVAL: i32 = 63 * SCALE;

/// An evaluation of the positions of geometry `G`.
///
/// A search evaluates through a [`Evaluate::State`] that it carries down its
/// recursion: made at its root by [`Evaluate::state`], then for each child
/// by [`Evaluate::play`] (or [`Evaluate::pass`]) from the parent's, so an
/// evaluation that can update itself from a move's flips (the trained one
/// on 8x8) need not read the board at every leaf. An evaluation that
/// cannot has the empty state `()`.
pub trait Evaluate<G: Geometry> {
    /// What a search carries from a node to its children for this
    /// evaluation.
    type State: Copy;

    /// The value of `p` to move against `o`, in centi-discs.
    fn evaluate(&self, p: G::B, o: G::B) -> i32;

    /// The state of `p` to move against `o`.
    fn state(&self, p: G::B, o: G::B) -> Self::State;

    /// The state of the child when the side to move of the position of `s`
    /// plays on `x`, flipping `flips`.
    fn play(&self, s: &Self::State, x: u32, flips: G::B) -> Self::State;

    /// The state when the side to move of the position of `s` passes.
    fn pass(&self, s: &Self::State) -> Self::State;

    /// The value of `p` to move against `o` whose state is `s`, `moves`
    /// being the legal moves of `p` (the search has them at hand; the
    /// opponent's, if needed, come from `isa`): always
    /// [`Evaluate::evaluate`]'s.
    fn evaluate_state<I: Isa>(&self, isa: I, s: &Self::State, p: G::B, o: G::B, moves: G::B)
        -> i32;
}

/// The hand-made evaluation v1, on every size.
#[derive(Clone, Copy, Debug, Default)]
pub struct V1;

impl<G: Geometry> Evaluate<G> for V1 {
    type State = ();

    #[inline]
    fn evaluate(&self, p: G::B, o: G::B) -> i32 {
        v1::evaluate::<G>(p, o)
    }

    #[inline(always)]
    fn state(&self, _p: G::B, _o: G::B) {}

    #[inline(always)]
    fn play(&self, _s: &(), _x: u32, _flips: G::B) {}

    #[inline(always)]
    fn pass(&self, _s: &()) {}

    #[inline]
    fn evaluate_state<I: Isa>(&self, _isa: I, _s: &(), p: G::B, o: G::B, _moves: G::B) -> i32 {
        v1::evaluate::<G>(p, o)
    }
}

/// The evaluation a search uses at its leaves.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-made evaluation v1 ([`V1`]).
    V1,
    /// A trained pattern evaluation: the embedded weights or loaded ones.
    /// Boards without patterns (all but 8x8) use v1.
    Pattern(Arc<PatternWeights>),
}

impl Default for Evaluator {
    /// The library's default evaluation: the trained one, which beats v1 by
    /// a wide margin at equal depth (see docs/training.md).
    fn default() -> Evaluator {
        Evaluator::trained()
    }
}

impl Evaluator {
    /// The trained evaluation with the embedded weights.
    pub fn trained() -> Evaluator {
        Evaluator::Pattern(PatternWeights::embedded())
    }
}

/// The trained evaluation's state on 8x8 ([`PatternState`]); `UNUSED` for
/// v1 and on the other sizes, which evaluate from scratch.
impl<G: Geometry> Evaluate<G> for Evaluator {
    type State = PatternState;

    #[inline]
    fn evaluate(&self, p: G::B, o: G::B) -> i32 {
        match self {
            Evaluator::V1 => v1::evaluate::<G>(p, o),
            Evaluator::Pattern(w) => match on_s8::<G>(p, o) {
                Some((p, o)) => w.evaluate(Position::new(p, o)),
                None => v1::evaluate::<G>(p, o),
            },
        }
    }

    #[inline]
    fn state(&self, p: G::B, o: G::B) -> PatternState {
        match (self, on_s8::<G>(p, o)) {
            (Evaluator::Pattern(w), Some((p, o))) => w.state(Position::new(p, o)),
            _ => PatternState::UNUSED,
        }
    }

    #[inline(always)]
    fn play(&self, s: &PatternState, x: u32, flips: G::B) -> PatternState {
        match (self, to_s8::<G>(flips)) {
            (Evaluator::Pattern(w), Some(flips)) => w.play(s, x, flips),
            _ => *s,
        }
    }

    #[inline(always)]
    fn pass(&self, s: &PatternState) -> PatternState {
        s.passed()
    }

    #[inline(always)]
    fn evaluate_state<I: Isa>(
        &self,
        isa: I,
        s: &PatternState,
        p: G::B,
        o: G::B,
        moves: G::B,
    ) -> i32 {
        if let Evaluator::Pattern(w) = self {
            if let (Some((p8, o8)), Some(m8)) = (on_s8::<G>(p, o), to_s8::<G>(moves)) {
                if let Some(r8) = to_s8::<G>(isa.moves::<G>(o, p)) {
                    return w.evaluate_state_with(isa, s, Position::new(p8, o8), (m8, r8));
                }
            }
        }
        Evaluate::<G>::evaluate(self, p, o)
    }
}
