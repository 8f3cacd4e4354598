"""othello: the othello engine for Python.

The package holds the whole library in one native module,
``othello._native`` (a CPython extension built from the Rust crate, one
wheel for CPython 3.9 and later). ``Board`` extends that module's board, so
the rules cost what a native call costs; the engine, the book and the text
functions are the library's C functions (``include/othello.h``), called
with ctypes from the same module.

    import othello
    with othello.Board() as b, othello.Engine(hash_mb=16) as e:
        print(b.play("f5"))             # the discs it flipped: [Square('e5')]
        r = e.search(b, level=6)        # a SearchResult
        b.play(r.move)

Squares are ``Square`` values: integers 0..63 (``row * 8 + col``, a1 = 0,
h8 = 63) that print as their names (``f5``). Every call that takes a square
accepts a name (``"f5"``, either case) or an index. A failed library call
raises an ``OthelloError`` subclass carrying the library's status and detail
message (``IllegalMoveError``, ``ParseError``, ...). Boards and engines own a
library handle: it is freed by ``close()``, at the end of a ``with`` block, or
when the object is garbage collected, whichever comes first.
"""

from __future__ import annotations

import array
import ctypes
import enum
import os
import threading
import weakref
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    byref,
    c_bool,
    c_char,
    c_char_p,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
    sizeof,
)
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import _native

if TYPE_CHECKING:
    import numpy

__all__ = [
    "PASS",
    "PV_MAX",
    "HEADER_VERSION",
    "Status",
    "Color",
    "Strategy",
    "Evaluation",
    "Book",
    "Square",
    "OthelloError",
    "NullArgumentError",
    "InvalidSquareError",
    "IllegalMoveError",
    "CannotPassError",
    "GameOverError",
    "NothingToUndoError",
    "NothingToRedoError",
    "BufferTooSmallError",
    "ParseError",
    "InvalidArgumentError",
    "BusyError",
    "PanicError",
    "StoppedError",
    "OutOfMemoryError",
    "Board",
    "Engine",
    "SearchProgress",
    "SearchResult",
    "MoveScore",
    "library_path",
    "version",
    "status_message",
    "last_error",
    "square",
    "square_name",
    "live_handles",
    "has_function",
    "RandomGames",
    "random_games",
]

# The version of othello.h this module mirrors (OTHELLO_VERSION_STRING).
HEADER_VERSION = "1.0.0"

# OTHELLO_PASS and OTHELLO_PV_MAX.
PASS = -1
PV_MAX = 64
# The most squares a board has (16x16, OTHELLO_SIZE_MAX squared).
_MAX_SQUARES = 256

_INT_MIN = -(2**31)
_INT_MAX = 2**31 - 1


class Status(enum.IntEnum):
    """othello_status."""

    OK = 0
    NULL_ARGUMENT = 1
    INVALID_SQUARE = 2
    ILLEGAL_MOVE = 3
    CANNOT_PASS = 4
    GAME_OVER = 5
    NOTHING_TO_UNDO = 6
    NOTHING_TO_REDO = 7
    BUFFER_TOO_SMALL = 8
    PARSE_ERROR = 9
    INVALID_ARGUMENT = 10
    BUSY = 11
    PANIC = 12
    STOPPED = 13
    OUT_OF_MEMORY = 14


class Color(enum.IntEnum):
    """othello_color."""

    EMPTY = 0
    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> "Color":
        if self is Color.EMPTY:
            return Color.EMPTY
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def symbol(self) -> str:
        """``X`` for black, ``O`` for white, ``-`` for empty (as in board strings)."""
        return "-XO"[self]


class Evaluation(enum.IntEnum):
    """othello_evaluation: what an engine's midgame search evaluates with
    (``Engine.evaluation``)."""

    V1 = 0
    TRAINED = 1


class Book(enum.IntEnum):
    """othello_book: the opening book an engine plays from (``Engine.book``;
    LOADED comes from ``Engine.load_book`` and cannot be set)."""

    NONE = 0
    BUILTIN = 1
    LOADED = 2


class Strategy(enum.IntEnum):
    """othello_strategy."""

    ENGINE = 0
    CLASSIC = 1
    CORNERS = 2
    GREEDY = 3
    RANDOM = 4


# ---------------------------------------------------------------------------
# Errors


class OthelloError(Exception):
    """A library call failed: ``status`` is its ``Status``, ``message`` the
    library's detail message (``othello_last_error``)."""

    status: Status = Status.OK

    def __init__(self, status: Union[Status, int], message: str = ""):
        try:
            self.status = Status(status)
        except ValueError:  # a code newer than this module
            self.status = status  # type: ignore[assignment]
        self.message = message
        name = self.status.name if isinstance(self.status, Status) else str(int(status))
        super().__init__(f"{name}: {message}" if message else name)


class NullArgumentError(OthelloError):
    pass


class InvalidSquareError(OthelloError, ValueError):
    pass


class IllegalMoveError(OthelloError, ValueError):
    pass


class CannotPassError(OthelloError):
    pass


class GameOverError(OthelloError):
    pass


class NothingToUndoError(OthelloError):
    pass


class NothingToRedoError(OthelloError):
    pass


