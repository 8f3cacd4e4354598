//! The search of the root, one thread's part of it: iterative deepening
//! with aspiration windows, the ladder of ever more confident iterations
//! past the empties, the exact or win/loss/draw solve at the end, the
//! principal variation from the table, and the choice among near moves
//! when randomness is asked for. [`crate::search::engine`] decides what to
//! search and runs this on its threads.

use super::endgame::Solver;
use super::limits::Limits;
use super::midgame::{Searcher, DEFER_DEPTH, INF};
use super::parallel::{Busy, Deferral};
use super::probcut::{self, EXACT_SELECTIVITY};
use super::table::{bounds, key, Table, NO_MOVE};
use super::timing::Plan;
use super::{Abort, Budget};
use crate::board::position::distinct_moves;
use crate::board::{Bits, Geometry, Position};
use crate::clock::Instant;
use crate::eval::{Evaluate, Evaluator, SCALE};
use crate::rng::Rng;
use std::time::Duration;

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

/// What every thread of a search shares: the question, and the engine's
/// table and evaluation.
pub(super) struct Task<'a, G: Geometry> {
    pub table: &'a Table,
    pub eval: &'a Evaluator,
    pub pos: Position<G>,
    /// The legal moves to choose among.
    pub moves: G::B,
    pub limits: &'a Limits,
    /// A timed search's plan (each thread follows its own copy).
    pub plan: Option<Plan>,
    pub start: Instant,
    /// Multi-ProbCut's confidence up to the empties.
    pub cut: f32,
}

/// What one thread brings to its search of the root.
pub(super) struct Thread<'a, 'b> {
    pub budget: &'a mut Budget<'b>,
    /// Called after each completed iteration.
    pub progress: &'a mut dyn FnMut(&Progress),
    pub rng: &'a mut Rng,
    /// The marks it shares with the other threads, if any.
    pub busy: Option<&'a Busy>,
}

/// An exact solver over `table` and `eval`.
pub(super) fn exact_solver<'t, 'b>(
    table: &'t Table,
    eval: &'t Evaluator,
    budget: &'t mut Budget<'b>,
    busy: Option<&'t Busy>,
) -> Solver<'t, 'b, Evaluator> {
    Solver {
        table,
        budget,
        eval,
        busy,
        selective: None,
    }
}

/// One thread's search of the root, phase by phase: a move the table
/// already proves, else the midgame iterations, the solve when it is due,
/// and with randomness the choice among the moves near the best.
pub(super) fn run<G: Geometry>(task: &Task<G>, thread: Thread) -> SearchResult {
    let mut search = RootSearch::new(task, thread);
    if let Some(proved) = search.proved_at_once() {
        return proved;
    }
    let (max_depth, solve) = search.schedule();
    let solve = match search.deepen(max_depth) {
        Deepening::SolveNow(exact) => Some(exact),
        Deepening::Finished => solve.or_else(|| search.late_solve()),
        Deepening::Unfinished => solve,
    };
    if let Some(exact) = solve.filter(|_| search.budget.check().is_ok()) {
        if search.solve(exact).is_err() {
            return search.result;
        }
    }
    search.choose_near_best();
    search.result
}

/// How the midgame iterations ended.
enum Deepening {
    /// At their last depth.
    Finished,
    /// The time plan says to solve (exactly, or win/loss/draw) now.
    SolveNow(bool),
    /// Out of time or stopped.
    Unfinished,
}

/// One thread's search of the root, between its phases.
struct RootSearch<'t, 'a, 'b, G: Geometry> {
    task: &'t Task<'t, G>,
    plan: Option<Plan>,
    budget: &'a mut Budget<'b>,
    progress: &'a mut dyn FnMut(&Progress),
    rng: &'a mut Rng,
    busy: Option<&'a Busy>,
    /// The moves searched, with their scores in the last iteration, best
    /// first after it.
    root: Vec<(u32, i32)>,
    result: SearchResult,
    empties: u32,
    exact_allowed: bool,
    wld_allowed: bool,
    /// The depth of the midgame search that orders the moves before a
    /// solve.
    presearch: u32,
}

