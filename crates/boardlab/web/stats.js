// The player's record, kept in this browser: each finished game with its category (difficulty, board, level),
// whether it was won, its time, mistakes and hints; and the /stats page that sums it up.
import { h, capitalised } from './ui.js';
import { menus } from './game.js';

const KEY = 'boardlab.stats';
const KEEP = 2000;

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(v) ? v.filter((x) => x && typeof x.game === 'string') : [];
  } catch (e) {
    return [];
  }
}

// Count a finished game: {game, category, won, ms (or null), mistakes (or null), hints (or null), daily}.
export function record(entry) {
  const all = load();
  all.push({ ...entry, at: new Date().toISOString() });
  try { localStorage.setItem(KEY, JSON.stringify(all.slice(-KEEP))); } catch (e) { /* storage off */ }
}

const clock = (ms) => {
  const t = Math.round(ms / 1000);
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// One game's record by category: played, won, best and median time of the games won, mistakes.
export function summary(game) {
  const by = new Map();
  for (const x of load().filter((e) => e.game === game)) {
    const c = by.get(x.category) || { category: x.category, played: 0, won: 0, times: [], mistakes: 0, counted: 0 };
    c.played++;
    if (x.won) {
      c.won++;
      if (typeof x.ms === 'number') c.times.push(x.ms);
    }
    if (typeof x.mistakes === 'number') { c.mistakes += x.mistakes; c.counted++; }
    by.set(x.category, c);
  }
  return [...by.values()].map((c) => ({ ...c, best: c.times.length ? Math.min(...c.times) : null, median: median(c.times) }));
}

export function table(game, name) {
  const rows = summary(game);
  const wonWord = game === 'mouse' ? 'Won' : 'Solved';
  if (!rows.length) return h('p', { class: 'note', id: `stats-${game}` }, `No ${name} game finished yet in this browser.`);
  return h('table', { class: 'counts stats-table', id: `stats-${game}` },
    h('caption', { class: 'sr' }, name),
    h('thead', {}, h('tr', {}, ['', 'Played', wonWord, 'Best time', 'Median time', 'Mistakes'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows.map((r) => h('tr', { 'data-category': r.category }, h('th', { scope: 'row' }, capitalised(r.category)),
      h('td', {}, r.played), h('td', { class: 'won' }, r.won),
      h('td', {}, r.best === null ? '—' : clock(r.best)), h('td', {}, r.median === null ? '—' : clock(r.median)),
      h('td', {}, r.counted ? `${r.mistakes} (${(r.mistakes / r.counted).toFixed(1)} a game)` : '—')))));
}

// The page /stats.
export async function renderStats(main) {
  const all = await menus();
  main.append(h('h1', {}, 'Your games'), h('p', { class: 'lead' }, 'Every game finished in this browser, by kind: kept here, nowhere else.'));
  for (const g of all.games) main.append(h('h2', {}, g.name), table(g.key, g.name));
}
