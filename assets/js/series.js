// Pure functions on one run's series (t and v arrays, v may hold null for missing intervals):
// smoothing, shape-preserving downsampling for display, window statistics.

/** Centred rolling mean over `width` intervals (cut short at the ends of the run); missing
 * values are skipped, never counted as zero, and stay missing. */
export function smooth(v, width) {
  if (width <= 1) return v;
  const n = v.length, sum = new Float64Array(n + 1), cnt = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const ok = v[i] !== null && Number.isFinite(v[i]);
    sum[i + 1] = sum[i] + (ok ? v[i] : 0);
    cnt[i + 1] = cnt[i] + (ok ? 1 : 0);
  }
  const half = Math.floor(width / 2), out = new Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half), hi = Math.min(n, i - half + width);
    const c = cnt[hi] - cnt[lo];
    out[i] = v[i] === null || c === 0 ? null : (sum[hi] - sum[lo]) / c;
  }
  return out;
}

/** Index of the first t >= x (t sorted ascending). */
export function lowerBound(t, x) {
  let lo = 0, hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * Points to draw for the range [x0, x1] in `buckets` buckets: per bucket the minimum and the
 * maximum, in time order, so the drawn line keeps every spike. When the range holds few
 * enough intervals (at most two per bucket), the raw points are returned (full resolution).
 * Calls emit(t, v) for each kept point; one point beyond each end keeps the line to the edge.
 */
export function downsample(t, v, x0, x1, buckets, emit) {
  const start = Math.max(0, lowerBound(t, x0) - 1);
  const end = Math.min(t.length, lowerBound(t, x1) + 1);
  if (end - start <= buckets * 2) {
    for (let i = start; i < end; i++) emit(t[i], v[i]);
    return;
  }
  const width = (x1 - x0) / buckets;
  let i = start;
  while (i < end) {
    const b = Math.floor((t[i] - x0) / width);
    let min = -1, max = -1;
    for (; i < end && Math.floor((t[i] - x0) / width) === b; i++) {
      if (v[i] === null) continue;
      if (min < 0 || v[i] < v[min]) min = i;
      if (max < 0 || v[i] > v[max]) max = i;
    }
    if (min < 0) continue;
    emit(t[Math.min(min, max)], v[Math.min(min, max)]);
    if (min !== max) emit(t[Math.max(min, max)], v[Math.max(min, max)]);
  }
}

/**
 * Statistics of the values with a < t <= b: n, mean, p1, p5, p50, p95, p99 (nearest rank on the
 * sorted values), min, max and cv (population standard deviation / mean), like the ingest.
 */
export function windowStats(t, v, a, b) {
  const vals = [];
  for (let i = lowerBound(t, a); i < t.length && t[i] <= b; i++) {
    if (t[i] > a && v[i] !== null && Number.isFinite(v[i])) vals.push(v[i]);
  }
  const n = vals.length;
  if (!n) return { n: 0, mean: null, p1: null, p5: null, p50: null, p95: null, p99: null, cv: null };
  vals.sort((p, q) => p - q);
  const mean = vals.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(vals.reduce((s, x) => s + (x - mean) ** 2, 0) / n);
  const pick = (p) => vals[Math.max(0, Math.ceil((p / 100) * n) - 1)];
  return { n, mean, p1: pick(1), p5: pick(5), p50: pick(50), p95: pick(95), p99: pick(99),
    min: vals[0], max: vals[n - 1], cv: mean ? sd / mean : null };
}
