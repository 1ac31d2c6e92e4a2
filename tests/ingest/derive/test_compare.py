"""What the compare page lists of a study (ingest/derive/compare.py, compare.yaml): labels by
their display names, the window cut at the run's end, the query keys escaped."""

from __future__ import annotations

from ingest.derive.compare import QueryRows, compare_doc

DISPLAY = {"engine": {"innodb": "InnoDB"}, "cache_gb": {"27": "27 GB"}, "flag": {"true": "on"}}


def test_labels_sorted_by_key_each_by_its_display_name():
    run = {"id": "a", "labels": {"threads": 16, "engine": "innodb", "cache_gb": 27, "flag": True}}
    doc = compare_doc([run], DISPLAY)["runs"]["a"]
    assert doc["labels"] == ["cache_gb=27 GB", "engine=InnoDB", "flag=on", "threads=16"]
    assert doc["shown"] == {"cache_gb": "27 GB", "engine": "InnoDB", "flag": "on", "threads": "16"}


def test_the_window_never_ends_past_the_run_and_none_without_one():
    w = {"start": 100, "end": 600}
    runs = [
        {"id": "short", "window": w, "end_s": 450.5},
        {"id": "long", "window": w, "end_s": 900},
        {"id": "unknown-end", "window": w},
        {"id": "no-window"},
    ]
    got = {k: v["window"] for k, v in compare_doc(runs, {})["runs"].items()}
    assert got == {
        "short": [100, 450.5],
        "long": [100, 600],
        "unknown-end": [100, 600],
        "no-window": None,
    }
    assert compare_doc(runs, {})["runs"]["no-window"]["labels"] == []


def test_query_keys_escape_percent_and_slash_so_two_stay_two():
    rows = [{"query": "9", "server": "maria"}, {"query": "1/9", "server": "mysql"}]
    a = compare_doc([], DISPLAY, QueryRows("TPC-H/1", ["server"], rows[:1]))["queries"]
    b = compare_doc([], {"server": {"maria": "MariaDB"}}, QueryRows("TPC-H", ["server"], rows))
    assert a == [{"key": "TPC-H%2F1/9", "series": "maria"}]
    assert b["queries"] == [
        {"key": "TPC-H/9", "series": "MariaDB"},
        {"key": "TPC-H/1%2F9", "series": "mysql"},
    ]
    assert compare_doc([], {}, QueryRows("50%", [], [{"query": 1}]))["queries"] == [
        {"key": "50%25/1", "series": ""}
    ]
    assert compare_doc([], {})["queries"] == []


def test_overlay_only_with_intervals_and_files_and_the_resolution_as_written():
    runs = [
        {"id": "full", "intervals": 600},
        {"id": "thin", "intervals": 600, "series": {"resolution": "downsampled", "every": 10}},
        {"id": "gone", "intervals": 600, "series": {"resolution": "dropped"}},
        {"id": "summary", "intervals": 0},
    ]
    got = {k: (v["overlay"], v["resolution"]) for k, v in compare_doc(runs, {})["runs"].items()}
    assert got == {
        "full": (True, "full"),
        "thin": (True, "downsampled"),
        "gone": (False, "dropped"),
        "summary": (False, "full"),
    }
