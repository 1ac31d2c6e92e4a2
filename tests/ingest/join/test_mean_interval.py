"""A run's mean interval in runs.yaml (ingest/join/records.py): its length over its intervals,
whole when within 0.05 s of a whole second, absent when either is unknown."""

from __future__ import annotations

from ingest.join.records import _mean_interval


def test_whole_within_a_twentieth_of_a_second_else_about():
    assert _mean_interval(3600.4, 3600) == {"interval_mean_s": 1.000111, "interval_whole": True}
    assert _mean_interval(36010.0, 3600) == {"interval_mean_s": 10.002778, "interval_whole": True}
    assert _mean_interval(4897.53, 3600) == {"interval_mean_s": 1.360425, "interval_whole": False}
    assert _mean_interval(1.06, 1)["interval_whole"] is False


def test_absent_without_a_length_or_intervals():
    assert _mean_interval(None, 10) == {}
    assert _mean_interval(0, 10) == {}
    assert _mean_interval(600.0, 0) == {}
