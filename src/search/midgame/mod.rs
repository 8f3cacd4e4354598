//! The midgame search: negamax principal-variation search over an
//! evaluation, with the transposition table and move ordering (hash move,
//! then fastest-first with potential mobility and square values; from
//! depth 4 the static evaluation of each move's position too), selective
//! by Multi-ProbCut ([`probcut`]) and, at the loosest setting, by
//! late-move reductions. The evaluation updates itself move by move
//! through its [`Evaluate::State`], carried down the recursion beside the
//! position.
//! Scores are in centi-discs ([`SCALE`] per disc); finished games score
//! their exact result.
//!
//! Like the solver, the recursion is compiled once per instruction set
//! (see [`crate::board::isa`]): x86-64-v3 CPUs run the copy with the AVX2
//! 8x8 moves and flips, those with AVX-512 too the copy with its flips.
//!
//! Here the node and its steps; in `leaf` the value at the depth limit, in
//! `ordering` the order of the moves.

mod leaf;
mod ordering;

use leaf::leaf_moving;
pub(crate) use leaf::{leaf, terminal};
use ordering::replies_key;

use super::endgame::{Selective, Solver};
use super::moves::{MoveList, MAX_MOVES, MAX_MOVES_ANY};
use super::parallel::{Busy, Deferral};
use super::probcut;
use super::recursion::recursion;
use super::table::{bounds, key_of, Key, Table, NO_MOVE};
use super::{Abort, Best, Budget};
use crate::board::{Bits, Geometry, Position};
use crate::eval::{Evaluate, SCALE};

/// Above any midgame or final score (256 discs at most), in centi-discs.
pub const INF: i32 = 300 * SCALE;

/// From this remaining depth on, with other threads, a move another thread
/// is searching waits for last (see [`super::parallel`]).
pub(crate) const DEFER_DEPTH: u32 = 3;

/// Late-move reductions: at a null-window node of at least
/// [`LATE_MOVE_MIN_DEPTH`] plies, the moves from the
/// [`LATE_MOVE_INDEX`]-th on (0-based, in the node's order: hash move,
/// then by the evaluation) are searched [`LATE_MOVE_REDUCTION`] plies
/// shallower first, and in full only if that search does not fail low.
/// Only at the loosest selectivity, the timed levels' (see
/// [`reduces_late_moves`]). Two plies keep the leaves' parity, as
/// ProbCut's shallow searches do. At equal time the reductions hold their
/// own in play, and bolder settings (at PV nodes too, or from the third
/// move) did not pay although they took fewer nodes. Measured on
/// `benches/data/wthor-40.obf` at selectivity 0: depth 16 1,830,598 nodes
/// instead of 3,209,574.
const LATE_MOVE_INDEX: usize = 3;
/// See [`LATE_MOVE_INDEX`].
const LATE_MOVE_MIN_DEPTH: u32 = 4;
/// See [`LATE_MOVE_INDEX`].
const LATE_MOVE_REDUCTION: u32 = 2;

/// Whether a search with ProbCut's confidence `cut` reduces late moves:
/// at the loosest selectivity only (`SELECTIVITY_T[0]`), so the fixed
/// levels and every more careful setting search as before.
#[inline]
fn reduces_late_moves(cut: f32) -> bool {
    cut <= probcut::SELECTIVITY_T[0]
}

/// A midgame searcher over one transposition table and an evaluation `E`.
pub struct Searcher<'t, 'b, E> {
    pub table: &'t Table,
    pub budget: &'t mut Budget<'b>,
    /// The evaluation at the depth limit.
    pub eval: &'t E,
    /// Multi-ProbCut's confidence `t` (see [`probcut`]); infinite: no
    /// selective cuts, the search is exact to its depth.
    pub cut: f32,
    /// The positions other threads are searching (None: one thread).
    pub busy: Option<&'t Busy>,
}

/// A node of the midgame recursion as the steps of its search see it: the
/// position (`p` to move against `o`), the evaluation's state there, the
/// plies left and the window (alpha, beta).
struct Node<'a, G: Geometry, S> {
    p: G::B,
    o: G::B,
    state: &'a S,
    depth: u32,
    alpha: i32,
    beta: i32,
}

