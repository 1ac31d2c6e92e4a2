"""No line is dropped silently: a LinkBench progress line whose time stamp
cannot be read (a 9-digit fraction of a second, a two-digit year) changed the mean rate with
exit 0; now it is a warning of its own, and every other line a parser does not read is named
in one `file:line` warning per file (docs/formats.md, "Lines not read")."""

from __future__ import annotations

import pytest

from ingest.parse.member import parse_bytes
from tests.kit.golden import FIXTURES
from tests.kit.sysbench_gen import sysbench_log

REQUEST = (FIXTURES / "linkbench" / "request.log").read_text()
LINE = "INFO 2020-02-03 23:59:30,000 [Thread-0]: Requester #0 25000/1000000 requests done"


@pytest.mark.parametrize(
    "bad",
    [
        "INFO 2020-02-03 23:59:30,000123456 [Thread-0]: Requester #0 25000/1000000 requests done",
        "INFO 20-02-03 23:59:30,000 [Thread-0]: Requester #0 25000/1000000 requests done",
    ],
)
def test_a_linkbench_record_with_an_unreadable_time_is_a_warning(bad):
    assert LINE in REQUEST
    no = REQUEST.split("\n").index(LINE) + 1
    parsed = parse_bytes(REQUEST.replace(LINE, bad).encode(), "request.log", "linkbench")
    said = [str(p) for p in parsed.problems if f"request.log:{no}: " in str(p)]
    assert said == [
        f"request.log:{no}: LinkBench record with an unreadable log prefix (level, date, time "
        f"or thread): skipped, its counts are not in the run: {bad[:80]!r}"
    ]


def test_sysbench_fatal_lines_are_named():
    text = sysbench_log(1000, seconds=5, fatal=3)
    parsed = parse_bytes(text.encode(), "f.log", "sysbench1")
    first = text.split("\n").index(next(x for x in text.split("\n") if x.startswith("FATAL")))
    assert [str(p) for p in parsed.problems] == [
        f"f.log:{first + 1}: 3 lines skipped, not read as sysbench1 lines (lines "
        f"{first + 1}-{first + 3}; the first: 'FATAL: mysql_stmt_execute() returned error 2013 "
        "(Lost connection to MySQL serve\u2026')"
    ]
    assert parse_bytes(sysbench_log(1000, seconds=5).encode(), "ok.log").problems == []


def test_a_tpcc_end_report_is_the_tools_own_and_a_wrapper_line_is_named():
    """The end report after STOPPING THREADS (raw results, constraint checks) is tpcc_start's
    own output: known, not named (a scaffolded study of such logs warns of nothing); a line of
    someone else's before it is named."""
    text = (FIXTURES / "tpcc-mysql" / "run.log").read_text()
    assert parse_bytes(text.encode(), "run.log").problems == []
    first = text.index("MEASURING START")
    line = text[:first].count("\n") + 1
    wrapped = text[:first] + "wrapper: starting the measurement\n" + text[first:]
    parsed = parse_bytes(wrapped.encode(), "run.log")
    assert [str(p) for p in parsed.problems] == [
        f"run.log:{line}: 1 line skipped, not read as tpcc-mysql lines (line {line}; "
        "the first: 'wrapper: starting the measurement')"
    ]


def test_a_markdown_row_cut_off_from_its_table_is_named():
    text = "## T\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n"
    parsed = parse_bytes(text.encode(), "p.md", "markdown-tables")
    assert parsed.tables[0].rows == [{"a": 1, "b": 2}]
    assert [str(p) for p in parsed.problems] == [
        "p.md:6: 1 line skipped, not read as a table (pipe rows outside a table: a blank line "
        "inside it, or no separator row) (line 6; the first: '| 3 | 4 |')"
    ]


def test_figures_outside_every_summary_table_are_named():
    text = "Title line\n\nx y z\n1 2 3\n4 5 6\n\nnotes:\n7 8 9 10\n"
    parsed = parse_bytes(text.encode(), "s.txt", "summary-table")
    assert [str(p) for p in parsed.problems] == [
        "s.txt:8: 1 line skipped, not read as a table row (a line of figures outside every "
        "table) (line 8; the first: '7 8 9 10')"
    ]


def test_line_ranges():
    from ingest.parse._text import line_ranges

    assert line_ranges([1, 2, 3, 7, 12, 13, 14, 15]) == "1-3, 7, 12-15"
    assert line_ranges([4]) == "4"
