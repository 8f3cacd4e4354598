//! The C API's error paths that no other test reached (found by
//! `tests/coverage.sh`), called from Rust as a C program calls them:
//!
//! - limits whose `struct_size` ends inside a field, a negative clock other
//!   than -1, bad limits given to ponder and analyze: INVALID_ARGUMENT,
//!   nothing written; a size ending on a field is a shorter struct, taken;
//! - analyze asked only for the count, with no count pointer either;
//! - book and weight paths that are not UTF-8, a NULL book buffer, a book
//!   loaded from a buffer;
//! - a panic inside a call (a board whose game panics, as a bug in the core
//!   would): the call returns its failure value and OTHELLO_STATUS_PANIC
//!   with the panic's message, and the process goes on;
//! - the Rust side of the boards and errors shared with the Python
//!   package's native module: `othello_board::new`, `game`, `game_mut`,
//!   `set_last_error`, and the status of every core error.

mod common;

use common::last_error;
use othello::any::{self, AnyGame};
use othello::book::BookMove;
use othello::engine::{Engine, Limits, MoveScore, Progress, SearchResult};
use othello::ffi::board::{
    othello_board, othello_board_free, othello_board_legal_moves, othello_board_move_number,
    othello_board_new, othello_board_play, othello_board_size, othello_board_to_string,
};
use othello::ffi::book::{
    othello_book, othello_engine_book_moves, othello_engine_get_book, othello_engine_load_book,
    othello_engine_load_book_buffer,
};
use othello::ffi::engine::{
    othello_engine, othello_engine_analyze, othello_engine_free, othello_engine_new,
    othello_engine_ponder, othello_engine_search, othello_move_score, othello_search_limits,
    othello_search_limits_init_, othello_search_result, othello_search_result_init_,
};
use othello::ffi::evaluation::{
    othello_engine_get_evaluation, othello_engine_load_weights, othello_engine_set_evaluation,
    othello_evaluation,
};
use othello::ffi::othello_status::{self, *};
use othello::ffi::{othello_last_status, set_last_error};
use othello::rng::Rng;
use othello::{Color, Error};
use std::ffi::{c_char, c_int};
use std::mem::{offset_of, size_of, MaybeUninit};
use std::ptr::{null, null_mut};
use std::sync::atomic::AtomicBool;

/// The defaults, as othello_search_limits_init() fills them.
fn limits() -> othello_search_limits {
    let mut lim = MaybeUninit::<othello_search_limits>::zeroed();
    let status = unsafe {
        othello_search_limits_init_(lim.as_mut_ptr(), size_of::<othello_search_limits>())
    };
    assert_eq!(status, OTHELLO_STATUS_OK);
    unsafe { lim.assume_init() }
}

/// An initialised result whose move is `sentinel`, to see whether a
/// search wrote it.
fn result(sentinel: c_int) -> othello_search_result {
    let mut out = MaybeUninit::<othello_search_result>::zeroed();
    let status = unsafe {
        othello_search_result_init_(out.as_mut_ptr(), size_of::<othello_search_result>())
    };
    assert_eq!(status, OTHELLO_STATUS_OK);
    let mut out = unsafe { out.assume_init() };
    out.r#move = sentinel;
    out
}

/// An engine and a board at the start, freed on drop.
struct Fixture {
    e: *mut othello_engine,
    b: *mut othello_board,
}

impl Fixture {
    fn new() -> Fixture {
        let (e, b) = (othello_engine_new(1), othello_board_new());
        assert!(!e.is_null() && !b.is_null());
        Fixture { e, b }
    }

    fn search(
        &self,
        lim: &othello_search_limits,
        out: &mut othello_search_result,
    ) -> othello_status {
        unsafe { othello_engine_search(self.e, self.b, lim, out) }
    }

    fn ponder(&self, lim: &othello_search_limits, expected: &mut c_int) -> othello_status {
        unsafe { othello_engine_ponder(self.e, self.b, lim, expected) }
    }

    fn analyze(
        &self,
        lim: *const othello_search_limits,
        out: &mut [othello_move_score],
        n: &mut usize,
    ) -> othello_status {
        // No list at all for an empty one, as a C caller asking for the count.
        let list = if out.is_empty() {
            null_mut()
        } else {
            out.as_mut_ptr()
        };
        unsafe { othello_engine_analyze(self.e, self.b, lim, list, out.len(), n) }
    }

