//! The midgame search: negamax principal-variation search over the
//! evaluation, with the transposition table and move ordering (hash move,
//! then shallow-search scores at higher depths, else fastest-first with
//! potential mobility and square values). Scores are in centi-discs
//! (`eval::SCALE` per disc); finished games score their exact result.

use crate::endgame::{Abort, Budget};
use crate::eval::SCALE;
use crate::hash::{Table, NO_MOVE};
use crate::pattern::Evaluator;
use crate::position::{flips_of, moves_of, neighbours, Position};
use crate::square::Square;

/// Above any midgame or final score, in centi-discs.
pub const INF: i32 = 100 * SCALE;

/// From this remaining depth on, moves are ordered by a shallow search.
const SHALLOW_ORDER_DEPTH: u32 = 4;

/// A static preference for squares, for ordering only (corners best, the
/// squares diagonally next to corners worst).
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// A midgame searcher over one transposition table.
pub struct Searcher<'t, 'b> {
    pub table: &'t mut Table,
    pub budget: &'t mut Budget<'b>,
    /// The evaluation at the depth limit.
    pub eval: &'t Evaluator,
}

/// The value at the depth limit: the evaluation, except for the finished
/// games that are cheap to see (a side wiped out, or a full board), which
/// get their exact result.
#[inline]
fn leaf(eval: &Evaluator, p: u64, o: u64) -> i32 {
    if p == 0 || o == 0 || p | o == u64::MAX {
        terminal(p, o)
    } else {
        eval.evaluate(Position::new(crate::Bitboard(p), crate::Bitboard(o)))
    }
}

/// The final result of a finished game, in centi-discs.
#[inline]
fn terminal(p: u64, o: u64) -> i32 {
    Position::new(crate::Bitboard(p), crate::Bitboard(o)).final_score() * SCALE
}

impl Searcher<'_, '_> {
    /// The value of `pos` searched `depth` plies deep, fail-soft within
    /// (alpha, beta).
    pub fn pvs(&mut self, pos: Position, depth: u32, alpha: i32, beta: i32) -> Result<i32, Abort> {
        self.node(pos.player.0, pos.opponent.0, depth, alpha, beta, false)
    }

