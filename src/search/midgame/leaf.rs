//! The midgame search's value at its depth limit: the evaluation, or the
//! exact result where the game is over or one move ends it.

use crate::board::isa::Isa;
use crate::board::{final_score, Bits, Geometry};
use crate::eval::{Evaluate, SCALE};

/// The value at the depth limit: the evaluation, except for the finished
/// games that are cheap to see (a side wiped out, or a full board), the
/// positions whose mover can wipe the other side out in one move, and the
/// positions whose mover must pass, which are valued after the pass.
#[inline]
pub(crate) fn leaf<G: Geometry, E: Evaluate<G>, I: Isa>(
    isa: I,
    eval: &E,
    state: &E::State,
    p: G::B,
    o: G::B,
) -> i32 {
    leaf_moving::<G, E, I>(isa, eval, state, p, o, isa.moves::<G>(p, o))
}

/// [`leaf`] given `moves`, the legal moves of `p`.
#[inline]
pub(super) fn leaf_moving<G: Geometry, E: Evaluate<G>, I: Isa>(
    isa: I,
    eval: &E,
    state: &E::State,
    p: G::B,
    o: G::B,
    moves: G::B,
) -> i32 {
    if p.is_zero() || o.is_zero() || (p | o) == G::ALL {
        terminal::<G>(p, o)
    } else if wipes_out::<G>(p, o) {
        // The best result there is, so the position's exact value. A
        // depth-1 search (levels 0 and 1) otherwise sees no further than
        // the evaluation, which favours having few discs early and walks
        // into the wipe-outs that a greedy opponent takes (36 of level 0's
        // 47 losses against the 1986 program).
        G::SQUARES as i32 * SCALE
    } else {
        if !moves.is_zero() {
            return eval.evaluate_state(isa, state, p, o, moves);
        }
        // A pass uses no depth, as in the search. The evaluation was
        // trained on positions whose mover has a move (the labelling steps
        // over passes), so it does not know what a pass costs: a depth-1
        // search scored the moves that leave the opponent without a reply
        // far from their value (5 of level 1's 24 lost or drawn games
        // against the 1986 program).
        let replies = isa.moves::<G>(o, p);
        if replies.is_zero() {
            terminal::<G>(p, o)
        } else if wipes_out::<G>(o, p) {
            -(G::SQUARES as i32) * SCALE
        } else {
            -eval.evaluate_state(isa, &eval.pass(state), o, p, replies)
        }
    }
}

/// Whether `p`, to move, has a move that flips every disc of `o`.
#[inline]
pub(super) fn wipes_out<G: Geometry>(p: G::B, o: G::B) -> bool {
    // A move flips at most N - 2 discs on each of its four lines (the
    // move and a disc of `p` bracket them), and never a disc on a corner
    // (no line has squares on both of its sides).
    if o.count() > 4 * (G::N - 2) || !(o & G::CORNERS).is_zero() {
        return false;
    }
    // Such a move shares a line with every disc of `o`; most positions
    // have no such empty square, and show it after a few discs.
    let lines = &G::tables().lines;
    let mut candidates = !(p | o) & G::ALL;
    for d in o.squares() {
        candidates &= lines[d as usize];
        if candidates.is_zero() {
            return false;
        }
    }
    candidates.squares().any(|sq| G::flips(p, o, sq) == o)
}

/// The final result of a finished game, in centi-discs.
#[inline]
pub(crate) fn terminal<G: Geometry>(p: G::B, o: G::B) -> i32 {
    final_score::<G>(p, o) * SCALE
}
