//! The exact endgame solver: final disc differences (empties to the winner)
//! by alpha-beta over every remaining move, on any board size.
//!
//! By number of empties: the last square is scored by counting flips, two
//! and three empties have dedicated nodes (no move generation, no loop over
//! a list), a node of four solves its children in place (no call); up to
//! `SHALLOW` empties the solver walks the empty squares directly, odd
//! quadrants first; above that it generates moves, orders them
//! fastest-first (fewest replies for the opponent) with the hash move first,
//! probes the transposition table and the children's entries (enhanced
//! transposition cutoff), and cuts on stable discs. The tuning numbers are
//! the board size's (see [`super::tuning`]).
//!
//! Asked for a guess instead (a selective solve, [`Selective`]), it also
//! cuts its deep nodes by Multi-ProbCut, as the midgame search does, and
//! writes its results to the table as midgame entries, never as proofs.
//!
//! The recursion is compiled once per instruction set (see
//! [`crate::board::isa`]): on x86-64-v3 CPUs the copy that runs uses AVX2
//! moves and flips on 8x8 and the v3 bit scans and counts, on those with
//! AVX-512 too AVX-512's flips; elsewhere the build's own.

use super::midgame::Searcher;
use super::moves::MoveList;
use super::parallel::{Busy, Deferral};
use super::probcut;
use super::recursion::recursion;
use super::table::{bounds, key, key_of, Table, NO_MOVE};
use super::tuning::tuning;
use super::{Abort, Budget};
use crate::board::geometry::SquareOrder;
#[cfg(target_arch = "x86_64")]
use crate::board::isa::{Avx512, Haswell};
use crate::board::isa::{Isa, Portable};
use crate::board::position::distinct_moves;
use crate::board::{final_score, Bits, Geometry, Position};
use crate::eval::{Evaluate, SCALE};

/// Above this many empties the solver generates and orders moves.
/// Measured on 8x8 against 6: FFO 40-49 -5.0% nodes, the time even; 20
/// random-game positions of 22 empties -10.3% nodes, 0.98x the time.
const SHALLOW: u32 = 5;
/// From this many empties on, results go to the transposition table.
const HASH_EMPTIES: u32 = 8;
/// From this many empties on, with other threads, a move another thread is
/// solving waits for last (see [`super::parallel`]).
const DEFER_EMPTIES: u32 = 12;
/// Higher than any score (256 discs at most).
pub const INF: i32 = 300;

