// Rules and help: each game's rules as play writes them (the terminal's rules screen shows the same paragraphs,
// sent by the server's menus), with the page's keys. `?` opens them on every page, as a dialog; each game also
// has a page of its own, /rules/<game>.
import { h, button } from './ui.js';
import { menus } from './game.js';

// The keys of each page (how the page is driven is the page's choice; the rules are play's).
export const KEYS = {
  mouse: [
    ['Arrows', 'move the cursor over the board'],
    ['Enter or Space', 'pick up the piece under the cursor, or move the piece picked up there'],
    ['Escape', 'put the piece down'],
    ['← → in the moves', 'step back and forth through the game (Home: the start, End: now)'],
    ['?', 'these rules and keys'],
  ],
  peg: [
    ['Arrows', 'move the cursor from hole to hole'],
    ['Enter or Space', 'pick up the peg under the cursor, or jump the peg picked up there'],
    ['Escape', 'put the peg down'],
    ['← → in the jumps', 'step back and forth through the game (Home: the start, End: now)'],
    ['?', 'these rules and keys'],
  ],
  sudoku: [
    ['Arrows', 'move the cursor'],
    ['1-9', 'place a digit (or a mark, in a mark mode)'],
    ['Shift+1-9', 'a corner mark'],
    ['c, m, d', 'centre marks, corner marks, digits (the entry mode; p cycles through them)'],
    ['0, Backspace, Delete', 'erase the cell'],
    ['u, r', 'undo, redo'],
    ['h, a', 'a hint; apply the hint shown'],
    ['?', 'these rules and keys'],
  ],
};

const gameOf = (path) => (path.startsWith('/rules/') ? path.slice(7) : path.split('/')[1]);

// The rules and keys of `key` as elements.
function rulesOf(game) {
  return [
    ...game.rules.map((p) => h('p', {}, p)),
    KEYS[game.key] ? [h('h3', {}, 'Keys on this page'),
      h('dl', { class: 'keys-list' }, KEYS[game.key].map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)]))] : null,
  ];
}

// The page /rules/<game>.
export async function renderRules(main) {
  const all = await menus();
  const key = gameOf(location.pathname);
  const game = all.games.find((x) => x.key === key);
  if (!game) { main.append(h('h1', {}, 'Rules'), h('p', {}, `There is no game called "${key}".`)); return; }
  main.append(h('h1', {}, `${game.name}: rules`), ...rulesOf(game),
    h('p', {}, h('a', { href: '/' + game.key, 'data-link': true, class: 'btn primary' }, `Play ${game.name}`)));
}

let dialog = null;

// Open the rules of the game on screen (on the title page: a short word on each game with links to its rules).
export async function openHelp() {
  if (dialog && dialog.open) { dialog.close(); return; }
  const all = await menus();
  const key = gameOf(location.pathname);
  const game = all.games.find((x) => x.key === key);
  if (dialog) dialog.remove();
  const body = game
    ? [h('h2', { id: 'help-title', tabindex: -1 }, `${game.name}: rules`), ...rulesOf(game), h('p', {}, h('a', { href: `/rules/${game.key}`, 'data-link': true }, 'The rules as a page of their own'))]
    : [h('h2', { id: 'help-title', tabindex: -1 }, 'boardlab: help'), h('p', {}, 'Choose a game; on every page ? opens its rules and keys.'),
      h('ul', {}, all.games.map((x) => h('li', {}, h('a', { href: `/rules/${x.key}`, 'data-link': true }, `${x.name}: rules`), ' — ', x.description)))];
  dialog = h('dialog', { class: 'help', 'aria-labelledby': 'help-title', id: 'help' },
    h('div', { class: 'help-body' }, body), h('form', { method: 'dialog' }, button('Close', null, { type: 'submit', class: 'primary', id: 'help-close' })));
  dialog.addEventListener('click', (e) => { if (e.target.closest('a[data-link]')) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  // Read from the top: the heading, not the first link far down, has the focus.
  dialog.querySelector('#help-title').focus();
}
