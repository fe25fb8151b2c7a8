// One game held by a page: its save file and view, resumed from the browser, changed by one action at a time
// on the server, exported and imported as the terminal's save file. The three game pages share it.
import { session, api } from './api.js';
import { busy, status, button } from './ui.js';
import { loadGame, saveGame, forgetGame, exportGame, pickSave } from './store.js';

// The menus the server answers (`/api/menus`, from play): asked once per page load.
let menusP = null;
export function menus() {
  if (!menusP) {
    menusP = api('menus').catch((e) => { menusP = null; throw e; });
  }
  return menusP;
}

// A game's address: the page's path and the query `link.of(save)` writes (the puzzle, the board and its jumps,
// the options and the moves).
export function addressOf(link, save) {
  const q = link && save ? link.of(save) : '';
  return location.origin + location.pathname + (q ? '?' + q : '');
}

// Bind the game `kind` to the page's `state` (its `save` and `view` are kept there). `onAnswer(ans, quiet)` draws
// an answer; `beforeSend(save)` may update the save just before it leaves (the sudoku clock). `link` makes the
// address carry the game: `link.of(save)` is the query of a game, `link.open(params, send)` starts the game a
// query names (answering the server's answer, or throwing what is wrong with it).
export function bindGame(kind, state, { onAnswer, beforeSend, link } = {}) {
  const take = (ans, quiet) => {
    const before = state.view;
    state.save = ans.save;
    state.view = ans.view;
    saveGame(kind, state.save);
    if (link) history.replaceState(history.state, '', addressOf(link, state.save));
    if (!quiet || ans.message) status(ans.message, ans.tone, ans.next);
    if (onAnswer) onAnswer(ans, quiet, before);
  };
  const send = (save, action) => {
    if (save && beforeSend) beforeSend(save);
    return session(kind, save, action);
  };
  return {
    take,
    // The game the address names (unless it is the one saved in this browser), else the game saved in this
    // browser if it can still be read (a damaged one is dropped, saying so). A link that names no game that can
    // be played says why, and the page goes on as without it.
    async resume() {
      const params = new URLSearchParams(location.search);
      const saved0 = loadGame(kind);
      if (link && [...params.keys()].length && !(saved0 && link.of(saved0) === params.toString())) {
        document.body.classList.add('busy');
        try {
          take(await link.open(params, send));
          return true;
        } catch (e) {
          history.replaceState(history.state, '', location.pathname);
          const warn = `This link does not hold a game that can be opened: ${e.message}`;
          const had = await this.resumeSaved();
          status(warn, 'error');
          return had;
        } finally { document.body.classList.remove('busy'); }
      }
      return this.resumeSaved();
    },
    async resumeSaved() {
      const saved = loadGame(kind);
      if (!saved) return false;
      const ans = await busy(() => send(saved, 'view'));
      if (ans) { take(ans, true); return true; }
      forgetGame(kind);
      status(`The saved ${kind} game could not be read and was dropped.`, 'warn');
      return false;
    },
    // One action on the game; answers the server's answer, or null (the error is on the status line).
    async act(action) {
      if (!state.save) return null;
      const ans = await busy(() => send(state.save, action));
      if (ans) take(ans);
      return ans || null;
    },
    // A new game; throws the server's refusal when `raise`, else shows it and answers null.
    async start(spec, raise = false) {
      const run = () => send(null, { new: spec });
      if (raise) {
        document.body.classList.add('busy');
        try { const ans = await run(); take(ans); return ans; } finally { document.body.classList.remove('busy'); }
      }
      const ans = await busy(run);
      if (ans) take(ans);
      return ans || null;
    },
    exportFile() {
      if (!state.save) return;
      if (beforeSend) beforeSend(state.save);
      exportGame(kind, state.save);
    },
    async importFile() {
      try {
        const { game, save } = await pickSave();
        if (game !== kind) throw new Error(`That file holds a ${game} game; open it from the ${game} page or the title page.`);
        const ans = await busy(() => session(kind, save, 'view'));
        if (ans) take(ans);
      } catch (e) { status(e.message, 'error'); }
    },
  };
}

// The "Copy link" button: the game's address to the clipboard (and on the status line, to copy by hand where the
// browser refuses the clipboard).
export function copyLinkButton(link, state) {
  return button('Copy link', async () => {
    const url = addressOf(link, state.save);
    try {
      await navigator.clipboard.writeText(url);
      status(`The link to this game is copied: ${url}`, 'good');
    } catch (e) {
      status(`Copy this link to the game: ${url}`);
    }
  }, { id: 'copy-link' });
}

// The game of `ans` with `moves` played from its start, as the server replays them (one request, whatever the
// number of moves; a move that cannot be played is named by the server's answer).
export function withMoves(ans, moves, send) {
  if (!moves.length) return ans;
  const save = JSON.parse(JSON.stringify(ans.save));
  save.state.moves = moves;
  for (const k of ['undo', 'redo']) if (Array.isArray(save.state[k])) save.state[k] = [];
  return send(save, 'view');
}

// Today's date where the player is, YYYY-MM-DD: the daily puzzles are the same for everyone on a date.
export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

// The daily puzzles of today (the server's /api/daily).
export function daily() {
  return api('daily?date=' + today());
}
