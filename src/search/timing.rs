//! Thinking by the clock: how long a search given a time limit or a game
//! clock may take on its move, whether another iteration or a solve still
//! fits, and when to stop. A search with neither is not planned at all:
//! fixed levels search exactly as deep as their table says, reproducibly.
//!
//! Two times bound a move. The target is what the move is meant to take: an
//! iteration or a solve starts only when it is predicted to end by then.
//! The hard limit is the budget's deadline, which no search passes: a
//! search still running then is stopped, and the move comes from the last
//! finished iteration (or the better move the unfinished one had already
//! proved). A time limit is both at once, as nothing saved on one move
//! comes back on the next; a clock's target is its share of the time left
//! for the moves to come, and its hard limit a few targets, never more
//! than half of what is left.

use super::limits::{Clock, Limits};
use crate::clock::Instant;
use std::time::Duration;

/// The time reserved on every move for answering after the search stops,
/// or a sixteenth of a shorter time. The budget looks at the clock every
/// 1,024 nodes (about a tenth of a millisecond): with no margin, searches
/// answered at most 0.31 ms past their time. A margin of 0.25 ms scored
/// better at equal time than one of 1 ms.
const ANSWER_MARGIN: Duration = Duration::from_micros(250);
/// See [`ANSWER_MARGIN`].
const ANSWER_SHARE: u32 = 16;

/// The time a clock keeps back for each of the side's moves still to come,
/// for what its searches do not see: the way of each question and answer
/// between the engine and its GUI, and the GUI's rounding of the times it
/// gives back (a GGF may give them to hundredths of a second). Without it,
/// a clock could come down to its last milliseconds and run out: under
/// `othello-match --clock 5` some games were lost on time, and none with
/// it.
const MOVE_RESERVE: Duration = Duration::from_millis(5);

/// The empties from which a game is usually solved when time is short:
/// a clock's time is shared among the moves before them, plus the solve.
const SOLVE_EMPTIES: u32 = 20;

/// The moves of a clock's share that the solve counts for.
const SOLVE_SHARES: u32 = 3;

/// How much longer the target grows on a move whose best move or score
/// changed at the last iteration (an unstable search needs more time).
const UNSTABLE_STRETCH: f64 = 1.5;

/// A score drop, in centi-discs, that makes the move unstable.
const SCORE_DROP: i32 = 150;

/// Under a time limit, an iteration starts when this share of its
/// predicted time fits (see [`Plan::next_iteration_fits`]).
const SPEND_ALL_SHARE: u32 = 10;

/// Growth of an iteration's time over the one before, when too little has
/// been measured to tell (and the bounds of what is measured).
const DEFAULT_GROWTH: f64 = 3.0;
const MIN_GROWTH: f64 = 1.5;
const MAX_GROWTH: f64 = 8.0;

/// Nodes of an exact solve at [`SOLVE_EMPTIES`] empties, and their growth
/// per further empty: the solver's mean counts from a cleared table on
/// positions of match games (a warm table takes fewer). A
/// win/loss/draw search takes about 0.4 of it.
const SOLVE_NODES_AT: f64 = 2.7e6;
const SOLVE_NODES_GROWTH: f64 = 2.3;
const WLD_SHARE: f64 = 0.4;

/// How many times faster the solver's nodes are than the midgame
/// search's, whose rate the search measures as it goes. Set when they ran
/// at 15 M and 4.2 M a second; since the midgame nodes became cheaper, 2.3
/// scored no better at equal time, so it stays.
const SOLVER_SPEEDUP: f64 = 3.5;

/// The midgame nodes a second assumed before any is measured (the
/// measured rate takes over after 10,000 nodes and 2 ms).
const DEFAULT_RATE: f64 = 4.0e6;

/// A move's time plan.
#[derive(Clone, Debug)]
pub struct Plan {
    start: Instant,
    target: Duration,
    hard: Duration,
    /// Whether an iteration that may not end by the target is worth
    /// starting: yes under a time limit (the time is lost anyway), no on a
    /// clock (it would spend later moves' time).
    spend_all: bool,
    /// The last two iterations' times, for the next one's prediction.
    last: Option<Duration>,
    growth: f64,
}

impl Plan {
    /// The plan of a search under `limits` of a position with `empties`
    /// empty squares, started at `start`; None without a time limit or a
    /// clock.
    pub fn new(limits: &Limits, empties: u32, start: Instant) -> Option<Plan> {
        let by_limit = limits.time.map(|t| (t, t, true));
        let by_clock = limits.clock.map(|c| {
            let (target, hard) = clock_share(c, empties);
            (target, hard, false)
        });
        let (target, hard, spend_all) = match (by_limit, by_clock) {
            (Some(a), Some(b)) => {
                if b.1 < a.1 {
                    b
                } else {
                    a
                }
            }
            (a, b) => a.or(b)?,
        };
        // A time of a few milliseconds keeps most of itself.
        let hard = hard.saturating_sub(ANSWER_MARGIN.min(hard / ANSWER_SHARE));
        Some(Plan {
            start,
            target: target.min(hard),
            hard,
            spend_all,
            last: None,
            growth: DEFAULT_GROWTH,
        })
    }

