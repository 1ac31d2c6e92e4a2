"""F13 Markdown tables: golden fixtures, errors, and the real published-tables.md files."""

import re

import pytest

from ingest.parse import by_name, detect
from ingest.parse.markdown_tables import qualifier_of
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, SHARED, check_golden, golden_cases

PARSER = by_name("markdown-tables")
REAL = sorted((SHARED / "studies").glob("*/published-tables.md"))


@pytest.mark.parametrize("path", golden_cases("markdown-tables"), ids=lambda p: p.stem)
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize(
    "case, reason",
    [
        ("no-heading", "a table without a ## heading"),
        ("no-table", "no Markdown table under a ## heading"),
    ],
)
def test_errors(case, reason):
    path = FIXTURES / "markdown-tables" / f"{case}.md"
    with pytest.raises(Problem, match=re.escape(reason)) as err:
        PARSER.parse(path.read_text(), path.name)
    assert str(err.value).startswith(f"{case}.md:")


def test_qualifiers():
    assert qualifier_of("about 60% more") == "about"
    assert qualifier_of("Up to 2x") == "up to"
    assert qualifier_of("aboutness") is None
    assert qualifier_of(None) is None


def test_detect_fixture():
    head = (FIXTURES / "markdown-tables" / "published.md").read_text()
    assert detect(head)[0] is PARSER


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.parent.name)
def test_real_published_tables(path):
    """Every ## heading gives a table; every body line a row; N/A and empty cells are None."""
    text = path.read_text()
    parsed = PARSER.parse(text, str(path))
    assert [t.name for t in parsed.tables] == re.findall(r"^## (.+)$", text, re.M)
    body_lines = [
        l for l in text.splitlines() if l.startswith("|") and not re.match(r"^\|[-| :]+\|$", l)
    ]
    assert sum(len(t.rows) + 1 for t in parsed.tables) == len(body_lines)
    for table in parsed.tables:
        for line_cells, row in zip(_source_rows(text, table), table.rows):
            for col, cell in zip(table.columns, line_cells):
                if cell in ("", "N/A"):
                    assert row[col] is None
                elif re.fullmatch(r"\d+", cell):
                    assert row[col] == int(cell)


def _source_rows(text, table):
    lines = text.splitlines()[table.line :]
    rows = [l for l in lines if l.startswith("|")][2 : 2 + len(table.rows)]
    return [[c.strip() for c in l.strip().strip("|").split("|")] for l in rows]


def test_real_icp_units_and_missing():
    path = SHARED / "studies" / "index-condition-pushdown" / "published-tables.md"
    counters = next(
        t
        for t in PARSER.parse(path.read_text(), str(path)).tables
        if t.name.startswith("Status counters")
    )
    i = next(i for i, r in enumerate(counters.rows) if r["counter"] == "Innodb_data_read")
    assert {counters.units[f"{i}/{c}"] for c in counters.columns[1:]} == {"G"}
    icp = next(r for r in counters.rows if r["counter"] == "Handler_icp_attempts")
    assert icp["MySQL 5.5"] is None and icp["MariaDB 5.5"] > 0


@pytest.mark.parametrize(
    "path", [FIXTURES / "markdown-tables" / "published.md", *REAL], ids=lambda p: p.parent.name
)
def test_last_row_without_newline(path):
    """A hand-saved file may lack its final newline: a whole last row (closed by `|`) is kept;
    the same row cut before its closing `|` is dropped and reported once."""
    text = path.read_text()
    full = PARSER.parse(text, path.name)
    bare = text.rstrip("\n")
    assert bare.endswith("|") and PARSER.parse(bare, path.name).tables == full.tables
    cut = PARSER.parse(bare[:-1], path.name)
    assert cut.tables[:-1] == full.tables[:-1] and cut.tables[-1].rows == full.tables[-1].rows[:-1]
    assert list(map(str, cut.problems)) == [
        f"{path.name}:{bare.count(chr(10)) + 1}: incomplete last line "
        "(the file ends mid-line, cut short?): ignored"
    ]
