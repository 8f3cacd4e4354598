//! The engine: what a caller asks for (limits, levels, strategies) turned
//! into a search, with iterative deepening, aspiration windows, the exact
//! solver near the end, optional randomness, and the classic 1986 players.
//! One engine serves every board size (its table is cleared when the size
//! changes); levels mean the same search effort on every size.
//!
//! | level | midgame depth | exact solve at empties <= | win/loss/draw at empties <= |
//! |-------|---------------|---------------------------|-----------------------------|
//! | 0     | 1             | 0                         | 0                           |
//! | 1-10  | L             | 2L                        | 2L + 2                      |
//! | 11-60 | L             | min(20 + (L - 10) / 2, 60)| exact + 2 (at most 60)      |
//!
//! Levels mean search effort only; strength also depends on the evaluation.

use super::endgame::Solver;
use super::midgame::{Searcher, DEFER_DEPTH, INF};
use super::parallel::{resolve_threads, Busy, Deferral, Team, MAX_THREADS};
use super::probcut::{self, EXACT_SELECTIVITY};
use super::table::{bounds, key, Table, NO_MOVE};
use super::{Abort, Budget};
use crate::board::position::distinct_moves;
use crate::board::{Bits, Geometry, Position};
use crate::book::{BookChoice, BookMove};
use crate::classic;
use crate::error::Error;
use crate::eval::{Evaluate, Evaluator, SCALE};
use crate::rng::Rng;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The highest level.
pub const MAX_LEVEL: u32 = 60;

/// `value` of the limit `name` if it lies in `range`, else
/// InvalidArgument naming the limit: the one range check of every limit,
/// for the engine and for the C API's conversion of its integers.
pub fn in_range(name: &str, value: i64, range: RangeInclusive<u32>) -> Result<u32, Error> {
    u32::try_from(value)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{name} {value} is outside {}..{}",
                range.start(),
                range.end()
            ))
        })
}

/// Levels.
pub const LEVELS: RangeInclusive<u32> = 0..=MAX_LEVEL;
/// Midgame depths a search may be given.
pub const DEPTHS: RangeInclusive<u32> = 1..=60;
/// Empties below which a search may be told to solve.
pub const EMPTIES: RangeInclusive<u32> = 0..=60;
/// Selectivity settings (see [`probcut`]).
pub const SELECTIVITIES: RangeInclusive<u32> = 0..=EXACT_SELECTIVITY;
/// The selectivity of the levels' midgame searches.
pub const LEVEL_SELECTIVITY: u32 = 4;
/// Randomness, in discs.
pub const RANDOMNESS: RangeInclusive<u32> = 0..=64;
/// Threads of a search (0: one per core).
pub const THREADS: RangeInclusive<u32> = 0..=MAX_THREADS;
/// The lowest level that plays from the opening book.
pub const BOOK_MIN_LEVEL: u32 = 1;
/// The lookahead of the classic strategy (the original's skill levels).
pub const CLASSIC_DEPTHS: RangeInclusive<u32> = 0..=9;

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
    /// How selective the midgame search is: Multi-ProbCut's confidence
    /// setting in [`SELECTIVITIES`], from 0 (73%, the most cuts) to
    /// [`EXACT_SELECTIVITY`] (100%: none; the search is exact to its depth).
    /// Solving is never selective.
    pub selectivity: u32,
    /// Engine strategy on 8x8: play from the engine's opening book when the
    /// position is in it (a move within `randomness` discs of the book's
    /// best, chosen with `seed`), without searching. Levels from
    /// [`BOOK_MIN_LEVEL`] set it; explicit limits do not.
    pub book: bool,
    /// Threads of the search: 1 (the default) searches on the caller's
    /// thread alone and is reproducible; more add helper threads sharing the
    /// table (see [`crate::search::parallel`]), which find exact scores as
    /// exactly but may return another of equal moves, other midgame scores
    /// and node counts from run to run. 0: one per core.
    pub threads: u32,
}

