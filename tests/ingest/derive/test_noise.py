"""The one noise rule (ingest/derive/noise.py): spreads of repeats and of a run's batch means,
overlap as the verdict, unknown without a spread, and the colour class of a ratio."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.derive.noise import (
    BATCHES,
    MIN_BATCH,
    batch_spread,
    legend,
    ratio_class,
    repeat_spread,
    within_noise,
)


def test_ranges_that_never_overlap_differ_beyond_noise():
    slow, fast = repeat_spread([314.0, 343.0, 320.5]), repeat_spread([286.0, 303.0, 290.0])
    assert (slow, fast) == ((314.0, 343.0), (286.0, 303.0))
    assert within_noise(slow, fast) is False
    assert within_noise((45.0, 47.0), (46.5, 49.0)) is True


def test_one_figure_has_no_spread_and_no_verdict():
    assert repeat_spread([12.0]) is None
    assert repeat_spread([None, 3.0]) is None
    assert within_noise(None, (1.0, 2.0)) is None


def test_a_runs_spread_is_the_range_of_its_batch_means():
    values = [100.0] * 30 + [110.0] * 30 + [None] + [90.0] * 40
    lo, hi = batch_spread(values)
    assert (lo, hi) == (90.0, 110.0)
    assert batch_spread([1.0] * (BATCHES * MIN_BATCH - 1)) is None


def test_a_steady_run_is_within_noise_of_itself_shifted_by_less_than_its_wander():
    wave = [1000 + 30 * ((i // 20) % 2) for i in range(600)]  # the mean wanders by up to 30
    a = batch_spread(wave)
    b = batch_spread([v + 5 for v in wave])
    c = batch_spread([v * 1.2 for v in wave])
    assert within_noise(a, b) is True
    assert within_noise(a, c) is False


@pytest.mark.parametrize(
    "ratio,noise,cls",
    [(1.05, False, 1), (0.95, False, -1), (1.2, False, 2), (1.9, False, 3), (2.5, False, 4)]
    + [(4.0, False, 5), (0.2, False, -5), (3.0, True, 0), (1.2, None, 2), (None, False, None)],
)
def test_the_colour_class_of_a_ratio(ratio, noise, cls):
    assert ratio_class(ratio, noise) == cls


def test_the_legend_labels_each_class_by_its_largest_ratio():
    swatches = legend()
    assert [x["class"] for x in swatches] == [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]
    assert [x["at"] for x in swatches] == [0.33, 0.5, 0.75, 0.91, 1.0, 1.1, 1.33, 2.0, 3.0, 3.0]
    assert [x.get("op") for x in swatches] == ["<", *[None] * 8, ">"]
    # each label ends its class, to two decimals (the outer two: just beyond it)
    for x in swatches[1:-1]:
        assert ratio_class(x["at"] * 0.995, False) == x["class"]


@given(st.lists(st.floats(0, 1e9), min_size=BATCHES * MIN_BATCH, max_size=400))
def test_a_batch_spread_holds_the_overall_mean(values):
    lo, hi = batch_spread(values)
    mean = sum(values) / len(values)
    assert lo <= mean * (1 + 1e-9) + 1e-9 and mean <= hi * (1 + 1e-9) + 1e-9
