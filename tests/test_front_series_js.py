"""The time-series helpers of the chart bundle (assets/js/series.js), run in Node: the
downsampling keeps every bucket's extremes and returns raw points when zoomed in, window
statistics use the ingest's definitions (nearest-rank percentiles, population CV), and the
rolling mean skips missing values instead of counting them as 0."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")

SCRIPT = """
import { smooth, downsample, windowStats, nearestIndex } from '%s';
const n = 3600, t = [], v = [];
for (let i = 1; i <= n; i++) { t.push(i); v.push(i === 1234 ? 5000 : i === 2345 ? -7 : 100 + (i %% 17)); }
v[99] = null;
const all = []; downsample(t, v, 0, n, 300, (ti, vi) => all.push([ti, vi]));
const zoom = []; downsample(t, v, 3000, 3100, 300, (ti, vi) => zoom.push([ti, vi]));
const s = windowStats(t, v, 2000, 3600);
const sm = smooth([1, null, 3, 5, null, null, 9], 3);
const ut = [2, 3, 10, 11], uv = [10, 20, 30, null];
const weighted = windowStats(ut, uv, 0, 11, true), plain = windowStats(ut, uv, 0, 11);
const near = [0, 1, 2.4, 2.5, 2.6, 9.9, 10, 11, 99].map((x) => nearestIndex([1, 2, 3, 10], x));
console.log(JSON.stringify({ all, zoom, s, sm, weighted, plain, near }));

"""


@pytest.fixture(scope="module")
def out():
    if not NODE:
        pytest.skip("node is not installed")
    proc = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT % (ROOT / "assets/js/series.js").as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(proc.stdout)


def test_downsampling_keeps_every_spike_and_is_small(out):
    points = out["all"]
    assert len(points) <= 2 * 300 + 2
    assert [1234, 5000] in points and [2345, -7] in points
    assert [p[0] for p in points] == sorted(p[0] for p in points)


def test_zoomed_in_range_is_full_resolution(out):
    ts = [p[0] for p in out["zoom"]]
    assert ts == list(range(2999, 3101))  # every interval, and the one before the range


def test_window_statistics_match_the_ingest_definitions(out):
    window = [100 + (i % 17) if i not in (2345,) else -7 for i in range(2001, 3601)]
    window.sort()
    mean = sum(window) / len(window)
    cv = (sum((x - mean) ** 2 for x in window) / len(window)) ** 0.5 / mean
    s = out["s"]
    assert s["n"] == 1600 and s["mean"] == pytest.approx(mean)
    assert s["p1"] == window[15] and s["p50"] == window[799] and s["p99"] == window[1583]
    assert s["cv"] == pytest.approx(cv)


def test_rolling_mean_skips_missing_values(out):
    assert out["sm"] == [1, None, 4, 4, None, None, 9]


def test_uneven_intervals_weight_the_mean_like_the_ingest(out):
    """A series whose intervals differ in length (LinkBench): mean and cv weighted by interval
    length, percentiles unweighted, the same numbers as ingest/metrics.py."""
    from ingest import metrics

    t, v = [2, 3, 10, 11], [10, 20, 30, None]
    want = metrics.window_stats(t, v, 0, 11, weighted=True)
    got = out["weighted"]
    assert (
        got["mean"] == pytest.approx(want["mean"]) == pytest.approx((10 * 2 + 20 * 1 + 30 * 7) / 10)
    )
    assert got["cv"] == pytest.approx(want["cv"], abs=1e-6)
    assert {k: got[k] for k in ("n", "p50", "min", "max")} == {
        k: want[k] for k in ("n", "p50", "min", "max")
    }
    assert out["plain"]["mean"] == pytest.approx(20)


def test_nearest_index_takes_the_closer_interval_and_the_later_on_a_tie(out):
    # t = [1, 2, 3, 10]; x = 0, 1, 2.4, 2.5 (tie), 2.6, 9.9, 10, 11, 99
    assert out["near"] == [0, 0, 1, 2, 2, 3, 3, 3, 3]
