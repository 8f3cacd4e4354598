//! C functions over the game handle `othello_board`.

use super::{
    boundary, boundary_status, free_handle, othello_color, othello_color_arg, othello_status,
    read_str, try_mut, try_ref, write_list, write_str, Failure,
};
use crate::any::{self, AnyGame};
use crate::notation;
use crate::Color;
use othello_status::*;
use std::ffi::{c_char, c_int};

/// A game: the board size, the position, the side to move and the full
/// history of turns (moves and passes) for undo and redo. Opaque; create it
/// with othello_board_new(), othello_board_new_sized(),
/// othello_board_from_string() or othello_board_from_transcript[_sized](),
/// release it with othello_board_free(). Every board function works on every
/// size.
///
/// Threads: a board may be moved between threads. Calls taking a
/// `const othello_board *` may run on one board from several threads at once;
/// a call taking `othello_board *` must not overlap any other call on it.
pub struct othello_board {
    pub(crate) game: Box<dyn AnyGame>,
}

/// For Rust code that shares handles with C callers of the same library:
/// the Python package's native module owns its boards as Rust values, calls
/// the rules through [`game`](othello_board::game) and passes their
/// addresses to the C functions of the engine.
impl othello_board {
    pub fn new(game: Box<dyn AnyGame>) -> othello_board {
        othello_board { game }
    }

    pub fn game(&self) -> &dyn AnyGame {
        &*self.game
    }

    pub fn game_mut(&mut self) -> &mut dyn AnyGame {
        &mut *self.game
    }
}

/// The smallest board side: othello_board_new_sized(OTHELLO_SIZE_MIN) is 4x4.
pub const OTHELLO_SIZE_MIN: c_int = 4;

/// The largest board side (16x16, squares 0..255, names a1..p16).
pub const OTHELLO_SIZE_MAX: c_int = 16;

/// The value of "pass" in move lists and search results.
pub const OTHELLO_PASS: c_int = -1;

pub(crate) unsafe fn board_ref<'a>(b: *const othello_board) -> Result<&'a dyn AnyGame, Failure> {
    Ok(&*try_ref(b, "board")?.game)
}

unsafe fn board_mut<'a>(b: *mut othello_board) -> Result<&'a mut dyn AnyGame, Failure> {
    Ok(&mut *try_mut(b, "board")?.game)
}

fn into_board(game: Box<dyn AnyGame>) -> *mut othello_board {
    Box::into_raw(Box::new(othello_board { game }))
}

/// Writes a text form of the board of `b` into `(buf, len)` (see
/// [`write_str`]).
unsafe fn write_text(
    b: *const othello_board,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
    text: impl FnOnce(&dyn AnyGame) -> String,
) -> othello_status {
    boundary_status(|| write_str(&text(board_ref(b)?), buf, len, out_n))
}

/// A new board from the C string `text` read by `parse`, or NULL.
unsafe fn board_from(
    text: *const c_char,
    parse: impl FnOnce(&str) -> Result<Box<dyn AnyGame>, crate::Error>,
) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        Ok(into_board(parse(read_str(text, "text")?)?))
    })
}

/// Squares as C integers.
fn ints(squares: Vec<u32>) -> Vec<c_int> {
    squares.into_iter().map(|s| s as c_int).collect()
}

/// A square of the `n`x`n` board, range-checked.
fn square_arg(n: u32, square: c_int) -> Result<u32, Failure> {
    if (0..(n * n) as c_int).contains(&square) {
        Ok(square as u32)
    } else {
        Err(Failure::new(
            OTHELLO_STATUS_INVALID_SQUARE,
            format!(
                "square {square} is outside the {n}x{n} board (0..{})",
                n * n - 1
            ),
        ))
    }
}

/// `square` as a square of the board of `game`, range-checked.
fn square_of(game: &dyn AnyGame, square: c_int) -> Result<u32, Failure> {
    square_arg(game.size(), square)
}

/// A board size from C, checked: the even numbers 4..16.
fn size_arg(size: c_int) -> Result<u32, Failure> {
    if notation::valid_size(size.into()) {
        Ok(size as u32)
    } else {
        Err(Failure::invalid(format!(
            "board size {size} is not supported: the sizes are the even numbers \
                 {OTHELLO_SIZE_MIN}..{OTHELLO_SIZE_MAX}"
        )))
    }
}

