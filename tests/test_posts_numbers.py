"""Every number a post shows comes from data/: each rendered table cell is its data/ value
formatted with the column's digits (same rows, same order, nothing added or dropped), each
number quoted in prose (the `value` shortcode) is a value or a ratio of values of the study's
tables, and each table's CSV has one line per data row. Uses the session's one site build."""
from __future__ import annotations

import csv
import io
import re
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
STUDIES = sorted(p.parent.name for p in (ROOT / "content" / "posts").glob("*/index.md")
                 if (ROOT / "data" / p.parent.name / "study.yaml").exists())


class _Cells(HTMLParser):
    """Rendered tables: {table id: [[(class, text), ...] per body row]}, and prose values."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[tuple[str, str]]]] = {}
        self.values: list[str] = []
        self._table = self._cell = self._value = None
        self._in_body = False
        self._skip = 0
        self._chart = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and "chart" in (a.get("class") or "").split():
            self._chart += 1  # a chart's own data table (checked with the chart), not a study table
        elif tag == "table" and "data" in (a.get("class") or "").split() and a.get("id", "").endswith("-table") and not self._chart:
            self._table = a["id"][: -len("-table")]
            self.tables[self._table] = []
        elif tag == "tbody" and self._table:
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.tables[self._table].append([])
        elif tag == "td" and self._in_body:
            self._cell = [a.get("class", ""), ""]
        elif tag == "span" and self._cell is not None and "note" in (a.get("class") or ""):
            self._skip += 1
        elif tag == "span" and "value" in (a.get("class") or "").split() and self._table is None:
            self._value = ""

    def handle_endtag(self, tag):
        if tag == "figure" and self._chart:
            self._chart -= 1
        elif tag == "td" and self._cell is not None:
            self.tables[self._table][-1].append((self._cell[0], self._cell[1].strip()))
            self._cell = None
        elif tag == "span" and self._skip:
            self._skip -= 1
        elif tag == "span" and self._value is not None:
            self.values.append(self._value.strip())
            self._value = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None and not self._skip:
            self._cell[1] += data
        elif self._value is not None:
            self._value += data


def formatted(value, column, display=None) -> str:
    """The text the table partial prints for a cell (lang.FormatNumber, en-us; label values
    with the study's display names)."""
    if value is None:
        return "n/a"
    if column["kind"] not in ("number", "ratio"):
        return str((display or {}).get(column["key"], {}).get(str(value), value))
    digits = column.get("digits", 2 if isinstance(value, float) else 0)
    exact = Decimal(str(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{exact:,.{digits}f}"
    return text + ("×" if column["kind"] == "ratio" else "")


def number_of(text: str) -> float | None:
    m = re.fullmatch(r"-?[\d,]*\.?\d+×?", text)
    return float(text.replace(",", "").rstrip("×")) if m else None


def study_tables(study) -> dict[str, dict]:
    return {p.stem: yaml.safe_load(p.read_text()) for p in (ROOT / "data" / study / "tables").glob("*.yaml")}


@pytest.fixture(scope="module")
def rendered(built_site):
    out = {}
    for study in STUDIES:
        parser = _Cells()
        parser.feed(built_site.page(f"posts/{study}/index.html"))
        out[study] = parser
    return out


@pytest.mark.parametrize("study", STUDIES)
def test_table_cells_are_data(rendered, study, built_site):
    tables = study_tables(study)
    display = yaml.safe_load((ROOT / "data" / study / "study.yaml").read_text()).get("display") or {}
    shown = rendered[study].tables
    assert shown, f"{study}: the post shows no table"
    for tid, rows in shown.items():
        data = tables[tid]
        assert len(rows) == len(data["rows"]), f"{study}/{tid}: rendered rows != data rows"
        for i, (cells, row) in enumerate(zip(rows, data["rows"])):
            assert len(cells) == len(data["columns"])
            for (cls, text), column in zip(cells, data["columns"]):
                assert text == formatted(row[column["key"]], column, display), f"{study}/{tid} row {i} {column['key']}"
                if row[column["key"]] is None:
                    assert "missing" in cls  # shown as n/a, never as 0
        lines = list(csv.reader(io.StringIO(built_site.page(f"posts/{study}/{tid}.csv"))))
        assert len(lines) == 1 + len(data["rows"]), f"{study}/{tid}.csv"


@pytest.mark.parametrize("study", STUDIES)
def test_prose_numbers_are_data(rendered, study):
    """A number quoted in prose is a table value, or the ratio of two (value shortcode's `over`)."""
    numbers = [v for t in study_tables(study).values() for r in t["rows"] for v in r.values()
               if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for text in rendered[study].values:
        if text == "n/a":
            continue
        shown = number_of(text)
        assert shown is not None, f"{study}: value {text!r} is not a number"
        digits = len(text.rstrip("×").partition(".")[2])
        tol = 0.5 * 10 ** -digits + 1e-9
        direct = any(abs(n - shown) <= tol for n in numbers)
        ratios = text.endswith("×") and any(b and abs(a / b - shown) <= tol for a in numbers for b in numbers)
        assert direct or ratios, f"{study}: {text!r} in the prose is not in data/{study}/"


def test_every_post_table_is_in_data():
    """The reverse direction: each table shortcode names a table the ingest wrote."""
    for study in STUDIES:
        text = (ROOT / "content" / "posts" / study / "index.md").read_text()
        ids = re.findall(r'\{\{<\s*table\s+id="([^"]+)"', text)
        assert ids and set(ids) <= set(study_tables(study)), study
