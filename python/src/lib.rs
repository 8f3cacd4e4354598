//! `othello._native`, the Python package's native module: the whole library
//! built as a CPython extension, and its `Board`.
//!
//! The package's `Board` (python/othello) is a Python subclass of the
//! `Board` here, so the calls a game loop makes (legal moves, play, pass,
//! the game's state) cost what a native method costs, about a tenth of a
//! ctypes call. The engine, the book and the texts stay ctypes calls into
//! the C functions of this same module (each costs microseconds against
//! searches of milliseconds): a board's address (`_address`) is its
//! `othello_board *`. Errors are raised as the package's exception classes
//! and squares returned as its `Square` objects, which the package hands
//! over once at import (`_init`).

use othello::any::{self, AnyGame};
use othello::ffi::board::othello_board;
use othello::ffi::othello_status;
use othello::notation;
use othello::rng::Rng;
use othello::{Color, Error};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyString, PyType};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `OTHELLO_PASS`, and the Python `PASS`.
const PASS: i64 = -1;

/// What the package hands over at import (`_init`).
struct Hooks {
    /// `Square(index, size)`.
    square: Py<PyAny>,
    /// `_error(status, message)`: the package's exception for a status.
    error: Py<PyAny>,
    /// `Color.EMPTY`, `Color.BLACK`, `Color.WHITE`.
    colors: [Py<PyAny>; 3],
}

static HOOKS: PyOnceLock<Hooks> = PyOnceLock::new();

/// The `Square` objects of each size (index `(size - 4) / 2`): the squares
/// in order, then `PASS`; made on first use, shared by every board.
static SQUARES: [PyOnceLock<Vec<Py<PyAny>>>; 7] = [const { PyOnceLock::new() }; 7];

/// Boards alive (the package's `live_handles()`).
static LIVE_BOARDS: AtomicUsize = AtomicUsize::new(0);

fn hooks(py: Python<'_>) -> PyResult<&Hooks> {
    HOOKS
        .get(py)
        .ok_or_else(|| PyValueError::new_err("othello._native is used before othello._init"))
}

