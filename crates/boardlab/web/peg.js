// Peg solitaire: every built-in board and pasted layouts, start and finish, legal jumps on selecting a peg, the
// live solvable indicator, a solution step by step, undo/redo; and the analysis page (counts per level).
import { api, session } from './api.js';
import { h, s, status, select, button, fmt, plural, busy, onNext, actionBar, moreActions, newGameButton, capitalised } from './ui.js';
import { bindGame, menus, copyLinkButton, withMoves, daily } from './game.js';
import { record } from './stats.js';
import { replayer } from './replay.js';

let g = null;
let root = null;
let menu = null; // the server's peg menu (play::menus): boards with their standard vacancy

// The address carries the board (a built-in one by name, a pasted layout with its rows between slashes and _
// for no hole), the start's empty holes, the finish and the jumps played.
const link = {
  of: (save) => {
    const st = save.state;
    const q = new URLSearchParams();
    if (st.layout) {
      q.set('layout', st.layout.replace(/\n+$/, '').replace(/ /g, '_').split('\n').join('/'));
      if (st.lattice && st.lattice !== 'square') q.set('lattice', st.lattice);
    } else q.set('board', st.board);
    q.set('start', (st.start || []).join(','));
    if (st.finish) q.set('finish', st.finish);
    if ((st.moves || []).length) q.set('jumps', st.moves.join(','));
    return q.toString();
  },
  open: async (params, send) => {
    const list = (k) => (params.get(k) || '').split(',').map((x) => x.trim()).filter(Boolean);
    const spec = {};
    if (params.has('layout')) {
      spec.layout = params.get('layout').split('/').join('\n');
      if (params.has('lattice')) spec.lattice = params.get('lattice');
    } else if (params.has('board')) spec.board = params.get('board');
    else throw new Error('it names no board (…/peg?board=english, or a layout).');
    if (list('start').length) spec.start = list('start');
    if (params.get('finish')) spec.finish = params.get('finish');
    return withMoves(await send(null, { new: spec }), list('jumps'), send);
  },
};

// The game is play's PegSession on the server; the page keeps its save file and draws its view.
export async function render(main) {
  root = main;
  g = { save: null, view: null, selected: null, cursor: null, auto: null, recheck: null, replay: null };
  g.game = bindGame('peg', g, { onAnswer, link });
  g.replayer = replayer({ kind: 'peg', g, noun: 'jump', texts: (v) => names(v.moves), redraw: () => draw(), onShow: stopAuto });
  const all = await busy(menus);
  menu = all ? all.peg : null;
  if (!menu) { main.append(h('p', { class: 'error' }, 'The server did not send the game\'s menus; reload the page.')); return () => { g = null; }; }
  await g.game.resume();
  draw();
  return () => { if (g) { if (g.auto) clearInterval(g.auto); clearTimeout(g.recheck); } g = null; };
}

// While the indicator is still checking (the server builds a table or searches in the background; no request
// waits for it), ask again now and then, as the terminal does: the answer appears by itself. A question that
// waits for the answer (show a solution, play its next jump) is asked again until it is answered.
function recheck() {
  clearTimeout(g.recheck);
  if (!g.view || (g.view.indicator.state !== 'checking' && !g.view.waiting)) return;
  const save = g.save;
  const action = g.view.waiting && g.asked ? g.asked : 'view';
  g.recheck = setTimeout(async () => {
    if (!g || g.save !== save || document.body.classList.contains('busy')) { if (g && g.save === save) recheck(); return; }
    try {
      const ans = await session('peg', save, action);
      if (!g || g.save !== save) return;
      // Only the indicator changes: keep the peg picked up and the keyboard focus on the board.
      const sel = g.selected;
      const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('[data-hole]');
      g.game.take(ans, true);
      g.selected = sel;
      draw(!!focused);
    } catch (e) { /* the next action asks again */ }
  }, 1000);
}

