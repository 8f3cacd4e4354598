// Tests of the JavaScript package in Node (tests/web.rs runs them):
//
//   OTHELLO_WEB_PACKAGE=DIR OTHELLO_NATIVE_ANSWERS=FILE node --expose-gc --test web/test/
//
// DIR holds othello.js and the built othello.wasm; FILE the native
// library's moves and scores for positions (tests/web.rs writes it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import path from "node:path";

const pkg = process.env.OTHELLO_WEB_PACKAGE;
assert.ok(pkg, "OTHELLO_WEB_PACKAGE names the built package");
const moduleUrl = pathToFileURL(path.join(pkg, "othello.js")).href;
const o = await import(moduleUrl);
await o.init();

const START = "-".repeat(27) + "OX------XO" + "-".repeat(27) + " X";

// A reference of the rules, written plainly: the discs a move flips on the
// 8x8 board of `cells` (0 empty, 1 black, 2 white) for `me`.
function referenceFlips(cells, me, sq) {
  if (cells[sq] !== 0) return [];
  const flips = [];
  const [r0, c0] = [Math.floor(sq / 8), sq % 8];
  for (const [dr, dc] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]) {
    const line = [];
    let [r, c] = [r0 + dr, c0 + dc];
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === 3 - me) {
      line.push(r * 8 + c);
      r += dr;
      c += dc;
    }
    if (line.length && r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === me) flips.push(...line);
  }
  return flips.sort((a, b) => a - b);
}

function cellsOf(board) {
  return Array.from({ length: 64 }, (_, sq) => board.at(sq));
}

function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function playRandomGame(rng, check) {
  const b = new o.Board();
  while (!b.isGameOver) {
    const moves = b.legalMoves();
    if (moves.length === 0) {
      b.pass();
      continue;
    }
    const sq = moves[Math.floor(rng() * moves.length)];
    if (check) {
      const cells = cellsOf(b);
      const me = b.sideToMove;
      for (let s = 0; s < 64; s++) {
        assert.equal(moves.includes(s), referenceFlips(cells, me, s).length > 0, `square ${s}`);
      }
      assert.deepEqual(b.play(sq), referenceFlips(cells, me, sq));
    } else {
      b.play(sq);
    }
  }
  return b;
}

test("the start, squares and text forms", () => {
  assert.equal(o.version(), JSON.parse(readFileSync(path.join(pkg, "package.json"))).version);
  const b = new o.Board();
  assert.equal(b.size, 8);
  assert.equal(b.sideToMove, o.Color.BLACK);
  assert.equal(b.toString(), START);
  assert.deepEqual(b.legalMoves().map((s) => o.squareName(s)), ["d3", "c4", "f5", "e6"]);
  assert.equal(o.parseSquare("F5"), 37);
  assert.equal(o.squareName(99, 10), "j10");
  assert.equal(o.parseSquare("pass"), o.PASS);
  assert.deepEqual(b.play("f5"), [o.parseSquare("e5")]);
  assert.equal(b.transcript(), "f5");
  assert.equal(b.moveNumber, 2);
  b.undo();
  assert.equal(b.toString(), START);
  assert.ok(b.canRedo);
  b.redo();
  const copy = b.copy();
  copy.play("d6");
  assert.equal(b.transcript(), "f5");
  assert.equal(copy.transcript(), "f5d6");
  assert.deepEqual(o.Board.fromTranscript("f5d6c3").history(), [37, 43, 18]);
  assert.equal(o.Board.fromString(copy.toString()).toString(), copy.toString());
  const ten = new o.Board(10);
  assert.equal(ten.size, 10);
  assert.equal(ten.legalMoves().length, 4);
  for (const x of [b, copy, ten]) x.free();
});

test("random games follow the reference rules, passes included", () => {
  const rng = random(1);
  let passes = 0;
  for (let i = 0; i < 150; i++) {
    const b = playRandomGame(rng, true);
    passes += b.history().filter((s) => s === o.PASS).length;
    assert.equal(b.count(o.Color.EMPTY) + b.count(o.Color.BLACK) + b.count(o.Color.WHITE), 64);
    b.free();
  }
  assert.ok(passes > 0, "some games pass");
});

test("bad input throws and changes nothing", () => {
  const b = new o.Board();
  const expectCode = (fn, code) => assert.throws(fn, (e) => e instanceof o.OthelloError && e.code === code);
  expectCode(() => b.play("a1"), "ILLEGAL_MOVE");
  expectCode(() => b.play(64), "INVALID_SQUARE");
  expectCode(() => b.play(-5), "INVALID_SQUARE");
  expectCode(() => b.play(2 ** 40), "INVALID_SQUARE");
  expectCode(() => b.play("z9"), "PARSE_ERROR");
  expectCode(() => b.pass(), "CANNOT_PASS");
  expectCode(() => b.undo(), "NOTHING_TO_UNDO");
  expectCode(() => b.redo(), "NOTHING_TO_REDO");
  expectCode(() => b.count(7), "INVALID_ARGUMENT");
  expectCode(() => new o.Board(7), "INVALID_ARGUMENT");
  expectCode(() => o.Board.fromString("nonsense"), "PARSE_ERROR");
  expectCode(() => o.Board.fromTranscript("f5d6z9"), "PARSE_ERROR");
  assert.throws(() => o.Board.fromTranscript("f5d6z9"), /z9/);
  for (const bad of [null, undefined, 1.5, NaN, {}, [37], true]) {
    assert.throws(() => b.play(bad), TypeError);
  }
  assert.throws(() => new o.Board("8"), TypeError);
  assert.throws(() => o.Board.fromString(42), TypeError);
  assert.equal(b.isLegal(64), false);
  assert.equal(b.toString(), START);
  const e = new o.Engine(1);
  assert.throws(() => e.search("board"), TypeError);
  assert.throws(() => e.search(b, { level: "high" }), TypeError);
  assert.throws(() => e.search(b, { levle: 3 }), TypeError);
  expectCode(() => e.search(b, { level: 2 ** 40 }), "INVALID_ARGUMENT");
  expectCode(() => e.search(b, { level: 99 }), "INVALID_ARGUMENT");
  expectCode(() => e.search(b, { nodeLimit: -1 }), "INVALID_ARGUMENT");
  assert.throws(() => e.loadBook("book.bin"), TypeError);
  expectCode(() => e.loadBook(new Uint8Array([1, 2, 3])), "INVALID_ARGUMENT");
  expectCode(() => e.loadWeights(new Uint8Array(10)), "INVALID_ARGUMENT");
  // Freed handles throw; freeing again does nothing.
  b.free();
  b.free();
  assert.ok(b.freed);
  expectCode(() => b.legalMoves(), "NULL_ARGUMENT");
  expectCode(() => b.play("f5"), "NULL_ARGUMENT");
  expectCode(() => e.search(b), "NULL_ARGUMENT");
  e.free();
  expectCode(() => e.search(new o.Board()), "NULL_ARGUMENT");
  // The module still works.
  assert.equal(new o.Board().legalMoves().length, 4);
});

