"""Tests of the othello package, run with pytest against the INSTALLED
package (a wheel in a virtual environment), never the checkout's python/:

    pip install ./python pytest     # in a virtual environment
    cd /tmp && python -m pytest -p no:cacheprovider /path/to/checkout/python/tests

pyproject.toml's --import-mode=importlib keeps python/ off sys.path, and a
directory outside the checkout keeps it out of the way of ``python -m``;
InstalledTest checks that ``import othello`` found the installed copy and
its library. `cargo test --test bindings` builds the wheel, installs it into
a fresh virtual environment and runs these tests there (tests/bindings.rs).
The checkout (include/othello.h, weights/book.bin, Cargo.toml) is found
from this file's path.
"""

from __future__ import annotations

import ctypes
import gc
import importlib.metadata
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from typing import Dict, List, Optional

import othello
from othello import Color, Square

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE = Path(othello.__file__).resolve().parent

# FFO endgame position #1 (14 empties) and the exact scores of its moves.
FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
FFO1_SCORES = {"g8": 18, "h1": 12, "h7": 6, "a2": 6, "a3": 4, "b1": -4, "a4": -22, "g2": -24}

# White to move has no move (h8 flips nothing for it) and must pass; black has h8.
PASS_POSITION = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O"


class BoardTest(unittest.TestCase):
    def test_start_position(self):
        with othello.Board() as b:
            self.assertEqual(b.side_to_move, Color.BLACK)
            self.assertEqual(b.count(Color.BLACK), 2)
            self.assertEqual(b.count(Color.WHITE), 2)
            self.assertEqual(b.count(Color.EMPTY), 60)
            self.assertEqual([str(m) for m in b.legal_moves()], ["d3", "c4", "f5", "e6"])
            self.assertEqual(b.legal_moves(), [19, 26, 37, 44])
            self.assertEqual(b["d4"], Color.WHITE)
            self.assertEqual(b[28], Color.BLACK)  # e4
            self.assertEqual(b.mobility(Color.WHITE), 4)
            self.assertTrue(b.is_legal("F5") and b.is_legal(37) and not b.is_legal("a1"))
            self.assertEqual(b.flips("f5"), [Square("e5")])
            self.assertEqual(b.move_number, 1)
            self.assertFalse(b.can_undo or b.can_redo or b.must_pass or b.is_game_over)
            self.assertEqual(b.history(), [])
            self.assertEqual(b.transcript(), "")

    def test_text_forms(self):
        with othello.Board() as b:
            b.play("f5")
            lines = str(b).splitlines()
            self.assertEqual(lines[0], "  a b c d e f g h")
            self.assertEqual(lines[5], "5 - - - X X X - -")
            self.assertEqual(lines[-1], "white (O) to move")
            self.assertEqual(b.to_string()[-2:], " O")
            self.assertEqual(repr(b), f"<othello.Board {b.to_string()!r}>")
        with othello.Board.from_string("X" * 63 + "- X") as b:
            self.assertTrue(b.is_game_over)
            self.assertEqual(str(b).splitlines()[-1], "game over: black (X) 63, white (O) 0")
        self.assertEqual(str(b), "<othello.Board (closed)>")

    def test_squares(self):
        self.assertEqual(Square("a1"), 0)
        self.assertEqual(Square("H8"), 63)
        self.assertEqual(str(Square(37)), "f5")
        self.assertEqual(repr(Square("f5")), "Square('f5')")
        self.assertEqual(Square("pass"), othello.PASS)
        self.assertEqual(othello.square_name(7), "h1")
        self.assertEqual((Square("c7").row, Square("c7").col), (6, 2))

    def test_whole_game(self):
        """Engine against engine to the end: passes, history, text forms."""
        with othello.Board() as b, othello.Engine(hash_mb=1) as e:
            passes = 0
            while not b.is_game_over:
                r = e.search(b, level=1, randomness=4, seed=7)
                if r.move == othello.PASS:
                    self.assertTrue(b.must_pass)
                    passes += 1
                else:
                    self.assertIn(r.move, b.legal_moves())
                b.play(r.move)
            black, white = b.count(Color.BLACK), b.count(Color.WHITE)
            self.assertLessEqual(black + white, 64)
            self.assertEqual(black + white + b.count(Color.EMPTY), 64)
            history = b.history()
            self.assertEqual(len(history), b.move_number - 1)
            self.assertEqual(history.count(othello.PASS), passes)
            with self.assertRaises(othello.GameOverError):
                e.search(b)
            with self.assertRaises(othello.GameOverError):
                b.best_move(1)
            # The transcript replays to the same position.
            with othello.Board.from_transcript(b.transcript()) as replay:
                self.assertEqual(replay.to_string()[:64], b.to_string()[:64])
                self.assertEqual(replay.history(), history)

    def test_undo_redo(self):
        with othello.Board.from_transcript("f5d6c3") as b:
            after = b.to_string()
            self.assertEqual(b.move_number, 4)
            b.undo()
            b.undo()
            self.assertEqual(b.move_number, 2)
            self.assertTrue(b.can_redo)
            b.redo()
            b.redo()
            self.assertEqual(b.to_string(), after)
            with self.assertRaises(othello.NothingToRedoError):
                b.redo()
            b.undo()
            other = next(m for m in b.legal_moves() if str(m) != "c3")
            b.play(other)  # a new move clears the redo list
            self.assertFalse(b.can_redo)
            for _ in range(3):
                b.undo()
            with self.assertRaises(othello.NothingToUndoError):
                b.undo()
            self.assertEqual(b.to_string(), othello.Board().to_string())

    def test_pass(self):
        with othello.Board.from_string(PASS_POSITION) as b:
            self.assertTrue(b.must_pass)
            self.assertEqual(b.legal_moves(), [])
            with othello.Engine(1) as e:
                self.assertEqual(e.search(b).move, othello.PASS)
                self.assertEqual(e.analyze(b), [])
            b.pass_turn()
            self.assertEqual(b.side_to_move, Color.BLACK)
            self.assertEqual(b.history(), [othello.PASS])
            with self.assertRaises(othello.CannotPassError):
                othello.Board().pass_turn()

    def test_sized_boards(self):
        with othello.Board(size=10) as b:
            self.assertEqual(b.size, 10)
            self.assertEqual(b.count(Color.EMPTY), 96)
            moves = b.legal_moves()
            self.assertEqual(len(moves), 4)
            self.assertTrue(all(m.size == 10 for m in moves))
            self.assertEqual(Square("j10", size=10), 99)
            self.assertEqual(str(Square(99, size=10)), "j10")
            self.assertEqual(repr(Square(99, size=10)), "Square('j10', size=10)")
            with self.assertRaises(othello.ParseError):
                Square("k1", size=10)
            flipped = b.play(str(moves[0]))
            self.assertEqual(len(flipped), 1)
            self.assertIn(f"\n10 ", b.grid())
            with b.copy() as c, othello.Board.from_transcript(b.transcript(), size=10) as t:
                self.assertEqual(c.size, 10)
                self.assertEqual(t.to_string(), b.to_string())
                self.assertEqual(t.history(), b.history())
        with othello.Board.from_transcript("", size=6) as b, othello.Engine(1) as e:
            self.assertEqual(b.size, 6)
            while not b.is_game_over:
                r = e.search(b, level=2)
                self.assertEqual(r.move.size, 6)
                b.play(r.move)
            self.assertEqual(b.count(Color.BLACK) + b.count(Color.WHITE) + b.count(Color.EMPTY), 36)
        with self.assertRaises(othello.InvalidArgumentError):
            othello.Board(size=5)

    def test_copy_is_independent(self):
        with othello.Board() as a:
            a.play("f5")
            with a.copy() as b:
                b.play("d6")
                self.assertEqual(a.move_number, 2)
                self.assertEqual(b.move_number, 3)
                self.assertEqual(b.history(), [Square("f5"), Square("d6")])

    def test_bad_input(self):
        b = othello.Board()
        with self.assertRaises(othello.IllegalMoveError) as cm:
            b.play("a1")
        self.assertEqual(cm.exception.status, othello.Status.ILLEGAL_MOVE)
        self.assertIn("a1", cm.exception.message)
        self.assertIsInstance(cm.exception, ValueError)
        with self.assertRaises(othello.InvalidSquareError):
            b.play(64)
        with self.assertRaises(othello.InvalidSquareError):
            b.play(2**40)  # too big for a C int: not truncated
        with self.assertRaises(othello.InvalidSquareError):
            b[-5]
        with self.assertRaises(othello.ParseError):
            b.play("z9")
        with self.assertRaises(othello.ParseError):
            Square("f55")
        with self.assertRaises(othello.InvalidSquareError):
            othello.square_name(99)
        with self.assertRaises(othello.ParseError) as cm:
            othello.Board.from_string("X" * 10)
        self.assertIn("board string", cm.exception.message)
        with self.assertRaises(othello.ParseError) as cm:
            othello.Board.from_transcript("f5d6z9")
        self.assertIn("z9", cm.exception.message)
        with self.assertRaises(othello.IllegalMoveError):
            b.flips("d4")
        with self.assertRaises(othello.InvalidArgumentError):
            b.count(7)
        status, message = othello.last_error()
        self.assertEqual(status, othello.Status.INVALID_ARGUMENT)
        self.assertIn("7", message)
        with self.assertRaises(TypeError):
            b.play(3.5)
        with self.assertRaises(TypeError):
            othello.Board.from_string(None)
        # The failed calls changed nothing.
        self.assertEqual(b.to_string(), othello.Board().to_string())
        self.assertEqual(
            othello.status_message(othello.Status.ILLEGAL_MOVE),
            othello.status_message(3),
        )
        b.close()
        with self.assertRaises(ValueError):
            b.legal_moves()


