// Sudoku: new puzzles by difficulty, the classic shuffle or a pasted one; digits by click or keyboard; corner
// and centre pencil marks, automatic candidates; same-digit highlighting; conflicts; explained hints; check,
// solution, timer, cells left and mistakes; the grid as an 81-character line. The game is play's SudokuSession on
// the server (the terminal's); the page keeps its save file and draws its view.
import { h, status, select, button, plural, busy, onNext, actionBar, moreActions, newGameButton, capitalised } from './ui.js';
import { saveGame } from './store.js';
import { bindGame, menus, copyLinkButton, daily } from './game.js';
import { settings, onSettings } from './settings.js';
import { record } from './stats.js';

let g = null;
let root = null;
let tick = null;
let menu = null; // the server's sudoku menu (play::menus): modes, difficulties, symmetries

const cellName = (i) => `r${Math.floor(i / 9) + 1}c${(i % 9) + 1}`;
// A mark mask (bit d-1 for digit d) as its digits.
const bits = (m) => [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => m & (1 << (d - 1)));
const line81 = (a) => a.map((d) => (d ? String(d) : '.')).join('');

// The address carries the puzzle's clues (81 characters, . for an empty cell); the player's entries stay in
// this browser.
const link = {
  of: (save) => 'puzzle=' + String(save.state.puzzle.givens).replace(/0/g, '.'),
  open: (params, send) => {
    const p = params.get('puzzle');
    if (!p) return Promise.reject(new Error('it names no puzzle (…/sudoku?puzzle= and the 81 characters of its clues).'));
    return send(null, { new: { puzzle: p } });
  },
};

export async function render(main) {
  root = main;
  g = { save: null, view: null, cursor: 40, mode: 'digit', started: Date.now(), base: 0, first: true };
  // The clock goes into the save just before it leaves the page.
  g.game = bindGame('sudoku', g, { onAnswer, link, beforeSend: (save) => { save.state.elapsed_ms = elapsed(); } });
  const all = await busy(menus);
  menu = all ? all.sudoku : null;
  if (!menu) { main.append(h('p', { class: 'error' }, 'The server did not send the game\'s menus; reload the page.')); return () => { g = null; }; }
  await g.game.resume();
  draw();
  tick = setInterval(() => {
    if (!g || !g.view || g.view.end) return;
    const t = document.getElementById('timer');
    if (t) t.textContent = clock(elapsed());
  }, 1000);
  const key = (e) => onKey(e);
  document.addEventListener('keydown', key);
  const unwatch = onSettings(() => draw());
  const save = () => { if (g && g.save) { g.save.state.elapsed_ms = elapsed(); saveGame('sudoku', g.save); } };
  window.addEventListener('pagehide', save);
  return () => { save(); unwatch(); clearInterval(tick); document.removeEventListener('keydown', key); window.removeEventListener('pagehide', save); g = null; };
}

function elapsed() {
  if (!g || !g.view) return 0;
  if (g.view.end) return g.base;
  return g.base + (Date.now() - g.started);
}

