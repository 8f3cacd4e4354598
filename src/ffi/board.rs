//! C functions over the game handle `othello_board`.

use super::{
    boundary, boundary_status, othello_color, othello_color_arg, othello_status, read_str,
    write_ints, write_str, Failure,
};
use crate::bitboard::Bitboard;
use crate::game::{Game, Move};
use crate::notation;
use crate::square::Square;
use crate::Color;
use othello_status::*;
use std::ffi::{c_char, c_int};

/// A game: the position, the side to move and the full history of turns
/// (moves and passes) for undo and redo. Opaque; create it with
/// othello_board_new(), othello_board_from_string() or
/// othello_board_from_transcript(), release it with othello_board_free().
///
/// Threads: a board may be moved between threads. Calls taking a
/// `const othello_board *` may run on one board from several threads at once;
/// a call taking `othello_board *` must not overlap any other call on it.
pub struct othello_board {
    pub(crate) game: Game,
}

/// The value of "pass" in move lists and search results.
pub const OTHELLO_PASS: c_int = -1;

pub(crate) unsafe fn board_ref<'a>(b: *const othello_board) -> Result<&'a Game, Failure> {
    b.as_ref()
        .map(|b| &b.game)
        .ok_or_else(|| Failure::null("board"))
}

unsafe fn board_mut<'a>(b: *mut othello_board) -> Result<&'a mut Game, Failure> {
    b.as_mut()
        .map(|b| &mut b.game)
        .ok_or_else(|| Failure::null("board"))
}

pub(crate) fn square_arg(square: c_int) -> Result<Square, Failure> {
    Square::new(square.into()).ok_or_else(|| {
        Failure::new(
            OTHELLO_STATUS_INVALID_SQUARE,
            format!("square {square} is outside the board (0..63)"),
        )
    })
}

fn color_arg(c: othello_color_arg) -> Result<Option<Color>, Failure> {
    match c {
        0 => Ok(None),
        1 => Ok(Some(Color::Black)),
        2 => Ok(Some(Color::White)),
        _ => Err(Failure::new(
            OTHELLO_STATUS_INVALID_ARGUMENT,
            format!("color {c} is not OTHELLO_COLOR_EMPTY, _BLACK or _WHITE"),
        )),
    }
}

fn squares(b: Bitboard) -> Vec<c_int> {
    b.map(|s| s.index() as c_int).collect()
}

fn into_handle(game: Game) -> *mut othello_board {
    Box::into_raw(Box::new(othello_board { game }))
}

/// A new game at the standard start (white d4 e5, black d5 e4), black to move.
/// Never NULL except when memory runs out. Free it with othello_board_free().
#[no_mangle]
pub extern "C" fn othello_board_new() -> *mut othello_board {
    boundary(std::ptr::null_mut(), || Ok(into_handle(Game::new())))
}

/// An independent copy of `b`, history included. NULL if `b` is NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_clone(b: *const othello_board) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        Ok(into_handle(board_ref(b)?.clone()))
    })
}

/// Releases a board. NULL is accepted and ignored. `b` must not be used after.
#[no_mangle]
pub unsafe extern "C" fn othello_board_free(b: *mut othello_board) {
    boundary((), || {
        if !b.is_null() {
            drop(Box::from_raw(b));
        }
        Ok(())
    })
}

/// The colour to move (it may have to pass). OTHELLO_COLOR_EMPTY if `b` is NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_side_to_move(b: *const othello_board) -> othello_color {
    boundary(othello_color::OTHELLO_COLOR_EMPTY, || {
        Ok(Some(board_ref(b)?.side_to_move()).into())
    })
}

/// The disc on `square` (0..63). OTHELLO_COLOR_EMPTY for an empty square, and
/// also (with the last error set) if `b` is NULL or `square` is out of range.
#[no_mangle]
pub unsafe extern "C" fn othello_board_get(
    b: *const othello_board,
    square: c_int,
) -> othello_color {
    boundary(othello_color::OTHELLO_COLOR_EMPTY, || {
        let game = board_ref(b)?;
        Ok(game.at(square_arg(square)?).into())
    })
}

/// The number of discs of colour `c`, or of empty squares for
/// OTHELLO_COLOR_EMPTY. -1 if `b` is NULL or `c` is not a colour.
#[no_mangle]
pub unsafe extern "C" fn othello_board_count(
    b: *const othello_board,
    c: othello_color_arg,
) -> c_int {
    boundary(-1, || {
        let game = board_ref(b)?;
        let discs = match color_arg(c)? {
            Some(color) => game.discs(color),
            None => game.position().empties(),
        };
        Ok(discs.count() as c_int)
    })
}