class EngineTest(unittest.TestCase):
    def test_exact_endgame(self):
        with othello.Board.from_string(FFO1) as b, othello.Engine(16) as e:
            r = e.search(b, level=10)
            self.assertEqual((str(r.move), r.score, r.exact), ("g8", 18, True))
            self.assertEqual(r.pv[0], r.move)
            scores = {str(m.move): m.score for m in e.analyze(b, level=10)}
            self.assertEqual(scores, FFO1_SCORES)
            # explicit depth limits imply level -1
            r = e.search(b, depth=2, exact_empties=14, wld_empties=14)
            self.assertEqual((str(r.move), r.score), ("g8", 18))

    def test_progress_callback(self):
        seen = []
        with othello.Board() as b, othello.Engine(16) as e:
            b.play("f5")
            # book=0: the opening book would answer f5 without iterations.
            r = e.search(b, level=7, book=0, progress=seen.append)
        self.assertGreaterEqual(len(seen), 2)
        depths = [p.depth for p in seen]
        self.assertEqual(depths, sorted(depths))
        self.assertEqual(depths[-1], 7)
        for p in seen:
            self.assertIsInstance(p, othello.SearchProgress)
            self.assertEqual(p.pv[0], p.best_move)
            self.assertGreater(p.nodes, 0)
        self.assertEqual(seen[-1].best_move, r.move)
        self.assertEqual(seen[-1].score, r.score)
        self.assertEqual(threading.current_thread(), threading.main_thread())

    def test_exception_in_callback_stops_the_search(self):
        class Enough(Exception):
            pass

        calls = []

        def progress(p):
            calls.append(p.depth)
            raise Enough()

        with othello.Board() as b, othello.Engine(16) as e:
            started = time.monotonic()
            with self.assertRaises(Enough):
                e.search(b, level=60, book=0, time_limit_ms=20000, progress=progress)
            self.assertLess(time.monotonic() - started, 10)
            self.assertEqual(len(calls), 1)
            # The engine is usable again.
            self.assertFalse(e.search(b, level=2).stopped)

    def test_stop_from_another_thread(self):
        running = threading.Event()
        out = {}
        with othello.Board() as b, othello.Engine(16) as e:

            def work():
                out["result"] = e.search(
                    b, level=60, book=0, time_limit_ms=30000, progress=lambda p: running.set()
                )

            t = threading.Thread(target=work)
            started = time.monotonic()
            t.start()
            self.assertTrue(running.wait(20), "the search reported no progress")
            e.stop()
            t.join(20)
            self.assertFalse(t.is_alive(), "stop() did not end the search")
            self.assertLess(time.monotonic() - started, 20)
            r = out["result"]
            self.assertTrue(r.stopped)
            self.assertIn(r.move, b.legal_moves())
            e.stop()  # no search running: no effect
            self.assertFalse(e.search(b, level=1).stopped)

    def test_ponder(self):
        """Pondering after g8 expects a legal reply; the search after it stays
        exact; stop() and close() end it; bad input raises."""
        with othello.Board.from_string(FFO1) as b, othello.Engine(16) as e:
            b.play("g8")
            expected = e.ponder(b, level=10)
            self.assertIn(expected, b.legal_moves())
            b.play(expected)
            r = e.search(b, level=10)
            self.assertTrue(r.exact and not r.stopped)
            self.assertGreaterEqual(r.score, 18)
            self.assertIn(e.ponder(b, level=60, clock_remaining_ms=600000), b.legal_moves())
            e.stop()
            self.assertFalse(e.search(b, level=1).stopped)
            with self.assertRaises(othello.InvalidArgumentError):
                e.ponder(b, level=61)
            with self.assertRaises(TypeError):
                e.ponder("g8")  # type: ignore[arg-type]
            e.ponder(b, level=60, clock_remaining_ms=600000)
        with othello.Board.from_string("X" * 64 + " X") as over, othello.Engine(1) as e:
            with self.assertRaises(othello.GameOverError):
                e.ponder(over)

    def test_busy(self):
        """A second search on a busy engine raises BusyError; others run."""
        inside = threading.Event()
        release = threading.Event()
        errors = []
        with othello.Board() as b, othello.Engine(16) as e, othello.Engine(1) as other:

            def progress(p):
                inside.set()
                release.wait(20)

            def work():
                try:
                    e.search(b, level=3, book=0, progress=progress)
                except Exception as x:  # pragma: no cover - reported below
                    errors.append(x)

            t = threading.Thread(target=work)
            t.start()
            try:
                self.assertTrue(inside.wait(20))
                with self.assertRaises(othello.BusyError):
                    e.search(b, level=1)
                self.assertFalse(other.search(b, level=2).stopped)
            finally:
                release.set()
                t.join(20)
            self.assertEqual(errors, [])

    def test_bad_limits(self):
        with othello.Board() as b, othello.Engine(1) as e:
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, level=61)
            self.assertIn("limits.level", cm.exception.message)
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, time_limit_ms=-1)
            self.assertIn("time_limit_ms", cm.exception.message)
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, clock_remaining_ms=-2)
            self.assertIn("clock_remaining_ms", cm.exception.message)

    def test_a_clock_bounds_the_search(self):
        with othello.Board() as b, othello.Engine(16) as e:
            started = time.monotonic()
            r = e.search(b, level=60, book=0, clock_remaining_ms=1000, clock_increment_ms=0)
            self.assertLess(time.monotonic() - started, 0.6)
            self.assertIn(r.move, b.legal_moves())
            with self.assertRaises(othello.InvalidArgumentError):
                e.search(b, strategy=17)
            with self.assertRaises(othello.InvalidArgumentError):
                e.analyze(b, depth=0)
            with self.assertRaises(othello.InvalidArgumentError):
                e.search(b, seed=-1)
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, level=4, selectivity=6)
            self.assertIn("selectivity", cm.exception.message)
            self.assertTrue(b.is_legal(e.search(b, level=4, selectivity=0).move))
            with self.assertRaises(TypeError):
                e.search(b, colour=1)
            with self.assertRaises(TypeError):
                e.search("not a board")
            with self.assertRaises(othello.InvalidArgumentError):
                othello.Engine(hash_mb=1 << 20)

    def test_threads(self):
        with othello.Board.from_string(FFO1) as b, othello.Engine(16) as e:
            one = e.search(b, level=10)
            e.clear()
            two = e.search(b, level=10, threads=2)
            self.assertTrue(one.exact and two.exact)
            self.assertEqual(two.score, one.score)
            # The move reaches the score: here g8 alone is worth +18.
            self.assertEqual(FFO1_SCORES[str(two.move)], two.score)
            scores = {str(m.move): m.score for m in e.analyze(b, level=10, threads=2)}
            self.assertEqual(scores, FFO1_SCORES)
            self.assertEqual(e.search(b, level=10, threads=0).score, 18)  # one per core
        with othello.Board() as b, othello.Engine(4) as e:
            r = e.search(b, level=6, book=0, threads=3)
            self.assertTrue(b.is_legal(r.move))
            self.assertEqual(r.depth, 6)
            for bad in (257, -1):
                with self.assertRaises(othello.InvalidArgumentError) as cm:
                    e.search(b, level=2, threads=bad)
                self.assertIn("limits.threads", cm.exception.message)
            with self.assertRaises(othello.InvalidArgumentError):
                e.analyze(b, level=2, threads=257)
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, threads=2**31)
            self.assertIn("limits.threads", cm.exception.message)
            for bad in ("2", 2.0, True):
                with self.assertRaises(TypeError):
                    e.search(b, threads=bad)

    def test_strategies(self):
        with othello.Board() as b, othello.Engine(1) as e:
            for strategy in othello.Strategy:
                r = e.search(b, strategy=strategy, classic_depth=2, seed=3)
                self.assertIn(r.move, b.legal_moves(), strategy)
            self.assertIn(b.best_move(3), b.legal_moves())


