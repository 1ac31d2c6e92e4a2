// Interactive state in the URL hash: `<chart-id>.<key>=<value>` pairs joined by `&`
// (docs/charts.md). Writes use history.replaceState, so they neither scroll nor add history.

/** `s` percent-decoded, or null when it is malformed (`#x=%`): a bad pair is ignored. */
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch (e) {
    return null;
  }
}

function parse() {
  const out = new Map();
  const raw = window.location.hash.slice(1);
  if (!raw.includes('=')) return out;
  for (const part of raw.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = decode(part.slice(0, eq));
    const value = decode(part.slice(eq + 1));
    if (key !== null && value !== null) out.set(key, value);
  }
  return out;
}

let state = parse();
let pending = 0;

/** The hash value of `key` for chart `id`, or null. */
export function getState(id, key) {
  const v = state.get(`${id}.${key}`);
  return v === undefined ? null : v;
}

/** Sets (or, with null/undefined, removes) `key` for chart `id` and rewrites the hash soon. */
export function setState(id, key, value) {
  const k = `${id}.${key}`;
  if (value === null || value === undefined || value === '') state.delete(k);
  else state.set(k, String(value));
  if (!pending) pending = window.setTimeout(write, 150);
}

function write() {
  pending = 0;
  const enc = (s) => encodeURIComponent(s).replace(/%2C/g, ',');
  const hash = Array.from(state, ([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  const url = window.location.pathname + window.location.search + (hash ? `#${hash}` : '');
  window.history.replaceState(null, '', url);
}

/** The ids of the charts the hash holds state for (their view must be restored at once), or
 * the id a bare `#<id>` links to (the page opens at that chart: it goes live at once too). */
export function chartIdsInHash() {
  const raw = window.location.hash.slice(1);
  if (raw && !raw.includes('=')) return new Set([decode(raw)].filter(Boolean));
  return new Set(Array.from(state.keys(), (k) => k.slice(0, k.indexOf('.'))));
}
