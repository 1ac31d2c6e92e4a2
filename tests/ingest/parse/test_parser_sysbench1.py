"""sysbench 1.x parsers (F1/F3 and the F2 CSV report): golden pairs, truncation, bad bytes."""

from __future__ import annotations

import re

import pytest

from ingest.parse import by_name, detect
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, check_golden, golden_cases

CASES = golden_cases("sysbench1") + golden_cases("sysbench-csv")


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_detected_as_its_own_format(path):
    import yaml

    want = yaml.safe_load(path.with_suffix(".yaml").read_text())["format"]
    parser, reason = detect(path.read_text(), path.name)
    assert parser.name == want and reason


def _cuts(text: str):
    """Every line boundary and the middle of every non-empty line."""
    pos = 0
    for line in text.split("\n")[:-1]:
        if len(line) > 1:
            yield pos + len(line) // 2
        pos += len(line) + 1
        yield pos


def _first_record_end(text: str) -> int:
    """Offset of the end of the first complete record (interval line, else the summary)."""
    m = re.search(r"^(\[ *\d+s \] thds:|\d+,\d+,).*\n", text, re.M) or re.search(
        r"^    execution time \(avg/stddev\):.*\n", text, re.M
    )
    return m.end()


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_truncated_anywhere_keeps_complete_records_and_reports_once(path):
    text = path.read_text()
    parser = by_name(detect(text, path.name)[0].name)
    full = parser.parse(text, path.name)
    by_line = {s.line: s for s in full.sessions}
    for cut in _cuts(text):
        part = text[:cut]
        try:
            got = parser.parse(part, path.name)
        except Problem as e:
            assert cut < _first_record_end(text), (cut, e)
            assert "no sysbench results" in str(e)
            continue
        new = [  # (the warning naming the skipped lines names those of the part read)
            p
            for p in map(str, got.problems)
            if p not in list(map(str, full.problems)) and " skipped, not read as " not in p
        ]
        assert len(new) <= 1, (cut, new)
        assert all(re.match(rf"^{re.escape(path.name)}:\d+: ", p) for p in new)
        for s in got.sessions:
            ref = by_line[s.line]
            if s.complete:
                assert s == ref, cut
            else:
                assert s.summary == {}
                for k, col in s.series.items():
                    assert col == ref.series[k][: len(col)], (cut, k)
        changed = [s for s in got.sessions if s != by_line[s.line]]
        if changed and cut < len(text.rstrip("\n")):
            assert len(new) == 1, (cut, got.problems)


def test_gaps_in_interval_times_are_kept_as_printed():
    parsed = by_name("sysbench1").parse(
        (FIXTURES / "sysbench1" / "tpcc-sessions.log").read_text(), "x"
    )
    assert parsed.sessions[0].series["t"] == [1, 2, 5, 19]
    assert [s.complete for s in parsed.sessions] == [False, True]


def test_both_err_s_spellings_and_any_percentile():
    lua = by_name("sysbench1").parse((FIXTURES / "sysbench1" / "oltp-lua.log").read_text(), "a")
    c = by_name("sysbench1").parse((FIXTURES / "sysbench1" / "c-reporter-p99.log").read_text(), "b")
    assert lua.sessions[0].series["err_s"][1] == 1.0 and lua.sessions[0].meta["lat_pct"] == 95
    assert c.sessions[0].series["err_s"][1] == 0.5 and c.sessions[0].meta["lat_pct"] == 99


def test_not_utf8_is_an_error_naming_the_line():
    data = (
        (FIXTURES / "sysbench1" / "oltp-lua.log")
        .read_bytes()
        .replace(b"tps: 99.00", b"tps: 9\xff.00")
    )
    with pytest.raises(Problem, match=r"^bad\.log:14: not UTF-8 text \(byte 0xff at offset \d+\)$"):
        parse_bytes(data, "bad.log")


@pytest.mark.parametrize("data", [b"", b"\n\n  \n"])
def test_empty_file_is_an_error(data):
    with pytest.raises(Problem, match=r"^e\.log: empty file$"):
        parse_bytes(data, "e.log")


def test_only_failed_sessions_is_an_error():
    text = (
        "sysbench 1.0.15 (using bundled LuaJIT 2.1.0-beta2)\n\nNumber of threads: 4\n"
        "Report intermediate results every 1 second(s)\n\nInitializing worker threads...\n\n"
        "FATAL: unable to connect to MySQL server on socket '/tmp/mysql.sock', aborting...\n"
        "(last message repeated 3 times)\n"
    )
    with pytest.raises(
        Problem,
        match=r"^f\.log:1: no sysbench results \(no interval line, no summary; 1 session",
    ):
        parse_bytes(text.encode(), "f.log", "sysbench1")


def test_broken_interval_line_is_reported_not_guessed():
    text = (
        (FIXTURES / "sysbench1" / "oltp-lua.log")
        .read_text()
        .replace("tps: 100.00 qps", "tps: 1x0.00 qps")
    )
    got = by_name("sysbench1").parse(text, "b.log")
    assert got.sessions[0].series["t"] == [1, 2, 4, 5]
    assert list(map(str, got.problems)) == ["b.log:15: unreadable interval line"]


def test_unknown_format_is_an_error():
    with pytest.raises(Problem, match=r"^u\.txt:1: unknown format"):
        parse_bytes(b"hello world\n", "u.txt")
