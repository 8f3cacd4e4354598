// othello: the engine in WebAssembly, for Node and browsers (docs/web.md).
//
// A thin wrapper over the library's C API as the module othello.wasm
// exports it: boards and engines are handles in the module's memory,
// strings and out-parameters are placed there with othello_wasm_alloc, and
// every failed call becomes an OthelloError with the library's message.
// The module imports two functions from its host (src/clock.rs): the time,
// for time limits and clocks, and whether to stop the running search.

/** The library's status codes, by value. */
const STATUS = [
  "OK",
  "NULL_ARGUMENT",
  "INVALID_SQUARE",
  "ILLEGAL_MOVE",
  "CANNOT_PASS",
  "GAME_OVER",
  "NOTHING_TO_UNDO",
  "NOTHING_TO_REDO",
  "BUFFER_TOO_SMALL",
  "PARSE_ERROR",
  "INVALID_ARGUMENT",
  "BUSY",
  "PANIC",
  "STOPPED",
  "OUT_OF_MEMORY",
];

export const PASS = -1;
export const Color = Object.freeze({ EMPTY: 0, BLACK: 1, WHITE: 2 });
export const Strategy = Object.freeze({ ENGINE: 0, CLASSIC: 1, CORNERS: 2, GREEDY: 3, RANDOM: 4 });
export const Book = Object.freeze({ NONE: 0, BUILTIN: 1, LOADED: 2 });
export const Evaluation = Object.freeze({ V1: 0, TRAINED: 1 });

/** A failed call: `status` is the library's code, `code` its name. */
export class OthelloError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "OthelloError";
    this.status = status;
    this.code = STATUS[status] ?? `STATUS_${status}`;
  }
}

let wasm = null;
// The word the search reads to stop (othello_host.interrupted): shared
// memory where the environment has it, so that another thread can stop a
// search holding this one.
const interrupt = new Int32Array(
  typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(4) : new ArrayBuffer(4),
);

const host = {
  now_ms: () => performance.now(),
  interrupted: () => Atomics.load(interrupt, 0),
};

/**
 * Loads the module: from `source` (a URL, a path in Node, bytes, a
 * Response or a WebAssembly.Module), by default othello.wasm beside this
 * file. Call it once before anything else; later calls return at once.
 */
export async function init(source) {
  if (wasm) return;
  const imports = { othello_host: host };
  let instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, imports);
  } else {
    const bytes = await load(source ?? new URL("./othello.wasm", import.meta.url));
    ({ instance } = await WebAssembly.instantiate(bytes, imports));
  }
  wasm = instance.exports;
}