/// The exact score with one empty square `x` left, by counting flips
/// (without making them: [`Geometry::count_last_flips`]).
#[inline(always)]
fn last_square<G: Geometry>(p: G::B, o: G::B, x: u32) -> i32 {
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

/// The most the side to move (`p`) can still score: the opponent's stable
/// discs are the opponent's to the end. None when even all of the
/// opponent's discs, or a cheap bound on its stable discs, would not bring
/// the score down to `alpha`, which spares the stability scan where it
/// cannot cut.
#[inline(always)]
fn stability_cap<G: Geometry>(p: G::B, o: G::B, alpha: i32) -> Option<i32> {
    let squares = G::SQUARES as i32;
    if squares - 2 * (o.count() as i32) > alpha {
        return None;
    }
    // The cap reaches alpha from this many stable discs on.
    let needed = (squares - alpha + 1).max(0) as u32 / 2;
    G::stable_at_least(o, p, needed).map(|s| squares - 2 * s.count() as i32)
}

/// The ordering key of the move to `x` (flipping `f`, leaving the
/// opponent `replies` and `co` its opponent's discs; `empties` before the
/// move), lower first: fewest opponent replies (corners counted double),
/// odd-quadrant moves (and on some sizes good squares and few flips:
/// [`Tuning`](super::tuning::Tuning)'s order weights) slightly preferred, fewest potential
/// replies.
#[inline(always)]
fn move_key<G: Geometry>(
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

recursion! {
    /// The solver's recursion, compiled once per instruction set: a node
    /// calls its children through `node`, which stays within the copy.
    /// `DEEP` selects the node: [`Solver::deep_body`] or
    /// [`Solver::shallow_body`].
    trait Recursion:
    fn node[const DEEP: bool, G: Geometry, E: Evaluate<G>]<DEEP, G, E>(
        s: &mut Solver<E>,
        p: G::B,
        o: G::B,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> = body::<DEEP, G>;
}

/// An exact solver over one transposition table; `eval` is the evaluation
/// of the midgame searches that order moves.
pub struct Solver<'t, 'b, E> {
    pub table: &'t Table,
    pub budget: &'t mut Budget<'b>,
    pub eval: &'t E,
    /// The positions other threads are solving (None: one thread).
    pub busy: Option<&'t Busy>,
    /// None: the solve is exact. Some: a selective solve (see
    /// [`Selective`]).
    pub selective: Option<Selective>,
}

/// A selective solve: Multi-ProbCut at the deep nodes, as the midgame
/// search's (see [`probcut::endgame_margin`]), at the confidence `t`. Its
/// results are no proof: they go to the table as midgame entries, at the
/// depth of a midgame search that goes `extra` plies past the empties
/// (the midgame search hands over to this solver from such a depth), and
/// only entries at least that deep (or solved) decide its values.
#[derive(Clone, Copy, Debug)]
pub struct Selective {
    pub t: f32,
    pub extra: u32,
}

impl<'b, E> Solver<'_, 'b, E> {
    /// A midgame search at the confidence `cut` over this solver's table
    /// and budget, on this thread alone (for its ordering and its cuts).
    fn searcher(&mut self, cut: f32) -> Searcher<'_, 'b, E> {
        Searcher {
            table: self.table,
            budget: self.budget,
            eval: self.eval,
            cut,
            busy: None,
        }
    }
}

impl<E> Solver<'_, '_, E> {
    /// The exact score of `pos` if it lies in (alpha, beta); otherwise a bound
    /// on the same side of the window (fail-soft). At most 64 empties.
    pub fn solve<G: Geometry>(
        &mut self,
        pos: Position<G>,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (p, o) = (pos.player, pos.opponent);
        let empties = pos.empties();
        match empties.count() {
            0 => Ok(final_score::<G>(p, o)),
            1 => {
                self.budget.tick()?;
                Ok(last_square::<G>(p, o, empties.lowest()))
            }
            n if n <= SHALLOW => self.node::<false, G>(p, o, alpha, beta, false),
            _ => self.node::<true, G>(p, o, alpha, beta, false),
        }
    }

    /// The best move of `pos` and its exact score (None when the side to
    /// move must pass or the game is over).
    pub fn best_move<G: Geometry>(
        &mut self,
        pos: Position<G>,
        alpha: i32,
        beta: i32,
    ) -> Result<(Option<u32>, i32), Abort>
    where
        E: Evaluate<G>,
    {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            return Ok((None, self.solve(pos, alpha, beta)?));
        }
        let score = self.solve(pos, alpha, beta)?;
        let table_move = self
            .table
            .probe(key(pos))
            .filter(|e| e.solved() && e.best != NO_MOVE)
            .map(|e| e.best as u32)
            .filter(|&s| s < G::SQUARES && moves.has(s));
        // Every move fails low with the position: any of them will do.
        if score <= alpha {
            return Ok((table_move.or(Some(moves.lowest())), score));
        }
        // The table's move stands only if it reaches the score: this search
        // may have ended on a bound of the table or a child's (and stored
        // nothing), so that the move is another search's, from another
        // window, another thread or an earlier move, whose bounds can meet
        // the score without the move reaching it. Else, the first move that
        // reaches it. Small positions are not hashed.
        let reaches = |v: i32| if score >= beta { v >= beta } else { v == score };
        let mut found = None;
        let others = moves.squares().filter(|&x| Some(x) != table_move);
        for sq in table_move.into_iter().chain(others) {
            let child = pos.play_with(sq, pos.flips(sq));
            if reaches(-self.solve(child, -beta, -alpha)?) {
                found = Some(sq);
                break;
            }
        }
        let best = found.unwrap_or_else(|| moves.lowest());
        Ok((Some(best), score))
    }

    /// A node in the copy of the recursion this CPU runs: 2..=SHALLOW
    /// empties walk the empties, odd quadrants first (`DEEP` false); more
    /// use ordered moves, the table and stability (`DEEP` true).
    fn node<const DEEP: bool, G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx512::detect() {
            return isa.node::<DEEP, G, E>(self, p, o, alpha, beta, passed);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Haswell::detect() {
            return isa.node::<DEEP, G, E>(self, p, o, alpha, beta, passed);
        }
        Portable.node::<DEEP, G, E>(self, p, o, alpha, beta, passed)
    }

    /// The node of [`Solver::node`], compiled once per [`Recursion`].
    #[inline(always)]
    fn body<const DEEP: bool, G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        p: G::B,
        o: G::B,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        if DEEP {
            self.deep_body::<G, I>(isa, p, o, alpha, beta, passed)
        } else {
            self.shallow_body::<G, I>(isa, p, o, alpha, beta, passed)
        }
    }

    /// A node of 2..=SHALLOW empties. Counted here; the nodes of two and
    /// three empties count their passes themselves (see `two_squares`).
    #[inline(always)]
    fn shallow_body<G: Geometry, I: Recursion>(
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
        // Stability cuts here too. Measured on FFO 45 (24 empties): tested
        // from 4 empties, 22% fewer nodes; from 3, 23%, but fforum-20-39
        // then takes 5% longer (its 4% fewer nodes cost a scan each at the
        // most numerous nodes).
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

    /// A node of more than SHALLOW empties.
    #[inline(always)]
    fn deep_body<G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        p: G::B,
        o: G::B,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let empties = !(p | o) & G::ALL;
        let n = empties.count();
        // Every caller (`solve`, a deep parent, a pass) picks the node by
        // its empties.
        debug_assert!(n > SHALLOW, "a deep node of {n} empties");
        self.budget.tick()?;
        let moves = isa.moves::<G>(p, o);
        if moves.is_zero() {
            if passed {
                return Ok(-final_score::<G>(o, p));
            }
            if isa.moves::<G>(o, p).is_zero() {
                return Ok(final_score::<G>(p, o));
            }
            return Ok(-isa.node::<true, G, E>(self, o, p, -beta, -alpha, true)?);
        }
        if let Some(cap) = stability_cap::<G>(p, o, alpha) {
            if cap <= alpha {
                return Ok(cap);
            }
            beta = beta.min(cap.max(alpha + 1));
        }
        let squares = G::SQUARES as i32;
        let use_hash = n >= HASH_EMPTIES;
        let k = if use_hash { key_of::<G>(p, o) } else { [0; 2] };
        let mut hash_move = NO_MOVE;
        if use_hash {
            self.table.prefetch(k);
            if let Some(e) = self.table.probe(k) {
                let bounds = if e.solved() {
                    Some((e.lower as i32, e.upper as i32))
                } else {
                    self.selective
                        .filter(|sel| e.depth as u32 >= n + sel.extra)
                        .map(|_| {
                            // Midgame bounds, in centi-discs, on a score
                            // in whole discs.
                            let lo = -((-(e.lower as i32)).div_euclid(SCALE));
                            (lo, (e.upper as i32).div_euclid(SCALE))
                        })
                };
                if let Some((lo, hi)) = bounds {
                    if lo >= beta || lo == hi {
                        return Ok(lo);
                    }
                    if hi <= alpha {
                        return Ok(hi);
                    }
                    alpha = alpha.max(lo);
                    beta = beta.min(hi);
                }
                hash_move = e.best;
            }
        }
        if let Some(sel) = self.selective {
            if let Some(cut) = self.probcut::<G>(p, o, n, sel, alpha, beta)? {
                return Ok(cut);
            }
        }
        // A symmetric position (near the start) needs one move of each
        // symmetric set.
        let tuning = tuning::<G>();
        let moves = if n >= tuning.symmetry_empties {
            distinct_moves::<G>(p, o, moves)
        } else {
            moves
        };
        let etc = use_hash && n >= tuning.etc_empties;
        // The ordering search's depth and weight at this many empties, if any.
        let search = tuning
            .eval_order
            .iter()
            .rposition(|&(e, _)| n >= e)
            .map(|d| (d as u32, tuning.eval_order[d].1));
        // The children's buckets are fetched while the list is made, for
        // the transposition cutoff and for the children's own probes: a
        // probe that waits for memory costs more than the rest of a node.
        let hashed_children = n > HASH_EMPTIES;
        let mut list = MoveList::new();
        let mut rest = moves;
        if search.is_some() {
            // Ordered below, once the cutoff has had its chance.
            while !rest.is_zero() {
                let x = rest.lowest();
                rest = rest.without_lowest();
                let f = isa.flips::<G>(p, o, x);
                if hashed_children {
                    self.table
                        .prefetch(key_of::<G>(o ^ f, p ^ f ^ G::B::bit(x)));
                }
                list.push(x, f);
            }
        } else {
            // Ordered as the list is made: each move's flips and the
            // replies it leaves in one go.
            let odd = G::odd_quadrant_empties(empties);
            while !rest.is_zero() {
                let x = rest.lowest();
                rest = rest.without_lowest();
                let (f, replies) = isa.flips_and_replies::<G>(p, o, x);
                let co = p ^ f ^ G::B::bit(x);
                if hashed_children {
                    self.table.prefetch(key_of::<G>(o ^ f, co));
                }
                let key = if x as u16 == hash_move {
                    i32::MIN
                } else {
                    move_key::<G>(x, f, co, empties, replies, odd)
                };
                list.push(x, f);
                list.set_key(list.len() - 1, key);
            }
        }
        if etc {
            if let Some(cut) = self.transposition_cutoff::<G>(&list, p, o, beta) {
                return Ok(cut);
            }
        }
        if let Some(search) = search {
            self.order_moves::<G, I>(isa, p, o, &mut list, hash_move, search)?;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        let mut deferral = Deferral::new(self.busy.filter(|_| n >= DEFER_EMPTIES));
        'passes: for pass in 0..2 {
            for i in 0..list.len() {
                let (x, f) = list.select(i);
                let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
                let Some(claim) = deferral.start(pass, i, || key_of::<G>(cp, co)) else {
                    continue;
                };
                let score = if n > SHALLOW + 1 {
                    self.child::<true, G, I>(isa, cp, co, i == 0, alpha, beta)
                } else {
                    self.child::<false, G, I>(isa, cp, co, i == 0, alpha, beta)
                };
                deferral.done(claim);
                let score = score?;
                if score > best {
                    best = score;
                    best_sq = x as u16;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break 'passes;
                        }
                    }
                }
            }
            if !deferral.waiting() {
                break;
            }
        }
        if use_hash {
            let (lo, hi) = bounds(best, alpha0, beta0, squares);
            match self.selective {
                None => self.table.store(k, n.min(255) as u8, true, lo, hi, best_sq),
                Some(sel) => self.table.store(
                    k,
                    (n + sel.extra).min(255) as u8,
                    false,
                    lo * SCALE,
                    hi * SCALE,
                    best_sq,
                ),
            }
        }
        Ok(best)
    }

    /// Multi-ProbCut's test at a node of `n` empties of a selective solve:
    /// `Some(beta)` when a shallow midgame search shows, with the
    /// confidence `sel.t`, that the score reaches beta, `Some(alpha)` when
    /// it shows that it stays at or below alpha, else None.
    #[inline(always)]
    fn probcut<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        n: u32,
        sel: Selective,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<i32>, Abort>
    where
        E: Evaluate<G>,
    {
        let Some((shallow, margin)) = probcut::endgame_margin(sel.t, n) else {
            return Ok(None);
        };
        let squares = G::SQUARES as i32;
        let mut searcher = self.searcher(sel.t);
        let pos = Position::<G>::new(p, o);
        let high = beta + margin;
        if high <= squares {
            let bound = high * SCALE;
            if searcher.pvs(pos, shallow, bound - 1, bound)? >= bound {
                return Ok(Some(beta));
            }
        }
        let low = alpha - margin;
        if low >= -squares {
            let bound = low * SCALE;
            if searcher.pvs(pos, shallow, bound, bound + 1)? <= bound {
                return Ok(Some(alpha));
            }
        }
        Ok(None)
    }

    /// The exact value of the move to (cp, co) for the side at the node: the
    /// first move in the whole window, the others in a null window first.
    /// `DEEP`: the child's kind of node (see [`Solver::node`]), so that a
    /// child of SHALLOW empties is not a deep node that hands over to a
    /// shallow one (a second call, and a second count of the node).
    #[inline(always)]
    fn child<const DEEP: bool, G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        cp: G::B,
        co: G::B,
        first: bool,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        if first {
            return Ok(-isa.node::<DEEP, G, E>(self, cp, co, -beta, -alpha, false)?);
        }
        let s = -isa.node::<DEEP, G, E>(self, cp, co, -alpha - 1, -alpha, false)?;
        if s > alpha && s < beta {
            Ok(-isa.node::<DEEP, G, E>(self, cp, co, -beta, -s, false)?)
        } else {
            Ok(s)
        }
    }

    /// Enhanced transposition cutoff: a move whose resulting position the
    /// table already proves good enough (its upper bound, negated, reaches
    /// beta) cuts without being searched. The caller has prefetched the
    /// children's buckets, so that their loads from memory overlap.
    #[inline(always)]
    fn transposition_cutoff<G: Geometry>(
        &self,
        list: &MoveList<G::B>,
        p: G::B,
        o: G::B,
        beta: i32,
    ) -> Option<i32> {
        for &(x, f) in list.as_slice() {
            if let Some(e) = self.table.probe(key_of::<G>(o ^ f, p ^ f ^ G::B::bit(x))) {
                if e.solved() && -(e.upper as i32) >= beta {
                    return Some(-(e.upper as i32));
                }
            }
        }
        None
    }

    /// Orders the moves of `list` at many empties: the hash move first,
    /// then by [`move_key`] plus the value of a shallow midgame search of
    /// each reply (`search`: the depth and weight of
    /// [`Tuning::eval_order`](super::tuning::Tuning::eval_order)).
    #[inline(always)]
    fn order_moves<G: Geometry, I: Isa>(
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
                let inf = super::midgame::INF;
                // The reply's value is the opponent's: higher is worse for us.
                let value = searcher.pvs(Position::<G>::new(cp, co), depth, -inf, inf)?;
                move_key::<G>(x, f, co, empties, replies, odd) + weight * value
            };
            list.set_key(i, key);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{exact as minimax, random_position};
    use crate::board::*;
    use crate::eval::V1;
    use crate::rng::Rng;
    use std::sync::atomic::AtomicBool;

    /// A solver on one thread with the `V1` evaluation.
    fn v1_solver<'t, 'b>(table: &'t Table, budget: &'t mut Budget<'b>) -> Solver<'t, 'b, V1> {
        Solver {
            table,
            budget,
            eval: &V1,
            busy: None,
            selective: None,
        }
    }

    fn solver_equals_minimax<G: Geometry>(count: usize, max_empties: u32) {
        let stop = AtomicBool::new(false);
        let table = Table::new(4);
        let mut rng = Rng::new(42 + G::N as u64);
        let mut checked = 0;
        while checked < count {
            let empties = 1 + rng.below(max_empties as usize) as u32;
            let Some(pos) = random_position::<G>(&mut rng, empties) else {
                continue;
            };
            let exact = minimax(pos);
            let mut budget = Budget::new(&stop);
            let mut s = v1_solver(&table, &mut budget);
            assert_eq!(s.solve(pos, -INF, INF).unwrap(), exact, "{pos:?}");
            assert!(s.solve(pos, exact - 1, exact).unwrap() >= exact);
            assert!(s.solve(pos, exact, exact + 1).unwrap() <= exact);
            assert_eq!(s.solve(pos, -1, 1).unwrap().signum(), exact.signum());
            let (best, score) = s.best_move(pos, -INF, INF).unwrap();
            assert_eq!(score, exact);
            if let Some(b) = best {
                assert_eq!(-minimax(pos.play(b).unwrap()), exact, "{pos:?} move {b}");
            }
            checked += 1;
        }
    }

    /// The exact score of `pos`, solved with a table of its own.
    fn exact_score(pos: Position<S8>) -> i32 {
        let stop = AtomicBool::new(false);
        let mut budget = Budget::new(&stop);
        let table = Table::new(1);
        let mut s = v1_solver(&table, &mut budget);
        s.solve(pos, -INF, INF).unwrap()
    }

    /// A selective solve is a guess: it leaves no proof in the table (its
    /// entries are midgame ones, at its empties plus its `extra` plies), so
    /// an exact solve after it on the same table stays exact; and its cuts
    /// save nodes.
    #[test]
    fn a_selective_solve_leaves_exact_solves_exact() {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(11);
        let (mut guessed, mut solved) = (0, 0);
        let mut checked = 0;
        while checked < 8 {
            let Some(pos) = random_position::<S8>(&mut rng, 14) else {
                continue;
            };
            let table = Table::new(4);
            let mut budget = Budget::new(&stop);
            let mut s = v1_solver(&table, &mut budget);
            s.selective = Some(Selective {
                t: probcut::SELECTIVITY_T[0],
                extra: 2,
            });
            s.solve(pos, -INF, INF).unwrap();
            guessed += s.budget.nodes;
            let e = table.probe(key(pos)).expect("a deep node is stored");
            assert!(!e.solved());
            assert_eq!(e.depth, 14 + 2);
            s.selective = None;
            assert_eq!(
                s.solve(pos, -INF, INF).unwrap(),
                exact_score(pos),
                "{pos:?}"
            );
            let mut budget = Budget::new(&stop);
            v1_solver(&Table::new(4), &mut budget)
                .solve(pos, -INF, INF)
                .unwrap();
            solved += budget.nodes;
            checked += 1;
        }
        assert!(
            guessed < solved,
            "{guessed} nodes selective, {solved} exact"
        );
    }

    /// Fail-soft results are true bounds whatever the window, with one
    /// table shared by every search: the table merges them, so a bound too
    /// tight on either side would make a wrong exact score, and a move
    /// from the wrong bound a wrong best move.
    #[test]
    fn fail_soft_scores_are_true_bounds() {
        let stop = AtomicBool::new(false);
        let table = Table::new(4);
        let mut rng = Rng::new(7);
        let mut checked = 0;
        while checked < 200 {
            let empties = 8 + rng.below(7) as u32;
            let Some(pos) = random_position::<S8>(&mut rng, empties) else {
                continue;
            };
            let exact = exact_score(pos);
            let mut budget = Budget::new(&stop);
            let mut s = v1_solver(&table, &mut budget);
            for i in 0..12 {
                // Wide windows, and null windows on either side of the
                // score, whose bounds meet in the table.
                let a = match i % 3 {
                    0 => rng.below(41) as i32 - 20 + exact,
                    1 => exact - 1 - rng.below(3) as i32,
                    _ => exact,
                };
                let b = a + 1 + if i % 3 == 0 { rng.below(6) as i32 } else { 0 };
                let r = s.solve(pos, a, b).unwrap();
                if r <= a {
                    assert!(exact <= r, "{pos:?} ({a}, {b}): {r} above {exact}");
                } else if r >= b {
                    assert!(exact >= r, "{pos:?} ({a}, {b}): {r} below {exact}");
                } else {
                    assert_eq!(r, exact, "{pos:?} ({a}, {b})");
                }
            }
            // The move the solver names for the exact score reaches it,
            // whatever bounds the windows left in the table.
            let (best, score) = s.best_move(pos, exact - 1, exact + 1).unwrap();
            assert_eq!(score, exact);
            if let Some(b) = best {
                let v = -exact_score(pos.play(b).unwrap());
                assert_eq!(v, exact, "{pos:?} move {b}");
            }
            checked += 1;
        }
    }

    /// A search can end on the table's bounds or a child's without storing
    /// a move: the move it names is then checked, not taken from the table
    /// (a position of a game against NTest, where h4 draws and e8, the
    /// table's move from an earlier fail-low search, loses by 10).
    #[test]
    fn the_best_move_reaches_the_score_when_the_table_cuts() {
        let stop = AtomicBool::new(false);
        let table = Table::new(1);
        let board = "--OXXXXO--XXOXOOXXXXXOOXXXXXOOO-XXOOXXOOXOOOOXOOXOOOOOX---X--XXX X";
        let pos = crate::notation::parse_board::<S8>(board)
            .unwrap()
            .position();
        let (h4, e8) = (31, 60);
        // True bounds as searches leave them: the position at most a draw,
        // with the move of a fail-low search (no better than the others),
        // and the reply to h4 at most a draw for its mover.
        table.store(key(pos), 10, true, -64, 0, e8);
        let reply = pos.play(h4).unwrap();
        table.store(key(reply), 9, true, -2, 0, NO_MOVE);
        let mut budget = Budget::new(&stop);
        let mut s = v1_solver(&table, &mut budget);
        let (best, score) = s.best_move(pos, -12, 1).unwrap();
        assert_eq!(score, 0);
        assert_eq!(best, Some(h4));
    }

    #[test]
    fn solver_equals_minimax_on_every_size() {
        solver_equals_minimax::<S6>(60, 11);
        solver_equals_minimax::<S4>(40, 12);
        solver_equals_minimax::<S8>(90, 10);
        solver_equals_minimax::<S8>(10, 12);
        solver_equals_minimax::<S10>(20, 9);
        solver_equals_minimax::<S12>(10, 8);
        solver_equals_minimax::<S14>(10, 8);
        solver_equals_minimax::<S16>(10, 8);
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        fn check<G: Geometry>() {
            let mut rng = Rng::new(9);
            for _ in 0..60 {
                let empties = 4 + rng.below(G::SQUARES as usize / 2) as u32;
                let Some(pos) = random_position::<G>(&mut rng, empties) else {
                    continue;
                };
                let (p, o) = (pos.player, pos.opponent);
                let st = G::stable(p, o);
                assert!((st & !p).is_zero());
                for sq in pos.empties().squares() {
                    assert!((G::flips(o, p, sq) & st).is_zero());
                }
            }
            // A lone corner is stable.
            assert!(G::stable(G::B::bit(0), G::START_WHITE) == G::B::bit(0));
        }
        check::<S4>();
        check::<S6>();
        check::<S8>();
        check::<S10>();
        check::<S16>();
    }

    /// The portable and x86-64-v3 copies of the recursion (which this
    /// machine may not run by default) give the same values and node
    /// counts as the dispatched one.
    #[test]
    fn every_copy_equals_the_dispatched_one() {
        /// The value and nodes of `pos` by the copy of `isa`, or by the
        /// dispatched one (None).
        fn by<G: Geometry, I: Recursion>(isa: Option<I>, pos: Position<G>) -> (i32, u64) {
            let stop = AtomicBool::new(false);
            let table = Table::new(1);
            let mut budget = Budget::new(&stop);
            let mut s = v1_solver(&table, &mut budget);
            let (p, o) = (pos.player, pos.opponent);
            let v = match isa {
                None => s.solve(pos, -INF, INF),
                Some(isa) if pos.empties().count() > SHALLOW => {
                    isa.node::<true, G, V1>(&mut s, p, o, -INF, INF, false)
                }
                Some(isa) => isa.node::<false, G, V1>(&mut s, p, o, -INF, INF, false),
            };
            (v.unwrap(), budget.nodes)
        }
        fn check<G: Geometry>(count: usize, max_empties: usize) {
            let mut rng = Rng::new(77);
            let mut checked = 0;
            while checked < count {
                let empties = 3 + rng.below(max_empties - 2) as u32;
                let Some(pos) = random_position::<G>(&mut rng, empties) else {
                    continue;
                };
                let dispatched = by(None::<Portable>, pos);
                assert_eq!(by(Some(Portable), pos), dispatched, "{pos:?}");
                #[cfg(target_arch = "x86_64")]
                if let Some(isa) = Haswell::detect() {
                    assert_eq!(by(Some(isa), pos), dispatched, "{pos:?}");
                }
                checked += 1;
            }
        }
        check::<S8>(40, 14);
        check::<S6>(20, 14);
        check::<S10>(10, 10);
    }
}
