"""`python -m ingest detect|parse` on our formats' fixtures: the CLI reports what the parsers
read (format, intervals, mean of the interval rates, the tool's own rate) and bad input fails
with `file:line: reason` and exit code 1."""

import statistics

import pytest
import yaml

from ingest.__main__ import main
from ingest.parse import by_name
from tests.kit.golden import FIXTURES

CASES = [
    ("linkbench", "request.log"),
    ("linkbench", "load.log"),
    ("tpcc-mysql", "run.log"),
    ("sysbench05", "comma.log"),
    ("ibench", "y2017.txt"),
    ("linkbenchx", "run.log"),
    ("linkbench-summary", "request.r"),
    ("vmstat", "repeat.txt"),
    ("iostat", "sysstat12.txt"),
]


@pytest.mark.parametrize("fmt, name", CASES)
def test_detect_and_parse(capsys, fmt, name):
    path = FIXTURES / fmt / name
    assert main(["detect", str(path)]) == 0
    assert capsys.readouterr().out.split("\t")[0] == fmt
    assert main(["parse", str(path)]) == 0
    out = yaml.safe_load(capsys.readouterr().out)
    session = by_name(fmt).parse(path.read_text(), name).sessions[-1]
    assert out["format"] == fmt and out["intervals"] == session.intervals
    if session.metric and session.intervals:
        t, v = session.series["t"], session.series[session.metric]
        if session.meta.get("intervals") == "uneven":  # LinkBench: operations over elapsed time
            steps = [b - a for a, b in zip([0, *t], t)]
            want = sum(x * d for x, d in zip(v, steps)) / sum(steps)
        else:
            want = statistics.mean(v)
        assert out["rate_mean"] == pytest.approx(want)
    assert out.get("summary_rate") == (
        session.summary.get(session.metric) if session.metric else None
    )


def test_parse_error_is_file_line_reason(tmp_path, capsys):
    bad = tmp_path / "bad.log"
    bad.write_text("MEASURING START.\n  10, trx: 5, 95%: oops\n")
    assert main(["parse", str(bad)]) == 1
    assert capsys.readouterr().err.strip() == f"{bad}:2: unreadable tpcc-mysql interval line"