function clock(ms) {
  const t = Math.floor(ms / 1000);
  const m = Math.floor(t / 60), sec = t % 60;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

onNext({
  undo: () => act('undo'),
  // The button's name on this page.
  fill_marks: { label: 'Auto candidates', run: () => act('auto') },
});

function act(action) {
  return g.game.act(action);
}

// A digit placed; the setting says whether it takes its pencil marks out of its houses (the server does it).
function place(cell, digit) {
  return act({ digit: settings().removeCandidates ? { cell, digit } : { cell, digit, tidy: false } });
}

function onAnswer(ans, quiet, before) {
  if (!g) return;
  // A game that ends here is counted in the player's stats (a solution shown counts as not solved).
  if (before && !before.end && ans.view.end) {
    const st = ans.save.state;
    const category = (g.daily ? 'daily, ' : '') + (st.puzzle.label.startsWith('pasted') ? 'pasted' : st.setup.mode === 'classic' ? 'classic' : st.setup.difficulty);
    record({ game: 'sudoku', category, won: ans.view.end === 'solved', ms: ans.view.elapsed_ms, mistakes: ans.view.mistakes, hints: ans.view.hints });
  }
  if (g.first) { g.cursor = ans.view.cursor; g.first = false; }
  g.base = ans.view.elapsed_ms || 0;
  g.started = Date.now();
  draw();
}

function newForm() {
  const setup = (g.save && g.save.state.setup) || { mode: 'graded', difficulty: menu.default_difficulty, symmetry: menu.default_symmetry, hide: menu.default_hide };
  const items = (list) => list.map((x) => [x.value, x.label]);
  const err = h('p', { class: 'error', id: 'paste-error', role: 'alert' });
  const form = h('form', { class: 'options', 'aria-label': 'New puzzle', onsubmit: async (e) => {
    e.preventDefault();
    const d = new FormData(form);
    const pasted = String(d.get('puzzle') || '').trim();
    let spec;
    if (d.get('mode') === 'pasted') {
      if (!pasted) { err.textContent = 'Paste a puzzle first: 81 characters, or 9 lines of 9.'; return; }
      spec = { puzzle: pasted };
    } else if (d.get('mode') === 'classic') spec = { mode: 'classic', hide: Number(d.get('hide')) };
    else spec = { mode: 'graded', difficulty: d.get('difficulty'), symmetry: d.get('symmetry') };
    err.textContent = '';
    try {
      g.daily = null;
      await g.game.start(spec, true);
    } catch (x) {
      err.textContent = x.message;
      status(x.message, 'error');
    }
  } },
  select('Puzzle', 'mode', [...items(menu.modes), ['pasted', 'A puzzle of your own (pasted below)']], setup.mode),
  select('Difficulty', 'difficulty', items(menu.difficulties), setup.difficulty),
  select('Symmetry', 'symmetry', items(menu.symmetries), setup.symmetry),
  h('label', { class: 'field', for: 'opt-hide' }, h('span', {}, 'Classic: cells hidden'), h('input', { id: 'opt-hide', name: 'hide', type: 'number', min: 0, max: menu.max_hide, value: setup.hide || menu.default_hide })),
  h('label', { class: 'field wide', for: 'opt-puzzle' }, h('span', {}, 'Pasted puzzle'), h('textarea', { id: 'opt-puzzle', name: 'puzzle', rows: 4, cols: 30, spellcheck: 'false', placeholder: '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......' })),
  h('button', { type: 'submit', class: 'primary', id: 'sudoku-new' }, 'New puzzle'),
  button('Today\'s puzzle', playDaily, { id: 'daily' }), err);
  return form;
}

// The daily sudoku: the generator's puzzle of today's seed, the same for everyone today.
async function playDaily() {
  const d = await busy(daily);
  if (!d) return;
  g.daily = d.date;
  const ans = await g.game.start({ mode: 'graded', difficulty: d.sudoku_difficulty, symmetry: d.sudoku_symmetry, seed: d.sudoku_seed });
  if (ans) status(`The daily sudoku of ${d.date}: ${ans.view.label}.`, 'info');
}

function onKey(e) {
  if (!g || !g.view || e.target.closest('input, textarea, select') || document.querySelector('dialog[open]')) return;
  const k = e.key;
  const c = g.cursor;
  const move = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 }[k];
  if (move !== undefined) {
    e.preventDefault();
    let n = c + move;
    if (k === 'ArrowLeft' && c % 9 === 0) n = c + 8;
    if (k === 'ArrowRight' && c % 9 === 8) n = c - 8;
    g.cursor = (n + 81) % 81;
    draw(true);
    return;
  }
  const digit = /^Digit([1-9])$/.exec(e.code);
  if (digit || /^[1-9]$/.test(k)) {
    const d = digit ? Number(digit[1]) : Number(k);
    e.preventDefault();
    if (e.ctrlKey || e.altKey || g.mode === 'centre') act({ mark: { cell: c, digit: d, kind: 'centre' } });
    else if (e.shiftKey || g.mode === 'corner') act({ mark: { cell: c, digit: d, kind: 'corner' } });
    else place(c, d);
    return;
  }
  if (k === 'Backspace' || k === 'Delete' || k === '0') { e.preventDefault(); act({ digit: { cell: c, digit: 0 } }); return; }
  if (k === 'u' && !e.ctrlKey) { act('undo'); return; }
  if (k === 'r' && !e.ctrlKey) { act('redo'); return; }
  if (k === 'h') { act('hint'); return; }
  if (k === 'a') { act('apply'); return; }
  if (k === 'p') { g.mode = g.mode === 'corner' ? 'centre' : g.mode === 'centre' ? 'digit' : 'corner'; draw(true); return; }
  // Entry modes by key (Ctrl+digit switches tabs in some browsers): c centre marks, m corner marks, d digits.
  const mode = { c: 'centre', m: 'corner', d: 'digit' }[k];
  if (mode && !e.ctrlKey && !e.altKey && !e.metaKey) { g.mode = g.mode === mode ? 'digit' : mode; draw(true); }
}

