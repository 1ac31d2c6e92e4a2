"""CSV formula injection: text a spreadsheet would run is neutralised, numbers stay
numbers, in Python (ingest/write/csvsafe.py) and in the CSVs Hugo publishes (csv/field.html)."""

from __future__ import annotations

import csv
import io

import pytest

from ingest.write.csvsafe import safe_cell


@pytest.mark.parametrize(
    "text",
    [
        '=HYPERLINK("http://x","y")',
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1:A2)",
        "\tx",
        "\r=1",
        "=1",
    ],
)
def test_formula_text_gets_a_quote(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize(
    "value", [-5, -1.5, 0, 3, 2.5e-3, None, "-5", "+1.5e3", "-.5", "plain", "a=b", "", "x-1"]
)
def test_numbers_and_harmless_text_are_unchanged(value):
    assert safe_cell(value) == value


def test_a_csv_written_with_it_reads_back_as_text():
    out = io.StringIO()
    csv.writer(out).writerow([safe_cell(v) for v in ["=cmd()", -3, "ok"]])
    assert out.getvalue() == "'=cmd(),-3,ok\r\n"
