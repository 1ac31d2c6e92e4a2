"""The one noise rule of every ratio a post shows (docs/charts.md, "Noise"), and the colour class
of a ratio, computed here once so that no template or script decides them again.

A value's spread is the range [lo, hi] of what it was measured as:
- a value over repeats (two or more runs of one case): the lowest and highest of them;
- one run's window mean: the lowest and highest of its window's BATCHES batch means (the window's
  interval values cut into BATCHES consecutive slices of equal length, each slice's mean), the
  run's own variability at the scale of its mean rather than of one second (a per-second CV
  says how bumpy a line is, not how far its mean could move);
- a single figure (a published number, a summary file's cell): no spread.

Two values differ beyond noise only when their spreads do not overlap. When either has no
spread the verdict is unknown (None): shown as such, never as noise and never as a difference.
"""

from __future__ import annotations

import math
from typing import Any

BATCHES = 10  # slices of a run's window whose means give its spread
MIN_BATCH = 3  # values per slice at least: a shorter window has no spread of its own
# |log2 ratio| edges of colour classes 1..4 (ratios 1.1, 1.33, 2 and 3, and their inverses);
# beyond the last edge is class 5, within noise class 0
EDGES = (0.1375, 0.415, 1.0, 1.585)
Spread = tuple[float, float]  # (lo, hi)


def batch_spread(values: list[float | None]) -> Spread | None:
    """(lo, hi) of the means of BATCHES consecutive slices of `values` (None skipped); None
    when there are fewer than BATCHES * MIN_BATCH values."""
    vals = [v for v in values if v is not None]
    n = len(vals)
    if n < BATCHES * MIN_BATCH:
        return None
    means: list[float] = []
    for i in range(BATCHES):
        part = vals[i * n // BATCHES : (i + 1) * n // BATCHES]
        means.append(math.fsum(part) / len(part))
    return min(means), max(means)


def repeat_spread(values: list[float | None]) -> Spread | None:
    """(lo, hi) of the repeats of one case (None skipped); None with fewer than two."""
    vals = [v for v in values if v is not None]
    return (min(vals), max(vals)) if len(vals) >= 2 else None


def within_noise(a: Spread | None, b: Spread | None) -> bool | None:
    """Whether two spreads overlap (the values do not differ beyond noise); None when either
    spread is unknown."""
    if a is None or b is None:
        return None
    return bool(a[0] <= b[1] and b[0] <= a[1])


def legend() -> list[dict[str, Any]]:
    """A heat-table's legend: one swatch per colour class beyond noise (-5..-1, 1..5), each
    labelled by the largest ratio of its class at two decimals (an edge, or the inverse of one),
    the last two by the last edge (`op`: the first is below its inverse, the last above it)."""
    at = [round(2**e, 2) for e in EDGES]  # 1.1, 1.33, 2.0, 3.0
    lows = [round(1 / a, 2) for a in reversed(at)]  # 0.33, 0.5, 0.75, 0.91
    n = len(EDGES) + 1  # the outermost class
    below = [*lows[1:], 1.0]  # classes -4..-1
    out: list[dict[str, Any]] = [{"class": -n, "op": "<", "at": lows[0]}]
    out += [{"class": c - n, "at": a} for c, a in enumerate(below, 1)]
    out += [{"class": c, "at": a} for c, a in enumerate(at, 1)]
    return [*out, {"class": n, "op": ">", "at": at[-1]}]


def ratio_class(ratio: float | None, noise: bool | None) -> int | None:
    """The colour class of a ratio: 0 within noise, else sign(log2 r) x (1..5 by EDGES);
    None when there is no ratio."""
    if ratio is None or ratio <= 0 or not math.isfinite(ratio):
        return None
    if noise:
        return 0
    size = abs(math.log2(ratio))
    c = next((i + 1 for i, edge in enumerate(EDGES) if size <= edge), len(EDGES) + 1)
    return -c if ratio < 1 else c
