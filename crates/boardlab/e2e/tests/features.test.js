// What players expect of the pages (issue 37): rules and help on every page, links that carry the game, settings
// kept in the browser, the board and the action bar on screen, an accessibility scan, the daily puzzles, stats, the
// replay and hints drawn on candidates; each at the desktop and the phone viewport.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serverAndBrowser, eachViewport, shot, shots, idle, statusText, BOARD, mouseSquare, moveMouse, playMouseToTheEnd, finishPegWithTheSolution } from './helpers.js';

const env = serverAndBrowser();

// A game of each kind, started the way a player starts one.
const FIELDS = { mouse: { '#opt-level': '2' }, peg: { '#opt-board': 'english' }, sudoku: { '#opt-difficulty': 'easy' } };
const start = Object.fromEntries(Object.entries(FIELDS).map(([game, fields]) => [game, (page) => env.newGame(page, game, fields)]));
const boardOf = BOARD;

eachViewport('? opens the rules (play\'s own text) and the keys on every page; each game has a rules page', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/');
  const menus = await page.evaluate(() => fetch('/api/menus').then((r) => r.json()));
  for (const [path, key] of [['/', null], ['/mouse', 'mouse'], ['/peg', 'peg'], ['/peg/analysis', 'peg'], ['/sudoku', 'sudoku'], ['/stats', null], ['/rules/sudoku', 'sudoku']]) {
    await page.goto(env.srv.url + path);
    await idle(page);
    await page.waitForSelector('main h1');
    await page.keyboard.press('?');
    await page.waitForSelector('dialog#help[open]');
    // The rules open at their top: the heading in sight, with the focus.
    const head = await page.$eval('#help-title', (e) => {
      const r = e.getBoundingClientRect(), d = e.closest('dialog').getBoundingClientRect();
      return { inside: r.top >= d.top - 0.5 && r.bottom <= d.bottom + 0.5, focused: document.activeElement === e };
    });
    assert.deepEqual(head, { inside: true, focused: true }, `${path}: the rules' heading`);
    const text = await page.textContent('dialog#help');
    if (key) {
      const game = menus.games.find((x) => x.key === key);
      for (const p of game.rules) assert.ok(text.includes(p), `${path}: the rules paragraph "${p.slice(0, 40)}…"`);
      assert.match(text, /Keys on this page/);
    } else {
      for (const x of menus.games) assert.ok(text.includes(x.name), `${path}: ${x.name}`);
    }
    if (path === '/sudoku') await shot(page, `help-sudoku-${vp.name}`);
    await page.click('#help-close');
    assert.equal(await page.$('dialog#help[open]'), null);
  }
  // The button in the header opens the same help.
  await page.click('#help-button');
  await page.waitForSelector('dialog#help[open]');
  await page.click('#help-close');
  await page.goto(env.srv.url + '/rules/mouse');
  await page.waitForSelector('main h1');
  assert.match(await page.textContent('main h1'), /Mouse & Cats: rules/);
  assert.ok((await page.textContent('main')).includes(menus.games[0].rules[0]));
  assert.deepEqual(page.errors, []);
});

