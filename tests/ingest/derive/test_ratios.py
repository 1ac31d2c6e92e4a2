"""Ratio tables (ingest/derive/ratios.py): each cell's class and noise verdict against every
base, by the one rule of ingest/derive/noise.py, declared in `ratios:` and checked at load;
and every ratio chart of every post reads a table that carries them."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ingest.derive import ratios
from ingest.derive.noise import legend, ratio_class, within_noise
from ingest.problems import Problem
from ingest.read.fields import load_yaml
from tests.kit import fastyaml

ROOT = Path(__file__).resolve().parents[3]


def _views(tmp_path: Path, text: str) -> list[Any]:
    p = tmp_path / "manifest.yaml"
    p.write_text(text, encoding="utf-8")
    return ratios.parse(str(p), load_yaml(p))


def _ctx(views: list[Any], rows: list[dict[str, Any]]) -> Any:
    table = {
        "id": "times",
        "columns": [
            {"key": "server", "label": "Server", "kind": "label"},
            {"key": "query", "label": "Query", "kind": "label"},
            {"key": "median", "label": "Median", "kind": "number"},
            {"key": "min", "label": "Min", "kind": "number"},
            {"key": "max", "label": "Max", "kind": "number"},
        ],
        "rows": rows,
    }
    manifest = SimpleNamespace(path="manifest.yaml", ratios=views, display={"server": {"a": "A"}})
    return SimpleNamespace(manifest=manifest, tables=[table], runs=[], series={})


ROWS = [
    {"server": "a", "query": "1", "median": 290.0, "min": 286.0, "max": 303.0},
    {"server": "b", "query": "1", "median": 320.0, "min": 314.0, "max": 343.0},
    {"server": "a", "query": "2", "median": 46.0, "min": 45.0, "max": 47.0},
    {"server": "b", "query": "2", "median": 46.5, "min": 46.0, "max": 49.0},
    {"server": "a", "query": "3", "median": 10.0, "min": 9.0, "max": 11.0},
    {"server": "b", "query": "3", "median": None, "min": None, "max": None},
]


def test_classes_and_verdicts_per_base(tmp_path):
    views = _views(
        tmp_path,
        "ratios:\n  - {table: times, row: query, col: server, value: median,"
        " spread: {lo: min, hi: max}}\n",
    )
    ctx = _ctx(views, [dict(r) for r in ROWS])
    ratios.add(ctx)
    block = ctx.tables[0]["ratio"]
    assert (block["row"], block["col"], block["spread"]) == (["query"], "server", "min/max")
    a, b = block["bases"]["a"], block["bases"]["b"]
    # ranges that never overlap differ; overlapping ones are noise (class 0); a missing side
    # and the base's own cells have neither
    # (the cells row by row, a column per server: the heat-table's grid)
    assert b["noise"] == [False, None, True, None, None, None]
    assert b["classes"] == [ratio_class(290 / 320, False), None, 0, None, None, None]
    assert a["noise"] == [None, False, None, True, None, None]
    assert a["classes"][1] == ratio_class(320 / 290, False) > 0
    assert a["classes"][5] is None  # b did not finish query 3


def test_the_grid_the_chart_renders(tmp_path):
    """The heat-table as the template shows it: columns and rows in table order, by their
    display names, a value per cell (None where the table has none) and a missing value's note."""
    views = _views(
        tmp_path, "ratios:\n  - {table: times, row: query, col: server, value: median}\n"
    )
    rows = [dict(r) for r in ROWS[:5]]  # query 3 has no row of server b at all
    ctx = _ctx(views, rows)
    ctx.tables[0]["notes"] = {"4/median": "about", "1/median": "ignored: not missing"}
    rows[4]["median"] = None
    ratios.add(ctx)
    block = ctx.tables[0]["ratio"]
    assert (block["cols"], block["col_names"]) == (["a", "b"], ["A", "b"])
    assert block["rows"] == [["1"], ["2"], ["3"]]
    assert block["values"] == [[290.0, 320.0], [46.0, 46.5], [None, None]]
    assert block["texts"] == [[None, None], [None, None], ["about", None]]
    assert block["bases"]["a"]["classes"][4:] == [None, None]
    assert block["legend"] == legend()


