"""The per-run series files (ingest/write/seriesfiles.py, docs/data-schema.md): one copy of each series
in data/, compact columnar JSON with numbers as JSON writes them (the digits the tool printed, no
`.0`, no float noise) and null for missing; the readers' CSV is turned from it when the site is
published (ingest/write/csvfiles.py series_csv, publish/series.py)."""

import csv
import io
import json
from pathlib import Path

import pytest

from ingest.parse.sysbench1 import Sysbench1
from ingest.write.csvfiles import series_csv
from ingest.write.seriesfiles import series_json

ROOT = Path(__file__).resolve().parents[3]
DOC = {
    "run": "r-1",
    "interval_s": 1,
    "columns": ["t", "tps", "lat_ms"],
    "t": [1, 2, 3],
    "tps": [0.1, None, 1e-07],
    "lat_ms": [12.5, 7.0, 3.0],
}


def test_json_is_compact_columnar_and_missing_is_null():
    text = series_json(DOC)
    assert text == (
        '{"run":"r-1","interval_s":1,"columns":["t","tps","lat_ms"],'
        '"t":[1,2,3],"tps":[0.1,null,1e-7],"lat_ms":[12.5,7,3]}\n'
    )
    back = json.loads(text)
    assert back["tps"] == [0.1, None, 1e-07] and back["lat_ms"] == [12.5, 7.0, 3.0]


@pytest.mark.parametrize(
    "values",
    [
        [0.1 + 0.2, 1 / 3, 262.56, 7914.86, 1e300, -0.0, 2.0, 100.0, 10.05],
        [1e16, 1.5e-5, 123456789012345678.0, 1e21, 5e-324, True, None],
        list(range(-3, 3)),
    ],
)
def test_every_number_reads_back_as_the_same_value(values):
    doc = {"run": "x", "columns": ["v"], "v": values}
    assert json.loads(series_json(doc))["v"] == values


def test_numbers_keep_the_digits_the_tool_printed_and_no_more(tmp_path):
    """sysbench prints two decimals; the JSON has those digits less trailing zeros, never float
    noise (0.30000000000000004) or digits the tool did not print."""
    printed = ["0.30", "0.10", "195.00", "262.56", "1000.05", "0.00", "7914.86", "12.50"]
    lines = [
        f"[ {i}s ] thds: 4 tps: {v} qps: {v} (r/w/o: 1.00/1.00/0.00) lat (ms,95%): {v} "
        f"err/s: 0.00 reconn/s: 0.00"
        for i, v in enumerate(printed, start=1)
    ]
    session = Sysbench1().parse("\n".join(lines) + "\n", "f.log").sessions[0]
    doc = {"run": "x", "columns": list(session.series), **session.series}
    text = series_json(doc)
    shown = [v.rstrip("0").rstrip(".") for v in printed]
    assert f'"tps":[{",".join(shown)}]' in text
    # a latency of 0.00 in a second without a transaction is sysbench's placeholder: missing
    lat = ["null" if v == "0" else v for v in shown]
    assert f'"lat_ms":[{",".join(lat)}]' in text
    assert '"err_s":[0,0,0,0,0,0,0,0]' in text


def test_inf_and_nan_are_refused():
    with pytest.raises(ValueError):
        series_json({"run": "x", "columns": ["v"], "v": [1.0, float("nan")]})


def test_csv_has_a_header_one_row_per_interval_and_missing_is_empty():
    assert series_csv(series_json(DOC)) == "t,tps,lat_ms\n1,0.1,12.5\n2,,7\n3,1e-7,3\n"


def test_csv_text_cells_cannot_become_formulas():
    doc = {
        "run": "x",
        "columns": ["t", "=note"],
        "t": [1, 2],
        "=note": ["=cmd|' /C calc'!A0", "@sum(1)"],
    }
    rows = list(csv.reader(io.StringIO(series_csv(series_json(doc)))))
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row), rows
    assert rows[1][0] == "1" and rows[2][1].endswith("@sum(1)")


def test_columns_of_unequal_length_are_refused():
    with pytest.raises(ValueError):
        series_csv('{"run":"x","columns":["t","v"],"t":[1,2],"v":[1]}')


@pytest.mark.parametrize(
    "json_file",
    sorted(ROOT.glob("data/*/series/*.json"))
    + sorted(ROOT.glob("tests/fixtures/site/data/*/series/*.json")),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_committed_series_are_one_json_file_and_their_csv_says_the_same(json_file):
    """One file per series in data/ (no YAML or CSV copy beside it); its CSV has a row per
    interval with the same numbers."""
    assert (
        not json_file.with_suffix(".yaml").exists() and not json_file.with_suffix(".csv").exists()
    )
    doc = json.loads(json_file.read_text())
    rows = list(csv.reader(io.StringIO(series_csv(json_file.read_text()))))
    assert rows[0] == doc["columns"] and len(rows) == 1 + len(doc["t"])
    for i in (0, len(doc["t"]) // 2, len(doc["t"]) - 1):
        want = [doc[c][i] for c in doc["columns"]]
        assert [None if x == "" else float(x) for x in rows[1 + i]] == want


def test_csv_of_a_column_of_booleans_and_nulls():
    doc = {"run": "x", "columns": ["t", "ok"], "t": [1, 2, 3], "ok": [True, None, False]}
    assert series_csv(series_json(doc)) == "t,ok\n1,true\n2,\n3,false\n"