class BufferTooSmallError(OthelloError):
    pass


class ParseError(OthelloError, ValueError):
    pass


class InvalidArgumentError(OthelloError, ValueError):
    pass


class BusyError(OthelloError):
    pass


class PanicError(OthelloError):
    pass


class StoppedError(OthelloError):
    """A stop or a time/node limit ended a call with no partial result
    (``Engine.analyze``); older libraries report INVALID_ARGUMENT instead."""


class OutOfMemoryError(OthelloError, MemoryError):
    """The library could not allocate memory (e.g. the engine's table)."""


_ERRORS = {
    Status.NULL_ARGUMENT: NullArgumentError,
    Status.INVALID_SQUARE: InvalidSquareError,
    Status.ILLEGAL_MOVE: IllegalMoveError,
    Status.CANNOT_PASS: CannotPassError,
    Status.GAME_OVER: GameOverError,
    Status.NOTHING_TO_UNDO: NothingToUndoError,
    Status.NOTHING_TO_REDO: NothingToRedoError,
    Status.BUFFER_TOO_SMALL: BufferTooSmallError,
    Status.PARSE_ERROR: ParseError,
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.BUSY: BusyError,
    Status.PANIC: PanicError,
    Status.STOPPED: StoppedError,
    Status.OUT_OF_MEMORY: OutOfMemoryError,
}


def _error(status: int, message: Optional[str] = None) -> OthelloError:
    if message is None:
        message = last_error()[1]
    try:
        cls = _ERRORS.get(Status(status), OthelloError)
    except ValueError:
        cls = OthelloError
    return cls(status, message)


def _check(status: int) -> None:
    if status != Status.OK:
        raise _error(status)


# ---------------------------------------------------------------------------
# The C declarations (othello.h)


class _Engine(Structure):
    """struct othello_engine (opaque)."""


# Boards are passed by address (Board._h: an int), not as ctypes pointers.
_BoardP = c_void_p
_EngineP = POINTER(_Engine)


class _SearchProgress(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("depth", c_int),
        ("score", c_int),
        ("exact", c_bool),
        ("best_move", c_int),
        ("pv", POINTER(c_int)),
        ("pv_len", c_size_t),
        ("nodes", c_uint64),
        ("elapsed_ms", c_uint64),
    ]


_ProgressFn = CFUNCTYPE(None, POINTER(_SearchProgress), c_void_p)


class _SearchLimits(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("level", c_int),
        ("depth", c_int),
        ("exact_empties", c_int),
        ("wld_empties", c_int),
        ("node_limit", c_uint64),
        ("time_limit_ms", c_int64),
        ("strategy", c_int32),
        ("classic_depth", c_int),
        ("randomness", c_int),
        ("seed", c_uint64),
        ("progress", _ProgressFn),
        ("userdata", c_void_p),
        ("selectivity", c_int),
        ("book", c_int),
        ("threads", c_int),
        ("clock_remaining_ms", c_int64),
        ("clock_increment_ms", c_int64),
    ]


class _SearchResult(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("move", c_int),
        ("score", c_int),
        ("exact", c_bool),
        ("wld", c_bool),
        ("depth", c_int),
        ("nodes", c_uint64),
        ("elapsed_ms", c_uint64),
        ("stopped", c_bool),
        ("pv", c_int * PV_MAX),
        ("pv_len", c_size_t),
        ("from_book", c_bool),
    ]


class _MoveScore(Structure):
    _fields_ = [("move", c_int), ("score", c_int), ("exact", c_bool)]


_IntP = POINTER(c_int)
_SizeP = POINTER(c_size_t)