    /// The moment the move is meant to end by (None: beyond what the
    /// clock can tell).
    pub fn target_end(&self) -> Option<Instant> {
        self.start.checked_add(self.target)
    }

    /// The moment no search may pass (None: beyond what the clock can
    /// tell, for a time of millions of years).
    pub fn deadline(&self) -> Option<Instant> {
        self.start.checked_add(self.hard)
    }

    /// Notes that an iteration ended after `took`, and whether it changed
    /// the best move or dropped the score (`previous` and `score` in
    /// centi-discs): the target then grows, up to the hard limit.
    pub fn iteration_done(&mut self, took: Duration, changed: bool, previous: i32, score: i32) {
        if let Some(last) = self.last.filter(|l| !l.is_zero()) {
            let g = took.as_secs_f64() / last.as_secs_f64();
            self.growth = g.clamp(MIN_GROWTH, MAX_GROWTH);
        }
        self.last = Some(took);
        if changed || score < previous - SCORE_DROP {
            self.target = self.target.mul_f64(UNSTABLE_STRETCH).min(self.hard);
        }
    }

    /// The next iteration's predicted time: the last one's, grown.
    fn next_iteration_time(&self) -> Duration {
        self.last.unwrap_or_default().mul_f64(self.growth)
    }

    /// Whether the next iteration is worth starting now.
    pub fn next_iteration_fits(&self) -> bool {
        let predicted = self.next_iteration_time();
        // Under a time limit, an iteration that may well not end in time is
        // worth starting: what it proves before the limit counts (a move
        // that beats the last best one), and time left over is lost. A tenth
        // of its predicted time scored better at equal time than a quarter,
        // and a twentieth or every iteration no better.
        let predicted = if self.spend_all {
            predicted / SPEND_ALL_SHARE
        } else {
            predicted
        };
        self.fits(predicted)
    }

    /// Whether a solve of `empties` empties (exact, or win/loss/draw) is
    /// predicted to end by the target, at `nodes` midgame nodes so far.
    pub fn solve_fits(&self, empties: u32, exact: bool, nodes: u64) -> bool {
        self.fits(self.solve_time(empties, exact, nodes))
    }

    /// The solve predicted to end by the target among those allowed:
    /// exact (`Some(true)`) before win/loss/draw (`Some(false)`).
    pub fn solve_that_fits(
        &self,
        empties: u32,
        exact_allowed: bool,
        wld_allowed: bool,
        nodes: u64,
    ) -> Option<bool> {
        [(true, exact_allowed), (false, wld_allowed)]
            .into_iter()
            .find(|&(exact, allowed)| allowed && self.solve_fits(empties, exact, nodes))
            .map(|(exact, _)| exact)
    }

    /// Whether a solve still fits after one more iteration.
    fn solve_fits_after_next(&self, empties: u32, exact: bool, nodes: u64) -> bool {
        self.fits(self.solve_time(empties, exact, nodes) + self.next_iteration_time())
    }

    /// Whether a solve that fits starts now rather than after one more
    /// midgame iteration: when it would no longer fit after that
    /// iteration, or on a clock (which keeps what a move saves) once the
    /// midgame search is `past_presearch`. Under a time limit the time a
    /// solve leaves over is lost, so the solve starts as late as it fits,
    /// and one the time stops then leaves a deeper search's move.
    pub fn solve_starts_now(
        &self,
        empties: u32,
        exact: bool,
        nodes: u64,
        past_presearch: bool,
    ) -> bool {
        !self.solve_fits_after_next(empties, exact, nodes) || (past_presearch && !self.spend_all)
    }

    fn solve_time(&self, empties: u32, exact: bool, nodes: u64) -> Duration {
        let share = if exact { 1.0 } else { WLD_SHARE };
        let solve_nodes = share * grown(SOLVE_NODES_AT, SOLVE_NODES_GROWTH, empties);
        duration_of(solve_nodes, self.rate(nodes) * SOLVER_SPEEDUP)
    }

    /// The midgame nodes a second measured so far (`nodes` of them).
    fn rate(&self, nodes: u64) -> f64 {
        let elapsed = self.start.elapsed().as_secs_f64();
        if elapsed > 0.002 && nodes > 10_000 {
            nodes as f64 / elapsed
        } else {
            DEFAULT_RATE
        }
    }

    fn fits(&self, predicted: Duration) -> bool {
        self.start.elapsed() + predicted <= self.target
    }
}

/// The nodes of a search at `empties` empties, from `at` nodes at
/// [`SOLVE_EMPTIES`] and `growth` per empty.
fn grown(at: f64, growth: f64, empties: u32) -> f64 {
    at * growth.powi(empties as i32 - SOLVE_EMPTIES as i32)
}

