//! The engine: what a caller asks for ([`Limits`]: levels, strategies,
//! time) turned into a search, with iterative deepening, aspiration
//! windows, the exact solver near the end, optional randomness, and the
//! classic 1986 players. One engine serves every board size (its
//! table is cleared when the size changes); levels mean the same search
//! effort on every size (see [`crate::search::limits`]).

use super::endgame::Solver;
pub use super::limits::*;
use super::midgame::{Searcher, DEFER_DEPTH, INF};
use super::parallel::{resolve_threads, Busy, Deferral, Team};
use super::probcut::{self, EXACT_SELECTIVITY};
use super::table::{bounds, key, Table, NO_MOVE};
use super::timing::Plan;
use super::{Abort, Budget};
use crate::board::position::distinct_moves;
use crate::board::{Bits, Geometry, Position};
use crate::book::{BookChoice, BookMove};
use crate::classic;
use crate::error::Error;
use crate::eval::{Evaluate, Evaluator, SCALE};
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

impl SearchResult {
    /// The result so far as a progress report, at `nodes` nodes after
    /// `elapsed`.
    fn progress(&self, nodes: u64, elapsed: Duration) -> Progress<'_> {
        Progress {
            depth: self.depth,
            score: self.score,
            best: self.best,
            pv: &self.pv,
            nodes,
            elapsed,
            exact: self.exact,
        }
    }
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

    /// An exact solver over the engine's table and evaluation.
    fn exact_solver<'t, 'b>(
        &'t self,
        budget: &'t mut Budget<'b>,
        busy: Option<&'t Busy>,
    ) -> Solver<'t, 'b, Evaluator> {
        Solver {
            table: &self.table,
            budget,
            eval: &self.eval,
            busy,
            selective: None,
        }
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
        if limits.plays_book() && !restricted {
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
        let plan = Plan::new(limits, pos.empties().count(), start);
        let selectivity = if plan.is_some() {
            limits.timed_selectivity
        } else {
            limits.selectivity
        };
        self.cut = probcut::SELECTIVITY_T[selectivity as usize];
        let mut budget = budget(stop, limits, plan.as_ref().and_then(Plan::deadline));
        let mut result = self.run_threads(
            pos,
            moves,
            limits,
            plan,
            &mut budget,
            start,
            progress,
            &mut rng,
        );
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
        plan: Option<Plan>,
        budget: &mut Budget,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
        rng: &mut Rng,
    ) -> SearchResult {
        let threads = resolve_threads(limits.threads);
        if threads <= 1 {
            return self.run(pos, moves, limits, plan, budget, start, progress, rng, None);
        }
        let team = Team::default();
        let busy = Busy::default();
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let mut own = budget.for_team(&team);
                    let busy = &busy;
                    let plan = plan.clone();
                    s.spawn(move || {
                        let mut rng = Rng::new(limits.seed ^ u64::from(i));
                        let mut quiet = |_: &Progress| {};
                        self.run(
                            pos,
                            moves,
                            limits,
                            plan,
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
                plan,
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
        mut plan: Option<Plan>,
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
        let exact_allowed = empties <= limits.exact_empties;
        let wld_allowed = empties <= limits.wld_empties;
        // Before a solve, a shallow midgame search orders the moves.
        let presearch = limits
            .depth
            .min(
                empties
                    .saturating_sub(super::tuning::tuning::<G>().presearch_margin)
                    .max(1),
            )
            .min(10);
        // An earlier move's solve may have proved the position: a timed
        // search then plays its move at once, whatever its time.
        if let Some(plan) = plan.as_ref().filter(|_| limits.randomness == 0) {
            let proved = self.proved_in_table(pos);
            match proved {
                Some(r) if r.exact && exact_allowed => return r,
                // A proved win or draw is kept by its move, unless an exact
                // solve fits: with little time, a midgame search could lose
                // what the proof holds.
                Some(r) if wld_allowed && !(exact_allowed && plan.solve_fits(empties, true, 0)) => {
                    return r
                }
                _ => {}
            }
        }
        let forced = pos.legal_moves().count() == 1;
        // A fixed level solves when its table says so, after the
        // presearch; a timed search decides as it deepens (see `timing`).
        let (max_depth, mut solve) = match &plan {
            None if exact_allowed || wld_allowed => (presearch, Some(exact_allowed)),
            None => (limits.depth, None),
            // A forced move: nothing to think about.
            Some(_) if forced => (1, None),
            // At the empties the midgame search sees the same tree as a
            // solve (a selective one); past them it repeats it more
            // confidently (`ladder_len`).
            Some(_) => (
                limits.depth.min(empties.max(1)) + ladder_len(limits, empties),
                None,
            ),
        };
        let mut score = 0;
        let mut finished = true;
        for depth in iteration_depths(plan.is_some(), empties, max_depth) {
            if let Some(plan) = plan.as_ref().filter(|_| depth > 1) {
                let nodes = budget.total();
                let kind = plan.solve_that_fits(empties, exact_allowed, wld_allowed, nodes);
                if let Some(exact) = kind {
                    if plan.solve_starts_now(empties, exact, nodes, depth > presearch) {
                        solve = Some(exact);
                        break;
                    }
                }
                if !plan.next_iteration_fits() {
                    finished = false;
                    break;
                }
            }
            // The first iteration always runs (a few hundred nodes): however
            // short the time, the move is one a search chose.
            if depth > 1 && budget.check().is_err() {
                finished = false;
                break;
            }
            let all = limits.randomness > 0;
            let began = Instant::now();
            let mut better = None;
            let cut = if depth > empties {
                ladder_cut(limits, depth - empties)
            } else {
                self.cut
            };
            let iteration = self.iterate(
                pos,
                depth,
                score,
                &mut root,
                budget,
                all,
                busy,
                &mut better,
                cut,
            );
            let Ok(s) = iteration else {
                // A move the unfinished iteration proved better than the
                // last one's best is the better choice.
                if let Some(sq) = better {
                    result.best = Some(sq);
                    result.pv = vec![sq];
                }
                finished = false;
                break;
            };
            if let Some(plan) = plan.as_mut() {
                let changed = result.best != Some(root[0].0);
                plan.iteration_done(began.elapsed(), changed && depth > 1, score, s);
            }
            score = s;
            result.best = Some(root[0].0);
            result.score = s;
            result.depth = depth.min(empties.max(1));
            result.pv = self.principal_variation(pos, result.best, depth as usize + 1);
            progress(&result.progress(budget.total(), start.elapsed()));
        }
        // A timed search that has gone as deep as it could may still solve.
        if let Some(plan) = plan
            .as_ref()
            .filter(|_| finished && solve.is_none() && !forced)
        {
            solve = plan.solve_that_fits(empties, exact_allowed, wld_allowed, budget.total());
        }
        if let Some(exact) = solve.filter(|_| budget.check().is_ok()) {
            let mut solver = self.exact_solver(budget, busy);
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
                progress(&result.progress(budget.nodes, start.elapsed()));
                if limits.randomness > 0 && exact {
                    let mut scored = Vec::new();
                    for &(sq, _) in &root {
                        let child = pos.play_with(sq, pos.flips(sq));
                        match self
                            .exact_solver(budget, busy)
                            .solve(child, -squares, squares)
                        {
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
        better: &mut Option<u32>,
        cut: f32,
    ) -> Result<i32, Abort> {
        let mut window = SCALE / 2;
        let (mut lo, mut hi) = if depth <= 2 || all {
            (-INF, INF)
        } else {
            (guess - window, guess + window)
        };
        loop {
            let s = self.root_search(pos, depth, lo, hi, root, budget, all, busy, better, cut)?;
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
        better: &mut Option<u32>,
        cut: f32,
    ) -> Result<i32, Abort> {
        let alpha0 = alpha;
        let mut best = -INF;
        let mut scores: Vec<i32> = vec![-INF; root.len()];
        let mut searcher = Searcher {
            table: &self.table,
            budget,
            eval: &self.eval,
            cut,
            busy,
        };
        // With other threads, as at the nodes below: a move another thread
        // is on waits for last (see `parallel`).
        let mut deferral = Deferral::new(busy.filter(|_| depth >= DEFER_DEPTH));
        let mut first_done = false;
        'passes: for pass in 0..2 {
            for (i, &(sq, _)) in root.iter().enumerate() {
                let child = pos.play_with(sq, pos.flips(sq));
                let Some(claim) = deferral.start(pass, i, || key(child)) else {
                    continue;
                };
                // Once the last iteration's best move is searched, a move
                // that raises alpha beats it, even if its exact value is
                // never found.
                let beats_first = first_done && i != 0;
                let mut raised = false;
                let s = root_move(
                    &mut searcher,
                    child,
                    depth,
                    all,
                    i == 0,
                    alpha,
                    beta,
                    &mut raised,
                );
                deferral.done(claim);
                if raised && beats_first {
                    *better = Some(sq);
                }
                let s = s?;
                first_done |= i == 0;
                scores[i] = s;
                if s > best {
                    best = s;
                    if s > alpha {
                        if beats_first {
                            *better = Some(sq);
                        }
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

    /// The result of `pos` when the table proves it: exact when the
    /// position's solved entry has an exact score and the child of its best
    /// move one that matches; win/loss/draw when the entry proves at least a
    /// draw and the child at most its opposite.
    fn proved_in_table<G: Geometry>(&self, pos: Position<G>) -> Option<SearchResult> {
        let e = self.table.probe(key(pos)).filter(|e| e.solved())?;
        let sq = e.best as u32;
        let (lower, exact) = (i32::from(e.lower), e.lower == e.upper);
        if (lower < 0 && !exact) || e.best == NO_MOVE || !pos.legal_moves().has(sq) {
            return None;
        }
        let child = pos.play_with(sq, pos.flips(sq));
        // The child's value for the mover at `pos`, as bounds.
        let (lo, hi) = if child.is_game_over() {
            let v = -child.final_score();
            (v, v)
        } else if child.legal_moves().is_zero() {
            // A child whose mover must pass is the mover's own position again.
            let c = self.table.probe(key(child.pass())).filter(|c| c.solved())?;
            (i32::from(c.lower), i32::from(c.upper))
        } else {
            let c = self.table.probe(key(child)).filter(|c| c.solved())?;
            (-i32::from(c.upper), -i32::from(c.lower))
        };
        if exact && lo == lower && hi == lower {
            return Some(self.proved_result(pos, sq, lower, true));
        }
        // At least the entry's result, win or draw (`lower` is its bound).
        (lower >= 0 && lo.signum() >= lower.signum())
            .then(|| self.proved_result(pos, sq, lo, false))
    }

    /// The result of a move `best` proved to score `score` discs (exactly,
    /// or at least that result as a win, a draw or a loss).
    fn proved_result<G: Geometry>(
        &self,
        pos: Position<G>,
        best: u32,
        score: i32,
        exact: bool,
    ) -> SearchResult {
        let empties = pos.empties().count();
        SearchResult {
            best: Some(best),
            score: score * SCALE,
            exact,
            wld: true,
            depth: empties,
            pv: self.principal_variation(pos, Some(best), empties as usize),
            ..SearchResult::default()
        }
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
        // Analysis takes its time limit as a plain deadline.
        let mut budget = budget(stop, limits, limits.time.and_then(|t| start.checked_add(t)));
        let exact = pos.empties().count() <= limits.exact_empties;
        let squares = G::SQUARES as i32;
        let mut out = Vec::new();
        for sq in pos.legal_moves().squares() {
            let child = pos.play_with(sq, pos.flips(sq));
            let score = if exact {
                self.exact_solver(&mut budget, None)
                    .solve(child, -squares, squares)
                    .map(|v| -v * SCALE)
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
/// first in the window and the others in a null window first. `raised` is
/// set as soon as the move is known to score above `alpha` (before the
/// search of its exact value, which a deadline may cut short).
#[allow(clippy::too_many_arguments)]
fn root_move<G: Geometry>(
    searcher: &mut Searcher<Evaluator>,
    child: Position<G>,
    depth: u32,
    all: bool,
    first: bool,
    alpha: i32,
    beta: i32,
    raised: &mut bool,
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
    *raised = s > alpha;
    if s > alpha && s < beta {
        Ok(-searcher.pvs(child, depth - 1, -beta, -s)?)
    } else {
        Ok(s)
    }
}

/// A timed search's last midgame iteration short of its empties is this
/// many plies short; the next one searches to the end, a selective solve
/// (the midgame search hands such nodes to the solver, see
/// `Searcher::solve`). The iterations between would search to leaves of a
/// few empties by the evaluation, and cost as much as the selective solve
/// that sees the whole game. Replaying the endgames of 400 games against
/// NTest depth 12 at their times (`othello-replay`, seeds 81-82, moves from
/// 20 empties): 0.034-0.036 discs lost a move and 7 results changed,
/// against 0.060-0.069 and 9 with every iteration (4 plies: 0.050, 11; 8:
/// 0.047-0.052, 7).
const SOLVE_JUMP: u32 = 6;

/// The iterations a timed search runs past its empties: its midgame
/// search at `empties` plies is a selective solve, which each of them
/// repeats one selectivity more confident, up to the most careful
/// selective setting (the exact solve is the solver's). At each the
/// table's entries of the one before are a ply short, so they order the
/// moves without deciding the new search's values.
fn ladder_len(limits: &Limits, empties: u32) -> u32 {
    if limits.depth >= empties {
        (EXACT_SELECTIVITY - 1).saturating_sub(limits.timed_selectivity)
    } else {
        0
    }
}

/// The confidence of the `step`-th iteration past the empties (from 1).
fn ladder_cut(limits: &Limits, step: u32) -> f32 {
    let sel = (limits.timed_selectivity + step).min(EXACT_SELECTIVITY - 1);
    probcut::SELECTIVITY_T[sel as usize]
}

/// The depths of a search's iterations: two plies at a time (1, then 2,
/// 4, 6 and so on, and `max_depth` itself). Two plies at a time reach a
/// depth on 22-36% fewer nodes: the odd iterations cost more than the
/// ordering they give the next one saves (a timed search capped at depth 18
/// on `benches/data/wthor-40.obf`, selectivity 0: 2,661,862 nodes instead
/// of 3,587,952; at 16, 1,307,148 instead of 1,830,510; depth 12 at the
/// fixed levels' selectivity 4,218,699 instead of 6,029,400). At equal time
/// against NTest depth 12 (1,600 games each, both at once): 0.562 against
/// 0.530 and 0.535 against 0.515; odd depths instead (1, 3, 5 and so on)
/// scored as even ones, 0.548 against 0.555; at a fixed level against
/// every ply, level 10 0.524 over 400 games in 0.87x the time
/// (docs/benchmarks.md). A timed search steps so up to [`SOLVE_JUMP`] plies
/// short of its empties, then goes straight to them.
fn iteration_depths(timed: bool, empties: u32, max_depth: u32) -> impl Iterator<Item = u32> {
    (1..=max_depth).filter(move |&d| {
        let step = d == 1 || d % 2 == 0 || d == max_depth;
        if timed {
            d == 1 || d >= empties || (d + SOLVE_JUMP <= empties && step)
        } else {
            step
        }
    })
}

fn budget<'a>(stop: &'a AtomicBool, limits: &Limits, deadline: Option<Instant>) -> Budget<'a> {
    let mut budget = Budget::new(stop);
    budget.node_limit = if limits.node_limit == 0 {
        u64::MAX
    } else {
        limits.node_limit
    };
    budget.deadline = deadline;
    budget
}

/// The exact solve's first window: this many discs either side of the
/// presearch's score (1 or 5 took 32% and 12% more nodes on the positions
/// of 22 empties of `cargo bench --bench solve -- --random 20 22 1`).
const FIRST_WINDOW: i32 = 3;

/// After a failed window, the next reaches this many discs past the bound
/// that failed. (12 discs took 3.3% more nodes on 20 random-game positions
/// of 22 empties, the same on FFO 40-49; 4 as 6, 8 between.)
const RETRY_WINDOW: i32 = 6;

/// The exact score and a best move, first in a narrow window around `guess`
/// (discs, [`FIRST_WINDOW`]), then, on failure, in windows reaching
/// [`RETRY_WINDOW`] past the bound that failed.
fn solve_with_aspiration<G: Geometry, E: Evaluate<G>>(
    solver: &mut Solver<E>,
    pos: Position<G>,
    guess: i32,
) -> Result<(Option<u32>, i32), Abort> {
    let max = G::SQUARES as i32;
    let guess = guess.clamp(-max, max);
    let (mut lo, mut hi) = (
        (guess - FIRST_WINDOW).max(-max),
        (guess + FIRST_WINDOW).min(max),
    );
    loop {
        let (best, s) = solver.best_move(pos, lo, hi)?;
        if s <= lo && lo > -max {
            hi = s + 1;
            lo = (s - RETRY_WINDOW).max(-max);
        } else if s >= hi && hi < max {
            lo = s - 1;
            hi = (s + RETRY_WINDOW).min(max);
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
        let (mut nodes, mut error, mut count) = ([0u64; 2], 0, 0);
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
            // The cuts are a bet: the loosest setting's values may differ,
            // but stay near the exact search's.
            let miss = (scores[0] - scores[1]).abs();
            assert!(miss <= 10 * SCALE, "{scores:?}");
            error += miss;
            count += 1;
        }
        // The loosest setting cuts most of the tree, within 5 discs on
        // average (3.9 at the time of writing).
        assert!(nodes[1] * 2 < nodes[0], "{nodes:?}");
        assert!(
            count > 0 && error <= 5 * SCALE * count,
            "{error} over {count}"
        );
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
    fn past_its_empties_a_timed_search_grows_more_confident_short_of_exact() {
        let level = Limits::level(60).unwrap();
        assert_eq!(ladder_len(&level, 20), EXACT_SELECTIVITY - 1);
        let cuts: Vec<f32> = (1..=ladder_len(&level, 20))
            .map(|step| ladder_cut(&level, step))
            .collect();
        assert!(cuts.windows(2).all(|w| w[0] < w[1]), "{cuts:?}");
        assert!(cuts.iter().all(|c| c.is_finite()));
        assert!(cuts[0] > probcut::SELECTIVITY_T[level.timed_selectivity as usize]);
        // Not for a search that cannot reach the empties, nor for one that
        // is exact to its depth.
        assert_eq!(ladder_len(&Limits::level(10).unwrap(), 20), 0);
        assert_eq!(ladder_len(&Limits::explicit(20, 0, 0).unwrap(), 20), 0);
    }

    #[test]
    fn a_timed_search_jumps_to_the_end_and_a_fixed_one_does_not() {
        // Two plies at a time up to SOLVE_JUMP short of the empties.
        let mut jumped: Vec<u32> = vec![1];
        jumped.extend((2..=20 - SOLVE_JUMP).step_by(2));
        assert_eq!(*jumped.last().unwrap(), 14);
        jumped.extend(20..=24);
        assert_eq!(iteration_depths(true, 20, 24).collect::<Vec<_>>(), jumped);
        // A fixed search goes two plies at a time to its depth.
        let mut stepped: Vec<u32> = vec![1];
        stepped.extend((2..=24).step_by(2));
        assert_eq!(iteration_depths(false, 20, 24).collect::<Vec<_>>(), stepped);
        assert_eq!(iteration_depths(false, 20, 17).last(), Some(17));
        // Far from the end every even depth runs, and an odd cap too; near
        // it the first iteration still runs.
        for timed in [true, false] {
            let far: Vec<u32> = iteration_depths(timed, 40, 9).collect();
            assert_eq!(far, [1, 2, 4, 6, 8, 9]);
            assert_eq!(iteration_depths(timed, 40, 18).count(), 10);
        }
        let near: Vec<u32> = iteration_depths(true, 4, 6).collect();
        assert_eq!(near, [1, 4, 5, 6]);
    }

    #[test]
    fn a_timed_search_past_its_empties_reports_their_depth() {
        use crate::board::testing::random_position;
        let stop = AtomicBool::new(false);
        let mut rng = crate::rng::Rng::new(5);
        let pos = random_position::<S8>(&mut rng, 12).expect("a position");
        let mut limits = Limits::level(60).unwrap();
        limits.book = false;
        // No solve allowed: the midgame search goes past the empties.
        (limits.exact_empties, limits.wld_empties) = (0, 0);
        limits.time = Some(Duration::from_secs(30));
        let r = Engine::new(8)
            .search(pos, &limits, &stop, &mut |_| {})
            .unwrap();
        assert_eq!(r.depth, 12);
        assert!(!r.exact && !r.stopped);
        assert!(pos.legal_moves().has(r.best.unwrap()));
    }

    #[test]
    fn a_timed_level_searches_at_its_timed_selectivity() {
        use crate::board::testing::random_position;
        let stop = AtomicBool::new(false);
        let mut rng = crate::rng::Rng::new(3);
        let pos = random_position::<S8>(&mut rng, 20).expect("a position");
        let search = |limits: &Limits| {
            let mut e = Engine::new(8);
            e.search(pos, limits, &stop, &mut |_| {}).unwrap()
        };
        let mut fixed = Limits::level(6).unwrap();
        fixed.book = false;
        // Ample time: the timed search goes to the level's depth at the
        // timed selectivity, whatever the fixed one, and searches otherwise
        // at the level's own.
        let mut timed = fixed;
        timed.time = Some(Duration::from_secs(60));
        let t = search(&timed);
        assert_eq!(t.depth, 6);
        let mut timed_fixed_at_timed = timed;
        timed_fixed_at_timed.selectivity = TIMED_LEVEL_SELECTIVITY;
        assert_eq!(search(&timed_fixed_at_timed).nodes, t.nodes);
        let mut timed_at_fixed = timed;
        timed_at_fixed.timed_selectivity = fixed.selectivity;
        assert_ne!(search(&timed_at_fixed).nodes, t.nodes);
        // Explicit limits keep their selectivity by time too: without
        // cuts, the same exact depth-6 score.
        let mut explicit = Limits::explicit(6, 0, 0).unwrap();
        let exact = search(&explicit);
        explicit.time = Some(Duration::from_secs(60));
        let by_time = search(&explicit);
        assert_eq!((by_time.depth, by_time.score), (exact.depth, exact.score));
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
