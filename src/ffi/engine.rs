//! C functions over the search engine `othello_engine`.

use super::board::{board_ref, othello_board, OTHELLO_PASS};
use super::{
    boundary, boundary_status, check_room, free_handle, othello_status, try_mut, try_ref,
    write_list, Failure,
};
use crate::engine::{
    in_range, Clock, Engine, Limits, Progress, SearchResult, Strategy, CLASSIC_DEPTHS, LEVELS,
    MAX_LEVEL, RANDOMNESS, SELECTIVITIES, THREADS,
};
use crate::eval::discs;
use crate::search::probcut::EXACT_SELECTIVITY;
use othello_status::*;
use std::cell::UnsafeCell;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest principal variation a result carries.
pub const OTHELLO_PV_MAX: usize = 64;

/// Who chooses the move. A 32-bit integer in C.
#[repr(i32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum othello_strategy {
    /// The alpha-beta engine with its exact endgame solver (the default).
    OTHELLO_STRATEGY_ENGINE = 0,
    /// The 1986 program's lookahead, `classic_depth` levels deep (0..9): the
    /// same move as the original from the same position.
    OTHELLO_STRATEGY_CLASSIC = 1,
    /// The 1986 program's discs flipped plus square bonus.
    OTHELLO_STRATEGY_CORNERS = 2,
    /// The most discs flipped (first in the original's scan order on ties).
    OTHELLO_STRATEGY_GREEDY = 3,
    /// A uniformly random legal move (from `seed`).
    OTHELLO_STRATEGY_RANDOM = 4,
}

/// A strategy as passed in from C; checked before use. Spelled
/// `othello_strategy` in the header.
pub type othello_strategy_arg = i32;

/// Reported to the progress callback after each completed iteration. The
/// library fills it; fields added in later 1.x versions come at the end.
#[repr(C)]
pub struct othello_search_progress {
    /// sizeof(othello_search_progress) in the library that filled it: a
    /// callback built against a later header reads a field added there only
    /// when `struct_size` covers it. Since 1.0.
    pub struct_size: usize,
    /// Midgame depth completed, or the empties solved when `exact`.
    pub depth: c_int,
    /// Score in discs from the side to move's view (an estimate unless exact).
    pub score: c_int,
    /// True when `score` is the exact final disc difference.
    pub exact: bool,
    /// The best move so far.
    pub best_move: c_int,
    /// The principal variation: `pv_len` squares, valid during the callback.
    pub pv: *const c_int,
    pub pv_len: usize,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
}

/// The progress callback: called on the searching thread; `userdata` is the
/// pointer given in the limits. It must not call othello_engine_search() on
/// the same engine (othello_engine_stop() is fine).
pub type othello_progress_fn =
    Option<unsafe extern "C" fn(progress: *const othello_search_progress, userdata: *mut c_void)>;

