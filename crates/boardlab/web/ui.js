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
// does each action, and the status line offers a button for it.
let nextHandlers = {};
export function onNext(handlers) { nextHandlers = handlers; }

export function status(text, tone = 'info', next = []) {
  const el = document.getElementById('status');
  if (!el) return;
  el.textContent = text || '';
  el.dataset.tone = tone;
  for (const n of next || []) {
    const run = nextHandlers[n.action];
    if (run) el.append(' ', button(n.label, run, { class: 'next' }));
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
