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
use super::probcut;
use super::root::{self, exact_solver, Task, Thread};
pub use super::root::{Progress, SearchResult};
use super::table::Table;
use super::timing::Plan;
use super::Budget;
use crate::board::{Bits, Geometry, Position};
use crate::book::{BookChoice, BookMove};
use crate::classic;
use crate::error::Error;
use crate::eval::{Evaluate, Evaluator, SCALE};
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
        if pos.legal_moves().is_zero() {
            let passed = pos.pass();
            return Ok(SearchResult {
                score: -Evaluate::<G>::evaluate(&self.eval, passed.player, passed.opponent),
                elapsed: start.elapsed(),
                ..SearchResult::default()
            });
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
        if let Some(mut r) = strategy_move(pos, limits, &mut rng) {
            r.elapsed = start.elapsed();
            return Ok(r);
        }
        self.prepare::<G>();
        let plan = Plan::new(limits, pos.empties().count(), start);
        let selectivity = if plan.is_some() {
            limits.timed_selectivity
        } else {
            limits.selectivity
        };
        let mut budget = budget(stop, limits, plan.as_ref().and_then(Plan::deadline));
        let task = Task {
            table: &self.table,
            eval: &self.eval,
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
                exact_solver(&self.table, &self.eval, &mut budget, None)
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
