"""Per-run numbers derived from a series: window statistics, full-run mean, the cross-check
against the tool's own summary, and ratios to a base case.

Conventions (also in docs/data-schema.md):
- the window is `start < t <= end` on the printed interval end times `t` (an interval that
  ends at `start` is still warm-up); missing values (None) are skipped;
- percentiles are nearest-rank on the sorted window values (p-th: the value at rank
  ceil(p/100 * n)), so each is a value that was actually printed;
- cv is the population standard deviation divided by the mean;
- a tool that reports on a fixed clock (sysbench's --report-interval) gets the plain mean of
  its printed rates, as its authors compute it; a tool whose intervals differ in length
  (LinkBench's progress lines, 0.7 to 12 s apart) gets the time-weighted mean and cv, each
  rate weighted by its interval's length (t minus the previous t, the first from 0): the mean
  is then the operations over the elapsed time, what the tool's own summary reports.
  Percentiles stay nearest-rank on the printed rates either way;
- derived numbers are rounded to 6 decimals so the YAML is stable and readable.
"""

from __future__ import annotations

import bisect
import math
import operator
from functools import partial
from itertools import compress, repeat
from typing import Any

from ingest.join.records import Run, Stats

PERCENTILES = (1, 5, 50, 95, 99)
DIGITS = 6
# Interval mean vs the tool's summary: sysbench's summary rate is events / total time, the
# interval mean averages printed (2-decimal) rates over whole seconds, and the summary counts
# the events finishing after the last report; for complete runs of any length the two agree
# to well under 1%. More than 1% means missing or duplicated intervals.
CHECK_TOLERANCE = 0.01


# The per-value steps below are `map`/`filter` of operator functions (run in C, no Python
# call per value), each giving the very floats of the plain expression in its comment.
_IS_PRESENT = partial(operator.is_not, None)  # v is not None


def _present(values: list[Any]) -> list[Any]:
    """`values` without the missing ones (None); the list itself when none is missing."""
    return list(filter(_IS_PRESENT, values)) if None in values else values


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, DIGITS)


def nearest_rank(sorted_values: list[float], p: float) -> float:
    n = len(sorted_values)
    return sorted_values[max(1, math.ceil(p / 100 * n)) - 1]


def stats(values: list[Any], weights: list[float] | None = None) -> Stats:
    """n, mean, min, p1..p99, max and cv of `values` (None skipped); all None when empty.
    With `weights` (interval lengths, one per value) the mean and cv are weighted by them."""
    vals, wts = _present_weighted(values, weights)
    n = len(vals)
    keys = ["mean", "min", *(f"p{p}" for p in PERCENTILES), "max", "cv"]
    if n == 0:
        return {"n": 0, **{k: None for k in keys}}
    mean = _mean(vals, wts)
    squares = map(pow, map(operator.sub, vals, repeat(mean)), repeat(2))  # (v - mean) ** 2
    if wts is None:
        var = math.fsum(squares) / n
    else:
        var = math.fsum(map(operator.mul, wts, squares)) / math.fsum(wts)  # w * (v - mean) ** 2
    ordered = sorted(vals)
    out = {"n": n, "mean": _r(mean), "min": ordered[0]}
    out.update({f"p{p}": nearest_rank(ordered, p) for p in PERCENTILES})
    out["max"] = ordered[-1]
    out["cv"] = _r(math.sqrt(var) / mean) if mean else None
    return out


def _present_weighted(
    values: list[Any], weights: list[float] | None
) -> tuple[list[float], list[float] | None]:
    """The values that are not None, with their weights; weights None when there are none or
    when they add up to no elapsed time (then the mean is the plain one)."""
    if weights is None:
        return _present(values), None
    vals, wts = values, weights
    if None in values:
        kept = list(map(_IS_PRESENT, values))
        vals, wts = list(compress(values, kept)), list(compress(weights, kept))
    return vals, (wts if math.fsum(wts) > 0 else None)


def _mean(vals: list[float], wts: list[float] | None) -> float:
    if wts is None:
        return math.fsum(vals) / len(vals)
    return math.fsum(map(operator.mul, vals, wts)) / math.fsum(wts)  # v * w


def window_values(t: list[float], values: list[Any], start: float, end: float) -> list[Any]:
    """Values whose interval end time is in (start, end]."""
    if all(map(operator.le, t, t[1:])):  # times in order (the usual case): two binary searches
        return values[bisect.bisect_right(t, start) : bisect.bisect_right(t, end)]
    return [v for ti, v in zip(t, values) if start < ti <= end]


def interval_lengths(t: list[float]) -> list[float]:
    """Each interval's length: its end time minus the previous one's (the first from 0)."""
    return list(map(operator.sub, t, [0, *t]))  # b - a, each t and the one before it


def window_stats(
    t: list[float], values: list[Any], start: float, end: float, weighted: bool = False
) -> Stats:
    """Statistics of the window (start, end]; `weighted`: mean and cv weighted by interval length."""
    vals = window_values(t, values, start, end)
    weights = window_values(t, interval_lengths(t), start, end) if weighted else None
    return {"start": start, "end": end, **stats(vals, weights)}


def full_mean(values: list[Any], t: list[float] | None = None) -> Stats:
    """n and mean of the whole run; with `t`, the time-weighted mean (operations over elapsed time)."""
    vals, wts = _present_weighted(values, None if t is None else interval_lengths(t))
    return {"n": len(vals), "mean": _r(_mean(vals, wts)) if vals else None}


def cross_check(interval_mean: float | None, summary_rate: float | None) -> Stats:
    """Compare the full-run interval mean with the tool's own rate."""
    if interval_mean is None or not summary_rate:
        return {
            "interval_mean": interval_mean,
            "summary": summary_rate,
            "rel_diff": None,
            "ok": None,
            "tolerance": CHECK_TOLERANCE,
        }
    rel = abs(interval_mean - summary_rate) / summary_rate
    return {
        "interval_mean": interval_mean,
        "summary": summary_rate,
        "rel_diff": _r(rel),
        "ok": rel <= CHECK_TOLERANCE,
        "tolerance": CHECK_TOLERANCE,
    }


def ratio(value: float | None, base: float | None, digits: int = DIGITS) -> float | None:
    """value / base rounded to `digits` decimals; None (missing, never 0) when either is
    missing or the base is 0. Study modules round like the published tables they reproduce
    (`ratio(a, b, 2)` for the authors' 2-decimal ratios), so cross-checks compare like with like."""
    if value is None or not base:
        return None
    return round(value / base, digits)


def base_counterparts(runs: list[Run], base: dict[str, Any]) -> dict[str, str | None]:
    """For each run id, the id of its base-case run: the run whose labels equal this run's
    labels with the `base` labels substituted (None when there is no such run)."""
    by_labels = {_key(r.labels): r.id for r in runs}
    out = {}
    for r in runs:
        wanted = {**r.labels, **base}
        out[r.id] = by_labels.get(_key(wanted))
    return out


def _key(labels: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in labels.items() if v is not None))