function setupForm() {
  const st = (g.save && g.save.state) || {};
  const form = h('form', { class: 'options', 'aria-label': 'New game options', onsubmit: (e) => {
    e.preventDefault();
    const d = new FormData(form);
    const spec = {};
    const layout = String(d.get('layout') || '');
    if (d.get('board') === 'pasted') {
      spec.layout = layout;
      spec.lattice = d.get('lattice');
    } else spec.board = d.get('board');
    const start = String(d.get('start') || '').split(/[\s,]+/).filter(Boolean);
    if (start.length) spec.start = start;
    const fin = String(d.get('finish') || '').trim();
    if (fin && fin !== 'anywhere') spec.finish = fin;
    newGame(spec);
  } },
  select('Board', 'board', [...menu.boards.map((b) => [b.name, capitalised(b.description)]), ['pasted', 'A layout of your own (below)']], st.layout ? 'pasted' : (st.board || menu.default_board)),
  h('label', { class: 'field', for: 'opt-start' }, h('span', {}, 'Empty at the start'), h('input', { id: 'opt-start', name: 'start', placeholder: 'the standard vacancy', value: (st.start || []).join(' ') }), h('small', {}, 'Hole names such as d4 (1, 2, … on the triangle); several with spaces.')),
  h('label', { class: 'field', for: 'opt-finish' }, h('span', {}, 'Finish on'), h('input', { id: 'opt-finish', name: 'finish', placeholder: 'anywhere', value: st.finish || '' })),
  h('label', { class: 'field wide', for: 'opt-layout' }, h('span', {}, 'Your own layout'), h('textarea', { id: 'opt-layout', name: 'layout', rows: 7, cols: 24, spellcheck: 'false', placeholder: '  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo' }, st.layout || ''),
    h('small', {}, 'o a peg, . an empty hole, a space no hole.')),
  select('Lattice of your layout', 'lattice', menu.lattices.map((x) => [x.value, x.label]), st.lattice || menu.lattices[0].value),
  h('button', { type: 'submit', class: 'primary', id: 'peg-new' }, 'New game'),
  button('Today\'s game', playDaily, { id: 'daily' }));
  // Another board: its standard vacancy (from the server's menu) as the start, and any finish hole.
  const boardSel = form.querySelector('select[name="board"]');
  boardSel.addEventListener('change', () => {
    const b = menu.boards.find((x) => x.name === boardSel.value);
    form.elements.start.value = b ? b.standard_vacancy : '';
    form.elements.finish.value = '';
  });
  return form;
}

onNext({
  new_game: () => {
    if (!g || !g.save) return;
    const st = g.save.state;
    const where = st.layout ? { layout: st.layout, lattice: st.lattice } : { board: st.board };
    newGame({ ...where, start: st.start, finish: st.finish || undefined });
  },
  undo: () => { stopAuto(); act('undo'); },
  restart: () => { stopAuto(); act('restart'); },
  // The button's name on this page.
  play_solution: { label: 'Play the next jump', run: () => act('step') },
  play_all: { label: 'Play it all', run: () => playAll() },
});

// The daily peg game: today's board and start, the same for everyone today.
async function playDaily() {
  const d = await busy(daily);
  if (!d) return;
  stopAuto();
  g.daily = d.date;
  const ans = await g.game.start({ board: d.peg_board, start: [d.peg_start] });
  if (ans) status(`The daily game of ${d.date}: the ${d.peg_board} board, empty at ${d.peg_start}.`, 'info');
}

async function newGame(spec) {
  stopAuto();
  g.daily = null;
  await g.game.start(spec);
}

// Play the solution's jumps one after another, until the end or Stop.
function playAll() {
  if (!g || g.auto) return;
  g.auto = setInterval(async () => {
    if (!g || g.view.over) { stopAuto(); if (g) draw(); return; }
    if (document.body.classList.contains('busy')) return;
    const a = await act('step');
    if (!a || a.tone === 'warn') stopAuto();
  }, 400);
  draw();
}

function stopAuto() { if (g && g.auto) { clearInterval(g.auto); g.auto = null; } }