# Every function of othello.h: name -> (result type, argument types).
_PROTOTYPES = {
    "othello_status_message": (c_char_p, [c_int32]),
    "othello_last_error": (c_int32, [POINTER(c_char), c_size_t, _SizeP]),
    "othello_last_status": (c_int32, []),
    "othello_version": (c_char_p, []),
    "othello_version_number": (c_int, []),
    "othello_board_new": (_BoardP, []),
    "othello_board_clone": (_BoardP, [_BoardP]),
    "othello_board_free": (None, [_BoardP]),
    "othello_board_side_to_move": (c_int32, [_BoardP]),
    "othello_board_get": (c_int32, [_BoardP, c_int]),
    "othello_board_count": (c_int, [_BoardP, c_int32]),
    "othello_board_legal_moves": (c_size_t, [_BoardP, _IntP, c_size_t]),
    "othello_board_mobility": (c_int, [_BoardP, c_int32]),
    "othello_board_is_legal": (c_bool, [_BoardP, c_int]),
    "othello_board_flips": (c_int32, [_BoardP, c_int, _IntP, c_size_t, _SizeP]),
    "othello_board_play": (c_int32, [_BoardP, c_int, _IntP, c_size_t, _SizeP]),
    "othello_board_pass": (c_int32, [_BoardP]),
    "othello_board_undo": (c_int32, [_BoardP]),
    "othello_board_redo": (c_int32, [_BoardP]),
    "othello_board_can_undo": (c_bool, [_BoardP]),
    "othello_board_can_redo": (c_bool, [_BoardP]),
    "othello_board_must_pass": (c_bool, [_BoardP]),
    "othello_board_is_game_over": (c_bool, [_BoardP]),
    "othello_board_move_number": (c_int, [_BoardP]),
    "othello_board_history": (c_int32, [_BoardP, _IntP, c_size_t, _SizeP]),
    "othello_square_parse": (c_int32, [c_char_p, _IntP]),
    "othello_square_name": (c_int32, [c_int, POINTER(c_char), c_size_t]),
    "othello_board_to_string": (c_int32, [_BoardP, POINTER(c_char), c_size_t, _SizeP]),
    "othello_board_from_string": (_BoardP, [c_char_p]),
    "othello_board_transcript": (c_int32, [_BoardP, POINTER(c_char), c_size_t, _SizeP]),
    "othello_board_from_transcript": (_BoardP, [c_char_p]),
    "othello_engine_new": (_EngineP, [c_size_t]),
    "othello_engine_free": (None, [_EngineP]),
    "othello_engine_clear": (c_int32, [_EngineP]),
    "othello_engine_stop": (None, [_EngineP]),
    "othello_search_limits_init_": (c_int32, [POINTER(_SearchLimits), c_size_t]),
    "othello_search_result_init_": (c_int32, [POINTER(_SearchResult), c_size_t]),
    "othello_engine_search": (
        c_int32,
        [_EngineP, _BoardP, POINTER(_SearchLimits), POINTER(_SearchResult)],
    ),
    "othello_engine_ponder": (c_int32, [_EngineP, _BoardP, POINTER(_SearchLimits), _IntP]),
    "othello_engine_analyze": (
        c_int32,
        [_EngineP, _BoardP, POINTER(_SearchLimits), POINTER(_MoveScore), c_size_t, _SizeP],
    ),
    "othello_board_best_move": (c_int32, [_BoardP, c_int, _IntP]),
    "othello_engine_set_evaluation": (c_int32, [_EngineP, c_int32]),
    "othello_engine_get_evaluation": (c_int32, [_EngineP]),
    "othello_engine_load_weights": (c_int32, [_EngineP, c_char_p]),
    "othello_engine_load_weights_buffer": (c_int32, [_EngineP, POINTER(ctypes.c_uint8), c_size_t]),
    "othello_board_new_sized": (_BoardP, [c_int]),
    "othello_board_size": (c_int, [_BoardP]),
    "othello_board_from_transcript_sized": (_BoardP, [c_int, c_char_p]),
    "othello_square_parse_sized": (c_int32, [c_int, c_char_p, _IntP]),
    "othello_square_name_sized": (c_int32, [c_int, c_int, POINTER(c_char), c_size_t]),
    "othello_engine_set_book": (c_int32, [_EngineP, c_int32]),
    "othello_engine_get_book": (c_int32, [_EngineP]),
    "othello_engine_load_book": (c_int32, [_EngineP, c_char_p]),
    "othello_engine_load_book_buffer": (c_int32, [_EngineP, POINTER(ctypes.c_uint8), c_size_t]),
    "othello_engine_book_moves": (
        c_int32,
        [_EngineP, _BoardP, POINTER(_MoveScore), c_size_t, _SizeP],
    ),
}

# Functions a library of this ABI version may lack (has_function() tells):
# none. _check_version() accepts 1.x libraries (x at least this module's),
# and 1.0 has every function above. A function added in a later 1.x release
# would go here.
_OPTIONAL: frozenset[str] = frozenset()


def _load() -> Tuple[ctypes.CDLL, str]:
    """The C functions of the native module: the library is built into it
    (python/Cargo.toml), so the engine's calls below and the boards of
    ``_native.Board`` are one library."""
    path = _native.__file__
    if path is None:
        raise ImportError("othello._native has no file to load its C functions from")
    return ctypes.CDLL(path), path


_lib, _lib_path = _load()
_missing = set()
for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    try:
        _fn = getattr(_lib, _name)
    except AttributeError:
        if _name not in _OPTIONAL:
            raise ImportError(f"{_lib_path} has no {_name}: not an othello library?") from None
        _missing.add(_name)
        continue
    _fn.restype = _restype
    _fn.argtypes = _argtypes
del _name, _restype, _argtypes


def has_function(name: str) -> bool:
    """Whether the loaded library has the C function ``name``."""
    return name in _PROTOTYPES and name not in _missing


def _check_version() -> None:
    lib = bytes(_lib.othello_version()).decode()
    have = [int(x) for x in lib.split(".")[:3]]
    want = [int(x) for x in HEADER_VERSION.split(".")]
    # The ABI promise (docs/guide.md): 0.y releases are compatible within y, x.y
    # releases (x >= 1) within x with y at least the one built against.
    same = have[0] == want[0] and (have[1] == want[1] if want[0] == 0 else have[1] >= want[1])
    if not same:
        raise ImportError(
            f"{_lib_path} is othello {lib}, not compatible with the {HEADER_VERSION} "
            "API this module declares"
        )


_check_version()


def library_path() -> str:
    """The path (or name) the shared library was loaded from."""
    return _lib_path


