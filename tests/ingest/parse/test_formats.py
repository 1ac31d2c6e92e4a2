"""Raw-format parsers F4-F8, F11, F12: golden fixtures, detection, bad input.

Fixtures are our own files in the real formats (tests/fixtures/<format>/<case>.<ext>) with the
expected parse beside them (<case>.yaml); see docs/formats.md.
"""

import re

import pytest
import yaml

from ingest.parse import all_parsers, by_name, detect
from ingest.parse.member import decode
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, check_golden, golden_cases

FORMATS = [
    "sysbench05",
    "tpcc-mysql",
    "linkbench",
    "linkbench-summary",
    "db-size",
    "linkbenchx",
    "ibench",
    "vmstat",
    "iostat",
    "global-status",
    "mysqladmin-status",
    "dstat",
    "mpstat",
    "mysql-n-variables",
    "mysql-n-status",
    "pt-mysql-summary",
]
CASES = [p for fmt in FORMATS for p in golden_cases(fmt)]


def case_id(path):
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize(
    "path",
    [p for d in sorted(FIXTURES.iterdir()) if d.is_dir() for p in golden_cases(d.name)],
    ids=case_id,
)
def test_detect_fixture(path):
    """Every golden fixture of every format is detected as its format: the registry order holds."""
    expected = yaml.safe_load(path.with_suffix(".yaml").read_text())["format"]
    parser, reason = detect(path.read_text()[:65536], path.name)
    assert parser.name == expected, reason


def test_every_format_has_fixtures_and_registration():
    assert set(FORMATS) <= {p.name for p in all_parsers()}
    for fmt in FORMATS:
        assert golden_cases(fmt), fmt
        assert by_name(fmt).description


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_file(fmt):
    for text in ("", "\n\n  \n"):
        with pytest.raises(Problem, match="empty file"):
            by_name(fmt).parse(text, "empty.txt")


@pytest.mark.parametrize("fmt", FORMATS)
def test_zero_results(fmt):
    """A file of the right shape but no records is an error, not an empty success."""
    with pytest.raises(Problem) as err:
        by_name(fmt).parse("hello\nthis is not a result\n", "prose.txt")
    assert str(err.value).startswith("prose.txt:")


def test_non_utf8_names_the_line():
    with pytest.raises(Problem, match=r"^x\.log:3: not UTF-8") as err:
        decode(b"ok\nstill ok\nbad \xff byte\n", "x.log")
    assert err.value.line == 3
    assert decode("caf\u00e9\n".encode(), "x.log") == "caf\u00e9\n"


@pytest.mark.parametrize(
    "fmt, text, line, reason",
    [
        ("vmstat", " r  b   swpd   free\n 1  0  0  5\n 1  x  0  5\n", 3, "not a vmstat row"),
        ("vmstat", " 1  0  0  5\n", 1, "before the column header"),
        ("iostat", "Device:  r/s  w/s\nsda  1,0  2,0\nsda  1.0\n\n", 3, "expected 2 values"),
        ("iostat", "avg-cpu:  %user %idle\n 1.0 zz\n\n", 2, "must be numbers"),
        (
            "sysbench05",
            "[  1s] threads: 4, tps: 1.00, reads: x\n",
            1,
            "unreadable sysbench 0.5 interval line",
        ),
        (
            "tpcc-mysql",
            "MEASURING START.\n  10, trx: 5, 95%: 1.0\n",
            2,
            "unreadable tpcc-mysql interval line",
        ),
        (
            "tpcc-mysql",
            "  10, trx: 1, 95%: 1.0, 99%: 1.0, max_rt: 1.0, 1|1.0, 1|1.0, 1|1.0, 1|1.0\n",
            1,
            "before `MEASURING START.`",
        ),
        (
            "linkbench",
            "INFO 2020-01-01 00:00:00,000 [Thread-0]: Requester #0 12/x requests done\n",
            1,
            "unreadable LinkBench record",
        ),
        (
            "linkbench",
            "INFO 2020-01-01 00:00:00,000 [Thread-0]: ThreadID = 0 GET_NODE totalOps = 1 ops = 1\n",
            1,
            "without all of",
        ),
        (
            "linkbenchx",
            "INFO 2020-01-01 00:00:00,000 [Printer Thread]: Events: 12, throughput: ?\n",
            1,
            "unreadable LinkBenchX record",
        ),
        (
            "ibench",
            "#rows #seconds #total_seconds cum_ips table_size last_ips #queries cum_qps last_qps\n1 2 3\n",
            2,
            "expected 9 numbers",
        ),
        ("linkbench-summary", "samp\tr/s\tips\n1\t2\n", 2, "expected 3 tab-separated values"),
    ],
)
def test_unreadable_line(fmt, text, line, reason):
    with pytest.raises(Problem, match=re.escape(reason)) as err:
        by_name(fmt).parse(text, "bad.txt")
    assert (err.value.file, err.value.line) == ("bad.txt", line)


