//! Levels and limits: what a caller may ask of a search, the ranges each
//! limit is checked against, and the table that turns a level into a
//! midgame depth, a selectivity and the empties at which to solve.
//!
//! | level | midgame depth | selectivity | exact solve at empties <= | win/loss/draw at empties <= |
//! |-------|---------------|-------------|---------------------------|-----------------------------|
//! | 0     | 1             | none        | 0                         | 0                           |
//! | 1-10  | L             | 4 (99%)     | 2L                        | 2L + 2                      |
//! | 11-60 | L             | 4 (99%)     | min(20 + (L - 10) / 2, 60)| exact + 2 (at most 60)      |
//!
//! Levels mean search effort only; strength also depends on the evaluation.
//! A time limit or a game clock ([`Limits::time`], [`Limits::clock`]) caps
//! that effort: the search then chooses by itself how deep to go and
//! whether to solve (see [`crate::search::timing`]), at the level's timed
//! selectivity, 0 (73%, and late-move reductions, see
//! [`crate::search::midgame`]): where a fixed depth is best searched with
//! few cuts, a fixed time is best spent going deeper with more (at equal
//! time selectivity 0 scored 0.346 against 0.272 for 1).

use super::parallel::MAX_THREADS;
use super::probcut::EXACT_SELECTIVITY;
use crate::error::Error;
use std::ops::RangeInclusive;
use std::time::Duration;

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
/// Selectivity settings (see [`crate::search::probcut`]).
pub const SELECTIVITIES: RangeInclusive<u32> = 0..=EXACT_SELECTIVITY;
/// The selectivity of the levels' midgame searches to a fixed depth.
pub const LEVEL_SELECTIVITY: u32 = 4;
/// The selectivity of the levels' midgame searches by a time or a clock.
pub const TIMED_LEVEL_SELECTIVITY: u32 = 0;
/// Randomness, in discs.
pub const RANDOMNESS: RangeInclusive<u32> = 0..=64;
/// Threads of a search (0: one per core).
pub const THREADS: RangeInclusive<u32> = 0..=MAX_THREADS;
/// The lowest level that plays from the opening book.
pub const BOOK_MIN_LEVEL: u32 = 1;
/// The lookahead of the classic strategy (the original's skill levels).
pub const CLASSIC_DEPTHS: RangeInclusive<u32> = 0..=9;

/// A game clock: the side to move's time left for the rest of the game, and
/// what each of its moves adds back once made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
}

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
    /// Think at most this long on the move (None: no limit). The search
    /// deepens and solves only as far as its time allows, and never
    /// returns later than this (see [`crate::search::timing`]).
    pub time: Option<Duration>,
    /// The side to move's game clock (None: no clock): the search spends
    /// a share of it fitting the moves left, more on the moves that need
    /// it, and never all of it.
    pub clock: Option<Clock>,
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
    /// The selectivity of a search planned by its time (a time limit or a
    /// clock), in [`SELECTIVITIES`]: levels set [`TIMED_LEVEL_SELECTIVITY`],
    /// explicit limits the same as `selectivity`.
    pub timed_selectivity: u32,
    /// Engine strategy on 8x8: play from the engine's opening book when the
    /// position is in it (a move within `randomness` discs of the book's
    /// best, chosen with `seed`), without searching. Levels from
    /// [`BOOK_MIN_LEVEL`] set it; explicit limits do not. A search with a
    /// time limit and no clock follows `timed_book` instead.
    pub book: bool,
    /// As `book`, for a search with a time limit and no clock. Levels leave
    /// it off: there a book move saves time that no later move gets back,
    /// and searching plays better than the built-in book's moves, which
    /// come from level-10 searches (docs/guide.md, "The opening book").
    /// Explicit limits leave it off too; set it with `book` to play from
    /// the book under a time limit.
    pub timed_book: bool,
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
            clock: None,
            strategy: Strategy::Engine,
            randomness: 0,
            seed: 0,
            selectivity: LEVEL_SELECTIVITY,
            timed_selectivity: TIMED_LEVEL_SELECTIVITY,
            book: level >= BOOK_MIN_LEVEL,
            timed_book: false,
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
        limits.timed_selectivity = EXACT_SELECTIVITY;
        limits.book = false;
        Ok(limits)
    }

    /// Whether this search plays from the opening book when the position
    /// is in it: `timed_book` under a time limit without a clock, else
    /// `book`, and only for the engine strategy.
    pub fn plays_book(&self) -> bool {
        let by_time_alone = self.time.is_some() && self.clock.is_none();
        self.strategy == Strategy::Engine
            && if by_time_alone {
                self.timed_book
            } else {
                self.book
            }
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), Error> {
        in_range("limits.depth", self.depth.into(), DEPTHS)?;
        in_range("limits.exact_empties", self.exact_empties.into(), EMPTIES)?;
        in_range("limits.wld_empties", self.wld_empties.into(), EMPTIES)?;
        in_range("limits.randomness", self.randomness.into(), RANDOMNESS)?;
        in_range("limits.selectivity", self.selectivity.into(), SELECTIVITIES)?;
        in_range(
            "limits.timed_selectivity",
            self.timed_selectivity.into(),
            SELECTIVITIES,
        )?;
        in_range("limits.threads", self.threads.into(), THREADS)?;
        if let Strategy::Classic(n) = self.strategy {
            in_range("limits.classic_depth", n.into(), CLASSIC_DEPTHS)?;
        }
        Ok(())
    }
}
