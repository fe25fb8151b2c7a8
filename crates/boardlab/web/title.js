// The title page: choose a game, resume a saved one, or import a save file.
import { h, button, status, busy, plural, capitalised } from './ui.js';
import { loadGame, pickSave, saveGame } from './store.js';
import { go } from './app.js';
import { menus } from './game.js';

// A saved game in a few words: its board (as the server's menu describes it) or puzzle, and how far it went.
function summary(key, st, all) {
  if (!st) return null;
  if (key === 'mouse') return `${plural((st.moves || []).length, 'ply', 'plies')} played, as the ${st.options && st.options.player}, level ${st.options && st.options.level}`;
  if (key === 'peg') {
    const b = all && all.peg.boards.find((x) => x.name === st.board);
    return `${b ? capitalised(b.description) : 'A layout of your own'}, ${plural((st.moves || []).length, 'jump')} played`;
  }
  if (key === 'sudoku') return `${capitalised(String(st.puzzle && st.puzzle.label))}${st.end ? ' (' + st.end + ')' : ''}`;
  return null;
}

export async function render(main) {
  const all = await busy(menus);
  const games = all ? all.games : [];
  main.append(h('h1', {}, 'boardlab'), h('p', { class: 'lead' }, 'Three classic games and their engines, in your browser, from one program on your machine.'));
  const list = h('div', { class: 'cards' });
  for (const g of games) {
    const saved = loadGame(g.key);
    const sum = summary(g.key, saved && saved.state, all);
    list.append(h('section', { class: 'card', 'aria-labelledby': 'card-' + g.key },
      h('h2', { id: 'card-' + g.key }, g.name),
      h('p', {}, g.description),
      h('div', { class: 'row' },
        h('a', { href: '/' + g.key, 'data-link': true, class: 'btn primary' }, sum ? 'Resume' : 'Play'),
        g.key === 'peg' ? h('a', { href: '/peg/analysis', 'data-link': true, class: 'btn' }, 'Analysis') : null),
      sum ? h('p', { class: 'saved' }, 'Saved game: ' + sum) : null));
  }
  main.append(list, h('p', {}, button('Import a save file…', async () => {
    try {
      const { game, save } = await pickSave();
      saveGame(game, save);
      go('/' + game);
    } catch (e) { status(e.message, 'error'); }
  }, { id: 'import' }), ' A game saved in the terminal (press s there) plays on here, and the other way round.'));
}
