//! The solver's move ordering above the last empties: fewest replies
//! first, with the tuning's weights, and from some empties on the value of
//! a shallow midgame search of each move.

use super::Solver;
use crate::board::isa::Isa;
use crate::board::{Bits, Geometry, Position};
use crate::eval::Evaluate;
use crate::search::moves::MoveList;
use crate::search::tuning::tuning;
use crate::search::Abort;

/// The ordering key of the move to `x` (flipping `f`, leaving the
/// opponent `replies` and `co` its opponent's discs; `empties` before the
/// move), lower first: fewest opponent replies (corners counted double),
/// odd-quadrant moves (and on some sizes good squares and few flips: the
/// [`Tuning`](crate::search::tuning::Tuning)'s order weights) slightly
/// preferred, fewest potential replies.
#[inline(always)]
pub(super) fn move_key<G: Geometry>(
    x: u32,
    f: G::B,
    co: G::B,
    empties: G::B,
    replies: G::B,
    odd: G::B,
) -> i32 {
    let corners = replies & G::CORNERS;
    let potential = (G::neighbours(co) & empties & !G::B::bit(x)).count() as i32;
    ((replies.count() + corners.count()) as i32) * 256 + potential
        - if odd.has(x) { 128 } else { 0 }
        - tuning::<G>().order_square_weight * G::square_value(x)
        + tuning::<G>().order_flip_weight * f.count() as i32
}

impl<E> Solver<'_, '_, E> {
    /// Orders the moves of `list` at many empties: the hash move first,
    /// then by [`move_key`] plus the value of a shallow midgame search of
    /// each reply (`search`: the depth and weight of
    /// [`Tuning::eval_order`](crate::search::tuning::Tuning::eval_order)).
    #[inline(always)]
    pub(super) fn order_moves<G: Geometry, I: Isa>(
        &mut self,
        isa: I,
        p: G::B,
        o: G::B,
        list: &mut MoveList<G::B>,
        hash_move: u16,
        (depth, weight): (u32, i32),
    ) -> Result<(), Abort>
    where
        E: Evaluate<G>,
    {
        let empties = !(p | o) & G::ALL;
        let odd = G::odd_quadrant_empties(empties);
        for i in 0..list.len() {
            let (x, f) = list.as_slice()[i];
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            let key = if x as u16 == hash_move {
                i32::MIN
            } else {
                let replies = isa.moves::<G>(cp, co);
                // Ordering only: a selective value would do too, but
                // measured node counts are for exact ones.
                let mut searcher = self.searcher(f32::INFINITY);
                let inf = crate::search::midgame::INF;
                // The reply's value is the opponent's: higher is worse for us.
                let value = searcher.pvs(Position::<G>::new(cp, co), depth, -inf, inf)?;
                move_key::<G>(x, f, co, empties, replies, odd) + weight * value
            };
            list.set_key(i, key);
        }
        Ok(())
    }
}