/// The package's exception for `status` with `message`, also recorded as
/// the thread's last error (the package's `last_error()`).
fn failure(py: Python<'_>, status: othello_status, message: &str) -> PyErr {
    othello::ffi::set_last_error(status, message);
    match hooks(py) {
        Ok(h) => match h.error.bind(py).call1((status as i32, message)) {
            Ok(exc) => PyErr::from_value(exc),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

fn error(py: Python<'_>, e: Error) -> PyErr {
    failure(py, (&e).into(), &e.to_string())
}

fn squares(py: Python<'_>, size: u32) -> PyResult<&[Py<PyAny>]> {
    let cell = &SQUARES[(size as usize - 4) / 2];
    let list = cell.get_or_try_init(py, || -> PyResult<Vec<Py<PyAny>>> {
        let make = &hooks(py)?.square;
        (0..(size * size) as i64)
            .chain([PASS])
            .map(|i| Ok(make.bind(py).call1((i, size))?.unbind()))
            .collect()
    })?;
    Ok(list)
}

/// Squares as a list of `Square` objects.
fn square_list<'py>(
    py: Python<'py>,
    size: u32,
    values: impl IntoIterator<Item = Option<u32>>,
) -> PyResult<Bound<'py, PyList>> {
    let all = squares(py, size)?;
    let pass = all.len() - 1;
    PyList::new(
        py,
        values
            .into_iter()
            .map(|s| all[s.map_or(pass, |s| s as usize)].bind(py)),
    )
}

/// A bit set of four words as a Python int.
fn words_int(py: Python<'_>, words: [u64; 4]) -> PyResult<Bound<'_, PyAny>> {
    if words[1..] == [0, 0, 0] {
        return Ok(words[0].into_pyobject(py)?.into_any());
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

/// A colour argument: `Color` or its int (0 empty, 1 black, 2 white).
fn color_arg(py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<Option<Color>> {
    if color.is_instance_of::<PyBool>() {
        return Err(not_an_int("color", color));
    }
    let value: i64 = color.extract().map_err(|_| not_an_int("color", color))?;
    match value {
        0 => Ok(None),
        1 => Ok(Some(Color::Black)),
        2 => Ok(Some(Color::White)),
        _ => Err(failure(
            py,
            othello_status::OTHELLO_STATUS_INVALID_ARGUMENT,
            &format!("color {value} is not OTHELLO_COLOR_EMPTY, _BLACK or _WHITE"),
        )),
    }
}

fn not_an_int(what: &str, value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("{what} must be an int, not {}", repr(value)))
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "that".into())
}

fn color_object(py: Python<'_>, color: Option<Color>) -> PyResult<Py<PyAny>> {
    let colors = &hooks(py)?.colors;
    Ok(colors[match color {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }]
    .clone_ref(py))
}

/// The package's `Board`: a game of any size, with history. Its methods are
/// documented on the Python class (python/othello/__init__.py).
#[pyclass(subclass, module = "othello._native")]
pub struct Board {
    /// `None` once closed.
    handle: Option<Box<othello_board>>,
}

impl Board {
    fn with(game: Box<dyn AnyGame>) -> Board {
        LIVE_BOARDS.fetch_add(1, Ordering::Relaxed);
        Board {
            handle: Some(Box::new(othello_board::new(game))),
        }
    }

    /// Frees the game now, once.
    fn release(&mut self) {
        if self.handle.take().is_some() {
            LIVE_BOARDS.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn game(&self) -> PyResult<&dyn AnyGame> {
        match &self.handle {
            Some(h) => Ok(h.game()),
            None => Err(closed()),
        }
    }

    fn game_mut(&mut self) -> PyResult<&mut dyn AnyGame> {
        match &mut self.handle {
            Some(h) => Ok(h.game_mut()),
            None => Err(closed()),
        }
    }

    /// A square argument: a name of this board's size (`"f5"`, `"pass"`),
    /// or an index, range-checked (`PASS` passes only where `pass_ok`).
    fn square(&self, py: Python<'_>, value: &Bound<'_, PyAny>, pass_ok: bool) -> PyResult<i64> {
        let n = self.game()?.size();
        let index = self.square_index(py, value)?;
        if (0..(n * n) as i64).contains(&index) || (pass_ok && index == PASS) {
            Ok(index)
        } else {
            Err(failure(
                py,
                othello_status::OTHELLO_STATUS_INVALID_SQUARE,
                &format!(
                    "square {index} is outside the {n}x{n} board (0..{})",
                    n * n - 1
                ),
            ))
        }
    }

    /// A square argument as an index, not range-checked.
    fn square_index(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<i64> {
        let n = self.game()?.size();
        let index = if let Ok(text) = value.cast::<PyString>() {
            let text = text.to_cow()?;
            let text = text.trim();
            if ["pass", "pa", "ps"].contains(&text.to_ascii_lowercase().as_str()) {
                PASS
            } else {
                notation::parse_square(n, text).map_err(|e| error(py, e))? as i64
            }
        } else if value.is_instance_of::<PyBool>() {
            return Err(not_a_square(value));
        } else {
            value.extract::<i64>().map_err(|_| {
                if value.is_instance_of::<PyInt>() {
                    failure(
                        py,
                        othello_status::OTHELLO_STATUS_INVALID_SQUARE,
                        &format!("square {value} does not fit a C int"),
                    )
                } else {
                    not_a_square(value)
                }
            })?
        };
        Ok(index)
    }
}

fn closed() -> PyErr {
    PyValueError::new_err("operation on a closed Board")
}

fn not_a_square(value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "a square is a name like 'f5' or an index, not {}",
        repr(value)
    ))
}

impl Drop for Board {
    fn drop(&mut self) {
        self.release();
    }
}

/// A new board of the class `cls` (a subclass, as the package's `Board`)
/// holding `game`.
fn new_of<'py>(cls: &Bound<'py, PyType>, game: Box<dyn AnyGame>) -> PyResult<Bound<'py, PyAny>> {
    let size = game.size();
    let obj = cls.call1((size,))?;
    obj.cast::<Board>()?.borrow_mut().handle = Some(Box::new(othello_board::new(game)));
    Ok(obj)
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (size = 8))]
    fn new(py: Python<'_>, size: i64) -> PyResult<Board> {
        Ok(Board::with(any::new_game(size).map_err(|e| error(py, e))?))
    }

    /// A board from a board string (64 squares a1..h8, a space, the side to
    /// move; size * size squares for other sizes); `ParseError` if it is
    /// malformed.
    #[classmethod]
    fn from_string<'py>(
        cls: &Bound<'py, PyType>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = text
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("a board string is a str"))?;
        let game = any::parse_board(&text.to_cow()?).map_err(|e| error(cls.py(), e))?;
        new_of(cls, game)
    }

    /// A game with the moves of a transcript (`"f5d6c3"`) played from the
    /// start (of the `size` board); `ParseError` names the bad move.
    #[classmethod]
    #[pyo3(signature = (text, size = 8))]
    fn from_transcript<'py>(
        cls: &Bound<'py, PyType>,
        text: &Bound<'py, PyAny>,
        size: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = text
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("a transcript is a str"))?;
        let game = any::parse_transcript(size, &text.to_cow()?).map_err(|e| error(cls.py(), e))?;
        new_of(cls, game)
    }

    /// An independent copy, of the same class.
    /// An independent copy, history included, of the same class.
    fn copy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = slf.borrow().game()?.clone_box();
        new_of(&slf.get_type(), game)
    }

    /// Squares per side: 8, or 4..16 for sized boards.
    #[getter]
    fn size(&self) -> PyResult<u32> {
        Ok(self.game()?.size())
    }

    #[getter]
    fn closed(&self) -> bool {
        self.handle.is_none()
    }

    /// Frees the board now (idempotent); any later call but `closed`
    /// raises `ValueError`.
    fn close(&mut self) {
        self.release();
    }

    /// The `othello_board *` of this board, for the C functions.
    #[getter]
    fn _address(&self) -> PyResult<usize> {
        match &self.handle {
            Some(h) => Ok(&**h as *const othello_board as usize),
            None => Err(closed()),
        }
    }

    /// The colour to move (it may have to pass).
    #[getter]
    fn side_to_move(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        color_object(py, Some(self.game()?.side_to_move()))
    }

    /// The disc on `sq`: `board["d4"]` or `board[27]`.
    fn __getitem__(&self, py: Python<'_>, sq: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let index = self.square(py, sq, false)?;
        color_object(py, self.game()?.at(index as u32))
    }

    /// Discs of `color` (empty squares for `Color.EMPTY`).
    fn count(&self, py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<u32> {
        let color = color_arg(py, color)?;
        Ok(self.game()?.count(color))
    }

    /// Legal moves `color` would have if it were to move now.
    fn mobility(&self, py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<u32> {
        let game = self.game()?;
        match color_arg(py, color)? {
            Some(c) => Ok(game.mobility(c)),
            None => Err(failure(
                py,
                othello_status::OTHELLO_STATUS_INVALID_ARGUMENT,
                "mobility of OTHELLO_COLOR_EMPTY: pass _BLACK or _WHITE",
            )),
        }
    }

    /// The legal moves of the side to move, ascending.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let game = self.game()?;
        square_list(py, game.size(), game.legal_moves().into_iter().map(Some))
    }

    /// True if the side to move may play `sq` (False off the board).
    fn is_legal(&self, py: Python<'_>, sq: &Bound<'_, PyAny>) -> PyResult<bool> {
        // Like othello_board_is_legal: false off the board.
        let index = self.square_index(py, sq)?;
        let game = self.game()?;
        let n = game.size() as i64;
        Ok((0..n * n).contains(&index) && game.is_legal(index as u32))
    }

    /// The discs playing `sq` would flip (`IllegalMoveError` if none).
    fn flips<'py>(&self, py: Python<'py>, sq: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let index = self.square(py, sq, false)?;
        let game = self.game()?;
        let flips = game.preview(index as u32).map_err(|e| error(py, e))?;
        square_list(py, game.size(), flips.into_iter().map(Some))
    }

    /// Plays `sq` for the side to move; returns the flipped discs. A pass
    /// (`PASS`, `"pass"`) passes and returns [].
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        sq: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let index = self.square(py, sq, true)?;
        let game = self.game_mut()?;
        if index == PASS {
            game.pass().map_err(|e| error(py, e))?;
            return Ok(PyList::empty(py));
        }
        let flips = game.play(index as u32).map_err(|e| error(py, e))?;
        square_list(py, game.size(), flips.into_iter().map(Some))
    }

    /// Passes (only when the side to move has no move: `CannotPassError`).
    fn pass_turn(&mut self, py: Python<'_>) -> PyResult<()> {
        self.game_mut()?.pass().map_err(|e| error(py, e))
    }

    /// Takes back the last turn (`NothingToUndoError` at the start).
    fn undo(&mut self, py: Python<'_>) -> PyResult<()> {
        self.game_mut()?.undo().map_err(|e| error(py, e))
    }

    /// Replays the last turn taken back (`NothingToRedoError` if none).
    fn redo(&mut self, py: Python<'_>) -> PyResult<()> {
        self.game_mut()?.redo().map_err(|e| error(py, e))
    }

    /// True when the side to move has no move but the opponent has one.
    #[getter]
    fn must_pass(&self) -> PyResult<bool> {
        Ok(self.game()?.must_pass())
    }

    /// True when neither side can move.
    #[getter]
    fn is_game_over(&self) -> PyResult<bool> {
        Ok(self.game()?.is_game_over())
    }

    #[getter]
    fn can_undo(&self) -> PyResult<bool> {
        Ok(self.game()?.plies() > 0)
    }

    #[getter]
    fn can_redo(&self) -> PyResult<bool> {
        Ok(self.game()?.can_redo())
    }

    /// 1 at the initial position, plus one per move or pass since.
    #[getter]
    fn move_number(&self) -> PyResult<usize> {
        Ok(self.game()?.plies() + 1)
    }

    /// The turns played since the initial position: squares, and
    /// `Square(PASS)` for passes.
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let game = self.game()?;
        square_list(py, game.size(), game.history())
    }

    /// The board string: 64 squares a1..h8 (size * size on other boards)
    /// of X/O/-, a space, X or O.
    fn to_string(&self) -> PyResult<String> {
        Ok(self.game()?.board_string())
    }

    /// The moves played, `"f5d6c3"` (passes left out).
    fn transcript(&self) -> PyResult<String> {
        Ok(self.game()?.transcript())
    }

    /// Black's discs minus white's.
    fn score(&self) -> PyResult<i64> {
        let game = self.game()?;
        Ok(i64::from(game.count(Some(Color::Black))) - i64::from(game.count(Some(Color::White))))
    }

    /// The legal moves as a bit mask: square `i` (`row * size + col`) is
    /// bit `i` (a1 the lowest).
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        words_int(py, self.game()?.words(None))
    }

    /// `(black, white)`: the discs of each colour as bit masks, square `i`
    /// at bit `i`.
    fn bitboards<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let game = self.game()?;
        Ok((
            words_int(py, game.words(Some(Color::Black)))?,
            words_int(py, game.words(Some(Color::White)))?,
        ))
    }

    /// The squares' colours as bytes (0 empty, 1 black, 2 white), a1 first.
    fn _cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let game = self.game()?;
        let cells: Vec<u8> = (0..game.size() * game.size())
            .map(|sq| match game.at(sq) {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            })
            .collect();
        Ok(PyBytes::new(py, &cells))
    }
}

