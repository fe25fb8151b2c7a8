// Mouse & Cats: the board in SVG, play by click, drag or keyboard against the engine; the engine panel; hint,
// who wins, and the exact solution's picture of the board. The game is play's MouseSession on the server (the
// terminal's): the page keeps its save file and draws its view; the engine answers in the reply to each move.
import { api } from './api.js';
import { h, s, status, select, button, fmt, plural, busy, onNext, actionBar, moreActions, newGameButton, narrow } from './ui.js';
import { bindGame, menus, copyLinkButton, withMoves } from './game.js';
import { record } from './stats.js';
import { replayer } from './replay.js';

const FILES = 'ABCDEFGHIJKLMNOP';
let SQ = 60;
const boardN = () => (g && g.view ? g.view.size : 8);
let g = null; // { save, view, selected, cursor, map, showMap, game }
let root = null;
let menu = null; // the server's Mouse & Cats menu (play::menus)

const sqName = (f, r) => FILES[f] + (r + 1);
const coords = (name) => [FILES.indexOf(name[0].toUpperCase()), Number(name.slice(1)) - 1];
const isDark = (f, r) => (f + r) % 2 === 0;

// The address carries the options of the game (board, side, level, first move, rule, the mouse's start) and
// the moves played.
const link = {
  of: (save) => {
    const o = save.state.options;
    const q = new URLSearchParams({ size: o.size || 8, player: o.player, level: o.level, first: o.first, rule: o.rule });
    if (o.mouse_start) q.set('start', o.mouse_start);
    if ((save.state.moves || []).length) q.set('moves', save.state.moves.join(','));
    return q.toString();
  },
  open: async (params, send) => {
    const num = (k, d) => { const x = params.get(k); if (x === null) return d; if (!/^\d+$/.test(x)) throw new Error(`${k} "${x}" is not a number.`); return Number(x); };
    const size = num('size', menu.default_size);
    const opts = { size, player: params.get('player') || menu.default_player, level: num('level', menu.default_level),
      first: params.get('first') || menu.default_first, rule: params.get('rule') || menu.default_rule };
    if (params.get('start')) opts.mouse_start = params.get('start');
    const moves = (params.get('moves') || '').split(',').map((x) => x.trim()).filter(Boolean);
    // The moves are replayed by the server from the options' start: a save of the game with them.
    return withMoves(await send(null, { new: opts }), moves, send);
  },
};

export async function render(main) {
  root = main;
  g = { save: null, view: null, selected: null, cursor: 'E1', map: null, showMap: false, replay: null };
  g.game = bindGame('mouse', g, { onAnswer, link });
  g.replayer = replayer({ kind: 'mouse', g, noun: 'move', texts: (v) => v.moves.map(notation), perItem: 2, redraw: () => draw() });
  const all = await busy(menus);
  menu = all ? all.mouse : null;
  if (!menu) { main.append(h('p', { class: 'error' }, 'The server did not send the game\'s menus; reload the page.')); return () => { g = null; }; }
  await g.game.resume();
  draw();
  return () => { g = null; };
}

const boardOf = (n) => menu.boards.find((b) => b.size === Number(n)) || menu.boards.find((b) => b.size === menu.default_size);
const items = (list) => list.map((x) => [x.value, x.label]);