/// What a search may do. Always initialise with othello_search_limits_init(),
/// then change fields: the library reads only the first `struct_size` bytes, so
/// a program built against an older header keeps working when fields are added.
#[repr(C)]
pub struct othello_search_limits {
    /// sizeof(othello_search_limits) as the caller knows it; set by init.
    /// A size ending inside a field is INVALID_ARGUMENT.
    pub struct_size: usize,
    /// 0..60 (see the level table in docs/guide.md); -1 to use `depth`,
    /// `exact_empties` and `wld_empties` instead. Default 10.
    pub level: c_int,
    /// Midgame depth in plies, 1..60 (with level -1).
    pub depth: c_int,
    /// Solve exactly at this many empties or fewer, 0..60 (with level -1).
    pub exact_empties: c_int,
    /// Solve for win/loss/draw at this many empties or fewer (with level -1).
    pub wld_empties: c_int,
    /// Stop after about this many nodes; 0 = no limit.
    pub node_limit: u64,
    /// Think at most this many milliseconds on the move; 0 = no limit;
    /// negative is invalid. A timed search deepens, and solves, only as far
    /// as the time allows, and returns within it: `level` then caps the
    /// effort (60: as much as the time allows). Fixed levels without a time
    /// limit or a clock search reproducibly, whatever the machine's speed.
    pub time_limit_ms: i64,
    /// Who chooses the move; default OTHELLO_STRATEGY_ENGINE.
    pub strategy: othello_strategy_arg,
    /// Lookahead of OTHELLO_STRATEGY_CLASSIC, 0..9 (the original's skill level).
    pub classic_depth: c_int,
    /// Engine: choose uniformly among moves within this many discs of the
    /// best (0 = always the best). Classic strategies: > 0 breaks ties at
    /// random instead of by the original's scan order. 0..64.
    pub randomness: c_int,
    /// Seed of all random choices: same position + limits + seed = same move.
    pub seed: u64,
    /// Called after each completed iteration; may be NULL.
    pub progress: othello_progress_fn,
    /// Passed to `progress` untouched.
    pub userdata: *mut c_void,
    /// How selective the midgame search is (Multi-ProbCut): 0..5 cut with
    /// 73, 87, 95, 98, 99 and 100% confidence (5: no selective cuts, exact to
    /// the depth); -1 (the default): the level's setting (the level table
    /// of docs/guide.md: 4 to a fixed depth, 0 by a time limit or a clock),
    /// or 5 with `level` -1. Solving is never selective.
    pub selectivity: c_int,
    /// Play from the engine's opening book (8x8; see othello_engine_set_book)
    /// when the position is in it, without searching: a book move within
    /// `randomness` discs of the book's best, chosen with `seed`. 1 = yes,
    /// 0 = no, -1 (the default) = the level's setting: yes from level 1 up,
    /// except with a `time_limit_ms` and no clock (there searching plays
    /// better: docs/guide.md, "The opening book"); no at level 0 and with
    /// `level` -1. Other strategies ignore it.
    pub book: c_int,
    /// Threads of the search, 0..256. 1 (the default): the calling thread
    /// alone; the same move, score, line and node count for the same
    /// position, limits and seed from a fresh or cleared engine. N > 1: N - 1
    /// helper threads search beside the calling thread on the engine's
    /// table, for the calling thread's result; exact scores stay exact, but
    /// the move among equal ones, midgame scores, lines and node counts (all
    /// threads') may differ from run to run. 0: one thread per core. The
    /// progress callback is still called on the calling thread only.
    pub threads: c_int,
    /// The side to move's game clock: its time left for the rest of the
    /// game in milliseconds, or -1 (the default) for no clock. The search
    /// takes a share of it fitting the moves left (more on a move whose best
    /// move changes as it deepens), never more than half of it, and keeps 5
    /// ms for each move still to come (for the time the search does not
    /// see, such as a GUI's pipe); with `time_limit_ms` too, never more
    /// than that. `level` caps the effort as with `time_limit_ms`. Since
    /// 0.4.
    pub clock_remaining_ms: i64,
    /// What each move adds to the clock once made, in milliseconds (0, the
    /// default: nothing; negative is invalid). Since 0.4.
    pub clock_increment_ms: i64,
}

/// The outcome of a search. Initialise with othello_search_result_init()
/// before the search: the library writes only the first `struct_size` bytes,
/// so a program built against an older header keeps working when fields are
/// added at the end.
#[repr(C)]
pub struct othello_search_result {
    /// sizeof(othello_search_result) as the caller knows it; set by init
    /// and left as it was by the search. Since 1.0.
    pub struct_size: usize,
    /// The move to play, or OTHELLO_PASS (-1) when the side to move must pass.
    pub r#move: c_int,
    /// Score in discs from the side to move's view: the exact final disc
    /// difference when `exact`, else the engine's estimate. For the classic
    /// strategies (CLASSIC, CORNERS, GREEDY), the 1986 program's own points
    /// for the move (discs flipped plus its square bonus, minus the best
    /// reply's for a lookahead); 0 for RANDOM.
    pub score: c_int,
    /// True when `score` is exact.
    pub exact: bool,
    /// True when the sign of `score` (win, draw, loss) is proven.
    pub wld: bool,
    /// Midgame depth reached, or the number of empties solved; for
    /// OTHELLO_STRATEGY_CLASSIC, its lookahead.
    pub depth: c_int,
    pub nodes: u64,
    pub elapsed_ms: u64,
    /// True when a stop, time or node limit ended the search early; `move` is
    /// still a legal move (the best found so far).
    pub stopped: bool,
    /// The principal variation, `pv_len` squares, starting with `move`.
    pub pv: [c_int; OTHELLO_PV_MAX],
    pub pv_len: usize,
    /// True when `move` came from the opening book: `score` is the book's
    /// value, `depth` and `nodes` are 0 and `pv` follows the book's best
    /// moves.
    pub from_book: bool,
}