fn color_arg(c: othello_color_arg) -> Result<Option<Color>, Failure> {
    match c {
        0 => Ok(None),
        1 => Ok(Some(Color::Black)),
        2 => Ok(Some(Color::White)),
        _ => Err(Failure::invalid(format!(
            "color {c} is not OTHELLO_COLOR_EMPTY, _BLACK or _WHITE"
        ))),
    }
}

/// A new game at the standard start (white d4 e5, black d5 e4), black to move.
/// Never NULL except when memory runs out. Free it with othello_board_free().
#[no_mangle]
pub extern "C" fn othello_board_new() -> *mut othello_board {
    boundary(std::ptr::null_mut(), || Ok(into_board(any::new_game(8)?)))
}

/// A new game at the standard start of the `size`x`size` board (the four
/// centre squares: white on the upper-left and lower-right ones, black on the
/// two others, as d4 e5 / d5 e4 on 8x8), black to move. `size` is an even
/// number from OTHELLO_SIZE_MIN (4) to OTHELLO_SIZE_MAX (16); 8 gives the
/// same board as othello_board_new(). NULL with INVALID_ARGUMENT for any
/// other size.
#[no_mangle]
pub extern "C" fn othello_board_new_sized(size: c_int) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        let n = size_arg(size)?;
        Ok(into_board(any::new_game(n.into())?))
    })
}

/// The number of squares per side of `b` (4..16; 8 for the standard board),
/// so that its squares are 0 .. size * size - 1. -1 if `b` is NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_size(b: *const othello_board) -> c_int {
    boundary(-1, || Ok(board_ref(b)?.size() as c_int))
}

/// An independent copy of `b`, history included. NULL if `b` is NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_clone(b: *const othello_board) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        Ok(into_board(board_ref(b)?.clone_box()))
    })
}

/// Releases a board. NULL is accepted and ignored. `b` must not be used after.
#[no_mangle]
pub unsafe extern "C" fn othello_board_free(b: *mut othello_board) {
    free_handle(b)
}

/// The colour to move (it may have to pass). OTHELLO_COLOR_EMPTY if `b` is NULL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_side_to_move(b: *const othello_board) -> othello_color {
    boundary(othello_color::OTHELLO_COLOR_EMPTY, || {
        Ok(Some(board_ref(b)?.side_to_move()).into())
    })
}

/// The disc on `square` (0 .. size * size - 1). OTHELLO_COLOR_EMPTY for an
/// empty square, and also, with the last error set, if `b` is NULL
/// (NULL_ARGUMENT) or `square` is out of range for the board's size
/// (INVALID_SQUARE).
#[no_mangle]
pub unsafe extern "C" fn othello_board_get(
    b: *const othello_board,
    square: c_int,
) -> othello_color {
    boundary(othello_color::OTHELLO_COLOR_EMPTY, || {
        let game = board_ref(b)?;
        Ok(game.at(square_of(game, square)?).into())
    })
}

/// The number of discs of colour `c`, or of empty squares for
/// OTHELLO_COLOR_EMPTY. -1 if `b` is NULL or `c` is not a colour.
#[no_mangle]
pub unsafe extern "C" fn othello_board_count(
    b: *const othello_board,
    c: othello_color_arg,
) -> c_int {
    count_of(b, c, |game, color| Ok(game.count(color)))
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
        let list = ints(board_ref(b)?.legal_moves());
        // The first `cap` moves: the count tells the caller if there are more.
        let head = &list[..list.len().min(cap)];
        write_list(head, moves, cap, std::ptr::null_mut(), "moves")?;
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
    count_of(b, c, |game, color| match color {
        Some(color) => Ok(game.mobility(color)),
        None => Err(Failure::invalid(
            "mobility of OTHELLO_COLOR_EMPTY: pass _BLACK or _WHITE",
        )),
    })
}

