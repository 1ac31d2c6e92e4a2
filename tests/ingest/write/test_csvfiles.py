"""One CSV writer (ingest/write/csvfiles.py): every CSV the site serves is written by it, the tables'
and runs.csv by the ingest beside their YAML, the series' by the publish step from their JSON;
the browser's "CSV (as shown)" export follows the same rule, checked against the same cases
(tests/fixtures/csv-fields.json) by tests/js/export.test.js (tests/site/test_js_units.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ingest.write.csvfiles import runs_csv, table_csv
from ingest.write.numbers import json_array, json_number
from tests.kit import fastyaml

ROOT = Path(__file__).resolve().parents[3]
CASES = json.loads((ROOT / "tests/fixtures/csv-fields.json").read_text())["cases"]
TABLES = sorted(ROOT.glob("data/*/tables/*.yaml")) + sorted(
    ROOT.glob("tests/fixtures/site/data/*/tables/*.yaml")
)


def field(value) -> str:
    """The CSV text the writer makes of one value (the first field of a table's only row)."""
    text = table_csv({"columns": [{"key": "v"}, {"key": "end"}], "rows": [{"v": value, "end": 1}]})
    return text.removeprefix("v,end\n").removesuffix(",1\n")


@pytest.mark.parametrize("value, want", CASES, ids=[repr(v) for v, _ in CASES])
def test_each_value_is_written_by_the_one_rule(value, want):
    assert field(value) == want


def test_a_number_reads_the_same_in_the_series_json_and_every_csv():
    numbers = [v for v, _ in CASES if type(v) in (int, float)]
    assert json_array(numbers) == "[" + ",".join(map(json_number, numbers)) + "]"
    assert [field(v) for v in numbers] == [json_number(v) for v in numbers]


@pytest.mark.parametrize("yaml_file", TABLES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_committed_csv_is_the_tables_csv(yaml_file):
    """The CSV beside every committed table says what its YAML says (data/ is a fresh ingest)."""
    assert yaml_file.with_suffix(".csv").read_text(encoding="utf-8") == table_csv(
        fastyaml.load(yaml_file.read_text())
    )


@pytest.mark.parametrize(
    "runs_file",
    sorted(ROOT.glob("data/*/runs.yaml"))
    + sorted(ROOT.glob("tests/fixtures/site/data/*/runs.yaml")),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_runs_csv_gives_each_runs_window_statistics(runs_file):
    runs = fastyaml.load(runs_file.read_text())["runs"]
    study = fastyaml.load((runs_file.parent / "study.yaml").read_text())
    csv_file = runs_file.with_suffix(".csv")
    if not runs:
        assert not csv_file.exists()
        return
    text = csv_file.read_text(encoding="utf-8")
    assert text == runs_csv(runs, study.get("window"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["run"] for r in rows] == [r["id"] for r in runs]
    for row, run in zip(rows, runs):
        w = run.get("window") or {}
        for key in ("n", "mean", "p50", "cv"):
            assert (float(row[key]) if row[key] else None) == w.get(key), (run["id"], key)