impl Limits {
    /// The limits of a level 0..=60 (see the module's table).
    pub fn level(level: u32) -> Result<Limits, Error> {
        let level = in_range("level", level.into(), LEVELS)?;
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
            selectivity: LEVEL_SELECTIVITY,
            book: level >= BOOK_MIN_LEVEL,
            threads: 1,
        })
    }

    /// The limits of an explicit midgame depth and solving empties (the
    /// rest as level 0, with no selectivity), each range-checked.
    pub fn explicit(depth: i64, exact_empties: i64, wld_empties: i64) -> Result<Limits, Error> {
        let mut limits = Limits::level(0)?;
        limits.depth = in_range("limits.depth", depth, DEPTHS)?;
        limits.exact_empties = in_range("limits.exact_empties", exact_empties, EMPTIES)?;
        limits.wld_empties = in_range("limits.wld_empties", wld_empties, EMPTIES)?;
        limits.selectivity = EXACT_SELECTIVITY;
        limits.book = false;
        Ok(limits)
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), Error> {
        in_range("limits.depth", self.depth.into(), DEPTHS)?;
        in_range("limits.exact_empties", self.exact_empties.into(), EMPTIES)?;
        in_range("limits.wld_empties", self.wld_empties.into(), EMPTIES)?;
        in_range("limits.randomness", self.randomness.into(), RANDOMNESS)?;
        in_range("limits.selectivity", self.selectivity.into(), SELECTIVITIES)?;
        in_range("limits.threads", self.threads.into(), THREADS)?;
        if let Strategy::Classic(n) = self.strategy {
            in_range("limits.classic_depth", n.into(), CLASSIC_DEPTHS)?;
        }
        Ok(())
    }
}

/// Reported after each completed iteration (squares are `row * N + col`).
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    pub depth: u32,
    /// Centi-discs from the side to move's point of view.
    pub score: i32,
    pub best: Option<u32>,
    pub pv: &'a [u32],
    pub nodes: u64,
    pub elapsed: Duration,
    pub exact: bool,
}

/// The outcome of a search.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SearchResult {
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
    /// The move came from the opening book (`score` is the book's value,
    /// `depth` and `nodes` 0, `pv` the book's line).
    pub from_book: bool,
}

/// One legal move with its score, as `analyze` reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveScore {
    pub square: u32,
    pub score: i32,
    pub exact: bool,
}

/// An engine owns a transposition table, reused across the moves of a game
/// (and cleared when the board size changes), and the evaluation choice.
pub struct Engine {
    table: Table,
    /// The evaluation at the midgame search's leaves.
    eval: Evaluator,
    /// The board side of the table's entries (0: none yet).
    size: u32,
    /// Multi-ProbCut's confidence in the current search (see `probcut`).
    cut: f32,
    /// The opening book of 8x8 searches whose limits ask for it.
    book: BookChoice,
}

/// The default table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

