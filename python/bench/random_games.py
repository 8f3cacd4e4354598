"""Random games a second through the Python package, against its previous
version and rust-reversi.

    python python/bench/random_games.py [--games N] [--seed S] [--rounds R]
                                        [--baseline DIR] [--bulk N]

The loop is the one a reinforcement-learning user writes: the legal moves,
a random choice, play, a pass when the side to move has none, until the
game ends. ``othello`` is the installed package (``pip install ./python``);
``--baseline DIR`` times the ``othello`` package found in DIR too (another
version, e.g. ``pip install --target DIR`` of an older checkout's
``python/``), and ``rust_reversi`` (``pip install rust-reversi``) is timed
when it is installed. Each library runs in a process of its own (two
versions of ``othello`` cannot share one), each round in turn (A B C A B C),
so that the machine's drift hits all; the median round is reported, with
the ratios, and the moves played (every loop draws from
``random.Random(S)``, so the same seed gives the same games whatever the
library). ``--bulk N`` also times ``othello.random_games(N)``, the call
that plays many games at once.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional


def othello_loop(othello) -> Callable[[int, random.Random], int]:
    def play(games: int, rng: random.Random) -> int:
        moves = 0
        for _ in range(games):
            board = othello.Board()
            while not board.is_game_over:
                legal = board.legal_moves()
                if legal:
                    board.play(rng.choice(legal))
                    moves += 1
                else:
                    board.pass_turn()
            board.close()
        return moves

    return play


def rust_reversi_loop(rust_reversi) -> Callable[[int, random.Random], int]:
    def play(games: int, rng: random.Random) -> int:
        moves = 0
        for _ in range(games):
            board = rust_reversi.Board()
            while not board.is_game_over():
                if board.is_pass():
                    board.do_pass()
                    continue
                board.do_move(rng.choice(board.get_legal_moves_vec()))
                moves += 1
        return moves

    return play


def child(library: str, path: Optional[str], games: int, seed: int, bulk: int) -> None:
    """Times one library in this process; prints the figures as JSON."""
    if path:
        sys.path.insert(0, path)
    if library == "rust-reversi":
        import rust_reversi

        name, loop = "rust-reversi", rust_reversi_loop(rust_reversi)
    else:
        import othello

        name, loop = f"othello {othello.version()}", othello_loop(othello)
    start = time.perf_counter()
    moves = loop(games, random.Random(seed))
    out = {"name": name, "rate": games / (time.perf_counter() - start), "moves": moves}
    if bulk:
        start = time.perf_counter()
        othello.random_games(bulk, seed=seed)
        out["bulk"] = bulk / (time.perf_counter() - start)
    print(json.dumps(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per library per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="a directory holding another othello package")
    parser.add_argument("--bulk", type=int, default=0, help="games of one random_games() call")
    parser.add_argument("--child", nargs=2, metavar=("LIBRARY", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        library, path = args.child
        child(library, path or None, args.games, args.seed, args.bulk)
        return 0

    runs = [("othello", "", args.bulk)]
    if args.baseline:
        runs.append(("othello", args.baseline, 0))
    try:
        import rust_reversi  # noqa: F401
    except ImportError:
        print("rust_reversi is not installed: not timed")
    else:
        runs.append(("rust-reversi", "", 0))
    rates: Dict[int, List[float]] = {i: [] for i in range(len(runs))}
    bulk: List[float] = []
    last: Dict[int, dict] = {}
    for _ in range(args.rounds):
        for i, (library, path, bulk_games) in enumerate(runs):
            command = [sys.executable, __file__, "--child", library, path]
            command += ["--games", str(args.games), "--seed", str(args.seed)]
            command += ["--bulk", str(bulk_games)]
            out = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
            rates[i].append(out["rate"])
            if "bulk" in out:
                bulk.append(out["bulk"])
            last[i] = out
    medians = [statistics.median(rates[i]) for i in range(len(runs))]
    names = [last[i]["name"] + (f" ({path})" if path else "") for i, (_, path, _) in enumerate(runs)]
    for i, name in enumerate(names):
        moves = last[i]["moves"]
        print(
            f"{name}: {medians[i]:,.0f} games/s ({medians[i] * moves / args.games:,.0f} moves/s), "
            f"{moves} moves in {args.games} games"
        )
    for i in range(1, len(runs)):
        print(f"ratio {names[0]} / {names[i]}: {medians[0] / medians[i]:.3f}x")
    if bulk:
        print(f"othello.random_games({args.bulk}): {statistics.median(bulk):,.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
