"""F10 sysbench report summaries: golden fixtures, errors, the real o.qps.abs/o.qps.rel/o.met."""

import re

import pytest

from ingest.parse import by_name
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, archive_text, check_golden, golden_cases

PARSER = by_name("sysbench-report")
ARCHIVE = "mdcallag-sysbench-dec2020-innodb-inmem.tar.gz"


def real(name):
    text = archive_text(ARCHIVE, f"mdcallag-sysbench-dec2020-innodb-inmem/{name}")
    return text, PARSER.parse(text, name)


@pytest.mark.parametrize("path", golden_cases("sysbench-report"), ids=lambda p: p.stem)
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize(
    "case, line, reason",
    [
        ("bad-value", 3, "c2: '18OO' is not a number"),
        ("not-a-report", 1, "expected a block name"),
    ],
)
def test_errors(case, line, reason):
    path = FIXTURES / "sysbench-report" / f"{case}.abs"
    with pytest.raises(Problem, match=re.escape(reason)) as err:
        PARSER.parse(path.read_text(), path.name)
    assert (err.value.file, err.value.line) == (path.name, line)


def test_detect():
    for case in ("qps", "met"):
        assert PARSER.detect((FIXTURES / "sysbench-report" / f"{case}.abs").read_text())
    assert not PARSER.detect("sb.r.qps.x\nhello\n")


def test_real_qps_abs_and_rel():
    abs_text, absolute = real("o.qps.abs")
    _, relative = real("o.qps.rel")
    names = re.findall(r"^sb\.\S+$", abs_text, re.M)
    assert [t.name for t in absolute.tables] == names == [t.name for t in relative.tables]
    for a, r in zip(absolute.tables, relative.tables):
        # the relative file has every version but the base (the first absolute row)
        assert [row["dbms"] for row in a.rows[1:]] == [row["dbms"] for row in r.rows]
        assert a.columns == r.columns == ["c1", "c2", "c3", "dbms"]
        assert all(isinstance(row["c1"], int) and row["c1"] > 0 for row in a.rows)
    rows = sum(len(t.rows) for t in absolute.tables)
    assert rows == len(re.findall(r"^\d+\t", abs_text, re.M))


def test_real_met_sections():
    text, met = real("o.met")
    blocks = re.findall(r"^sb\.met\.\S+$", text, re.M)
    assert [t.name for t in met.tables] == [
        f"{b} / {s}" for b in blocks for s in ("absolute", "relative to first result")
    ]
    for t in met.tables:
        assert t.columns == ["cpu/o", "rKB/o", "wKB/o", "o/s", "dbms"]
    infs = len(re.findall(r"\tinf\t", text))
    assert infs and sum(len(t.notes) for t in met.tables) == infs
