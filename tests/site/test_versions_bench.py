"""bench/versions_bench.py runs (`--smoke`: a study of 9 runs, generated, ingested and built)
and reports each figure docs/performance.md records for the version view."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.kit.golden import ROOT

pytestmark = pytest.mark.slow


def test_the_version_bench_runs_and_reports_each_figure(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bench.versions_bench", "--smoke", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "runs: 9\n" in out
    for figure in ("the versions derive", "versions.yaml:", "build (hugo", "versions-data.html"):
        assert figure in out, out
    assert "post: " in out and "without its drawings: " in out and "its cells' JSON: " in out
