//! The solver's tuning, measured per board size: when it probes the
//! children's table entries, how it orders its moves, when it looks for
//! symmetric moves, and how deep the search that orders the root moves
//! before a solve goes. One table per size, chosen by the side length, so
//! that every value is a constant in the monomorphised solver. The board
//! layer knows none of it.

use crate::board::Geometry;

/// The solver's tuning for one board size.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// From this many empties on, the table is probed for every child
    /// first (enhanced transposition cutoff).
    pub etc_empties: u32,
    /// `eval_order[d] = (e, w)`: from `e` empties on, the solver orders
    /// moves with a midgame search of depth `d` (0 = the evaluation alone),
    /// whose value (centi-discs) counts `w` times against mobility (256 a
    /// reply).
    pub eval_order: &'static [(u32, i32)],
    /// From this many empties on, symmetric moves of a symmetric position
    /// are solved once.
    pub symmetry_empties: u32,
    /// Before a solve of `e` empties, the midgame search that orders the
    /// root moves goes `e - presearch_margin` plies deep (at least 1, at
    /// most 10).
    pub presearch_margin: u32,
    /// Weights, in the solver's ordering of moves, of the moved-to square's
    /// value ([`Geometry::square_value`]) and of the number of discs the
    /// move flips (fewer first), against 256 for each opponent reply.
    pub order_square_weight: i32,
    /// See [`Tuning::order_square_weight`].
    pub order_flip_weight: i32,
}

/// Every size but 8x8. No square or flip weights: on the 6x6 start they
/// cost nodes (857 M to 902 M with 8 and 8).
const GENERIC: Tuning = Tuning {
    etc_empties: 10,
    eval_order: &[(12, 1), (18, 1), (22, 1), (26, 1)],
    symmetry_empties: 20,
    presearch_margin: 12,
    order_square_weight: 0,
    order_flip_weight: 0,
};

/// 8x8, each value measured in nodes on FFO 40-49 and sets of WTHOR and
/// random-game positions (see docs/history.md).
const S8: Tuning = Tuning {
    // The 2-ply value at weight 2: FFO 40-49 730.3 M to 695.8 M nodes.
    eval_order: &[(14, 1), (20, 1), (22, 2)],
    // Against 10: FFO 40-49 0.955x the time.
    etc_empties: 12,
    // Symmetric positions do not occur in 8x8 endgames worth the test.
    symmetry_empties: u32::MAX,
    // 8 and 8 against none: FFO 40-49 779.8 M to 730.3 M nodes.
    order_square_weight: 8,
    order_flip_weight: 8,
    ..GENERIC
};

impl Tuning {
    /// The tuning of the board of side `n`.
    pub const fn of_side(n: u32) -> &'static Tuning {
        match n {
            8 => &S8,
            _ => &GENERIC,
        }
    }
}

/// The tuning of `G`: a constant in code generic over `G`.
#[inline(always)]
pub fn tuning<G: Geometry>() -> &'static Tuning {
    const { Tuning::of_side(G::N) }
}
