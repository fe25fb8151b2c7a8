// The page's router: every path is the same document; the path names the screen.
import { status } from './ui.js';
import { applyTheme, openSettings } from './settings.js';

applyTheme();

const screens = {
  '/': () => import('./title.js').then((m) => m.render),
  '/mouse': () => import('./mouse.js').then((m) => m.render),
  '/peg': () => import('./peg.js').then((m) => m.render),
  '/peg/analysis': () => import('./peg.js').then((m) => m.renderAnalysis),
  '/sudoku': () => import('./sudoku.js').then((m) => m.render),
  '/stats': () => import('./stats.js').then((m) => m.renderStats),
  '/rules/mouse': () => import('./help.js').then((m) => m.renderRules),
  '/rules/peg': () => import('./help.js').then((m) => m.renderRules),
  '/rules/sudoku': () => import('./help.js').then((m) => m.renderRules),
};

let cleanup = null;

export async function go(path, push = true) {
  if (push && path !== location.pathname) history.pushState({}, '', path);
  if (cleanup) { try { cleanup(); } catch (e) { /* ignore */ } cleanup = null; }
  const main = document.getElementById('main');
  main.replaceChildren();
  status('');
  for (const a of document.querySelectorAll('nav a')) {
    a.toggleAttribute('aria-current', a.getAttribute('href') === location.pathname);
    if (a.hasAttribute('aria-current')) a.setAttribute('aria-current', 'page');
  }
  const load = screens[location.pathname] || screens['/'];
  const render = await load();
  cleanup = (await render(main)) || null;
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    go(a.getAttribute('href'));
  }
});
window.addEventListener('popstate', () => go(location.pathname, false));
// ? opens the rules and keys of the page's game, on every page (not while typing in a field).
document.addEventListener('keydown', (e) => {
  if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest('input, textarea, select')) return;
  e.preventDefault();
  import('./help.js').then((m) => m.openHelp());
});
document.getElementById('settings-button').addEventListener('click', openSettings);
document.getElementById('help-button').addEventListener('click', () => import('./help.js').then((m) => m.openHelp()));
go(location.pathname, false);