function act(action) {
  g.asked = action === 'solution' || action === 'step' ? action : null;
  return g.game.act(action);
}

function onAnswer(ans, quiet, before) {
  if (!g) return;
  const v = ans.view;
  if (!quiet) g.replay = null;
  if (!v.moves.length) g.startedAt = Date.now();
  // A game that ends here is counted in the player's stats, by board.
  if (before && !before.over && v.over) {
    record({ game: 'peg', category: v.board + (g.daily ? ', daily' : ''), won: v.solved, ms: g.startedAt ? Date.now() - g.startedAt : null, mistakes: null });
  }
  g.selected = null;
  if (!g.cursor || !g.view.holes.some((x) => x.name === g.cursor)) g.cursor = g.view.holes[0].name;
  draw();
  recheck();
}

const pegsOn = () => g.view.holes.filter((x) => x.peg).map((x) => x.name);
const names = (jumps) => (jumps || []).map((j) => j.text);
const holeName = (i) => g.view.holes[i].name;

function targets(from) {
  return g.view.legal.filter((j) => holeName(j.from) === from).map((j) => holeName(j.to));
}

function jumpTo(from, to) {
  const j = g.view.legal.find((m) => holeName(m.from) === from && holeName(m.to) === to);
  return j ? j.text : `${from}-${to}`;
}

function clickHole(name) {
  if (g.replay) return;
  g.cursor = name;
  if (g.selected && targets(g.selected).includes(name)) {
    act({ jump: jumpTo(g.selected, name) });
    return;
  }
  if (pegsOn().includes(name)) {
    g.selected = g.selected === name ? null : name;
    if (g.selected) {
      const t = targets(name);
      status(t.length ? `${name}: it can jump to ${t.join(', ')}` : `${name} has no jump`, t.length ? 'info' : 'warn');
    }
  } else if (g.selected) {
    status(`${g.selected}-${name} is not a legal jump`, 'warn');
  }
  draw(true);
}

function scale(v) {
  const tri = v.lattice === 'triangular';
  const dx = tri ? 30 : 56, dy = tri ? 56 : 62;
  // Hole centres at 30 + column * dx, 30 + line * dy; a ring of radius 19 and the hole's name under it.
  return { dx, dy, w: 60 + (v.size[0] - 1) * dx, hgt: 70 + (v.size[1] - 1) * dy };
}

// The hole the arrow `key` leads to from `cur`: left and right along its row; up and down to the nearest row that
// way, to the hole nearest in column (the left one of two as near). Every hole of every board can be reached.
function holeTowards(holes, cur, key) {
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const sign = key === 'ArrowRight' ? 1 : -1;
    const row = holes.filter((x) => x.line === cur.line && (x.column - cur.column) * sign > 0);
    row.sort((a, b) => (a.column - b.column) * sign);
    return row[0] || null;
  }
  const sign = key === 'ArrowDown' ? 1 : -1;
  const ahead = holes.filter((x) => (x.line - cur.line) * sign > 0);
  if (!ahead.length) return null;
  const line = ahead.reduce((best, x) => (Math.abs(x.line - cur.line) < Math.abs(best - cur.line) ? x.line : best), ahead[0].line);
  const row = ahead.filter((x) => x.line === line);
  row.sort((a, b) => Math.abs(a.column - cur.column) - Math.abs(b.column - cur.column) || a.column - b.column);
  return row[0];
}

function onKey(e) {
  // The hole with the keyboard focus is the cursor (focused by the arrows, a click or the tab key).
  const at = e.target.closest && e.target.closest('[data-hole]');
  if (at) g.cursor = at.getAttribute('data-hole');
  const holes = g.view.holes;
  const cur = holes.find((x) => x.name === g.cursor) || holes[0];
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
    e.preventDefault();
    const best = holeTowards(holes, cur, e.key);
    if (best) { g.cursor = best.name; draw(true); }
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    clickHole(g.cursor);
  } else if (e.key === 'Escape') { g.selected = null; draw(true); }
}

