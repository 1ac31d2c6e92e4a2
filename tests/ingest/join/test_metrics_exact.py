"""ingest/join/stats.py computes with `map`/`filter` of operator functions instead of a Python
expression per value: the statistics must be the very floats the plain expressions give
(data/ is compared byte for byte). The reference here is those expressions, on series of
our own with missing values, uneven intervals and numbers large enough that every rounding shows in the 6 decimals kept."""

from __future__ import annotations

import math
import random

import pytest

from ingest.join import stats as metrics


def _plain_stats(values, weights=None):
    """mean and cv as written value by value (the formulas of docs/data-schema.md)."""
    pairs = [(v, w) for v, w in zip(values, weights or [1] * len(values)) if v is not None]
    vals, wts = [v for v, _ in pairs], [w for _, w in pairs]
    if weights is None or math.fsum(wts) <= 0:
        mean = math.fsum(vals) / len(vals)
        var = math.fsum([(v - mean) ** 2 for v in vals]) / len(vals)
    else:
        mean = math.fsum([v * w for v, w in zip(vals, wts)]) / math.fsum(wts)
        var = math.fsum([w * (v - mean) ** 2 for v, w in zip(vals, wts)]) / math.fsum(wts)
    return round(mean, 6), round(math.sqrt(var) / mean, 6)


def _series(seed: int, n: int = 700):
    rng = random.Random(seed)
    steps = [rng.choice((0.7, 1, 1, 1.3, 12.1)) for _ in range(n)]  # uneven intervals
    t = [round(math.fsum(steps[: i + 1]), 1) for i in range(n)]
    values = [None if rng.random() < 0.05 else round(rng.uniform(0.01, 9e11), 2) / 3 for _ in t]
    return t, values


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_window_stats_are_the_plain_formulas(seed, weighted):
    t, values = _series(seed)
    got = metrics.window_stats(t, values, 0, t[-1] + 1, weighted=weighted)
    lengths = [b - a for a, b in zip([0, *t], t)]
    assert metrics.interval_lengths(t) == lengths
    assert (got["mean"], got["cv"]) == _plain_stats(values, lengths if weighted else None)
    assert got["n"] == sum(v is not None for v in values)
    assert got["min"] == min(v for v in values if v is not None)


@pytest.mark.parametrize("seed", range(6))
def test_full_mean_is_the_plain_formula(seed):
    t, values = _series(seed)
    lengths = [b - a for a, b in zip([0, *t], t)]
    assert metrics.full_mean(values)["mean"] == _plain_stats(values)[0]
    assert metrics.full_mean(values, t)["mean"] == _plain_stats(values, lengths)[0]
    full = [0.0 if v is None else v for v in values]  # no missing value: the lists as given
    assert metrics.full_mean(full, t)["mean"] == _plain_stats(full, lengths)[0]