test("the native library's moves and scores, at level 8 and exactly at 16 empties", () => {
  const cases = JSON.parse(readFileSync(process.env.OTHELLO_NATIVE_ANSWERS, "utf8"));
  assert.equal(cases.length, 30);
  const e = new o.Engine(16);
  let nodes = 0;
  const start = performance.now();
  for (const c of cases) {
    const b = o.Board.fromString(c.board);
    e.clear();
    const r = e.search(b, c.limits);
    assert.deepEqual([r.move, r.score, r.nodes], [c.move, c.score, c.nodes], c.board);
    if (c.limits.exactEmpties) assert.ok(r.exact);
    nodes += r.nodes;
    b.free();
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(`wasm: ${nodes} nodes in ${seconds.toFixed(2)} s, ${(nodes / seconds / 1e6).toFixed(2)} M nodes/s`);
  e.free();
});

test("time limits, clocks, analysis, the book and the 1986 levels", () => {
  const e = new o.Engine(16);
  const b = o.Board.fromTranscript("f5d6c3d3c4f4f6f3e6e7");
  const timed = e.search(b, { level: 60, timeLimitMs: 300 });
  // Within the limit, but for what a loaded machine (the tests run beside
  // others) and V8's compiling add after the last look at the clock.
  assert.ok(timed.elapsedMs <= 330, `${timed.elapsedMs} ms`);
  assert.ok(timed.depth >= 4 && b.isLegal(timed.move));
  const clocked = e.search(b, { level: 60, clockRemainingMs: 3000 });
  assert.ok(clocked.elapsedMs < 1500, `${clocked.elapsedMs} ms of a 3 s clock`);
  const scores = e.analyze(b, { level: 4 });
  assert.deepEqual(scores.map((m) => m.move).sort((x, y) => x - y), b.legalMoves());
  assert.ok(scores.every((m, i) => i === 0 || m.score <= scores[i - 1].score));
  const start = new o.Board();
  assert.ok(e.bookMoves(start).length >= 1);
  assert.ok(e.search(start, { level: 10 }).fromBook);
  e.book = o.Book.NONE;
  assert.equal(e.bookMoves(start).length, 0);
  for (let depth = 0; depth < 4; depth++) {
    const r = e.search(b, { strategy: o.Strategy.CLASSIC, classicDepth: depth });
    assert.ok(b.isLegal(r.move));
  }
  assert.throws(() => e.search(b, { strategy: o.Strategy.CLASSIC, classicDepth: 12 }), o.OthelloError);
  e.free();
  b.free();
  start.free();
});

test("a search in a worker stops when the page's thread asks", async () => {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     import(workerData).then(async (o) => {
       await o.init();
       parentPort.postMessage(o.interruptFlag());
       const e = new o.Engine(16);
       const b = o.Board.fromTranscript("f5d6c3d3c4f4f6f3e6e7");
       parentPort.postMessage(e.search(b, { level: 60, timeLimitMs: 20000 }));
     });`,
    { eval: true, workerData: moduleUrl },
  );
  const messages = [];
  const done = new Promise((resolve, reject) => {
    worker.on("message", (m) => {
      messages.push(m);
      if (messages.length === 1) setTimeout(() => Atomics.store(m, 0, 1), 300);
      else resolve();
    });
    worker.on("error", reject);
  });
  await done;
  await worker.terminate();
  const result = messages[1];
  assert.ok(result.stopped, JSON.stringify(result));
  assert.ok(result.elapsedMs < 5000, `${result.elapsedMs} ms`);
  assert.ok(result.move >= 0);
});

test("memory stays put over thousands of games", async () => {
  const rng = random(2);
  const e = new o.Engine(1);
  const round = (games, free) => {
    for (let i = 0; i < games; i++) {
      const b = playRandomGame(rng, false);
      b.copy().free();
      if (i % 100 === 0) e.search(new o.Board(), { level: 1 }); // left to the registry
      if (free) b.free();
    }
  };
  round(500, true);
  const before = o.memoryBytes();
  round(3000, true);
  assert.equal(o.memoryBytes(), before, "explicit free()");
  // Boards never freed: the FinalizationRegistry frees them after GC.
  for (let k = 0; k < 5; k++) {
    round(600, false);
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  round(600, false);
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const settled = o.memoryBytes();
  for (let k = 0; k < 5; k++) {
    round(600, false);
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(o.memoryBytes(), settled, "garbage-collected boards are freed");
  e.free();
});
