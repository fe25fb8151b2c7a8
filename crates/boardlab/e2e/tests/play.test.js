// End-to-end: the pages played as a person would, in Debian's chromium, at the desktop viewport (the defect and feature
// tests run at the phone's too). Screenshots go to target/e2e-screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverAndBrowser, desktop, shot, idle, skip, binary, statusText, mouseSquare } from './helpers.js';

const env = serverAndBrowser();

test('a whole Mouse & Cats game against the engine, to its end', { skip, timeout: 120000 }, async () => {
  const page = await env.page(desktop);
  await page.goto(env.srv.url + '/');
  await shot(page, 'title');
  await page.click('a.btn[href="/mouse"]');
  await page.selectOption('#opt-level', '3');
  await page.click('#mouse-new');
  await idle(page);
  let moves = 0;
  for (let i = 0; i < 40 && !(await page.$('.gameover')); i++) {
    // Wait for the engine's answer: the panel says it is the player's move, or the game is over.
    await page.waitForFunction(() => !document.body.classList.contains('busy')
      && (document.querySelector('.gameover') || (document.querySelector('.panel') || {}).textContent.includes('(you)')), null, { timeout: 30000 });
    if (await page.$('.gameover')) break;
    // The mouse's legal targets, as the page shows them after clicking it.
    const mouse = await mouseSquare(page);
    await page.click(`[data-sq="${mouse}"]`);
    const targets = await page.$$eval('.sq.target', (els) => els.map((e) => e.getAttribute('data-sq')));
    assert.ok(targets.length > 0, 'the mouse has a move while the game goes on');
    // Prefer going up the board; use the keyboard for every other move to exercise it.
    targets.sort((a, b) => Number(b[1]) - Number(a[1]));
    if (i % 2 === 0) await page.click(`[data-sq="${targets[0]}"]`);
    else {
      await page.focus(`[data-sq="${mouse}"]`);
      const [mf, mr] = [mouse.charCodeAt(0), Number(mouse[1])];
      const [tf, tr] = [targets[0].charCodeAt(0), Number(targets[0][1])];
      await page.keyboard.press('Escape');
      await page.focus(`[data-sq="${mouse}"]`);
      await page.keyboard.press('Enter');
      await page.keyboard.press(tr > mr ? 'ArrowUp' : 'ArrowDown');
      await page.keyboard.press(tf > mf ? 'ArrowRight' : 'ArrowLeft');
      await page.keyboard.press('Enter');
    }
    moves++;
    if (i === 1) await shot(page, 'mouse');
  }
  await page.waitForSelector('.gameover', { timeout: 30000 });
  const over = await page.textContent('.gameover');
  assert.match(over, /won/);
  assert.ok(moves >= 3, 'several moves were played');
  const panel = await page.textContent('.panel');
  assert.match(panel, /Hash \/ lock/);
  await page.click('#showmap');
  await page.waitForSelector('.sq.win-cats, .sq.win-mouse');
  await shot(page, 'mouse-game-over');
  assert.deepEqual(page.errors, []);
});

test('a 6x6 Mouse & Cats game under the region rule: the board, the exact verdict, a hinted move', { skip, timeout: 120000 }, async () => {
  const page = await env.page(desktop);
  await page.goto(env.srv.url + '/mouse');
  await page.selectOption('#opt-size', '6');
  // The start squares follow the board, with its default start (C1, gilith/solve's 6x6 start) chosen.
  assert.deepEqual(await page.$$eval('#opt-mouse_start option', (els) => els.map((e) => e.value)), ['A1', 'C1', 'E1']);
  assert.equal(await page.inputValue('#opt-mouse_start'), 'C1');
  await page.selectOption('#opt-rule', 'region');
  await page.selectOption('#opt-level', '10');
  await page.click('#mouse-new');
  await idle(page);
  assert.equal(await page.getAttribute('.mouse-board', 'data-size'), '6');
  assert.equal((await page.$$('[data-sq]')).length, 36);
  assert.equal(await mouseSquare(page), 'C1');
  assert.equal((await page.$$('.piece.cat')).length, 3);
  await page.click('#who');
  await idle(page);
  assert.match(await statusText(page), /the mouse wins in 21 plies/);
  await page.click('#hint');
  await idle(page);
  const hinted = await page.$$eval('.sq.hinted', (els) => els.map((e) => e.getAttribute('data-sq')));
  assert.equal(hinted.length, 2, 'the hint marks its two squares');
  const to = hinted.find((sq) => sq !== 'C1');
  await page.click('[data-sq="C1"]');
  await page.click(`[data-sq="${to}"]`);
  await page.waitForFunction(() => !document.body.classList.contains('busy')
    && (document.querySelector('.panel') || {}).textContent.includes('(you)'), null, { timeout: 30000 });
  assert.equal(await mouseSquare(page), to);
  assert.match(await page.textContent('.panel'), /6x6, .*region rule/);
  await shot(page, 'mouse-6x6');
  assert.deepEqual(page.errors, []);
});

