//! The engine: what a caller asks for (limits, levels, strategies) turned
//! into a search, with iterative deepening, aspiration windows, the exact
//! solver near the end, optional randomness, and the classic 1986 players.
//!
//! | level | midgame depth | exact solve at empties <= | win/loss/draw at empties <= |
//! |-------|---------------|---------------------------|-----------------------------|
//! | 0     | 1             | 0                         | 0                           |
//! | 1-10  | L             | 2L                        | 2L + 2                      |
//! | 11-60 | L             | min(20 + (L - 10) / 2, 60)| exact + 2 (at most 60)      |
//!
//! Levels mean search effort only; strength also depends on the evaluation.

use crate::classic;
use crate::endgame::{Budget, Solver};
use crate::error::Error;
use crate::eval::SCALE;
use crate::hash::{Table, NO_MOVE};
use crate::pattern::Evaluator;
use crate::position::Position;
use crate::rng::Rng;
use crate::search::{Searcher, INF};
use crate::square::Square;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The highest level.
pub const MAX_LEVEL: u32 = 60;

/// Who chooses the move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strategy {
    /// The alpha-beta engine with the exact solver.
    Engine,
    /// The 1986 program's lookahead of the given depth (its skill level).
    Classic(u32),
    /// The 1986 program's discs-plus-square-bonus rule.
    Corners,
    /// The most discs flipped.
    Greedy,
    /// A uniformly random legal move.
    Random,
}

/// What a search may do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Limits {
    /// Midgame search depth in plies (at least 1).
    pub depth: u32,
    /// Solve exactly when this many empties or fewer remain.
    pub exact_empties: u32,
    /// Solve for win/loss/draw when this many empties or fewer remain.
    pub wld_empties: u32,
    /// Stop after about this many nodes (0: no limit).
    pub node_limit: u64,
    /// Stop after about this long (None: no limit).
    pub time: Option<Duration>,
    pub strategy: Strategy,
    /// Engine: pick uniformly among moves scoring within this many discs of
    /// the best (0: always the best). Classic players: > 0 breaks ties at
    /// random instead of by the original's scan order.
    pub randomness: u32,
    /// Seed of every random choice: same position + limits + seed = same
    /// move, from a fresh or cleared engine (a table kept from earlier
    /// searches can refine midgame scores; exact scores never change).
    pub seed: u64,
}

impl Limits {
    /// The limits of a level 0..=60 (see the module's table).
    pub fn level(level: u32) -> Result<Limits, Error> {
        if level > MAX_LEVEL {
            return Err(Error::InvalidArgument(format!(
                "level {level} is outside 0..{MAX_LEVEL}"
            )));
        }
        let (depth, exact) = match level {
            0 => (1, 0),
            1..=10 => (level, 2 * level),
            _ => (level, (20 + (level - 10) / 2).min(60)),
        };
        let wld = if exact == 0 { 0 } else { (exact + 2).min(60) };
        Ok(Limits {
            depth,
            exact_empties: exact,
            wld_empties: wld,
            node_limit: 0,
            time: None,
            strategy: Strategy::Engine,
            randomness: 0,
            seed: 0,
        })
    }
}

/// Reported after each completed iteration of a search.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    pub depth: u32,
    /// Centi-discs from the side to move's point of view.
    pub score: i32,
    pub best: Option<Square>,
    pub pv: &'a [Square],
    pub nodes: u64,
    pub elapsed: Duration,
    pub exact: bool,
}

/// The outcome of a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    /// None when the side to move must pass.
    pub best: Option<Square>,
    /// Centi-discs from the side to move's point of view: the exact final
    /// disc difference times 100 when `exact`. For the classic strategies,
    /// the 1986 program's own points for the move, times 100 likewise.
    pub score: i32,
    pub exact: bool,
    /// The sign of `score` is proven (win, loss or draw).
    pub wld: bool,
    /// Midgame depth reached, or the empties solved; the lookahead of a
    /// classic strategy.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// A limit or a stop ended the search before it finished.
    pub stopped: bool,
    pub pv: Vec<Square>,
}

/// One legal move with its score, as `analyze` reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveScore {
    pub square: Square,
    /// Centi-discs, as in [`SearchResult::score`].
    pub score: i32,
    pub exact: bool,
}

/// An engine owns a transposition table, reused across the moves of a game.
pub struct Engine {
    table: Table,
    /// The evaluation at the midgame search's leaves.
    eval: Evaluator,
}

/// The default table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