function optionsForm() {
  const v = g.view;
  const o = (v && v.options) || { player: menu.default_player, level: menu.default_level, first: menu.default_first, rule: menu.default_rule };
  const b0 = boardOf(v ? v.size : menu.default_size);
  // The 8x8 rule's first-release name in old saves.
  const rule = o.rule === 'row8' ? 'far-row' : o.rule;
  const level = Math.min(o.level, b0.levels.length);
  const form = h('form', { class: 'options', 'aria-label': 'New game options', onsubmit: (e) => {
    e.preventDefault();
    const d = new FormData(form);
    newGame({ player: d.get('player'), level: Number(d.get('level')), size: Number(d.get('size')), mouse_start: d.get('mouse_start'), first: d.get('first'), rule: d.get('rule') });
  } },
  select('Play as', 'player', items(menu.sides), o.player),
  select('Board', 'size', menu.boards.map((b) => [b.size, b.exact ? b.label : `${b.label} (no exact solution)`]), b0.size, 'N/2 cats on row N. Hints and the top level use the exact solution where it is kept; elsewhere hints come from a search.'),
  select('Level', 'level', items(b0.levels), level, 'Every level but the perfect one searches a number of plies ahead.'),
  select('Mouse starts on', 'mouse_start', b0.starts.map((x) => [x, x]), v && b0.starts.includes(o.mouse_start) ? o.mouse_start : b0.default_start),
  select('First move', 'first', items(menu.sides), o.first),
  select('Rule', 'rule', items(b0.rules), rule),
  h('button', { type: 'submit', class: 'primary', id: 'mouse-new' }, 'New game'));
  // Another board: its start squares (its default start chosen), levels and rule names, from the server's menu.
  const sizeSel = form.querySelector('select[name="size"]');
  sizeSel.addEventListener('change', () => {
    const b = boardOf(sizeSel.value);
    const fill = (name, list, value) => {
      const el = form.querySelector(`select[name="${name}"]`);
      el.replaceChildren(...list.map(([val, text]) => h('option', { value: val }, text)));
      el.value = String(value);
    };
    const lv = form.querySelector('select[name="level"]');
    fill('level', items(b.levels), Math.min(Number(lv.value), b.levels.length));
    fill('mouse_start', b.starts.map((x) => [x, x]), b.default_start);
    fill('rule', items(b.rules), form.querySelector('select[name="rule"]').value);
  });
  return form;
}

onNext({
  new_game: () => g && g.view && newGame(g.view.options),
  undo: () => act('undo'),
});

async function newGame(opts) {
  g.selected = null; g.map = null; g.engine = null;
  await g.game.start(opts);
}

async function act(action) {
  await g.game.act(action);
}

function onAnswer(ans, quiet, before) {
  if (!g) return;
  const v = ans.view;
  g.replay = null;
  // A game that ends here is counted in the player's stats, by board, level and side.
  if (before && !before.winner && v.winner) {
    record({ game: 'mouse', category: `${v.size}x${v.size}, level ${v.options.level}, as the ${v.options.player}`, won: v.winner === v.options.player, ms: null, mistakes: null });
  }
  g.selected = null;
  // A cursor off a smaller board goes to the mouse.
  const [cf, cr] = coords(g.cursor);
  if (!(cf >= 0 && cf < g.view.size && cr >= 0 && cr < g.view.size)) g.cursor = g.view.mouse;
  if (g.showMap) refreshMap(); else g.map = null;
  draw();
}

// The position as the engine routes read it (for the exact solution's picture).
const positionText = (v) => `${v.size === 8 ? '' : `size=${v.size} `}mouse=${v.mouse} cats=${v.cats.join(',')} turn=${v.turn}`;
const myTurn = () => !g.replay && g.view && !g.view.winner && !g.view.thinking && g.view.turn === g.view.options.player;

async function refreshMap() {
  const v = g.view;
  const m = await busy(() => api('mouse/map', { position: positionText(v), rule: v.options.rule }));
  if (m && g) { g.map = m; draw(); }
}

function playerPieces() {
  const v = g.view;
  return v.options.player === 'mouse' ? [v.mouse] : v.cats;
}

function targets(from) {
  return g.view.legal.filter((m) => m.startsWith(from + '-')).map((m) => m.slice(from.length + 1));
}

function tryMove(from, to) {
  const mv = `${from}-${to}`;
  if (g.view.legal.includes(mv) && myTurn()) {
    act({ move: mv });
    return true;
  }
  return false;
}

