"""Deterministic YAML and atomic study writes."""

from __future__ import annotations

import os

import pytest
import yaml

from ingest.problems import Problem
from ingest.write import datadir
from ingest.write.datadir import dump, write_study

TRICKY = [
    "yes",
    "No",
    "null",
    "~",
    "1.0",
    "007",
    "a: b",
    "#x",
    "x #y",
    "- x",
    "[a]",
    "{a}",
    "a,b",
    "é ü 中",
    "tab\there",
    "line\nbreak",
    'quote"s',
    "back\\slash",
    "\x7f\x85\u2028",
    "😀",
    "",
    " lead",
    "trail ",
    "@at",
    "`tick",
    "%pct",
    "*star",
    "&amp",
    "!bang",
    "|pipe",
    ">gt",
    "'single'",
    "?q",
]


def test_dump_round_trips_through_a_yaml_reader():
    doc = {
        "s": TRICKY,
        "rows": [{"k": v, "n": i} for i, v in enumerate(TRICKY)],
        "nums": [0, -1, 1.5, 1e-07, 1e20, 2.0**0.5, -0.0, True, False, None],
        "nested": {"a": {"b": [1, 2]}, "empty": {}, "list": []},
    }
    text = dump(doc)
    back = yaml.safe_load(text)
    assert back["s"] == TRICKY
    assert [r["k"] for r in back["rows"]] == TRICKY
    assert back["nums"] == doc["nums"]
    assert back["nested"] == doc["nested"]
    assert "&" not in text.replace('"&amp"', "") and "!!" not in text
    assert dump(doc) == text  # deterministic


def test_non_finite_floats_are_missing():
    assert yaml.safe_load(dump({"x": [float("nan"), float("inf")]})) == {"x": [None, None]}


def test_columnar_series_are_flow_lists():
    assert dump({"t": [1, 2], "tps": [1.5, 2.0]}) == "t: [1, 2]\ntps: [1.5, 2.0]\n"


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _listing(root):
    return sorted(p.name for p in root.iterdir() if p.name != datadir.LOCK)


def test_write_study_touches_only_what_changed(tmp_path):
    files = {"study.yaml": b"a\n", "series/r1.yaml": b"1\n", "series/r2.yaml": b"2\n"}
    assert write_study(tmp_path, "s", files)["written"] == sorted(files)
    old = 1_000_000_000
    for p in (tmp_path / "s").rglob("*.yaml"):
        os.utime(p, ns=(old, old))
    inode = (tmp_path / "s/study.yaml").stat().st_ino
    res = write_study(tmp_path, "s", {"study.yaml": b"a\n", "series/r1.yaml": b"one\n"})
    assert res == {"written": ["series/r1.yaml"], "removed": ["series/r2.yaml"]}
    assert (tmp_path / "s/study.yaml").stat().st_mtime_ns == old  # unchanged: not rewritten
    assert (tmp_path / "s/study.yaml").stat().st_ino == inode  # (the same file, hard-linked)
    assert _tree(tmp_path / "s") == {"study.yaml": b"a\n", "series/r1.yaml": b"one\n"}
    assert _listing(tmp_path) == ["s"]


def test_rewriting_the_same_files_does_nothing(tmp_path):
    files = {"study.yaml": b"a\n", "series/r1.yaml": b"1\n"}
    write_study(tmp_path, "s", files)
    before = {
        p: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in tmp_path.rglob("*")
        if p.name != datadir.LOCK
    }
    assert write_study(tmp_path, "s", files) == {"written": [], "removed": []}
    assert {
        p: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in tmp_path.rglob("*")
        if p.name != datadir.LOCK
    } == before


def test_the_study_dir_is_switched_as_a_whole(tmp_path):
    write_study(tmp_path, "s", {"a.yaml": b"1\n"})
    old_dir = (tmp_path / "s").stat().st_ino
    write_study(tmp_path, "s", {"a.yaml": b"2\n"})
    assert (tmp_path / "s").stat().st_ino != old_dir  # a new directory, not edits
    assert datadir._renameat2() is not None  # this machine has the exchange


def test_no_files_removes_the_study(tmp_path):
    write_study(tmp_path, "s", {"a.yaml": b"1\n"})
    assert write_study(tmp_path, "s", {}) == {"written": [], "removed": ["a.yaml"]}
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("fail", ["_write", "_exchange", "_sync_tree"])
def test_failed_write_leaves_old_data_and_no_temp_files(tmp_path, monkeypatch, fail):
    old = {"study.yaml": b"old study\n", "series/a.yaml": b"old a\n", "series/gone.yaml": b"gone\n"}
    write_study(tmp_path, "s", old)

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(datadir, fail, full)
    new = {"study.yaml": b"new study\n", "series/a.yaml": b"new a\n", "series/b.yaml": b"new b\n"}
    with pytest.raises(
        Problem, match=r"/s: cannot write \(No space left on device\); left unchanged$"
    ):
        write_study(tmp_path, "s", new)
    assert _tree(tmp_path / "s") == old
    assert _listing(tmp_path) == ["s"]