eachViewport('a link carries the game: copied, it opens the same game in a fresh page', { timeout: 240000 }, async (vp) => {
  const ctx = { ...vp, permissions: ['clipboard-read', 'clipboard-write'] };
  // Sudoku: the clues.
  let page = await env.page(ctx);
  await start.sudoku(page);
  const givens = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.givens);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('http'));
  const sudokuLink = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(sudokuLink, await page.evaluate(() => location.href));
  assert.ok(sudokuLink.includes(givens.replace(/\./g, '.')), sudokuLink);
  let fresh = await env.page(vp);
  await fresh.goto(sudokuLink);
  await fresh.waitForSelector('.sgrid');
  await idle(fresh);
  assert.equal(await fresh.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.givens), givens);
  // Peg: the board, its start and the jumps played.
  page = await env.page(ctx);
  await start.peg(page);
  for (const [a, b] of [['d2', 'd4'], ['f3', 'd3']]) {
    await page.click(`[data-hole="${a}"]`);
    await page.click(`[data-hole="${b}"]`);
    await idle(page);
  }
  const pegLink = await page.evaluate(() => location.href);
  assert.match(pegLink, /board=english/);
  assert.match(pegLink, /jumps=d2-d4%2Cf3-d3|jumps=d2-d4,f3-d3/);
  fresh = await env.page(vp);
  await fresh.goto(pegLink);
  await fresh.waitForSelector('.peg-board');
  await idle(fresh);
  assert.equal(await fresh.textContent('#pegs-left'), '30 pegs left');
  assert.deepEqual(await fresh.evaluate(() => JSON.parse(localStorage.getItem('boardlab.peg')).state.moves), ['d2-d4', 'f3-d3']);
  // Mouse: the options and the moves, the engine's included.
  page = await env.page(ctx);
  await start.mouse(page);
  const played = await moveMouse(page);
  assert.ok(played, 'the mouse has a move');
  const moves = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.mouse')).state.moves);
  assert.equal(moves.length, 2);
  const mouseLink = await page.evaluate(() => location.href);
  fresh = await env.page(vp);
  await fresh.goto(mouseLink);
  await fresh.waitForSelector('.mouse-board');
  await idle(fresh);
  assert.deepEqual(await fresh.evaluate(() => JSON.parse(localStorage.getItem('boardlab.mouse')).state.moves), moves);
  assert.equal(await mouseSquare(fresh), played.split('-')[1]);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
});

eachViewport('a bad link gets a clear message, never a broken page', { timeout: 120000 }, async (vp) => {
  const bad = [
    ['/sudoku?puzzle=123', /link does not hold a game.*(81|puzzle)/i, '#sudoku-new'],
    ['/sudoku?puzzle=11' + '.'.repeat(79), /link does not hold a game/i, '#sudoku-new'],
    ['/peg?board=nosuch', /link does not hold a game.*nosuch/i, '#peg-new'],
    ['/peg?board=english&jumps=d2-d4,a1-a3', /link does not hold a game.*a1/i, '#peg-new'],
    ['/mouse?size=7', /link does not hold a game.*7/i, '#mouse-new'],
    ['/mouse?moves=E1-E2', /link does not hold a game.*E1/i, '#mouse-new'],
  ];
  for (const [path, re, form] of bad) {
    const page = await env.page(vp);
    await page.goto(env.srv.url + path);
    await page.waitForSelector(form);
    await idle(page);
    const text = await statusText(page);
    assert.match(text, re, `${path}: ${text}`);
    assert.ok(!text.includes('\n'), 'one line');
    assert.deepEqual(page.errors.filter((e) => !/status of 4\d\d/.test(e)), [], path);
  }
});