function clickSquare(name) {
  g.cursor = name;
  if (!myTurn()) { draw(); return; }
  if (g.selected && tryMove(g.selected, name)) return;
  if (playerPieces().includes(name)) {
    g.selected = g.selected === name ? null : name;
    status(g.selected ? `${name} picked up: ${targets(name).join(', ') || 'no move'}` : `${name} put down`);
  } else if (g.selected) {
    status(`${g.selected}-${name} is not a legal move`, 'warn');
  }
  draw();
}

function onKey(e) {
  const [f, r] = coords(g.cursor);
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
  if (step) {
    e.preventDefault();
    const top = boardN() - 1;
    const nf = Math.min(top, Math.max(0, f + step[0]));
    const nr = Math.min(top, Math.max(0, r + step[1]));
    g.cursor = sqName(nf, nr);
    draw(true);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    clickSquare(g.cursor);
    focusCursor();
  } else if (e.key === 'Escape') {
    g.selected = null; draw(true);
  }
}

function focusCursor() {
  const el = root && root.querySelector(`[data-sq="${g.cursor}"]`);
  if (el) el.focus();
}

function pieceAt(name) {
  const v = g.view;
  if (v.mouse === name) return 'mouse';
  if (v.cats.includes(name)) return 'cat';
  return null;
}

function boardSvg() {
  const v = g.view;
  const hintSq = v.hint ? v.hint.split('-') : [];
  const last = v.moves.length ? v.moves[v.moves.length - 1] : null;
  // The engine's last move: the last one played, when it is your turn again or the engine has won.
  const engineSide = v.options.player === 'mouse' ? 'cats' : 'mouse';
  const lastEngine = last && (myTurn() || v.winner === engineSide) ? last.split('-') : [];
  const tg = g.selected ? targets(g.selected) : [];
  const mapBy = {};
  if (g.showMap && g.map) for (const x of g.map.squares) mapBy[x.square] = x.value;
  const n = boardN();
  // The same drawing size on every board: smaller squares on bigger boards.
  SQ = Math.round(480 / n);
  const svg = s('svg', { viewBox: `0 0 ${SQ * n + 40} ${SQ * n + 40}`, class: 'board mouse-board', role: 'grid', 'data-size': n, 'aria-label': `Board, ${n} by ${n}. ${describe()}` });
  let drag = null;
  for (let r = n - 1; r >= 0; r--) {
    const row = s('g', { role: 'row' });
    for (let f = 0; f < n; f++) {
      const name = sqName(f, r);
      const x = 30 + f * SQ, y = 10 + (n - 1 - r) * SQ;
      const dark = isDark(f, r);
      const piece = pieceAt(name);
      const mv = mapBy[name];
      const classes = ['sq', dark ? 'dark' : 'light'];
      if (name === g.selected) classes.push('selected');
      if (tg.includes(name)) classes.push('target');
      if (hintSq.includes(name)) classes.push('hinted');
      if (lastEngine.includes(name)) classes.push('last');
      if (name === g.cursor) classes.push('cursor');
      if (mv) classes.push(mv.winner === 'mouse' ? 'win-mouse' : 'win-cats');
      let label = `${name}${dark ? '' : ' (light)'}${piece ? ', ' + piece : ''}`;
      if (mv) label += `, ${mv.text} with the mouse here`;
      if (tg.includes(name)) label += ', a move target';
      const cell = s('g', { role: 'gridcell', 'data-sq': name, tabindex: name === g.cursor ? 0 : -1, 'aria-label': label, class: classes.join(' '),
        onclick: () => clickSquare(name),
        onpointerdown: () => { if (piece && playerPieces().includes(name) && myTurn()) drag = name; },
        onpointerup: (e) => { if (drag && drag !== name) { const from = drag; drag = null; if (!tryMove(from, name)) draw(); } drag = null; },
      },
      s('rect', { x, y, width: SQ, height: SQ }),
      mv ? s('title', { text: `${mv.winner} wins in ${plural(mv.plies, 'ply', 'plies')}` }) : null,
      mv && !piece ? s('text', { x: x + SQ - 4, y: y + 14, class: 'maplabel', 'text-anchor': 'end', text: (mv.winner === 'mouse' ? 'M' : 'C') + mv.plies }) : null,
      piece ? s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.36, class: 'piece ' + piece }) : null,
      piece ? s('text', { x: x + SQ / 2, y: y + SQ / 2 + SQ * 0.12, class: 'piecelabel ' + piece, 'text-anchor': 'middle', 'font-size': Math.round(SQ * 0.35), text: piece === 'mouse' ? 'M' : 'C' }) : null);
      row.append(cell);
    }
    svg.append(row);
  }
  for (let i = 0; i < n; i++) {
    svg.append(s('text', { x: 30 + i * SQ + SQ / 2, y: SQ * n + 32, 'text-anchor': 'middle', class: 'coord', text: FILES[i] }));
    svg.append(s('text', { x: 14, y: 10 + (n - 1 - i) * SQ + SQ / 2 + 6, 'text-anchor': 'middle', class: 'coord', text: i + 1 }));
  }
  svg.addEventListener('keydown', onKey);
  return svg;
}

