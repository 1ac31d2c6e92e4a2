"""The cells of a plan that differ from another series' plan (ingest/derive/plan_diffs.py), on
plan tables of our own making."""

from __future__ import annotations

from ingest.derive import plan_diffs

KEYS = ["server", "query", "runs", "step", "table", "type", "rows"]


def plan_table(steps, keys=KEYS):
    kinds = {"server": "label", "query": "label", "step": "number", "rows": "number"}
    return {
        "id": "query-plans",
        "title": "Plans",
        "columns": [{"key": k, "label": k, "kind": kinds.get(k, "text")} for k in keys],
        "rows": [dict(zip(keys, s)) for s in steps],
        "notes": {},
    }


def diffs(table):
    plan_diffs.add([table])
    return table["plan_diff"]


def test_a_changed_cell_and_a_step_without_a_match():
    t = plan_table(
        [
            ("a", "1", "1-3", 1, "orders", "ALL", 900),
            ("a", "1", "1-3", 2, "items", "ref", 4),
            ("b", "1", "1-3", 1, "orders", "range", 40),
            ("b", "1", "1-3", 2, "parts", "ref", 4),
        ]
    )
    block = diffs(t)
    assert block["by"] == "server"
    # the series always differs; orders' type and rows; b has no items step, a no parts step
    assert block["plans"]["1"]["a"]["1-3"]["b"]["1-3"] == [["server", "type", "rows"], KEYS]
    assert block["plans"]["1"]["b"]["1-3"]["a"]["1-3"] == [["server", "type", "rows"], KEYS]


def test_steps_are_matched_by_table_and_a_moved_step_is_marked_on_its_table():
    t = plan_table(
        [
            ("a", "2", "1", 1, "orders", "ALL", 9),
            ("a", "2", "1", 2, "items", "ref", 4),
            ("b", "2", "1", 1, "items", "ref", 4),
            ("b", "2", "1", 2, "orders", "ALL", 9),
        ]
    )
    mine = diffs(t)["plans"]["2"]["a"]["1"]["b"]["1"]
    # swapped: orders has nothing before it in a, items in b; items has orders in a, nothing in b
    assert mine == [["server", "step", "table"], ["server", "step", "table"]]
    t["rows"].append({**t["rows"][0], "server": "c"})  # c: a's orders step alone
    t["rows"].append({**t["rows"][1], "server": "c", "step": 3, "type": "ALL"})
    c = diffs(t)["plans"]["2"]["c"]["1"]["a"]["1"]
    assert c == [["server"], ["server", "step", "type"]]  # same order: no table marked


def test_without_a_table_column_steps_are_matched_by_position():
    keys = ["server", "query", "runs", "step", "type"]
    t = plan_table([("a", "1", "1", 1, "ALL"), ("b", "1", "1", 1, "ALL")], keys)
    assert diffs(t)["plans"]["1"]["a"]["1"]["b"]["1"] == [["server"]]


def test_each_plan_variant_against_each_of_the_other_series():
    t = plan_table(
        [
            ("a", "1", "1-2", 1, "orders", "ALL", 9),
            ("a", "1", "3", 1, "orders", "range", 9),
            ("b", "1", "1-3", 1, "orders", "ALL", 9),
        ]
    )
    plans = diffs(t)["plans"]["1"]
    assert plans["a"]["1-2"]["b"]["1-3"] == [["server", "runs"]]
    assert plans["a"]["3"]["b"]["1-3"] == [["server", "runs", "type"]]
    assert plans["b"]["1-3"]["a"] == {
        "1-2": [["server", "runs"]],
        "3": [["server", "runs", "type"]],
    }
    assert "b" not in plans["b"]["1-3"]  # never against its own series


def test_a_table_that_is_no_plan_table_gets_no_block():
    t = plan_table([("a", "1", "1", 1, "orders", "ALL", 9)])
    t["columns"] = [c for c in t["columns"] if c["key"] != "step"]
    plan_diffs.add([t])
    assert "plan_diff" not in t