# ---------------------------------------------------------------------------
# Handles: counted, and freed deterministically or on garbage collection

_live = {"engine": 0}
_live_lock = threading.Lock()


def live_handles() -> Dict[str, int]:
    """How many board and engine handles are allocated and not yet freed."""
    with _live_lock:
        return {"board": _native._live_boards(), **_live}


# A board or engine handle (a ctypes pointer) and the function freeing it.
_Handle = Any
_FreeFn = Callable[[_Handle], None]


def _free(kind: str, free_fn: _FreeFn, handle: _Handle) -> None:
    free_fn(handle)
    with _live_lock:
        _live[kind] -= 1


def _adopt(obj: "Engine", kind: str, handle: _Handle, free_fn: _FreeFn) -> None:
    if not handle:
        raise _error(_lib.othello_last_status())
    with _live_lock:
        _live[kind] += 1
    obj._handle = handle
    # finalize() runs once: at close(), at garbage collection or at exit.
    obj._finalizer = weakref.finalize(obj, _free, kind, free_fn, handle)


# ---------------------------------------------------------------------------
# Squares


class Square(int):
    """A square index (``row * size + col``: 0..63 on the 8x8 board) that
    prints as its name, or ``PASS`` (-1). ``Square("f5")`` parses a name
    (either case; ``"pass"`` or ``"pa"`` for a pass), ``Square(37)`` checks
    an index; ``size=10`` does the same on the 10x10 board (``"j10"``)."""

    size: int

    def __new__(cls, value: Union[str, int], size: int = 8) -> "Square":
        if isinstance(value, Square) and value.size == size:
            return value
        size = _c_int(size, "size")
        if isinstance(value, str):
            text = value.strip()
            if text.lower() in ("pass", "pa", "ps"):
                index = PASS
            else:
                out = c_int()
                if size == 8:
                    _check(_lib.othello_square_parse(text.encode(), byref(out)))
                else:
                    _check(_lib.othello_square_parse_sized(size, text.encode(), byref(out)))
                index = out.value
        elif isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"a square is a name like 'f5' or an index, not {value!r}")
        else:
            index = int(value)
            if index != PASS and not 0 <= index < size * size:
                raise InvalidSquareError(
                    Status.INVALID_SQUARE, f"square {index} is outside 0..{size * size - 1}"
                )
        sq = int.__new__(cls, index)
        sq.size = size
        return sq

    @property
    def name(self) -> str:
        if self == PASS:
            return "pass"
        return square_name(int(self), self.size)

    @property
    def row(self) -> int:
        return int(self) // self.size

    @property
    def col(self) -> int:
        return int(self) % self.size

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        if self.size == 8:
            return f"Square({self.name!r})"
        return f"Square({self.name!r}, size={self.size})"


# The native module's rules return these Square objects and raise these
# exceptions (_error: the class of a status).
_native._init(Square, lambda status, message: _error(status, message), tuple(Color))


def square(value: Union[str, int], size: int = 8) -> Square:
    """``Square(value, size)``: a name or index checked, as a Square."""
    return Square(value, size)


def square_name(index: int, size: int = 8) -> str:
    """The name of square ``index`` of the ``size`` board: ``"f5"``
    (``othello_square_name``, ``othello_square_name_sized``)."""
    buf = ctypes.create_string_buffer(4)
    if size == 8:
        _check(_lib.othello_square_name(_c_int(index, "square"), buf, len(buf)))
    else:
        _check(
            _lib.othello_square_name_sized(
                _c_int(size, "size"), _c_int(index, "square"), buf, len(buf)
            )
        )
    return buf.value.decode()


