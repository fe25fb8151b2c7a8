// The JSON API: every call answers the parsed body, or throws an Error with the server's one-line message.
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
    throw new Error((data && data.error) || `the server answered ${res.status}`);
  }
  return data;
}

// One action on a game held by the page as its save file: answers {save, view, message, tone, extra}.
export function session(game, save, action) {
  return api(game + '/session', save ? { save, action } : { action });
}
