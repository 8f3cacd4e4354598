//! The midgame search's move ordering: the hash move first, then
//! fastest-first (the opponent's replies, potential mobility, square
//! values), from [`EVAL_ORDER_DEPTH`] plies with the static evaluation of
//! each move's position too.

use super::{Node, Recursion, Searcher};
use crate::board::isa::Isa;
use crate::board::{Bits, Geometry};
use crate::eval::Evaluate;
use crate::search::moves::MoveList;
use crate::search::table::key_of;

/// From this remaining depth on, the moves are ordered by the static
/// evaluation of the position each leaves too: a node without a hash move
/// orders all its moves so, a node with one only the moves after it, once
/// it has failed to cut (most nodes with a hash move cut on it). From a
/// shallower depth it saves nodes but costs time; with it, ordering by a
/// shallow search no longer pays. Measured on `benches/data/wthor-40.obf`
/// at depth 16, selectivity 0: 0.85-0.92x the time.
const EVAL_ORDER_DEPTH: u32 = 4;

impl<E> Searcher<'_, '_, E> {
    /// Fills `list` with the moves of the node `n` (`moves`) and their
    /// flips, keyed best (lowest) first: the hash move, then the others
    /// fastest-first, from [`EVAL_ORDER_DEPTH`] with the static evaluation
    /// where there is no hash move. True when the moves after the hash
    /// move are left unkeyed here, to be keyed by
    /// [`Searcher::order_by_evaluation`] once it has been searched without
    /// a cut.
    #[inline(always)]
    pub(super) fn order<G: Geometry, I: Recursion, const CAP: usize>(
        &mut self,
        isa: I,
        n: &Node<'_, G, E::State>,
        list: &mut MoveList<G::B, CAP>,
        moves: G::B,
        hash_move: u16,
    ) -> bool
    where
        E: Evaluate<G>,
    {
        let (p, o, depth) = (n.p, n.o, n.depth);
        let hashed = (hash_move as u32) < G::SQUARES && moves.has(hash_move as u32);
        let evaluate = depth >= EVAL_ORDER_DEPTH && !hashed;
        let later = depth >= EVAL_ORDER_DEPTH && hashed;
        for (i, x) in moves.squares().enumerate() {
            let f = isa.flips::<G>(p, o, x);
            list.push(x, f);
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            // The child probes the table (leaves do not): its bucket loads
            // while the other moves are ordered (1.13x nodes/s at depth 11,
            // selectivity 1, on benches/data/wthor-40.obf; same nodes).
            if depth >= 2 {
                self.table.prefetch(key_of::<G>(cp, co));
            }
            let key = if x as u16 == hash_move {
                i32::MIN
            } else if later {
                // Keyed only if the hash move fails to cut.
                0
            } else if evaluate {
                self.evaluated_key::<G, I>(isa, n.state, cp, co, x, f)
            } else {
                fastest_first_key::<G, I>(isa, cp, co, x)
            };
            list.set_key(i, key);
        }
        later
    }

    /// Keys the moves of `list` (the node `n`'s) not yet taken (all but
    /// the hash move, searched) by [`Searcher::evaluated_key`].
    #[inline(always)]
    pub(super) fn order_by_evaluation<G: Geometry, I: Recursion, const CAP: usize>(
        &mut self,
        isa: I,
        n: &Node<'_, G, E::State>,
        list: &mut MoveList<G::B, CAP>,
    ) where
        E: Evaluate<G>,
    {
        let (p, o) = (n.p, n.o);
        for i in 0..list.len() {
            if list.taken(i) {
                continue;
            }
            let (x, f) = list.as_slice()[i];
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            let key = self.evaluated_key::<G, I>(isa, n.state, cp, co, x, f);
            list.set_key(i, key);
        }
    }

    /// The ordering key of the move to `x` (flipping `f`, leaving (cp,
    /// co)): fastest-first plus the opponent's static evaluation there, a
    /// disc of it weighing about one and a half replies. A position the
    /// opponent must pass in counts as even (the evaluation wants a move).
    #[inline(always)]
    fn evaluated_key<G: Geometry, I: Recursion>(
        &self,
        isa: I,
        state: &E::State,
        cp: G::B,
        co: G::B,
        x: u32,
        f: G::B,
    ) -> i32
    where
        E: Evaluate<G>,
    {
        let replies = isa.moves::<G>(cp, co);
        let value = if replies.is_zero() {
            0
        } else {
            let cs = self.eval.play(state, x, f);
            self.eval.evaluate_state(isa, &cs, cp, co, replies)
        };
        replies_key::<G>(replies, cp, co, x) + value / 4
    }
}

/// Lower is better for the mover who just played `x` leading to (cp, co):
/// few replies (corners count double), few squares next to the mover's
/// discs, a good square.
#[inline]
fn fastest_first_key<G: Geometry, I: Isa>(isa: I, cp: G::B, co: G::B, x: u32) -> i32 {
    replies_key::<G>(isa.moves::<G>(cp, co), cp, co, x)
}

/// [`fastest_first_key`] with the opponent's `replies` known.
#[inline]
pub(super) fn replies_key<G: Geometry>(replies: G::B, cp: G::B, co: G::B, x: u32) -> i32 {
    let corners = replies & G::CORNERS;
    let potential = (G::neighbours(co) & !(cp | co) & G::ALL).count() as i32;
    (replies.count() + corners.count()) as i32 * 16 + potential * 2 - G::square_value(x)
}