function boardSvg() {
  const v = g.view;
  const { dx, dy, w, hgt } = scale(v);
  const tg = g.selected ? targets(g.selected) : [];
  const next = v.solution && v.solution.length ? [holeName(v.solution[0].from), holeName(v.solution[0].to)] : [];
  const svg = s('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'board peg-board', role: 'group', 'aria-label': `${v.board} board, ${v.pegs} pegs` });
  for (const x of v.holes) {
    const cx = 30 + x.column * dx, cy = 30 + x.line * dy;
    const cls = ['hole'];
    if (x.peg) cls.push('has-peg');
    if (x.name === g.selected) cls.push('selected');
    if (tg.includes(x.name)) cls.push('target');
    if (next.includes(x.name)) cls.push('hinted');
    if (x.name === v.finish) cls.push('finish');
    if (x.name === g.cursor) cls.push('cursor');
    svg.append(s('g', { class: cls.join(' '), 'data-hole': x.name, role: 'button', tabindex: x.name === g.cursor ? 0 : -1,
      'aria-label': `${x.name}, ${x.peg ? 'peg' : 'empty'}${x.name === v.finish ? ', the finish' : ''}${tg.includes(x.name) ? ', a jump target' : ''}`,
      'aria-pressed': x.name === g.selected ? 'true' : 'false',
      onclick: () => clickHole(x.name) },
    // The area a finger may touch: as wide as the space between holes allows (the ring alone is small on a phone).
    s('circle', { cx, cy, r: 27, class: 'touch' }),
    s('circle', { cx, cy, r: 19, class: 'ring' }),
    x.peg ? s('circle', { cx, cy, r: 13, class: 'peg' }) : null,
    s('text', { x: cx, y: cy + 33, 'text-anchor': 'middle', class: 'holename', text: x.name })));
  }
  svg.addEventListener('keydown', onKey);
  return svg;
}

// The live indicator, as the session answers it: possible, impossible (and why), or not known yet.
function indicator() {
  const v = g.view;
  const i = v.indicator;
  const goal = v.finish_text;
  if (v.solved) return h('p', { class: 'indicator good', id: 'solvable' }, 'Solved!');
  if (i.state === 'possible') return h('p', { class: 'indicator good', id: 'solvable' }, `✔ ${capitalised(goal)}: still possible`);
  if (i.state === 'impossible') {
    const since = i.since === null || i.since === undefined ? '' : i.since === 0 ? ', from the start' : `, since jump ${i.since}`;
    return h('p', { class: 'indicator bad', id: 'solvable' }, `✘ ${capitalised(goal)}: no longer possible (${v.why_text}${since})`);
  }
  if (i.state === 'unknown') return h('p', { class: 'indicator', id: 'solvable' }, `? Not known: the solver gave up after ${fmt(i.nodes)} positions`);
  if (i.nodes) return h('p', { class: 'indicator', id: 'solvable' }, `? Not known yet whether one peg can still be left: searching, ${fmt(i.nodes)} positions examined`);
  return h('p', { class: 'indicator', id: 'solvable' }, '? Not known yet whether one peg can still be left');
}


function overText(v) {
  if (!v.over) return null;
  if (v.solved) return `Solved: one peg left${v.finish ? ', on ' + v.finish : ''}!`;
  if (v.pegs === 1) return `One peg left, but not on the finish hole ${v.finish}.`;
  return `No jump left: ${plural(v.pegs, 'peg')} remain.`;
}

function draw(keepFocus) {
  if (!g || !root) return;
  root.replaceChildren(h('h1', {}, 'Peg solitaire'));
  root.append(h('details', { class: 'setup', open: !g.view }, h('summary', {}, 'New game'), setupForm()));
  if (!g.view) {
    root.append(h('p', {}, 'A peg jumps over a neighbouring peg into the empty hole behind it, and the peg jumped over is removed. Leave one peg.'), button('Import a save file…', importSave));
    return;
  }
  const v = g.view;
  const over = overText(v);
  const info = h('section', { class: 'panel', 'aria-label': 'Game' },
    h('p', { class: 'big', id: 'pegs-left' }, `${plural(v.pegs, 'peg')} left`),
    indicator(),
    over ? h('div', { class: 'gameover', role: 'alert' }, over) : null,
    v.solution && v.solution.length ? h('p', { class: 'solution' }, 'Solution from here: ', names(v.solution).join(' ')) : null,
    g.replayer.list(v),
    // The game's set-up, as the terminal's panel shows it (play's words).
    h('dl', { class: 'facts' }, [['Board', capitalised(v.description)], ['Start', v.start_text], ['Goal', capitalised(v.finish_text)]]
      .map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)])),
    v.table_note ? h('p', { class: 'note' }, capitalised(v.table_note)) : null);
  const controls = actionBar('Game actions',
    button('Undo', () => { stopAuto(); act('undo'); }, { disabled: !v.can_undo, id: 'undo' }),
    button('Redo', () => { stopAuto(); act('redo'); }, { disabled: !v.can_redo, id: 'redo' }),
    button('Show me a solution', () => act('solution'), { disabled: v.over, id: 'show-solution' }),
    button('Play the next jump', () => act('step'), { disabled: v.over, id: 'step' }),
    newGameButton());
  const more = moreActions('More actions',
    button('Restart', () => { stopAuto(); act('restart'); }, { disabled: !v.moves.length, id: 'restart' }),
    button(g.auto ? 'Stop' : 'Play it all', () => { if (g.auto) { stopAuto(); draw(); } else playAll(); }, { disabled: v.over, id: 'play-all' }),
    copyLinkButton(link, g),
    button('Export', () => g.game.exportFile(), { id: 'export' }),
    button('Import…', importSave));
  const typed = h('form', { class: 'typed', onsubmit: (e) => {
    e.preventDefault();
    const t = e.target.elements.jump.value.trim();
    if (t) act({ jump: t });
    e.target.reset();
  } }, h('label', { for: 'jump' }, 'Type a jump '), h('input', { id: 'jump', name: 'jump', placeholder: exampleJump(v), autocomplete: 'off', size: 8 }), h('button', { type: 'submit' }, 'Jump'));
  // In a replay the board shows the position then; the panel and the jumps stay the game's.
  const board = g.replayer.drawing(boardSvg);
  root.append(...[g.replay ? g.replayer.bar() : null, h('div', { class: 'play' }, h('div', {}, board, typed), info), controls, more].filter(Boolean));
  if (keepFocus) { const el = root.querySelector(`[data-hole="${g.cursor}"]`); if (el) el.focus(); }
}

