"""The summaries the posts show as they are (ingest/derive/summaries.py): the reproduction check's
counts, reasons and grouped cells, computed by the ingest instead of the `reproduction`
shortcode, on rows of our own making."""

from __future__ import annotations

import pytest

from ingest.derive.summaries import reproduction, with_summaries


def row(table, cell, agrees, published="1.0", derived=1.0, reason=None, digits=1):
    return {
        "table": table,
        "cell": cell,
        "published": published,
        "derived": derived,
        "agrees": agrees,
        "digits": digits,
        "source": "t.md:3",
        "reason": reason,
        "key": f"v at k={cell}",
    }


ROWS = [
    row("A", "a1", "exact"),
    row("A", "a2", "truncation", "2.1", 2.19, "truncated"),
    row("A", "a3", "differs", "3", None, "no row"),
    row("B", "b1", "differs", "3", None, "no row"),  # another table: a line of its own
    row("A", "a4", "differs", "3", None, "no row"),  # joins a3: same table, published, reason
    row("A", "a5", "differs", "3", 3.4, "rounds to 3.4"),  # a derived value: its own line
    row("B", "b2", "not comparable", "1", None, "0/0"),
]


def test_counts_per_verdict_and_per_table_in_order():
    s = reproduction(ROWS, from_runs=True)
    assert (s["compared"], s["from"]) == (7, "runs")
    assert [s[k] for k in ("exact", "truncation", "differs", "not_comparable")] == [1, 1, 4, 1]
    assert s["unexplained"] == 5
    assert s["tables"] == [
        {
            "table": "A",
            "compared": 5,
            "exact": 1,
            "truncation": 1,
            "differs": 3,
            "not_comparable": 0,
        },
        {
            "table": "B",
            "compared": 2,
            "exact": 0,
            "truncation": 0,
            "differs": 1,
            "not_comparable": 1,
        },
    ]
    assert reproduction(ROWS, from_runs=False)["from"] == "inputs"


def test_reasons_of_the_cells_that_differ_first_seen_first():
    s = reproduction(ROWS, from_runs=True)
    assert s["reasons"] == [
        {"reason": "no row", "cells": 3},
        {"reason": "rounds to 3.4", "cells": 1},
        {"reason": "0/0", "cells": 1},
    ]


def test_more_than_three_reasons_are_left_to_each_cell():
    rows = [row("A", f"c{i}", "differs", reason=f"why {i}") for i in range(4)]
    assert reproduction(rows, from_runs=True)["reasons"] == []
    nameless = [row("A", "c", "differs", reason=None)]
    assert reproduction(nameless, from_runs=True)["reasons"] == [
        {"reason": "no reason given", "cells": 1}
    ]


def test_cells_not_exact_one_each_with_why():
    lines = reproduction(ROWS, from_runs=True)["not_exact"]
    assert [(x["table"], x["cell"]) for x in lines] == [
        ("A", "a2"),
        ("A", "a3"),
        ("B", "b1"),
        ("A", "a4"),
        ("A", "a5"),
        ("B", "b2"),
    ]
    assert lines[1] == {
        "table": "A",
        "cell": "a3",
        "published": "3",
        "derived": None,
        "digits": 1,
        "agrees": "differs",
        "derived_text": None,
        "why": "no row",
    }
    # the derived value as the post's table shows it: the published decimals plus two
    assert [x["derived_text"] for x in lines if x["derived"] is not None] == ["2.190", "3.400"]
    whole = row("A", "w", "differs", "2013", 2009, "more runs", digits=None)
    assert reproduction([whole], from_runs=True)["not_exact"][0]["derived_text"] == "2009.00"


def heads(columns):
    assert all(c["i18n"] == f"reproduction-col-{c['key']}" for c in columns)
    return [(c["key"], c["kind"]) for c in columns]


def test_the_columns_of_the_post_tables_where_it_shows_them():
    s = reproduction(ROWS, from_runs=True)
    counts = [("compared", "number"), ("exact", "number"), ("truncation", "number")]
    assert heads(s["table_columns"]) == [
        ("table", "label"),
        *counts,
        ("differs", "number"),
        ("not_comparable", "number"),
    ]
    cells = [("cell", "text"), ("published", "text"), ("derived", "text")]
    assert heads(s["cell_columns"]) == [
        ("table", "label"),
        *cells,
        ("agrees", "label"),
        ("why", "text"),
    ]
    # one table: no counts per table, no table column; no cell not comparable: no such count
    one = reproduction([r for r in ROWS if r["table"] == "A"], from_runs=True)
    assert "table_columns" not in one
    assert heads(one["cell_columns"])[0] == ("cell", "text")
    two = reproduction(ROWS[:4], from_runs=True)
    assert ("not_comparable", "number") not in heads(two["table_columns"])


def test_no_table_of_cells_when_none_or_one_reason_covers_them_all():
    exact = [row("A", "a1", "exact")]
    assert "cell_columns" not in reproduction(exact, from_runs=True)
    same = [row("A", f"c{i}", "differs", reason="no row") for i in range(3)]
    assert "cell_columns" not in reproduction(same, from_runs=True)
    # a cell consistent with truncation is not covered by the one reason: the table stays
    mixed = [*same, row("A", "t", "truncation", "2.1", 2.19, "truncated")]
    assert "cell_columns" in reproduction(mixed, from_runs=True)


def test_causes_the_manifest_names_group_the_cells_however_many():
    """A cell's cause (the manifest's) stands for its reason: the cells are counted by cause,
    even beyond three causes, and each cell's `why` is its cause."""
    rows = [
        {**row("A", f"c{i}", "differs", reason=f"why {i}"), "cause": f"cause {i % 4}"}
        for i in range(8)
    ]
    s = reproduction(rows, from_runs=True)
    assert s["reasons"] == [{"reason": f"cause {i}", "cells": 2} for i in range(4)]
    assert [x["why"] for x in s["not_exact"]][:4] == [f"cause {i}" for i in range(4)]
    some = rows[:4] + [row("A", "x", "differs", reason="a reason of its own")]
    assert reproduction(some, from_runs=True)["reasons"] == []  # five, not all caused


@pytest.mark.parametrize("runs", [[], [{"id": "r"}]])
def test_only_the_reproduction_table_gets_a_summary(runs):
    other = {"id": "avg-tps", "title": "t", "columns": [], "rows": [], "notes": {}}
    check = {"id": "reproduction", "title": "r", "columns": [], "rows": ROWS, "notes": {}}
    out = with_summaries([other, check], runs)
    assert out[0] is other and "summary" not in check
    assert out[1]["summary"]["from"] == ("runs" if runs else "inputs")
    assert list(out[1])[:5] == ["id", "title", "columns", "rows", "notes"]
