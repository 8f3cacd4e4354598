//! The exact solver on any board size: final disc differences (empties to
//! the winner) by alpha-beta over every remaining move, with the techniques
//! of [`crate::endgame`]: the last square by counting flips, the last few
//! empties walked directly (odd quadrants first), and above that generated
//! moves ordered fastest-first, the transposition table, and a cut on
//! stable discs.

use super::bits::Bits;
use super::geometry::Geometry;
use super::hash::{key, SizedTable, NO_MOVE};
use super::position::{distinct_moves, final_score, flips_of, moves_of, neighbours, step, Pos};
use super::search::Searcher;
use crate::endgame::{Abort, Budget};

/// Above this many empties the solver generates and orders moves.
const SHALLOW: u32 = 6;
/// From this many empties on, results go to the transposition table.
const HASH_EMPTIES: u32 = 8;
/// From this many empties on, the children are looked up before searching.
const ETC_EMPTIES: u32 = 14;
/// From this many empties on, symmetric moves of a symmetric position are
/// searched once.
const SYMMETRY_EMPTIES: u32 = 20;
/// Higher than any score (256 discs at most).
pub const INF: i32 = 300;

/// `EVAL_ORDER[d]`: from this many empties on, moves are ordered with a
/// midgame search of depth `d` (0 = the evaluation alone).
const EVAL_ORDER: [u32; 4] = [12, 18, 22, 26];
/// Weight of that search value (centi-discs) against mobility (256 a move).
const EVAL_ORDER_WEIGHT: i32 = 2;

/// Empties in quadrants holding an odd number of empties.
#[inline]
fn odd_quadrant_empties<G: Geometry>(empties: G::B) -> G::B {
    let mut odd = G::B::ZERO;
    for &q in &G::tables().quadrants {
        if (empties & q).count() & 1 == 1 {
            odd |= empties & q;
        }
    }
    odd
}

