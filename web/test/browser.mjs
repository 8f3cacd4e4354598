// The page of web/demo in headless Chromium (tests/web.rs runs it):
//
//   OTHELLO_WEB_SITE=DIR PLAYWRIGHT_DIR=DIR2 OTHELLO_WEB_SCREENSHOT=FILE node web/test/browser.mjs
//
// DIR holds the package (othello.js, othello.wasm) and demo/; DIR2 a
// project with playwright-core installed; Chromium is /usr/bin/chromium
// (or $CHROMIUM). Serves DIR on localhost, plays a whole game by clicks
// against the engine, checking at every turn that the moves the page shows
// are legal and its discs are the rules' (the package replays them here),
// then undo and a new game, and takes a screenshot.

import assert from "node:assert/strict";
import http from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const site = process.env.OTHELLO_WEB_SITE;
const shot = process.env.OTHELLO_WEB_SCREENSHOT;
assert.ok(site && shot && process.env.PLAYWRIGHT_DIR, "OTHELLO_WEB_SITE, OTHELLO_WEB_SCREENSHOT, PLAYWRIGHT_DIR");
const { chromium } = createRequire(path.join(process.env.PLAYWRIGHT_DIR, "package.json"))("playwright-core");
const o = await import(pathToFileURL(path.join(site, "othello.js")).href);
await o.init();

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
const server = http.createServer(async (req, res) => {
  const file = path.join(site, decodeURIComponent(new URL(req.url, "http://x").pathname));
  if (!file.startsWith(site)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      // Cross-origin isolation: SharedArrayBuffer, which stop() uses.
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
    });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/demo/index.html`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  const settled = () =>
    page.waitForFunction(() => ["human", "over"].includes(document.body.dataset.state), null, { timeout: 60000 });
  await settled();
  await page.selectOption("#level", "engine:2");

  // Checks the page against the rules; returns the replayed board.
  const check = async () => {
    const transcript = (await page.textContent("#moves")).trim();
    const replay = o.Board.fromTranscript(transcript); // throws on an illegal move
    const discs = await page.$$eval("#board .cell", (cells) =>
      cells.map((c) => (c.querySelector(".disc.black") ? 1 : c.querySelector(".disc.white") ? 2 : 0)),
    );
    assert.deepEqual(discs, Array.from({ length: 64 }, (_, sq) => replay.at(sq)), transcript);
    return replay;
  };

  let seed = 7;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  let clicks = 0;
  for (;;) {
    await settled();
    const replay = await check();
    const state = await page.evaluate(() => document.body.dataset.state);
    if (state === "over") {
      assert.ok(replay.isGameOver, "the page says the game is over when it is");
      replay.free();
      break;
    }
    const legal = await page.$$eval("#board .cell.legal", (cells) => cells.map((c) => Number(c.dataset.square)));
    assert.deepEqual(legal.sort((a, b) => a - b), replay.legalMoves(), "the legal moves shown");
    replay.free();
    const square = legal[rand(legal.length)];
    await page.click(`#board .cell[data-square="${square}"]`);
    clicks += 1;
  }
  const transcript = (await page.textContent("#moves")).trim();
  const points = await page.$$eval("#graph circle", (c) => c.length);
  assert.ok(points >= 10, `${points} points on the evaluation graph`);
  assert.match(await page.textContent("#status"), /Game over/);
  await page.screenshot({ path: shot });

  // Undo goes back to a turn of the human's; a new game starts over.
  await page.click("#undo");
  await settled();
  assert.equal(await page.evaluate(() => document.body.dataset.state), "human");
  const undone = (await page.textContent("#moves")).trim();
  assert.ok(undone.length < transcript.length && transcript.startsWith(undone), `${undone} / ${transcript}`);
  (await check()).free();
  await page.selectOption("#level", "classic:1");
  await page.click("#new");
  await settled();
  assert.equal((await page.textContent("#moves")).trim(), "");
  await page.click(`#board .cell.legal`);
  await settled();
  (await check()).free();
  assert.deepEqual(errors, [], "no error in the page");
  console.log(`browser: a whole game of ${transcript.length / 2} moves (${clicks} clicks), undo and a new game; screenshot ${shot}`);
} finally {
  await browser.close();
  server.close();
}