/// One move and its score, as othello_engine_analyze() reports them.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct othello_move_score {
    pub r#move: c_int,
    /// Discs from the side to move's view, as in othello_search_result.
    pub score: c_int,
    pub exact: bool,
}

/// A search engine: owns the transposition table, reused across the moves of
/// a game. Create with othello_engine_new(), release with othello_engine_free().
///
/// Threads: one search per engine at a time; a second concurrent
/// othello_engine_search() / _analyze() / _clear() on the same engine gets
/// OTHELLO_STATUS_BUSY (no data race). othello_engine_stop() may be called
/// from any thread at any time while the engine exists. Different engines
/// search in parallel freely. Pondering (othello_engine_ponder()) runs on a
/// thread of the library's, and the next call that searches, analyses,
/// clears or changes the engine ends it first.
pub struct othello_engine {
    stop: AtomicBool,
    busy: AtomicBool,
    /// The engine's pondering flag, set by othello_engine_stop().
    ponder_stop: Arc<AtomicBool>,
    engine: UnsafeCell<Engine>,
}

// SAFETY: the engine behind the UnsafeCell is only reached while `busy` is held.
unsafe impl Sync for othello_engine {}

/// Holds an engine's busy flag for one call.
pub(super) struct Claim<'a>(&'a othello_engine);

impl<'a> Claim<'a> {
    pub(super) fn take(e: &'a othello_engine) -> Result<Claim<'a>, Failure> {
        if e.busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Err(Failure::new(
                OTHELLO_STATUS_BUSY,
                "the engine is already searching on another thread",
            ));
        }
        Ok(Claim(e))
    }

    #[allow(clippy::mut_from_ref)]
    pub(super) fn engine(&self) -> &mut Engine {
        // SAFETY: the busy flag gives this call exclusive access.
        unsafe { &mut *self.0.engine.get() }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        // The stop flag is cleared here, when the call ends, and not when
        // a search starts: a stop sent just after the search's thread took
        // the engine must not be lost (othello_engine_stop sets it only
        // while the engine is busy).
        self.0.stop.store(false, Ordering::SeqCst);
        self.0.busy.store(false, Ordering::SeqCst);
    }
}

/// Runs `change` on the engine behind `e` (NULL_ARGUMENT for NULL, BUSY
/// during a search): the one way the setters change an engine.
pub(super) fn configure(
    e: *mut othello_engine,
    change: impl FnOnce(&mut Engine),
) -> Result<(), Failure> {
    // SAFETY: the caller passes an engine from othello_engine_new or NULL.
    let claim = Claim::take(unsafe { engine_ref(e) }?)?;
    change(claim.engine());
    Ok(())
}

/// `read` of the engine behind `e`, claimed for the call; `on_error` for
/// NULL or while a search runs on it (the last error says which).
pub(super) unsafe fn inspect<T: Copy>(
    e: *const othello_engine,
    on_error: T,
    read: impl FnOnce(&Engine) -> T,
) -> T {
    boundary(on_error, || {
        let claim = Claim::take(engine_ref(e)?)?;
        Ok(read(claim.engine()))
    })
}

pub(super) unsafe fn engine_ref<'a>(
    e: *const othello_engine,
) -> Result<&'a othello_engine, Failure> {
    try_ref(e, "engine")
}

fn out_of_memory(hash_mb: usize) -> Failure {
    Failure::new(
        OTHELLO_STATUS_OUT_OF_MEMORY,
        format!("cannot allocate a transposition table of {hash_mb} MiB (0 = the default)"),
    )
}

