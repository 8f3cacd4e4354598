//! The solver's last empties, 2 to `SHALLOW`: no move generation, no
//! ordered list, no table. The last square is scored by counting flips,
//! two and three empties have dedicated routines, a node of four solves
//! its children in place (no call), and up to `SHALLOW` empties the
//! solver walks the empty squares directly, odd quadrants first.

use super::{stability_cap, Recursion, Solver, INF};
use crate::board::geometry::SquareOrder;
use crate::board::isa::Isa;
use crate::board::{final_score, Bits, Geometry};
use crate::eval::Evaluate;
use crate::search::Abort;

/// The exact score with one empty square `x` left, by counting flips
/// (without making them: [`Geometry::count_last_flips`]).
#[inline(always)]
pub(super) fn last_square<G: Geometry>(p: G::B, o: G::B, x: u32) -> i32 {
    let squares = G::SQUARES as i32;
    let n = p.count() as i32;
    let f = G::count_last_flips(p, o, x) as i32;
    if f > 0 {
        return 2 * (n + f + 1) - squares;
    }
    let g = G::count_last_flips(o, p, x) as i32;
    if g > 0 {
        return 2 * (n - g) - squares;
    }
    // Nobody can play it: an odd number of discs, so never a draw; the empty
    // goes to the winner.
    let diff = 2 * n - (squares - 1);
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

/// The flips of `p`'s move on the empty `x`, None when it is no move (no
/// disc of `o` next to it, the cheap test first, or nothing to flip).
#[inline(always)]
fn move_flips<G: Geometry, I: Isa>(isa: I, p: G::B, o: G::B, x: u32) -> Option<G::B> {
    if (G::neighbours_of(x) & o).is_zero() {
        return None;
    }
    let f = isa.flips::<G>(p, o, x);
    (!f.is_zero()).then_some(f)
}

/// Takes a move's `score` into the node's `best` and `alpha`; true when
/// it reaches `beta` (the node cuts).
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// The best of `p`'s moves on the two empties `x1`, `x2` (the first that
/// reaches `beta` cuts), None if it has none.
#[inline(always)]
fn two_moves<G: Geometry, I: Isa>(
    isa: I,
    p: G::B,
    o: G::B,
    beta: i32,
    x1: u32,
    x2: u32,
) -> Option<i32> {
    let mut best = None;
    if let Some(f) = move_flips::<G, I>(isa, p, o, x1) {
        let score = -last_square::<G>(o ^ f, p ^ f ^ G::B::bit(x1), x2);
        if score >= beta {
            return Some(score);
        }
        best = Some(score);
    }
    if let Some(f) = move_flips::<G, I>(isa, p, o, x2) {
        let score = -last_square::<G>(o ^ f, p ^ f ^ G::B::bit(x2), x1);
        return Some(best.map_or(score, |b: i32| b.max(score)));
    }
    best
}

/// The three `empties` in the order a node of three empties tries them:
/// the square alone in its quadrant first (when they are all in one
/// quadrant or in three, the last of them or the first), then the other
/// two by square.
#[inline(always)]
fn three_order<G: Geometry>(empties: G::B) -> [u32; 3] {
    let a = empties.lowest();
    let c = empties.highest();
    let b = empties.without_lowest().lowest();
    if G::quadrant(a) == G::quadrant(b) {
        [c, a, b]
    } else if G::quadrant(a) == G::quadrant(c) {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

/// A node of two to four empties as the routines that solve it in place
/// see it: the position (`p` to move against `o`), its empty squares and
/// its window (alpha, beta). (The recursion passes its nodes' position and
/// window as separate values, which stay in registers across its calls.)
#[derive(Clone, Copy)]
struct Node<G: Geometry> {
    p: G::B,
    o: G::B,
    empties: G::B,
    alpha: i32,
    beta: i32,
}

impl<G: Geometry> Node<G> {
    /// The node after a pass: the other side to move, the window from its
    /// side.
    #[inline(always)]
    fn pass(self) -> Node<G> {
        Node {
            p: self.o,
            o: self.p,
            empties: self.empties,
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }
}

/// The empties of a shallow node in the order it tries them: odd
/// quadrants first, and in each half the better squares first (the order
/// of [`Geometry::square_classes`], walked as places: see
/// [`SquareOrder`]).
struct ParityOrder<G: Geometry> {
    order: &'static SquareOrder,
    /// The places of the half being walked, then of the other half.
    places: G::B,
    even: G::B,
}

impl<G: Geometry> ParityOrder<G> {
    #[inline(always)]
    fn new(empties: G::B) -> ParityOrder<G> {
        let order = G::square_order();
        let odd = G::odd_quadrant_empties(empties);
        let places = |mut set: G::B| {
            let mut places = G::B::ZERO;
            while !set.is_zero() {
                places |= G::B::bit(order.rank[set.lowest() as u8 as usize] as u32);
                set = set.without_lowest();
            }
            places
        };
        ParityOrder {
            order,
            places: places(odd),
            even: places(empties & !odd),
        }
    }
}

impl<G: Geometry> Iterator for ParityOrder<G> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.places.is_zero() {
            if self.even.is_zero() {
                return None;
            }
            self.places = self.even;
            self.even = G::B::ZERO;
        }
        let x = self.order.square[self.places.lowest() as u8 as usize];
        self.places = self.places.without_lowest();
        Some(x as u32)
    }
}

impl<E> Solver<'_, '_, E> {
    /// A node of 2..=SHALLOW empties. Counted here; the nodes of two and
    /// three empties count their passes themselves (see `two_squares`).
    #[inline(always)]
    pub(super) fn shallow_body<G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        p: G::B,
        o: G::B,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        self.budget.tick()?;
        let empties = !(p | o) & G::ALL;
        let n = empties.count();
        // Stability cuts here too, from 4 empties: from 3, fforum-20-39
        // takes 5% longer (its fewer nodes cost a scan each at the most
        // numerous nodes).
        if n >= 4 {
            if let Some(cap) = stability_cap::<G>(p, o, alpha).filter(|&c| c <= alpha) {
                return Ok(cap);
            }
        }
        let last = Node {
            p,
            o,
            empties,
            alpha,
            beta,
        };
        match n {
            2 => return Ok(self.two_squares::<G, I>(isa, last, passed)),
            3 => return Ok(self.three_squares::<G, I>(isa, last, passed)),
            _ => {}
        }
        let mut best = -INF;
        if n == 4 {
            let squares = ParityOrder::<G>::new(empties);
            best = self.moves_in_place::<3, G, I>(isa, last, squares);
        } else {
            for x in ParityOrder::<G>::new(empties) {
                let Some(f) = move_flips::<G, I>(isa, p, o, x) else {
                    continue;
                };
                let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
                let score = -isa.node::<false, G, E>(self, cp, co, -beta, -alpha, false)?;
                if raise(&mut best, &mut alpha, score, beta) {
                    return Ok(best);
                }
            }
        }
        if best == -INF {
            return if passed {
                Ok(final_score::<G>(p, o))
            } else {
                Ok(-isa.node::<false, G, E>(self, o, p, -beta, -alpha, true)?)
            };
        }
        Ok(best)
    }

    /// The best of the mover's moves at the node `n` on `squares` (in
    /// that order, empties of the node), -INF if it has none: each child,
    /// of `CHILD` empties (3 or 2), solved here as its node would (counted,
    /// no stability test), without a call. (At four empties, the loop of
    /// the deeper shallow nodes would spill the call's registers around
    /// it.)
    #[inline(always)]
    fn moves_in_place<const CHILD: u32, G: Geometry, I: Isa>(
        &mut self,
        isa: I,
        n: Node<G>,
        squares: impl Iterator<Item = u32>,
    ) -> i32 {
        let (p, o, beta) = (n.p, n.o, n.beta);
        let mut alpha = n.alpha;
        let mut best = -INF;
        for x in squares {
            let Some(f) = move_flips::<G, I>(isa, p, o, x) else {
                continue;
            };
            self.budget.nodes += 1;
            let child = Node {
                p: o ^ f,
                o: p ^ f ^ G::B::bit(x),
                empties: n.empties ^ G::B::bit(x),
                alpha: -beta,
                beta: -alpha,
            };
            let score = if CHILD == 3 {
                -self.three_squares::<G, I>(isa, child, false)
            } else {
                -self.two_squares::<G, I>(isa, child, false)
            };
            if raise(&mut best, &mut alpha, score, beta) {
                return best;
            }
        }
        best
    }

    /// Exactly two empties: no move generation, no recursion beyond the
    /// last square. (No function here calls itself, so that all of them
    /// inline into the copies of [`Recursion`].) If the side to move has
    /// no move, the opponent's best after a pass (counted as a node), else
    /// the final score.
    #[inline(always)]
    fn two_squares<G: Geometry, I: Isa>(&mut self, isa: I, n: Node<G>, passed: bool) -> i32 {
        let (p, o) = (n.p, n.o);
        let (x1, x2) = (n.empties.lowest(), n.empties.highest());
        if let Some(score) = two_moves::<G, I>(isa, p, o, n.beta, x1, x2) {
            return score;
        }
        if passed {
            return final_score::<G>(p, o);
        }
        self.budget.nodes += 1;
        match two_moves::<G, I>(isa, o, p, -n.alpha, x1, x2) {
            Some(score) => -score,
            None => final_score::<G>(p, o),
        }
    }

    /// Exactly three empties: the square alone in its quadrant first (the
    /// parity order), then the two others, each scored by `two_squares`.
    /// (Like `two_squares`, it spells out the pass rather than taking a
    /// closure: a closure does not get the v3 copy's target features, so
    /// the flips it calls would not inline.)
    #[inline(always)]
    fn three_squares<G: Geometry, I: Isa>(&mut self, isa: I, n: Node<G>, passed: bool) -> i32 {
        let squares = three_order::<G>(n.empties);
        let best = self.moves_in_place::<2, G, I>(isa, n, squares.into_iter());
        if best > -INF {
            return best;
        }
        if passed {
            return final_score::<G>(n.p, n.o);
        }
        self.budget.nodes += 1;
        let best = self.moves_in_place::<2, G, I>(isa, n.pass(), squares.into_iter());
        if best > -INF {
            -best
        } else {
            final_score::<G>(n.p, n.o)
        }
    }
}
