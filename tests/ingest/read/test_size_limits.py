"""Size limits of the parse: 10 million interval rows were `internal error: MemoryError` at
5.9 GB. A file of more than `read.MAX_FILE_LINES` lines is one `file:line` error found before
it is decoded; an ingest whose kept series pass `read.MAX_SERIES_BYTES` is one error at the
file that passes it, before the next is read, and nothing is written (docs/formats.md, "Size
limits"). The limits are lowered here so the files stay small; bench/archive_bombs.py and
bench/scale_bench.py measure the real ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.parse import member as read
from ingest.parse import pool
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from tests.kit.sysbench_gen import sysbench_log, tar_gz

ROOT = Path(__file__).resolve().parents[3]
from bench import archive_bombs as bombs  # noqa: E402


def test_a_file_over_the_line_limit_is_one_error_at_its_first_line_over(monkeypatch):
    monkeypatch.setattr(read, "MAX_FILE_LINES", 50)
    text = sysbench_log(1000, seconds=60)
    with pytest.raises(Problem) as e:
        parse_bytes(text.encode(), "big.log")
    lines = text.count("\n")
    assert str(e.value) == (
        f"big.log:51: more than 50 lines ({lines}): the limit of one input file "
        '(docs/formats.md, "Size limits"); split the file or keep fewer intervals'
    )
    monkeypatch.setattr(read, "MAX_FILE_LINES", lines)
    assert parse_bytes(text.encode(), "big.log").sessions[0].intervals == 60


def test_an_ingest_over_the_series_budget_stops_at_the_file_that_passes_it(tmp_path, monkeypatch):
    from tests.kit.study_kit import make_study, run

    man = make_study(tmp_path)
    parsed: list[str] = []
    real = pool.parse_bytes

    def counted(data, file, *a):
        parsed.append(file)
        return real(data, file, *a)

    monkeypatch.setattr(pool, "parse_bytes", counted)
    # the kept values of one member of the mini study, at most: the budget passes at the second
    one = real(sysbench_log(1000, seconds=5).encode(), "x")
    values = sum(len(c) for s in one.sessions for c in s.series.values())
    monkeypatch.setattr(read, "MAX_SERIES_BYTES", values * read.VALUE_BYTES)
    with pytest.raises(Problem) as e:
        run(tmp_path, man)
    assert str(e.value).startswith(f"{parsed[-1]}: the series parsed by this ingest pass 0 MB")
    assert 1 < len(parsed) < 1000  # stopped where the budget was passed, not after every file
    assert not (tmp_path / "data" / "mini").exists()


PROBE = """
import json, sys
import ingest.parse.member
from ingest.read.archive import Archive
ingest.parse.member.MAX_FILE_LINES = 100_000
try:
    arc = Archive(sys.argv[1])
    result = [ingest.parse.member.parse_bytes(arc.read(n), n).sessions[0].intervals for n in arc.names()]
except Exception as e:
    result = str(e)
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_kb": hwm, "result": result}))
"""


def test_interval_lines_over_the_limit_cost_no_parse(tmp_path):
    """100,001 interval lines (12 MB) with the limit at 100,000: refused before the parse,
    which would take ~70 MB more (and ~7 GB for the 10 million lines of the issue)."""
    path = bombs.interval_lines_bomb(tmp_path / "iv.tar.gz", 100_001)
    got = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE, path], cwd=ROOT, capture_output=True, check=True
        ).stdout
    )
    assert got["result"].startswith("big.log:100001: more than 100,000 lines (100,0"), got
    small = tar_gz(tmp_path / "small.tar.gz", {"a.log": sysbench_log(1000, seconds=5)})
    alone = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE, small], cwd=ROOT, capture_output=True, check=True
        ).stdout
    )
    assert alone["result"] == [5]
    extra_mb = (got["rss_kb"] - alone["rss_kb"]) / 1024
    assert extra_mb < 40, f"{extra_mb:.0f} MB above a 5-line parse"  # the 12 MB member, read