eachViewport('settings are kept in the browser: they survive a reload', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await start.sudoku(page);
  assert.ok(await page.$('#timer'));
  await page.click('#settings-button');
  await page.waitForSelector('dialog#settings[open]');
  await page.check('#set-theme-dark');
  await page.uncheck('#set-showTimer');
  await page.uncheck('#set-highlightSame');
  await page.uncheck('#set-showConflicts');
  await page.click('#settings-close');
  await page.reload();
  await page.waitForSelector('.sgrid');
  await idle(page);
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.equal(await page.$('#timer'), null, 'the timer is hidden');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(21, 23, 26)', 'the dark theme');
  // Same-digit highlighting off: a cell with a digit under the cursor lights up no other cell.
  const given = await page.$$eval('.cell.given', (els) => els[0].dataset.cell);
  await page.click(`[data-cell="${given}"]`);
  assert.equal((await page.$$('.cell.same')).length, 0);
  // A clash is not shown with conflicts off.
  const empty = await page.$$eval('[data-cell]', (els) => els.find((e) => !e.querySelector('.digit')).dataset.cell);
  const row = Math.floor(empty / 9);
  const clash = await page.$$eval('[data-cell]', (els, r) => els.filter((e) => Math.floor(e.dataset.cell / 9) === r).map((e) => e.querySelector('.digit')).filter(Boolean)[0].textContent, row);
  await page.click(`[data-cell="${empty}"]`);
  await page.keyboard.press(clash);
  await idle(page);
  assert.equal((await page.$$('.cell.conflict')).length, 0);
  await page.click('#settings-button');
  assert.equal(await page.isChecked('#set-theme-dark'), true);
  assert.equal(await page.isChecked('#set-showTimer'), false);
  await page.check('#set-showConflicts');
  await page.waitForSelector('.cell.conflict');
  await page.check('#set-highlightSame');
  await page.check('#set-showTimer');
  await page.check('#set-theme-system');
  await page.click('#settings-close');
  assert.equal(await page.getAttribute('html', 'data-theme'), null);
  assert.deepEqual(page.errors, []);
});

eachViewport('the setting "remove a placed digit from the pencil marks of its houses" is kept and followed', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await start.sudoku(page);
  await page.click('#auto');
  await idle(page);
  const solution = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.solution);
  // An empty cell, its digit, and a peer (same row, column or box) with that digit among its marks.
  const [cell, digit, peer] = await page.$$eval('[data-cell]', (els, sol) => {
    const empty = els.filter((e) => !e.querySelector('.digit')).map((e) => Number(e.dataset.cell));
    const sees = (a, b) => a !== b && (Math.floor(a / 9) === Math.floor(b / 9) || a % 9 === b % 9
      || (Math.floor(a / 27) === Math.floor(b / 27) && Math.floor((a % 9) / 3) === Math.floor((b % 9) / 3)));
    for (const c of empty) {
      const d = sol[c];
      const p = empty.find((o) => sees(c, o) && els[o].querySelector('.corner').textContent.includes(d));
      if (p !== undefined) return [c, d, p];
    }
    return [null, null, null];
  }, solution);
  assert.notEqual(cell, null, 'a cell whose digit is a mark of a peer');
  const peerMarks = () => page.textContent(`[data-cell="${peer}"] .corner`);
  await page.click('#settings-button');
  assert.equal(await page.isChecked('#set-removeCandidates'), true, 'on by default');
  await page.uncheck('#set-removeCandidates');
  await page.click('#settings-close');
  await page.reload();
  await page.waitForSelector('.sgrid');
  await idle(page);
  await page.click(`[data-cell="${cell}"]`);
  await page.keyboard.press(digit);
  await idle(page);
  assert.equal(await page.textContent(`[data-cell="${cell}"] .digit`), digit);
  assert.ok((await peerMarks()).includes(digit), 'off: the peer keeps its mark');
  await page.click('#undo');
  await idle(page);
  await page.click('#settings-button');
  assert.equal(await page.isChecked('#set-removeCandidates'), false, 'kept over a reload');
  await page.check('#set-removeCandidates');
  await page.click('#settings-close');
  await page.click(`[data-cell="${cell}"]`);
  await page.keyboard.press(digit);
  await idle(page);
  assert.ok(!(await peerMarks()).includes(digit), 'on: the mark is gone from the peer');
  assert.deepEqual(page.errors, []);
});

