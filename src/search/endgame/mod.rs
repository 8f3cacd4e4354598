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
//!
//! Here the solver, its entry points and its deep nodes; in `last` the
//! last empties, in `ordering` the order of the deep nodes' moves.

mod last;
mod ordering;

use last::last_square;
use ordering::move_key;

use super::midgame::Searcher;
use super::moves::MoveList;
use super::parallel::{Busy, Deferral};
use super::probcut;
use super::recursion::recursion;
use super::table::{bounds, key, key_of, Table, NO_MOVE};
use super::tuning::tuning;
use super::{Abort, Best, Budget};
use crate::board::position::distinct_moves;
use crate::board::{final_score, Bits, Geometry, Position};
use crate::eval::{Evaluate, SCALE};

/// Above this many empties the solver generates and orders moves. Against
/// 6 on 8x8: 0.98x the time on 20 random-game positions of 22 empties.
const SHALLOW: u32 = 5;
/// From this many empties on, results go to the transposition table.
const HASH_EMPTIES: u32 = 8;
/// From this many empties on, with other threads, a move another thread is
/// solving waits for last (see [`super::parallel`]). Against 12: FFO 40-49
/// on 2 threads in 0.89x the time, with 11% fewer nodes.
const DEFER_EMPTIES: u32 = 14;
/// Higher than any score (256 discs at most).
pub const INF: i32 = 300;

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
            n if n <= SHALLOW => dispatch::<false, G, E>(self, p, o, alpha, beta, false),
            _ => dispatch::<true, G, E>(self, p, o, alpha, beta, false),
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

    /// A node of the recursion (see [`dispatch`]), compiled once per
    /// [`Recursion`]: 2..=SHALLOW empties walk the empties, odd quadrants
    /// first (`DEEP` false); more use ordered moves, the table and
    /// stability (`DEEP` true).
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
        let mut best = Best::none(INF);
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
                if best.take(score, x, &mut alpha, beta) {
                    break 'passes;
                }
            }
            if !deferral.waiting() {
                break;
            }
        }
        if use_hash {
            let (lo, hi) = bounds(best.score, alpha0, beta0, squares);
            match self.selective {
                None => self
                    .table
                    .store(k, n.min(255) as u8, true, lo, hi, best.square),
                Some(sel) => self.table.store(
                    k,
                    (n + sel.extra).min(255) as u8,
                    false,
                    lo * SCALE,
                    hi * SCALE,
                    best.square,
                ),
            }
        }
        Ok(best.score)
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
    /// `DEEP`: the child's kind of node (see [`Solver::body`]), so that a
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
}

#[cfg(test)]
mod tests;
