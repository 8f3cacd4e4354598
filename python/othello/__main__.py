"""python -m othello: a text game of Othello against the engine.

    python -m othello [--level N] [--white] [--seed S] [--size N] [--randomness N]

You are X (black, moving first) unless --white. At the prompt type a move
(``f5``, either case), or one of: ``moves`` (your legal moves), ``hint``
(the engine's suggestion), ``undo`` (take back your last move and the
engine's reply), ``redo``, ``auto`` (the engine plays the rest of your moves
too), ``board``, ``help``, ``quit`` (or ``q``). Passes are played for you.
End of input ends the game.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import othello
from othello import Color

HELP = """commands: a move (f5), moves, hint, undo, redo, auto, board, help, quit"""


def show(board: othello.Board) -> None:
    print(board.grid())
    black, white = board.count(Color.BLACK), board.count(Color.WHITE)
    if board.is_game_over:
        print(f"black (X) {black}, white (O) {white}")
    else:
        side = "black (X)" if board.side_to_move == Color.BLACK else "white (O)"
        print(f"{side} to move; black {black}, white {white}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m othello", description="Play Othello against the engine."
    )
    ap.add_argument("--level", type=int, default=4, help="engine level 0..60 (default 4)")
    ap.add_argument("--white", action="store_true", help="play white (the engine starts)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the engine's choices")
    ap.add_argument("--size", type=int, default=8, help="board size, 4..16 (default 8)")
    ap.add_argument(
        "--randomness", type=int, default=0, help="engine picks among moves within N discs"
    )
    args = ap.parse_args(argv)
    if not 0 <= args.level <= 60:
        ap.error("--level must be 0..60")

    me = Color.WHITE if args.white else Color.BLACK
    auto = False
    try:
        board = othello.Board(size=args.size)
    except (othello.OthelloError, NotImplementedError) as e:
        ap.error(f"--size {args.size}: {e}")
    print(f"othello {othello.version()}: you are {'O (white)' if args.white else 'X (black)'}"
          f", the engine plays at level {args.level}. Type help for the commands.")
    with board, othello.Engine(hash_mb=16) as engine:

        def engine_move(for_whom: str) -> None:
            r = engine.search(
                board, level=args.level, seed=args.seed, randomness=args.randomness
            )
            board.play(r.move)
            note = "book" if r.from_book else "exact" if r.exact else "estimate"
            print(f"{for_whom} plays {r.move} (score {r.score:+d}, {note})")

        show(board)
        while not board.is_game_over:
            if board.must_pass:
                who = "you pass" if board.side_to_move == me else "the engine passes"
                print(f"no legal move: {who}")
                board.pass_turn()
                continue
            if board.side_to_move != me:
                engine_move("the engine")
                if not board.is_game_over:
                    show(board)
                continue
            if auto:
                engine_move("auto")
                continue
            try:
                line = input("Move: ")
            except EOFError:
                print("\nBye!")
                return 0
            cmd = line.strip().lower()
            if not cmd:
                continue
            if cmd in ("quit", "exit", "q"):
                print("Bye!")
                return 0
            if cmd in ("help", "?"):
                print(HELP)
            elif cmd == "board":
                show(board)
            elif cmd == "moves":
                print("legal moves:", " ".join(str(m) for m in board.legal_moves()))
            elif cmd == "hint":
                r = engine.search(board, level=args.level)
                print(f"hint: {r.move} (score {r.score:+d})")
            elif cmd == "undo":
                # Back to the previous position where it was your turn.
                try:
                    board.undo()
                    while board.side_to_move != me or board.must_pass:
                        board.undo()
                except othello.NothingToUndoError:
                    print("nothing to undo")
                show(board)
            elif cmd == "redo":
                try:
                    board.redo()
                    while board.can_redo and (board.side_to_move != me or board.must_pass):
                        board.redo()
                except othello.NothingToRedoError:
                    print("nothing to redo")
                show(board)
            elif cmd == "auto":
                auto = True
            else:
                try:
                    flipped = board.play(cmd)
                except othello.ParseError:
                    print(f"{line.strip()!r} is not a square or a command ({HELP})")
                    continue
                except othello.IllegalMoveError as e:
                    print(e.message)
                    continue
                print(f"you play {cmd}, flipping {' '.join(str(s) for s in flipped)}")
        show(board)
        black, white = board.count(Color.BLACK), board.count(Color.WHITE)
        mine, theirs = (black, white) if me == Color.BLACK else (white, black)
        outcome = "you win" if mine > theirs else "you lose" if mine < theirs else "a draw"
        print(f"Game over: black {black}, white {white}: {outcome}.")
        print(f"transcript: {board.transcript()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
