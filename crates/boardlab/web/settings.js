// The player's settings, kept in this browser (localStorage): how the pages look and help, never the game.
import { h, button, capitalised } from './ui.js';

const KEY = 'boardlab.settings';
export const DEFAULTS = {
  theme: 'system', // light, dark or system
  highlightSame: true, // sudoku: the digit under the cursor highlighted everywhere
  showConflicts: true, // sudoku: clashing digits marked
  showTimer: true, // sudoku: the clock shown
  removeCandidates: true, // sudoku: a digit placed takes its pencil marks out of its row, column and box
};

const listeners = new Set();

export function settings() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) if (typeof v[k] === typeof DEFAULTS[k]) out[k] = v[k];
    if (!['light', 'dark', 'system'].includes(out.theme)) out.theme = 'system';
    return out;
  } catch (e) {
    return { ...DEFAULTS };
  }
}

export function setSetting(k, value) {
  const s = { ...settings(), [k]: value };
  try { localStorage.setItem(KEY, JSON.stringify(s)); } catch (e) { /* storage off: for this page only */ }
  applyTheme();
  for (const f of listeners) f(s);
}

// A page redraws when a setting changes; answers the function that stops it.
export function onSettings(f) { listeners.add(f); return () => listeners.delete(f); }

export function applyTheme() {
  const t = settings().theme;
  if (t === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', t);
}

let dialog = null;

export function openSettings() {
  if (dialog) dialog.remove();
  const s = settings();
  const check = (k, label) => h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'set-' + k, checked: s[k], onchange: (e) => setSetting(k, e.target.checked) }), ' ', label);
  dialog = h('dialog', { class: 'help', id: 'settings', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title' }, 'Settings'),
    h('p', { class: 'note' }, 'Kept in this browser.'),
    h('fieldset', {}, h('legend', {}, 'Theme'),
      ['light', 'dark', 'system'].map((t) => h('label', { class: 'check' }, h('input', { type: 'radio', name: 'theme', id: 'set-theme-' + t, value: t, checked: s.theme === t, onchange: () => setSetting('theme', t) }), ' ', t === 'system' ? 'As the system' : capitalised(t)))),
    h('fieldset', {}, h('legend', {}, 'Sudoku'),
      check('highlightSame', 'Highlight the digit under the cursor everywhere'),
      check('removeCandidates', 'Remove a placed digit from the pencil marks of its row, column and box'),
      check('showConflicts', 'Show conflicts'),
      check('showTimer', 'Show the timer')),
    h('form', { method: 'dialog' }, button('Close', null, { type: 'submit', class: 'primary', id: 'settings-close' })));
  document.body.append(dialog);
  dialog.showModal();
}