impl<G: Geometry, S> Clone for Node<'_, G, S> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Geometry, S> Copy for Node<'_, G, S> {}

impl<'a, G: Geometry, S> Node<'a, G, S> {
    #[inline(always)]
    fn new(p: G::B, o: G::B, state: &'a S, depth: u32, alpha: i32, beta: i32) -> Self {
        Node {
            p,
            o,
            state,
            depth,
            alpha,
            beta,
        }
    }
}

impl<E> Searcher<'_, '_, E> {
    /// The value of `pos` searched `depth` plies deep, fail-soft within
    /// (alpha, beta).
    pub fn pvs<G: Geometry>(
        &mut self,
        pos: Position<G>,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (p, o) = (pos.player, pos.opponent);
        let state = self.eval.state(p, o);
        dispatch::<G, E>(self, Node::new(p, o, &state, depth, alpha, beta), false)
    }

    /// A node of the copy of the recursion for the instruction set `isa`;
    /// `passed`: the side before passed.
    #[inline(always)]
    fn body<G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        mut n: Node<'_, G, E::State>,
        passed: bool,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (p, o, depth) = (n.p, n.o, n.depth);
        let empties = G::SQUARES - (p | o).count();
        if depth >= empties && empties > 0 {
            return self.solve::<G>(p, o, depth - empties, n.alpha, n.beta);
        }
        self.budget.tick()?;
        if depth == 0 {
            return Ok(leaf::<G, E, I>(isa, self.eval, n.state, p, o));
        }
        let moves = isa.moves::<G>(p, o);
        if moves.is_zero() {
            if passed || isa.moves::<G>(o, p).is_zero() {
                return Ok(if passed {
                    -terminal::<G>(o, p)
                } else {
                    terminal::<G>(p, o)
                });
            }
            // A pass uses no depth.
            let state = self.eval.pass(n.state);
            let after = Node::new(o, p, &state, depth, -n.beta, -n.alpha);
            return Ok(-isa.node::<G, E>(self, after, true)?);
        }
        let k = key_of::<G>(p, o);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(k) {
            let scale = if e.solved() { SCALE } else { 1 };
            if e.solved() || e.depth as u32 >= depth {
                let (lo, hi) = (e.lower as i32 * scale, e.upper as i32 * scale);
                if lo >= n.beta || lo == hi {
                    return Ok(lo);
                }
                if hi <= n.alpha {
                    return Ok(hi);
                }
                n.alpha = n.alpha.max(lo);
                n.beta = n.beta.min(hi);
            }
            hash_move = e.best;
        }
        if let Some(m) = probcut::margin(self.cut, empties, depth) {
            // A shallow search that clears the window by the margin stands
            // for the full one (see `probcut`); bounds no score can pass
            // are not tried.
            let shallow = Node {
                depth: probcut::shallow_depth(depth),
                ..n
            };
            // No score is beyond a whole board of discs.
            let max_score = G::SQUARES as i32 * SCALE;
            // The static evaluation tells which test may pass (see
            // `probcut::STATIC_REACH`), and is the test at depths 1 and 2.
            let stat = self.eval.evaluate_state(isa, n.state, p, o, moves);
            let high = n.beta.saturating_add(m);
            if high <= max_score && self.clears::<G, I>(isa, shallow, stat, high, true)? {
                return Ok(n.beta);
            }
            let low = n.alpha.saturating_sub(m);
            if low >= -max_score && self.clears::<G, I>(isa, shallow, stat, low, false)? {
                return Ok(n.alpha);
            }
        }
        // The list's capacity: every move of the board (the const test
        // folds away).
        if G::SQUARES as usize <= MAX_MOVES {
            let mut list = MoveList::<G::B, MAX_MOVES>::new();
            if depth == 1 {
                return self
                    .search_frontier::<G, I, MAX_MOVES>(isa, n, &mut list, moves, hash_move, k);
            }
            self.search_moves::<G, I, MAX_MOVES>(isa, n, &mut list, moves, hash_move, k)
        } else {
            let mut list = MoveList::<G::B, MAX_MOVES_ANY>::new();
            if depth == 1 {
                return self.search_frontier::<G, I, MAX_MOVES_ANY>(
                    isa, n, &mut list, moves, hash_move, k,
                );
            }
            self.search_moves::<G, I, MAX_MOVES_ANY>(isa, n, &mut list, moves, hash_move, k)
        }
    }

    /// A node searched to its end (`extra` plies past its empties): handed
    /// to the solver, exact or as selective as this search, which sees the
    /// same tree at a fraction of the cost (no evaluation to update, the
    /// solver's ordering and cuts). Its score in whole discs, fail-soft,
    /// is this search's in centi-discs.
    #[inline(never)]
    fn solve<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        extra: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let selective = self
            .cut
            .is_finite()
            .then_some(Selective { t: self.cut, extra });
        let mut solver = Solver {
            table: self.table,
            budget: self.budget,
            eval: self.eval,
            busy: self.busy,
            selective,
        };
        // The whole-disc window that decides the same: v <= alpha / SCALE
        // exactly when v * SCALE <= alpha, and so for beta, rounded up.
        let lo = alpha.div_euclid(SCALE);
        let hi = -(-beta).div_euclid(SCALE);
        Ok(solver.solve(Position::<G>::new(p, o), lo, hi)? * SCALE)
    }

    /// Whether the search of ProbCut's test (`shallow`, its depth that of
    /// the test, its window unused) clears `bound`: reaches it when `up`,
    /// else stays at or below it. With no ply, the static evaluation
    /// `stat` is that search; otherwise the search runs only where `stat`
    /// lies within [`probcut::STATIC_REACH`] of the bound.
    #[inline(always)]
    fn clears<G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        shallow: Node<'_, G, E::State>,
        stat: i32,
        bound: i32,
        up: bool,
    ) -> Result<bool, Abort>
    where
        E: Evaluate<G>,
    {
        let gap = if up { bound - stat } else { stat - bound };
        if shallow.depth == 0 || gap > probcut::STATIC_REACH {
            return Ok(gap <= 0);
        }
        Ok(if up {
            let test = Node {
                alpha: bound - 1,
                beta: bound,
                ..shallow
            };
            isa.node::<G, E>(self, test, false)? >= bound
        } else {
            let test = Node {
                alpha: bound,
                beta: bound + 1,
                ..shallow
            };
            isa.node::<G, E>(self, test, false)? <= bound
        })
    }

    /// The node's moves searched in order into `list`, and the result
    /// stored under the node's key `k`.
    #[inline(always)]
    fn search_moves<G: Geometry, I: Recursion, const CAP: usize>(
        &mut self,
        isa: I,
        mut n: Node<'_, G, E::State>,
        list: &mut MoveList<G::B, CAP>,
        moves: G::B,
        hash_move: u16,
        k: Key,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (p, o) = (n.p, n.o);
        let reorder = self.order::<G, I, CAP>(isa, &n, list, moves, hash_move);
        let (alpha0, beta0) = (n.alpha, n.beta);
        let mut best = Best::none(INF);
        let mut deferral = Deferral::new(self.busy.filter(|_| n.depth >= DEFER_DEPTH));
        'passes: for pass in 0..2 {
            for i in 0..list.len() {
                let (x, f) = list.select(i);
                let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
                let Some(claim) = deferral.start(pass, i, || key_of::<G>(cp, co)) else {
                    continue;
                };
                let cs = self.eval.play(n.state, x, f);
                let score = self.child::<G, I>(isa, &n, cp, co, &cs, i);
                deferral.done(claim);
                let score = score?;
                if best.take(score, x, &mut n.alpha, n.beta) {
                    break 'passes;
                }
                if i == 0 && reorder {
                    self.order_by_evaluation::<G, I, CAP>(isa, &n, list);
                }
            }
            if !deferral.waiting() {
                break;
            }
        }
        self.record(k, n.depth, best, alpha0, beta0);
        Ok(best.score)
    }

    /// A node one ply above the leaves, as [`Searcher::search_moves`]
    /// would search it, cheaper: each move's flips and the replies it
    /// leaves come at once, key the move fastest-first (the hash move
    /// first) and are the leaf's moves, and each leaf, whose value no
    /// window changes, is valued once (no null-window search and
    /// re-search).
    #[inline(always)]
    fn search_frontier<G: Geometry, I: Recursion, const CAP: usize>(
        &mut self,
        isa: I,
        n: Node<'_, G, E::State>,
        list: &mut MoveList<G::B, CAP>,
        moves: G::B,
        hash_move: u16,
        k: Key,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (p, o) = (n.p, n.o);
        let mut replies = [G::B::ZERO; CAP];
        for (i, x) in moves.squares().enumerate() {
            let (f, r) = isa.flips_and_replies::<G>(p, o, x);
            list.push(x, f);
            replies[i] = r;
            let key = if x as u16 == hash_move {
                i32::MIN
            } else {
                replies_key::<G>(r, o ^ f, p ^ f ^ G::B::bit(x), x)
            };
            list.set_key(i, key);
        }
        let (mut alpha, beta) = (n.alpha, n.beta);
        let mut best = Best::none(INF);
        for i in 0..list.len() {
            let j = list.select_index(i);
            let (x, f) = list.as_slice()[j];
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            self.budget.tick()?;
            let cs = self.eval.play(n.state, x, f);
            let score = -leaf_moving::<G, E, I>(isa, self.eval, &cs, cp, co, replies[j]);
            if best.take(score, x, &mut alpha, beta) {
                break;
            }
        }
        self.record(k, 1, best, n.alpha, n.beta);
        Ok(best.score)
    }

    /// Stores the result `best` (its score and move) of the search of
    /// `depth` plies within (alpha0, beta0) under the node's key `k`.
    #[inline(always)]
    fn record(&self, k: Key, depth: u32, best: Best, alpha0: i32, beta0: i32) {
        let (lo, hi) = bounds(best.score, alpha0, beta0, INF);
        self.table
            .store(k, depth.min(255) as u8, false, lo, hi, best.square);
    }

    /// The value for the side at the node `n` of its move `i` (0-based,
    /// in the node's order) to (cp, co), with the evaluation's state `cs`:
    /// the first move in the whole window, the others in a null window
    /// first (late ones at a null-window node reduced first, see
    /// [`LATE_MOVE_INDEX`]).
    #[inline(always)]
    fn child<G: Geometry, I: Recursion>(
        &mut self,
        isa: I,
        n: &Node<'_, G, E::State>,
        cp: G::B,
        co: G::B,
        cs: &E::State,
        i: usize,
    ) -> Result<i32, Abort>
    where
        E: Evaluate<G>,
    {
        let (depth, alpha, beta) = (n.depth, n.alpha, n.beta);
        let at = |depth: u32, alpha: i32, beta: i32| Node::new(cp, co, cs, depth, alpha, beta);
        if i == 0 {
            return Ok(-isa.node::<G, E>(self, at(depth - 1, -beta, -alpha), false)?);
        }
        if i >= LATE_MOVE_INDEX
            && depth >= LATE_MOVE_MIN_DEPTH
            && beta - alpha == 1
            && reduces_late_moves(self.cut)
        {
            let reduced = depth - 1 - LATE_MOVE_REDUCTION;
            let s = -isa.node::<G, E>(self, at(reduced, -alpha - 1, -alpha), false)?;
            if s <= alpha {
                return Ok(s);
            }
        }
        let s = -isa.node::<G, E>(self, at(depth - 1, -alpha - 1, -alpha), false)?;
        if s > alpha && s < beta {
            Ok(-isa.node::<G, E>(self, at(depth - 1, -beta, -s), false)?)
        } else {
            Ok(s)
        }
    }
}

recursion! {
    /// The midgame recursion, compiled once per instruction set: a node
    /// calls its children through `node`, which stays within the copy.
    trait Recursion:
    fn node[G: Geometry, E: Evaluate<G>]<G, E>(
        s: &mut Searcher<E>,
        n: Node<'_, G, E::State>,
        passed: bool,
    ) -> Result<i32, Abort> = body::<G>;
}

#[cfg(test)]
mod tests;