    fn book_moves(&self) -> Vec<(c_int, c_int)> {
        let mut out = [othello_move_score {
            r#move: 0,
            score: 0,
            exact: false,
        }; 64];
        let mut n = 0;
        let status = unsafe {
            othello_engine_book_moves(self.e, self.b, out.as_mut_ptr(), out.len(), &mut n)
        };
        assert_eq!(status, OTHELLO_STATUS_OK);
        out[..n].iter().map(|m| (m.r#move, m.score)).collect()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        unsafe {
            othello_board_free(self.b);
            othello_engine_free(self.e);
        }
    }
}

const START_MOVES: [c_int; 4] = [19, 26, 37, 44];

#[test]
fn limits_ending_inside_a_field_are_refused() {
    let f = Fixture::new();
    let mut lim = limits();
    lim.level = 1;
    // Inside `depth`: copying it would mix the caller's bytes with the
    // default's.
    lim.struct_size = offset_of!(othello_search_limits, depth) + 2;
    let mut out = result(99);
    assert_eq!(f.search(&lim, &mut out), OTHELLO_STATUS_INVALID_ARGUMENT);
    assert!(
        last_error().contains("ends inside a field"),
        "{}",
        last_error()
    );
    assert_eq!(out.r#move, 99, "nothing written");
    let mut expected = 99;
    assert_eq!(
        f.ponder(&lim, &mut expected),
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(expected, 99);
    let mut scores = [othello_move_score {
        r#move: 99,
        score: 0,
        exact: false,
    }; 4];
    let mut n = 99;
    assert_eq!(
        f.analyze(&lim, &mut scores, &mut n),
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!((n, scores[0].r#move), (99, 99));

    // Ending on a field is a shorter struct: its fields are read, the rest
    // keep their defaults.
    lim.struct_size = offset_of!(othello_search_limits, level) + size_of::<c_int>();
    assert_eq!(f.search(&lim, &mut out), OTHELLO_STATUS_OK);
    assert!(START_MOVES.contains(&out.r#move), "{}", out.r#move);
}

#[test]
fn a_negative_clock_is_refused_unless_minus_one() {
    let f = Fixture::new();
    let mut lim = limits();
    lim.level = 1;
    lim.book = 0;
    lim.clock_remaining_ms = -5;
    let mut out = result(99);
    assert_eq!(f.search(&lim, &mut out), OTHELLO_STATUS_INVALID_ARGUMENT);
    assert!(
        last_error().contains("clock_remaining_ms -5 is negative"),
        "{}",
        last_error()
    );
    assert_eq!(out.r#move, 99);
    lim.clock_remaining_ms = -1;
    assert_eq!(f.search(&lim, &mut out), OTHELLO_STATUS_OK);
    assert!(START_MOVES.contains(&out.r#move));
}

#[test]
fn ponder_and_analyze_check_their_limits() {
    let f = Fixture::new();
    let mut lim = limits();
    lim.level = 61;
    let mut expected = 99;
    assert_eq!(
        f.ponder(&lim, &mut expected),
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("limits.level 61"), "{}", last_error());
    assert_eq!(expected, 99);
    lim.level = 1;
    lim.struct_size = 3;
    let mut n = 99;
    assert_eq!(
        f.analyze(&lim, &mut [], &mut n),
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert!(last_error().contains("struct_size 3"), "{}", last_error());
    assert_eq!(n, 99);
}

#[test]
fn analyze_gives_the_count_alone() {
    let f = Fixture::new();
    let mut n = 0;
    assert_eq!(f.analyze(null(), &mut [], &mut n), OTHELLO_STATUS_OK);
    assert_eq!(n, 4);
    // No list and no count: nothing to write, and nothing searched.
    let status = unsafe { othello_engine_analyze(f.e, f.b, null(), null_mut(), 0, null_mut()) };
    assert_eq!(status, OTHELLO_STATUS_OK);
}

#[test]
fn paths_that_are_not_utf8_are_refused() {
    let f = Fixture::new();
    let path = c"weights/\xff.bin";
    assert_eq!(
        unsafe { othello_engine_load_weights(f.e, path.as_ptr()) },
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(last_error(), "path is not valid UTF-8");
    assert_eq!(
        unsafe { othello_engine_get_evaluation(f.e) },
        othello_evaluation::OTHELLO_EVALUATION_TRAINED
    );
    assert_eq!(
        unsafe { othello_engine_set_evaluation(f.e, 0) },
        OTHELLO_STATUS_OK
    );
    assert_eq!(
        unsafe { othello_engine_load_weights(f.e, path.as_ptr()) },
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { othello_engine_get_evaluation(f.e) },
        othello_evaluation::OTHELLO_EVALUATION_V1,
        "the engine keeps its evaluation"
    );
    assert_eq!(
        unsafe { othello_engine_load_book(f.e, path.as_ptr()) },
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(last_error(), "path is not valid UTF-8");
    assert_eq!(
        unsafe { othello_engine_get_book(f.e) },
        othello_book::OTHELLO_BOOK_BUILTIN
    );
}

#[test]
fn a_book_loads_from_a_buffer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/book.bin");
    let bytes = std::fs::read(path).expect("weights/book.bin");
    let from_file = Fixture::new();
    let cpath = std::ffi::CString::new(path).unwrap();
    assert_eq!(
        unsafe { othello_engine_load_book(from_file.e, cpath.as_ptr()) },
        OTHELLO_STATUS_OK
    );
    let f = Fixture::new();
    assert_eq!(
        unsafe { othello_engine_load_book_buffer(f.e, null(), 16) },
        OTHELLO_STATUS_NULL_ARGUMENT
    );
    assert_eq!(last_error(), "data is NULL");
    assert_eq!(
        unsafe { othello_engine_load_book_buffer(f.e, bytes.as_ptr(), bytes.len() / 2) },
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { othello_engine_get_book(f.e) },
        othello_book::OTHELLO_BOOK_BUILTIN
    );
    assert_eq!(
        unsafe { othello_engine_load_book_buffer(f.e, bytes.as_ptr(), bytes.len()) },
        OTHELLO_STATUS_OK
    );
    drop(bytes); // copied by the call
    assert_eq!(
        unsafe { othello_engine_get_book(f.e) },
        othello_book::OTHELLO_BOOK_LOADED
    );
    let moves = f.book_moves();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|(m, _)| START_MOVES.contains(m)));
    assert_eq!(moves, from_file.book_moves());
}

/// A game whose every method panics, with each kind of payload a panic
/// carries: how a bug in the core reaches the boundary.
#[derive(Debug, Clone, Copy)]
enum Faulty {
    Literal,
    Formatted,
    Other,
}

impl Faulty {
    fn fail(self) -> ! {
        match self {
            Faulty::Literal => panic!("a bug"),
            Faulty::Formatted => panic!("a bug at {}", 42),
            Faulty::Other => std::panic::panic_any(42u8),
        }
    }
}

impl AnyGame for Faulty {
    fn size(&self) -> u32 {
        self.fail()
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        self.fail()
    }
    fn side_to_move(&self) -> Color {
        self.fail()
    }
    fn at(&self, _: u32) -> Option<Color> {
        self.fail()
    }
    fn count(&self, _: Option<Color>) -> u32 {
        self.fail()
    }
    fn legal_moves(&self) -> Vec<u32> {
        self.fail()
    }
    fn is_legal(&self, _: u32) -> bool {
        self.fail()
    }
    fn mobility(&self, _: Color) -> u32 {
        self.fail()
    }
    fn preview(&self, _: u32) -> Result<Vec<u32>, Error> {
        self.fail()
    }
    fn play(&mut self, _: u32) -> Result<Vec<u32>, Error> {
        self.fail()
    }
    fn pass(&mut self) -> Result<(), Error> {
        self.fail()
    }
    fn undo(&mut self) -> Result<(), Error> {
        self.fail()
    }
    fn redo(&mut self) -> Result<(), Error> {
        self.fail()
    }
    fn plies(&self) -> usize {
        self.fail()
    }
    fn can_redo(&self) -> bool {
        self.fail()
    }
    fn must_pass(&self) -> bool {
        self.fail()
    }
    fn is_game_over(&self) -> bool {
        self.fail()
    }
    fn history(&self) -> Vec<Option<u32>> {
        self.fail()
    }
    fn words(&self, _: Option<Color>) -> [u64; 4] {
        self.fail()
    }
    fn random_playout(&self, _: &mut Rng, _: &mut Vec<u32>) -> i32 {
        self.fail()
    }
    fn board_string(&self) -> String {
        self.fail()
    }
    fn transcript(&self) -> String {
        self.fail()
    }
    fn search(
        &self,
        _: &mut Engine,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, Error> {
        self.fail()
    }
    fn ponder(&self, _: &mut Engine, _: &Limits) -> Result<Option<u32>, Error> {
        self.fail()
    }
    fn book_moves(&self, _: &Engine) -> Vec<BookMove> {
        self.fail()
    }
    fn analyze(&self, _: &mut Engine, _: &Limits, _: &AtomicBool) -> Result<Vec<MoveScore>, Error> {
        self.fail()
    }
}

#[test]
fn a_panic_stops_at_the_boundary() {
    for (faulty, text) in [
        (Faulty::Literal, "a bug"),
        (Faulty::Formatted, "a bug at 42"),
        (Faulty::Other, "unknown panic"),
    ] {
        let b = Box::into_raw(Box::new(othello_board::new(Box::new(faulty))));
        let message = format!("internal error (please report): {text}");
        assert_eq!(unsafe { othello_board_size(b) }, -1);
        assert_eq!(othello_last_status(), OTHELLO_STATUS_PANIC);
        assert_eq!(last_error(), message);
        set_last_error(OTHELLO_STATUS_OK, "");
        let mut moves = [7; 4];
        assert_eq!(
            unsafe { othello_board_legal_moves(b, moves.as_mut_ptr(), 4) },
            0
        );
        assert_eq!(moves, [7; 4], "nothing written");
        assert_eq!(last_error(), message);
        let mut buf = [1 as c_char; 80];
        let mut n = 5;
        let status = unsafe { othello_board_to_string(b, buf.as_mut_ptr(), 80, &mut n) };
        assert_eq!(status, OTHELLO_STATUS_PANIC);
        assert_eq!((buf[0], n), (1, 5), "nothing written");
        let status = unsafe { othello_board_play(b, 19, null_mut(), 0, null_mut()) };
        assert_eq!(status, OTHELLO_STATUS_PANIC);
        unsafe { othello_board_free(b) };
    }
}

#[test]
fn rust_callers_share_boards_and_last_errors() {
    let mut board = othello_board::new(any::new_game(6).expect("6x6"));
    assert_eq!(board.game().size(), 6);
    assert_eq!(board.game_mut().play(8), Ok(vec![14]));
    let b: *mut othello_board = &mut board;
    assert_eq!(unsafe { othello_board_size(b) }, 6);
    assert_eq!(unsafe { othello_board_move_number(b) }, 2);
    let status = unsafe { othello_board_play(b, 35, null_mut(), 0, null_mut()) };
    assert_eq!(status, OTHELLO_STATUS_ILLEGAL_MOVE);
    assert_eq!(board.game().plies(), 1);

    set_last_error(OTHELLO_STATUS_BUSY, "set from Rust");
    assert_eq!(othello_last_status(), OTHELLO_STATUS_BUSY);
    assert_eq!(last_error(), "set from Rust");

    let statuses: [(Error, othello_status); 9] = [
        (
            Error::InvalidSquare("x".into()),
            OTHELLO_STATUS_INVALID_SQUARE,
        ),
        (Error::IllegalMove("x".into()), OTHELLO_STATUS_ILLEGAL_MOVE),
        (Error::CannotPass, OTHELLO_STATUS_CANNOT_PASS),
        (Error::GameOver, OTHELLO_STATUS_GAME_OVER),
        (Error::NothingToUndo, OTHELLO_STATUS_NOTHING_TO_UNDO),
        (Error::NothingToRedo, OTHELLO_STATUS_NOTHING_TO_REDO),
        (Error::Parse("x".into()), OTHELLO_STATUS_PARSE_ERROR),
        (
            Error::InvalidArgument("x".into()),
            OTHELLO_STATUS_INVALID_ARGUMENT,
        ),
        (Error::Stopped, OTHELLO_STATUS_STOPPED),
    ];
    for (error, status) in statuses {
        assert_eq!(othello_status::from(&error), status, "{error:?}");
    }
}
