//! C functions over an engine's opening book: the built-in book, one loaded
//! from a file or a buffer, or none; and the book's moves in a position.

use super::board::{board_ref, othello_board};
use super::engine::{configure, engine_ref, inspect, othello_engine, othello_move_score, Claim};
use super::{boundary_status, othello_status, read_bytes, read_path, write_list, Failure};
use crate::book::{Book, BookChoice};
use std::ffi::{c_char, c_int};
use std::sync::Arc;

/// Which opening book an engine plays from. A 32-bit integer in C.
#[repr(i32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum othello_book {
    /// No book: every move is searched.
    OTHELLO_BOOK_NONE = 0,
    /// The book built into the library (every new engine has it).
    OTHELLO_BOOK_BUILTIN = 1,
    /// A book loaded with othello_engine_load_book() or
    /// othello_engine_load_book_buffer().
    OTHELLO_BOOK_LOADED = 2,
}

/// A book choice as passed in from C; checked before use. Spelled
/// `othello_book` in the header.
pub type othello_book_arg = i32;

fn set(e: *mut othello_engine, book: BookChoice) -> Result<(), Failure> {
    configure(e, |engine| engine.set_book(book))
}

/// Chooses the book of `e`'s later searches: OTHELLO_BOOK_NONE or
/// OTHELLO_BOOK_BUILTIN (dropping a book loaded earlier). A new engine has
/// the built-in book. Searches use it only on 8x8 boards and when their
/// limits ask for it (`book` in othello_search_limits: levels 1 and up by
/// default). INVALID_ARGUMENT for another value (OTHELLO_BOOK_LOADED
/// included: load a book instead); BUSY during a search.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_set_book(
    e: *mut othello_engine,
    book: othello_book_arg,
) -> othello_status {
    boundary_status(|| {
        let book = match book {
            0 => BookChoice::None,
            1 => BookChoice::Builtin,
            v => {
                return Err(Failure::invalid(format!(
                    "book {v} is not OTHELLO_BOOK_NONE or OTHELLO_BOOK_BUILTIN \
                     (load a book file instead)"
                )))
            }
        };
        set(e, book)
    })
}

/// The book `e` plays from; OTHELLO_BOOK_NONE for NULL or while a search
/// runs on `e` (the last error says BUSY).
#[no_mangle]
pub unsafe extern "C" fn othello_engine_get_book(e: *const othello_engine) -> othello_book {
    inspect(e, othello_book::OTHELLO_BOOK_NONE, |engine| {
        match engine.book() {
            BookChoice::None => othello_book::OTHELLO_BOOK_NONE,
            BookChoice::Builtin => othello_book::OTHELLO_BOOK_BUILTIN,
            BookChoice::Loaded(_) => othello_book::OTHELLO_BOOK_LOADED,
        }
    })
}

/// Loads an opening book file (the format in docs/guide.md, written by
/// `othello-book merge`) from `path` for `e`'s later searches. A file that
/// cannot be read is INVALID_ARGUMENT, as is a corrupt, truncated or
/// foreign one (the last error says what is wrong); on failure the engine
/// keeps its book.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_load_book(
    e: *mut othello_engine,
    path: *const c_char,
) -> othello_status {
    boundary_status(|| {
        engine_ref(e)?;
        let book = Book::load(read_path(path)?)?;
        set(e, BookChoice::Loaded(Arc::new(book)))
    })
}

/// As othello_engine_load_book(), from the `len` bytes at `data` (the
/// content of a book file). The bytes are copied; `data` may be freed
/// after the call.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_load_book_buffer(
    e: *mut othello_engine,
    data: *const u8,
    len: usize,
) -> othello_status {
    boundary_status(|| {
        engine_ref(e)?;
        let book = Book::from_bytes(read_bytes(data, len)?)?;
        set(e, BookChoice::Loaded(Arc::new(book)))
    })
}

/// The moves `e`'s book knows in the position of `b`, best first, with
/// their values in discs from the side to move's view (`exact` false),
/// into `(out, cap)`; `*n` (may be NULL) gets their number: 0 when the
/// position is not in the book, the engine has none, or the board is not
/// 8x8. `out` may be NULL with `cap` 0 to ask only for the number;
/// BUFFER_TOO_SMALL (number needed in `*n`) when `cap` is short. BUSY
/// during a search on `e`.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_book_moves(
    e: *const othello_engine,
    b: *const othello_board,
    out: *mut othello_move_score,
    cap: usize,
    n: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let engine = engine_ref(e)?;
        let game = board_ref(b)?;
        let claim = Claim::take(engine)?;
        let moves: Vec<othello_move_score> = game
            .book_moves(claim.engine())
            .iter()
            .map(|m| othello_move_score {
                r#move: m.square as c_int,
                score: m.value as c_int,
                exact: false,
            })
            .collect();
        write_list(&moves, out, cap, n, "out")
    })
}