function grid() {
  const v = g.view;
  const cur = v.values[g.cursor];
  const set = settings();
  const conflicts = set.showConflicts ? new Set(v.conflicts) : new Set();
  const flagged = new Set(v.flagged);
  const hint = v.hint;
  const stepCells = new Set(hint ? hint.pattern : []);
  const stepPlace = new Map(hint ? hint.place : []);
  const stepElim = new Set(hint ? hint.remove.map((p) => p[0]) : []);
  // The hint drawn on the candidates: the digits it removes struck through, the digit it places marked, in the
  // cells' own candidate places (shown there even where the player has no marks).
  const removes = (i) => new Set(hint ? hint.remove.filter((p) => p[0] === i).map((p) => p[1]) : []);
  // The pattern's candidates highlighted; the step's cells show the candidates it read, where the player has no marks.
  const lit = (i) => new Set(hint && hint.highlight ? hint.highlight.filter((p) => p[0] === i).map((p) => p[1]) : []);
  const stepCands = new Map(hint && hint.candidates ? hint.candidates : []);
  const table = h('div', { class: 'sgrid', role: 'grid', 'aria-label': 'Sudoku grid' });
  for (let r = 0; r < 9; r++) {
    const row = h('div', { role: 'row', class: 'srow' });
    for (let c = 0; c < 9; c++) {
      const i = r * 9 + c;
      const given = v.givens[i] !== 0;
      const val = v.values[i];
      const cls = ['cell'];
      if (given) cls.push('given');
      if (i === g.cursor) cls.push('cursor');
      if (set.highlightSame && val && val === cur) cls.push('same');
      if (conflicts.has(i)) cls.push('conflict');
      if (flagged.has(i)) cls.push('flagged');
      if (stepCells.has(i)) cls.push('step');
      if (stepPlace.has(i)) cls.push('step-place');
      if (stepElim.has(i)) cls.push('step-elim');
      if (c % 3 === 2 && c < 8) cls.push('bx');
      if (r % 3 === 2 && r < 8) cls.push('by');
      let label = `${cellName(i)}, `;
      let content;
      if (val) {
        label += given ? `clue ${val}` : `${val}`;
        if (conflicts.has(i)) label += ', in conflict';
        if (flagged.has(i)) label += ', flagged';
        content = h('span', { class: 'digit', 'aria-hidden': 'true' }, String(val));
      } else {
        const corner = bits(v.marks[i]), centre = bits(v.centre[i]);
        label += 'empty';
        if (corner.length) label += `, marks ${corner.join(' ')}`;
        if (centre.length) label += `, centre marks ${centre.join(' ')}`;
        // Corner marks keep their digit's place in a 3x3 grid; with centre marks too, they go along the top and
        // bottom edges, so that the centre marks in the middle cover none of them.
        const half = Math.ceil(corner.length / 2);
        const gone = removes(i), put = stepPlace.get(i), pat = lit(i);
        const shown = corner.length || centre.length || !stepCands.has(i) ? corner : bits(stepCands.get(i));
        if (shown !== corner) label += `, candidates ${shown.join(' ')} for the hint`;
        if (pat.size) label += `, the hint's pattern ${[...pat].join(' ')}`;
        if (gone.size) label += `, the hint removes ${[...gone].join(' ')}`;
        if (put) label += `, the hint places ${put}`;
        content = [
          centre.length
            ? h('span', { class: 'corner edge', 'aria-hidden': 'true' }, h('i', {}, corner.slice(0, half).join('')), h('i', {}, corner.slice(half).join('')))
            : h('span', { class: 'corner' + (shown !== corner ? ' for-hint' : ''), 'aria-hidden': 'true' }, [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => h('i', { class: gone.has(d) ? 'elim' : put === d ? 'place' : pat.has(d) ? 'pat' : null },
              shown.includes(d) || gone.has(d) || put === d || pat.has(d) ? String(d) : ''))),
          centre.length ? h('span', { class: 'centre', 'aria-hidden': 'true' }, centre.join('')) : null,
        ];
      }
      // The cell's name is its text for a screen reader (the digits and marks drawn are hidden from it).
      row.append(h('div', { role: 'gridcell', class: cls.join(' '), 'data-cell': i, tabindex: i === g.cursor ? 0 : -1,
        'aria-selected': i === g.cursor ? 'true' : 'false', onclick: () => { g.cursor = i; draw(true); } }, h('span', { class: 'sr' }, label), content));
    }
    table.append(row);
  }
  return table;
}

