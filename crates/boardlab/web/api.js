// The JSON API: every call answers the parsed body, or throws an Error with the server's one-line message.
import { capitalised } from './ui.js';

export async function api(path, body) {
  const opts = body === undefined
    ? { method: 'GET' }
    : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  let res;
  try {
    res = await fetch('/api/' + path, opts);
  } catch (e) {
    throw new Error('the server cannot be reached (is `boardlab serve` still running?)');
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) {
    throw new Error(forPerson((data && data.error) || `the server answered ${res.status}`));
  }
  return data;
}

// The API's errors begin with the field they come from, for scripts ("new.puzzle: line 1 ..."); a person reads the
// sentence after it, as a sentence.
export function forPerson(msg) {
  let t = String(msg);
  for (let m; (m = /^(?:[a-z_]+(?:\.[a-z_]+|\[\d+\])*|action [a-z_]+): (.+)$/s.exec(t));) t = m[1];
  // A sentence starts with a capital; a name (d2-d4, r1c1) keeps its case.
  return capitalised(t);
}

// One action on a game held by the page as its save file: answers {save, view, message, tone, extra}.
export function session(game, save, action) {
  return api(game + '/session', save ? { save, action } : { action });
}