/// Discs of `p` that can never be flipped (a safe under-estimate): along
/// each of the four axes, on a full line, on the edge, or next to a stable
/// disc of their own colour.
pub fn stable_discs<G: Geometry>(p: G::B, o: G::B) -> G::B {
    let t = G::tables();
    let filled = p | o;
    let full = |lines: &[G::B]| {
        lines
            .iter()
            .filter(|&&l| filled & l == l)
            .fold(G::B::ZERO, |a, &l| a | l)
    };
    let (full_h, full_v) = (full(&t.rows), full(&t.cols));
    let (full_d, full_a) = (full(&t.diagonals), full(&t.anti_diagonals));
    let mut stable = G::B::ZERO;
    loop {
        let h = full_h | t.edge_cols | step::<G, 0>(stable) | step::<G, 1>(stable);
        let v = full_v | t.edge_rows | step::<G, 2>(stable) | step::<G, 3>(stable);
        let d = full_d | G::EDGES | step::<G, 4>(stable) | step::<G, 5>(stable);
        let a = full_a | G::EDGES | step::<G, 6>(stable) | step::<G, 7>(stable);
        let next = p & h & v & d & a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The exact score with one empty square `x` left, by counting flips.
#[inline]
fn last_square<G: Geometry>(p: G::B, o: G::B, x: u32) -> i32 {
    let squares = G::SQUARES as i32;
    let n = p.count() as i32;
    let f = flips_of::<G>(p, o, x);
    if !f.is_zero() {
        return 2 * (n + f.count() as i32 + 1) - squares;
    }
    let g = flips_of::<G>(o, p, x);
    if !g.is_zero() {
        return 2 * (n - g.count() as i32) - squares;
    }
    // Nobody can play it: an odd number of discs, so never a draw.
    let diff = 2 * n - (squares - 1);
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

/// An exact solver over one transposition table.
pub struct Solver<'t, 'b> {
    pub table: &'t mut SizedTable,
    pub budget: &'t mut Budget<'b>,
}

impl Solver<'_, '_> {
    /// The exact score of `pos` if it lies in (alpha, beta); otherwise a bound
    /// on the same side of the window (fail-soft).
    pub fn solve<G: Geometry>(&mut self, pos: Pos<G>, alpha: i32, beta: i32) -> Result<i32, Abort> {
        let (p, o) = (pos.player, pos.opponent);
        let empties = pos.empties();
        match empties.count() {
            0 => Ok(final_score::<G>(p, o)),
            1 => {
                self.budget.tick()?;
                Ok(last_square::<G>(p, o, empties.lowest()))
            }
            n if n <= SHALLOW => self.shallow::<G>(p, o, alpha, beta, false),
            _ => self.deep::<G>(p, o, alpha, beta, false),
        }
    }

    /// The best move of `pos` and its exact score (None when the side to
    /// move must pass or the game is over).
    pub fn best_move<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        alpha: i32,
        beta: i32,
    ) -> Result<(Option<u32>, i32), Abort> {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            return Ok((None, self.solve(pos, alpha, beta)?));
        }
        let score = self.solve(pos, alpha, beta)?;
        let best = self
            .table
            .probe(key(pos))
            // A move proved to reach the score (not a fail-low's hint).
            .filter(|e| e.solved && e.best != NO_MOVE && e.lower as i32 >= score)
            .map(|e| e.best as u32)
            .filter(|&s| s < G::SQUARES && moves.has(s));
        let best = match best {
            Some(s) => s,
            None => {
                // Small positions are not hashed: find the move that reaches the score.
                let mut found = None;
                for sq in moves.squares() {
                    let child = pos.play_with(sq, pos.flips(sq));
                    if -self.solve(child, -beta, -alpha)? == score {
                        found = Some(sq);
                        break;
                    }
                }
                found.unwrap_or_else(|| moves.lowest())
            }
        };
        Ok((Some(best), score))
    }

    /// 2..=SHALLOW empties: walk the empties, odd quadrants first.
    fn shallow<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        self.budget.tick()?;
        let empties = !(p | o) & G::ALL;
        if empties.count() == 2 {
            let x1 = empties.lowest();
            let x2 = empties.highest();
            return Ok(self.two_squares::<G>(p, o, alpha, beta, x1, x2, passed));
        }
        let neighbours_of = &G::tables().neighbours;
        let odd = odd_quadrant_empties::<G>(empties);
        let mut best = -INF;
        for set in [odd, empties & !odd] {
            for x in set.squares() {
                if (neighbours_of[x as usize] & o).is_zero() {
                    continue;
                }
                let f = flips_of::<G>(p, o, x);
                if f.is_zero() {
                    continue;
                }
                let score =
                    -self.shallow::<G>(o ^ f, p ^ f ^ G::B::bit(x), -beta, -alpha, false)?;
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return Ok(best);
                        }
                    }
                }
            }
        }
        if best == -INF {
            return if passed {
                Ok(final_score::<G>(p, o))
            } else {
                Ok(-self.shallow::<G>(o, p, -beta, -alpha, true)?)
            };
        }
        Ok(best)
    }

    /// Exactly two empties, `x1` and `x2`.
    #[allow(clippy::too_many_arguments)]
    fn two_squares<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        alpha: i32,
        beta: i32,
        x1: u32,
        x2: u32,
        passed: bool,
    ) -> i32 {
        self.budget.nodes += 1;
        let neighbours_of = &G::tables().neighbours;
        let mut best = -INF;
        if !(neighbours_of[x1 as usize] & o).is_zero() {
            let f = flips_of::<G>(p, o, x1);
            if !f.is_zero() {
                best = -last_square::<G>(o ^ f, p ^ f ^ G::B::bit(x1), x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if !(neighbours_of[x2 as usize] & o).is_zero() {
            let f = flips_of::<G>(p, o, x2);
            if !f.is_zero() {
                let score = -last_square::<G>(o ^ f, p ^ f ^ G::B::bit(x2), x1);
                return score.max(best);
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            final_score::<G>(p, o)
        } else {
            -self.two_squares::<G>(o, p, -beta, -alpha, x1, x2, true)
        }
    }

    /// More than SHALLOW empties: ordered moves, hash table, stability.
    fn deep<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        self.budget.tick()?;
        let empties = !(p | o) & G::ALL;
        let n = empties.count();
        if n <= SHALLOW {
            return self.shallow::<G>(p, o, alpha, beta, false);
        }
        let moves = moves_of::<G>(p, o);
        if moves.is_zero() {
            if passed {
                return Ok(-final_score::<G>(o, p));
            }
            if moves_of::<G>(o, p).is_zero() {
                return Ok(final_score::<G>(p, o));
            }
            return Ok(-self.deep::<G>(o, p, -beta, -alpha, true)?);
        }
        // Stability: the opponent's stable discs cap our score.
        let squares = G::SQUARES as i32;
        if squares - 2 * (o.count() as i32) <= alpha {
            let cap = squares - 2 * stable_discs::<G>(o, p).count() as i32;
            if cap <= alpha {
                return Ok(cap);
            }
            beta = beta.min(cap.max(alpha + 1));
        }
        let use_hash = n >= HASH_EMPTIES;
        let k = if use_hash {
            key(Pos::<G>::new(p, o))
        } else {
            0
        };
        let mut hash_move = NO_MOVE;
        if use_hash {
            if let Some(e) = self.table.probe(k) {
                if e.solved {
                    let (lo, hi) = (e.lower as i32, e.upper as i32);
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
        // A symmetric position (near the start) needs one move of each
        // symmetric set.
        let moves = if n >= SYMMETRY_EMPTIES {
            distinct_moves::<G>(p, o, moves)
        } else {
            moves
        };
        if n >= ETC_EMPTIES {
            // Enhanced transposition cutoff: a child already proved bad
            // enough for the opponent cuts without a search.
            for x in moves.squares() {
                let f = flips_of::<G>(p, o, x);
                let child = Pos::<G>::new(o ^ f, p ^ f ^ G::B::bit(x));
                if let Some(e) = self.table.probe(key(child)) {
                    if e.solved && -(e.upper as i32) >= beta {
                        return Ok(-(e.upper as i32));
                    }
                }
            }
        }
        let list = self.order_moves::<G>(p, o, moves, hash_move)?;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for (i, &(x, f)) in list.iter().enumerate() {
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            let score = if i == 0 {
                -self.deep::<G>(cp, co, -beta, -alpha, false)?
            } else {
                let s = -self.deep::<G>(cp, co, -alpha - 1, -alpha, false)?;
                if s > alpha && s < beta {
                    -self.deep::<G>(cp, co, -beta, -s, false)?
                } else {
                    s
                }
            };
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
        if use_hash {
            let (lo, hi) = if best <= alpha0 {
                (-squares, best)
            } else if best >= beta0 {
                (best, squares)
            } else {
                (best, best)
            };
            let proven = best > alpha0;
            self.table
                .store(k, n.min(255) as u8, true, lo, hi, best_sq, proven);
        }
        Ok(best)
    }

    /// Orders moves: the hash move first, then fewest opponent replies
    /// (corners counted double), odd-quadrant moves slightly preferred, fewest
    /// potential replies; with many empties, also the value of a shallow
    /// midgame search of each reply.
    fn order_moves<G: Geometry>(
        &mut self,
        p: G::B,
        o: G::B,
        moves: G::B,
        hash_move: u16,
    ) -> Result<Vec<(u32, G::B)>, Abort> {
        let empties = !(p | o) & G::ALL;
        let n = empties.count();
        let odd = odd_quadrant_empties::<G>(empties);
        let search_depth = EVAL_ORDER.iter().rposition(|&e| n >= e);
        let mut list: Vec<(i32, u32, G::B)> = Vec::with_capacity(moves.count() as usize);
        for x in moves.squares() {
            let f = flips_of::<G>(p, o, x);
            let (cp, co) = (o ^ f, p ^ f ^ G::B::bit(x));
            let key = if x as u16 == hash_move {
                i32::MIN
            } else {
                let replies = moves_of::<G>(cp, co);
                let corners = replies & G::CORNERS;
                let potential = (neighbours::<G>(co) & !(cp | co) & G::ALL).count() as i32;
                let mut key = ((replies.count() + corners.count()) as i32) * 256 + potential
                    - if odd.has(x) { 128 } else { 0 };
                if let Some(d) = search_depth {
                    let mut searcher = Searcher {
                        table: self.table,
                        budget: self.budget,
                    };
                    let inf = super::search::INF;
                    // The reply's value is the opponent's: higher is worse for us.
                    key += EVAL_ORDER_WEIGHT
                        * searcher.pvs(Pos::<G>::new(cp, co), d as u32, -inf, inf)?;
                }
                key
            };
            list.push((key, x, f));
        }
        list.sort_by_key(|&(k, _, _)| k);
        Ok(list.into_iter().map(|(_, x, f)| (x, f)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::sized::geometry::*;
    use std::sync::atomic::AtomicBool;

    /// Plain minimax of the final score: no pruning, no ordering.
    pub(crate) fn minimax<G: Geometry>(pos: Pos<G>) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            if pos.opponent_moves().is_zero() {
                return pos.final_score();
            }
            return -minimax(pos.pass());
        }
        moves
            .squares()
            .map(|sq| -minimax(pos.play_with(sq, pos.flips(sq))))
            .max()
            .expect("moves is not empty")
    }

    fn random_position<G: Geometry>(rng: &mut Rng, empties: u32) -> Option<Pos<G>> {
        let mut pos = Pos::<G>::start();
        while pos.empties().count() > empties {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            if moves.is_empty() {
                if pos.opponent_moves().is_zero() {
                    return None;
                }
                pos = pos.pass();
                continue;
            }
            pos = pos.play(moves[rng.below(moves.len())]).unwrap();
        }
        Some(pos)
    }

    fn solver_equals_minimax<G: Geometry>(count: usize, max_empties: u32) {
        let stop = AtomicBool::new(false);
        let mut table = SizedTable::new(4);
        let mut rng = Rng::new(42 + G::N as u64);
        let mut checked = 0;
        while checked < count {
            let empties = 1 + rng.below(max_empties as usize) as u32;
            let Some(pos) = random_position::<G>(&mut rng, empties) else {
                continue;
            };
            let exact = minimax(pos);
            let mut budget = Budget::new(&stop);
            let mut s = Solver {
                table: &mut table,
                budget: &mut budget,
            };
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

    #[test]
    fn solver_equals_minimax_on_every_size() {
        solver_equals_minimax::<S6>(60, 11);
        solver_equals_minimax::<S8>(20, 10);
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
                let st = stable_discs::<G>(p, o);
                assert!((st & !p).is_zero());
                for sq in pos.empties().squares() {
                    assert!((flips_of::<G>(o, p, sq) & st).is_zero());
                }
            }
            // A lone corner is stable.
            assert!(stable_discs::<G>(G::B::bit(0), G::START_WHITE) == G::B::bit(0));
        }
        check::<S4>();
        check::<S6>();
        check::<S10>();
        check::<S16>();
        // The generic 8x8 equals the dedicated one.
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            let empties = 8 + rng.below(30) as u32;
            let Some(pos) = random_position::<S8>(&mut rng, empties) else {
                continue;
            };
            assert_eq!(
                stable_discs::<S8>(pos.player, pos.opponent),
                crate::endgame::stable_discs(pos.player, pos.opponent)
            );
        }
    }
}