/// `count` of the board `b` and the colour `c` (None for
/// OTHELLO_COLOR_EMPTY), as a C int: -1 when `b` is NULL, `c` is not a
/// colour or `count` fails.
unsafe fn count_of(
    b: *const othello_board,
    c: othello_color_arg,
    count: impl FnOnce(&dyn AnyGame, Option<Color>) -> Result<u32, Failure>,
) -> c_int {
    boundary(-1, || {
        let game = board_ref(b)?;
        Ok(count(game, color_arg(c)?)? as c_int)
    })
}

/// True if the side to move may play on `square`. False for NULL `b` or a
/// square out of range.
#[no_mangle]
pub unsafe extern "C" fn othello_board_is_legal(b: *const othello_board, square: c_int) -> bool {
    boundary(false, || {
        let game = board_ref(b)?;
        Ok(game.is_legal(square_of(game, square)?))
    })
}

unsafe fn flips_out(
    flipped: &[c_int],
    flips: *mut c_int,
    cap: usize,
    n_flips: *mut usize,
) -> Result<(), Failure> {
    write_list(flipped, flips, cap, n_flips, "flips")
}

/// Previews a move: the squares that playing `square` would flip, ascending,
/// into `(flips, cap)`, and their number into `*n_flips` (may be NULL).
/// `flips` may be NULL with `cap` 0 to ask only for the number. Fails with
/// INVALID_SQUARE (outside 0 .. size * size - 1), ILLEGAL_MOVE (occupied or
/// flips nothing), GAME_OVER, or BUFFER_TOO_SMALL (the number needed goes to
/// `*n_flips`).
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
        let flipped = ints(game.preview(square_of(game, square)?)?);
        flips_out(&flipped, flips, cap, n_flips)
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
        let sq = square_of(game, square)?;
        let flipped = ints(game.preview(sq)?);
        flips_out(&flipped, flips, cap, n_flips)?;
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
    boundary_status(|| board_mut(b)?.undo().map_err(Failure::from))
}

/// Replays the last turn taken back by othello_board_undo(). NOTHING_TO_REDO
/// if there is none (a new move or pass clears the redo list).
#[no_mangle]
pub unsafe extern "C" fn othello_board_redo(b: *mut othello_board) -> othello_status {
    boundary_status(|| board_mut(b)?.redo().map_err(Failure::from))
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
            .history()
            .into_iter()
            .map(|turn| turn.map_or(OTHELLO_PASS, |sq| sq as c_int))
            .collect();
        write_list(&list, turns, cap, n, "turns")
    })
}

/// Parses a square name of the 8x8 board, `a1`..`h8` (column letter in
/// either case, then the row digit), into `*square` (0..63). PARSE_ERROR for
/// anything else. For other sizes, see othello_square_parse_sized().
#[no_mangle]
pub unsafe extern "C" fn othello_square_parse(
    text: *const c_char,
    square: *mut c_int,
) -> othello_status {
    boundary_status(|| {
        let text = read_str(text, "text")?;
        *try_mut(square, "square")? = notation::parse_square(8, text)? as c_int;
        Ok(())
    })
}

/// Writes the name of `square` of the 8x8 board (`a1`..`h8`, lower case,
/// NUL-terminated) into `(buf, len)`; `len` must be at least 3.
/// INVALID_SQUARE outside 0..63. For other sizes, see
/// othello_square_name_sized().
#[no_mangle]
pub unsafe extern "C" fn othello_square_name(
    square: c_int,
    buf: *mut c_char,
    len: usize,
) -> othello_status {
    boundary_status(|| {
        let name = notation::square_name(8, square_arg(8, square)?);
        write_str(&name, buf, len, std::ptr::null_mut())
    })
}