impl<'t, 'a, 'b, G: Geometry> RootSearch<'t, 'a, 'b, G> {
    fn new(task: &'t Task<'t, G>, thread: Thread<'a, 'b>) -> Self {
        let (pos, limits) = (task.pos, task.limits);
        let empties = pos.empties().count();
        // Moves leading to the same position up to a symmetry of the board
        // are worth the same: without randomness, search the first of them
        // only (the start has four such moves).
        let moves = if limits.randomness == 0 {
            distinct_moves::<G>(pos.player, pos.opponent, task.moves)
        } else {
            task.moves
        };
        let root: Vec<(u32, i32)> = moves.squares().map(|s| (s, 0)).collect();
        let result = SearchResult {
            best: Some(root[0].0),
            pv: vec![root[0].0],
            ..SearchResult::default()
        };
        // Before a solve, a shallow midgame search orders the moves.
        let presearch = limits
            .depth
            .min(
                empties
                    .saturating_sub(super::tuning::tuning::<G>().presearch_margin)
                    .max(1),
            )
            .min(10);
        RootSearch {
            task,
            plan: task.plan.clone(),
            budget: thread.budget,
            progress: thread.progress,
            rng: thread.rng,
            busy: thread.busy,
            root,
            result,
            empties,
            exact_allowed: empties <= limits.exact_empties,
            wld_allowed: empties <= limits.wld_empties,
            presearch,
        }
    }

    /// Whether the side to move has a single legal move.
    fn forced(&self) -> bool {
        self.task.pos.legal_moves().count() == 1
    }

    /// An earlier move's solve may have proved the position: a timed
    /// search then plays its move at once, whatever its time.
    fn proved_at_once(&self) -> Option<SearchResult> {
        let plan = self
            .plan
            .as_ref()
            .filter(|_| self.task.limits.randomness == 0)?;
        match self.task.proved_in_table() {
            Some(r) if r.exact && self.exact_allowed => Some(r),
            // A proved win or draw is kept by its move, unless an exact
            // solve fits: with little time, a midgame search could lose
            // what the proof holds.
            Some(r)
                if self.wld_allowed
                    && !(self.exact_allowed && plan.solve_fits(self.empties, true, 0)) =>
            {
                Some(r)
            }
            _ => None,
        }
    }

    /// The depth of the last midgame iteration, and the solve that follows
    /// the iterations (`Some(exact)`) when that is known before they start.
    /// A fixed level solves when its table says so, after the presearch; a
    /// timed search decides as it deepens (see `timing`).
    fn schedule(&self) -> (u32, Option<bool>) {
        let limits = self.task.limits;
        match &self.plan {
            None if self.exact_allowed || self.wld_allowed => {
                (self.presearch, Some(self.exact_allowed))
            }
            None => (limits.depth, None),
            // A forced move: nothing to think about.
            Some(_) if self.forced() => (1, None),
            // At the empties the midgame search sees the same tree as a
            // solve (a selective one); past them it repeats it more
            // confidently (`ladder_len`).
            Some(_) => (
                limits.depth.min(self.empties.max(1)) + ladder_len(limits, self.empties),
                None,
            ),
        }
    }

    /// The midgame iterations up to `max_depth` (see [`iteration_depths`]),
    /// each reported when done, while time and the limits allow.
    fn deepen(&mut self, max_depth: u32) -> Deepening {
        let mut score = 0;
        for depth in iteration_depths(self.plan.is_some(), self.empties, max_depth) {
            if depth > 1 {
                if let Some(end) = self.time_ends_before(depth) {
                    return end;
                }
                // The first iteration always runs (a few hundred nodes):
                // however short the time, the move is one a search chose.
                if self.budget.check().is_err() {
                    return Deepening::Unfinished;
                }
            }
            let began = Instant::now();
            let mut better = None;
            let Ok(s) = self.aspiration(depth, score, &mut better) else {
                // A move the unfinished iteration proved better than the
                // last one's best is the better choice.
                if let Some(sq) = better {
                    self.result.best = Some(sq);
                    self.result.pv = vec![sq];
                }
                return Deepening::Unfinished;
            };
            self.iteration_done(depth, began.elapsed(), score, s);
            score = s;
        }
        Deepening::Finished
    }