/// The time of `nodes` at `rate` nodes a second.
fn duration_of(nodes: f64, rate: f64) -> Duration {
    Duration::from_secs_f64((nodes / rate).min(1e6))
}

/// A clock's (target, hard limit) for a move at `empties` empties: the time
/// left, less a reserve for the moves to come, shared among the moves
/// before the solve and the solve, the increment added (it comes back once
/// the move is made), and at most half of the time left.
fn clock_share(clock: Clock, empties: u32) -> (Duration, Duration) {
    let remaining = clock.remaining;
    // Enough left for the moves to come even at their answer margin, and
    // each move's reserve (this one's included).
    let reserve = MOVE_RESERVE * empties.div_ceil(2).max(1);
    let usable = remaining.saturating_sub(remaining / 20 + ANSWER_MARGIN + reserve);
    let moves_before_solve = empties.saturating_sub(SOLVE_EMPTIES).div_ceil(2);
    let shares = moves_before_solve + SOLVE_SHARES;
    let increment = clock.increment.min(usable / 2);
    let target = usable / shares + increment;
    let hard = (target * 3).min(usable / 2 + increment);
    (target.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> Clock {
        Clock {
            remaining: Duration::from_millis(ms),
            increment: Duration::from_millis(inc),
        }
    }

    #[test]
    fn a_clock_is_shared_and_never_spent_at_once() {
        for (ms, inc) in [(60_000, 0), (3_000, 0), (1_000, 500), (50, 0), (0, 100)] {
            for empties in [60, 40, 24, 20, 12, 1] {
                let (target, hard) = clock_share(clock(ms, inc), empties);
                let left = Duration::from_millis(ms);
                assert!(target <= hard, "{ms} {inc} {empties}");
                assert!(
                    hard <= left / 2 + Duration::from_millis(inc),
                    "{ms} {empties}"
                );
            }
        }
        // Each move still to come keeps its reserve; a clock below the
        // reserves gives the move nothing past its first iteration.
        for empties in [60, 40, 24, 20, 12, 1] {
            let c = clock(3_000, 0);
            let hard = clock_share(c, empties).1;
            assert!(hard + MOVE_RESERVE * empties.div_ceil(2) <= c.remaining);
        }
        assert_eq!(clock_share(clock(90, 0), 40).1, Duration::ZERO);
        // More of it on a move closer to the end, where fewer moves share it.
        let early = clock_share(clock(60_000, 0), 50).0;
        let late = clock_share(clock(60_000, 0), 24).0;
        assert!(early < late, "{early:?} {late:?}");
    }

    #[test]
    fn a_time_limit_is_the_deadline_less_the_margin() {
        let mut limits = Limits::level(20).unwrap();
        let limit = Duration::from_millis(100);
        limits.time = Some(limit);
        let start = Instant::now();
        let plan = Plan::new(&limits, 40, start).unwrap();
        assert_eq!(plan.deadline(), Some(start + limit - ANSWER_MARGIN));
        // A time of a few milliseconds keeps all but a sixteenth.
        limits.time = Some(Duration::from_millis(2));
        let short = Plan::new(&limits, 40, start).unwrap();
        assert_eq!(short.deadline(), Some(start + Duration::from_micros(1875)));
        limits.time = Some(limit);
        // The tighter of a time limit and a clock wins.
        limits.clock = Some(clock(300, 0));
        let plan = Plan::new(&limits, 40, start).unwrap();
        assert!(plan.deadline().unwrap() < start + limit - ANSWER_MARGIN);
        // A clock keeps what a move saves: past the presearch, a solve
        // that fits starts at once. A time limit does not: the solve waits
        // for as long as it still fits after another iteration.
        assert!(plan.solve_fits_after_next(10, true, 0));
        assert!(plan.solve_starts_now(10, true, 0, true));
        assert!(!plan.solve_starts_now(10, true, 0, false));
        limits.clock = None;
        let plan = Plan::new(&limits, 40, start).unwrap();
        assert!(!plan.solve_starts_now(10, true, 0, true));
        assert!(!plan.solve_starts_now(10, true, 0, false));
        assert!(!plan.solve_fits_after_next(40, true, 0));
        assert!(plan.solve_starts_now(40, true, 0, false));
        assert!(Plan::new(&Limits::level(20).unwrap(), 40, start).is_none());
    }

    #[test]
    fn solves_fit_by_their_empties() {
        let mut limits = Limits::level(60).unwrap();
        limits.time = Some(Duration::from_secs(1));
        let plan = Plan::new(&limits, 30, Instant::now()).unwrap();
        assert!(plan.solve_fits(14, true, 0));
        assert!(!plan.solve_fits(30, true, 0));
        // A win/loss/draw search is cheaper than the exact one.
        let e = (10..40).find(|&e| !plan.solve_fits(e, true, 0)).unwrap();
        let w = (10..40).find(|&e| !plan.solve_fits(e, false, 0)).unwrap();
        assert!(e <= w);
    }
}
