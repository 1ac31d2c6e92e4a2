"""Deterministic YAML and atomic study writes."""
from __future__ import annotations

import os

import pytest
import yaml

from ingest import writer
from ingest.writer import dump, write_study

TRICKY = ["yes", "No", "null", "~", "1.0", "007", "a: b", "#x", "x #y", "- x", "[a]", "{a}", "a,b", "é ü 中",
          "tab\there", "line\nbreak", 'quote"s', "back\\slash", "\x7f\x85\u2028", "😀", "", " lead", "trail ",
          "@at", "`tick", "%pct", "*star", "&amp", "!bang", "|pipe", ">gt", "'single'", "?q"]


def test_dump_round_trips_through_a_yaml_reader():
    doc = {"s": TRICKY, "rows": [{"k": v, "n": i} for i, v in enumerate(TRICKY)],
           "nums": [0, -1, 1.5, 1e-07, 1e20, 2.0 ** 0.5, -0.0, True, False, None],
           "nested": {"a": {"b": [1, 2]}, "empty": {}, "list": []}}
    text = dump(doc)
    back = yaml.safe_load(text)
    assert back["s"] == TRICKY
    assert [r["k"] for r in back["rows"]] == TRICKY
    assert back["nums"] == doc["nums"]
    assert back["nested"] == doc["nested"]
    assert "&" not in text.replace('"&amp"', "") and "!!" not in text
    assert dump(doc) == text                                         # deterministic


def test_non_finite_floats_are_missing():
    assert yaml.safe_load(dump({"x": [float("nan"), float("inf")]})) == {"x": [None, None]}


def test_columnar_series_are_flow_lists():
    assert dump({"t": [1, 2], "tps": [1.5, 2.0]}) == "t: [1, 2]\ntps: [1.5, 2.0]\n"


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_write_study_touches_only_what_changed(tmp_path):
    files = {"study.yaml": b"a\n", "series/r1.yaml": b"1\n", "series/r2.yaml": b"2\n"}
    assert write_study(tmp_path, "s", files)["written"] == sorted(files)
    old = 1_000_000_000
    for p in (tmp_path / "s").rglob("*.yaml"):
        os.utime(p, ns=(old, old))
    res = write_study(tmp_path, "s", {"study.yaml": b"a\n", "series/r1.yaml": b"one\n"})
    assert res == {"written": ["series/r1.yaml"], "removed": ["series/r2.yaml"]}
    assert (tmp_path / "s/study.yaml").stat().st_mtime_ns == old          # unchanged: not rewritten
    assert _tree(tmp_path / "s") == {"study.yaml": b"a\n", "series/r1.yaml": b"one\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_failed_replace_leaves_old_data_and_no_temp_files(tmp_path, monkeypatch, fail_at):
    old = {"study.yaml": b"old study\n", "series/a.yaml": b"old a\n", "series/gone.yaml": b"gone\n"}
    write_study(tmp_path, "s", old)
    calls = {"n": 0}
    real = os.replace

    def flaky(src, dst):
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(writer.os, "replace", flaky)
    new = {"study.yaml": b"new study\n", "series/a.yaml": b"new a\n", "series/b.yaml": b"new b\n"}
    with pytest.raises(OSError, match="No space left"):
        write_study(tmp_path, "s", new)
    assert _tree(tmp_path / "s") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]