function describe() {
  const v = g.view;
  return `Mouse on ${v.mouse}, cats on ${v.cats.join(', ')}, ${v.turn} to move.`;
}

function scoreText(sc) {
  if (sc.kind === 'win') return `the engine wins in ${plural(sc.plies, 'ply', 'plies')}`;
  if (sc.kind === 'loss') return `the engine loses in ${plural(sc.plies, 'ply', 'plies')}`;
  return `evaluation ${sc.value > 0 ? '+' : ''}${sc.value} for the engine`;
}

// A move in the one notation of the page, E1-F2 (the engine's variation comes as e1f2).
const notation = (m) => {
  const x = /^([a-p])(\d+)-?([a-p])(\d+)$/i.exec(m);
  return x ? `${x[1].toUpperCase()}${x[2]}-${x[3].toUpperCase()}${x[4]}` : m;
};

function panel() {
  const v = g.view, t = v.tables;
  // The engine's last search stays shown after a hint or "who wins?", which do not search with the engine.
  if (v.engine) g.engine = v.engine;
  const e = v.engine || g.engine;
  const rows = [
    ['You play', `the ${v.options.player} against level ${v.level_text}`],
    ['Board', `${v.size}x${v.size}, ${v.rule_text} rule${v.exact ? '' : ': no exact value is available on this board (hints come from a search)'}`],
    ['To move', v.winner ? 'game over' : `${v.turn}${myTurn() ? ' (you)' : ' (the engine)'}`],
  ];
  if (e) {
    rows.push(['Engine', `the ${e.side}${e.perfect ? ', perfect play' : `, depth ${e.depth}`}`]);
    rows.push(['Score', scoreText(e.score)]);
    rows.push(['Variation', e.pv.map(notation).join(' ') || '—']);
    rows.push(['Nodes', fmt(e.nodes)]);
  }
  if (v.hint) rows.push(['Hint', notation(v.hint)]);
  // The engine's memory, for those who study it: folded away.
  const tables = [
    ['Hash / lock', `${v.hash} / ${v.lock}`],
    ['Tables', `2 × 2^${t.index_bits} entries, ${t.lock_bits}-bit locks`],
    ['Probes', `${fmt(t.probes)}: ${fmt(t.hits)} hits; ${fmt(t.stores)} stores`],
    ['Collisions', `${fmt(t.lock_mismatches)} detected by the lock; ${fmt(t.collisions)} overwrites of another position`],
  ];
  const dl = (list) => h('dl', {}, list.map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)]));
  // On a phone the engine panel is folded away under the board (open, it stays open); the moves stay in sight, as
  // the way into the replay.
  if (g.panelOpen === undefined) g.panelOpen = !narrow();
  return h('div', { class: 'side' },
    h('details', { class: 'panel fold', open: g.panelOpen, ontoggle: (e) => { g.panelOpen = e.target.open; } },
      h('summary', {}, h('h2', {}, 'Engine')),
      dl(rows),
      h('details', { class: 'fold tables', open: g.tablesOpen, ontoggle: (e) => { g.tablesOpen = e.target.open; } },
        h('summary', {}, 'Hash tables'), dl(tables))),
    h('section', { class: 'panel movebox', 'aria-label': 'Moves' }, h('h2', {}, 'Moves'), g.replayer.list(v)));
}


