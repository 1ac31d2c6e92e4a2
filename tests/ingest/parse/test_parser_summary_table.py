"""F9 whitespace summary tables: golden fixtures, errors, and the real published tables."""

import re

import pytest

from ingest.parse import by_name
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, SHARED, archive_text, check_golden, golden_cases

PARSER = by_name("summary-table")
IBENCH = ("mdcallag-ibench-oct2017.tar.gz", "mdcallag-ibench-oct2017/ibench.nuc")


@pytest.mark.parametrize("path", golden_cases("summary-table"), ids=lambda p: p.stem)
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize(
    "case, line, reason",
    [
        ("broken-row", 4, "4 fields, the table header has 3"),
        ("no-table", None, "no table"),
    ],
)
def test_errors(case, line, reason):
    path = FIXTURES / "summary-table" / f"{case}.txt"
    with pytest.raises(Problem, match=re.escape(reason)) as err:
        PARSER.parse(path.read_text(), path.name)
    assert (err.value.file, err.value.line) == (path.name, line)


def test_detect():
    assert PARSER.detect((FIXTURES / "summary-table" / "nested.txt").read_text())
    assert not PARSER.detect("just\nsome prose\n")


def _other_lines(text, parsed):
    """Non-blank lines from the first table on that are neither a header nor a row."""
    lines = text.splitlines()
    covered = set()
    for t in parsed.tables:
        header_lines = 2 if " " in t.columns[0] else 1
        covered.update(range(t.line - 1, t.line - 1 + header_lines + len(t.rows)))
    return [
        l.strip()
        for i, l in enumerate(lines)
        if i >= parsed.tables[0].line - 1 and l.strip() and i not in covered
    ]


def test_real_linkbench_tables():
    path = SHARED / "studies" / "linkbench-cached" / "published-tables.txt"
    text = path.read_text()
    parsed = PARSER.parse(text, str(path))
    names = [l for l in text.splitlines() if re.fullmatch(r"p\d\.c\d", l.strip())]
    assert [t.name for t in parsed.tables] == names
    assert _other_lines(text, parsed) == names[1:]
    for t in parsed.tables:
        assert t.columns == [
            "load ips",
            "load gb",
            "2h qps",
            "2h gb",
            "12h qps",
            "12h gb",
            "config",
        ]
        assert all(r["load gb"] <= r["12h gb"] for r in t.rows)  # databases only grow here


def test_real_redo_tables():
    path = SHARED / "studies" / "innodb-redo-log-size" / "published-tables.txt"
    text = path.read_text()
    parsed = PARSER.parse(text, str(path))
    assert {t.name for t in parsed.tables} == {
        f"{w} load metrics / {s} SSD" for w in ("In-memory", "IO-bound") for s in ("Fast", "Slow")
    }
    engine_lines = re.findall(r"\binno\d+\.\S+$", text, re.M)
    assert [r["engine"] for t in parsed.tables for r in t.rows] == engine_lines
    assert _other_lines(text, parsed) == [
        "Slow SSD",
        "IO-bound load metrics",
        "Fast SSD",
        "Slow SSD",
    ]
    for t in parsed.tables:
        assert all(isinstance(r["ips.av"], int) and r["ips.av"] >= r["ips.99"] for r in t.rows)


def test_real_ibench_skips_prose():
    text = archive_text(*IBENCH)
    parsed = PARSER.parse(text, IBENCH[1])
    sections = [l[3:] for l in text.splitlines() if l.startswith("-- ")]
    assert {t.name.split(" / ")[0] for t in parsed.tables} == set(sections)
    others = _other_lines(text, parsed)
    assert all(len(l.split()) <= 6 and not l.split()[0][0].isdigit() for l in others), others
    # one heading line per table, except the first table's (above where the tables start)
    assert len(parsed.tables) == 1 + len([l for l in others if not l.startswith("--")])
    assert all(t.rows and isinstance(t.rows[0]["engine"], str) for t in parsed.tables)
