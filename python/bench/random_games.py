"""Random games a second through the Python binding, against rust-reversi.

    python python/bench/random_games.py [--games N] [--seed S] [--rounds R]

The loop is the one a reinforcement-learning user writes: the legal moves,
a random choice, play, a pass when the side to move has none, until the
game ends. ``othello`` is the installed package (``pip install ./python``;
``--othello-path DIR`` imports it from DIR instead, e.g. a previous
version's install, to compare two builds); ``rust_reversi``
(``pip install rust-reversi``) is timed beside it when it is installed.
Each library plays the same number of games per round, in turn (A B A B),
so that the machine's drift hits both; the median round is reported, with
the ratio, and the moves played (both loops draw from ``random.Random(S)``,
so the same seed gives the same games whatever the library).
"""

import argparse
import random
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple


def ours_loop(othello) -> Callable[[int, random.Random], int]:
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per library per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--othello-path", help="import othello from this directory")
    args = parser.parse_args()
    if args.othello_path:
        sys.path.insert(0, args.othello_path)
    import othello

    loops: Dict[str, Callable[[int, random.Random], int]] = {
        f"othello {othello.version()}": ours_loop(othello)
    }
    try:
        import rust_reversi
    except ImportError:
        print("rust_reversi is not installed: timing othello alone")
    else:
        loops["rust-reversi"] = rust_reversi_loop(rust_reversi)
    rates: Dict[str, List[float]] = {name: [] for name in loops}
    played: Dict[str, int] = {}
    for _ in range(args.rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            played[name] = loop(args.games, random.Random(args.seed))
            rates[name].append(args.games / (time.perf_counter() - start))
    results: List[Tuple[str, float]] = []
    for name in loops:
        rate = statistics.median(rates[name])
        results.append((name, rate))
        print(
            f"{name}: {rate:,.0f} games/s ({rate * played[name] / args.games:,.0f} moves/s), "
            f"{played[name]} moves in {args.games} games"
        )
    if len(results) == 2:
        print(f"ratio {results[0][0]} / {results[1][0]}: {results[0][1] / results[1][1]:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