eachViewport('each game\'s board and action bar lie inside the window', { timeout: 180000 }, async (vp) => {
  for (const game of ['mouse', 'peg', 'sudoku']) {
    const page = await env.page(vp);
    await start[game](page);
    await page.evaluate(() => window.scrollTo(0, 0));
    const inside = async (sel) => {
      const r = await page.$eval(sel, (e) => e.getBoundingClientRect().toJSON());
      assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.width <= vp.viewport.width + 0.5 && r.y + r.height <= vp.viewport.height + 0.5,
        `${game} on the ${vp.name}: ${sel} at ${JSON.stringify(r)} is outside the window`);
      return r;
    };
    const board = await inside(boardOf[game]);
    const bar = await inside('.actionbar');
    assert.ok(board.y + board.height <= bar.y + 0.5, `${game} on the ${vp.name}: the action bar covers the board`);
    for (const id of ['#undo', '#new-game', ...(game === 'peg' ? ['#show-solution'] : ['#hint']), ...(game === 'sudoku' ? ['#check'] : [])]) {
      const b = await page.$eval(`.actionbar ${id}`, (e) => e.getBoundingClientRect().toJSON());
      assert.ok(b.width >= 40 && b.height >= 40, `${game} ${id}: a touch target of ${b.width}x${b.height}`);
    }
    if (game === 'sudoku') {
      const pad = await inside('.pad');
      assert.ok(pad.y + pad.height <= bar.y + 0.5, `sudoku on the ${vp.name}: the action bar covers the digit pad`);
      const cell = await page.$eval('[data-cell="0"]', (e) => e.getBoundingClientRect().toJSON());
      assert.ok(cell.width >= 39.5, `a sudoku cell is ${cell.width} wide`);
    }
    if (game === 'peg') {
      // The pegs left and the indicator are in sight with the board, above the action bar.
      for (const sel of ['#pegs-left', '#solvable']) {
        const r = await inside(sel);
        assert.ok(r.y + r.height <= bar.y + 0.5, `peg on the ${vp.name}: the action bar covers ${sel}`);
      }
    }
    if (game === 'mouse') {
      const open = await page.$eval('details.panel', (d) => d.open);
      assert.equal(open, vp.name === 'desktop', 'the engine panel folds away on a phone');
    }
    if (vp.name === 'phone') {
      // Every control a finger touches is 40 pixels across at least: the menu, the fold-outs, the fields, the
      // board's squares, holes and cells, every button (inline links in sentences aside).
      const small = await page.$$eval(['nav a', 'button', 'summary', 'select', 'input:not([type=checkbox]):not([type=radio])', '.check',
        '[data-hole]', '[data-sq]', '[role=gridcell]'].join(', '), (els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { what: e.id || e.getAttribute('data-hole') || e.getAttribute('data-sq') || e.textContent.trim().slice(0, 24) || e.tagName, w: r.width, h: r.height };
      }).filter((r) => r.w > 0 && r.h > 0 && (r.w < 39.5 || r.h < 39.5)).map((r) => `${r.what} ${Math.round(r.w)}x${Math.round(r.h)}`));
      assert.deepEqual(small, [], `${game}: touch targets under 40 pixels`);
    }
    await shot(page, `${game}-${vp.name}`);
    assert.deepEqual(page.errors, [], game);
  }
});