    fn node(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> Result<i32, Abort> {
        self.budget.tick()?;
        if depth == 0 {
            return Ok(leaf(self.eval, p, o));
        }
        let moves = moves_of(p, o);
        if moves == 0 {
            if passed || moves_of(o, p) == 0 {
                return Ok(if passed {
                    -terminal(o, p)
                } else {
                    terminal(p, o)
                });
            }
            // A pass uses no depth: the same side decisions are searched.
            return Ok(-self.node(o, p, depth, -beta, -alpha, true)?);
        }
        let pos = Position::new(crate::Bitboard(p), crate::Bitboard(o));
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(pos) {
            let scale = if e.solved { SCALE } else { 1 };
            if e.solved || e.depth as u32 >= depth {
                let (lo, hi) = (e.lower as i32 * scale, e.upper as i32 * scale);
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
        let list = self.order(p, o, moves, hash_move, depth)?;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for (i, &(x, f)) in list.iter().enumerate() {
            let (cp, co) = (o ^ f, p ^ f ^ (1u64 << x));
            let score = if i == 0 {
                -self.node(cp, co, depth - 1, -beta, -alpha, false)?
            } else {
                let s = -self.node(cp, co, depth - 1, -alpha - 1, -alpha, false)?;
                if s > alpha && s < beta {
                    -self.node(cp, co, depth - 1, -beta, -s, false)?
                } else {
                    s
                }
            };
            if score > best {
                best = score;
                best_sq = x;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lo, hi) = if best <= alpha0 {
            (-INF, best)
        } else if best >= beta0 {
            (best, INF)
        } else {
            (best, best)
        };
        self.table
            .store(pos, depth.min(255) as u8, false, lo, hi, best_sq);
        Ok(best)
    }

    /// The moves of `p` with their flips, best first.
    fn order(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        hash_move: u8,
        depth: u32,
    ) -> Result<Vec<(u8, u64)>, Abort> {
        let mut scored: Vec<(i32, u8, u64)> = Vec::with_capacity(moves.count_ones() as usize);
        let mut rest = moves;
        while rest != 0 {
            let x = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips_of(p, o, Square::from_index_unchecked(x));
            let (cp, co) = (o ^ f, p ^ f ^ (1u64 << x));
            let key = if x == hash_move {
                i32::MAX
            } else if depth >= SHALLOW_ORDER_DEPTH {
                // A shallow search of the reply, as the deeper search will see it.
                let d = (depth / 2 - 1).max(1);
                let s = -self.node(cp, co, d, -INF, INF, false)?;
                s * 4 - fastest_first_key(cp, co, x)
            } else {
                -fastest_first_key(cp, co, x)
            };
            scored.push((key, x, f));
        }
        scored.sort_unstable_by_key(|&(k, _, _)| std::cmp::Reverse(k));
        Ok(scored.into_iter().map(|(_, x, f)| (x, f)).collect())
    }
}

/// Lower is better for the mover who just played `x` leading to (cp, co):
/// few replies (corners count double), few squares next to the mover's
/// discs, a good square.
#[inline]
fn fastest_first_key(cp: u64, co: u64, x: u8) -> i32 {
    let replies = moves_of(cp, co);
    let corners = replies & 0x8100_0000_0000_0081;
    let potential = (neighbours(co) & !(cp | co)).count_ones() as i32;
    (replies.count_ones() + corners.count_ones()) as i32 * 16 + potential * 2
        - SQUARE_VALUE[x as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::sync::atomic::AtomicBool;

    /// Plain negamax over the same evaluation: no pruning, no table.
    fn minimax(p: u64, o: u64, depth: u32, passed: bool) -> i32 {
        if depth == 0 {
            return leaf(&Evaluator::V1, p, o);
        }
        let moves = moves_of(p, o);
        if moves == 0 {
            if passed || moves_of(o, p) == 0 {
                return if passed {
                    -terminal(o, p)
                } else {
                    terminal(p, o)
                };
            }
            return -minimax(o, p, depth, true);
        }
        crate::Bitboard(moves)
            .map(|sq| {
                let f = flips_of(p, o, sq);
                -minimax(o ^ f, p ^ f ^ (1 << sq.index()), depth - 1, false)
            })
            .max()
            .expect("moves is not empty")
    }

    #[test]
    fn pruning_never_changes_the_value() {
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(3);
        let mut table = Table::new(2);
        for game in 0..40 {
            let mut pos = Position::start();
            let plies = 4 + rng.below(40);
            for _ in 0..plies {
                let moves: Vec<Square> = pos.legal_moves().collect();
                if moves.is_empty() {
                    pos = pos.pass();
                    if pos.legal_moves().is_empty() {
                        break;
                    }
                    continue;
                }
                let sq = moves[rng.below(moves.len())];
                pos = pos.play_with(sq, pos.flips(sq));
            }
            for depth in 1..=4 {
                let exact = minimax(pos.player.0, pos.opponent.0, depth, false);
                if game % 2 == 0 {
                    table.clear();
                }
                let mut budget = Budget::new(&stop);
                let mut s = Searcher {
                    table: &mut table,
                    budget: &mut budget,
                    eval: &Evaluator::V1,
                };
                assert_eq!(
                    s.pvs(pos, depth, -INF, INF).unwrap(),
                    exact,
                    "depth {depth} {pos:?}"
                );
            }
        }
    }

    #[test]
    fn wipeout_at_the_depth_limit_is_seen() {
        // After this opening, d6 c6 c7 b8 wipes black out: 4 plies.
        let game = crate::notation::parse_transcript("d3c3f5d2c4g6f4c5e6d7f6g4").unwrap();
        let pos = game.position();
        let d6 = "d6".parse().unwrap();
        let child = pos.play_with(d6, pos.flips(d6));
        let stop = AtomicBool::new(false);
        let mut table = Table::new(1);
        let mut budget = Budget::new(&stop);
        let mut s = Searcher {
            table: &mut table,
            budget: &mut budget,
            eval: &Evaluator::V1,
        };
        assert_eq!(-s.pvs(child, 3, -INF, INF).unwrap(), -64 * SCALE);
    }
}
