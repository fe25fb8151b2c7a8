// The defects a new player hit (issue 37), one test each, at the desktop and the phone viewport (the API's two at
// one: no page is drawn); each asserts what the defect broke.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, eachViewport, desktop, shot, idle, skip, statusText, mouseSquare, playMouseToTheEnd, moveMouse, finishPegWithTheSolution } from './helpers.js';

const env = serverAndBrowser();
// A message that names a key of the terminal ("n: new game", "press u", "? shows the rules").
const KEYS = /(^|[\s(,;])[a-z?]: |\bpress [a-z?]\b|\? shows|\bn for\b|\ba refills\b/i;
const overlap = (a, b) => a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// A new peg game on `board` (from `start` when given).
const newPeg = (page, board, start, opts) => env.newGame(page, 'peg', { '#opt-board': board, ...(start === undefined ? {} : { '#opt-start': start }) }, opts);

eachViewport('defect 1: another peg board starts from its own standard vacancy; messages never cover the board', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await newPeg(page, 'english');
  await page.click('[data-hole="d2"]');
  await page.click('[data-hole="d4"]');
  await idle(page);
  assert.equal(await page.getAttribute('#jump', 'placeholder') !== '', true);
  const englishExample = await page.getAttribute('#jump', 'placeholder');
  // The triangle after a game on the English board: the start field follows the board (the server's menu).
  await page.click('details.setup summary');
  await page.selectOption('#opt-board', 'triangle');
  assert.equal(await page.inputValue('#opt-start'), '1');
  await page.click('#peg-new');
  await idle(page);
  assert.equal((await page.$$('[data-hole]')).length, 15, await statusText(page));
  assert.doesNotMatch(await statusText(page), /unknown hole/);
  const triExample = await page.getAttribute('#jump', 'placeholder');
  assert.notEqual(triExample, englishExample, 'the typed-jump example follows the board');
  assert.match(triExample, /^\d+-\d+$/);
  // Then a pasted layout: its own empty holes, not the triangle's "1".
  await page.click('details.setup summary');
  await page.selectOption('#opt-board', 'pasted');
  assert.equal(await page.inputValue('#opt-start'), '');
  await page.fill('#opt-layout', 'ooo\no.o\nooo');
  await page.click('#peg-new');
  await idle(page);
  assert.equal((await page.$$('[data-hole]')).length, 9, await statusText(page));
  // Back on the triangle, an error is shown above the board, not drawn across it.
  await newPeg(page, 'triangle');
  await page.fill('#jump', '1-99');
  await page.press('#jump', 'Enter');
  await idle(page);
  assert.notEqual(await statusText(page), '');
  const msg = await page.$eval('#status', (e) => e.getBoundingClientRect().toJSON());
  const board = await page.$eval('.peg-board', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(!overlap(msg, board), `the message ${JSON.stringify(msg)} covers the board ${JSON.stringify(board)}`);
  await shot(page, `defect1-peg-triangle-error-${vp.name}`);
  assert.deepEqual(page.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
});

eachViewport('defect 2: a peg solution no request waits for: the French board from c1, searched in the background with progress', { timeout: 240000 }, async (vp) => {
  const page = await env.page(vp);
  // Every answer of the game's route, and how long it took.
  const slow = [];
  const sent = new Map();
  page.on('request', (r) => { if (r.url().endsWith('/api/peg/session')) sent.set(r, Date.now()); });
  page.on('requestfinished', (r) => {
    if (!sent.has(r)) return;
    const ms = Date.now() - sent.get(r);
    if (ms > 2500) slow.push(`${JSON.parse(r.postData()).action && JSON.stringify(JSON.parse(r.postData()).action)}: ${ms} ms`);
  });
  await newPeg(page, 'french', 'c1');
  assert.equal((await page.$$('[data-hole]')).length, 37, await statusText(page));
  await page.click('#show-solution');
  // The answer comes by itself (the page asks again while the server searches); meanwhile the indicator says
  // how far the search got.
  const seen = new Set();
  const deadline = Date.now() + 200000;
  while (!(await page.$('.solution')) && Date.now() < deadline) {
    const ind = await page.textContent('#solvable');
    if (/positions/.test(ind)) seen.add(ind);
    await page.waitForTimeout(250);
  }
  assert.ok(await page.$('.solution'), `a solution within the time: ${await statusText(page)} / ${await page.textContent('#solvable')}`);
  const jumps = (await page.textContent('.solution')).replace('Solution from here:', '').trim().split(/\s+/);
  assert.equal(jumps.length, 35, jumps.join(' '));
  assert.match(await page.textContent('#solvable'), /still possible/);
  assert.deepEqual(slow, [], 'no request waits for the search');
  for (const t of seen) assert.match(t, /[\d,]+ positions/, t);
  await shot(page, `defect2-peg-french-solution-${vp.name}`);
  assert.deepEqual(page.errors, []);
});

eachViewport('defect 3: messages name no key; the next actions are buttons', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await env.newGame(page, 'mouse', { '#opt-size': '4', '#opt-level': '10' });
  await playMouseToTheEnd(page, { limit: 20, each: async () => assert.doesNotMatch(await statusText(page), KEYS) });
  const text = await statusText(page);
  assert.doesNotMatch(text, KEYS);
  const labels = await page.$$eval('#status button.next', (els) => els.map((e) => e.textContent));
  assert.ok(labels.includes('New game'), `a new-game button after the game: ${labels} in "${text}"`);
  // Sudoku: a hint and filled marks say nothing of keys either.
  await env.newGame(page, 'sudoku', { '#opt-difficulty': 'easy' });
  // The new puzzle's line offers the rules, as a button named as buttons are (a capital first).
  assert.deepEqual(await page.$$eval('#status button.next', (els) => els.map((e) => e.textContent)), ['Rules']);
  await page.click('#status button.next');
  await page.waitForSelector('dialog#help[open]');
  await page.click('#help-close');
  for (const id of ['#auto', '#hint', '#check']) {
    await page.click(id);
    await idle(page);
    assert.doesNotMatch(await statusText(page), KEYS, id);
  }
  assert.doesNotMatch(await page.textContent('main'), /\? shows|n for a new/);
  assert.deepEqual(page.errors, []);
});

eachViewport('defect 4: a hint comes with a cell\'s marks incomplete, and only a step counts as a hint', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  // r1c7 holds 9 in the solution.
  await env.newGame(page, 'sudoku', { '#opt-mode': 'pasted', '#opt-puzzle': '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79' });
  const solution = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.solution);
  assert.equal(solution[6], '9');
  // Corner mark 1 and centre marks 2 3 in r1c7: notes that leave out its digit, but not a full set of marks.
  await page.click('[data-cell="6"]');
  await page.keyboard.press('m');
  await page.keyboard.press('1');
  await idle(page);
  await page.keyboard.press('c');
  for (const d of ['2', '3']) { await page.keyboard.press(d); await idle(page); }
  await page.keyboard.press('d');
  assert.equal(await page.textContent('[data-cell="6"] .centre'), '23');
  await page.click('#hint');
  await idle(page);
  const text = await statusText(page);
  assert.doesNotMatch(text, /leave out|wrong/i, text);
  await page.waitForSelector('.hint');
  assert.equal(await page.textContent('#hints'), '1', 'the step counts as one hint');
  assert.deepEqual(page.errors, []);
});