eachViewport('axe-core finds no serious or critical violation on any page', { timeout: 240000 }, async (vp) => {
  const require = createRequire(import.meta.url);
  const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const results = {};
  const scan = async (page, name) => {
    await page.addScriptTag({ content: axe });
    const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    results[name] = r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  };
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/');
  await page.waitForSelector('.cards');
  await scan(page, 'title');
  for (const game of ['mouse', 'peg', 'sudoku']) {
    await start[game](page);
    await scan(page, game);
  }
  // A replay: two jumps played, the position after the first shown.
  await start.peg(page);
  for (const [a, b] of [['d2', 'd4'], ['f3', 'd3']]) {
    await page.click(`[data-hole="${a}"]`);
    await page.click(`[data-hole="${b}"]`);
    await idle(page);
  }
  await page.click('#moves .move[data-ply="1"]');
  await page.waitForSelector('#replay-at');
  await scan(page, 'peg replay');
  await start.sudoku(page);
  await page.click('#hint');
  await idle(page);
  await scan(page, 'sudoku with a hint');
  // Pencil marks in the corners and the centre of a cell.
  await page.click('#auto');
  await idle(page);
  const empty = await page.$$eval('[data-cell]', (els) => els.find((e) => !e.querySelector('.digit')).dataset.cell);
  await page.click(`[data-cell="${empty}"]`);
  await page.keyboard.press('c');
  await page.keyboard.press('5');
  await idle(page);
  await page.keyboard.press('c');
  await page.waitForSelector('.centre');
  await scan(page, 'sudoku with marks');
  await page.keyboard.press('?');
  await page.waitForSelector('dialog#help[open]');
  await scan(page, 'sudoku rules dialog');
  await page.click('#help-close');
  await page.click('#settings-button');
  await scan(page, 'settings');
  await page.goto(env.srv.url + '/peg/analysis');
  await page.selectOption('#opt-board', 'triangle');
  await page.click('#count');
  await page.waitForSelector('svg.chart');
  await scan(page, 'peg analysis');
  for (const path of ['/rules/mouse', '/rules/peg', '/rules/sudoku', '/stats']) {
    await page.goto(env.srv.url + path);
    await page.waitForSelector('main h1');
    await idle(page);
    await scan(page, path);
  }
  await page.evaluate(() => localStorage.setItem('boardlab.settings', JSON.stringify({ theme: 'dark' })));
  for (const [game, sel] of Object.entries(boardOf)) {
    await page.goto(env.srv.url + '/' + game);
    await page.waitForSelector(sel);
    await idle(page);
    await scan(page, `${game} dark`);
  }
  await page.evaluate(() => localStorage.removeItem('boardlab.settings'));
  writeFileSync(join(shots, `axe-${vp.name}.json`), JSON.stringify(results, null, 2) + '\n');
  const bad = Object.entries(results).flatMap(([name, vs]) => vs.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${name}: ${v.id} (${v.impact}, ${v.nodes} nodes): ${v.help}`));
  assert.deepEqual(bad, []);
  assert.ok(Object.keys(results).length >= 17, Object.keys(results).join(', '));
});

eachViewport('the daily puzzles are the same in two fresh pages', { timeout: 180000 }, async (vp) => {
  const got = [];
  // The daily sudoku's seed is a string, as every seed the API sends (a JSON number loses digits in JavaScript).
  {
    const page = await env.page(vp);
    await page.goto(env.srv.url + '/');
    const d = await page.evaluate(() => fetch('/api/daily?date=2026-11-29').then((r) => r.json()));
    assert.equal(d.sudoku_seed, '20261129');
  }
  for (let i = 0; i < 2; i++) {
    const page = await env.page(vp);
    await page.goto(env.srv.url + '/sudoku');
    await page.click('#daily');
    await idle(page);
    await page.waitForSelector('.sgrid');
    assert.match(await statusText(page), /daily sudoku of \d{4}-\d\d-\d\d/);
    const sudoku = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.givens);
    await page.goto(env.srv.url + '/peg');
    await page.waitForSelector('#daily');
    if (!(await page.$('details.setup[open]'))) await page.click('details.setup summary');
    await page.click('#daily');
    await idle(page);
    await page.waitForSelector('.peg-board');
    const st = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.peg')).state);
    got.push({ sudoku, board: st.board, start: st.start });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  assert.deepEqual(got[0], got[1]);
  assert.equal(got[0].start.length, 1);
});

eachViewport('stats count a finished game', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/stats');
  await page.waitForSelector('#stats-peg');
  assert.match(await page.textContent('#stats-peg'), /No Peg solitaire game finished yet/);
  await env.newGame(page, 'peg', { '#opt-board': 'triangle' });
  await finishPegWithTheSolution(page);
  await page.click('a[href="/stats"]');
  await page.waitForSelector('#stats-peg tr[data-category="triangle"]');
  const cells = await page.$$eval('#stats-peg tr[data-category="triangle"] td', (t) => t.map((x) => x.textContent));
  assert.equal(cells[0], '1', 'played');
  assert.equal(cells[1], '1', 'solved');
  assert.match(cells[2], /^\d+:\d\d$/, 'a best time');
  // A sudoku two cells from its end, one mistake on the way: counted by its kind (pasted), with its time and
  // its mistake.
  await env.newGame(page, 'sudoku', { '#opt-mode': 'pasted', '#opt-puzzle': '..4678912672195348198342567859761423426853791713924856961537284287419635345286179' });
  for (const [cell, digit] of [['0', '4'], ['0', '5'], ['1', '3']]) {
    await page.click(`[data-cell="${cell}"]`);
    await page.keyboard.press(digit);
    await idle(page);
  }
  await page.waitForSelector('.gameover');
  await page.click('a[href="/stats"]');
  await page.waitForSelector('#stats-sudoku tr[data-category="pasted"]');
  const row = await page.$$eval('#stats-sudoku tr[data-category="pasted"] td', (t) => t.map((x) => x.textContent));
  assert.deepEqual([row[0], row[1]], ['1', '1'], 'played and solved');
  assert.match(row[2], /^\d+:\d\d$/, 'a best time');
  assert.equal(row[2], row[3], 'one game: its median is its time');
  assert.equal(row[4], '1 (1.0 a game)');
  await shot(page, `stats-${vp.name}`);
  assert.deepEqual(page.errors, []);
});

eachViewport('replay a finished Mouse & Cats game move by move', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await env.newGame(page, 'mouse', { '#opt-size': '6', '#opt-level': '2' });
  // Up the board where it can: the game ends either way.
  await playMouseToTheEnd(page, { order: (a, b) => Number(b.slice(1)) - Number(a.slice(1)) });
  const moves = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.mouse')).state.moves);
  const final = await mouseSquare(page);
  // The numbered list: the two moves of a turn in one item, in the notation E1-F2.
  const items = await page.$$eval('#moves li', (li) => li.map((x) => [...x.querySelectorAll('.move')].map((m) => m.textContent)));
  assert.equal(items.flat().length, moves.length);
  assert.ok(items.every((t) => t.length <= 2 && t.every((m) => /^[A-P]\d+-[A-P]\d+$/.test(m))), JSON.stringify(items));
  // The position after move 1: the mouse has made its first step (the mouse moves first).
  await page.click('#moves .move[data-ply="1"]');
  await idle(page);
  await page.waitForSelector('#replay-at');
  assert.match(await page.textContent('#replay-at'), new RegExp(`After move 1 of ${moves.length}`));
  const after1 = await mouseSquare(page);
  assert.equal(after1.toLowerCase(), moves[0].replace('-', '').slice(-2).toLowerCase());
  await page.click('#replay-prev');
  await idle(page);
  assert.match(await page.textContent('#replay-at'), /The start/);
  assert.equal(await mouseSquare(page), 'C1');
  await page.click('#replay-next');
  await idle(page);
  await page.click('#replay-next');
  await idle(page);
  assert.match(await page.textContent('#replay-at'), /After move 2/);
  await shot(page, `mouse-replay-${vp.name}`);
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.mouse')).state.moves), moves, 'a replay changes nothing');
  await page.click('#replay-exit');
  assert.equal(await page.$('#replay-at'), null);
  assert.equal(await mouseSquare(page), final);
  assert.deepEqual(page.errors, []);
});

eachViewport('replay a finished peg game jump by jump', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await env.newGame(page, 'peg', { '#opt-board': 'triangle' });
  await finishPegWithTheSolution(page);
  const moves = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.peg')).state.moves);
  assert.equal(moves.length, 13);
  // Numbered, one button a jump, in the game's notation.
  const listed = await page.$$eval('#moves li .move', (b) => b.map((x) => x.textContent));
  assert.deepEqual(listed, moves);
  const pegs = () => page.$$eval('.peg-board .hole.has-peg', (x) => x.length);
  assert.equal(await pegs(), 1);
  await page.click('#moves .move[data-ply="1"]');
  await idle(page);
  assert.match(await page.textContent('#replay-at'), new RegExp(`After jump 1 of 13: ${moves[0]}`));
  assert.equal(await pegs(), 13);
  // A hole clicked in a replay plays nothing.
  const before = await page.evaluate(() => localStorage.getItem('boardlab.peg'));
  await page.click('.peg-board .hole.has-peg');
  assert.equal(await page.evaluate(() => localStorage.getItem('boardlab.peg')), before);
  await page.click('#replay-prev');
  await idle(page);
  assert.match(await page.textContent('#replay-at'), /The start/);
  assert.equal(await pegs(), 14);
  for (let k = 1; k <= 2; k++) {
    await page.click('#replay-next');
    await idle(page);
  }
  assert.match(await page.textContent('#replay-at'), /After jump 2 of 13/);
  assert.equal(await pegs(), 12);
  await shot(page, `peg-replay-${vp.name}`);
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.peg')).state.moves), moves, 'a replay changes nothing');
  await page.click('#replay-exit');
  assert.equal(await page.$('#replay-at'), null);
  assert.equal(await pegs(), 1);
  assert.equal(await page.textContent('#pegs-left'), '1 peg left');
  // In the jump list the arrows step through the game, Home goes to the start, End back to the game.
  await page.focus('#moves .move[data-ply="13"]');
  const key = async (k, re) => {
    await page.keyboard.press(k);
    await idle(page);
    if (re) assert.match(await page.textContent('#replay-at'), re, k);
  };
  await key('ArrowLeft', /After jump 12 of 13/);
  assert.equal(await pegs(), 2);
  await key('Home', /The start/);
  await key('ArrowRight', /After jump 1 of 13/);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.ply), '1', 'the focus stays in the list');
  await key('End');
  assert.equal(await page.$('#replay-at'), null);
  assert.equal(await pegs(), 1);
  assert.deepEqual(page.errors, []);
});

eachViewport('a hint is drawn on the candidates: the digit it places, the digits it removes', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await start.sudoku(page);
  const solution = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.solution);
  await page.click('#hint');
  await idle(page);
  await page.waitForSelector('.hint');
  const hint = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')));
  // The hint as the page drew it, cell by cell.
  const drawn = await page.$$eval('.cell', (cells) => cells.map((c) => ({
    cell: Number(c.dataset.cell),
    place: [...c.querySelectorAll('.corner i.place')].map((i) => i.textContent),
    elim: [...c.querySelectorAll('.corner i.elim')].map((i) => i.textContent),
  })).filter((x) => x.place.length || x.elim.length));
  assert.ok(drawn.length > 0, 'the hint is drawn in the grid: ' + JSON.stringify(hint.state.hint || null));
  for (const d of drawn) {
    for (const p of d.place) assert.equal(p, solution[d.cell], `the digit placed in cell ${d.cell} is the solution's`);
    for (const e of d.elim) assert.notEqual(e, solution[d.cell], `a digit removed from cell ${d.cell} is not the solution's`);
  }
  // A pattern: the naked pair 4 8 in r8c1 and r9c3, in a grid where the player has no pencil marks.
  await page.goto(env.srv.url + '/sudoku?puzzle=..9341.6.3476592811562879436..92531.531764829.92813.56915478632.6359217....136.9.');
  await page.waitForSelector('.sgrid');
  await idle(page);
  await page.click('#hint');
  await idle(page);
  await page.waitForSelector('.hint');
  assert.match(await page.textContent('#hint-text'), /^Naked pair: in box 7, r8c1 and r9c3 hold only 4 and 8/);
  const corner = (cell, cls) => page.$$eval(`[data-cell="${cell}"] .corner i${cls}`, (is) => is.map((i) => i.textContent).filter(Boolean).join(''));
  assert.equal(await corner(63, '.pat'), '48', 'the pair highlighted in r8c1');
  assert.equal(await corner(74, '.pat'), '48', 'and in r9c3');
  // Each cell of the step shows its candidates (the digits its row, column and box leave), the pattern's and the
  // eliminated ones marked.
  const grid = await page.$$eval('[data-cell]', (els) => els.map((e) => (e.querySelector('.digit') || {}).textContent || '.').join(''));
  const left = (c) => [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => ![...grid].some((x, o) => x === String(d)
    && (Math.floor(o / 9) === Math.floor(c / 9) || o % 9 === c % 9 || (Math.floor(o / 27) === Math.floor(c / 27) && Math.floor((o % 9) / 3) === Math.floor((c % 9) / 3))))).join('');
  const elims = await page.$$eval('.corner i.elim', (is) => is.map((i) => [Number(i.closest('[data-cell]').dataset.cell), i.textContent]));
  assert.ok(elims.length > 0 && elims.every(([, d]) => d === '4' || d === '8'), JSON.stringify(elims));
  const stepCells = new Set([63, 74, ...elims.map(([c]) => c)]);
  for (const c of stepCells) assert.equal(await corner(c, ''), left(c), `the candidates of cell ${c}`);
  const others = await page.$$eval('[data-cell]', (els, step) => els.filter((e) => !step.includes(Number(e.dataset.cell)) && e.querySelector('.corner') && e.querySelector('.corner').textContent).map((e) => e.dataset.cell), [...stepCells]);
  assert.deepEqual(others, [], 'only the step\'s cells show candidates the player did not write');
  await shot(page, `sudoku-hint-on-candidates-${vp.name}`);
  assert.deepEqual(page.errors, []);
});