def test_without_a_spread_no_verdict(tmp_path):
    views = _views(
        tmp_path, "ratios:\n  - {table: times, row: [query], col: server, value: median}\n"
    )
    ctx = _ctx(views, [dict(r) for r in ROWS])
    ratios.add(ctx)
    block = ctx.tables[0]["ratio"]
    assert "noise" not in block["bases"]["a"] and "spread" not in block
    assert block["bases"]["a"]["classes"][3] == ratio_class(46.5 / 46.0, None) == 1
    assert "texts" not in block  # no missing value has a note


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("ratios:\n  - {table: t, row: q, col: s}\n", "ratios[0]: missing field `value`"),
        (
            "ratios:\n  - {table: t, row: q, col: s, value: v, spread: cv}\n",
            "ratios[0]: `spread` must be runs or {lo: <column>, hi: <column>}",
        ),
        (
            "ratios:\n  - {table: t, row: q, col: s, value: v, noise: runs}\n",
            "ratios[0]: unknown field `noise`",
        ),
    ],
)
def test_declaration_errors_name_the_line(tmp_path, text, reason):
    with pytest.raises(Problem) as e:
        _views(tmp_path, text)
    assert f"manifest.yaml:2: {reason}" in str(e.value), str(e.value)


def test_a_table_without_the_columns_is_an_error(tmp_path):
    views = _views(tmp_path, "ratios:\n  - {table: times, row: query, col: server, value: mean}\n")
    with pytest.raises(Problem, match=r"ratios\[0\]: table 'times' has no column 'mean'"):
        ratios.add(_ctx(views, [dict(r) for r in ROWS]))
    views = _views(tmp_path, "ratios:\n  - {table: nope, row: q, col: s, value: v}\n")
    with pytest.raises(Problem, match=r"ratios\[0\]: no table 'nope' in the study"):
        ratios.add(_ctx(views, []))


CHART = re.compile(
    r'\{\{< chart kind="ratio" [^>]*?table="([^"]+)" row="([^"]+)" col="([^"]+)" value="([^"]+)"'
)


def test_every_ratio_chart_reads_the_ingests_rule():
    """Every ratio chart of every post: its table carries the ingest's classes for every base,
    and its verdicts are the overlap rule on the spreads it names."""
    seen = 0
    for post in sorted((ROOT / "content" / "posts").glob("*/index.md")):
        for table, row, col, value in CHART.findall(post.read_text(encoding="utf-8")):
            seen += 1
            path = ROOT / "data" / post.parent.name / "tables" / f"{table}.yaml"
            t = fastyaml.load(path.read_text(encoding="utf-8"))
            block = t["ratio"]
            assert (block["row"], block["col"], block["value"]) == (row.split(","), col, value)
            assert set(block["bases"]) == {str(r[col]) for r in t["rows"]}
            if block.get("spread", "runs") == "runs":
                continue
            lo, hi = block["spread"].split("/")
            tuples = list(dict.fromkeys(tuple(r[k] for k in block["row"]) for r in t["rows"]))
            for base, by in block["bases"].items():
                for r in t["rows"]:
                    ri = tuples.index(tuple(r[k] for k in block["row"]))
                    noise = by["noise"][ri * len(block["cols"]) + block["cols"].index(str(r[col]))]
                    if str(r[col]) == base or r[value] is None:
                        continue
                    b = next(
                        (
                            x
                            for x in t["rows"]
                            if str(x[col]) == base and all(x[k] == r[k] for k in block["row"])
                        ),
                        None,
                    )
                    if b is None or b[value] is None:
                        continue
                    assert noise == within_noise((r[lo], r[hi]), (b[lo], b[hi]))
    assert seen >= 11