function pad() {
  const v = g.view;
  const counts = {};
  for (const d of v.values) if (d) counts[d] = (counts[d] || 0) + 1;
  return h('div', { class: 'pad', role: 'group', 'aria-label': 'Digits' },
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => button(String(d), () => {
      const c = g.cursor;
      if (g.mode === 'digit') place(c, d);
      else act({ mark: { cell: c, digit: d, kind: g.mode } });
    }, { 'aria-label': `${g.mode === 'digit' ? 'digit' : g.mode + ' mark'} ${d}${counts[d] === 9 ? ', all nine placed' : ''}`, class: counts[d] === 9 ? 'done' : '', id: 'pad-' + d })),
    button('Erase', () => act({ digit: { cell: g.cursor, digit: 0 } }), { id: 'erase' }),
    h('div', { class: 'modes', role: 'radiogroup', 'aria-label': 'Entry mode' },
      [['digit', 'Digit'], ['corner', 'Corner mark'], ['centre', 'Centre mark']].map(([m, t]) => h('button', { type: 'button', role: 'radio', 'aria-checked': g.mode === m ? 'true' : 'false', class: g.mode === m ? 'on' : '', onclick: () => { g.mode = m; draw(); } }, t))));
}

function draw(keepFocus) {
  if (!g || !root) return;
  root.replaceChildren(h('h1', {}, 'Sudoku'));
  root.append(h('details', { class: 'setup', open: !g.view }, h('summary', {}, 'New puzzle'), newForm()));
  if (!g.view) { root.append(button('Import a save file…', importSave)); return; }
  const v = g.view;
  const stats = h('div', { class: 'stats' },
    h('span', {}, capitalised(v.label)),
    settings().showTimer ? h('span', {}, 'Time ', h('b', { id: 'timer' }, clock(elapsed()))) : null,
    h('span', {}, 'Cells left ', h('b', { id: 'cells-left' }, v.cells_left)),
    h('span', {}, 'Mistakes ', h('b', { id: 'mistakes' }, v.mistakes)),
    h('span', {}, 'Hints ', h('b', { id: 'hints' }, v.hints)));
  const hint = v.hint ? h('section', { class: 'hint', 'aria-label': 'Hint' }, h('p', { id: 'hint-text' }, v.hint.text),
    v.hint.place.length ? h('p', {}, 'Places ', v.hint.place.map(([c, d]) => `${d} in ${cellName(c)}`).join(', ')) : null,
    v.hint.remove.length ? h('p', {}, 'Removes ', v.hint.remove.map(([c, d]) => `${d} from ${cellName(c)}`).join(', ')) : null,
    (v.hint.place.length || v.hint.remove.length) ? button('Apply the hint', () => act('apply'), { id: 'apply-hint' }) : null) : null;
  const over = v.end ? h('div', { class: 'gameover', role: 'alert' }, v.end === 'solved' ? `Solved in ${clock(v.elapsed_ms)} with ${plural(v.mistakes, 'mistake')} and ${plural(v.hints, 'hint')}!` : 'The solution is shown.') : null;
  const controls = actionBar('Puzzle actions',
    button('Undo', () => act('undo'), { disabled: !v.can_undo, id: 'undo' }),
    button('Redo', () => act('redo'), { disabled: !v.can_redo, id: 'redo' }),
    button('Hint', () => act('hint'), { disabled: !!v.end, id: 'hint' }),
    button('Check', () => act('check'), { disabled: !!v.end, id: 'check' }),
    newGameButton('New puzzle'));
  const more = moreActions('More actions',
    button('Auto candidates', () => act('auto'), { disabled: !!v.end, id: 'auto' }),
    button('Show solution', () => { if (confirm('Show the solution and end this game?')) act('reveal'); }, { disabled: !!v.end, id: 'reveal' }),
    copyLinkButton(link, g),
    button('Export save', () => g.game.exportFile(), { id: 'export' }),
    button('Import…', importSave));
  const line = h('p', { class: 'line' }, h('label', { for: 'grid-line' }, 'The grid as a line '),
    h('input', { id: 'grid-line', readonly: true, value: line81(v.values), size: 40, onfocus: (e) => e.target.select() }),
    button('Copy', () => { navigator.clipboard && navigator.clipboard.writeText(line81(v.values)); status('The grid is copied.'); }));
  root.append(...[over, stats, h('div', { class: 'play' }, h('div', {}, grid(), pad()), hint), controls, more, line,
    h('p', { class: 'keys' }, 'Keys: arrows move, 1-9 a digit, Shift+digit a corner mark, c then digits centre marks; ? opens the rules and every key.')].filter(Boolean));
  if (keepFocus) { const el = root.querySelector(`[data-cell="${g.cursor}"]`); if (el) el.focus(); }
}

function importSave() { g.first = true; return g.game.importFile(); }
