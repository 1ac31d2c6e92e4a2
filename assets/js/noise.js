// The one noise rule of ingest/derive/noise.py, for the ratios the reader's choice of base
// makes in the browser (the versions chart): two values differ beyond noise only when their
// spreads do not overlap, unknown when either has none; a ratio's colour class from the
// |log2 ratio| edges the page passes (noise.py's EDGES, in the versions table's `edges`). Both
// sides are checked against tests/fixtures/noise-cases.json.

/** A ratio rounded as the ingest keeps it (ingest/join/stats.py `ratio`, DIGITS = 6), so that
 * ratios the ingest ranks as equal are ranked in the same (table) order here. */
export function roundRatio(r) {
  return Math.round(r * 1e6) / 1e6;
}

/** Whether two spreads [lo, hi] overlap; null when either is unknown. */
export function withinNoise(a, b) {
  if (!a || !b || a[0] === null || a[1] === null || b[0] === null || b[1] === null) return null;
  return a[0] <= b[1] && b[0] <= a[1];
}

/** The colour class of a ratio: 0 within noise, else sign(log2 r) x (1..5 by `edges`); null
 * without a ratio. */
export function ratioClass(r, noise, edges) {
  if (r === null || r === undefined || !(r > 0) || !Number.isFinite(r)) return null;
  if (noise) return 0;
  const a = Math.abs(Math.log2(r));
  const i = edges.findIndex((e) => a <= e);
  const c = i < 0 ? edges.length + 1 : i + 1;
  return r < 1 ? -c : c;
}