class BookTest(unittest.TestCase):
    """The opening book: the built-in one, none, one loaded from a file."""

    BOOK_FILE = ROOT / "weights" / "book.bin"

    def test_builtin_book_moves(self):
        with othello.Board() as b, othello.Engine(1) as e:
            self.assertEqual(e.book, othello.Book.BUILTIN)
            moves = e.book_moves(b)
            # The four openings are one up to symmetry: the book knows them all.
            self.assertEqual(sorted(m.move for m in moves), b.legal_moves())
            self.assertEqual(len({m.score for m in moves}), 1)
            self.assertTrue(all(isinstance(m, othello.MoveScore) for m in moves))
            self.assertFalse(any(m.exact for m in moves))
            b.play("f5")
            moves = e.book_moves(b)
            self.assertGreater(len(moves), 0)
            self.assertTrue(all(b.is_legal(m.move) for m in moves))
            scores = [m.score for m in moves]
            self.assertEqual(scores, sorted(scores, reverse=True))
        # Out of the book: an endgame, another board size.
        with othello.Board.from_string(FFO1) as b, othello.Engine(1) as e:
            self.assertEqual(e.book_moves(b), [])
        with othello.Board(size=10) as b, othello.Engine(1) as e:
            self.assertEqual(e.book_moves(b), [])
            with self.assertRaises(TypeError):
                e.book_moves("not a board")

    def test_search_from_the_book(self):
        with othello.Board() as b, othello.Engine(16) as e:
            best = e.book_moves(b)[0]
            r = e.search(b, level=10)
            self.assertTrue(r.from_book)
            self.assertEqual((r.nodes, r.depth, r.exact), (0, 0, False))
            self.assertIn(r.move, b.legal_moves())
            self.assertEqual(r.score, best.score)
            self.assertEqual(r.pv[0], r.move)
            self.assertGreater(len(r.pv), 1)  # the book's line goes on
            # Explicit depths leave the book out unless book=1 (True) asks.
            self.assertFalse(e.search(b, depth=2).from_book)
            self.assertTrue(e.search(b, depth=2, book=True).from_book)
            # Level 0 does not use the book by default.
            self.assertFalse(e.search(b, level=0).from_book)
            # book=0 (False) searches: iterations, nodes, no book flag.
            seen = []
            r = e.search(b, level=6, book=0, progress=seen.append)
            self.assertFalse(r.from_book)
            self.assertGreater(r.nodes, 0)
            self.assertEqual(r.depth, 6)
            self.assertEqual(seen[-1].depth, 6)
            self.assertFalse(e.search(b, level=2, book=False).from_book)
            with self.assertRaises(othello.InvalidArgumentError) as cm:
                e.search(b, book=2)
            self.assertIn("limits.book", cm.exception.message)
            with self.assertRaises(TypeError):
                e.search(b, book="yes")

    def test_limits_struct_matches_the_library(self):
        lim = othello.Engine._limits({"book": 0})
        self.assertEqual(lim.struct_size, ctypes.sizeof(othello._SearchLimits))
        self.assertEqual(lim.book, 0)
        self.assertEqual(othello.Engine._limits({}).book, -1)  # the init default
        self.assertEqual(othello.Engine._limits({}).threads, 1)
        self.assertEqual(othello.Engine._limits({"threads": 3}).threads, 3)

    def test_no_book(self):
        with othello.Board() as b, othello.Engine(1) as e:
            e.book = othello.Book.NONE
            self.assertEqual(e.book, othello.Book.NONE)
            self.assertEqual(e.book_moves(b), [])
            r = e.search(b, level=2)
            self.assertFalse(r.from_book)
            self.assertGreater(r.nodes, 0)
            # LOADED cannot be set, nor an unknown value; the book is unchanged.
            with self.assertRaises(othello.InvalidArgumentError):
                e.book = othello.Book.LOADED
            with self.assertRaises(othello.InvalidArgumentError):
                e.book = 7
            self.assertEqual(e.book, othello.Book.NONE)
            e.book = othello.Book.BUILTIN
            self.assertEqual(e.book, othello.Book.BUILTIN)
            self.assertTrue(e.search(b, level=2).from_book)

    def test_load_book(self):
        data = self.BOOK_FILE.read_bytes()
        with othello.Board.from_transcript("f5d6") as b, othello.Engine(1) as e:
            builtin = e.book_moves(b)
            self.assertGreater(len(builtin), 0)
            # Garbage, a truncated file and a missing one fail; the book stays.
            for bad in (b"not a book", bytearray(data[: len(data) // 2]), b""):
                with self.assertRaises(othello.InvalidArgumentError):
                    e.load_book(bad)
                self.assertEqual(e.book, othello.Book.BUILTIN)
            with self.assertRaises(othello.InvalidArgumentError):
                e.load_book("/nonexistent/book.bin")
            e.book = othello.Book.NONE
            with self.assertRaises(othello.InvalidArgumentError):
                e.load_book(b"not a book")
            self.assertEqual(e.book, othello.Book.NONE)
            # The built-in book's own file, as bytes and by path.
            e.load_book(data)
            self.assertEqual(e.book, othello.Book.LOADED)
            self.assertEqual(e.book_moves(b), builtin)
            r = e.search(b, level=4)
            self.assertTrue(r.from_book)
            self.assertEqual(r.score, builtin[0].score)
            e.book = othello.Book.NONE
            e.load_book(self.BOOK_FILE)
            self.assertEqual(e.book, othello.Book.LOADED)
            self.assertEqual(e.book_moves(b), builtin)
            e.book = othello.Book.BUILTIN  # drops the loaded book
            self.assertEqual(e.book, othello.Book.BUILTIN)


def _random_boards(size: int, count: int, seed: int) -> List[othello.Board]:
    """Positions of games of random moves: one after every turn."""
    rng = random.Random(seed)
    boards = []
    b = othello.Board(size)
    while len(boards) < count:
        if b.is_game_over:
            b = othello.Board(size)
        elif b.must_pass:
            b.pass_turn()
        else:
            b.play(rng.choice(b.legal_moves()))
        boards.append(b.copy())
    return boards


def _final_score(board: othello.Board) -> int:
    """Black minus white with the empty squares for the winner."""
    black, white = board.count(Color.BLACK), board.count(Color.WHITE)
    empty = board.count(Color.EMPTY)
    diff = black - white
    return diff + (empty if diff > 0 else -empty if diff < 0 else 0)


class BulkTest(unittest.TestCase):
    """The calls for bulk work: masks, arrays and random games."""

    def test_masks_match_the_squares(self):
        for size in (4, 8, 10, 16):  # 16, 64, 100 and 256 bits
            for b in _random_boards(size, 40, seed=size):
                black, white = b.bitboards()
                for sq in range(size * size):
                    self.assertEqual(black >> sq & 1, b[sq] == Color.BLACK)
                    self.assertEqual(white >> sq & 1, b[sq] == Color.WHITE)
                self.assertEqual(b.legal_mask(), sum(1 << sq for sq in b.legal_moves()))
        start = othello.Board()
        self.assertEqual(start.legal_mask(), sum(1 << Square(s) for s in ("d3", "c4", "f5", "e6")))

    def test_numpy_arrays(self):
        import numpy as np

        for size in (6, 8, 12):
            for b in _random_boards(size, 20, seed=size):
                cells = b.to_numpy()
                self.assertEqual(cells.shape, (size, size))
                self.assertEqual(cells.dtype, np.int8)
                for sq in range(size * size):
                    self.assertEqual(cells[sq // size, sq % size], int(b[sq]))
                back = othello.Board.from_numpy(cells, b.side_to_move)
                self.assertEqual(back.to_string(), b.to_string())
                planes = b.planes()
                me = int(b.side_to_move)
                self.assertEqual(planes.shape, (3, size, size))
                self.assertTrue(((cells == me) == (planes[0] == 1)).all())
                self.assertTrue(((cells == 3 - me) == (planes[1] == 1)).all())
                self.assertEqual(sorted(np.flatnonzero(planes[2])), b.legal_moves())
        with self.assertRaises(othello.ParseError):
            othello.Board.from_numpy(np.zeros((8, 7), dtype=np.int8))
        with self.assertRaises(othello.ParseError):
            othello.Board.from_numpy(np.full((8, 8), 3))
        with self.assertRaises(othello.ParseError):
            othello.Board.from_numpy(np.zeros((9, 9), dtype=np.int8))  # no odd sizes
        with self.assertRaises(othello.InvalidArgumentError):
            othello.Board.from_numpy(np.zeros((8, 8), dtype=np.int8), Color.EMPTY)

    def test_without_numpy(self):
        # numpy is optional: the package imports and plays without it, and
        # the array calls say what they need.
        code = (
            "import sys; sys.modules['numpy'] = None\n"
            "import othello\n"
            "b = othello.Board(); b.play('f5')\n"
            "g = othello.random_games(3, seed=1); print(len(g), g.game(0)[0])\n"
            "try:\n    b.to_numpy()\nexcept ImportError as e:\n    print(e)\n"
        )
        out = _python(["-c", code], Path(tempfile.gettempdir()))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("needs numpy", out.stdout)
        self.assertTrue(out.stdout.startswith("3 "), out.stdout)

    def test_random_games_are_games(self):
        games = othello.random_games(200, seed=7)
        self.assertEqual(len(games), 200)
        self.assertEqual(games.stride, 60)
        self.assertEqual(len(games.moves), 200 * 60)
        for i in range(len(games)):
            n = games.lengths[i]
            row = games.moves[i * 60 : (i + 1) * 60]
            self.assertTrue(all(sq == -1 for sq in row[n:]), row)
            # Every move legal when replayed, passes where forced, to the end.
            b = games.board(i)
            self.assertTrue(b.is_game_over)
            self.assertEqual(b.transcript(), "".join(s.name for s in games.game(i)))
            self.assertEqual(games.scores[i], _final_score(b))
        # The moves are spread: every first move occurs.
        firsts = {games.moves[i * 60] for i in range(len(games))}
        self.assertEqual(firsts, {Square(s) for s in ("d3", "c4", "f5", "e6")})

    def test_random_games_seeds_and_starts(self):
        a = othello.random_games(50, seed=3)
        self.assertEqual(a, othello.random_games(50, seed=3))
        self.assertNotEqual(a.moves, othello.random_games(50, seed=4).moves)
        self.assertNotEqual(othello.random_games(5).moves, othello.random_games(5).moves)
        start = othello.Board.from_transcript("f5d6c3d3c4")
        from_start = othello.random_games(20, seed=1, start=start)
        self.assertEqual(from_start.start, start.to_string())
        self.assertEqual(from_start.stride, 55)
        self.assertEqual(start.move_number, 6)  # the start is not changed
        for i in range(20):
            self.assertTrue(from_start.board(i).is_game_over)
        small = othello.random_games(30, seed=2, start=othello.Board(6))
        self.assertEqual(small.stride, 32)
        for i in range(30):
            b = small.board(i)
            self.assertEqual(b.size, 6)
            self.assertEqual(small.scores[i], _final_score(b))
        self.assertEqual(len(othello.random_games(0, seed=1)), 0)
        over = othello.Board.from_string("X" * 64 + " O")
        self.assertEqual(list(othello.random_games(2, seed=1, start=over).scores), [64, 64])

    def test_random_games_numpy(self):
        games = othello.random_games(10, seed=5)
        moves, lengths, scores = games.to_numpy()
        self.assertEqual(moves.shape, (10, 60))
        self.assertEqual(list(lengths), list(games.lengths))
        self.assertEqual(list(scores), list(games.scores))
        self.assertEqual(list(moves[3][: lengths[3]]), games.game(3))

    def test_random_games_bad_arguments(self):
        with self.assertRaises(TypeError):
            othello.random_games("10")  # type: ignore[arg-type]
        with self.assertRaises(othello.InvalidArgumentError):
            othello.random_games(-1)
        with self.assertRaises(othello.InvalidArgumentError):
            othello.random_games(1, seed=2**64)
        with self.assertRaises(TypeError):
            othello.random_games(1, start="f5")  # type: ignore[arg-type]
        closed = othello.Board()
        closed.close()
        with self.assertRaises(ValueError):
            othello.random_games(1, start=closed)


class NativeBoardTest(unittest.TestCase):
    """The board of the native module: bad input raises, never crashes."""

    def test_closed_board(self):
        b = othello.Board()
        b.close()
        self.assertTrue(b.closed)
        calls = [
            lambda: b.legal_moves(),
            lambda: b.play("f5"),
            lambda: b.pass_turn(),
            lambda: b.undo(),
            lambda: b.redo(),
            lambda: b.size,
            lambda: b.side_to_move,
            lambda: b.is_game_over,
            lambda: b["d4"],
            lambda: b.count(Color.BLACK),
            lambda: b.history(),
            lambda: b.to_string(),
            lambda: b.legal_mask(),
            lambda: b.bitboards(),
            lambda: b.copy(),
            lambda: b._h,
            lambda: othello.Engine().search(b, level=1),
        ]
        for call in calls:
            with self.assertRaises(ValueError):
                call()

    def test_wrong_types(self):
        b = othello.Board()
        for bad in (None, 3.5, True, [37], b"f5"):
            with self.assertRaises(TypeError):
                b.play(bad)  # type: ignore[arg-type]
            with self.assertRaises(TypeError):
                b.is_legal(bad)  # type: ignore[arg-type]
        for bad in (None, "8", 8.0):
            with self.assertRaises(TypeError):
                othello.Board(bad)  # type: ignore[arg-type]
        with self.assertRaises(TypeError):
            b.count("black")  # type: ignore[arg-type]
        with self.assertRaises(othello.InvalidArgumentError):
            othello.Board(7)
        with self.assertRaises(othello.InvalidArgumentError):
            b.mobility(Color.EMPTY)
        self.assertFalse(b.is_legal(64))  # off the board: not legal, no error
        self.assertFalse(b.is_legal(othello.PASS))
        self.assertEqual(b.to_string(), othello.Board().to_string())

    def test_subclasses_keep_their_class(self):
        class MyBoard(othello.Board):
            pass

        b = MyBoard.from_transcript("f5d6")
        self.assertIs(type(b), MyBoard)
        self.assertIs(type(b.copy()), MyBoard)
        self.assertIs(type(othello.Board().copy()), othello.Board)
        self.assertEqual(b.history(), [Square("f5"), Square("d6")])

    def test_squares_are_square_objects(self):
        b = othello.Board(10)
        moves = b.legal_moves()
        self.assertTrue(all(type(m) is Square and m.size == 10 for m in moves))
        flipped = b.play(moves[0])
        self.assertTrue(flipped and all(type(f) is Square and f.size == 10 for f in flipped))
        self.assertEqual(b.history(), [moves[0]])
        self.assertEqual(b.history()[0].name, moves[0].name)
        # A pass in the history is Square(PASS).
        p = othello.Board.from_string("-" * 14 + "OX" + " O")
        self.assertTrue(p.must_pass)
        p.pass_turn()
        self.assertEqual(p.history(), [Square(othello.PASS, 4)])
        self.assertEqual(p.history()[0].size, 4)


class LifetimeTest(unittest.TestCase):
    def test_context_manager_frees(self):
        before = othello.live_handles()
        with othello.Board() as b, othello.Engine(1) as e:
            self.assertEqual(othello.live_handles()["board"], before["board"] + 1)
            self.assertEqual(othello.live_handles()["engine"], before["engine"] + 1)
        self.assertTrue(b.closed and e.closed)
        self.assertEqual(othello.live_handles(), before)
        b.close()  # idempotent
        e.close()
        e.stop()  # harmless on a closed engine
        self.assertIn("closed", repr(b))

    def test_garbage_collection_frees(self):
        gc.collect()
        before = othello.live_handles()
        boards = [othello.Board.from_transcript("f5d6") for _ in range(50)]
        copies = [b.copy() for b in boards]
        engine = othello.Engine(1)
        finalizer = engine._finalizer
        self.assertEqual(othello.live_handles()["board"], before["board"] + 100)
        del boards, copies, engine
        gc.collect()
        self.assertFalse(finalizer.alive)
        self.assertEqual(othello.live_handles(), before)

    def test_failed_constructor_leaks_nothing(self):
        before = othello.live_handles()
        for _ in range(5):
            with self.assertRaises(othello.ParseError):
                othello.Board.from_string("nonsense")
        self.assertEqual(othello.live_handles(), before)


class ModuleTest(unittest.TestCase):
    def test_every_header_function_is_declared(self):
        header = (ROOT / "include" / "othello.h").read_text()
        in_header = set(re.findall(r"\b(othello_\w+)\(", header))
        in_header -= {"othello_progress_fn"}
        # The init macros, which call the functions ending in "_".
        in_header -= set(re.findall(r"#define (othello_\w+)\(", header))
        declared = set(othello._PROTOTYPES)
        self.assertEqual(in_header - declared, set(), "functions missing from the othello package")
        self.assertLessEqual(declared - in_header, othello._OPTIONAL)
        # The library under test comes with this header: it has them all.
        for name in in_header:
            self.assertTrue(othello.has_function(name), name)

    def test_evaluation(self):
        with othello.Board() as b, othello.Engine(1) as e:
            self.assertIsInstance(e.evaluation, othello.Evaluation)
            for ev in othello.Evaluation:
                e.evaluation = ev
                self.assertEqual(e.evaluation, ev)
                self.assertIn(e.search(b, level=2).move, b.legal_moves())
            with self.assertRaises(othello.InvalidArgumentError):
                e.evaluation = 7
            with self.assertRaises(othello.InvalidArgumentError):
                e.load_weights("/nonexistent/weights.bin")
            with self.assertRaises(othello.InvalidArgumentError):
                e.load_weights(b"not weights")

    def test_every_header_status_is_known(self):
        header = (ROOT / "include" / "othello.h").read_text()
        codes = {m[0]: int(m[1]) for m in re.findall(r"OTHELLO_STATUS_(\w+) = (\d+)", header)}
        self.assertIn("OK", codes)
        for name, value in codes.items():
            self.assertEqual(othello.Status[name], value)
            if value != 0:
                self.assertIn(othello.Status(value), othello._ERRORS)
        colors = dict(re.findall(r"OTHELLO_COLOR_(\w+) = (\d+)", header))
        self.assertEqual({k: int(v) for k, v in colors.items()}, {c.name: c.value for c in Color})
        evaluations = dict(re.findall(r"OTHELLO_EVALUATION_(\w+) = (\d+)", header))
        for name, value in evaluations.items():
            self.assertEqual(othello.Evaluation[name], int(value))
        books = dict(re.findall(r"OTHELLO_BOOK_(\w+) = (\d+)", header))
        self.assertEqual(
            {k: int(v) for k, v in books.items()}, {b.name: b.value for b in othello.Book}
        )
        strategies = dict(re.findall(r"OTHELLO_STRATEGY_(\w+) = (\d+)", header))
        self.assertEqual(
            {k: int(v) for k, v in strategies.items()},
            {s.name: s.value for s in othello.Strategy},
        )

    def test_version(self):
        self.assertEqual(othello.version(), othello.HEADER_VERSION)
        header = (ROOT / "include" / "othello.h").read_text()
        self.assertIn(f'#define OTHELLO_VERSION_STRING "{othello.HEADER_VERSION}"', header)


def _python(
    args: List[str], cwd: Path, env: Optional[Dict[str, str]] = None, text: str = ""
) -> "subprocess.CompletedProcess[str]":
    """Runs this Python with ``args`` in ``cwd`` (never the checkout's
    python/, which ``-c`` and ``-m`` would put first on sys.path)."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )


class InstalledTest(unittest.TestCase):
    """The package under test is an installed one, with its native module;
    that module is the library whose C functions the package calls."""

    def test_installed_not_the_checkout(self):
        self.assertNotIn(
            ROOT / "python",
            PACKAGE.parents,
            f"othello was imported from the checkout ({PACKAGE}), not an installed copy",
        )
        self.assertIn("-packages", PACKAGE.parts[-2], PACKAGE)
        self.assertTrue((PACKAGE / "py.typed").is_file(), "the wheel ships py.typed")
        self.assertTrue((PACKAGE / "_native.pyi").is_file(), "the wheel ships the module's types")
        lib = Path(othello.library_path())
        self.assertEqual(lib.parent, PACKAGE, "the package's own library")
        # One wheel for every CPython from 3.9: the stable ABI's suffix.
        self.assertEqual(lib.name, "_native.abi3.so")
        self.assertEqual(Path(othello._native.__file__), lib)

    def test_versions_agree(self):
        cargo = (ROOT / "Cargo.toml").read_text()
        crate = re.search(r'^version = "([^"]+)"', cargo, re.M)
        self.assertIsNotNone(crate)
        assert crate is not None
        self.assertEqual(importlib.metadata.version("othello"), crate.group(1))
        self.assertEqual(othello.version(), crate.group(1))
        native = (ROOT / "python" / "Cargo.toml").read_text()
        self.assertIn(f'version = "{crate.group(1)}"', native)

    def test_one_library(self):
        # A board made by the native module, read by the C functions of the
        # library ctypes loaded: the same code, so the same answers.
        b = othello.Board.from_transcript("f5d6c3")
        lib = ctypes.CDLL(othello.library_path())
        lib.othello_board_move_number.argtypes = [ctypes.c_void_p]
        lib.othello_board_move_number.restype = ctypes.c_int
        self.assertEqual(lib.othello_board_move_number(b._h), 4)
        self.assertEqual(b.best_move(level=2), othello.Engine().search(b, level=2).move)

    def test_library_variable_ignored(self):
        # OTHELLO_LIBRARY (read by versions before 0.4's native module) no
        # longer chooses the library.
        out = _python(
            ["-c", "import othello; print(othello.library_path())"],
            Path(tempfile.gettempdir()),
            {"OTHELLO_LIBRARY": "/nonexistent/libothello.so"},
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), othello.library_path())


class PlayTest(unittest.TestCase):
    """``python -m othello``, the console game, scripted."""

    def run_play(self, args: List[str], text: str) -> "subprocess.CompletedProcess[str]":
        with tempfile.TemporaryDirectory() as cwd:
            return _python(["-m", "othello", *args], Path(cwd), text=text)

    def test_a_game(self):
        out = self.run_play(
            ["--level", "1"], "help\nz9\na1\nmoves\nf5\nundo\nredo\nhint\nauto\n"
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        text = out.stdout
        self.assertIn("commands:", text)
        self.assertIn("'z9' is not a square", text)
        self.assertIn("a1 flips no disc", text)
        self.assertIn("legal moves: d3 c4 f5 e6", text)
        self.assertIn("you play f5, flipping e5", text)
        # The reply to f5 comes from the opening book.
        self.assertRegex(text, r"the engine plays \w\d \(score [+-]\d+, book\)")
        self.assertIn("hint: ", text)
        m = re.search(r"Game over: black (\d+), white (\d+): (you win|you lose|a draw)\.", text)
        self.assertIsNotNone(m, text[-2000:])
        assert m is not None
        self.assertLessEqual(int(m.group(1)) + int(m.group(2)), 64)
        t = re.search(r"transcript: (\S+)", text)
        assert t is not None
        self.assertTrue(t.group(1).startswith("f5"))
        othello.Board.from_transcript(t.group(1)).close()

    def test_quit_and_end_of_input(self):
        for command in ("q\n", "quit\n"):
            out = self.run_play([], command)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("Type help for the commands.", out.stdout)
            self.assertTrue(out.stdout.rstrip().endswith("Bye!"), out.stdout)
        out = self.run_play(["--white", "--level", "1"], "")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("the engine plays", out.stdout)
        self.assertIn("Bye!", out.stdout)
        out = self.run_play(["--level", "99"], "")
        self.assertEqual(out.returncode, 2)
        self.assertIn("python -m othello", out.stderr)


if __name__ == "__main__":
    unittest.main()
