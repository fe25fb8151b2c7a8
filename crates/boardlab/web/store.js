// The games the page holds: in localStorage, as the versioned save file the terminal writes (the server
// answers every action with the whole file), so that an exported file loads in `boardlab play --load FILE`
// and the terminal's saves import here. The page checks only that a file is a boardlab save of a game; the
// server checks the version and the game itself, with the terminal's code.
export const FORMAT = 'boardlab-save';
const GAMES = ['mouse', 'peg', 'sudoku'];

function key(game) { return 'boardlab.' + game; }

export function saveGame(game, save) {
  try {
    localStorage.setItem(key(game), JSON.stringify(save));
  } catch (e) { /* storage full or disabled: the game goes on unsaved */ }
}

export function loadGame(game) {
  try {
    const text = localStorage.getItem(key(game));
    if (!text) return null;
    const save = JSON.parse(text);
    return save && save.format === FORMAT && save.game === game && save.state ? save : null;
  } catch (e) {
    return null;
  }
}

export function forgetGame(game) {
  try { localStorage.removeItem(key(game)); } catch (e) { /* nothing to do */ }
}

// Check a save file's text: answers {game, save} or throws an Error saying what is wrong.
export function parseSave(text) {
  let v;
  try { v = JSON.parse(text); } catch (e) { throw new Error('not a boardlab save file: not valid JSON (' + e.message + ')'); }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a boardlab save file: the JSON is not an object');
  if (v.format !== FORMAT) throw new Error(`not a boardlab save file: it has no "format": "${FORMAT}" marker`);
  if (typeof v.version !== 'number') throw new Error('not a boardlab save file: it has no format version number');
  if (!GAMES.includes(v.game)) throw new Error(`the file holds an unknown game "${v.game}" (known: mouse, peg, sudoku)`);
  if (!v.state || typeof v.state !== 'object') throw new Error('the file has no game state');
  return { game: v.game, save: v };
}

export function download(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function exportGame(game, save) {
  download(game + '.json', JSON.stringify(save) + '\n');
}

// Ask for a save file; answers {game, save} (checked) or throws.
export function pickSave() {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.className = 'hidden-file';
    input.addEventListener('change', async () => {
      const f = input.files && input.files[0];
      input.remove();
      if (!f) return reject(new Error('no file chosen'));
      if (f.size > 4 << 20) return reject(new Error('not a boardlab save file: far larger than any save'));
      try { resolve(parseSave(await f.text())); } catch (e) { reject(e); }
    });
    document.body.append(input);
    input.click();
  });
}
