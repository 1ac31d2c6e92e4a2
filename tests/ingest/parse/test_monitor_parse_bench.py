"""bench/monitor_parse.py --smoke: the generated monitor files parse to the samples written
(sizes and counts, never times; the figures are in docs/performance.md)."""

import json

import pytest

from bench.monitor_parse import main

pytestmark = pytest.mark.slow  # generates and parses two 1 MB files in subprocesses


def test_monitor_parse_bench_smoke(capsys):
    assert main(["--smoke"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["format"] for o in out] == ["dstat", "mpstat", "sar", "iostat", "vmstat"]
    for o in out:
        assert o["mb"] >= 0.9 and o["problems"] == 0 and o["samples"] > 0
    assert out[1]["sessions"] == out[2]["sessions"] == 33  # `all` and 32 CPUs
    assert out[3]["sessions"] == 4  # avg-cpu and 3 devices
