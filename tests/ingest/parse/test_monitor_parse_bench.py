"""bench/monitor_parse.py --smoke: the generated dstat and mpstat files parse to the samples
written (sizes and counts, never times; the figures are in docs/performance.md)."""

import json

import pytest

from bench.monitor_parse import main

pytestmark = pytest.mark.slow  # generates and parses two 1 MB files in subprocesses


def test_monitor_parse_bench_smoke(capsys):
    assert main(["--smoke"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["format"] for o in out] == ["dstat", "mpstat"]
    for o in out:
        assert o["mb"] >= 1 and o["problems"] == 0 and o["samples"] > 0
    assert out[1]["sessions"] == 33  # `all` and 32 CPUs
