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

use super::endgame::{Selective, Solver};
use super::moves::{MoveList, MAX_MOVES, MAX_MOVES_ANY};
use super::parallel::{Busy, Deferral};
use super::probcut;
use super::recursion::recursion;
use super::table::{bounds, key_of, Key, Table, NO_MOVE};
use super::{Abort, Budget};
#[cfg(target_arch = "x86_64")]
use crate::board::isa::{Avx512, Haswell};
use crate::board::isa::{Isa, Portable};
use crate::board::{final_score, Bits, Geometry, Position};
use crate::eval::{Evaluate, SCALE};

/// Above any midgame or final score (256 discs at most), in centi-discs.
pub const INF: i32 = 300 * SCALE;

/// From this remaining depth on, the moves are ordered by the static
/// evaluation of the position each leaves too: a node without a hash move
/// orders all its moves so, a node with one only the moves after it, once
/// it has failed to cut (most nodes with a hash move cut on it). Measured
/// on `benches/data/wthor-40.obf` (with the shallow-search ordering of
/// then, below): depth 16 at selectivity 0, 4,332,895 to 3,780,751 nodes
/// and 0.85-0.92x the time over four rounds (both builds at once); 12 at
/// selectivity 4, 7,976,290 to 6,509,974; 12 at selectivity 0, 653,592
/// to 568,969. From depth 3, 2.7% fewer nodes but 1.00-1.13x the time;
/// from 2, 1.07x; the hash node's other moves ordered before it is
/// searched, 1.09x. With it, the ordering of nodes without a hash move by
/// a shallow search (from depth 8, of depth/2 - 1 plies) no longer paid
/// and is gone: 21/0 32.8 M nodes with it, 29.3 M without; 18/1 26.1 M,
/// 24.8 M; 14/4 22.7 M, 22.5 M (from depth 10 or 12, or a third of the
/// depth, between the two).
const EVAL_ORDER_DEPTH: u32 = 4;

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
/// ProbCut's shallow searches do. Measured on `benches/data/wthor-40.obf`
/// at selectivity 0: depth 12 399,085 nodes instead of 551,283, depth 16
/// 1,830,598 instead of 3,209,574. At equal time against NTest depth 16,
/// 0.503 against 0.480 without (800 XOT games each); against depth 12,
/// 0.475 against 0.481 (1,600) and 0.475 against 0.444 (800) in two runs
/// (docs/benchmarks.md). One ply from the fourth move at depth 3: fewer
/// nodes saved, 0.463 against 0.462. Against NTest depth 12 at equal time
/// (1,600 games each, beside the build as it is), neither of two bolder
/// settings paid although both took fewer nodes: reductions at PV nodes
/// too, 3,041,617 nodes at depth 18 instead of 3,587,952, 0.501 against
/// 0.526; from the third move, and by 4 plies from the seventh at 6 plies
/// and more, 335,369 at depth 12 instead of 399,016, 0.508 against 0.514.
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
fn leaf_moving<G: Geometry, E: Evaluate<G>, I: Isa>(
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
        // into the wipe-outs that a greedy opponent takes: they were 36 of
        // level 0's 47 losses in 400 games against the 1986 program.
        G::SQUARES as i32 * SCALE
    } else {
        if !moves.is_zero() {
            return eval.evaluate_state(isa, state, p, o, moves);
        }
        // A pass uses no depth, as in the search. The evaluation was
        // trained on positions whose mover has a move (the labelling steps
        // over passes), so it does not know what a pass costs: a depth-1
        // search scored the moves that leave the opponent without a reply
        // far from their value (5 of level 1's 24 lost or drawn games in
        // 400 against the 1986 program).
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
fn wipes_out<G: Geometry>(p: G::B, o: G::B) -> bool {
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
        let n = Node::new(p, o, &state, depth, alpha, beta);
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Avx512::detect() {
            return isa.node::<G, E>(self, n, false);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = Haswell::detect() {
            return isa.node::<G, E>(self, n, false);
        }
        Portable.node::<G, E>(self, n, false)
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
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
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
                if score > best {
                    best = score;
                    best_sq = x as u16;
                    if score > n.alpha {
                        n.alpha = score;
                        if n.alpha >= n.beta {
                            break 'passes;
                        }
                    }
                }
                if i == 0 && reorder {
                    self.order_by_evaluation::<G, I, CAP>(isa, &n, list);
                }
            }
            if !deferral.waiting() {
                break;
            }
        }
        self.record(k, n.depth, best, best_sq, alpha0, beta0);
        Ok(best)
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
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for i in 0..list.len() {
            let j = list.select_index(i);
            let (x, f) = list.as_slice()[j];
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            self.budget.tick()?;
            let cs = self.eval.play(n.state, x, f);
            let score = -leaf_moving::<G, E, I>(isa, self.eval, &cs, cp, co, replies[j]);
            if score > best {
                best = score;
                best_sq = x as u16;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.record(k, 1, best, best_sq, n.alpha, n.beta);
        Ok(best)
    }

    /// Stores the result `best` (by the move `best_sq`) of the search of
    /// `depth` plies within (alpha0, beta0) under the node's key `k`.
    #[inline(always)]
    fn record(&self, k: Key, depth: u32, best: i32, best_sq: u16, alpha0: i32, beta0: i32) {
        let (lo, hi) = bounds(best, alpha0, beta0, INF);
        self.table
            .store(k, depth.min(255) as u8, false, lo, hi, best_sq);
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

    /// Fills `list` with the moves of the node `n` (`moves`) and their
    /// flips, keyed best (lowest) first: the hash move, then the others
    /// fastest-first, from [`EVAL_ORDER_DEPTH`] with the static evaluation
    /// where there is no hash move. True when the moves after the hash
    /// move are left unkeyed here, to be keyed by
    /// [`Searcher::order_by_evaluation`] once it has been searched without
    /// a cut.
    #[inline(always)]
    fn order<G: Geometry, I: Recursion, const CAP: usize>(
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
    fn order_by_evaluation<G: Geometry, I: Recursion, const CAP: usize>(
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

/// Lower is better for the mover who just played `x` leading to (cp, co):
/// few replies (corners count double), few squares next to the mover's
/// discs, a good square.
#[inline]
fn fastest_first_key<G: Geometry, I: Isa>(isa: I, cp: G::B, co: G::B, x: u32) -> i32 {
    replies_key::<G>(isa.moves::<G>(cp, co), cp, co, x)
}

/// [`fastest_first_key`] with the opponent's `replies` known.
#[inline]
fn replies_key<G: Geometry>(replies: G::B, cp: G::B, co: G::B, x: u32) -> i32 {
    let corners = replies & G::CORNERS;
    let potential = (G::neighbours(co) & !(cp | co) & G::ALL).count() as i32;
    (replies.count() + corners.count()) as i32 * 16 + potential * 2 - G::square_value(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{exact, negamax, random_position, random_positions};
    use crate::eval::Evaluator;

    /// Plain negamax over the same evaluation: no pruning, no table.
    fn minimax<G: Geometry>(pos: Position<G>, depth: u32) -> i32 {
        negamax(pos, depth, SCALE, &|x: Position<G>| {
            leaf::<G, V1, _>(Portable, &V1, &(), x.player, x.opponent)
        })
    }

    use crate::board::*;
    use crate::eval::V1;
    use crate::rng::Rng;
    use std::sync::atomic::AtomicBool;

    /// A search with the `V1` evaluation and no cuts, on one thread.
    fn exact_v1_searcher<'t, 'b>(
        table: &'t Table,
        budget: &'t mut Budget<'b>,
    ) -> Searcher<'t, 'b, V1> {
        Searcher {
            table,
            budget,
            eval: &V1,
            cut: f32::INFINITY,
            busy: None,
        }
    }

    fn pruning_never_changes_the_value<G: Geometry>(games: usize, max_depth: u32) {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(3 + G::N as u64);
        let mut table = Table::new(2);
        for game in 0..games {
            let mut pos = Position::<G>::start();
            let plies = 2 + rng.below(G::SQUARES as usize - 6);
            for _ in 0..plies {
                let moves: Vec<u32> = pos.legal_moves().squares().collect();
                if moves.is_empty() {
                    pos = pos.pass();
                    if pos.legal_moves().is_zero() {
                        break;
                    }
                    continue;
                }
                pos = pos.play(moves[rng.below(moves.len())]).unwrap();
            }
            for depth in 1..=max_depth {
                let exact = minimax(pos, depth);
                if game % 2 == 0 {
                    table.clear();
                }
                let mut budget = Budget::new(&stop);
                let mut s = exact_v1_searcher(&table, &mut budget);
                assert_eq!(
                    s.pvs(pos, depth, -INF, INF).unwrap(),
                    exact,
                    "depth {depth} {pos:?}"
                );
            }
        }
    }

    #[test]
    fn pruning_never_changes_the_value_on_any_size() {
        pruning_never_changes_the_value::<S4>(20, 5);
        pruning_never_changes_the_value::<S6>(20, 4);
        pruning_never_changes_the_value::<S8>(20, 4);
        pruning_never_changes_the_value::<S10>(6, 3);
        pruning_never_changes_the_value::<S16>(3, 3);
    }

    /// A search that reaches the end (its depth at least its empties) is
    /// the solver's: with no cuts, the exact score in centi-discs, and
    /// fail-soft bounds on it in a null window, whatever the window's
    /// rounding to whole discs.
    #[test]
    fn a_search_past_the_empties_is_the_exact_solve() {
        let stop = AtomicBool::new(false);
        let table = Table::new(2);
        let mut rng = Rng::new(5);
        let mut checked = 0;
        while checked < 30 {
            let empties = 1 + rng.below(12) as u32;
            let Some(pos) = random_position::<S8>(&mut rng, empties) else {
                continue;
            };
            let exact = exact(pos) * SCALE;
            let mut budget = Budget::new(&stop);
            let mut s = exact_v1_searcher(&table, &mut budget);
            let depth = empties + rng.below(3) as u32;
            assert_eq!(s.pvs(pos, depth, -INF, INF).unwrap(), exact, "{pos:?}");
            for bound in [exact - SCALE / 2, exact, exact + SCALE / 2] {
                let v = s.pvs(pos, depth, bound - 1, bound).unwrap();
                assert_eq!(v >= bound, exact >= bound, "{pos:?} bound {bound}: {v}");
            }
            checked += 1;
        }
    }

    /// The portable and x86-64-v3 copies of the recursion (which this
    /// machine may not run by default) give the same values and node
    /// counts as the dispatched one, with the trained evaluation and with
    /// ProbCut's cuts.
    #[test]
    fn every_copy_equals_the_dispatched_one() {
        /// The value and nodes of `pos` at depth 5 by the copy of `isa`, or
        /// by the dispatched one (None).
        fn by<I: Recursion>(isa: Option<I>, eval: &Evaluator, pos: Position<S8>) -> (i32, u64) {
            let stop = AtomicBool::new(false);
            let table = Table::new(1);
            let mut budget = Budget::new(&stop);
            let mut s = Searcher {
                table: &table,
                budget: &mut budget,
                eval,
                cut: 1.5,
                busy: None,
            };
            let (p, o) = (pos.player, pos.opponent);
            let v = match isa {
                None => s.pvs(pos, 5, -INF, INF),
                Some(isa) => {
                    let state = Evaluate::<S8>::state(eval, p, o);
                    isa.node::<S8, _>(&mut s, Node::new(p, o, &state, 5, -INF, INF), false)
                }
            };
            (v.unwrap(), budget.nodes)
        }
        let eval = Evaluator::trained();
        for pos in random_positions::<S8>(31, 4).into_iter().step_by(6) {
            let dispatched = by(None::<Portable>, &eval, pos);
            assert_eq!(by(Some(Portable), &eval, pos), dispatched, "{pos:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(isa) = Haswell::detect() {
                assert_eq!(by(Some(isa), &eval, pos), dispatched, "{pos:?}");
            }
        }
    }

    #[test]
    fn only_the_loosest_selectivity_reduces_late_moves() {
        assert!(reduces_late_moves(probcut::SELECTIVITY_T[0]));
        for &t in &probcut::SELECTIVITY_T[1..] {
            assert!(!reduces_late_moves(t), "t = {t}");
        }
    }

    #[test]
    fn wipeout_at_the_depth_limit_is_seen() {
        // After this opening, d6 c6 c7 b8 wipes black out: 4 plies.
        let game = crate::notation::parse_transcript::<S8>("d3c3f5d2c4g6f4c5e6d7f6g4").unwrap();
        let child = game
            .position()
            .play(crate::notation::parse_square(8, "d6").unwrap())
            .unwrap();
        let stop = AtomicBool::new(false);
        let table = Table::new(1);
        let mut budget = Budget::new(&stop);
        let mut s = exact_v1_searcher(&table, &mut budget);
        assert_eq!(-s.pvs(child, 3, -INF, INF).unwrap(), -64 * SCALE);
    }

    #[test]
    fn a_wipeout_one_move_beyond_the_depth_limit_is_seen() {
        // After this opening, d6 c6 c7 b8 wipes black out: after d6 c6 c7,
        // white's b8 flips every black disc.
        let game = crate::notation::parse_transcript::<S8>("d3c3f5d2c4g6f4c5e6d7f6g4").unwrap();
        let mut line = vec![game.position()];
        for m in ["d6", "c6", "c7"] {
            let sq = crate::notation::parse_square(8, m).unwrap();
            line.push(line[line.len() - 1].play(sq).unwrap());
        }
        let (before, pos) = (line[2], line[3]);
        assert!(wipes_out::<S8>(pos.player, pos.opponent));
        assert_eq!(
            leaf::<S8, V1, _>(Portable, &V1, &(), pos.player, pos.opponent),
            64 * SCALE
        );
        // One move earlier no single move flips all of white's discs.
        assert!(!wipes_out::<S8>(before.player, before.opponent));
    }

    /// At the leaf, a mover without a move is valued after its pass, and
    /// a finished game exactly, on the positions of random games of every
    /// size (the trained evaluation on 8x8, v1 on all).
    fn a_mover_that_must_pass_is_valued_after_the_pass<G: Geometry, E: Evaluate<G>>(
        eval: &E,
        games: usize,
    ) {
        let (mut passes, mut over) = (0, 0);
        for pos in crate::board::testing::random_positions::<G>(17 + G::N as u64, games) {
            if !pos.legal_moves().is_zero() {
                continue;
            }
            let (p, o) = (pos.player, pos.opponent);
            let value = leaf::<G, E, _>(Portable, eval, &eval.state(p, o), p, o);
            if pos.is_game_over() {
                assert_eq!(value, terminal::<G>(p, o), "{pos:?}");
                over += 1;
            } else {
                let after = leaf::<G, E, _>(Portable, eval, &eval.state(o, p), o, p);
                assert_eq!(value, -after, "{pos:?}");
                passes += 1;
            }
        }
        assert!(
            passes > 0 && over > 0,
            "size {}: {passes} passes, {over} ends",
            G::N
        );
    }

    #[test]
    fn a_mover_that_must_pass_is_valued_after_the_pass_on_any_size() {
        a_mover_that_must_pass_is_valued_after_the_pass::<S4, _>(&V1, 200);
        a_mover_that_must_pass_is_valued_after_the_pass::<S6, _>(&V1, 300);
        a_mover_that_must_pass_is_valued_after_the_pass::<S8, _>(&V1, 500);
        let trained = crate::eval::Evaluator::trained();
        a_mover_that_must_pass_is_valued_after_the_pass::<S8, _>(&trained, 500);
        a_mover_that_must_pass_is_valued_after_the_pass::<S10, _>(&V1, 100);
    }

    /// An evaluation that checks, at every leaf the search reaches, that the
    /// value through its state is the value read from the board.
    struct Checked<E>(E);

    impl<G: Geometry, E: Evaluate<G>> Evaluate<G> for Checked<E> {
        type State = E::State;
        fn evaluate(&self, p: G::B, o: G::B) -> i32 {
            self.0.evaluate(p, o)
        }
        fn state(&self, p: G::B, o: G::B) -> E::State {
            self.0.state(p, o)
        }
        fn play(&self, s: &E::State, x: u32, flips: G::B) -> E::State {
            self.0.play(s, x, flips)
        }
        fn pass(&self, s: &E::State) -> E::State {
            self.0.pass(s)
        }
        fn evaluate_state<I: Isa>(
            &self,
            isa: I,
            s: &E::State,
            p: G::B,
            o: G::B,
            moves: G::B,
        ) -> i32 {
            assert!(moves == G::moves(p, o));
            let v = self.0.evaluate_state(isa, s, p, o, moves);
            assert_eq!(v, self.0.evaluate(p, o), "{:?}", Position::<G>::new(p, o));
            v
        }
    }

    /// Searches of random-game positions (exact and selective, so that
    /// ProbCut's shallow searches and the ordering searches run too) with
    /// the trained evaluation, whose state the search updates move by move.
    fn the_incremental_evaluation_is_the_evaluation_in_search<G: Geometry>(games: usize) {
        let stop = AtomicBool::new(false);
        let mut table = Table::new(2);
        let eval = Checked(crate::eval::Evaluator::trained());
        let positions = crate::board::testing::random_positions::<G>(23 + G::N as u64, games);
        for (i, pos) in positions.into_iter().enumerate().step_by(5) {
            table.clear();
            let mut budget = Budget::new(&stop);
            let mut s = Searcher {
                table: &table,
                budget: &mut budget,
                eval: &eval,
                cut: if i % 2 == 0 { f32::INFINITY } else { 1.5 },
                busy: None,
            };
            s.pvs(pos, 5, -INF, INF).unwrap();
        }
    }

    #[test]
    fn the_incremental_evaluation_is_the_evaluation_in_search_on_any_size() {
        the_incremental_evaluation_is_the_evaluation_in_search::<S8>(12);
        the_incremental_evaluation_is_the_evaluation_in_search::<S6>(6);
        the_incremental_evaluation_is_the_evaluation_in_search::<S10>(1);
    }

    /// `wipes_out` against trying every move, on the positions with moves
    /// of random games of every size.
    fn wipes_out_agrees_with_every_move<G: Geometry>(games: usize) {
        let mut found = 0;
        for pos in crate::board::testing::random_positions::<G>(11 + G::N as u64, games) {
            let moves = pos.legal_moves();
            if moves.is_zero() {
                continue;
            }
            let every = moves.squares().any(|m| pos.flips(m) == pos.opponent);
            assert_eq!(wipes_out::<G>(pos.player, pos.opponent), every);
            found += every as usize;
        }
        assert!(
            found > 0,
            "no wipe-out in {games} random games of size {}",
            G::N
        );
    }

    #[test]
    fn wipes_out_agrees_with_every_move_on_any_size() {
        wipes_out_agrees_with_every_move::<S4>(200);
        wipes_out_agrees_with_every_move::<S6>(500);
        wipes_out_agrees_with_every_move::<S8>(2000);
    }
}