def _c_int(value: int, what: str) -> int:
    """``value`` if it fits a C int (ctypes would silently truncate it)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {value!r}")
    if not _INT_MIN <= value <= _INT_MAX:
        cls = InvalidSquareError if what == "square" else InvalidArgumentError
        status = Status.INVALID_SQUARE if what == "square" else Status.INVALID_ARGUMENT
        raise cls(status, f"{what} {value} does not fit a C int")
    return value


# ---------------------------------------------------------------------------
# Free functions


def version() -> str:
    """The library version, ``"MAJOR.MINOR.PATCH"`` (``othello_version``)."""
    return bytes(_lib.othello_version()).decode()


def status_message(status: Union[Status, int]) -> str:
    """The English description of a status code."""
    return bytes(_lib.othello_status_message(int(status))).decode()


def last_error() -> Tuple[Union[Status, int], str]:
    """This thread's last failure: (status, detail message); the status is
    a plain int if it is a code newer than this module."""
    needed = c_size_t(0)
    st = _lib.othello_last_error(None, 0, byref(needed))
    text = ""
    if st == Status.BUFFER_TOO_SMALL:
        buf = ctypes.create_string_buffer(needed.value)
        _check(_lib.othello_last_error(buf, len(buf), None))
        text = buf.value.decode(errors="replace")
    code = int(_lib.othello_last_status())
    try:
        return Status(code), text
    except ValueError:
        return code, text


def _text(call: Callable[[Any, int, Any], int]) -> str:
    """Calls ``call(buf, len, out_n)``; on BUFFER_TOO_SMALL again with the
    size it asked for."""
    buf = ctypes.create_string_buffer(128)
    needed = c_size_t(0)
    st = call(buf, len(buf), byref(needed))
    if st == Status.BUFFER_TOO_SMALL:
        buf = ctypes.create_string_buffer(needed.value)
        st = call(buf, len(buf), byref(needed))
    _check(st)
    return buf.value.decode()


# ---------------------------------------------------------------------------
# Board


class Board(_native.Board):
    """A game: position, side to move and history (``othello_board``).

    ``Board()`` is the standard start (``Board(size=10)`` that of the 10x10
    board, any even size 4..16); ``Board.from_string(s)`` and
    ``Board.from_transcript(t)`` parse the text forms; ``copy()`` clones. A
    board is a context manager; ``close()`` frees it at once, otherwise it
    is freed when garbage collected. A board may be used from one thread at
    a time while it is modified (the library's rule).

    The rules run in the package's native module (``othello._native``,
    the class this one extends): a game loop's calls (``legal_moves()``,
    ``play()``, ``is_game_over``, ...) cost what a native method costs. For
    bulk work: ``legal_mask()`` and ``bitboards()`` give the position as bit
    masks, ``to_numpy()``/``from_numpy()`` and ``planes()`` as arrays, and
    ``random_games()`` plays many games in one call."""

    @property
    def _h(self) -> int:
        """The ``othello_board *`` for the C functions (raises on a closed
        board)."""
        return self._address

    def _squares(self, values: Iterable[int]) -> List[Square]:
        size = self.size
        return [Square(v, size) for v in values]

    def __enter__(self) -> "Board":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __copy__(self) -> "Board":
        return self.copy()

    def __deepcopy__(self, memo: object) -> "Board":
        return self.copy()

    def __str__(self) -> str:
        """What ``print(board)`` shows: the grid (``grid()``) and a line
        saying who is to move, or the final count. ``to_string()`` is the
        one-line board string."""
        if self.closed:
            return repr(self)
        if self.is_game_over:
            black, white = self.count(Color.BLACK), self.count(Color.WHITE)
            status = f"game over: black (X) {black}, white (O) {white}"
        else:
            side = "black (X)" if self.side_to_move == Color.BLACK else "white (O)"
            status = f"{side} to move"
        return f"{self.grid()}\n{status}"

    def __repr__(self) -> str:
        if self.closed:
            return "<othello.Board (closed)>"
        return f"<othello.Board {self.to_string()!r}>"

    def grid(self) -> str:
        """The board as rows of text, a1 top left."""
        text = self.to_string()
        n = self.size
        width = len(str(n))
        rows = [" " * width + " " + " ".join("abcdefghijklmnop"[:n])]
        for r in range(n):
            rows.append(f"{r + 1:>{width}} " + " ".join(text[r * n : r * n + n]))
        return "\n".join(rows)

    def best_move(self, level: int = 10) -> Square:
        """The move a fresh engine plays at ``level`` (``othello_board_best_move``)."""
        out = c_int()
        _check(_lib.othello_board_best_move(self._h, _c_level(level), byref(out)))
        return Square(out.value, self.size)

    # -- arrays (numpy is optional: only these need it)

    def to_numpy(self) -> "numpy.ndarray[Any, Any]":
        """The board as a ``size`` x ``size`` numpy array of int8, row 0 being
        rank 1: 0 empty, 1 black, 2 white (the ``Color`` values)."""
        np = _numpy()
        cells: numpy.ndarray[Any, Any] = np.frombuffer(self._cells(), dtype=np.int8)
        return cells.reshape(self.size, self.size).copy()

    @classmethod
    def from_numpy(
        cls, array: "numpy.ndarray[Any, Any]", side_to_move: Union[Color, int] = Color.BLACK
    ) -> "Board":
        """A board (without history) from a square array of 0/1/2 as
        ``to_numpy()`` gives, ``side_to_move`` to move; ``ParseError`` for
        a shape or value the library cannot take."""
        np = _numpy()
        cells = np.asarray(array)
        if cells.ndim != 2 or cells.shape[0] != cells.shape[1]:
            raise ParseError(
                Status.PARSE_ERROR, f"a board array is square, not of shape {cells.shape}"
            )
        if not np.isin(cells, (0, 1, 2)).all():
            raise ParseError(Status.PARSE_ERROR, "a board array holds only 0, 1 and 2")
        side = {1: "X", 2: "O"}.get(int(side_to_move))
        if side is None:
            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT, "side_to_move is Color.BLACK or Color.WHITE"
            )
        text = "".join("-XO"[int(v)] for v in cells.reshape(-1))
        return cls.from_string(f"{text} {side}")

    def planes(self) -> "numpy.ndarray[Any, Any]":
        """Feature planes for a network: a ``(3, size, size)`` uint8 array of
        the side to move's discs, the opponent's discs and the legal moves
        (1 where set)."""
        np = _numpy()
        cells = self.to_numpy()
        me = int(self.side_to_move)
        legal = np.zeros(self.size * self.size, dtype=np.uint8)
        legal[self.legal_moves()] = 1
        planes: numpy.ndarray[Any, Any] = np.stack(
            [
                (cells == me).astype(np.uint8),
                (cells == 3 - me).astype(np.uint8),
                legal.reshape(self.size, self.size),
            ]
        )
        return planes


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise ImportError("this call needs numpy (pip install numpy)") from None
    return numpy


@dataclass(frozen=True)
class RandomGames:
    """Games of uniformly random moves (``random_games()``), stored
    compactly. ``moves`` holds one row of ``stride`` squares per game: its
    moves in order, then -1s (passes are implied: a side without a legal
    move passes). ``lengths`` holds each game's number of moves, ``scores``
    each final score: black's discs minus white's, the empty squares counted
    for the winner. All three are ``array.array('h')`` (int16);
    ``to_numpy()`` gives them as arrays."""

    start: str
    """The board string of the position every game starts from."""
    stride: int
    moves: array.array[int]
    lengths: array.array[int]
    scores: array.array[int]

    def __len__(self) -> int:
        return len(self.lengths)

    def game(self, index: int) -> List[Square]:
        """The moves of game ``index``."""
        size = _board_string_size(self.start)
        row = self.moves[index * self.stride : index * self.stride + self.lengths[index]]
        return [Square(sq, size) for sq in row]

    def board(self, index: int) -> Board:
        """Game ``index`` replayed from the start: its history is the game's
        turns, passes included (undo steps back through it)."""
        b = Board.from_string(self.start)
        for sq in self.game(index):
            while b.must_pass:
                b.pass_turn()
            b.play(sq)
        return b

    def to_numpy(
        self,
    ) -> "Tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]":
        """``(moves, lengths, scores)`` as int16 arrays, ``moves`` of shape
        ``(len(self), stride)``."""
        np = _numpy()
        moves = np.frombuffer(self.moves, dtype=np.int16).reshape(len(self), self.stride)
        return (
            moves.copy(),
            np.frombuffer(self.lengths, dtype=np.int16).copy(),
            np.frombuffer(self.scores, dtype=np.int16).copy(),
        )


def _board_string_size(text: str) -> int:
    return int(round((len(text.split()[0])) ** 0.5))


def random_games(count: int, seed: Optional[int] = None, start: Optional[Board] = None) -> RandomGames:
    """Plays ``count`` games of uniformly random moves from ``start`` (the
    standard 8x8 start by default) in one call, with the GIL released: the
    fastest way to make positions for training. ``seed`` (0 .. 2**64 - 1)
    makes the games reproducible; None draws one from the system."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"count must be an int, not {count!r}")
    if count < 0:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"count {count} is negative")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"seed {seed} is outside 0..2**64-1")
    if start is None:
        start = Board()
    elif not isinstance(start, Board):
        raise TypeError("start must be a Board")
    moves, lengths, scores, stride = _native._random_games(start, count, seed)
    columns = []
    for data in (moves, lengths, scores):
        column = array.array("h")
        column.frombytes(data)
        columns.append(column)
    return RandomGames(start.to_string(), stride, columns[0], columns[1], columns[2])


