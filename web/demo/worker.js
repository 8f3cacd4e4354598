// The engine's thread: searches here, so that the page never freezes.
// Messages in: {id, board (a board string), opponent ("engine:N" or
// "classic:N")}; out: {id, move, eval (discs for the side to move),
// depth, fromBook} or {id, error}.
import { init, Board, Engine, Strategy } from "../othello.js";

const ready = init();
let engine = null;

self.onmessage = async ({ data }) => {
  await ready;
  engine ??= new Engine(32);
  const board = Board.fromString(data.board);
  try {
    const [kind, n] = data.opponent.split(":");
    const level = Number(n);
    const limits =
      kind === "classic"
        ? { strategy: Strategy.CLASSIC, classicDepth: level }
        : { level, randomness: level <= 2 ? 4 : 0, seed: Date.now() % 1000000 };
    const r = engine.search(board, limits);
    // The evaluation in discs for the side to move: the engine's own score,
    // or for the 1986 program (whose scores are its own points) a level 6
    // search's.
    const evaluation = kind === "classic" ? engine.search(board, { level: 6, book: 0 }).score : r.score;
    self.postMessage({ id: data.id, move: r.move, eval: evaluation, depth: r.depth, fromBook: r.fromBook });
  } catch (e) {
    self.postMessage({ id: data.id, error: String(e.message ?? e) });
  } finally {
    board.free();
  }
};