    /// What a timed search's plan says before the iteration at `depth`:
    /// to solve now, to stop because the iteration would not fit, or
    /// nothing (None: go on).
    fn time_ends_before(&self, depth: u32) -> Option<Deepening> {
        let plan = self.plan.as_ref()?;
        let nodes = self.budget.total();
        let kind = plan.solve_that_fits(self.empties, self.exact_allowed, self.wld_allowed, nodes);
        if let Some(exact) = kind {
            if plan.solve_starts_now(self.empties, exact, nodes, depth > self.presearch) {
                return Some(Deepening::SolveNow(exact));
            }
        }
        (!plan.next_iteration_fits()).then_some(Deepening::Unfinished)
    }

    /// Records the iteration at `depth` that took `took` and scored `score`
    /// (`previous`: the iteration before's), and reports it.
    fn iteration_done(&mut self, depth: u32, took: Duration, previous: i32, score: i32) {
        let best = self.root[0].0;
        if let Some(plan) = self.plan.as_mut() {
            let changed = self.result.best != Some(best);
            plan.iteration_done(took, changed && depth > 1, previous, score);
        }
        self.result.best = Some(best);
        self.result.score = score;
        self.result.depth = depth.min(self.empties.max(1));
        self.result.pv = self
            .task
            .principal_variation(self.result.best, depth as usize + 1);
        let elapsed = self.task.start.elapsed();
        (self.progress)(&self.result.progress(self.budget.total(), elapsed));
    }

    /// The confidence of the iteration at `depth`: the search's up to the
    /// empties, then the ladder's.
    fn cut(&self, depth: u32) -> f32 {
        if depth > self.empties {
            ladder_cut(self.task.limits, depth - self.empties)
        } else {
            self.task.cut
        }
    }

