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
        "why": "no row",
    }


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