/// A new engine with a transposition table of `hash_mb` MiB (0 = the default,
/// 64 MiB). NULL if `hash_mb` is above 65536 or memory runs out. An engine
/// searches boards of every size with its one table, which it clears when
/// the board size changes from one search to the next (the evaluation chosen
/// with othello_engine_set_evaluation() is the 8x8 one: other sizes always
/// use evaluation v1).
#[no_mangle]
pub extern "C" fn othello_engine_new(hash_mb: usize) -> *mut othello_engine {
    boundary(std::ptr::null_mut(), || {
        if hash_mb > 65536 {
            return Err(Failure::invalid(format!(
                "hash_mb {hash_mb} is above 65536"
            )));
        }
        let engine = Engine::try_new(hash_mb).ok_or_else(|| out_of_memory(hash_mb))?;
        Ok(Box::into_raw(Box::new(othello_engine {
            stop: AtomicBool::new(false),
            busy: AtomicBool::new(false),
            ponder_stop: engine.ponder_stop(),
            engine: UnsafeCell::new(engine),
        })))
    })
}

/// Releases an engine. NULL is accepted. No search may be running on it; a
/// pondering one is stopped first.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_free(e: *mut othello_engine) {
    free_handle(e)
}

/// Forgets the transposition table (for a new game), after ending the
/// pondering. NULL_ARGUMENT for NULL; BUSY (nothing forgotten) while a
/// search runs on the engine. Returns a status since 1.0 (void before).
#[no_mangle]
pub unsafe extern "C" fn othello_engine_clear(e: *mut othello_engine) -> othello_status {
    boundary_status(|| configure(e, |engine| engine.clear()))
}

/// Asks the running search on `e` to stop: it returns promptly with the best
/// move so far and `stopped` set. Ends the pondering too (its thread stops
/// within milliseconds). Safe from any thread; no effect if no search is
/// running (a later search is not affected). NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_stop(e: *const othello_engine) {
    boundary((), || {
        let e = engine_ref(e)?;
        e.ponder_stop.store(true, Ordering::SeqCst);
        if e.busy.load(Ordering::SeqCst) {
            e.stop.store(true, Ordering::SeqCst);
            // The search may have ended (and cleared the flag) between the
            // check and the store: then take the request back, so that it
            // does not stop the next search.
            if !e.busy.load(Ordering::SeqCst) {
                e.stop.store(false, Ordering::SeqCst);
            }
        }
        Ok(())
    })
}

/// Fills the first `struct_size` bytes of `*lim` with the defaults (level
/// 10, no node or time limit, no clock, the engine strategy, no randomness,
/// seed 0, no callback, one thread) and sets `lim->struct_size` to what was
/// filled. Call it through the macro othello_search_limits_init(lim), which
/// passes `sizeof *lim`: a program built against an older header then gets
/// its own struct's size filled, no more. NULL_ARGUMENT for NULL;
/// INVALID_ARGUMENT (nothing written) for a size below 1.0's struct or above
/// 65536. Since 1.0 (0.x had othello_search_limits_init(lim) alone).
#[no_mangle]
pub unsafe extern "C" fn othello_search_limits_init_(
    lim: *mut othello_search_limits,
    struct_size: usize,
) -> othello_status {
    boundary_status(|| {
        let size = checked_size(lim, struct_size, LIMITS_SIZE_1_0, "othello_search_limits")?;
        let limits = othello_search_limits {
            struct_size: size,
            ..Default::default()
        };
        write_prefix(&limits, lim, size);
        Ok(())
    })
}

/// The largest `struct_size` taken: a bigger one is a struct never set up.
const MAX_STRUCT_SIZE: usize = 1 << 16;

/// The end of 1.0's last field of `othello_search_limits`.
const LIMITS_SIZE_1_0: usize =
    std::mem::offset_of!(othello_search_limits, clock_increment_ms) + std::mem::size_of::<i64>();

/// `struct_size` of an init call, checked: the part of the caller's struct
/// this library fills (its own size at most).
fn checked_size<T>(
    p: *mut T,
    struct_size: usize,
    least: usize,
    what: &str,
) -> Result<usize, Failure> {
    if p.is_null() {
        return Err(Failure::new(
            OTHELLO_STATUS_NULL_ARGUMENT,
            format!("the {what} to fill is NULL"),
        ));
    }
    if !(least..=MAX_STRUCT_SIZE).contains(&struct_size) {
        return Err(Failure::invalid(format!(
            "struct_size {struct_size} is not the size of an {what} of 1.x (at least {least})"
        )));
    }
    Ok(struct_size.min(std::mem::size_of::<T>()))
}