def _c_level(level: int) -> int:
    return _c_int(level, "level")


# ---------------------------------------------------------------------------
# Engine


@dataclass(frozen=True)
class SearchProgress:
    """Reported to a progress callback after each completed iteration."""

    depth: int
    score: int
    exact: bool
    best_move: Square
    pv: List[Square]
    nodes: int
    elapsed_ms: int


@dataclass(frozen=True)
class SearchResult:
    """The outcome of ``Engine.search``: ``move`` is ``Square(PASS)`` when
    the side to move must pass; ``score`` is in discs for the side to move.
    ``from_book``: the move came from the opening book (``score`` is the
    book's value, ``depth`` and ``nodes`` are 0, ``pv`` the book's line)."""

    move: Square
    score: int
    exact: bool
    wld: bool
    depth: int
    nodes: int
    elapsed_ms: int
    stopped: bool
    pv: List[Square]
    from_book: bool


@dataclass(frozen=True)
class MoveScore:
    """One move of ``Engine.analyze`` or ``Engine.book_moves``."""

    move: Square
    score: int
    exact: bool


_LIMIT_FIELDS = {
    # name: (C range low, high)
    "level": (_INT_MIN, _INT_MAX),
    "depth": (_INT_MIN, _INT_MAX),
    "exact_empties": (_INT_MIN, _INT_MAX),
    "wld_empties": (_INT_MIN, _INT_MAX),
    "node_limit": (0, 2**64 - 1),
    "time_limit_ms": (-(2**63), 2**63 - 1),
    "strategy": (_INT_MIN, _INT_MAX),
    "classic_depth": (_INT_MIN, _INT_MAX),
    "randomness": (_INT_MIN, _INT_MAX),
    "seed": (0, 2**64 - 1),
    "selectivity": (_INT_MIN, _INT_MAX),
    "book": (_INT_MIN, _INT_MAX),
    "threads": (_INT_MIN, _INT_MAX),
    "clock_remaining_ms": (-(2**63), 2**63 - 1),
    "clock_increment_ms": (-(2**63), 2**63 - 1),
}


