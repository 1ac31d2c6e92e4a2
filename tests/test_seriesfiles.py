"""The per-run series files the site serves (ingest/seriesfiles.py, docs/data-schema.md):
compact columnar JSON with null for missing, CSV with empty cells for missing and text that a
spreadsheet cannot run; the real studies' files say what their archival YAML says."""

import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from ingest.seriesfiles import series_csv, series_json

ROOT = Path(__file__).resolve().parent.parent
DOC = {
    "run": "r-1",
    "interval_s": 1,
    "columns": ["t", "tps", "lat_ms"],
    "t": [1, 2, 3],
    "tps": [0.1, None, 1e-07],
    "lat_ms": [12.5, float("nan"), 3.0],
}


def test_json_is_compact_columnar_and_missing_is_null():
    text = series_json(DOC)
    assert text == (
        '{"run":"r-1","interval_s":1,"columns":["t","tps","lat_ms"],'
        '"t":[1,2,3],"tps":[0.1,null,1e-07],"lat_ms":[12.5,null,3.0]}\n'
    )
    back = json.loads(text)
    assert back["tps"] == [0.1, None, 1e-07] and back["lat_ms"][1] is None


def test_floats_are_the_shortest_round_trip_repr():
    values = [0.1 + 0.2, 1 / 3, 262.56, 7914.86, 1e300, -0.0]
    back = json.loads(
        series_json(
            {
                "run": "x",
                "interval_s": 1,
                "columns": ["t", "v"],
                "t": list(range(len(values))),
                "v": values,
            }
        )
    )
    assert back["v"] == values
    assert "0.30000000000000004" in series_json({"run": "x", "columns": ["v"], "v": [0.1 + 0.2]})


def test_csv_has_a_header_one_row_per_interval_and_missing_is_empty():
    assert series_csv(DOC) == "t,tps,lat_ms\n1,0.1,12.5\n2,,\n3,1e-07,3.0\n"


def test_csv_text_cells_cannot_become_formulas():
    doc = {
        "run": "x",
        "columns": ["t", "=note"],
        "t": [1, 2],
        "=note": ["=cmd|' /C calc'!A0", "@sum(1)"],
    }
    rows = list(csv.reader(io.StringIO(series_csv(doc))))
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row), rows
    assert rows[1][0] == "1" and rows[2][1].endswith("@sum(1)")


def test_columns_of_unequal_length_are_refused():
    with pytest.raises(ValueError):
        series_csv({"run": "x", "columns": ["t", "v"], "t": [1, 2], "v": [1.0]})


@pytest.mark.parametrize(
    "yaml_file",
    sorted(ROOT.glob("data/linkbench-hourly-2017/series/*.yaml"))
    + sorted(ROOT.glob("tests/fixtures/site/data/*/series/*.yaml")),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_served_files_say_what_the_archival_yaml_says(yaml_file):
    """The committed JSON and CSV beside each series YAML (the big study is covered by the
    fresh-ingest comparison in test_ingest_cloud)."""
    doc = yaml.safe_load(yaml_file.read_text())
    assert yaml_file.with_suffix(".json").read_text() == series_json(doc)
    assert yaml_file.with_suffix(".csv").read_text() == series_csv(doc)
    served = json.loads(yaml_file.with_suffix(".json").read_text())
    assert served == {k: doc[k] for k in served} and list(served) == list(doc)