eachViewport('the pages read as a game\'s, not a developer\'s: names start with a capital, the peg panel in play\'s words', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/');
  const menus = await page.evaluate(() => fetch('/api/menus').then((r) => r.json()));
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);
  for (const game of ['mouse', 'peg', 'sudoku']) {
    await start[game](page);
    await page.click('details.setup summary');
    // Every button, fold-out, menu choice, field name, row name and column head, as a sentence starts (moves and
    // hole names aside: they are written as the game writes them).
    const lower = await page.$$eval('button, summary, option, label > span, dt, th, caption', (els) => els
      .filter((e) => !e.closest('#moves, .solution, .sr'))
      .map((e) => e.textContent.trim())
      .filter((t) => /^[a-z]/.test(t)));
    assert.deepEqual(lower, [], `${game}: names that start in lower case`);
    if (game === 'peg') {
      // The board, its start and its goal, as the terminal's panel shows them (play's words, capitalised).
      const facts = await page.$$eval('dl.facts dt, dl.facts dd', (els) => els.map((e) => e.textContent));
      const english = menus.peg.boards.find((b) => b.name === 'english');
      assert.deepEqual(facts, ['Board', cap(english.description), 'Start', 'd4 empty', 'Goal', 'One peg anywhere']);
      assert.doesNotMatch(await page.textContent('main'), /holes; /, 'no sentence of fields');
      // The board menu names each board as play describes it.
      const boards = await page.$$eval('#opt-board option', (o) => o.map((x) => x.textContent));
      assert.deepEqual(boards.slice(0, menus.peg.boards.length), menus.peg.boards.map((b) => cap(b.description)));
    }
    if (game === 'mouse') {
      // The engine's memory is folded away under the engine's rows.
      if (!(await page.$eval('details.panel', (d) => d.open))) await page.click('details.panel summary');
      assert.equal(await page.$eval('details.tables', (d) => d.open), false);
      assert.equal(await page.isVisible('details.tables dt:has-text("Probes")'), false);
    }
  }
  assert.deepEqual(page.errors, []);
});
