"""bench/new_bench.py runs (its `--smoke` mode: a tiny archive, once) and says what it
measured; the figures themselves are in docs/performance.md, never asserted here."""

from __future__ import annotations

import re

from bench import new_bench


def test_the_new_bench_smoke_mode_runs(capsys):
    assert new_bench.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"archive: 47 runs of 5 s, [0-9,]+ bytes", out)
    assert re.search(r"new \(this\): [0-9.]+ s CPU, [0-9.]+ s wall", out)