async function load(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  if (typeof Response === "function" && source instanceof Response) return source.arrayBuffer();
  const url = source instanceof URL ? source : new URL(String(source), import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
  return response.arrayBuffer();
}

function lib() {
  if (!wasm) throw new Error("othello: call `await init()` first");
  return wasm;
}

/** The shared word a search reads to stop (see Engine.stop). */
export function interruptFlag() {
  return interrupt;
}

// ---------------------------------------------------------------------------
// Memory

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function alloc(len) {
  const p = lib().othello_wasm_alloc(len);
  if (!p) throw new OthelloError(14, "the WebAssembly memory is full");
  return p;
}

/** Runs `body(p)` with `len` zeroed bytes at `p`, freed after. */
function scratch(len, body) {
  const p = alloc(len);
  try {
    return body(p);
  } finally {
    wasm.othello_wasm_free(p, len);
  }
}

/** Runs `body(p)` with `text` as a NUL-terminated string at `p`. */
function withString(text, what, body) {
  if (typeof text !== "string") throw new TypeError(`${what} must be a string, not ${typeof text}`);
  const bytes = encoder.encode(text);
  return scratch(bytes.length + 1, (p) => {
    new Uint8Array(wasm.memory.buffer, p, bytes.length).set(bytes);
    return body(p);
  });
}

const view = () => new DataView(wasm.memory.buffer);
const readInts = (p, n) => Array.from(new Int32Array(wasm.memory.buffer, p, n));

function lastError() {
  const status = lib().othello_last_status();
  const message = scratch(4, (outN) => {
    wasm.othello_last_error(0, 0, outN);
    const len = view().getUint32(outN, true);
    return scratch(len, (buf) => {
      wasm.othello_last_error(buf, len, 0);
      return decoder.decode(new Uint8Array(wasm.memory.buffer, buf, Math.max(len - 1, 0)));
    });
  });
  return new OthelloError(status, message || STATUS[status]);
}

function check(status) {
  if (status !== 0) throw lastError();
}

/** A text the library writes into a buffer it sizes (BUFFER_TOO_SMALL). */
function text(call) {
  return scratch(4, (outN) => {
    let len = 128;
    for (;;) {
      const got = scratch(len, (buf) => {
        const st = call(buf, len, outN);
        if (st === 8) return null;
        check(st);
        const bytes = new Uint8Array(wasm.memory.buffer, buf, len);
        return decoder.decode(bytes.subarray(0, bytes.indexOf(0)));
      });
      if (got !== null) return got;
      len = view().getUint32(outN, true) + 1;
    }
  });
}

/** A list of ints the library writes, asked for its length first. */
function intList(call) {
  return scratch(4, (outN) => {
    check(call(0, 0, outN));
    const n = view().getUint32(outN, true);
    return scratch(Math.max(n, 1) * 4, (buf) => {
      check(call(buf, n, outN));
      return readInts(buf, view().getUint32(outN, true));
    });
  });
}

function int(value, what) {
  if (!Number.isInteger(value)) {
    throw new TypeError(`${what} must be an integer, not ${describe(value)}`);
  }
  return value;
}

function describe(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** A kind of handle: its name and the library's function that frees it. */
function handleKind(name, free) {
  // An owner that forgot free(): the garbage collector frees its handle.
  return { name, free, registry: new FinalizationRegistry(free) };
}

const BOARD = handleKind("Board", (p) => wasm.othello_board_free(p));
const ENGINE = handleKind("Engine", (p) => wasm.othello_engine_free(p));

/**
 * What boards and engines share: a handle in the module's memory, freed by
 * free() or by the garbage collector; any use after free() throws.
 */
class Owned {
  #p = 0;
  #kind;

  constructor(kind) {
    this.#kind = kind;
  }

  /** Takes `p` (NULL: the library's last error is thrown), freeing the handle held before. */
  _own(p) {
    if (!p) throw lastError();
    this.free();
    this.#p = p;
    this.#kind.registry.register(this, p, this);
  }

  /** The handle, for the library's calls; throws once freed. */
  get handle() {
    if (!this.#p) throw new OthelloError(1, `the ${this.#kind.name} was freed`);
    return this.#p;
  }

  /** Frees it now (idempotent); any later use throws. */
  free() {
    if (this.#p) {
      this.#kind.registry.unregister(this);
      this.#kind.free(this.#p);
      this.#p = 0;
    }
  }

  get freed() {
    return this.#p === 0;
  }
}

// ---------------------------------------------------------------------------
// Squares

/** The name of `square` (`row * size + col`) of the `size` board: "f5". */
export function squareName(square, size = 8) {
  int(size, "size");
  if (int(square, "square") === PASS) return "pass";
  if (square < -(2 ** 31) || square >= 2 ** 31) {
    throw new OthelloError(2, `square ${square} is outside the ${size}x${size} board`);
  }
  return text((buf, len) => lib().othello_square_name_sized(size, square, buf, len));
}

/** The square a name means on the `size` board ("pass" is PASS). */
export function parseSquare(name, size = 8) {
  int(size, "size");
  if (typeof name !== "string") throw new TypeError(`a square name is a string, not ${describe(name)}`);
  if (["pass", "pa", "ps"].includes(name.trim().toLowerCase())) return PASS;
  return scratch(4, (out) =>
    withString(name, "name", (p) => {
      check(lib().othello_square_parse_sized(size, p, out));
      return view().getInt32(out, true);
    }),
  );
}

/** The library's version, "MAJOR.MINOR.PATCH". */
export function version() {
  const p = lib().othello_version();
  const bytes = new Uint8Array(wasm.memory.buffer, p);
  return decoder.decode(bytes.subarray(0, bytes.indexOf(0)));
}

// ---------------------------------------------------------------------------
// Board

/** A game: its position, side to move and history (undo, redo). */
export class Board extends Owned {
  /** The standard start of the `size` board (an even size 4..16). */
  constructor(size = 8) {
    super(BOARD);
    int(size, "size");
    this._own(lib().othello_board_new_sized(size));
  }

  static #from(p) {
    if (!p) throw lastError();
    const b = new Board(4);
    b._own(p);
    return b;
  }

  /** A board from its string: size * size squares of X, O, -, a space, X or O. */
  static fromString(text) {
    return withString(text, "a board string", (p) => Board.#from(lib().othello_board_from_string(p)));
  }

  /** The game of a transcript ("f5d6c3") from the start of the `size` board. */
  static fromTranscript(text, size = 8) {
    int(size, "size");
    return withString(text, "a transcript", (p) =>
      Board.#from(lib().othello_board_from_transcript_sized(size, p)),
    );
  }

  #square(sq, passOk = false) {
    if (typeof sq === "string") return parseSquare(sq, this.size);
    int(sq, "square");
    if (sq === PASS && passOk) return sq;
    const n = this.size;
    if (sq < 0 || sq >= n * n) {
      throw new OthelloError(2, `square ${sq} is outside the ${n}x${n} board (0..${n * n - 1})`);
    }
    return sq;
  }

  copy() {
    return Board.#from(lib().othello_board_clone(this.handle));
  }

  get size() {
    return lib().othello_board_size(this.handle);
  }

  /** Color.BLACK or Color.WHITE (who may have to pass). */
  get sideToMove() {
    return lib().othello_board_side_to_move(this.handle);
  }

  /** The disc on `sq` (a name or an index): Color.EMPTY, BLACK or WHITE. */
  at(sq) {
    return lib().othello_board_get(this.handle, this.#square(sq));
  }

  /** Discs of `color` (empty squares for Color.EMPTY). */
  count(color) {
    const n = lib().othello_board_count(this.handle, int(color, "color"));
    if (n < 0) throw lastError();
    return n;
  }

  /** Moves `color` would have if it were to move now. */
  mobility(color) {
    const n = lib().othello_board_mobility(this.handle, int(color, "color"));
    if (n < 0) throw lastError();
    return n;
  }

  /** The legal moves of the side to move, ascending. */
  legalMoves() {
    const h = this.handle;
    return scratch(256 * 4, (buf) => readInts(buf, Math.min(wasm.othello_board_legal_moves(h, buf, 256), 256)));
  }

  isLegal(sq) {
    const h = this.handle;
    if (typeof sq !== "string" && Number.isInteger(sq) && (sq < 0 || sq >= this.size ** 2)) return false;
    return wasm.othello_board_is_legal(h, this.#square(sq)) !== 0;
  }

  /** The discs a move on `sq` would flip. */
  flips(sq) {
    const h = this.handle;
    const s = this.#square(sq);
    return intList((buf, n, outN) => wasm.othello_board_flips(h, s, buf, n, outN));
  }

  /** Plays `sq` (PASS or "pass" passes); returns the discs it flipped. */
  play(sq) {
    const h = this.handle;
    const s = this.#square(sq, true);
    if (s === PASS) {
      this.pass();
      return [];
    }
    return scratch(4 + 256 * 4, (outN) => {
      check(wasm.othello_board_play(h, s, outN + 4, 256, outN));
      return readInts(outN + 4, view().getUint32(outN, true));
    });
  }

  /** Passes: only when the side to move has no move. */
  pass() {
    check(lib().othello_board_pass(this.handle));
  }

  undo() {
    check(lib().othello_board_undo(this.handle));
  }

  redo() {
    check(lib().othello_board_redo(this.handle));
  }

  get canUndo() {
    return lib().othello_board_can_undo(this.handle) !== 0;
  }

  get canRedo() {
    return lib().othello_board_can_redo(this.handle) !== 0;
  }

  get mustPass() {
    return lib().othello_board_must_pass(this.handle) !== 0;
  }

  get isGameOver() {
    return lib().othello_board_is_game_over(this.handle) !== 0;
  }

  /** 1 at the start, plus one per move or pass since. */
  get moveNumber() {
    return lib().othello_board_move_number(this.handle);
  }

  /** The turns played: squares, PASS for passes. */
  history() {
    const h = this.handle;
    return intList((buf, n, outN) => wasm.othello_board_history(h, buf, n, outN));
  }

  /** Black's discs minus white's. */
  score() {
    return this.count(Color.BLACK) - this.count(Color.WHITE);
  }

  /** The board string: size * size squares of X, O, -, a space, X or O. */
  toString() {
    const h = this.handle;
    return text((buf, len, outN) => wasm.othello_board_to_string(h, buf, len, outN));
  }

  /** The moves played, "f5d6c3" (passes left out). */
  transcript() {
    const h = this.handle;
    return text((buf, len, outN) => wasm.othello_board_transcript(h, buf, len, outN));
  }
}

// ---------------------------------------------------------------------------
// Engine

// othello_search_limits on wasm32 (size_t and pointers of 4 bytes): each
// field's offset and type. Engine checks the size against the library's
// struct_size.
const LIMITS = {
  level: [4, "i32"],
  depth: [8, "i32"],
  exactEmpties: [12, "i32"],
  wldEmpties: [16, "i32"],
  nodeLimit: [24, "u64"],
  timeLimitMs: [32, "i64"],
  strategy: [40, "i32"],
  classicDepth: [44, "i32"],
  randomness: [48, "i32"],
  seed: [56, "u64"],
  selectivity: [72, "i32"],
  book: [76, "i32"],
  clockRemainingMs: [88, "i64"],
  clockIncrementMs: [96, "i64"],
};
const LIMITS_SIZE = 104;
const RESULT_SIZE = 312;
const PV_MAX = 64;
const MOVE_SCORE_SIZE = 12;

/** Writes `limits` (an object of LIMITS' keys) into a struct at `p`. */
function writeLimits(p, limits) {
  if (limits === null || typeof limits !== "object") throw new TypeError("limits must be an object");
  check(wasm.othello_search_limits_init_(p, LIMITS_SIZE));
  const v = view();
  if (v.getUint32(p, true) !== LIMITS_SIZE) throw new Error("othello.wasm's search limits are not this wrapper's");
  if (!("level" in limits) && ["depth", "exactEmpties", "wldEmpties"].some((k) => k in limits)) {
    v.setInt32(p + LIMITS.level[0], -1, true);
  }
  for (const [key, raw] of Object.entries(limits)) {
    const field = LIMITS[key];
    if (!field) throw new TypeError(`unknown search limit ${JSON.stringify(key)}`);
    const [offset, type] = field;
    const value = key === "book" && typeof raw === "boolean" ? Number(raw) : raw;
    if (type === "i32") {
      int(value, `limits.${key}`);
      if (value < -(2 ** 31) || value >= 2 ** 31) {
        throw new OthelloError(10, `limits.${key} ${value} does not fit a 32-bit int`);
      }
      v.setInt32(p + offset, value, true);
    } else {
      if (typeof value !== "bigint") int(value, `limits.${key}`);
      const big = BigInt(value);
      const [lo, hi] = type === "u64" ? [0n, 2n ** 64n - 1n] : [-(2n ** 63n), 2n ** 63n - 1n];
      if (big < lo || big > hi) throw new OthelloError(10, `limits.${key} ${value} is out of range`);
      if (type === "u64") v.setBigUint64(p + offset, big, true);
      else v.setBigInt64(p + offset, big, true);
    }
  }
}

function readMoveScores(p, n) {
  const v = view();
  return Array.from({ length: n }, (_, i) => ({
    move: v.getInt32(p + i * MOVE_SCORE_SIZE, true),
    score: v.getInt32(p + i * MOVE_SCORE_SIZE + 4, true),
    exact: v.getUint8(p + i * MOVE_SCORE_SIZE + 8) !== 0,
  }));
}

function boardArg(board, what) {
  if (!(board instanceof Board)) throw new TypeError(`${what} needs a Board`);
  return board.handle;
}

/** A search engine and its transposition table. One thread. */
export class Engine extends Owned {
  /** An engine with a table of `hashMb` MiB (0: the library's default, 64). */
  constructor(hashMb = 16) {
    super(ENGINE);
    int(hashMb, "hashMb");
    if (hashMb < 0) throw new OthelloError(10, `hashMb ${hashMb} is negative`);
    this._own(lib().othello_engine_new(hashMb));
  }

  /**
   * The best move for the side to move of `board`, under `limits`: level
   * (default 10), depth, exactEmpties, wldEmpties, nodeLimit, timeLimitMs,
   * clockRemainingMs and clockIncrementMs, strategy and classicDepth (the
   * 1986 program's levels), randomness, seed, selectivity, book.
   */
  search(board, limits = {}) {
    const h = this.handle;
    const b = boardArg(board, "search()");
    return scratch(LIMITS_SIZE, (lim) => {
      writeLimits(lim, limits);
      return scratch(RESULT_SIZE, (out) => {
        check(wasm.othello_search_result_init_(out, RESULT_SIZE));
        if (view().getUint32(out, true) !== RESULT_SIZE) throw new Error("othello.wasm's search result is not this wrapper's");
        Atomics.store(interrupt, 0, 0);
        check(wasm.othello_engine_search(h, b, lim, out));
        // othello_search_result on wasm32: struct_size (4 bytes) first.
        const v = view();
        return {
          move: v.getInt32(out + 4, true),
          score: v.getInt32(out + 8, true),
          exact: v.getUint8(out + 12) !== 0,
          wld: v.getUint8(out + 13) !== 0,
          depth: v.getInt32(out + 16, true),
          nodes: Number(v.getBigUint64(out + 24, true)),
          elapsedMs: Number(v.getBigUint64(out + 32, true)),
          stopped: v.getUint8(out + 40) !== 0,
          pv: readInts(out + 44, Math.min(v.getUint32(out + 44 + PV_MAX * 4, true), PV_MAX)),
          fromBook: v.getUint8(out + 44 + PV_MAX * 4 + 4) !== 0,
        };
      });
    });
  }

  /** Every legal move scored, best first ([] when the side must pass). */
  analyze(board, limits = {}) {
    const h = this.handle;
    const b = boardArg(board, "analyze()");
    return scratch(LIMITS_SIZE, (lim) => {
      writeLimits(lim, limits);
      return scratch(4 + 256 * MOVE_SCORE_SIZE, (outN) => {
        Atomics.store(interrupt, 0, 0);
        check(wasm.othello_engine_analyze(h, b, lim, outN + 4, 256, outN));
        return readMoveScores(outN + 4, view().getUint32(outN, true));
      });
    });
  }

  /** The opening book's moves in `board`'s position, best first. */
  bookMoves(board) {
    const h = this.handle;
    const b = boardArg(board, "bookMoves()");
    return scratch(4 + 64 * MOVE_SCORE_SIZE, (outN) => {
      check(wasm.othello_engine_book_moves(h, b, outN + 4, 64, outN));
      return readMoveScores(outN + 4, Math.min(view().getUint32(outN, true), 64));
    });
  }

  /**
   * Stops the running search, which then returns its best move so far.
   * A search holds its thread: stop() reaches it from another thread
   * sharing interruptFlag() (a page stopping its Worker's search), or
   * Atomics.store(interruptFlag(), 0, 1) there.
   */
  stop() {
    Atomics.store(interrupt, 0, 1);
    if (!this.freed) wasm.othello_engine_stop(this.handle);
  }

  /** Forgets the transposition table (a new game); an error while it searches. */
  clear() {
    check(wasm.othello_engine_clear(this.handle));
  }

  get book() {
    return lib().othello_engine_get_book(this.handle);
  }

  /** Book.NONE or Book.BUILTIN (loadBook() for a book of your own). */
  set book(value) {
    check(lib().othello_engine_set_book(this.handle, int(value, "book")));
  }

  /** Plays from the book in `bytes` (a file written by othello-book). */
  loadBook(bytes) {
    this.#load(bytes, "othello_engine_load_book_buffer");
  }

  get evaluation() {
    return lib().othello_engine_get_evaluation(this.handle);
  }

  set evaluation(value) {
    check(lib().othello_engine_set_evaluation(this.handle, int(value, "evaluation")));
  }

  /** Searches with the trained weights in `bytes` (othello-train's file). */
  loadWeights(bytes) {
    this.#load(bytes, "othello_engine_load_weights_buffer");
  }

  #load(bytes, fn) {
    const h = this.handle;
    if (!(bytes instanceof Uint8Array)) throw new TypeError("the file's bytes must be a Uint8Array");
    scratch(bytes.length, (p) => {
      new Uint8Array(wasm.memory.buffer, p, bytes.length).set(bytes);
      check(wasm[fn](h, p, bytes.length));
    });
  }
}

/** The module's memory in bytes (it grows and never shrinks). */
export function memoryBytes() {
  return lib().memory.buffer.byteLength;
}
