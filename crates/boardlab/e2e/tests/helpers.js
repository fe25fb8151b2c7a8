// Shared set-up: the boardlab server on a free loopback port, Debian's chromium driven by playwright-core, the two
// viewports every page is tested at, and the test wrappers that run a test once per viewport.
import { test, before, after, afterEach } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../../..');
export const shots = process.env.BOARDLAB_SHOTS || join(repo, 'target', 'e2e-screenshots');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export function binary() {
  const candidates = [process.env.BOARDLAB_BIN, join(repo, 'target/release/boardlab'), join(repo, 'target/debug/boardlab')].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('no boardlab binary: build it first (cargo build) or set BOARDLAB_BIN');
  return found;
}

export function haveChromium() {
  return existsSync(CHROMIUM);
}

// Every browser test is skipped, with this reason, where the machine has no chromium.
export const skip = haveChromium() ? false : `chromium is missing (${CHROMIUM}): the browser tests are skipped`;

// The two viewports of the issue: a desktop window and a phone.
export const desktop = { name: 'desktop', viewport: { width: 1280, height: 800 } };
export const phone = { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const VIEWPORTS = [desktop, phone];

// The server and the browser of one test file: started before its first test, stopped after its last; the pages a
// test opens are closed after it. Answers {srv, browser, page(options), url(path)} (srv and browser once started).
export function serverAndBrowser(extraArgs = []) {
  const env = {
    srv: null,
    browser: null,
    contexts: [],
    async page(opts = {}) {
      const page = await newPage(env.browser, opts);
      env.contexts.push(page.context());
      return page;
    },
    url: (path) => env.srv.url + path,
    // A new game of `game` ('mouse', 'peg', 'sudoku') the way a player starts one: its page, the New game options
    // (opened when closed), each field of `fields` set ({ '#opt-level': '3' }: a select's choice or a field's
    // text), New game, and the page idle; then its board drawn, unless `board` is false (a game the server
    // refuses). Answers the page.
    async newGame(page, game, fields = {}, { board = true } = {}) {
      await page.goto(env.srv.url + '/' + game);
      await page.waitForSelector('details.setup summary');
      await idle(page);
      if (!(await page.$('details.setup[open]'))) await page.click('details.setup summary');
      await setFields(page, fields);
      await page.click(NEW_GAME[game]);
      await idle(page);
      if (board) await page.waitForSelector(BOARD[game]);
      return page;
    },
  };
  if (skip) console.error('notice: ' + skip);
  before(async () => {
    if (skip) return;
    env.srv = await startServer(extraArgs);
    env.browser = await launch();
  });
  afterEach(async () => {
    for (const c of env.contexts.splice(0)) await c.close().catch(() => {});
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.srv) await env.srv.stop();
  });
  return env;
}

// One test per viewport: `name [desktop 1280x800]`, `name [phone 390x844]`; `fn(vp)` gets the viewport's options
// (for env.page) and vp.name (for screenshot names).
export function eachViewport(name, opts, fn, viewports = VIEWPORTS) {
  for (const vp of viewports) {
    test(`${name} [${vp.name} ${vp.viewport.width}x${vp.viewport.height}]`, { skip, ...opts }, () => fn(vp));
  }
}

// Each game's New game button and its board.
export const NEW_GAME = { mouse: '#mouse-new', peg: '#peg-new', sudoku: '#sudoku-new' };
export const BOARD = { mouse: '.mouse-board', peg: '.peg-board', sudoku: '.sgrid' };

// Set the fields of a form: a select's choice, or a field's text.
export async function setFields(page, fields) {
  for (const [sel, value] of Object.entries(fields)) {
    if (await page.$eval(sel, (e) => e.tagName === 'SELECT')) await page.selectOption(sel, value);
    else await page.fill(sel, value);
  }
}

// The square the mouse stands on.
export function mouseSquare(page) {
  return page.getAttribute('[data-sq] .piece.mouse >> xpath=..', 'data-sq');
}

// Play one move of the mouse by clicking it and a square it can move to (the first of its targets, sorted by
// `order` when given); answers the move played, or null when the mouse has no move. Waits for the engine's answer.
export async function moveMouse(page, order) {
  const from = await mouseSquare(page);
  await page.click(`[data-sq="${from}"]`);
  const targets = await page.$$eval('.sq.target', (els) => els.map((e) => e.getAttribute('data-sq')));
  if (!targets.length) return null;
  if (order) targets.sort(order);
  await page.click(`[data-sq="${targets[0]}"]`);
  await idle(page);
  return `${from}-${targets[0]}`;
}

// Play the mouse until the game ends (at most `limit` moves), by `moveMouse`; waits for the game-over line.
export async function playMouseToTheEnd(page, { limit = 30, order, each } = {}) {
  for (let i = 0; i < limit && !(await page.$('.gameover')); i++) {
    await idle(page);
    if (await page.$('.gameover')) break;
    if (!(await moveMouse(page, order))) break;
    if (each) await each();
  }
  await page.waitForSelector('.gameover');
}

// Finish a peg game with the server's solution: "Show me a solution", then its jumps one at a time until the
// game is over (at most `limit`).
export async function finishPegWithTheSolution(page, limit = 40) {
  await page.click('#show-solution');
  await idle(page);
  await page.waitForSelector('.solution');
  for (let i = 0; i < limit && !(await page.$('.gameover')); i++) {
    await page.click('#step');
    await idle(page);
  }
  await page.waitForSelector('.gameover');
}

// The status line's text.
export async function statusText(page) {
  return (await page.textContent('#status')) || '';
}

// Start `boardlab serve` on 127.0.0.1 with a port of the system's choosing; answers {url, proc, stop}.
export function startServer(extraArgs = []) {
  return new Promise((resolveP, reject) => {
    const proc = spawn(binary(), ['serve', '--addr', '127.0.0.1:0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s: ' + out)), 20000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveP({ url: m[1].replace(/\/$/, ''), proc, stop: () => new Promise((r) => { proc.once('exit', r); proc.kill('SIGINT'); }) });
      }
    });
    proc.stderr.on('data', (d) => { out += d; });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${out}`)); });
  });
}

export async function launch() {
  mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export async function newPage(browser, opts = {}) {
  const contextOpts = { ...opts };
  delete contextOpts.name; // the viewport's name, not a context option
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true, bypassCSP: true, ...contextOpts });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.errors = errors;
  return page;
}

export async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + '.png'), fullPage: true });
}

// Once the page has no request in flight.
export async function idle(page) {
  await page.waitForFunction(() => !document.body.classList.contains('busy'));
}