// How a jump is written on this board: the menu's example for a built-in board, else a legal jump here.
function exampleJump(v) {
  const b = menu.boards.find((x) => x.name === v.board);
  return (b && b.example_jump) || (v.legal[0] && v.legal[0].text) || '';
}

function importSave() { stopAuto(); return g.game.importFile(); }

// ----- The analysis page: count a board level by level.
export async function renderAnalysis(main) {
  const all = await busy(menus);
  const boards = all ? all.peg.boards : [];
  main.append(h('h1', {}, 'Peg solitaire: counting every position'));
  main.append(h('p', {}, 'Every position reachable from the start, level by level (by pegs left), with the exact number of paths to it. The server counts boards it can finish in a few seconds (the English board, the triangle, small layouts); the bigger ones are for the command ', h('code', {}, 'boardlab peg count'), '.'));
  const out = h('div', { id: 'count-out' });
  const form = h('form', { class: 'options', onsubmit: async (e) => {
    e.preventDefault();
    const d = new FormData(form);
    const problem = { board: d.get('board') };
    const start = String(d.get('start') || '').split(/[\s,]+/).filter(Boolean);
    if (start.length) problem.start = start;
    const fin = String(d.get('finish') || '').trim();
    if (fin) problem.finish = fin;
    out.replaceChildren(h('p', {}, 'Counting…'));
    const c = await busy(() => api('peg/count', { problem }));
    out.replaceChildren();
    if (c) { showCount(out, c); status(`Counted in ${(c.elapsed_ms / 1000).toFixed(2)} s${c.cached ? ' (from the server\'s cache)' : ''}.`, 'good'); }
    else out.append(h('p', {}, 'No count.'));
  } },
  select('Board', 'board', boards.map((b) => [b.name, capitalised(b.description)]), 'triangle'),
  h('label', { class: 'field', for: 'c-start' }, h('span', {}, 'Empty at the start'), h('input', { id: 'c-start', name: 'start', placeholder: 'the standard vacancy' })),
  h('label', { class: 'field', for: 'c-finish' }, h('span', {}, 'Finish on'), h('input', { id: 'c-finish', name: 'finish', placeholder: 'anywhere' })),
  h('button', { type: 'submit', class: 'primary', id: 'count' }, 'Count'));
  main.append(form, out);
}