def _count_fsyncs(monkeypatch) -> list:
    calls, real = [], os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    return calls


def test_the_new_tree_is_synced_once_before_the_switch(tmp_path, monkeypatch):
    """One syncfs(2) makes every new file durable before the switch, and the parent directory
    is fsynced after it; the lock file's record of the new tree is fsynced before it is made:
    three sync calls, however many files (it was one fsync per file and directory: 137 for the
    cloud study)."""
    files = {f"series/r{i}.json": b"{}\n" for i in range(40)} | {"study.yaml": b"s\n"}
    order, real_sync, real_switch = [], datadir._sync_tree, datadir._switch
    monkeypatch.setattr(datadir, "_sync_tree", lambda top: (order.append("sync"), real_sync(top)))
    monkeypatch.setattr(
        datadir, "_switch", lambda *a, **k: (order.append("switch"), real_switch(*a, **k))[1]
    )
    fsyncs = _count_fsyncs(monkeypatch)
    write_study(tmp_path, "s", files)
    assert order == ["sync", "switch"]
    assert len(fsyncs) == 2  # the lock file's record of the tree, the parent after the switch
    assert _tree(tmp_path / "s") == files


def test_without_syncfs_every_file_and_directory_is_fsynced(tmp_path, monkeypatch):
    monkeypatch.setattr(datadir, "_syncfs", lambda: None)
    fsyncs = _count_fsyncs(monkeypatch)
    files = {"series/a.json": b"a\n", "series/b.json": b"b\n", "study.yaml": b"s\n"}
    write_study(tmp_path, "s", files)
    # the lock's record, the files, series/ and the tree, the parent after
    assert len(fsyncs) == 1 + 3 + 2 + 1
    assert _tree(tmp_path / "s") == files


def test_a_file_name_longer_than_name_max_is_a_problem(tmp_path):
    with pytest.raises(Problem, match=r"cannot|longer than 255 bytes"):
        write_study(tmp_path, "s", {f"series/{'x' * 252}.yaml": b"1\n"})
    assert _listing(tmp_path) == []


def test_leftovers_of_a_killed_run_are_removed_or_restored(tmp_path):
    """Only the trees a killed run recorded in the lock file are touched."""
    write_study(tmp_path, "s", {"a.yaml": b"1\n"})
    s_tmp, u_tmp = ".s.tmp-" + "a1" * 8, ".u.tmp-" + "b2" * 8
    (tmp_path / s_tmp).mkdir()  # a half-built new tree
    (tmp_path / "t").mkdir()
    (tmp_path / f".u.old-{'b2' * 8}").mkdir()  # the fallback cut between its renames
    (tmp_path / f".u.old-{'b2' * 8}/a.yaml").write_bytes(b"old u\n")
    (tmp_path / "keep.txt").write_text("not ours")
    (tmp_path / datadir.LOCK).write_text(f"99999\nmade {s_tmp}\nmade {u_tmp}\n")
    with datadir.locked(tmp_path):
        pass
    assert _listing(tmp_path) == ["keep.txt", "s", "t", "u"]
    assert _tree(tmp_path / "u") == {"a.yaml": b"old u\n"}
    assert (tmp_path / datadir.LOCK).read_text() == f"{os.getpid()}\n"


def test_a_persons_files_that_look_like_leftovers_are_left_alone(tmp_path):
    """Before the lock file listed its trees, `.s2.old-1` was renamed to `s2` (a study no manifest names) and
    `.notes.tmp-draft` and `.s.old-backup/` were deleted."""
    write_study(tmp_path, "s", {"a.yaml": b"1\n"})
    (tmp_path / ".s2.old-1").mkdir()
    (tmp_path / ".s2.old-1/a.yaml").write_bytes(b"a person's\n")
    (tmp_path / ".notes.tmp-draft").write_text("draft\n")
    (tmp_path / ".s.old-backup").mkdir()
    (tmp_path / f".s.tmp-{'c3' * 8}").mkdir()  # our name, but not recorded: not ours
    before = _tree(tmp_path)
    write_study(tmp_path, "s", {"a.yaml": b"2\n"})
    with datadir.locked(tmp_path):
        pass
    assert _listing(tmp_path) == sorted(
        [".notes.tmp-draft", ".s.old-backup", f".s.tmp-{'c3' * 8}", ".s2.old-1", "s"]
    )
    assert _tree(tmp_path) == {**before, "s/a.yaml": b"2\n"}