impl Engine {
    /// An engine with a table of `hash_mb` MiB (0 = [`DEFAULT_HASH_MB`]).
    /// Panics when memory runs out; see [`Engine::try_new`].
    pub fn new(hash_mb: usize) -> Engine {
        Engine::try_new(hash_mb).expect("out of memory for the transposition table")
    }

    /// As [`Engine::new`], but `None` when the table cannot be allocated.
    pub fn try_new(hash_mb: usize) -> Option<Engine> {
        let mb = if hash_mb == 0 {
            DEFAULT_HASH_MB
        } else {
            hash_mb
        };
        Some(Engine {
            table: Table::try_new(mb)?,
            eval: Evaluator::default(),
        })
    }

    /// The evaluation this engine's searches use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Chooses the evaluation of later searches (levels keep their
    /// meaning). The table is cleared: its midgame scores came from the
    /// previous evaluation.
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.eval = eval;
        self.table.clear();
    }

    /// Forgets the table (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches `pos` under `limits`. `stop` may be set from another thread:
    /// the search then returns its best move so far. `progress` is called
    /// after each completed iteration.
    pub fn search(
        &mut self,
        pos: Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error> {
        validate(limits)?;
        let start = Instant::now();
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        let mut result = SearchResult {
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
        if pos.legal_moves().is_empty() {
            result.score = -self.eval.evaluate(pos.pass());
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        let mut rng = Rng::new(limits.seed);
        match limits.strategy {
            Strategy::Engine => {}
            Strategy::Random => {
                let moves: Vec<Square> = pos.legal_moves().collect();
                result.best = Some(moves[rng.below(moves.len())]);
            }
            Strategy::Greedy | Strategy::Corners | Strategy::Classic(_) => {
                let s = match limits.strategy {
                    Strategy::Greedy => classic::Strategy::Greedy,
                    Strategy::Corners => classic::Strategy::Corners,
                    Strategy::Classic(n) => classic::Strategy::Lookahead(n),
                    _ => unreachable!("matched above"),
                };
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
                    classic::Strategy::Lookahead(n) => n,
                    _ => 0,
                };
            }
        }
        if limits.strategy != Strategy::Engine {
            result.pv = result.best.into_iter().collect();
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        self.table.new_search();
        let mut budget = Budget::new(stop);
        budget.node_limit = if limits.node_limit == 0 {
            u64::MAX
        } else {
            limits.node_limit
        };
        budget.deadline = limits.time.map(|t| start + t);
        let outcome = self.run(pos, limits, &mut budget, start, progress, &mut rng);
        let mut result = outcome;
        result.nodes = budget.nodes;
        result.stopped = budget.stopped;
        result.elapsed = start.elapsed();
        Ok(result)
    }

    fn run(
        &mut self,
        pos: Position,
        limits: &Limits,
        budget: &mut Budget,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
        rng: &mut Rng,
    ) -> SearchResult {
        let empties = pos.empties().count();
        let mut root: Vec<(Square, i32)> = pos.legal_moves().map(|s| (s, 0)).collect();
        let mut result = SearchResult {
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
        // Before a solve, a shallow midgame search orders the moves (empties
        // - 12 plies, at most 10: deeper costs more than it saves on FFO 20-39).
        let max_depth = if solving {
            limits.depth.min(empties.saturating_sub(12).max(1)).min(10)
        } else {
            limits.depth.max(1)
        };
        let mut score = 0;
        for depth in 1..=max_depth {
            let time_left = limits
                .time
                .is_none_or(|t| start.elapsed() < t / 2 || depth == 1);
            if !time_left || budget.check().is_err() {
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
            if result.pv.first() != result.best.as_ref() {
                result.pv = result.best.into_iter().collect();
            }
            progress(&Progress {
                depth,
                score: s,
                best: result.best,
                pv: &result.pv,
                nodes: budget.nodes,
                elapsed: start.elapsed(),
                exact: false,
            });
        }
        if solving && budget.check().is_ok() {
            let exact = empties <= limits.exact_empties;
            let mut solver = Solver {
                table: &mut self.table,
                budget,
                eval: &self.eval,
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
                progress(&Progress {
                    depth: empties,
                    score: result.score,
                    best: result.best,
                    pv: &result.pv,
                    nodes: budget.nodes,
                    elapsed: start.elapsed(),
                    exact,
                });
                if limits.randomness > 0 && exact {
                    // Score every move exactly for the random pick.
                    let mut scored = Vec::new();
                    for &(sq, _) in &root {
                        let child = pos.play_with(sq, pos.flips(sq));
                        let mut solver = Solver {
                            table: &mut self.table,
                            budget,
                            eval: &self.eval,
                        };
                        match solver.solve(child, -64, 64) {
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
            // In square order, so the pick depends on the scores alone.
            let mut near: Vec<(Square, i32)> = root
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

    /// One iteration at `depth` over the root moves, best first; sorts `root`
    /// by score. With `all`, every move gets an exact score (full windows).
    fn iterate(
        &mut self,
        pos: Position,
        depth: u32,
        guess: i32,
        root: &mut [(Square, i32)],
        budget: &mut Budget,
        all: bool,
    ) -> Result<i32, crate::endgame::Abort> {
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
    fn root_search(
        &mut self,
        pos: Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        root: &mut [(Square, i32)],
        budget: &mut Budget,
        all: bool,
    ) -> Result<i32, crate::endgame::Abort> {
        let alpha0 = alpha;
        let mut best = -INF;
        let mut scores: Vec<i32> = vec![-INF; root.len()];
        let mut searcher = Searcher {
            table: &mut self.table,
            budget,
            eval: &self.eval,
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
        // Stable sort: moves that failed low keep their previous order.
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let sorted: Vec<(Square, i32)> = order.iter().map(|&i| (root[i].0, scores[i])).collect();
        root.copy_from_slice(&sorted);
        let (lo, hi) = if best <= alpha0 {
            (-INF, best)
        } else if best >= beta {
            (best, INF)
        } else {
            (best, best)
        };
        self.table
            .store(pos, depth.min(255) as u8, false, lo, hi, root[0].0.index());
        Ok(best)
    }

    /// The principal variation: best moves from the table, as far as they go.
    fn principal_variation(&self, mut pos: Position, max: usize) -> Vec<Square> {
        let mut pv = Vec::new();
        while pv.len() < max {
            let Some(e) = self.table.probe(pos) else {
                break;
            };
            if e.best == NO_MOVE {
                break;
            }
            let Some(sq) = Square::new(e.best as i64) else {
                break;
            };
            let f = pos.flips(sq);
            if f.is_empty() {
                break;
            }
            pv.push(sq);
            pos = pos.play_with(sq, f);
            if pos.legal_moves().is_empty() {
                pos = pos.pass();
                if pos.legal_moves().is_empty() {
                    break;
                }
            }
        }
        pv
    }

    /// Every legal move with its score under `limits` (depth plies, or exact
    /// when the empties allow), best first.
    pub fn analyze(
        &mut self,
        pos: Position,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<MoveScore>, Error> {
        validate(limits)?;
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        self.table.new_search();
        let start = Instant::now();
        let mut budget = Budget::new(stop);
        budget.node_limit = if limits.node_limit == 0 {
            u64::MAX
        } else {
            limits.node_limit
        };
        budget.deadline = limits.time.map(|t| start + t);
        let empties = pos.empties().count();
        let exact = empties <= limits.exact_empties;
        let mut out = Vec::new();
        for sq in pos.legal_moves() {
            let child = pos.play_with(sq, pos.flips(sq));
            let score = if exact {
                let mut solver = Solver {
                    table: &mut self.table,
                    budget: &mut budget,
                    eval: &self.eval,
                };
                solver.solve(child, -64, 64).map(|v| -v * SCALE)
            } else {
                let mut searcher = Searcher {
                    table: &mut self.table,
                    budget: &mut budget,
                    eval: &self.eval,
                };
                searcher
                    .pvs(child, limits.depth.max(1) - 1, -INF, INF)
                    .map(|v| -v)
            };
            match score {
                Ok(score) => out.push(MoveScore {
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

/// The exact score and a best move, searched first in a narrow window
/// around `guess` (the midgame estimate, in discs), widened on failure:
/// narrow windows prune far more than the full one.
fn solve_with_aspiration(
    solver: &mut Solver,
    pos: Position,
    guess: i32,
) -> Result<(Option<Square>, i32), crate::endgame::Abort> {
    let guess = guess.clamp(-64, 64);
    let (mut lo, mut hi) = ((guess - 3).max(-64), (guess + 3).min(64));
    loop {
        let (best, s) = solver.best_move(pos, lo, hi)?;
        if s <= lo && lo > -64 {
            hi = s + 1;
            lo = (s - 12).max(-64);
        } else if s >= hi && hi < 64 {
            lo = s - 1;
            hi = (s + 12).min(64);
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