test('defect 5: the API\'s seeds are strings both ways', { skip, timeout: 60000 }, async () => {
  const page = await env.page(desktop);
  await page.goto(env.srv.url + '/');
  const [a, b] = await page.evaluate(async () => {
    const gen = (seed) => fetch('/api/sudoku/generate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ difficulty: 'easy', seed }) }).then((r) => r.json());
    const first = await gen('1182642394280105928');
    return [first, await gen(first.seed)];
  });
  assert.equal(a.seed, '1182642394280105928');
  assert.equal(b.puzzle, a.puzzle, 'the seed the answer gave makes the same puzzle');
  // The session route takes its seed as a string too: the same seed, the same game.
  const games = await page.evaluate(async () => {
    const start = () => fetch('/api/sudoku/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: { new: { difficulty: 'easy', seed: '1182642394280105928' } } }) })
      .then(async (r) => [r.status, await r.json()]);
    return [await start(), await start()];
  });
  for (const [st, body] of games) assert.equal(st, 200, JSON.stringify(body));
  assert.equal(games[0][1].save.state.puzzle.givens, games[1][1].save.state.puzzle.givens);
});

eachViewport('defect 6: the arrows reach every hole of the triangle', { timeout: 60000 }, async (vp) => {
  const page = await env.page(vp);
  await newPeg(page, 'triangle');
  await page.focus('[data-hole="1"]');
  const cursor = () => page.evaluate(() => document.activeElement.getAttribute('data-hole'));
  const path = [];
  for (const key of ['ArrowDown', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowDown', 'ArrowLeft', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight']) {
    await page.keyboard.press(key);
    path.push(await cursor());
  }
  assert.deepEqual(path, ['2', '3', '5', '4', '7', '7', '11', '12', '13', '14']);
  // Every hole can be reached: walk the rows.
  const seen = new Set(['1', ...path]);
  for (const start of ['1', '2', '4', '7', '11']) {
    await page.focus(`[data-hole="${start}"]`);
    for (let i = 0; i < 5; i++) { seen.add(await cursor()); await page.keyboard.press('ArrowRight'); }
    seen.add(await cursor());
  }
  assert.equal(seen.size, 15, [...seen].join(' '));
});

eachViewport('defect 7: the analysis chart\'s labels stand apart, its caption shows whole, one position is a bar', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/peg/analysis');
  await page.selectOption('#opt-board', 'triangle');
  await page.click('#count');
  await page.waitForSelector('svg.chart');
  const r = await page.$eval('svg.chart', (svg) => {
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text.axis')];
    const caption = texts.find((t) => t.textContent.startsWith('pegs left'));
    const labels = texts.filter((t) => /^\d+$/.test(t.textContent) && Number(t.getAttribute('y')) > 260).map((t) => t.getBoundingClientRect().toJSON());
    const bars = [...svg.querySelectorAll('rect.bar')].map((b) => ({ h: b.getBoundingClientRect().height, t: b.querySelector('title').textContent }));
    return { box: box.toJSON(), caption: caption.getBoundingClientRect().toJSON(), labels, bars };
  });
  for (let i = 1; i < r.labels.length; i++) assert.ok(r.labels[i].x >= r.labels[i - 1].x + r.labels[i - 1].width, `labels ${i - 1} and ${i} run together`);
  assert.ok(r.caption.y + r.caption.height <= r.box.y + r.box.height + 0.5 && r.caption.x >= r.box.x, 'the caption lies inside the chart');
  const one = r.bars.find((b) => /: 1 position$/.test(b.t));
  assert.ok(one, 'the start level has one position');
  assert.ok(one.h > 2, `the one-position level is a visible bar (${one.h} px)`);
  assert.doesNotMatch(await page.textContent('main'), /`/, 'no literal backticks');
  await shot(page, `defect7-analysis-chart-${vp.name}`);
});

test('defect 8: a GET on a POST route answers a JSON error', { skip, timeout: 60000 }, async () => {
  const page = await env.page(desktop);
  const res = await page.goto(env.srv.url + '/api/mouse/perft');
  assert.equal(res.status(), 405);
  const body = JSON.parse(await res.text());
  assert.match(body.error, /POST/);
  // One type for a board size everywhere: a number is taken by every route that reads a size.
  const answers = await page.evaluate(async () => {
    const post = (route, body) => fetch('/api/mouse/' + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => [r.status, await r.json()]);
    return [await post('perft', { size: 6, depth: 2 }), await post('perft', { size: '6', depth: 2 }), await post('position', { size: 6, position: 'start' })];
  });
  for (const [st, b] of answers) assert.equal(st, 200, JSON.stringify(b));
  const same = ([, b]) => ({ ...b, elapsed_ms: null });
  assert.deepEqual(same(answers[0]), same(answers[1]), 'a size as a number or a string: the same answer');
  assert.equal(answers[0][1].count, '10');
});

eachViewport('defect 9: another mouse board starts the mouse on its own default square', { timeout: 60000 }, async (vp) => {
  const page = await env.page(vp);
  await page.goto(env.srv.url + '/mouse');
  await page.selectOption('#opt-size', '6');
  assert.equal(await page.inputValue('#opt-mouse_start'), 'C1');
  await page.selectOption('#opt-size', '12');
  assert.equal(await page.inputValue('#opt-mouse_start'), 'G1');
  assert.equal(await page.$$eval('#opt-level option', (o) => o.length), 9);
  await page.selectOption('#opt-size', '6');
  await page.click('#mouse-new');
  await idle(page);
  assert.equal(await mouseSquare(page), 'C1');
});

eachViewport('defect 10: the engine panel keeps its rows, one notation, whole moves, beside the board (under it on a phone)', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  await env.newGame(page, 'mouse', { '#opt-level': '3' });
  for (let i = 0; i < 4 && !(await page.$('.gameover')); i++) assert.ok(await moveMouse(page), 'the mouse has a move');
  // On a phone the panel is folded away under the board: the player opens it.
  if (vp.name === 'phone') {
    assert.equal(await page.$eval('details.panel', (d) => d.open), false, 'folded on a phone');
    await page.click('details.panel summary');
  }
  const rows = async () => page.$$eval('.panel dt', (d) => d.map((x) => x.textContent));
  for (const id of ['#hint', '#who']) {
    await page.click(id);
    await idle(page);
    const r = await rows();
    for (const k of ['Engine', 'Score', 'Variation', 'Nodes']) assert.ok(r.includes(k), `${k} after ${id}: ${r}`);
  }
  const pv = await page.$eval('.panel dl', (dl) => [...dl.querySelectorAll('dt')].find((d) => d.textContent === 'Variation').nextElementSibling.textContent);
  assert.match(pv, /^([A-P]\d+-[A-P]\d+ ?)+$/, pv);
  const broken = await page.$$eval('#moves .move', (els) => els.filter((e) => e.getClientRects().length > 1).map((e) => e.textContent));
  assert.deepEqual(broken, []);
  assert.ok((await page.$$('#moves .move')).length >= 8);
  await page.click('#showmap');
  await page.waitForSelector('.sq.win-cats, .sq.win-mouse');
  const board = await page.$eval('.mouse-board', (e) => e.getBoundingClientRect().toJSON());
  const panel = await page.$eval('.panel', (e) => e.getBoundingClientRect().toJSON());
  if (vp.name === 'desktop') assert.ok(panel.x >= board.x + board.width - 1, 'the panel stays beside the board with the picture on');
  else assert.ok(panel.y >= board.y + board.height - 1, 'on a phone the panel lies under the board, not over it');
  // The M and C letters contrast with their pieces (WCAG: 4.5 at least).
  const ratios = await page.$$eval('.piecelabel', (els) => els.map((t) => {
    const lum = (c) => { const v = c.match(/\d+/g).slice(0, 3).map((x) => { const s = x / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
    const a = lum(getComputedStyle(t).fill), b = lum(getComputedStyle(t.previousElementSibling).fill);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }));
  assert.ok(ratios.length >= 5 && ratios.every((r) => r >= 4.5), ratios.join(' '));
  await shot(page, `defect10-mouse-panel-${vp.name}`);
});

// A count of one in the singular wherever the page writes a count; no other word for it.
const ONE_PLURAL = /\b1 (plies|pegs|mistakes|hints|jumps|moves|positions|entries|cells|seconds)\b/;

eachViewport('defect 11: counts are written with their plurals; errors are sentences; no literal backticks', { timeout: 180000 }, async (vp) => {
  const page = await env.page(vp);
  // Peg: "1 peg left".
  await newPeg(page, 'triangle');
  assert.equal(await page.textContent('#pegs-left'), '14 pegs left');
  // One jump: the title page's card for the game in progress says "1 jump played".
  await page.fill('#jump', '4-1');
  await page.press('#jump', 'Enter');
  await idle(page);
  assert.equal(await page.textContent('#pegs-left'), '13 pegs left');
  await page.goto(env.srv.url + '/');
  await page.waitForSelector('.cards');
  assert.match(await page.textContent('main'), /The 15-hole triangle, 1 jump played/);
  await page.goto(env.srv.url + '/peg');
  await page.waitForSelector('.peg-board');
  await idle(page);
  await finishPegWithTheSolution(page);
  assert.equal(await page.textContent('#pegs-left'), '1 peg left');
  assert.doesNotMatch(await page.textContent('main'), ONE_PLURAL);
  // Mouse: the 4x4 board against perfect cats; their last move wins in one ply, and the panel says so.
  await env.newGame(page, 'mouse', { '#opt-size': '4', '#opt-level': '10' });
  await playMouseToTheEnd(page, { limit: 20 });
  if (!(await page.$eval('details.panel', (d) => d.open))) await page.click('details.panel summary');
  const score = await page.$eval('.panel dl', (dl) => [...dl.querySelectorAll('dt')].find((d) => d.textContent === 'Score').nextElementSibling.textContent);
  assert.equal(score, 'the engine wins in 1 ply');
  assert.doesNotMatch(await page.textContent('main'), ONE_PLURAL);
  // Sudoku: a puzzle two cells from its end, one clash on the way: "with 1 mistake and 0 hints".
  await env.newGame(page, 'sudoku', { '#opt-mode': 'pasted', '#opt-puzzle': '..4678912672195348198342567859761423426853791713924856961537284287419635345286179' });
  await page.click('[data-cell="0"]');
  await page.keyboard.press('4');
  await idle(page);
  assert.match(await statusText(page), /clashes with the 4 in r1c3/);
  assert.equal(await page.textContent('#mistakes'), '1');
  await page.keyboard.press('5');
  await idle(page);
  await page.click('[data-cell="1"]');
  await page.keyboard.press('3');
  await idle(page);
  await page.waitForSelector('.gameover');
  for (const text of [await statusText(page), await page.textContent('.gameover')]) {
    assert.match(text, /^Solved in \d+:\d\d with 1 mistake and 0 hints!/, text);
  }
  assert.doesNotMatch(await page.textContent('main'), ONE_PLURAL);
  // Errors are sentences for a person, not field paths: a pasted puzzle too short, a peg start off the board.
  await page.click('details.setup summary');
  await page.selectOption('#opt-mode', 'pasted');
  await page.fill('#opt-puzzle', '12345');
  await page.click('#sudoku-new');
  await page.waitForFunction(() => document.getElementById('paste-error').textContent !== '');
  const err = await page.textContent('#paste-error');
  assert.doesNotMatch(err, /^(new|new\.puzzle|action \w+|problem\.\w+):/, err);
  assert.match(err, /^[A-Z]/, err);
  await newPeg(page, 'english', 'z9', { board: false });
  const pegErr = await statusText(page);
  assert.match(pegErr, /z9/, pegErr);
  assert.doesNotMatch(pegErr, /(^|: )(new|problem\.\w+|action \w+):/, pegErr);
  assert.match(pegErr, /^[A-Z]/, pegErr);
  // No literal backticks on any page (the analysis page showed them).
  for (const path of ['/', '/mouse', '/peg', '/peg/analysis', '/sudoku', '/stats', '/rules/mouse', '/rules/peg', '/rules/sudoku']) {
    await page.goto(env.srv.url + path);
    await page.waitForSelector('main h1');
    await idle(page);
    assert.doesNotMatch(await page.textContent('main'), /`/, `${path}: a literal backtick`);
  }
  assert.deepEqual(page.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
});

eachViewport('defect 12: centre marks cover no corner mark; a key that reaches the page enters them', { timeout: 120000 }, async (vp) => {
  const page = await env.page(vp);
  await env.newGame(page, 'sudoku', { '#opt-difficulty': 'easy' });
  await page.click('#auto');
  await idle(page);
  const cell = await page.$$eval('[data-cell]', (els) => els.find((e) => !e.querySelector('.digit')).dataset.cell);
  await page.click(`[data-cell="${cell}"]`);
  await page.keyboard.press('c');
  await page.keyboard.press('5');
  await idle(page);
  await page.keyboard.press('8');
  await idle(page);
  assert.equal(await page.textContent(`[data-cell="${cell}"] .centre`), '58');
  const hit = await page.$eval(`[data-cell="${cell}"]`, (c) => {
    const centre = c.querySelector('.centre').getBoundingClientRect();
    const ov = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    return [...c.querySelectorAll('.corner i')].filter((i) => i.textContent && ov(i.getBoundingClientRect(), centre)).map((i) => i.textContent);
  });
  assert.deepEqual(hit, [], 'corner marks under the centre marks');
  assert.ok((await page.textContent(`[data-cell="${cell}"] .corner`)).length > 0, 'the corner marks are still shown');
  // Without a keyboard (a phone): the pad's centre-mark mode, then its digits.
  const other = await page.$$eval('[data-cell]', (els, c) => els.find((e) => !e.querySelector('.digit') && e.dataset.cell !== c).dataset.cell, cell);
  await page.click(`[data-cell="${other}"]`);
  await page.click('.pad .modes button:has-text("Centre mark")');
  await page.click('#pad-3');
  await idle(page);
  assert.equal(await page.textContent(`[data-cell="${other}"] .centre`), '3');
  await shot(page, `defect12-sudoku-marks-${vp.name}`);
});