def test_cut_mid_line_drops_the_record_and_says_so():
    text = (FIXTURES / "vmstat" / "repeat.txt").read_text()
    cut = text[: text.rindex(" 0\n")]  # the last row loses its `st` column
    parsed = by_name("vmstat").parse(cut, "repeat.txt")
    assert parsed.sessions[0].intervals == 2
    assert list(map(str, parsed.problems)) == [
        f"repeat.txt:{text.count(chr(10))}: incomplete last line "
        "(the file ends mid-line, cut short?): ignored"
    ]


def test_linkbench_request_rates_are_differences_of_summed_requesters():
    parsed = by_name("linkbench").parse(
        (FIXTURES / "linkbench" / "request.log").read_text(), "request.log"
    )
    s = parsed.sessions[0]
    # the rates integrate back to the requesters' final counts (100000 + 103500 in the fixture)
    steps = [b - a for a, b in zip([0.0] + s.series["t"], s.series["t"])]
    assert round(sum(r * d for r, d in zip(s.series["requests/s"], steps))) == 203500
    assert s.meta["requesters"] == 2


def test_iostat_units_normalised_to_kb():
    mb = by_name("iostat").parse((FIXTURES / "iostat" / "comma.txt").read_text(), "comma.txt")
    sda = next(s for s in mb.sessions if s.meta["device"] == "sda")
    assert "wMB/s" not in sda.series and sda.series["wkB/s"] == [6.25 * 1024]


def test_every_registered_format_is_documented():
    doc = (FIXTURES.parent.parent / "docs" / "formats.md").read_text()
    for parser in all_parsers():
        assert f"`{parser.name}`" in doc, f"docs/formats.md does not describe `{parser.name}`"


def test_linkbench_without_requester_lines_uses_requests_finished():
    text = (FIXTURES / "linkbench" / "request.log").read_text()
    kept = "".join(
        line
        for line in text.splitlines(keepends=True)
        if not re.search(r"Requester #\d+ \d+/\d+ requests done", line)
    )
    s = by_name("linkbench").parse(kept, "request.log").sessions[0]
    # one `100000/2000000 requests finished ... 20.2/40 secs elapsed` line: 100000 requests in 20.2 s
    assert s.meta["source"] == "requests finished"
    assert s.series == {"t": [20.2], "requests/s": [round(100000 / 20.2, 3)]}


def test_sar_12_hour_clock_reads_as_24_hour_and_each_item_is_a_session():
    text = (
        "Linux 6.1.0 (db) \t01/02/2025 \t_x86_64_\t(2 CPU)\n\n"
        "11:59:58 PM     CPU     %user   %iowait\n"
        "11:59:59 PM     all      1.50      0.25\n"
        "12:00:01 AM     all      2.50      0.75\n"
        "12:00:01 AM       0      3.00      1.00\n"
        "Average:        all      2.00      0.50\n"
    )
    assert by_name("sar").detect(text)
    parsed = by_name("sar").parse(text, "sar.txt")
    whole, cpu0 = parsed.sessions
    assert whole.meta["item"] == "all" and cpu0.meta["item"] == "0"
    assert whole.series["clock"] == ["23:59:59", "00:00:01"]
    assert whole.series["%iowait"] == [0.25, 0.75] and cpu0.series["t"] == [1]