/// Copies the first `size` bytes of `value` (at most all of it) to `out`,
/// a caller's struct that may be shorter than this version's.
unsafe fn write_prefix<T>(value: &T, out: *mut T, size: usize) {
    std::ptr::copy_nonoverlapping(
        value as *const T as *const u8,
        out as *mut u8,
        size.min(std::mem::size_of::<T>()),
    );
}

/// The defaults, with this version's `struct_size`: what
/// othello_search_limits_init() fills, for Rust callers of the C API.
impl Default for othello_search_limits {
    fn default() -> othello_search_limits {
        othello_search_limits {
            struct_size: std::mem::size_of::<othello_search_limits>(),
            level: 10,
            depth: 10,
            exact_empties: 20,
            wld_empties: 22,
            node_limit: 0,
            time_limit_ms: 0,
            strategy: 0,
            classic_depth: 0,
            randomness: 0,
            seed: 0,
            progress: None,
            userdata: std::ptr::null_mut(),
            selectivity: -1,
            book: -1,
            threads: 1,
            clock_remaining_ms: -1,
            clock_increment_ms: 0,
        }
    }
}

/// True when the first `size` bytes of `othello_search_limits` are whole
/// fields: `size` is where a field starts or ends (a shorter version of the
/// struct, padding included or not).
fn ends_on_a_field(size: usize) -> bool {
    use std::mem::{offset_of, size_of};
    type L = othello_search_limits;
    let fields = [
        (offset_of!(L, struct_size), size_of::<usize>()),
        (offset_of!(L, level), size_of::<c_int>()),
        (offset_of!(L, depth), size_of::<c_int>()),
        (offset_of!(L, exact_empties), size_of::<c_int>()),
        (offset_of!(L, wld_empties), size_of::<c_int>()),
        (offset_of!(L, node_limit), size_of::<u64>()),
        (offset_of!(L, time_limit_ms), size_of::<i64>()),
        (offset_of!(L, strategy), size_of::<othello_strategy_arg>()),
        (offset_of!(L, classic_depth), size_of::<c_int>()),
        (offset_of!(L, randomness), size_of::<c_int>()),
        (offset_of!(L, seed), size_of::<u64>()),
        (offset_of!(L, progress), size_of::<othello_progress_fn>()),
        (offset_of!(L, userdata), size_of::<*mut c_void>()),
        (offset_of!(L, selectivity), size_of::<c_int>()),
        (offset_of!(L, book), size_of::<c_int>()),
        (offset_of!(L, threads), size_of::<c_int>()),
        (offset_of!(L, clock_remaining_ms), size_of::<i64>()),
        (offset_of!(L, clock_increment_ms), size_of::<i64>()),
    ];
    // A field added to the struct must be added to the list above.
    const _: () = assert!(
        size_of::<L>() - (offset_of!(L, clock_increment_ms) + size_of::<i64>())
            < std::mem::align_of::<L>(),
        "ends_on_a_field() must list every field of othello_search_limits"
    );
    fields
        .iter()
        .any(|&(start, len)| size == start || size == start + len)
}

/// Reads the caller's limits: only its first `struct_size` bytes, the rest
/// keeps the defaults.
unsafe fn read_limits(lim: *const othello_search_limits) -> Result<othello_search_limits, Failure> {
    let mut out = othello_search_limits::default();
    if lim.is_null() {
        return Ok(out);
    }
    let size = std::ptr::read_unaligned(lim as *const usize);
    let full = std::mem::size_of::<othello_search_limits>();
    if size < std::mem::size_of::<usize>() + std::mem::size_of::<c_int>() || size > MAX_STRUCT_SIZE
    {
        return Err(Failure::invalid(format!(
            "limits.struct_size {size} is invalid: call othello_search_limits_init() first"
        )));
    }
    if size < full && !ends_on_a_field(size) {
        // Copying part of a field would mix the caller's bytes with the
        // default's: for `progress`, a pointer nobody wrote, then called.
        return Err(Failure::invalid(format!(
                "limits.struct_size {size} ends inside a field: call othello_search_limits_init() first"
            )));
    }
    std::ptr::copy_nonoverlapping(
        lim as *const u8,
        &mut out as *mut othello_search_limits as *mut u8,
        size.min(full),
    );
    out.struct_size = full;
    Ok(out)
}