/// Writes the board string: one character per square, row by row from a1
/// (a1, b1, .. h1, a2, .. h8 on 8x8; `X` black, `O` white, `-` empty), a
/// space, and `X` or `O` for the side to move: size * size + 2 characters
/// plus the NUL (66 + 1 on 8x8, 258 + 1 on 16x16), so the number of squares
/// alone tells the size (16, 36, 64, 100, 144, 196 or 256 squares).
/// `*out_n` (may be NULL) gets the length, or the size needed on
/// BUFFER_TOO_SMALL.
#[no_mangle]
pub unsafe extern "C" fn othello_board_to_string(
    b: *const othello_board,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> othello_status {
    write_text(b, buf, len, out_n, |game| game.board_string())
}

/// A new game from a board string as written by othello_board_to_string(),
/// of any size, with no history: the number of squares before the space
/// (16, 36, 64, .., 256) gives the board size. On input `x`/`*`/`B` also
/// mean black, `o`/`W` white and `.` empty; surrounding whitespace is
/// ignored. NULL on failure (othello_last_status() gives PARSE_ERROR, for a
/// string of any other length too, or NULL_ARGUMENT).
#[no_mangle]
pub unsafe extern "C" fn othello_board_from_string(text: *const c_char) -> *mut othello_board {
    board_from(text, any::parse_board)
}

/// Writes the moves played from the standard start as a transcript,
/// `f5d6c3...` (lower case, square names concatenated, `j10` on boards from
/// 10x10; passes left out), NUL-terminated. An empty history gives "".
/// `*out_n` (may be NULL) gets the length, or the size needed on
/// BUFFER_TOO_SMALL; 3 * size * size + 1 bytes always suffice (121 on 8x8).
/// For a board made from a board string, the transcript holds the moves
/// since that position.
#[no_mangle]
pub unsafe extern "C" fn othello_board_transcript(
    b: *const othello_board,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> othello_status {
    write_text(b, buf, len, out_n, |game| game.transcript())
}

/// A new 8x8 game with the moves of a transcript played from the standard
/// start (either case, whitespace allowed between moves; passes are implied
/// and recorded in the history). NULL on failure (PARSE_ERROR naming the bad
/// move). For other sizes, see othello_board_from_transcript_sized().
#[no_mangle]
pub unsafe extern "C" fn othello_board_from_transcript(text: *const c_char) -> *mut othello_board {
    board_from(text, |text| any::parse_transcript(8, text))
}

/// A new game of the `size`x`size` board (see othello_board_new_sized()) with
/// the moves of a transcript played from its standard start: square names
/// `a1`..`p16` concatenated (`c4j10`: a move starts with its letter), either
/// case, whitespace allowed between moves; passes are implied and recorded
/// in the history. Size 8 is othello_board_from_transcript(). NULL on
/// failure: INVALID_ARGUMENT for a bad size, PARSE_ERROR naming the bad move,
/// NULL_ARGUMENT.
#[no_mangle]
pub unsafe extern "C" fn othello_board_from_transcript_sized(
    size: c_int,
    text: *const c_char,
) -> *mut othello_board {
    boundary(std::ptr::null_mut(), || {
        let n = size_arg(size)?;
        let text = read_str(text, "text")?;
        Ok(into_board(any::parse_transcript(n.into(), text)?))
    })
}

/// Parses a square name of the `size`x`size` board into `*square`
/// (`row * size + col`): a column letter `a`.. (either case) then the row
/// number 1..size without leading zero, both on that board: `a1`..`d4` on
/// 4x4, `a1`..`j10` on 10x10, `a1`..`p16` on 16x16. INVALID_ARGUMENT for a
/// bad size, PARSE_ERROR for anything else.
#[no_mangle]
pub unsafe extern "C" fn othello_square_parse_sized(
    size: c_int,
    text: *const c_char,
    square: *mut c_int,
) -> othello_status {
    boundary_status(|| {
        let n = size_arg(size)?;
        let text = read_str(text, "text")?;
        *try_mut(square, "square")? = notation::parse_square(n, text)? as c_int;
        Ok(())
    })
}

/// Writes the name of `square` (`row * size + col`) of the `size`x`size`
/// board into `(buf, len)`, lower case and NUL-terminated: `a1`..`p16`, so
/// `len` must be the name's length plus one; 4 always suffices (3 below
/// size 10). BUFFER_TOO_SMALL for less, INVALID_ARGUMENT for a bad size,
/// INVALID_SQUARE outside 0 .. size * size - 1.
#[no_mangle]
pub unsafe extern "C" fn othello_square_name_sized(
    size: c_int,
    square: c_int,
    buf: *mut c_char,
    len: usize,
) -> othello_status {
    boundary_status(|| {
        let n = size_arg(size)?;
        let sq = square_arg(n, square)?;
        write_str(
            &notation::square_name(n, sq),
            buf,
            len,
            std::ptr::null_mut(),
        )
    })
}
