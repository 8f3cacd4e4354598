// The page: the board and the rules on this thread, the engine in a Web
// Worker (worker.js). document.body.dataset.state says whose turn it is
// ("human", "engine", "over"), for people and for tests.
import { init, Board, Color, PASS, squareName } from "../othello.js";

const $ = (id) => document.getElementById(id);
const cells = [];
let board = null;
let worker = null;
let pending = 0; // the id of the search awaited, 0 when none
let lastMove = null;
let lastFlips = [];
let evals = []; // {ply, black}: the engine's evaluation for black, in discs

function human() {
  return Number($("side").value);
}

function setState(state, text) {
  document.body.dataset.state = state;
  $("status").textContent = text;
}

function startWorker() {
  worker?.terminate();
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => onEngineMove(data);
  pending = 0;
}

function newGame() {
  board?.free();
  board = new Board();
  lastMove = null;
  lastFlips = [];
  evals = [];
  if (pending) startWorker();
  next();
}

function play(square) {
  lastFlips = board.play(square);
  lastMove = square;
}

// Whose turn, and what happens now: passes are played for whoever must.
function next() {
  while (board.mustPass) {
    board.pass();
    lastMove = PASS;
    lastFlips = [];
  }
  render();
  if (board.isGameOver) {
    const [b, w] = [board.count(Color.BLACK), board.count(Color.WHITE)];
    const result = b === w ? "a draw" : `${b > w ? "black" : "white"} wins`;
    setState("over", `Game over: ${result}, ${b} to ${w}.`);
    return;
  }
  if (board.sideToMove === human()) {
    setState("human", lastMove === PASS ? "The engine passed. Your move." : "Your move.");
    return;
  }
  setState("engine", "The engine is thinking…");
  pending += 1;
  worker.postMessage({ id: pending, board: board.toString(), opponent: $("level").value });
}

function onEngineMove(data) {
  if (data.id !== pending) return; // a search for a game since left
  pending = 0;
  if (data.error) {
    setState("over", `The engine failed: ${data.error}`);
    return;
  }
  const black = board.sideToMove === Color.BLACK ? data.eval : -data.eval;
  evals.push({ ply: board.moveNumber, black });
  play(data.move);
  next();
}

function onClick(square) {
  if (document.body.dataset.state !== "human" || !board.isLegal(square)) return;
  play(square);
  next();
}

function undo() {
  if (!board || pending) return;
  // Back to the human's previous turn (the engine's reply and any passes).
  do {
    if (!board.canUndo) break;
    board.undo();
  } while (board.sideToMove !== human() || board.mustPass);
  evals = evals.filter((e) => e.ply < board.moveNumber);
  const history = board.history();
  lastMove = history.length ? history[history.length - 1] : null;
  lastFlips = [];
  next();
}

function render() {
  // The human's moves, shown while it is the human's turn.
  const legal = board.sideToMove === human() ? board.legalMoves() : [];
  for (let sq = 0; sq < 64; sq++) {
    const cell = cells[sq];
    const color = board.at(sq);
    cell.className = "cell";
    if (legal.includes(sq)) cell.classList.add("legal");
    if (sq === lastMove) cell.classList.add("last");
    if (lastFlips.includes(sq)) cell.classList.add("flipped");
    cell.replaceChildren();
    if (color !== Color.EMPTY) {
      const disc = document.createElement("div");
      disc.className = `disc ${color === Color.BLACK ? "black" : "white"}`;
      cell.append(disc);
    }
  }
  $("score").textContent = `Black ${board.count(Color.BLACK)} – White ${board.count(Color.WHITE)}`;
  const last = evals[evals.length - 1];
  $("evaluation").textContent = last
    ? `Engine's evaluation: ${last.black > 0 ? "+" : ""}${last.black} for black`
    : "Engine's evaluation: none yet";
  $("moves").textContent = board.transcript();
  drawGraph();
}

// The evaluation over the game: black's advantage in discs by move, as
// NBoard and Egaroucid's GUIs draw it (up is good for black).
function drawGraph() {
  const svg = $("graph");
  const [w, h] = [300, 120];
  const x = (ply) => (ply / 62) * w;
  const y = (v) => h / 2 - (Math.max(-64, Math.min(64, v)) / 64) * (h / 2 - 4);
  const points = evals.map((e) => `${x(e.ply).toFixed(1)},${y(e.black).toFixed(1)}`).join(" ");
  svg.innerHTML =
    `<line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="#999" stroke-dasharray="4 3"/>` +
    `<polyline fill="none" stroke="#1b4d2b" stroke-width="2" points="${points}"/>` +
    evals.map((e) => `<circle cx="${x(e.ply).toFixed(1)}" cy="${y(e.black).toFixed(1)}" r="2.5" fill="#1b4d2b"/>`).join("");
}

async function main() {
  setState("loading", "Loading…");
  await init();
  const grid = $("board");
  for (let sq = 0; sq < 64; sq++) {
    const cell = document.createElement("div");
    cell.dataset.square = String(sq);
    cell.title = squareName(sq);
    cell.addEventListener("click", () => onClick(sq));
    cells.push(cell);
    grid.append(cell);
  }
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("side").addEventListener("change", newGame);
  startWorker();
  newGame();
}

main();