impl Engine {
    /// An engine with a table of `hash_mb` MiB (0 = the default).
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
            size: 0,
            cut: f32::INFINITY,
            book: BookChoice::Builtin,
        })
    }

    /// The opening book it plays from (the built-in one unless changed).
    pub fn book(&self) -> &BookChoice {
        &self.book
    }

    /// The moves the opening book knows in `pos`, best first (none on other
    /// sizes than 8x8, or without a book).
    pub fn book_moves<G: Geometry>(&self, pos: Position<G>) -> Vec<BookMove> {
        // On 8x8 a bit set's first word is the book's `u64` board.
        match self.book.book() {
            Some(book) if G::N == 8 => book.moves(pos.player.words()[0], pos.opponent.words()[0]),
            _ => Vec::new(),
        }
    }

    /// Chooses the opening book.
    pub fn set_book(&mut self, book: BookChoice) {
        self.book = book;
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

    fn prepare<G: Geometry>(&mut self) {
        if self.size != G::N {
            if self.size != 0 {
                self.table.clear();
            }
            self.size = G::N;
        }
        self.table.new_search();
    }

    /// Searches `pos` under `limits`. `stop` may be set from another thread:
    /// the search then returns its best move so far. `progress` is called
    /// after each completed iteration.
    pub fn search<G: Geometry>(
        &mut self,
        pos: Position<G>,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error> {
        self.search_among(pos, pos.legal_moves(), limits, stop, progress)
    }

    /// As [`Engine::search`], choosing among the legal moves of `pos` that
    /// are in `moves` only (InvalidArgument when there is none; the book is
    /// not used). The opening book's builder searches the moves it does not
    /// know yet with it.
    pub fn search_among<G: Geometry>(
        &mut self,
        pos: Position<G>,
        moves: G::B,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error> {
        limits.validate()?;
        let restricted = moves != pos.legal_moves();
        let moves = moves & pos.legal_moves();
        let start = Instant::now();
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        let mut result = SearchResult::default();
        if pos.legal_moves().is_zero() {
            let passed = pos.pass();
            result.score = -Evaluate::<G>::evaluate(&self.eval, passed.player, passed.opponent);
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        if moves.is_zero() {
            return Err(Error::InvalidArgument(
                "no legal move among the moves to search".into(),
            ));
        }
        let mut rng = Rng::new(limits.seed);
        if limits.strategy == Strategy::Engine && limits.book && !restricted {
            if let Some(mut r) = self.book_move(pos, limits.randomness, &mut rng) {
                r.elapsed = start.elapsed();
                return Ok(r);
            }
        }
        let classic_strategy = match limits.strategy {
            Strategy::Engine => None,
            Strategy::Random => {
                let moves: Vec<u32> = pos.legal_moves().squares().collect();
                result.best = Some(moves[rng.below(moves.len())]);
                None
            }
            Strategy::Greedy => Some(classic::Strategy::Greedy),
            Strategy::Corners => Some(classic::Strategy::Corners),
            Strategy::Classic(n) => Some(classic::Strategy::Lookahead(n)),
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
                classic::Strategy::Lookahead(n) => n,
                _ => 0,
            };
        }
        if limits.strategy != Strategy::Engine {
            result.pv = result.best.into_iter().collect();
            result.elapsed = start.elapsed();
            return Ok(result);
        }
        self.prepare::<G>();
        self.cut = probcut::SELECTIVITY_T[limits.selectivity as usize];
        let mut budget = budget(stop, limits, start);
        let mut result =
            self.run_threads(pos, moves, limits, &mut budget, start, progress, &mut rng);
        result.nodes = budget.nodes;
        result.stopped = budget.stopped;
        result.elapsed = start.elapsed();
        Ok(result)
    }

    /// A move of the opening book for `pos` (8x8 only): with randomness,
    /// uniformly among the book's moves within `randomness` discs of its
    /// best.
    fn book_move<G: Geometry>(
        &self,
        pos: Position<G>,
        randomness: u32,
        rng: &mut Rng,
    ) -> Option<SearchResult> {
        let moves = self.book_moves(pos);
        let top = moves.first()?.value;
        let near: Vec<_> = moves
            .iter()
            .filter(|m| m.value >= top - randomness as i32)
            .collect();
        // Without randomness, the first of the best (by square): the same
        // move whatever the seed, as the search plays.
        let chosen = if randomness == 0 || near.len() == 1 {
            near[0]
        } else {
            near[rng.below(near.len())]
        };
        let mut pv = vec![chosen.square];
        let mut line = pos.play(chosen.square)?;
        while pv.len() < 64 {
            let Some(&next) = self.book_moves(line).first() else {
                break;
            };
            pv.push(next.square);
            line = line.play(next.square)?;
        }
        Some(SearchResult {
            best: Some(chosen.square),
            score: chosen.value * SCALE,
            pv,
            from_book: true,
            ..SearchResult::default()
        })
    }

    /// [`Engine::run`] on `limits.threads` threads: the caller's gives the
    /// result, the helpers search the same root beside it (see
    /// [`crate::search::parallel`]) and stop when it is done. `budget` ends
    /// with every thread's nodes.
    #[allow(clippy::too_many_arguments)]
    fn run_threads<G: Geometry>(
        &self,
        pos: Position<G>,
        moves: G::B,
        limits: &Limits,
        budget: &mut Budget,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
        rng: &mut Rng,
    ) -> SearchResult {
        let threads = resolve_threads(limits.threads);
        if threads <= 1 {
            return self.run(pos, moves, limits, budget, start, progress, rng, None);
        }
        let team = Team::default();
        let busy = Busy::default();
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let mut own = budget.for_team(&team);
                    let busy = &busy;
                    s.spawn(move || {
                        let mut rng = Rng::new(limits.seed ^ u64::from(i));
                        let mut quiet = |_: &Progress| {};
                        self.run(
                            pos,
                            moves,
                            limits,
                            &mut own,
                            start,
                            &mut quiet,
                            &mut rng,
                            Some(busy),
                        );
                        own.nodes
                    })
                })
                .collect();
            let mut own = budget.for_team(&team);
            let result = self.run(
                pos,
                moves,
                limits,
                &mut own,
                start,
                progress,
                rng,
                Some(&busy),
            );
            team.finish();
            // A helper that panicked only lost its count: the result is the
            // caller's thread's.
            let helped: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            budget.nodes += own.nodes + helped;
            budget.stopped |= own.stopped;
            result
        })
    }

    /// One thread's search of the root (`busy`: the marks it shares with
    /// the other threads, if any).
    #[allow(clippy::too_many_arguments)]
    fn run<G: Geometry>(
        &self,
        pos: Position<G>,
        moves: G::B,
        limits: &Limits,
        budget: &mut Budget,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
        rng: &mut Rng,
        busy: Option<&Busy>,
    ) -> SearchResult {
        let empties = pos.empties().count();
        let squares = G::SQUARES as i32;
        // Moves leading to the same position up to a symmetry of the board
        // are worth the same: without randomness, search the first of them
        // only (the start has four such moves).
        let moves = if limits.randomness == 0 {
            distinct_moves::<G>(pos.player, pos.opponent, moves)
        } else {
            moves
        };
        let mut root: Vec<(u32, i32)> = moves.squares().map(|s| (s, 0)).collect();
        let mut result = SearchResult {
            best: Some(root[0].0),
            pv: vec![root[0].0],
            ..SearchResult::default()
        };
        let solving = empties <= limits.exact_empties || empties <= limits.wld_empties;
        // Before a solve, a shallow midgame search orders the moves.
        let max_depth = if solving {
            limits
                .depth
                .min(empties.saturating_sub(G::PRESEARCH_MARGIN).max(1))
                .min(10)
        } else {
            limits.depth
        };
        let mut score = 0;
        for depth in 1..=max_depth {
            let time_left = limits
                .time
                .is_none_or(|t| start.elapsed() < t / 2 || depth == 1);
            if !time_left || budget.check().is_err() {
                break;
            }
            let all = limits.randomness > 0;
            let Ok(s) = self.iterate(pos, depth, score, &mut root, budget, all, busy) else {
                break;
            };
            score = s;
            result.best = Some(root[0].0);
            result.score = s;
            result.depth = depth;
            result.pv = self.principal_variation(pos, result.best, depth as usize + 1);
            progress(&Progress {
                depth,
                score: s,
                best: result.best,
                pv: &result.pv,
                nodes: budget.total(),
                elapsed: start.elapsed(),
                exact: false,
            });
        }
        if solving && budget.check().is_ok() {
            let exact = empties <= limits.exact_empties;
            let mut solver = Solver {
                table: &self.table,
                budget,
                eval: &self.eval,
                busy,
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
                result.pv = self.principal_variation(pos, result.best, empties as usize);
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
                    let mut scored = Vec::new();
                    for &(sq, _) in &root {
                        let child = pos.play_with(sq, pos.flips(sq));
                        let mut solver = Solver {
                            table: &self.table,
                            budget,
                            eval: &self.eval,
                            busy,
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

    #[allow(clippy::too_many_arguments)]
    fn iterate<G: Geometry>(
        &self,
        pos: Position<G>,
        depth: u32,
        guess: i32,
        root: &mut [(u32, i32)],
        budget: &mut Budget,
        all: bool,
        busy: Option<&Busy>,
    ) -> Result<i32, Abort> {
        let mut window = SCALE / 2;
        let (mut lo, mut hi) = if depth <= 2 || all {
            (-INF, INF)
        } else {
            (guess - window, guess + window)
        };
        loop {
            let s = self.root_search(pos, depth, lo, hi, root, budget, all, busy)?;
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
        &self,
        pos: Position<G>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        root: &mut [(u32, i32)],
        budget: &mut Budget,
        all: bool,
        busy: Option<&Busy>,
    ) -> Result<i32, Abort> {
        let alpha0 = alpha;
        let mut best = -INF;
        let mut scores: Vec<i32> = vec![-INF; root.len()];
        let mut searcher = Searcher {
            table: &self.table,
            budget,
            eval: &self.eval,
            cut: self.cut,
            busy,
        };
        // With other threads, as at the nodes below: a move another thread
        // is on waits for last (see `parallel`).
        let mut deferral = Deferral::new(busy.filter(|_| depth >= DEFER_DEPTH));
        'passes: for pass in 0..2 {
            for (i, &(sq, _)) in root.iter().enumerate() {
                let child = pos.play_with(sq, pos.flips(sq));
                let Some(claim) = deferral.start(pass, i, || key(child)) else {
                    continue;
                };
                let s = root_move(&mut searcher, child, depth, all, i == 0, alpha, beta);
                deferral.done(claim);
                let s = s?;
                scores[i] = s;
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
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
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let sorted: Vec<(u32, i32)> = order.iter().map(|&i| (root[i].0, scores[i])).collect();
        root.copy_from_slice(&sorted);
        let (lo, hi) = bounds(best, alpha0, beta, INF);
        self.table.store(
            key(pos),
            depth.min(255) as u8,
            false,
            lo,
            hi,
            root[0].0 as u16,
        );
        Ok(best)
    }

    /// The principal variation from `best`: best moves from the table, as
    /// far as they go, or `best` alone when the table's line does not start
    /// with it (a shallower search's move).
    fn principal_variation<G: Geometry>(
        &self,
        pos: Position<G>,
        best: Option<u32>,
        max: usize,
    ) -> Vec<u32> {
        let pv = self.table_line(pos, max);
        if pv.first() == best.as_ref() {
            pv
        } else {
            best.into_iter().collect()
        }
    }

    /// The best moves from the table, from `pos`, as far as they go.
    fn table_line<G: Geometry>(&self, mut pos: Position<G>, max: usize) -> Vec<u32> {
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

    /// Every legal move with its score under `limits` (depth plies, or exact
    /// when the empties allow), best first.
    pub fn analyze<G: Geometry>(
        &mut self,
        pos: Position<G>,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Vec<MoveScore>, Error> {
        limits.validate()?;
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
                    table: &self.table,
                    budget: &mut budget,
                    eval: &self.eval,
                    busy: None,
                };
                solver.solve(child, -squares, squares).map(|v| -v * SCALE)
            } else {
                let mut searcher = Searcher {
                    table: &self.table,
                    budget: &mut budget,
                    eval: &self.eval,
                    cut: probcut::SELECTIVITY_T[limits.selectivity as usize],
                    busy: None,
                };
                searcher.pvs(child, limits.depth - 1, -INF, INF).map(|v| -v)
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

/// The value of a root move's position `child` for the side at the root:
/// every move in the whole window when all are wanted (randomness), else the
/// first in the window and the others in a null window first.
fn root_move<G: Geometry>(
    searcher: &mut Searcher<Evaluator>,
    child: Position<G>,
    depth: u32,
    all: bool,
    first: bool,
    alpha: i32,
    beta: i32,
) -> Result<i32, Abort>
where
    Evaluator: Evaluate<G>,
{
    if all {
        return Ok(-searcher.pvs(child, depth - 1, -INF, INF)?);
    }
    if first {
        return Ok(-searcher.pvs(child, depth - 1, -beta, -alpha)?);
    }
    let s = -searcher.pvs(child, depth - 1, -alpha - 1, -alpha)?;
    if s > alpha && s < beta {
        Ok(-searcher.pvs(child, depth - 1, -beta, -s)?)
    } else {
        Ok(s)
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
fn solve_with_aspiration<G: Geometry, E: Evaluate<G>>(
    solver: &mut Solver<E>,
    pos: Position<G>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::*;

    fn exact_limits() -> Limits {
        let mut l = Limits::level(0).unwrap();
        l.depth = 4;
        l.exact_empties = 60;
        l
    }

    #[test]
    fn four_by_four_is_solved_from_the_start() {
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(4);
        let r = e
            .search(Position::<S4>::start(), &exact_limits(), &stop, &mut |_| {})
            .unwrap();
        assert!(r.exact && r.wld && !r.stopped);
        // Checked against plain minimax in tests/sizes.rs: 3-11 with two
        // empty squares, which go to white: -10.
        assert_eq!(r.score, -10 * SCALE);
        assert!(!r.pv.is_empty() && r.pv[0] == r.best.unwrap());
    }

    #[test]
    fn selectivity_prunes_the_midgame_and_never_the_solve() {
        use crate::board::testing::random_position;
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(8);
        let mut rng = crate::rng::Rng::new(7);
        let (mut nodes, mut differ) = ([0u64; 2], 0);
        for _ in 0..6 {
            let Some(pos) = random_position::<S8>(&mut rng, 40) else {
                continue;
            };
            let mut scores = [0; 2];
            for (i, sel) in [EXACT_SELECTIVITY, 0].into_iter().enumerate() {
                let mut l = Limits::explicit(7, 0, 0).unwrap();
                l.selectivity = sel;
                e.clear();
                let r = e.search(pos, &l, &stop, &mut |_| {}).unwrap();
                assert!(pos.legal_moves().has(r.best.unwrap()));
                nodes[i] += r.nodes;
                scores[i] = r.score;
            }
            differ += (scores[0] != scores[1]) as u32;
        }
        // The loosest setting cuts most of the tree (a handful of its
        // values may differ: the cuts are a bet).
        assert!(nodes[1] * 2 < nodes[0], "{nodes:?}");
        assert!(differ < 6);
        // Solving ignores the setting: the same exact score.
        for _ in 0..4 {
            let Some(pos) = random_position::<S8>(&mut rng, 14) else {
                continue;
            };
            let mut solved = Vec::new();
            for sel in [EXACT_SELECTIVITY, 0] {
                let mut l = exact_limits();
                l.depth = 8;
                l.selectivity = sel;
                e.clear();
                solved.push(e.search(pos, &l, &stop, &mut |_| {}).unwrap().score);
            }
            assert_eq!(solved[0], solved[1]);
        }
    }

    #[test]
    fn levels_play_legal_moves_on_every_size() {
        fn check<G: Geometry>(level: u32) {
            let stop = AtomicBool::new(false);
            let mut e = Engine::new(8);
            let mut pos = Position::<G>::start();
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
