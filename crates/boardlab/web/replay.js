// The replay of a game's move list, shared by the Mouse & Cats and peg pages: the moves as numbered buttons (each
// shows the position after it) and a bar to step back and forth. The server answers the position after the first
// k moves (the session action {"at": k}); the page keeps its game as it was.
import { h, button, busy } from './ui.js';
import { session } from './api.js';

// `kind`: the game ('mouse', 'peg'); `g`: the page's game (its save and view; the replay is kept in g.replay as
// {ply, view}, null when the game itself is shown); `noun`: 'move' or 'jump'; `texts(view)`: the moves as the
// page writes them; `perItem`: the moves of one numbered item (a turn of two, or one jump); `redraw()`: draw the
// page again; `onShow()`: called before a replayed position is asked for.
export function replayer({ kind, g, noun, texts, perItem = 1, redraw, onShow }) {
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);

  // The position after `ply` moves; the whole game (or more) ends the replay. The keyboard focus stays in the
  // move list when it was there.
  async function show(ply) {
    const v = g.view;
    if (!v) return;
    if (onShow) onShow();
    const inList = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest('#moves'));
    const k = Math.max(0, Math.min(ply, v.moves.length));
    if (k === v.moves.length) g.replay = null;
    else {
      const save = g.save;
      const ans = await busy(() => session(kind, save, { at: k }));
      if (!ans || g.save !== save) return;
      g.replay = { ply: k, view: ans.view };
      g.selected = null;
    }
    redraw();
    if (inList) {
      const b = document.querySelector(`#moves .move[data-ply="${Math.max(1, k)}"]`);
      if (b) b.focus();
    }
  }

  // In the move list, the arrows step through the game as the replay's buttons do; Home is the start, End the
  // game as it stands.
  function onKey(e) {
    const at = g.replay ? g.replay.ply : g.view.moves.length;
    const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: g.view.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to >= 0) show(to);
  }

  // The moves, numbered (`perItem` to an item); each is a button: the position after it.
  function list(v) {
    const all = texts(v);
    if (!all.length) return h('p', { class: 'moves', id: 'moves' }, `No ${noun} yet.`);
    const at = g.replay ? g.replay.ply : all.length;
    const items = [];
    for (let i = 0; i < all.length; i += perItem) items.push(all.slice(i, i + perItem));
    return h('ol', { class: 'moves', id: 'moves', 'aria-label': `${Noun}s (choose one to see the position after it; the arrows step)`, onkeydown: onKey },
      items.map((t, i) => h('li', {}, t.map((m, j) => {
        const ply = perItem * i + j + 1;
        return h('button', { type: 'button', class: 'move', 'data-ply': ply, 'aria-current': ply === at ? 'step' : false, onclick: () => show(ply) }, m);
      }))));
  }

  // The bar over the board in a replay: where it is, back, forward, and back to the game.
  function bar() {
    const all = texts(g.view);
    const n = all.length, k = g.replay.ply;
    return h('div', { class: 'replay', role: 'group', 'aria-label': 'Replay' },
      h('span', { id: 'replay-at' }, k === 0 ? `The start, before ${noun} 1 of ${n}` : `After ${noun} ${k} of ${n}: ${all[k - 1]}`),
      button('◀ Back', () => show(k - 1), { id: 'replay-prev', disabled: k === 0, 'aria-label': `One ${noun} back` }),
      button('Forward ▶', () => show(k + 1), { id: 'replay-next', 'aria-label': `One ${noun} forward` }),
      button('Back to the game', () => { g.replay = null; redraw(); }, { id: 'replay-exit', class: 'primary' }));
  }

  // Draw with the replayed position as the view (the board then); the page's own view otherwise.
  function drawing(f) {
    if (!g.replay) return f();
    const live = g.view;
    g.view = g.replay.view;
    try { return f(); } finally { g.view = live; }
  }

  return { show, list, bar, drawing };
}
