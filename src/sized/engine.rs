//! The engine on any board size: [`crate::engine`]'s driver (iterative
//! deepening with aspiration windows, the exact or win/loss/draw solve near
//! the end, randomness, the classic strategies) over the sized search and
//! solver. [`Limits`] and levels are the 8x8 engine's and mean the same
//! search effort on every size: midgame depth L, exact solve from the same
//! number of empties.

use super::bits::Bits;
use super::classic;
use super::endgame::Solver;
use super::eval::evaluate;
use super::geometry::Geometry;
use super::hash::{key, SizedTable, NO_MOVE};
use super::position::{distinct_moves, Pos};
use super::search::{Searcher, INF};
use crate::endgame::{Abort, Budget};
use crate::engine::{Limits, Strategy, DEFAULT_HASH_MB};
use crate::error::Error;
use crate::eval::SCALE;
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Reported after each completed iteration (squares are `row * N + col`).
#[derive(Clone, Debug)]
pub struct SizedProgress<'a> {
    pub depth: u32,
    /// Centi-discs from the side to move's point of view.
    pub score: i32,
    pub best: Option<u32>,
    pub pv: &'a [u32],
    pub nodes: u64,
    pub elapsed: Duration,
    pub exact: bool,
}

/// The outcome of a search, as [`crate::engine::SearchResult`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SizedResult {
    /// None when the side to move must pass.
    pub best: Option<u32>,
    /// Centi-discs; the exact final disc difference times 100 when `exact`.
    pub score: i32,
    pub exact: bool,
    pub wld: bool,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub stopped: bool,
    pub pv: Vec<u32>,
}

/// One legal move with its score, as `analyze` reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SizedMoveScore {
    pub square: u32,
    pub score: i32,
    pub exact: bool,
}

/// An engine for the boards other than 8x8: a transposition table, reused
/// across the moves of a game (and cleared when the board size changes).
pub struct SizedEngine {
    table: SizedTable,
    size: u32,
}

impl SizedEngine {
    /// An engine with a table of `hash_mb` MiB (0 = the default).
    /// Panics when memory runs out; see [`SizedEngine::try_new`].
    pub fn new(hash_mb: usize) -> SizedEngine {
        SizedEngine::try_new(hash_mb).expect("out of memory for the transposition table")
    }

    /// As [`SizedEngine::new`], but `None` when the table cannot be allocated.
    pub fn try_new(hash_mb: usize) -> Option<SizedEngine> {
        let mb = if hash_mb == 0 {
            DEFAULT_HASH_MB
        } else {
            hash_mb
        };
        Some(SizedEngine {
            table: SizedTable::try_new(mb)?,
            size: 0,
        })
    }