/// `_random_games`' moves, lengths, scores and stride.
type RandomGames<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
);

/// Random games from `start`, played with the GIL released: the moves of
/// each game in a row of `stride` (the start's empty squares) int16s,
/// `-1` after its last move; each game's number of moves; each final score
/// (black minus white, empties to the winner). All three as native-endian
/// int16 bytes.
#[pyfunction]
fn _random_games<'py>(
    py: Python<'py>,
    start: PyRef<'py, Board>,
    count: usize,
    seed: u64,
) -> PyResult<RandomGames<'py>> {
    let game = start.game()?.clone_box();
    drop(start);
    let stride = game.count(None) as usize;
    let (moves, lengths, scores) = py.detach(|| {
        let mut rng = Rng::new(seed);
        // Room for the games asked, up to a million: beyond, the vectors
        // grow as they fill (a count too large for memory fails there, not
        // on a capacity computed up front).
        let room = count.min(1 << 20);
        let mut moves = Vec::with_capacity(room * stride * 2);
        let mut lengths = Vec::with_capacity(room * 2);
        let mut scores = Vec::with_capacity(room * 2);
        let mut played = Vec::with_capacity(stride);
        for _ in 0..count {
            played.clear();
            let score = game.random_playout(&mut rng, &mut played);
            for i in 0..stride {
                let sq = played.get(i).map_or(-1, |&s| s as i16);
                moves.extend_from_slice(&sq.to_ne_bytes());
            }
            lengths.extend_from_slice(&(played.len() as i16).to_ne_bytes());
            scores.extend_from_slice(&(score as i16).to_ne_bytes());
        }
        (moves, lengths, scores)
    });
    Ok((
        PyBytes::new(py, &moves),
        PyBytes::new(py, &lengths),
        PyBytes::new(py, &scores),
        stride,
    ))
}

/// Called once by the package at import: its `Square`, its exception
/// factory and its three `Color` members.
#[pyfunction]
fn _init(
    py: Python<'_>,
    square: Py<PyAny>,
    error: Py<PyAny>,
    colors: (Py<PyAny>, Py<PyAny>, Py<PyAny>),
) -> PyResult<()> {
    let hooks = Hooks {
        square,
        error,
        colors: [colors.0, colors.1, colors.2],
    };
    // A second import of the package (importlib.reload) keeps the first
    // hooks: the squares already made are of their classes.
    let _ = HOOKS.set(py, hooks);
    Ok(())
}

/// Boards alive.
#[pyfunction]
fn _live_boards() -> usize {
    LIVE_BOARDS.load(Ordering::Relaxed)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_function(wrap_pyfunction!(_init, m)?)?;
    m.add_function(wrap_pyfunction!(_live_boards, m)?)?;
    m.add_function(wrap_pyfunction!(_random_games, m)?)?;
    Ok(())
}