/// The clock fields as the engine's clock (-1 time left: none).
fn convert_clock(remaining_ms: i64, increment_ms: i64) -> Result<Option<Clock>, Failure> {
    if increment_ms < 0 {
        return Err(Failure::invalid(format!(
            "limits.clock_increment_ms {increment_ms} is negative"
        )));
    }
    match remaining_ms {
        -1 => Ok(None),
        r if r < 0 => Err(Failure::invalid(format!(
            "limits.clock_remaining_ms {r} is negative (-1: no clock)"
        ))),
        r => Ok(Some(Clock {
            remaining: Duration::from_millis(r as u64),
            increment: Duration::from_millis(increment_ms as u64),
        })),
    }
}

/// The caller's limits as the engine's: each field range-checked with the
/// core's ranges as it is converted (the engine validates them again).
fn convert_limits(l: &othello_search_limits) -> Result<Limits, Failure> {
    let mut limits = if l.level == -1 {
        Limits::explicit(l.depth.into(), l.exact_empties.into(), l.wld_empties.into())?
    } else {
        let level = in_range("limits.level", l.level.into(), LEVELS).map_err(|_| {
            Failure::invalid(format!(
                "limits.level {} is outside 0..{MAX_LEVEL} (or -1 for explicit depth)",
                l.level
            ))
        })?;
        Limits::level(level)?
    };
    if l.time_limit_ms < 0 {
        return Err(Failure::invalid(format!(
            "limits.time_limit_ms {} is negative",
            l.time_limit_ms
        )));
    }
    let classic_depth = in_range(
        "limits.classic_depth",
        l.classic_depth.into(),
        CLASSIC_DEPTHS,
    )?;
    limits.strategy = match l.strategy {
        0 => Strategy::Engine,
        1 => Strategy::Classic(classic_depth),
        2 => Strategy::Corners,
        3 => Strategy::Greedy,
        4 => Strategy::Random,
        s => {
            return Err(Failure::invalid(format!(
                "limits.strategy {s} is not an othello_strategy"
            )))
        }
    };
    limits.node_limit = l.node_limit;
    limits.time = (l.time_limit_ms > 0).then(|| Duration::from_millis(l.time_limit_ms as u64));
    limits.clock = convert_clock(l.clock_remaining_ms, l.clock_increment_ms)?;
    limits.randomness = in_range("limits.randomness", l.randomness.into(), RANDOMNESS)?;
    limits.seed = l.seed;
    if l.selectivity != -1 {
        limits.selectivity = in_range(
            "limits.selectivity",
            l.selectivity.into(),
            SELECTIVITIES,
        )
        .map_err(|_| {
            Failure::invalid(format!(
                    "limits.selectivity {} is outside 0..{EXACT_SELECTIVITY} (or -1 for the level's)",
                    l.selectivity
                ))
        })?;
        limits.timed_selectivity = limits.selectivity;
    }
    (limits.book, limits.timed_book) = match l.book {
        -1 => (limits.book, limits.timed_book),
        0 => (false, false),
        1 => (true, true),
        b => {
            return Err(Failure::invalid(format!(
                "limits.book {b} is not 0, 1 or -1 (the level's)"
            )))
        }
    };
    limits.threads = in_range("limits.threads", l.threads.into(), THREADS)?;
    Ok(limits)
}

fn square_int(sq: Option<u32>) -> c_int {
    sq.map_or(OTHELLO_PASS, |s| s as c_int)
}

/// Fills the first `struct_size` bytes of `*out` with zeros and sets
/// `out->struct_size` to what was filled, for othello_engine_search(). Call
/// it through the macro othello_search_result_init(out), which passes
/// `sizeof *out`. NULL_ARGUMENT for NULL; INVALID_ARGUMENT (nothing
/// written) for a size below 1.0's struct or above 65536. Since 1.0.
#[no_mangle]
pub unsafe extern "C" fn othello_search_result_init_(
    out: *mut othello_search_result,
    struct_size: usize,
) -> othello_status {
    boundary_status(|| {
        let size = checked_size(out, struct_size, RESULT_SIZE_1_0, "othello_search_result")?;
        let result = othello_search_result {
            struct_size: size,
            ..Default::default()
        };
        write_prefix(&result, out, size);
        Ok(())
    })
}