function showCount(out, c) {
  const levels = c.levels;
  const max = Math.max(...levels.map((l) => l.positions));
  const W = 680, H = 260, pad = 56, top0 = 16;
  const bw = (W - pad - 10) / levels.length;
  const log = (x) => (x > 0 ? Math.log10(x) : 0);
  const top = Math.max(1, Math.ceil(log(max)));
  // Log scale with its floor half a decade below 1, so that a level of one position is a bar too.
  const y = (k) => H - ((k + 0.5) / (top + 0.5)) * (H - top0);
  const chart = s('svg', { viewBox: `0 0 ${W} ${H + 52}`, class: 'chart', role: 'img', 'aria-label': `Positions per level, log scale, largest ${fmt(max)}` });
  for (let k = 0; k <= top; k++) {
    chart.append(s('line', { x1: pad, x2: W - 10, y1: y(k), y2: y(k), class: 'gridline' }), s('text', { x: pad - 6, y: y(k) + 5, 'text-anchor': 'end', class: 'axis', text: k === 0 ? '1' : '10' }, k > 1 ? s('tspan', { dy: -7, 'font-size': 11, text: k }) : null));
  }
  // A label under every bar where they fit (about 28 units each), else under every few.
  const every = Math.max(1, Math.ceil(28 / bw));
  levels.forEach((l, i) => {
    const x = pad + i * bw;
    const yt = y(log(l.positions));
    chart.append(s('rect', { x: x + 1, y: yt, width: Math.max(1, bw - 2), height: H - yt, class: 'bar' }, s('title', { text: `${plural(l.pegs, 'peg')}: ${plural(l.positions, 'position')}` })));
    if (i % every === 0 || i === levels.length - 1) chart.append(s('text', { x: x + bw / 2, y: H + 18, 'text-anchor': 'middle', class: 'axis', text: l.pegs }));
  });
  chart.append(s('text', { x: pad + (W - pad) / 2, y: H + 44, 'text-anchor': 'middle', class: 'axis', text: 'pegs left (positions on a log scale)' }));
  // The table scrolls sideways on a narrow screen: it takes the keyboard focus, so the arrows scroll it.
  const table = h('table', { class: 'counts', tabindex: 0 },
    h('caption', {}, `${c.board}, empty ${c.vacancies.join(' ')}, finish ${c.finish || 'anywhere'}; ${c.symmetries} symmetries`),
    h('thead', {}, h('tr', {}, ['pegs', 'positions', 'up to symmetry', 'paths (full tree)', 'paths (normal tree)', 'dead ends'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, levels.map((l) => h('tr', {}, h('th', { scope: 'row' }, l.pegs), [l.positions, l.classes, l.paths_full, l.paths_normal, l.dead_ends].map((x) => h('td', {}, fmt(x)))))));
  out.append(chart, table,
    h('p', {}, `Reachable positions: ${fmt(c.positions)} (${fmt(c.classes)} up to symmetry). Complete games: ${fmt(c.games_full)} (normal tree ${fmt(c.games_normal)}). Solutions: ${fmt(c.solutions_full)} (normal tree ${fmt(c.solutions_normal)}).`));
}
