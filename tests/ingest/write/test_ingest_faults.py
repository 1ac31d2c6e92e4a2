"""Fault injection: a signal (SIGINT, SIGTERM, SIGKILL) or an I/O error at every step of the
study writer, in a subprocess, with the RENAME_EXCHANGE switch and with its fallback. After
each fault the study is entirely old or entirely new (never mixed), the one-line report is
true, and the next run leaves no leftovers. Also: two ingests at once, and the command line's
messages for a read-only or full disk. The fixture: tests/fixtures/fault-study/."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
from pathlib import Path

import pytest

from ingest.problems import Problem
from ingest.write import datadir
from tests.kit.fault_driver import tree
from tests.kit.fault_kit import (
    CODES,
    MODES,
    NEW,
    OLD,
    ROOT,
    STUDY,
    drive,
    driver,
    leftovers,
    state,
    steps,
    trials,
    write_study,
)

pytestmark = pytest.mark.slow  # a subprocess per fault at every step of the write


@pytest.fixture(scope="module")
def traced(tmp_path_factory) -> dict[str, list[str]]:
    """mode -> the writer's steps in order, traced once for every test of the mode."""
    tmp = tmp_path_factory.mktemp("trace")
    return {mode: steps(tmp, mode) for mode in MODES}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sig", CODES)
def test_a_signal_at_every_step_leaves_old_or_new(tmp_path, traced, mode, sig):
    names = traced[mode]
    assert {"locked", "tmpdir", "file", "switch", "switch-done", "old-removed"} <= set(names)
    assert ("aside" in names) == (mode == "fallback")
    seen_states = set()
    for n, seen in enumerate(trials(tmp_path, mode, names, sig), 1):
        root = tmp_path / f"{n}"
        where = f"{sig} at step {n} ({names[n - 1]}, {mode})"
        assert seen["code"] == CODES[sig], where + seen["err"]
        if sig != "SIGKILL":  # one true line, no traceback
            switched = names.index("switch-done") < n or names[n - 1] in (
                "switch",
                "aside",
                "switch-done",
            )
            word = "replaced" if switched else "unchanged"
            assert seen["err"] == f"interrupted; {root / STUDY} {word}\n", where
            assert seen["after_fault"] == ("new" if switched else "old"), where
        elif mode == "fallback" and names[n - 1] == "aside":
            assert seen["after_fault"] == "missing", where  # cut between the two renames...
        else:
            assert seen["after_fault"] in ("old", "new"), where
        assert seen["after_recovery"] in ("old", "new"), (
            where
        )  # ...and renamed back by the next run
        assert seen["leftovers"] == [], where
        seen_states.add(seen["after_recovery"])
        write_study(root, tree(NEW))  # the next run completes
        assert state(root) == "new" and leftovers(root) == [], where
    assert seen_states == {"old", "new"}


@pytest.mark.parametrize(
    "mode, err", [("exchange", "ENOSPC"), ("exchange", "EROFS"), ("fallback", "ENOSPC")]
)
def test_an_io_error_at_every_step_is_one_line_and_leaves_old_or_new(tmp_path, traced, mode, err):
    names = traced[mode]
    for n, seen in enumerate(trials(tmp_path, mode, names, err), 1):
        where = f"{err} at step {n} ({names[n - 1]}, {mode})"
        assert seen["code"] == 1, where
        line = seen["err"]
        assert line.count("\n") == 1 and "Traceback" not in line, where
        assert f"({os.strerror(getattr(errno, err))})" in line, where
        assert seen["after_fault"] == ("new" if "the new data is in place" in line else "old"), (
            where
        )
        assert seen["after_recovery"] == seen["after_fault"] and seen["leftovers"] == [], where


def hold(*args, **popen) -> subprocess.Popen:
    """The driver holding the lock at its first step (`locked`), once it says so."""
    pipes = {k: subprocess.PIPE for k in ("stdin", "stdout", "stderr")}
    p = driver(*args, fault="1:hold", **pipes, **popen)
    assert p.stderr.readline() == "holding at locked\n"
    return p


