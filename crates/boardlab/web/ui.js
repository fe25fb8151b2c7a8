// Small helpers shared by the pages.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// What the player can do next, as the server names it in an answer ({action, label}): each page says how it
// does each action (a function, or {label, run} where the page's own button for it has another name), and the
// status line offers a button for it.
let nextHandlers = {};
export function onNext(handlers) { nextHandlers = handlers; }

// A label as a button writes it: "new game" becomes "New game" (a name such as d2-d4 or r1c1 keeps its case).
export function capitalised(t) {
  return /^[a-z]+(?=[\s,:;'"]|$)/.test(t) ? t.charAt(0).toUpperCase() + t.slice(1) : t;
}

const EVERY_PAGE = {
  rules: () => import('./help.js').then((m) => m.openHelp()),
  leave: { label: 'Title page', run: () => import('./app.js').then((m) => m.go('/')) },
};

export function status(text, tone = 'info', next = []) {
  const el = document.getElementById('status');
  if (!el) return;
  el.textContent = text || '';
  el.dataset.tone = tone;
  for (const n of next || []) {
    // Reading the rules and leaving for the title page are the same on every page.
    const how = nextHandlers[n.action] || EVERY_PAGE[n.action];
    if (!how) continue;
    const run = typeof how === 'function' ? how : how.run;
    const label = typeof how === 'function' ? capitalised(n.label) : how.label;
    el.append(' ', button(label, run, { class: 'next', 'data-action': n.action }));
  }
}

export function select(label, name, options, value, help) {
  const id = 'opt-' + name;
  return h('label', { class: 'field', for: id }, h('span', {}, label),
    h('select', { id, name }, options.map(([v, t]) => h('option', { value: v, selected: String(v) === String(value) }, t))),
    help ? h('small', {}, help) : null);
}

export function button(text, onclick, attrs = {}) {
  return h('button', { type: 'button', onclick, ...attrs }, text);
}

// "1 peg", "2 pegs": a count with its noun, singular for one.
export function plural(n, one, many = one + 's') {
  return `${fmt(n)} ${Number(n) === 1 ? one : many}`;
}

export function fmt(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// Run an async action with the page marked busy; errors go to the status line.
export async function busy(fn) {
  document.body.classList.add('busy');
  try {
    return await fn();
  } catch (e) {
    status(e.message, 'error');
    return undefined;
  } finally {
    document.body.classList.remove('busy');
  }
}

// The main actions of a game, in a bar that stays on screen (at the foot of the window when the page is longer).
export function actionBar(label, ...buttons) {
  return h('div', { class: 'controls actionbar', role: 'toolbar', 'aria-label': label }, ...buttons);
}

// The other actions, under the game.
export function moreActions(label, ...buttons) {
  return h('div', { class: 'controls more', role: 'toolbar', 'aria-label': label }, ...buttons);
}

// "New game": opens the page's new-game options and puts the focus on them.
export function newGameButton(text = 'New game') {
  return button(text, () => {
    const d = document.querySelector('details.setup');
    if (!d) return;
    d.open = true;
    d.scrollIntoView({ block: 'start' });
    const f = d.querySelector('select, input, textarea');
    if (f) f.focus();
  }, { id: 'new-game' });
}

// Whether the window is a phone's (the layout folds panels away there).
export const narrow = () => window.matchMedia('(max-width: 560px)').matches;