class Engine:
    """A search engine with its transposition table (``othello_engine``).

    One search at a time per engine (a concurrent one raises ``BusyError``);
    ``stop()`` may be called from any thread. Searches release the GIL, so
    other Python threads run meanwhile. A context manager; freed by
    ``close()`` or on garbage collection (never while it searches)."""

    _handle: _Handle
    _finalizer: weakref.finalize[..., Any]

    def __init__(self, hash_mb: int = 0) -> None:
        if isinstance(hash_mb, bool) or not isinstance(hash_mb, int):
            raise TypeError("hash_mb must be an int")
        if not 0 <= hash_mb < 2**63:
            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT, f"hash_mb {hash_mb} is outside 0..65536"
            )
        _adopt(self, "engine", _lib.othello_engine_new(hash_mb), _lib.othello_engine_free)

    @property
    def _h(self) -> _Handle:
        if not self._finalizer.alive:
            raise ValueError("operation on a closed Engine")
        return self._handle

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def close(self) -> None:
        """Frees the library's engine now (idempotent). Not during a search."""
        self._finalizer()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<othello.Engine{' (closed)' if self.closed else ''}>"

    def clear(self) -> None:
        """Forgets the transposition table (for a new game); BusyError while
        a search runs on the engine."""
        _check(_lib.othello_engine_clear(self._h))

    def stop(self) -> None:
        """Asks the running search to return now with its best move so far,
        and ends the pondering. Any thread; no effect when no search runs."""
        if not self.closed:
            _lib.othello_engine_stop(self._handle)

    def ponder(self, after: Board, **limits: int) -> Square:
        """Thinks on the opponent's time: ``after`` is the position after the
        engine's move, ``limits`` (as for ``search()``, without ``progress``)
        those of its next search. Returns at once with the reply the engine
        expects (a pass when the opponent must pass) and searches the position
        it leads to on a thread of the library's. The next ``search()``,
        ``analyze()``, ``clear()``, change of the engine, ``stop()`` or
        ``close()`` ends it; a ``search()`` of the expected position under the
        same limits but for the time takes it over as its own search, begun
        early."""
        if not isinstance(after, Board):
            raise TypeError("ponder() needs a Board")
        lim = self._limits(limits)
        expected = c_int(PASS)
        _check(_lib.othello_engine_ponder(self._h, after._h, byref(lim), byref(expected)))
        return Square(expected.value, after.size)

    @staticmethod
    def _limits(fields: Dict[str, int]) -> _SearchLimits:
        lim = _SearchLimits()
        _check(_lib.othello_search_limits_init_(byref(lim), sizeof(_SearchLimits)))
        explicit = any(k in fields for k in ("depth", "exact_empties", "wld_empties"))
        if explicit and "level" not in fields:
            lim.level = -1
        for name, value in fields.items():
            if name not in _LIMIT_FIELDS:
                raise TypeError(f"unknown search limit {name!r}")
            if name == "book" and isinstance(value, bool):
                value = int(value)  # a yes/no field: book=False reads well
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"limits.{name} must be an int, not {value!r}")
            low, high = _LIMIT_FIELDS[name]
            if not low <= value <= high:
                raise InvalidArgumentError(
                    Status.INVALID_ARGUMENT, f"limits.{name} {value} does not fit its C type"
                )
            setattr(lim, name, int(value))
        return lim

    def search(
        self,
        board: Board,
        progress: Optional[Callable[[SearchProgress], None]] = None,
        **limits: int,
    ) -> SearchResult:
        """Searches ``board`` for the side to move.

        ``limits`` are the fields of ``othello_search_limits``: ``level``
        (default 10), or ``depth``/``exact_empties``/``wld_empties`` (level -1
        is then implied), ``node_limit``, ``time_limit_ms``, ``strategy``,
        ``classic_depth``, ``randomness``, ``seed``, ``selectivity`` (0..5,
        -1 = the level's), ``book`` (play from the opening book when the
        position is in it: 1 or True, 0 or False, -1 = the level's: yes from
        level 1 except by a ``time_limit_ms`` without a clock, no at level 0
        and with explicit depths), ``threads`` (0..256:
        1, the default, searches on the calling thread alone, reproducibly;
        N > 1 adds N - 1 helper threads, exact scores stay exact but moves
        among equal ones, midgame scores and node counts may vary from run
        to run; 0 = one per core), ``clock_remaining_ms`` and
        ``clock_increment_ms`` (the side to move's game clock: time left, -1
        for none, and the increment of each move). ``progress`` is
        called on the searching thread after each iteration with a
        ``SearchProgress`` (never for a book move); if it raises, the search
        is stopped and the exception re-raised here.
        """
        if not isinstance(board, Board):
            raise TypeError("search() needs a Board")
        h = self._h
        lim = self._limits(limits)
        size = board.size
        failure: List[BaseException] = []

        def trampoline(p: Any, _userdata: Any) -> None:
            if failure:
                # Stopped: the library may still finish cheap iterations
                # (it looks at the stop flag every few thousand nodes).
                return
            try:
                info = p.contents
                progress(  # type: ignore[misc]
                    SearchProgress(
                        depth=info.depth,
                        score=info.score,
                        exact=bool(info.exact),
                        best_move=Square(info.best_move, size),
                        pv=[Square(v, size) for v in info.pv[: info.pv_len]],
                        nodes=info.nodes,
                        elapsed_ms=info.elapsed_ms,
                    )
                )
            except BaseException as e:  # noqa: BLE001 - never unwind into C
                if not failure:
                    failure.append(e)
                _lib.othello_engine_stop(h)

        callback = _ProgressFn(trampoline) if progress is not None else _ProgressFn()
        lim.progress = callback
        out = _SearchResult()
        _check(_lib.othello_search_result_init_(byref(out), sizeof(_SearchResult)))
        st = _lib.othello_engine_search(h, board._h, byref(lim), byref(out))
        del callback  # kept alive until the search returned
        if failure:
            raise failure[0]
        _check(st)
        return SearchResult(
            move=Square(out.move, size),
            score=out.score,
            exact=bool(out.exact),
            wld=bool(out.wld),
            depth=out.depth,
            nodes=out.nodes,
            elapsed_ms=out.elapsed_ms,
            stopped=bool(out.stopped),
            pv=board._squares(out.pv[: min(out.pv_len, PV_MAX)]),
            from_book=bool(out.from_book),
        )

    @property
    def evaluation(self) -> Evaluation:
        """The evaluation the engine searches with; settable (not during a
        search: ``BusyError``)."""
        return Evaluation(_lib.othello_engine_get_evaluation(self._h))

    @evaluation.setter
    def evaluation(self, value: Union[Evaluation, int]) -> None:
        _check(_lib.othello_engine_set_evaluation(self._h, _c_int(int(value), "evaluation")))

    def load_weights(self, source: Union[str, os.PathLike[str], bytes, bytearray]) -> None:
        """Loads trained pattern weights, from a file path or from the bytes
        of such a file, and searches with them (``Evaluation.TRAINED``).
        ``InvalidArgumentError`` for an unreadable or corrupt file."""
        self._load(source, _lib.othello_engine_load_weights, _lib.othello_engine_load_weights_buffer)

    def _load(
        self,
        source: Union[str, os.PathLike[str], bytes, bytearray],
        from_path: Callable[[_Handle, bytes], int],
        from_buffer: Callable[[_Handle, Any, int], int],
    ) -> None:
        """Calls ``from_buffer`` with the bytes of ``source``, or ``from_path``
        with its path: the loaders of weights and books."""
        if isinstance(source, (bytes, bytearray)):
            data = (ctypes.c_uint8 * len(source)).from_buffer_copy(source)
            _check(from_buffer(self._h, data, len(source)))
        else:
            _check(from_path(self._h, os.fsencode(source)))

    @property
    def book(self) -> Book:
        """The opening book the engine plays from (a new engine has
        ``Book.BUILTIN``); settable to ``Book.NONE`` or ``Book.BUILTIN``
        (``InvalidArgumentError`` for ``Book.LOADED``: use ``load_book``;
        ``BusyError`` during a search)."""
        return Book(_lib.othello_engine_get_book(self._h))

    @book.setter
    def book(self, value: Union[Book, int]) -> None:
        _check(_lib.othello_engine_set_book(self._h, _c_int(int(value), "book")))

    def load_book(self, source: Union[str, os.PathLike[str], bytes, bytearray]) -> None:
        """Loads an opening book, from a file path or from the bytes of such
        a file (written by ``othello-book merge``), and plays from it
        (``Book.LOADED``). ``InvalidArgumentError`` for an unreadable,
        corrupt or foreign file; the engine then keeps its book."""
        self._load(source, _lib.othello_engine_load_book, _lib.othello_engine_load_book_buffer)

    def book_moves(self, board: Board) -> List[MoveScore]:
        """The moves the engine's book knows in ``board``'s position, best
        first, valued in discs for the side to move (``exact`` False); []
        when the position is not in the book, there is no book, or the
        board is not 8x8."""
        if not isinstance(board, Board):
            raise TypeError("book_moves() needs a Board")
        h = self._h
        n = c_size_t(0)
        _check(_lib.othello_engine_book_moves(h, board._h, None, 0, byref(n)))
        buf = (_MoveScore * max(n.value, 1))()
        _check(_lib.othello_engine_book_moves(h, board._h, buf, n.value, byref(n)))
        size = board.size
        return [MoveScore(Square(m.move, size), m.score, bool(m.exact)) for m in buf[: n.value]]

    def analyze(self, board: Board, **limits: int) -> List[MoveScore]:
        """Scores every legal move of the side to move, best first (the
        limits as for ``search``; [] when the side to move must pass)."""
        if not isinstance(board, Board):
            raise TypeError("analyze() needs a Board")
        h = self._h
        lim = self._limits(limits)
        n = c_size_t(0)
        _check(_lib.othello_engine_analyze(h, board._h, byref(lim), None, 0, byref(n)))
        buf = (_MoveScore * max(n.value, 1))()
        _check(_lib.othello_engine_analyze(h, board._h, byref(lim), buf, n.value, byref(n)))
        size = board.size
        return [MoveScore(Square(m.move, size), m.score, bool(m.exact)) for m in buf[: n.value]]