def test_second_ingest_fails_at_once_while_the_first_holds_the_lock(tmp_path):
    write_study(tmp_path, tree(OLD))
    first = hold("write", tmp_path, STUDY, NEW)
    try:
        second = drive(tmp_path, [], OLD)
        assert second.returncode == 1
        assert second.stderr == (
            f"{tmp_path / datadir.LOCK}: another ingest (pid {first.pid}) is writing to "
            f"{tmp_path}; try again when it has finished\n"
        )
        _, err = first.communicate(timeout=60)  # closes its stdin: it goes on
        assert first.returncode == 0, err
    finally:
        first.kill()
        first.communicate()
    assert state(tmp_path) == "new" and leftovers(tmp_path) == []


def test_two_ingests_at_once_end_entirely_one_or_the_other(tmp_path):
    for i in range(4):
        root = tmp_path / str(i)
        write_study(root, tree(OLD))
        procs = [
            driver("write", root, STUDY, src, stderr=subprocess.PIPE)
            for src in (NEW, OLD if i % 2 else NEW)
        ]
        errs = [p.communicate(timeout=60)[1] for p in procs]
        codes = [p.returncode for p in procs]
        assert 0 in codes and set(codes) <= {0, 1}, errs
        assert all("another ingest" in e for c, e in zip(codes, errs) if c == 1)
        assert state(root) in ("old", "new") and leftovers(root) == []


def test_lock_is_reentrant_and_refuses_a_second_holder(tmp_path):
    with datadir.locked(tmp_path), datadir.locked(tmp_path):
        res = drive(tmp_path, [], NEW)
        assert res.returncode == 1 and "another ingest (pid " in res.stderr
    assert drive(tmp_path, [], NEW).returncode == 0


def test_unwritable_data_dir_is_one_line(tmp_path):
    target = tmp_path / "file-not-dir"
    target.write_text("x")
    with pytest.raises(Problem, match=r"file-not-dir: cannot write \(not a directory\)$"):
        datadir.write_study(target, STUDY, tree(NEW))
    with pytest.raises(
        Problem, match=r"file-not-dir/sub/\.ingest\.lock: cannot write \(Not a directory\)$"
    ):
        datadir.write_study(target / "sub", STUDY, tree(NEW))


def test_command_line_ctrl_c_and_sigterm_from_outside(tmp_path):
    """The real command: a signal sent by another process while it holds the lock, then a
    SIGINT right after the switch; one true line each, exit 130/143, old-or-new, no leftovers."""
    from tests.kit.study_kit import make_study

    man = make_study(tmp_path)
    data = tmp_path / "data"
    args = ["mini", "--content", tmp_path / "content", "--archives", tmp_path / "archives"]
    args += ["--data", data, "--studies", tmp_path / "studies"]

    def ingest(fault=None):
        p = driver(
            "ingest", *args, fault=fault, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        out, err = p.communicate(timeout=60)
        return p.returncode, out, err

    assert ingest()[0] == 0
    old = tree(data / "mini")
    man.write_text(
        man.read_text().replace("window: {start: 1, end: 4}", "window: {start: 2, end: 4}")
    )
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        p = hold("ingest", *args, cwd=ROOT)
        try:
            p.send_signal(sig)
            out, err = p.communicate(timeout=60)
        finally:
            p.kill()
        assert (p.returncode, out, err) == (code, "", f"interrupted; {data / 'mini'} unchanged\n")
        assert tree(data / "mini") == old and leftovers_of(data) == []
    code, _, err = ingest("trace")
    assert code == 0  # (it wrote the new tree: put the old one back)
    names = [line.split()[2] for line in err.splitlines() if line.startswith("fault-step")]
    new = tree(data / "mini")
    assert new != old
    datadir.write_study(data, "mini", old)
    code, _, err = ingest(f"{names.index('switch-done') + 1}:SIGINT")
    assert (code, err) == (130, f"interrupted; {data / 'mini'} replaced\n")
    assert tree(data / "mini") == new


def leftovers_of(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name not in ("mini", datadir.LOCK))
