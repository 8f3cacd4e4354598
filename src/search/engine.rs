//! The engine: what a caller asks for ([`Limits`]: levels, strategies,
//! time) turned into a search: the opening book, the classic 1986
//! players, or the engine's own search of the root (see `root`: iterative
//! deepening, aspiration windows, the exact solver near the end, optional
//! randomness) on one or more threads. One engine serves every board size
//! (its table is cleared when the size changes); levels mean the same
//! search effort on every size (see [`crate::search::limits`]).

pub use super::limits::*;
use super::midgame::{Searcher, INF};
use super::parallel::{resolve_threads, Busy, Team};
use super::ponder::{ponder_limits, Ponder, Pondered};
use super::probcut;
use super::root::{self, exact_solver, Task, Thread};
pub use super::root::{Progress, SearchResult};
use super::table::Table;
use super::timing::Plan;
use super::Budget;
use crate::board::{Bits, Geometry, Position};
use crate::book::{BookChoice, BookMove};
use crate::classic;
use crate::clock::Instant;
use crate::error::Error;
use crate::eval::{Evaluate, Evaluator, SCALE};
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    /// The search on the opponent's time, while it runs. First, so that
    /// dropping the engine stops it before the rest goes.
    ponder: Option<Ponder>,
    /// Shared with the pondering thread while there is one; the engine's
    /// alone otherwise (every `&mut self` method ends the pondering first).
    table: Arc<Table>,
    /// The evaluation at the midgame search's leaves.
    eval: Arc<Evaluator>,
    /// The board side of the table's entries (0: none yet).
    size: u32,
    /// The opening book of 8x8 searches whose limits ask for it.
    book: BookChoice,
    /// Stops the pondering; see [`Engine::ponder_stop`].
    ponder_stop: Arc<AtomicBool>,
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
            ponder: None,
            table: Arc::new(Table::try_new(mb)?),
            eval: Arc::new(Evaluator::default()),
            size: 0,
            book: BookChoice::Builtin,
            ponder_stop: Arc::default(),
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
        self.end_ponder();
        self.eval = Arc::new(eval);
        self.table_mut().clear();
    }

    /// Forgets the table (for a new game).
    pub fn clear(&mut self) {
        self.table_mut().clear();
    }

    /// The table, the engine's alone: the pondering ended.
    fn table_mut(&mut self) -> &mut Table {
        self.end_ponder();
        Arc::get_mut(&mut self.table).expect("only a pondering thread shares the table")
    }

    /// Readies the table for a search of a `G` board: cleared when the
    /// size changes, its entries aged unless they are the pondering's on
    /// this move.
    fn prepare<G: Geometry>(&mut self, after_ponder: bool) {
        let fresh = self.size != G::N;
        let table = self.table_mut();
        if fresh {
            table.clear();
        } else if !after_ponder {
            table.new_search();
        }
        self.size = G::N;
    }

    /// Whether the engine is thinking on the opponent's time.
    pub fn is_pondering(&self) -> bool {
        self.ponder.is_some()
    }

    /// Whether the pondering has ended by itself, its limits reached (false
    /// when the engine is not pondering).
    pub fn ponder_finished(&self) -> bool {
        self.ponder.as_ref().is_some_and(Ponder::is_finished)
    }

    /// The flag that stops the pondering from any thread (the next call
    /// on the engine then waits only for its thread to notice).
    pub fn ponder_stop(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.ponder_stop)
    }

    /// Ends the pondering, if any: stops its thread and waits for it.
    pub fn stop_pondering(&mut self) {
        self.end_ponder();
    }

    /// As [`Engine::stop_pondering`]: what the pondering found.
    fn end_ponder(&mut self) -> Option<Pondered> {
        Some(self.ponder.take()?.finish(None))
    }

    /// Ends the pondering before the search of `pos` under `limits`,
    /// begun at `start`. When the pondering is that search begun early,
    /// it first goes on as it: at a fixed level to its end, by time to the
    /// move's target time (the time left over after the opponent's move
    /// is what the pondering gains), until `stop` either way.
    fn end_ponder_for<G: Geometry>(
        &mut self,
        pos: Position<G>,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
    ) -> Option<Pondered> {
        let ponder = self.ponder.take()?;
        let taken_over = ponder.is_search_of(pos, limits).then(|| {
            let plan = Plan::new(limits, pos.empties().count(), start);
            ponder.go_on(plan.and_then(|p| p.target_end()), stop)
        });
        Some(ponder.finish(taken_over))
    }

    /// Starts thinking on the opponent's time. `after` is the position
    /// after the engine's move, the opponent to move; `limits` those of
    /// the engine's next search. The engine expects the reply its table
    /// gives (else a shallow search's) and searches the position it leads
    /// to on a thread of its own, until the next call on the engine or
    /// [`Engine::ponder_stop`]. Returns the expected reply (None: a pass).
    /// Nothing is searched where the next search would not: a position of
    /// the opening book, another strategy than the engine's.
    pub fn ponder<G: Geometry>(
        &mut self,
        after: Position<G>,
        limits: &Limits,
    ) -> Result<Option<u32>, Error> {
        limits.validate()?;
        self.end_ponder();
        if after.is_game_over() {
            return Err(Error::GameOver);
        }
        let reply = self.expected_reply(after);
        let pos = match reply {
            Some(sq) => after.play_with(sq, after.flips(sq)),
            None => after.pass(),
        };
        if pos.legal_moves().is_zero()
            || limits.strategy != Strategy::Engine
            || (limits.plays_book() && !self.book_moves(pos).is_empty())
        {
            return Ok(reply);
        }
        self.prepare::<G>(false);
        let (table, eval) = (Arc::clone(&self.table), Arc::clone(&self.eval));
        let pondering = ponder_limits(limits, pos.empties().count());
        let think = move |stop: &AtomicBool| {
            let moves = pos.legal_moves();
            think(&table, &eval, pos, moves, &pondering, stop, &mut |_| {})
        };
        let stop = self.ponder_stop();
        self.ponder = Some(Ponder::start(pos, limits, stop, think).map_err(|e| {
            Error::InvalidArgument(format!("cannot start the pondering thread: {e}"))
        })?);
        Ok(reply)
    }

    /// The opponent's reply the engine expects in `pos`: the table's best
    /// move, else a shallow search's (None: a pass).
    fn expected_reply<G: Geometry>(&mut self, pos: Position<G>) -> Option<u32> {
        let moves = pos.legal_moves();
        if moves.is_zero() {
            return None;
        }
        if self.size == G::N {
            if let Some(e) = self.table.probe(crate::board::key(pos)) {
                if u32::from(e.best) < G::SQUARES && moves.has(u32::from(e.best)) {
                    return Some(u32::from(e.best));
                }
            }
        }
        let mut limits = Limits::explicit(4, 0, 0).expect("depth 4 is valid");
        limits.selectivity = 0;
        let stop = AtomicBool::new(false);
        self.search(pos, &limits, &stop, &mut |_| {})
            .ok()
            .and_then(|r| r.best)
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
        let mut pondered = if restricted {
            self.end_ponder()
        } else {
            self.end_ponder_for(pos, limits, stop, start)
        };
        if pos.is_game_over() {
            return Err(Error::GameOver);
        }
        if pos.legal_moves().is_zero() {
            let passed = pos.pass();
            return Ok(SearchResult {
                score: -Evaluate::<G>::evaluate(&*self.eval, passed.player, passed.opponent),
                elapsed: start.elapsed(),
                ..SearchResult::default()
            });
        }
        if moves.is_zero() {
            return Err(Error::InvalidArgument(
                "no legal move among the moves to search".into(),
            ));
        }
        if let Some(mut r) = pondered.as_mut().and_then(|p| p.answer.take()) {
            r.elapsed = start.elapsed();
            return Ok(r);
        }
        let mut rng = Rng::new(limits.seed);
        if limits.plays_book() && !restricted {
            if let Some(mut r) = self.book_move(pos, limits.randomness, &mut rng) {
                r.elapsed = start.elapsed();
                return Ok(r);
            }
        }
        if let Some(mut r) = strategy_move(pos, limits, &mut rng) {
            r.elapsed = start.elapsed();
            return Ok(r);
        }
        // The pondering's entries for this position are this move's.
        self.prepare::<G>(pondered.is_some_and(|p| p.on(pos)));
        let mut result = think(&self.table, &self.eval, pos, moves, limits, stop, progress);
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
        self.prepare::<G>(false);
        let start = Instant::now();
        // Analysis takes its time limit as a plain deadline.
        let mut budget = budget(stop, limits, limits.time.and_then(|t| start.checked_add(t)));
        let exact = pos.empties().count() <= limits.exact_empties;
        let squares = G::SQUARES as i32;
        let mut out = Vec::new();
        for sq in pos.legal_moves().squares() {
            let child = pos.play_with(sq, pos.flips(sq));
            let score = if exact {
                exact_solver(&self.table, &self.eval, &mut budget, None)
                    .solve(child, -squares, squares)
                    .map(|v| -v * SCALE)
            } else {
                let mut searcher = Searcher {
                    table: &self.table,
                    budget: &mut budget,
                    eval: &*self.eval,
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

/// The move of a strategy other than the engine's own search (None: that
/// search): a uniformly random move, or a classic 1986 player's.
fn strategy_move<G: Geometry>(
    pos: Position<G>,
    limits: &Limits,
    rng: &mut Rng,
) -> Option<SearchResult> {
    let strategy = match limits.strategy {
        Strategy::Engine => return None,
        Strategy::Random => {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            let best = moves[rng.below(moves.len())];
            return Some(SearchResult {
                best: Some(best),
                pv: vec![best],
                ..SearchResult::default()
            });
        }
        Strategy::Greedy => classic::Strategy::Greedy,
        Strategy::Corners => classic::Strategy::Corners,
        Strategy::Classic(n) => classic::Strategy::Lookahead(n),
    };
    let tie = (limits.randomness > 0).then_some(rng);
    let mut result = SearchResult::default();
    if let Some((sq, score)) = classic::choose(pos, strategy, tie) {
        result.best = Some(sq);
        result.score = score.saturating_mul(SCALE);
    }
    result.depth = match strategy {
        classic::Strategy::Lookahead(n) => n,
        _ => 0,
    };
    result.pv = result.best.into_iter().collect();
    Some(result)
}

/// The engine's own search of `pos` among `moves` under `limits`, on
/// `table` and `eval`.
fn think<G: Geometry>(
    table: &Table,
    eval: &Evaluator,
    pos: Position<G>,
    moves: G::B,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let start = Instant::now();
    let mut rng = Rng::new(limits.seed);
    let plan = Plan::new(limits, pos.empties().count(), start);
    let selectivity = if plan.is_some() {
        limits.timed_selectivity
    } else {
        limits.selectivity
    };
    let mut budget = budget(stop, limits, plan.as_ref().and_then(Plan::deadline));
    let task = Task {
        table,
        eval,
        pos,
        moves,
        limits,
        plan,
        start,
        cut: probcut::SELECTIVITY_T[selectivity as usize],
    };
    let mut result = run_threads(&task, &mut budget, progress, &mut rng);
    result.nodes = budget.nodes;
    result.stopped = budget.stopped;
    result.elapsed = start.elapsed();
    result
}

/// The search of the root ([`root::run`]) on `limits.threads` threads: the
/// caller's gives the result, the helpers search the same root beside it
/// (see [`crate::search::parallel`]) and stop when it is done. `budget`
/// ends with every thread's nodes.
fn run_threads<G: Geometry>(
    task: &Task<G>,
    budget: &mut Budget,
    progress: &mut dyn FnMut(&Progress),
    rng: &mut Rng,
) -> SearchResult {
    let threads = resolve_threads(task.limits.threads);
    if threads <= 1 {
        let thread = Thread {
            budget,
            progress,
            rng,
            busy: None,
        };
        return root::run(task, thread);
    }
    let team = Team::default();
    let busy = Busy::default();
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|i| {
                let mut own = budget.for_team(&team);
                let busy = &busy;
                s.spawn(move || {
                    let mut rng = Rng::new(task.limits.seed ^ u64::from(i));
                    let thread = Thread {
                        budget: &mut own,
                        progress: &mut |_| {},
                        rng: &mut rng,
                        busy: Some(busy),
                    };
                    root::run(task, thread);
                    own.nodes
                })
            })
            .collect();
        let mut own = budget.for_team(&team);
        let thread = Thread {
            budget: &mut own,
            progress,
            rng,
            busy: Some(&busy),
        };
        let result = root::run(task, thread);
        team.finish();
        // A helper that panicked only lost its count: the result is the
        // caller's thread's.
        let helped: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        budget.nodes += own.nodes + helped;
        budget.stopped |= own.stopped;
        result
    })
}

/// The budget of a search under `limits`, stopped by `stop` or at
/// `deadline`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::*;
    use crate::search::probcut::EXACT_SELECTIVITY;
    use std::time::Duration;

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

    /// A position of `empties` empties from which the side to move has a
    /// move, the opponent a reply.
    fn ponderable(seed: u64, empties: u32) -> Position<S8> {
        use crate::board::testing::random_position;
        let mut rng = crate::rng::Rng::new(seed);
        loop {
            let pos = random_position::<S8>(&mut rng, empties).expect("a position");
            if pos.legal_moves().count() >= 2 {
                return pos;
            }
        }
    }

    fn wait_for_ponder(e: &Engine) {
        let start = Instant::now();
        while !e.ponder_finished() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "pondering never ended"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_pondered_fixed_search_is_played_at_once_on_the_expected_position() {
        let limits = Limits::level(8).unwrap();
        let stopped = AtomicBool::new(true);
        let go = AtomicBool::new(false);
        let mut e = Engine::new(8);
        let after = ponderable(11, 36);
        let reply = e.ponder(after, &limits).unwrap().expect("a reply");
        assert!(e.is_pondering() && after.legal_moves().has(reply));
        wait_for_ponder(&e);
        let expected = after.play(reply).unwrap();
        // A stop set before the search would end any search at once: the
        // pondering's result comes whole.
        let r = e.search(expected, &limits, &stopped, &mut |_| {}).unwrap();
        assert!(
            !r.stopped && r.depth == limits.depth && r.nodes > 0,
            "{r:?}"
        );
        assert!(expected.legal_moves().has(r.best.unwrap()) && !e.is_pondering());
        // Not on another position, nor under other limits.
        let other = after
            .legal_moves()
            .squares()
            .find(|&s| s != reply)
            .map(|s| after.play(s).unwrap())
            .unwrap();
        for (pos, lim) in [(other, limits), (expected, Limits::level(6).unwrap())] {
            e.ponder(after, &limits).unwrap();
            wait_for_ponder(&e);
            assert!(e.search(pos, &lim, &stopped, &mut |_| {}).unwrap().stopped);
        }
        // And a search that is not stopped still plays a legal move.
        e.ponder(after, &limits).unwrap();
        let r = e.search(other, &limits, &go, &mut |_| {}).unwrap();
        assert!(other.legal_moves().has(r.best.unwrap()) && !r.stopped);
    }

    #[test]
    fn a_search_of_the_pondered_position_goes_on_with_the_pondering() {
        let stop = AtomicBool::new(false);
        let after = ponderable(17, 34);
        // A fixed level: the pondering is the search, taken over at once.
        let limits = Limits::level(10).unwrap();
        let mut e = Engine::new(8);
        let reply = e.ponder(after, &limits).unwrap().unwrap();
        let expected = after.play(reply).unwrap();
        let r = e.search(expected, &limits, &stop, &mut |_| {}).unwrap();
        assert!(!r.stopped && r.depth == 10 && r.nodes > 0, "{r:?}");
        // By a clock: it goes on to the move's target time.
        let mut timed = Limits::level(60).unwrap();
        timed.clock = Some(Clock {
            remaining: Duration::from_secs(3),
            increment: Duration::ZERO,
        });
        let reply = e.ponder(after, &timed).unwrap().unwrap();
        let expected = after.play(reply).unwrap();
        let r = e.search(expected, &timed, &stop, &mut |_| {}).unwrap();
        assert!(expected.legal_moves().has(r.best.unwrap()) && r.depth > 0);
        assert!(r.elapsed < Duration::from_secs(3), "{r:?}");
    }

    #[test]
    fn a_pondering_stopped_from_outside_does_not_stop_the_search() {
        // As othello_engine_stop() during the pondering: the search of the
        // expected position that follows is not stopped by it.
        let stop = AtomicBool::new(false);
        let after = ponderable(23, 38);
        let limits = Limits::level(12).unwrap();
        let mut e = Engine::new(8);
        let reply = e.ponder(after, &limits).unwrap().unwrap();
        e.ponder_stop()
            .store(true, std::sync::atomic::Ordering::SeqCst);
        wait_for_ponder(&e);
        let expected = after.play(reply).unwrap();
        let r = e.search(expected, &limits, &stop, &mut |_| {}).unwrap();
        assert!(!r.stopped && r.depth == 12, "{r:?}");
    }

    #[test]
    fn pondering_keeps_exact_scores_exact() {
        let mut e = Engine::new(8);
        let mut fresh = Engine::new(8);
        let stop = AtomicBool::new(false);
        let after = ponderable(5, 15);
        let reply = e.ponder(after, &exact_limits()).unwrap().unwrap();
        wait_for_ponder(&e);
        for sq in after.legal_moves().squares() {
            let pos = after.play(sq).unwrap();
            if pos.is_game_over() {
                continue;
            }
            // The expected position's result comes from the pondering.
            e.ponder(after, &exact_limits()).unwrap();
            let got = e.search(pos, &exact_limits(), &stop, &mut |_| {}).unwrap();
            fresh.clear();
            let want = fresh
                .search(pos, &exact_limits(), &stop, &mut |_| {})
                .unwrap();
            assert!(got.exact && want.exact, "{sq} (expected {reply})");
            assert_eq!(got.score, want.score, "{sq} (expected {reply})");
        }
    }

    #[test]
    fn pondering_stops_when_asked_and_when_the_engine_goes() {
        let mut limits = Limits::level(60).unwrap();
        limits.clock = Some(Clock {
            remaining: Duration::from_secs(3600),
            increment: Duration::ZERO,
        });
        let stop = AtomicBool::new(false);
        let after = ponderable(3, 40);
        // By the flag, from another thread, as othello_engine_stop does.
        let mut e = Engine::new(8);
        e.ponder(after, &limits).unwrap();
        let flag = e.ponder_stop();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        wait_for_ponder(&e);
        // By the next call, which then searches as asked.
        e.ponder(after, &limits).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert!(!e.ponder_finished());
        let r = e.search(after, &Limits::level(4).unwrap(), &stop, &mut |_| {});
        assert!(after.legal_moves().has(r.unwrap().best.unwrap()));
        // By its end.
        e.ponder(after, &limits).unwrap();
        drop(e);
        // On every size, through clear.
        let mut e = Engine::new(8);
        let after = Position::<S6>::start().play(8).unwrap();
        e.ponder(after, &limits).unwrap();
        e.clear();
        assert!(!e.is_pondering());
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