/// The legal moves of the side to move, ascending. Returns how many exist and
/// writes the first min(n, cap) of them to `moves` (which may be NULL when
/// `cap` is 0). 0 when the side must pass or the game is over; also 0, with
/// the last error set, when `b` is NULL or `moves` is NULL with `cap` > 0.
#[no_mangle]
pub unsafe extern "C" fn othello_board_legal_moves(
    b: *const othello_board,
    moves: *mut c_int,
    cap: usize,
) -> usize {
    boundary(0, || {
        let list = squares(board_ref(b)?.legal_moves());
        if moves.is_null() && cap > 0 {
            return Err(Failure::null("moves (with cap > 0)"));
        }
        if !moves.is_null() {
            let n = list.len().min(cap);
            std::ptr::copy_nonoverlapping(list.as_ptr(), moves, n);
        }
        Ok(list.len())
    })
}

/// The number of legal moves `c` (OTHELLO_COLOR_BLACK or _WHITE) would have
/// if it were to move now, whoever is to move. -1 if `b` is NULL or `c` is
/// not a player colour.
#[no_mangle]
pub unsafe extern "C" fn othello_board_mobility(
    b: *const othello_board,
    c: othello_color_arg,
) -> c_int {
    boundary(-1, || {
        let game = board_ref(b)?;
        let pos = game.position();
        let moves = match color_arg(c)? {
            Some(color) if color == game.side_to_move() => pos.legal_moves(),
            Some(_) => pos.opponent_moves(),
            None => {
                return Err(Failure::new(
                    OTHELLO_STATUS_INVALID_ARGUMENT,
                    "mobility of OTHELLO_COLOR_EMPTY: pass _BLACK or _WHITE",
                ))
            }
        };
        Ok(moves.count() as c_int)
    })
}

/// True if the side to move may play on `square`. False for NULL `b` or a
/// square out of range.
#[no_mangle]
pub unsafe extern "C" fn othello_board_is_legal(b: *const othello_board, square: c_int) -> bool {
    boundary(false, || {
        let game = board_ref(b)?;
        Ok(game.legal_moves().contains(square_arg(square)?))
    })
}

unsafe fn flips_out(
    flipped: Bitboard,
    flips: *mut c_int,
    cap: usize,
    n_flips: *mut usize,
) -> Result<(), Failure> {
    write_ints(&squares(flipped), flips, cap, n_flips, "flips")
}

/// Previews a move: the squares that playing `square` would flip, ascending,
/// into `(flips, cap)`, and their number into `*n_flips` (may be NULL).
/// `flips` may be NULL with `cap` 0 to ask only for the number. Fails with
/// INVALID_SQUARE, ILLEGAL_MOVE (occupied or flips nothing), GAME_OVER, or
/// BUFFER_TOO_SMALL (the number needed goes to `*n_flips`).
#[no_mangle]
pub unsafe extern "C" fn othello_board_flips(
    b: *const othello_board,
    square: c_int,
    flips: *mut c_int,
    cap: usize,
    n_flips: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let game = board_ref(b)?;
        let flipped = game.preview(square_arg(square)?)?;
        flips_out(flipped, flips, cap, n_flips)
    })
}

/// Plays `square` for the side to move; the flipped squares go to
/// `(flips, cap)` and their number to `*n_flips`, as for
/// othello_board_flips(). Clears the redo list. On any failure, including
/// BUFFER_TOO_SMALL, the move is not played.
#[no_mangle]
pub unsafe extern "C" fn othello_board_play(
    b: *mut othello_board,
    square: c_int,
    flips: *mut c_int,
    cap: usize,
    n_flips: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let game = board_mut(b)?;
        let sq = square_arg(square)?;
        let flipped = game.preview(sq)?;
        flips_out(flipped, flips, cap, n_flips)?;
        game.play(sq)?;
        Ok(())
    })
}

/// Passes the turn. Only allowed when the side to move has no legal move:
/// CANNOT_PASS if it has one, GAME_OVER if neither side can move. A pass is a
/// turn of the history (undo takes it back). Clears the redo list.
#[no_mangle]
pub unsafe extern "C" fn othello_board_pass(b: *mut othello_board) -> othello_status {
    boundary_status(|| Ok(board_mut(b)?.pass()?))
}

/// Takes back the last turn (a move or a pass). NOTHING_TO_UNDO at the start
/// of the history.
#[no_mangle]
pub unsafe extern "C" fn othello_board_undo(b: *mut othello_board) -> othello_status {
    boundary_status(|| board_mut(b)?.undo().map(drop).map_err(Failure::from))
}

/// Replays the last turn taken back by othello_board_undo(). NOTHING_TO_REDO
/// if there is none (a new move or pass clears the redo list).
#[no_mangle]
pub unsafe extern "C" fn othello_board_redo(b: *mut othello_board) -> othello_status {
    boundary_status(|| board_mut(b)?.redo().map(drop).map_err(Failure::from))
}

