// One game held by a page: its save file and view, resumed from the browser, changed by one action at a time
// on the server, exported and imported as the terminal's save file. The three game pages share it.
import { session, api } from './api.js';
import { busy, status } from './ui.js';
import { loadGame, saveGame, forgetGame, exportGame, pickSave } from './store.js';

// The menus the server answers (`/api/menus`, from play): asked once per page load.
let menusP = null;
export function menus() {
  if (!menusP) {
    menusP = api('menus').catch((e) => { menusP = null; throw e; });
  }
  return menusP;
}

// Bind the game `kind` to the page's `state` (its `save` and `view` are kept there). `onAnswer(ans, quiet)` draws
// an answer; `beforeSend(save)` may update the save just before it leaves (the sudoku clock).
export function bindGame(kind, state, { onAnswer, beforeSend } = {}) {
  const take = (ans, quiet) => {
    state.save = ans.save;
    state.view = ans.view;
    saveGame(kind, state.save);
    if (!quiet || ans.message) status(ans.message, ans.tone, ans.next);
    if (onAnswer) onAnswer(ans, quiet);
  };
  const send = (save, action) => {
    if (save && beforeSend) beforeSend(save);
    return session(kind, save, action);
  };
  return {
    take,
    // The game saved in this browser, if it can still be read; a damaged one is dropped, saying so.
    async resume() {
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
