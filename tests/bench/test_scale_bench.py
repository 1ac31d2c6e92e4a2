"""bench/scale_bench.py's smoke mode: the small version study through every step the full
size is measured on, each step a whole process that succeeds, with figures that hold."""

from __future__ import annotations

import pytest

from bench import scale_bench

pytestmark = pytest.mark.slow


def test_the_smoke_mode_runs_every_step():
    out = scale_bench.run("small", None, None)
    small = out["small"]
    for step in ("baseline", "new", "ingest", "ingest_monitors", "build"):
        assert small[step]["rc"] == 0, (step, small[step]["tail"])
        assert small[step]["cpu_s"] > 0 and small[step]["rss_mb"] > 0, step
    n, mean = small["baseline"]["tail"][-1].split()
    assert int(n) == small["runs"] * 60  # the baseline saw every interval line
    # the monitors add their series to data/, which stays smaller than the archive
    assert small["data_bytes"] < small["data_monitors_bytes"] < small["archive_bytes"]
    assert set(out["ratios"]) == {
        "ingest_cpu_x_baseline",
        "monitors_cpu_x_baseline",
        "new_wall_x_ingest",
        "data_x_archive",
        "data_monitors_x_archive",
    }