    /// Forgets the table (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    fn prepare<G: Geometry>(&mut self) {
        if self.size != G::N {
            if self.size != 0 {
                self.table.clear();
            }
            self.size = G::N;
        }
        self.table.new_search();
    }

    /// Searches `pos` under `limits`; see [`crate::engine::Engine::search`].
    pub fn search<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SizedProgress),
    ) -> Result<SizedResult, Error> {
        validate(limits)?;
        let start = Instant::now();
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        let mut result = SizedResult {
            best: None,
            score: 0,
            exact: false,
            wld: false,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
            pv: Vec::new(),
        };
        if pos.legal_moves().is_zero() {
            let passed = pos.pass();
            result.score = -evaluate::<G>(passed.player, passed.opponent);
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        let mut rng = Rng::new(limits.seed);
        let classic_strategy = match limits.strategy {
            Strategy::Engine => None,
            Strategy::Random => {
                let moves: Vec<u32> = pos.legal_moves().squares().collect();
                result.best = Some(moves[rng.below(moves.len())]);
                None
            }
            Strategy::Greedy => Some(crate::classic::Strategy::Greedy),
            Strategy::Corners => Some(crate::classic::Strategy::Corners),
            Strategy::Classic(n) => Some(crate::classic::Strategy::Lookahead(n)),
        };
        if let Some(s) = classic_strategy {
            let tie = if limits.randomness > 0 {
                Some(&mut rng)
            } else {
                None
            };
            if let Some((sq, score)) = classic::choose(pos, s, tie) {
                result.best = Some(sq);
                result.score = score.saturating_mul(SCALE);
            }
            result.depth = match s {
                crate::classic::Strategy::Lookahead(n) => n,
                _ => 0,
            };
        }
        if limits.strategy != Strategy::Engine {
            result.pv = result.best.into_iter().collect();
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        self.prepare::<G>();
        let mut budget = budget(stop, limits, start);
        let mut result = self.run(pos, limits, &mut budget, start, progress, &mut rng);
        result.nodes = budget.nodes;
        result.stopped = budget.stopped;
        result.elapsed = start.elapsed();
        Ok(result)
    }

    fn run<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        limits: &Limits,
        budget: &mut Budget,
        start: Instant,
        progress: &mut dyn FnMut(&SizedProgress),
        rng: &mut Rng,
    ) -> SizedResult {
        let empties = pos.empties().count();
        let squares = G::SQUARES as i32;
        // Moves leading to the same position up to a symmetry of the board
        // are worth the same: without randomness, search the first of them
        // only (the start has four such moves).
        let moves = if limits.randomness == 0 {
            distinct_moves::<G>(pos.player, pos.opponent, pos.legal_moves())
        } else {
            pos.legal_moves()
        };
        let mut root: Vec<(u32, i32)> = moves.squares().map(|s| (s, 0)).collect();
        let mut result = SizedResult {
            best: Some(root[0].0),
            score: 0,
            exact: false,
            wld: false,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
            pv: vec![root[0].0],
        };
        let solving = empties <= limits.exact_empties || empties <= limits.wld_empties;
        let max_depth = if solving {
            limits.depth.min(empties.saturating_sub(8).max(1)).min(10)
        } else {
            limits.depth.max(1)
        };
        let mut score = 0;
        for depth in 1..=max_depth {
            let time_left = limits
                .time
                .is_none_or(|t| start.elapsed() < t / 2 || depth == 1);
            if !time_left {
                break;
            }
            let Ok(s) = self.iterate(pos, depth, score, &mut root, budget, limits.randomness > 0)
            else {
                break;
            };
            score = s;
            result.best = Some(root[0].0);
            result.score = s;
            result.depth = depth;
            result.pv = self.principal_variation(pos, depth as usize + 1);
            progress(&SizedProgress {
                depth,
                score: s,
                best: result.best,
                pv: &result.pv,
                nodes: budget.nodes,
                elapsed: start.elapsed(),
                exact: false,
            });
        }
        if solving && !budget.stopped {
            let exact = empties <= limits.exact_empties;
            let mut solver = Solver {
                table: &mut self.table,
                budget,
            };
            let solved = if exact {
                solve_with_aspiration(&mut solver, pos, result.score / SCALE)
            } else {
                solver.best_move(pos, -1, 1)
            };
            if let Ok((best, s)) = solved {
                result.best = best.or(result.best);
                result.score = s * SCALE;
                result.exact = exact;
                result.wld = true;
                result.depth = empties;
                result.pv = self.principal_variation(pos, empties as usize);
                if result.pv.first() != result.best.as_ref() {
                    result.pv = result.best.into_iter().collect();
                }
                progress(&SizedProgress {
                    depth: empties,
                    score: result.score,
                    best: result.best,
                    pv: &result.pv,
                    nodes: budget.nodes,
                    elapsed: start.elapsed(),
                    exact,
                });
                if limits.randomness > 0 && exact {
                    let mut scored = Vec::new();
                    for &(sq, _) in &root {
                        let child = pos.play_with(sq, pos.flips(sq));
                        let mut solver = Solver {
                            table: &mut self.table,
                            budget,
                        };
                        match solver.solve(child, -squares, squares) {
                            Ok(v) => scored.push((sq, -v * SCALE)),
                            Err(_) => return result,
                        }
                    }
                    root = scored;
                    root.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                }
            }
        }
        if limits.randomness > 0 && !budget.stopped {
            let margin = limits.randomness as i32 * SCALE;
            let top = root[0].1;
            let mut near: Vec<(u32, i32)> = root
                .iter()
                .copied()
                .filter(|&(_, s)| s >= top - margin)
                .collect();
            near.sort_by_key(|&(sq, _)| sq);
            let (sq, s) = near[rng.below(near.len())];
            if Some(sq) != result.best {
                result.best = Some(sq);
                result.score = s;
                result.pv = vec![sq];
            }
        }
        result
    }

    fn iterate<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        depth: u32,
        guess: i32,
        root: &mut [(u32, i32)],
        budget: &mut Budget,
        all: bool,
    ) -> Result<i32, Abort> {
        let mut window = SCALE / 2;
        let (mut lo, mut hi) = if depth <= 2 || all {
            (-INF, INF)
        } else {
            (guess - window, guess + window)
        };
        loop {
            let s = self.root_search(pos, depth, lo, hi, root, budget, all)?;
            if s <= lo && lo > -INF {
                window *= 4;
                lo = (s - window).max(-INF);
            } else if s >= hi && hi < INF {
                window *= 4;
                hi = (s + window).min(INF);
            } else {
                return Ok(s);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn root_search<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        root: &mut [(u32, i32)],
        budget: &mut Budget,
        all: bool,
    ) -> Result<i32, Abort> {
        let alpha0 = alpha;
        let mut best = -INF;
        let mut scores: Vec<i32> = vec![-INF; root.len()];
        let mut searcher = Searcher {
            table: &mut self.table,
            budget,
        };
        for (i, &(sq, _)) in root.iter().enumerate() {
            let child = pos.play_with(sq, pos.flips(sq));
            let s = if all {
                -searcher.pvs(child, depth - 1, -INF, INF)?
            } else if i == 0 {
                -searcher.pvs(child, depth - 1, -beta, -alpha)?
            } else {
                let s = -searcher.pvs(child, depth - 1, -alpha - 1, -alpha)?;
                if s > alpha && s < beta {
                    -searcher.pvs(child, depth - 1, -beta, -s)?
                } else {
                    s
                }
            };
            scores[i] = s;
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let sorted: Vec<(u32, i32)> = order.iter().map(|&i| (root[i].0, scores[i])).collect();
        root.copy_from_slice(&sorted);
        let (lo, hi) = if best <= alpha0 {
            (-INF, best)
        } else if best >= beta {
            (best, INF)
        } else {
            (best, best)
        };
        self.table.store(
            key(pos),
            depth.min(255) as u8,
            false,
            lo,
            hi,
            root[0].0 as u16,
            best > alpha0,
        );
        Ok(best)
    }

    /// The principal variation: best moves from the table, as far as they go.
    fn principal_variation<G: Geometry>(&self, mut pos: Pos<G>, max: usize) -> Vec<u32> {
        let mut pv = Vec::new();
        while pv.len() < max {
            let Some(e) = self.table.probe(key(pos)) else {
                break;
            };
            if e.best == NO_MOVE || e.best as u32 >= G::SQUARES {
                break;
            }
            let sq = e.best as u32;
            let f = pos.flips(sq);
            if f.is_zero() {
                break;
            }
            pv.push(sq);
            pos = pos.play_with(sq, f);
            if pos.legal_moves().is_zero() {
                pos = pos.pass();
                if pos.legal_moves().is_zero() {
                    break;
                }
            }
        }
        pv
    }

    /// Every legal move with its score under `limits`, best first; see
    /// [`crate::engine::Engine::analyze`].
    pub fn analyze<G: Geometry>(
        &mut self,
        pos: Pos<G>,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<SizedMoveScore>, Error> {
        validate(limits)?;
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        self.prepare::<G>();
        let start = Instant::now();
        let mut budget = budget(stop, limits, start);
        let exact = pos.empties().count() <= limits.exact_empties;
        let squares = G::SQUARES as i32;
        let mut out = Vec::new();
        for sq in pos.legal_moves().squares() {
            let child = pos.play_with(sq, pos.flips(sq));
            let score = if exact {
                let mut solver = Solver {
                    table: &mut self.table,
                    budget: &mut budget,
                };
                solver.solve(child, -squares, squares).map(|v| -v * SCALE)
            } else {
                let mut searcher = Searcher {
                    table: &mut self.table,
                    budget: &mut budget,
                };
                searcher
                    .pvs(child, limits.depth.max(1) - 1, -INF, INF)
                    .map(|v| -v)
            };
            match score {
                Ok(score) => out.push(SizedMoveScore {
                    square: sq,
                    score,
                    exact,
                }),
                Err(_) => return Err(Error::Stopped),
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.score));
        Ok(out)
    }
}

fn budget<'a>(stop: &'a AtomicBool, limits: &Limits, start: Instant) -> Budget<'a> {
    let mut budget = Budget::new(stop);
    budget.node_limit = if limits.node_limit == 0 {
        u64::MAX
    } else {
        limits.node_limit
    };
    budget.deadline = limits.time.map(|t| start + t);
    budget
}

/// The exact score and a best move, first in a narrow window around `guess`
/// (discs), widened on failure.
fn solve_with_aspiration<G: Geometry>(
    solver: &mut Solver,
    pos: Pos<G>,
    guess: i32,
) -> Result<(Option<u32>, i32), Abort> {
    let max = G::SQUARES as i32;
    let guess = guess.clamp(-max, max);
    let (mut lo, mut hi) = ((guess - 3).max(-max), (guess + 3).min(max));
    loop {
        let (best, s) = solver.best_move(pos, lo, hi)?;
        if s <= lo && lo > -max {
            hi = s + 1;
            lo = (s - 12).max(-max);
        } else if s >= hi && hi < max {
            lo = s - 1;
            hi = (s + 12).min(max);
        } else {
            return Ok((best, s));
        }
    }
}

fn validate(limits: &Limits) -> Result<(), Error> {
    let bad = |m: String| Err(Error::InvalidArgument(m));
    if limits.depth > 60 {
        return bad(format!("depth {} is outside 1..60", limits.depth));
    }
    if limits.exact_empties > 60 || limits.wld_empties > 60 {
        return bad("exact_empties and wld_empties must be within 0..60".into());
    }
    if let Strategy::Classic(n) = limits.strategy {
        if n > 9 {
            return bad(format!("classic lookahead {n} is outside 0..9"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sized::geometry::*;

    fn exact_limits() -> Limits {
        let mut l = Limits::level(0).unwrap();
        l.depth = 4;
        l.exact_empties = 60;
        l
    }

    #[test]
    fn four_by_four_is_solved_from_the_start() {
        let stop = AtomicBool::new(false);
        let mut e = SizedEngine::new(4);
        let r = e
            .search(Pos::<S4>::start(), &exact_limits(), &stop, &mut |_| {})
            .unwrap();
        assert!(r.exact && r.wld && !r.stopped);
        // Checked against plain minimax in tests/sizes.rs: 3-11 with two
        // empty squares, which go to white: -10.
        assert_eq!(r.score, -10 * SCALE);
        assert!(!r.pv.is_empty() && r.pv[0] == r.best.unwrap());
    }

    #[test]
    fn levels_play_legal_moves_on_every_size() {
        fn check<G: Geometry>(level: u32) {
            let stop = AtomicBool::new(false);
            let mut e = SizedEngine::new(8);
            let mut pos = Pos::<G>::start();
            for _ in 0..6 {
                if pos.is_game_over() {
                    break;
                }
                if pos.legal_moves().is_zero() {
                    pos = pos.pass();
                    continue;
                }
                let limits = Limits::level(level).unwrap();
                let r = e.search(pos, &limits, &stop, &mut |_| {}).unwrap();
                let best = r.best.expect("a move");
                assert!(pos.legal_moves().has(best));
                pos = pos.play(best).unwrap();
            }
        }
        check::<S6>(6);
        check::<S10>(4);
        check::<S12>(3);
        check::<S14>(3);
        check::<S16>(3);
    }
}