/// Zeros and this version's `struct_size`: what othello_search_result_init()
/// fills, for Rust callers of the C API.
impl Default for othello_search_result {
    fn default() -> othello_search_result {
        othello_search_result {
            struct_size: std::mem::size_of::<othello_search_result>(),
            r#move: 0,
            score: 0,
            exact: false,
            wld: false,
            depth: 0,
            nodes: 0,
            elapsed_ms: 0,
            stopped: false,
            pv: [0; OTHELLO_PV_MAX],
            pv_len: 0,
            from_book: false,
        }
    }
}

/// The end of 1.0's last field: the least `struct_size` a result may have.
/// Fields added later are written only when the caller's size covers them.
const RESULT_SIZE_1_0: usize =
    std::mem::offset_of!(othello_search_result, from_book) + std::mem::size_of::<bool>();

/// The size of the caller's result, checked before anything is searched.
unsafe fn result_size(out: *mut othello_search_result) -> Result<usize, Failure> {
    if out.is_null() {
        return Err(Failure::new(OTHELLO_STATUS_NULL_ARGUMENT, "out is NULL"));
    }
    let size = std::ptr::read_unaligned(out as *const usize);
    if !(RESULT_SIZE_1_0..=MAX_STRUCT_SIZE).contains(&size) {
        return Err(Failure::invalid(format!(
            "out->struct_size {size} is invalid: call othello_search_result_init() first"
        )));
    }
    Ok(size)
}

fn fill_result(r: &SearchResult, out: &mut othello_search_result) {
    out.r#move = square_int(r.best);
    out.score = discs(r.score);
    out.exact = r.exact;
    out.wld = r.wld;
    out.depth = r.depth as c_int;
    out.nodes = r.nodes;
    out.elapsed_ms = r.elapsed.as_millis() as u64;
    out.stopped = r.stopped;
    out.from_book = r.from_book;
    out.pv = [0; OTHELLO_PV_MAX];
    out.pv_len = r.pv.len().min(OTHELLO_PV_MAX);
    for (slot, &sq) in out.pv.iter_mut().zip(&r.pv) {
        *slot = sq as c_int;
    }
    if out.pv_len == 0 && r.best.is_none() {
        out.pv[0] = OTHELLO_PASS;
        out.pv_len = 1;
    }
}

/// Searches the position of `b` for the side to move under `lim` (NULL =
/// the defaults) and writes the outcome to `*out`. GAME_OVER when neither
/// side can move; when the side to move must pass, `out->move` is
/// OTHELLO_PASS. INVALID_ARGUMENT names a bad field of `lim`; BUSY if a
/// search already runs on `e`. The board is not changed.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_search(
    e: *mut othello_engine,
    b: *const othello_board,
    lim: *const othello_search_limits,
    out: *mut othello_search_result,
) -> othello_status {
    boundary_status(|| {
        let engine = engine_ref(e)?;
        let game = board_ref(b)?;
        let size = result_size(out)?;
        let raw = read_limits(lim)?;
        let limits = convert_limits(&raw)?;
        let claim = Claim::take(engine)?;
        let mut report = |p: &Progress| {
            if let Some(cb) = raw.progress {
                let pv: Vec<c_int> = p.pv.iter().map(|&s| s as c_int).collect();
                let info = othello_search_progress {
                    struct_size: std::mem::size_of::<othello_search_progress>(),
                    depth: p.depth as c_int,
                    score: discs(p.score),
                    exact: p.exact,
                    best_move: square_int(p.best),
                    pv: pv.as_ptr(),
                    pv_len: pv.len(),
                    nodes: p.nodes,
                    elapsed_ms: p.elapsed.as_millis() as u64,
                };
                // SAFETY: the caller provides a valid callback.
                unsafe { cb(&info, raw.userdata) };
            }
        };
        let result = game.search(claim.engine(), &limits, &engine.stop, &mut report)?;
        let mut filled = othello_search_result::default();
        fill_result(&result, &mut filled);
        filled.struct_size = size; // the caller's, kept
        write_prefix(&filled, out, size);
        Ok(())
    })
}