/// True if there is a turn to undo. False for NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_can_undo(b: *const othello_board) -> bool {
    boundary(false, || Ok(board_ref(b)?.plies() > 0))
}

/// True if there is a turn to redo. False for NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_can_redo(b: *const othello_board) -> bool {
    boundary(false, || Ok(board_ref(b)?.can_redo()))
}

/// True if the side to move has no legal move while the opponent has one, so
/// it must call othello_board_pass(). False for NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_must_pass(b: *const othello_board) -> bool {
    boundary(false, || Ok(board_ref(b)?.must_pass()))
}

/// True if neither side can move (the board is full or both are blocked).
/// False for NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_is_game_over(b: *const othello_board) -> bool {
    boundary(false, || Ok(board_ref(b)?.is_game_over()))
}

/// The number of the next turn: 1 at the board's initial position, plus one
/// for every move or pass played since. -1 for NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_move_number(b: *const othello_board) -> c_int {
    boundary(-1, || Ok(board_ref(b)?.plies() as c_int + 1))
}

/// The turns played since the initial position, oldest first: squares, and
/// OTHELLO_PASS (-1) for passes. Writes them to `(turns, cap)` and their
/// number to `*n` (may be NULL); `turns` may be NULL with `cap` 0 to ask only
/// for the number. BUFFER_TOO_SMALL puts the number needed in `*n`.
#[no_mangle]
pub unsafe extern "C" fn othello_board_history(
    b: *const othello_board,
    turns: *mut c_int,
    cap: usize,
    n: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let list: Vec<c_int> = board_ref(b)?
            .moves()
            .map(|m| match m {
                Move::Play(sq) => sq.index() as c_int,
                Move::Pass => OTHELLO_PASS,
            })
            .collect();
        write_ints(&list, turns, cap, n, "turns")
    })
}

/// Parses a square name, `a1`..`h8` (column letter in either case, then the
/// row digit), into `*square` (0..63). PARSE_ERROR for anything else.
#[no_mangle]
pub unsafe extern "C" fn othello_square_parse(
    text: *const c_char,
    square: *mut c_int,
) -> othello_status {
    boundary_status(|| {
        let text = read_str(text, "text")?;
        if square.is_null() {
            return Err(Failure::null("square"));
        }
        let sq: Square = text.parse()?;
        *square = sq.index() as c_int;
        Ok(())
    })
}

/// Writes the name of `square` (`a1`..`h8`, lower case, NUL-terminated) into
/// `(buf, len)`; `len` must be at least 3. INVALID_SQUARE outside 0..63.
#[no_mangle]
pub unsafe extern "C" fn othello_square_name(
    square: c_int,
    buf: *mut c_char,
    len: usize,
) -> othello_status {
    boundary_status(|| {
        let name = square_arg(square)?.to_string();
        write_str(&name, buf, len, std::ptr::null_mut())
    })
}

/// Writes the board string: 64 characters for a1, b1, .. h1, a2, .. h8 (`X`
/// black, `O` white, `-` empty), a space, and `X` or `O` for the side to move;
/// 66 characters plus the NUL, so `len` must be at least 67.
/// `*out_n` (may be NULL) gets 66, or the size needed on BUFFER_TOO_SMALL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_to_string(
    b: *const othello_board,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let text = notation::board_string(board_ref(b)?);
        write_str(&text, buf, len, out_n)
    })
}

/// A new game from a board string as written by othello_board_to_string(),
/// with no history. On input `x`/`*`/`B` also mean black, `o`/`W` white and
/// `.` empty; surrounding whitespace is ignored. NULL on failure
/// (othello_last_status() gives PARSE_ERROR or NULL_ARGUMENT).
#[no_mangle]
pub unsafe extern "C" fn othello_board_from_string(text: *const c_char) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        let text = read_str(text, "text")?;
        Ok(into_handle(notation::parse_board(text)?))
    })
}

/// Writes the moves played from the standard start as a transcript,
/// `f5d6c3...` (lower case, passes left out), NUL-terminated. An empty
/// history gives "". `*out_n` (may be NULL) gets the length, or the size
/// needed on BUFFER_TOO_SMALL; 121 bytes always suffice. For a board made
/// from a board string, the transcript holds the moves since that position.
#[no_mangle]
pub unsafe extern "C" fn othello_board_transcript(
    b: *const othello_board,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> othello_status {
    boundary_status(|| {
        let text = notation::transcript(board_ref(b)?);
        write_str(&text, buf, len, out_n)
    })
}

/// A new game with the moves of a transcript played from the standard start
/// (either case, whitespace allowed between moves; passes are implied and
/// recorded in the history). NULL on failure (PARSE_ERROR naming the bad move).
#[no_mangle]
pub unsafe extern "C" fn othello_board_from_transcript(text: *const c_char) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        let text = read_str(text, "text")?;
        Ok(into_handle(notation::parse_transcript(text)?))
    })
}
