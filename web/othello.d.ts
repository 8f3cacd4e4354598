// Types of othello.js, the engine in WebAssembly (docs/web.md).

/** A square: `row * size + col` (a1 = 0, h8 = 63 on 8x8), or PASS. */
export type Square = number;
/** A square as an index, or as a name ("f5", "pass"). */
export type SquareArg = Square | string;

export declare const PASS: -1;
export declare const Color: Readonly<{ EMPTY: 0; BLACK: 1; WHITE: 2 }>;
export type Color = (typeof Color)[keyof typeof Color];
export declare const Strategy: Readonly<{ ENGINE: 0; CLASSIC: 1; CORNERS: 2; GREEDY: 3; RANDOM: 4 }>;
export type Strategy = (typeof Strategy)[keyof typeof Strategy];
export declare const Book: Readonly<{ NONE: 0; BUILTIN: 1; LOADED: 2 }>;
export type Book = (typeof Book)[keyof typeof Book];
export declare const Evaluation: Readonly<{ V1: 0; TRAINED: 1 }>;
export type Evaluation = (typeof Evaluation)[keyof typeof Evaluation];

/** A failed call, with the library's status and message. */
export declare class OthelloError extends Error {
  readonly status: number;
  /** The status's name: "ILLEGAL_MOVE", "PARSE_ERROR", ... */
  readonly code: string;
}

/** Loads othello.wasm (by default from beside othello.js). */
export declare function init(
  source?: URL | string | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module,
): Promise<void>;
export declare function version(): string;
export declare function squareName(square: Square, size?: number): string;
export declare function parseSquare(name: string, size?: number): Square;
/** The shared word a running search reads to stop. */
export declare function interruptFlag(): Int32Array;
/** The module's memory in bytes. */
export declare function memoryBytes(): number;

export declare class Board {
  constructor(size?: number);
  static fromString(text: string): Board;
  static fromTranscript(text: string, size?: number): Board;
  readonly handle: number;
  readonly freed: boolean;
  free(): void;
  copy(): Board;
  readonly size: number;
  readonly sideToMove: Color;
  at(square: SquareArg): Color;
  count(color: Color): number;
  mobility(color: Color): number;
  legalMoves(): Square[];
  isLegal(square: SquareArg): boolean;
  flips(square: SquareArg): Square[];
  play(square: SquareArg): Square[];
  pass(): void;
  undo(): void;
  redo(): void;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly mustPass: boolean;
  readonly isGameOver: boolean;
  readonly moveNumber: number;
  history(): Square[];
  score(): number;
  toString(): string;
  transcript(): string;
}

/** The fields of othello_search_limits (include/othello.h). */
export interface Limits {
  level?: number;
  depth?: number;
  exactEmpties?: number;
  wldEmpties?: number;
  nodeLimit?: number | bigint;
  timeLimitMs?: number | bigint;
  strategy?: Strategy;
  classicDepth?: number;
  randomness?: number;
  seed?: number | bigint;
  selectivity?: number;
  book?: number | boolean;
  clockRemainingMs?: number | bigint;
  clockIncrementMs?: number | bigint;
}

export interface SearchResult {
  move: Square;
  /** Discs for the side to move. */
  score: number;
  exact: boolean;
  wld: boolean;
  depth: number;
  nodes: number;
  elapsedMs: number;
  stopped: boolean;
  pv: Square[];
  fromBook: boolean;
}

export interface MoveScore {
  move: Square;
  score: number;
  exact: boolean;
}

export declare class Engine {
  constructor(hashMb?: number);
  /** The handle, for the library's calls; throws once freed. */
  readonly handle: number;
  readonly freed: boolean;
  free(): void;
  search(board: Board, limits?: Limits): SearchResult;
  analyze(board: Board, limits?: Limits): MoveScore[];
  bookMoves(board: Board): MoveScore[];
  stop(): void;
  clear(): void;
  book: Book;
  evaluation: Evaluation;
  loadBook(bytes: Uint8Array): void;
  loadWeights(bytes: Uint8Array): void;
}
