"""The JavaScript units (tests/js/*.test.js: the chart bundle's helpers in assets/js) run by
Node's own test runner, `node --test`; plus the ingest's half of a number both sides compute."""

from __future__ import annotations

import subprocess

import pytest

from publish.charts import node_binary
from tests.kit.golden import ROOT


def test_node_test_runner_passes_every_js_unit():
    """The project's Node (.nvmrc; publish/charts.py finds it) runs every tests/js/*.test.js;
    TAP output, whatever the version's default reporter."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.js"))
    assert files
    done = subprocess.run(
        [node_binary(), "--test", "--test-reporter=tap", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout, done.stdout


def test_the_ingest_weights_uneven_intervals_as_the_bundle_does():
    """A series whose intervals differ in length (LinkBench): mean and cv weighted by interval
    length, percentiles unweighted; tests/js/series.test.js asserts the same numbers of the
    bundle's windowStats."""
    from ingest.join import stats

    got = stats.window_stats([2, 3, 10, 11], [10, 20, 30, None], 0, 11, weighted=True)
    mean = (10 * 2 + 20 * 1 + 30 * 7) / 10
    cv = ((2 * (10 - mean) ** 2 + (20 - mean) ** 2 + 7 * (30 - mean) ** 2) / 10) ** 0.5 / mean
    assert got["mean"] == pytest.approx(mean) and got["cv"] == pytest.approx(cv, abs=1e-6)
    assert {k: got[k] for k in ("n", "p50", "min", "max")} == {
        "n": 3,
        "p50": 20,
        "min": 10,
        "max": 30,
    }