function draw(keepFocus) {
  if (!g || !root) return;
  const had = keepFocus || (document.activeElement && document.activeElement.closest && document.activeElement.closest('.mouse-board'));
  root.replaceChildren();
  root.append(h('h1', {}, 'Mouse & Cats'));
  const opts = h('details', { class: 'setup', open: !g.view }, h('summary', {}, 'New game'), optionsForm());
  root.append(opts);
  if (!g.view) {
    root.append(h('p', {}, 'The mouse (M) tries to reach row 8; the four cats (C) try to trap it. The mouse moves one step diagonally either way; a cat only forwards, down the board. Choose your side and the level, then New game.'),
      button('Import a save file…', importSave));
    return;
  }
  const v = g.view;
  const controls = actionBar('Game actions',
    button('Undo', () => act('undo'), { disabled: !v.can_undo, id: 'undo' }),
    button('Redo', () => act('redo'), { disabled: !v.can_redo, id: 'redo' }),
    button('Hint', () => act('hint'), { disabled: !myTurn(), id: 'hint' }),
    button('Who wins?', () => act('who'), { disabled: !!v.winner, id: 'who' }),
    newGameButton());
  const more = moreActions('More actions',
    // The exact solution's picture of the board is drawn from the 8x8 table.
    v.size === 8 ? h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'showmap', checked: g.showMap, onchange: (e) => { g.showMap = e.target.checked; if (g.showMap) refreshMap(); else { g.map = null; draw(); } } }), ' Exact solution picture') : null,
    copyLinkButton(link, g),
    button('Export', () => g.game.exportFile(), { id: 'export' }),
    button('Import…', importSave));
  const typed = h('form', { class: 'typed', onsubmit: (e) => {
    e.preventDefault();
    const t = e.target.elements.mv.value.trim();
    if (t) act({ move: t });
    e.target.reset();
  } }, h('label', { for: 'mv' }, 'Type a move '), h('input', { id: 'mv', name: 'mv', placeholder: 'E1-F2', autocomplete: 'off', size: 7 }), h('button', { type: 'submit' }, 'Play'));
  // The game's end is announced over the board, but not over a replay of it (the replay's bar is there).
  const over = v.winner && !g.replay ? h('div', { class: 'gameover', role: 'alert' }, `The ${v.winner} won${v.winner === v.options.player ? ': you win!' : '.'}`, ' ', button('New game', () => newGame(v.options), { id: 'again' })) : null;
  const legend = g.showMap ? h('p', { class: 'legend' }, h('span', { class: 'key win-mouse' }, 'M n'), ' the mouse would win in n plies from that square; ',
    h('span', { class: 'key win-cats' }, 'C n'), ' the cats would (same cats, same side to move). Hover a square for the plies.') : null;
  // In a replay the board shows the position then; the panel and the moves stay the game's.
  const board = g.replayer.drawing(boardSvg);
  root.append(...[over, g.replay ? g.replayer.bar() : null, h('div', { class: 'play' }, h('div', {}, board, legend, typed), panel()), controls, more].filter(Boolean));
  if (had) focusCursor();
}

function importSave() { return g.game.importFile(); }