test('a peg game finished with "show me a solution"', { skip, timeout: 400000 }, async () => {
  const page = await env.page(desktop);
  await env.newGame(page, 'peg', { '#opt-board': 'english' });
  // The server builds the English board's complete table in the background when it starts (seconds on a quiet
  // machine, minutes on a loaded one); meanwhile the indicator says "not known yet" and the page asks again.
  await page.waitForSelector('#solvable.good', { timeout: 300000 });
  // Two jumps by hand: click a peg, then its target.
  await page.click('[data-hole="d2"]');
  await page.waitForSelector('[data-hole="d4"].target');
  await page.click('[data-hole="d4"]');
  await idle(page);
  await page.waitForFunction(() => document.querySelector('#pegs-left').textContent.startsWith('31'));
  await page.click('#show-solution');
  await idle(page);
  await page.waitForSelector('.solution');
  await shot(page, 'peg');
  for (let i = 0; i < 40; i++) {
    if ((await page.textContent('#pegs-left')).startsWith('1 ')) break;
    await page.click('#step');
    await idle(page);
  }
  assert.match(await page.textContent('#pegs-left'), /^1 pegs? left/);
  assert.match(await statusText(page), /Solved/);
  await shot(page, 'peg-solved');
  // The analysis page counts the triangle.
  await page.click('a[href="/peg/analysis"]');
  await page.click('#count');
  await page.waitForSelector('table.counts');
  const rows = await page.$$eval('table.counts tbody tr', (r) => r.length);
  assert.equal(rows, 14, "the triangle from 14 pegs down to 1");
  await shot(page, 'peg-analysis');
  assert.deepEqual(page.errors, []);
});

test('a sudoku finished by typing digits, with one hint; a reload resumes it', { skip, timeout: 180000 }, async () => {
  const page = await env.page({ viewport: { width: 420, height: 900 } });
  await env.newGame(page, 'sudoku', { '#opt-difficulty': 'beginner' });
  const solution = await page.evaluate(() => JSON.parse(localStorage.getItem('boardlab.sudoku')).state.puzzle.solution);
  await page.click('#hint');
  await idle(page);
  await page.waitForSelector('.hint');
  assert.equal(await page.textContent('#hints'), '1');
  const hinted = await page.$$eval('.cell.step-place', (els) => els.map((e) => Number(e.dataset.cell)));
  assert.ok(hinted.length >= 1, 'the hint highlights the cell it fills');
  await shot(page, 'sudoku');
  // The hint taken: applied, its digit is in its cell, and the solution's.
  await page.click('#apply-hint');
  await idle(page);
  for (const c of hinted) assert.equal(await page.$eval(`[data-cell="${c}"] .digit`, (e) => e.textContent), solution[c]);
  assert.equal(await page.textContent('#hints'), '1');
  let typed = 0;
  for (let i = 0; i < 81; i++) {
    const empty = await page.$eval(`[data-cell="${i}"]`, (e) => !e.querySelector('.digit'));
    if (!empty) continue;
    await page.click(`[data-cell="${i}"]`);
    await page.keyboard.press(solution[i]);
    await idle(page);
    typed++;
    if (typed === 5) {
      // Reload in mid-game: the game comes back from localStorage.
      const before = await page.$eval('#cells-left', (e) => e.textContent);
      await page.reload();
      await page.waitForSelector('[data-cell]');
      await idle(page);
      assert.equal(await page.$eval('#cells-left', (e) => e.textContent), before);
      assert.equal(await page.textContent('#hints'), '1');
    }
  }
  await page.waitForSelector('.gameover');
  assert.match(await page.textContent('.gameover'), /Solved/);
  assert.equal(await page.textContent('#cells-left'), '0');
  assert.equal(await page.textContent('#mistakes'), '0');
  await shot(page, 'sudoku-solved');
  assert.deepEqual(page.errors, []);
});

test('an exported game loads in the terminal\'s loader', { skip, timeout: 120000 }, async () => {
  const page = await env.page(desktop);
  await env.newGame(page, 'peg');
  await page.click('[data-hole="f4"]');
  await page.click('[data-hole="d4"]');
  await idle(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const dir = mkdtempSync(join(tmpdir(), 'boardlab-e2e-'));
  const file = join(dir, 'peg.json');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  const saved = JSON.parse(text);
  assert.equal(saved.format, 'boardlab-save');
  // The save format's version today (play::save::VERSION), written compact: one line, not pretty-printed.
  assert.equal(saved.version, 4);
  assert.equal(text.trim().split('\n').length, 1, text.slice(0, 200));
  assert.deepEqual(saved.state.moves, ['f4-d4']);
  // The terminal's own loader reads it: `boardlab play --load FILE` checks the save before it looks for a
  // terminal, so without one it stops at the terminal check (a damaged save would stop it earlier, saying so).
  const run = (f) => spawnSync(binary(), ['play', '--load', f], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ok = run(file);
  assert.match(ok.stderr, /needs a terminal/, ok.stderr);
  const bad = JSON.parse(JSON.stringify(saved));
  bad.state.moves = ['f4-d4', 'f4-d4'];
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
  const refused = run(join(dir, 'bad.json'));
  assert.match(refused.stderr, /damaged/, refused.stderr);
  // And the page imports it back (a file the terminal could have written).
  writeFileSync(join(dir, 'again.json'), JSON.stringify(saved));
  assert.deepEqual(page.errors, []);
});