    /// The iteration at `depth`: first in a window around `guess` (the
    /// last iteration's score), widened after each failure; the whole
    /// window with randomness, which wants every move's value.
    fn aspiration(
        &mut self,
        depth: u32,
        guess: i32,
        better: &mut Option<u32>,
    ) -> Result<i32, Abort> {
        let mut window = SCALE / 2;
        let (mut lo, mut hi) = if depth <= 2 || self.task.limits.randomness > 0 {
            (-INF, INF)
        } else {
            (guess - window, guess + window)
        };
        loop {
            let s = self.root_search(depth, lo, hi, better)?;
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

    /// The root's value at `depth` in the window `alpha..beta`; the moves
    /// end sorted by their scores. `better` is set to a move other than
    /// the last iteration's best once it is known to beat it.
    fn root_search(
        &mut self,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        better: &mut Option<u32>,
    ) -> Result<i32, Abort> {
        let pos = self.task.pos;
        let all = self.task.limits.randomness > 0;
        let alpha0 = alpha;
        let mut best = -INF;
        let mut scores: Vec<i32> = vec![-INF; self.root.len()];
        let cut = self.cut(depth);
        let mut searcher = Searcher {
            table: self.task.table,
            budget: &mut *self.budget,
            eval: self.task.eval,
            cut,
            busy: self.busy,
        };
        // With other threads, as at the nodes below: a move another thread
        // is on waits for last (see `parallel`).
        let mut deferral = Deferral::new(self.busy.filter(|_| depth >= DEFER_DEPTH));
        let mut first_done = false;
        'passes: for pass in 0..2 {
            for (i, &(sq, _)) in self.root.iter().enumerate() {
                let child = pos.play_with(sq, pos.flips(sq));
                let Some(claim) = deferral.start(pass, i, || key(child)) else {
                    continue;
                };
                // Once the last iteration's best move is searched, a move
                // that raises alpha beats it, even if its exact value is
                // never found.
                let beats_first = first_done && i != 0;
                let mut raised = false;
                let window = if all {
                    Window::Whole
                } else if i == 0 {
                    Window::Given
                } else {
                    Window::Scout
                };
                let s = root_move(
                    &mut searcher,
                    child,
                    depth,
                    window,
                    (alpha, beta),
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
        let mut order: Vec<usize> = (0..self.root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let sorted: Vec<(u32, i32)> = order.iter().map(|&i| (self.root[i].0, scores[i])).collect();
        self.root.copy_from_slice(&sorted);
        let (lo, hi) = bounds(best, alpha0, beta, INF);
        self.task.table.store(
            key(pos),
            depth.min(255) as u8,
            false,
            lo,
            hi,
            self.root[0].0 as u16,
        );
        Ok(best)
    }

    /// A timed search that has gone as deep as it could may still solve.
    fn late_solve(&self) -> Option<bool> {
        let plan = self.plan.as_ref().filter(|_| !self.forced())?;
        let nodes = self.budget.total();
        plan.solve_that_fits(self.empties, self.exact_allowed, self.wld_allowed, nodes)
    }

    /// The solve after the midgame iterations, exact (in windows around
    /// their score) or win/loss/draw, reported when done. With randomness,
    /// an exact solve then scores every move (Err: stopped while at it).
    fn solve(&mut self, exact: bool) -> Result<(), Abort> {
        let (pos, empties) = (self.task.pos, self.empties);
        let mut solver = exact_solver(self.task.table, self.task.eval, self.budget, self.busy);
        let solved = if exact {
            solve_with_aspiration(&mut solver, pos, self.result.score / SCALE)
        } else {
            solver.best_move(pos, -1, 1)
        };
        let Ok((best, s)) = solved else {
            return Ok(());
        };
        let result = &mut self.result;
        result.best = best.or(result.best);
        result.score = s * SCALE;
        result.exact = exact;
        result.wld = true;
        result.depth = empties;
        result.pv = self.task.principal_variation(result.best, empties as usize);
        (self.progress)(&result.progress(self.budget.nodes, self.task.start.elapsed()));
        if self.task.limits.randomness > 0 && exact {
            self.solve_every_move()?;
        }
        Ok(())
    }

    /// Every root move's exact score, best first.
    fn solve_every_move(&mut self) -> Result<(), Abort> {
        let pos = self.task.pos;
        let squares = G::SQUARES as i32;
        let mut scored = Vec::new();
        for &(sq, _) in &self.root {
            let child = pos.play_with(sq, pos.flips(sq));
            let v = exact_solver(self.task.table, self.task.eval, self.budget, self.busy)
                .solve(child, -squares, squares)?;
            scored.push((sq, -v * SCALE));
        }
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        self.root = scored;
        Ok(())
    }

    /// With randomness, a move drawn uniformly among those within
    /// `randomness` discs of the best (unless the search was stopped).
    fn choose_near_best(&mut self) {
        let randomness = self.task.limits.randomness;
        if randomness == 0 || self.budget.stopped {
            return;
        }
        let margin = randomness as i32 * SCALE;
        let top = self.root[0].1;
        let mut near: Vec<(u32, i32)> = self
            .root
            .iter()
            .copied()
            .filter(|&(_, s)| s >= top - margin)
            .collect();
        near.sort_by_key(|&(sq, _)| sq);
        let (sq, s) = near[self.rng.below(near.len())];
        if Some(sq) != self.result.best {
            self.result.best = Some(sq);
            self.result.score = s;
            self.result.pv = vec![sq];
        }
    }
}

impl<G: Geometry> Task<'_, G> {
    /// The result of the position when the table proves it: exact when
    /// its solved entry has an exact score and the child of its best move
    /// one that matches; win/loss/draw when the entry proves at least a
    /// draw and the child at most its opposite.
    fn proved_in_table(&self) -> Option<SearchResult> {
        let pos = self.pos;
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
            return Some(self.proved_result(sq, lower, true));
        }
        // At least the entry's result, win or draw (`lower` is its bound).
        (lower >= 0 && lo.signum() >= lower.signum()).then(|| self.proved_result(sq, lo, false))
    }

    /// The result of a move `best` proved to score `score` discs (exactly,
    /// or at least that result as a win, a draw or a loss).
    fn proved_result(&self, best: u32, score: i32, exact: bool) -> SearchResult {
        let empties = self.pos.empties().count();
        SearchResult {
            best: Some(best),
            score: score * SCALE,
            exact,
            wld: true,
            depth: empties,
            pv: self.principal_variation(Some(best), empties as usize),
            ..SearchResult::default()
        }
    }

    /// The principal variation from `best`: best moves from the table, as
    /// far as they go, or `best` alone when the table's line does not start
    /// with it (a shallower search's move).
    fn principal_variation(&self, best: Option<u32>, max: usize) -> Vec<u32> {
        let pv = self.table_line(max);
        if pv.first() == best.as_ref() {
            pv
        } else {
            best.into_iter().collect()
        }
    }

    /// The best moves from the table, from the position, as far as they go.
    fn table_line(&self, max: usize) -> Vec<u32> {
        let mut pos = self.pos;
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
}

/// How a root move is searched.
#[derive(Clone, Copy)]
enum Window {
    /// In the whole window: every move's value is wanted (randomness).
    Whole,
    /// In the root's window: the last iteration's best move.
    Given,
    /// In a null window at alpha first, then, when it beats alpha, in the
    /// root's window: the other moves.
    Scout,
}

/// The value of a root move's position `child` for the side at the root,
/// searched as `window` says in the root's window `(alpha, beta)`. `raised`
/// is set as soon as a scouted move is known to score above `alpha`
/// (before the search of its exact value, which a deadline may cut short).
fn root_move<G: Geometry>(
    searcher: &mut Searcher<Evaluator>,
    child: Position<G>,
    depth: u32,
    window: Window,
    (alpha, beta): (i32, i32),
    raised: &mut bool,
) -> Result<i32, Abort>
where
    Evaluator: Evaluate<G>,
{
    match window {
        Window::Whole => Ok(-searcher.pvs(child, depth - 1, -INF, INF)?),
        Window::Given => Ok(-searcher.pvs(child, depth - 1, -beta, -alpha)?),
        Window::Scout => {
            let s = -searcher.pvs(child, depth - 1, -alpha - 1, -alpha)?;
            *raised = s > alpha;
            if s > alpha && s < beta {
                Ok(-searcher.pvs(child, depth - 1, -beta, -s)?)
            } else {
                Ok(s)
            }
        }
    }
}

/// A timed search's last midgame iteration short of its empties is this
/// many plies short; the next one searches to the end, a selective solve
/// (the midgame search hands such nodes to the solver, see
/// `Searcher::solve`). The iterations between would search to leaves of a
/// few empties by the evaluation, and cost as much as the selective solve
/// that sees the whole game: without them, replayed endgames lost about
/// half as many discs a move (the replays are in docs/history.md).
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
/// ordering they give the next one saves, and at equal time the engine
/// plays better so (the measurements are in docs/history.md). A timed
/// search steps so up to [`SOLVE_JUMP`] plies short of its empties, then
/// goes straight to them.
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

/// The exact solve's first window: this many discs either side of the
/// presearch's score (1 took 32% more nodes on positions of 22 empties).
const FIRST_WINDOW: i32 = 3;

/// After a failed window, the next reaches this many discs past the bound
/// that failed (12 took 3.3% more nodes on positions of 22 empties).
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
}