/// Thinks on the opponent's time. `b` is the position after the engine's
/// move, the opponent to move; `lim` (NULL = the defaults) the limits of
/// the engine's next search, its clock as it stands. The engine expects
/// the reply its last search saw as best (else a shallow search's), writes
/// it to `*expected` (may be NULL; OTHELLO_PASS when the opponent must
/// pass), and returns at once, searching the position that reply leads to
/// on a thread of the library's: a fixed level as it will search it, a
/// time limit or a clock as long as the move itself may take at most.
/// The next call on `e` that searches, analyses, clears or changes it,
/// othello_engine_stop() and othello_engine_free() end the pondering
/// (within milliseconds). When that call is othello_engine_search() on the
/// expected position with the same limits (time and clock aside), the
/// pondering (unless othello_engine_stop() ended it) is that search begun
/// early and goes on as it: at a fixed level to its end, by time to the
/// move's target share, and its result is the call's (`elapsed_ms` the call's, `nodes` the pondering's; the
/// progress callback is not called). Any other search starts from the
/// table the pondering filled. Nothing is searched where the next search
/// would not (a book position, another strategy). GAME_OVER when neither
/// side can move in `b`; BUSY while a search runs on `e`. Since 0.4.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_ponder(
    e: *mut othello_engine,
    b: *const othello_board,
    lim: *const othello_search_limits,
    expected: *mut c_int,
) -> othello_status {
    boundary_status(|| {
        let engine = engine_ref(e)?;
        let game = board_ref(b)?;
        let limits = convert_limits(&read_limits(lim)?)?;
        let claim = Claim::take(engine)?;
        let reply = game.ponder(claim.engine(), &limits)?;
        if let Some(expected) = expected.as_mut() {
            *expected = square_int(reply);
        }
        Ok(())
    })
}

/// Scores every legal move of the side to move, best first, into
/// `(out, cap)`; `*n` (may be NULL) gets their number. `out` may be NULL
/// with `cap` 0 to ask only for the number. Uses the depth of `lim` (its
/// level or explicit depth), or exact scores when the empties are within its
/// exact limit. GAME_OVER when neither side can move; 0 moves when the side
/// must pass. BUFFER_TOO_SMALL (number needed in `*n`) is checked first,
/// before searching. STOPPED (nothing written) when othello_engine_stop() or
/// a time or node limit ends the analysis before every move is scored.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_analyze(
    e: *mut othello_engine,
    b: *const othello_board,
    lim: *const othello_search_limits,
    out: *mut othello_move_score,
    cap: usize,
    n: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let engine = engine_ref(e)?;
        let game = board_ref(b)?;
        let limits = convert_limits(&read_limits(lim)?)?;
        if game.is_game_over() {
            return Err(crate::Error::GameOver.into());
        }
        // The room is checked before the search, which may be long.
        let count = game.mobility(game.side_to_move()) as usize;
        check_room(count, out, cap, n, "out")?;
        if out.is_null() {
            // Only the count was asked for.
            if !n.is_null() {
                *n = count;
            }
            return Ok(());
        }
        let claim = Claim::take(engine)?;
        let scores: Vec<othello_move_score> = game
            .analyze(claim.engine(), &limits, &engine.stop)?
            .iter()
            .map(|s| othello_move_score {
                r#move: s.square as c_int,
                score: discs(s.score),
                exact: s.exact,
            })
            .collect();
        write_list(&scores, out, cap, n, "out")
    })
}

/// One-shot convenience: the move a fresh engine (16 MiB table) plays at
/// `level` (0..60) from the position of `b`, into `*move` (OTHELLO_PASS when
/// the side to move must pass). GAME_OVER when the game is over;
/// OUT_OF_MEMORY when the engine's table cannot be allocated.
#[no_mangle]
pub unsafe extern "C" fn othello_board_best_move(
    b: *const othello_board,
    level: c_int,
    r#move: *mut c_int,
) -> othello_status {
    boundary_status(|| {
        let game = board_ref(b)?;
        let r#move = try_mut(r#move, "move")?;
        let limits = Limits::level(in_range("level", level.into(), LEVELS)?)?;
        let stop = AtomicBool::new(false);
        let mut engine = Engine::try_new(16).ok_or_else(|| out_of_memory(16))?;
        *r#move = square_int(game.search(&mut engine, &limits, &stop, &mut |_| {})?.best);
        Ok(())
    })
}
