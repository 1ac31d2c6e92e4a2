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

/** Index of the t nearest to x (the later one on a tie); t sorted ascending, not empty. */
export function nearestIndex(t, x) {
  const i = lowerBound(t, x);
  return i > 0 && (i === t.length || x - t[i - 1] < t[i] - x) ? i - 1 : i;
}

/**
 * The one downsampler (the charts' `downsample`, the compare page's plot): walks the points
 * i0 <= i < i1 in groups of consecutive points that share a column (`columnOf(t, i)`: a
 * bucket, a pixel column) and calls group(first, min, max, last), the indices of the group's
 * first point, its lowest and highest values (the first of equal ones) and its last. A value
 * that is not ok(v) is skipped; with `cut`, it ends the group and calls cut() instead, as a
 * step longer than `gap` does before its point.
 */
export function extremes(t, v, i0, i1, columnOf, ok, group, cut = null, gap = Infinity) {
  let col = NaN, first = -1, min = -1, max = -1, last = -1, prev = -Infinity;
  const flush = () => { if (first >= 0) group(first, min, max, last); first = -1; };
  for (let i = i0; i < i1; i++) {
    const y = v[i];
    if (!ok(y)) { if (cut) { flush(); cut(); prev = -Infinity; } continue; }
    if (cut && prev !== -Infinity && t[i] - prev > gap) { flush(); cut(); }
    prev = t[i];
    const c = columnOf(t[i], i);
    if (c !== col || first < 0) { flush(); col = c; first = min = max = last = i; continue; }
    if (y < v[min]) min = i;
    if (y > v[max]) max = i;
    last = i;
  }
  flush();
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
  extremes(t, v, start, end, (x) => Math.floor((x - x0) / width), (y) => y !== null, (first, min, max) => {
    const a = Math.min(min, max), b = Math.max(min, max);
    emit(t[a], v[a]);
    if (a !== b) emit(t[b], v[b]);
  });
}

/**
 * Statistics of the values with a < t <= b: n, mean, p1, p5, p50, p95, p99 (nearest rank on the
 * sorted values), min, max and cv (population standard deviation / mean), like the ingest.
 * `weighted` (a series whose `mean` is "time-weighted": intervals of uneven length): mean and cv
 * weighted by each interval's length (t minus the previous t, the first from 0), as the ingest.
 */
export function windowStats(t, v, a, b, weighted = false) {
  const vals = [], wts = [];
  for (let i = lowerBound(t, a); i < t.length && t[i] <= b; i++) {
    if (t[i] > a && v[i] !== null && Number.isFinite(v[i])) { vals.push(v[i]); wts.push(weighted ? t[i] - (i ? t[i - 1] : 0) : 1); }
  }
  const n = vals.length;
  if (!n) return { n: 0, mean: null, p1: null, p5: null, p50: null, p95: null, p99: null, cv: null };
  let total = wts.reduce((s, w) => s + w, 0);
  if (!(total > 0)) { wts.fill(1); total = n; }
  const mean = vals.reduce((s, x, i) => s + x * wts[i], 0) / total;
  const sd = Math.sqrt(vals.reduce((s, x, i) => s + wts[i] * (x - mean) ** 2, 0) / total);
  // a typed array sorts by number natively: a third of the time of a comparator over a window
  // of thousands (the statistics follow a window drag of dozens of runs, once per frame)
  const sorted = Float64Array.from(vals).sort();
  const pick = (p) => sorted[Math.max(0, Math.ceil((p / 100) * n) - 1)];
  return { n, mean, p1: pick(1), p5: pick(5), p50: pick(50), p95: pick(95), p99: pick(99),
    min: sorted[0], max: sorted[n - 1], cv: mean ? sd / mean : null };
}

/** The longest step between two points that still draws as one line: four of the run's
 * typical (median) intervals, and never less than three downsampling buckets. */
export function gapOf(s, bucket) {
  if (s.median === undefined) {
    // a typed array sorts numbers natively (a comparator's sort of 3,600 steps per run was
    // ~5% of the script time of a time series' first drawing)
    const steps = new Float64Array(Math.max(0, s.t.length - 1));
    for (let i = 1; i < s.t.length; i++) steps[i - 1] = s.t[i] - s.t[i - 1];
    steps.sort();
    s.median = steps.length ? steps[steps.length >> 1] : Infinity;
  }
  return Math.max(4 * s.median, 3 * bucket);
}

/** An emit callback for `downsample` that pushes {...fields, t, v} rows and, where the time between
 * two points is a gap in the data, a row with v null first, so that the line breaks there. */
export function gapBreaker(rows, fields, gap, ok) {
  let prev = null;
  return (ti, vi) => {
    if (prev !== null && ti - prev > gap) rows.push({ ...fields, t: (prev + ti) / 2, v: null });
    prev = ti;
    if (ok(vi)) rows.push({ ...fields, t: ti, v: vi });
  };
}
