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
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fault_driver import tree
from golden import FIXTURES

from ingest import writer
from ingest.problems import Problem

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "fault_driver.py"
OLD, NEW = FIXTURES / "fault-study" / "old", FIXTURES / "fault-study" / "new"
STUDY = "fault-study"
CODES = {"SIGINT": 130, "SIGTERM": 143, "SIGKILL": -signal.SIGKILL}
MODES = {"exchange": {}, "fallback": {"INGEST_NO_EXCHANGE": "1"}}


def drive(root: Path, env: dict, src: Path = NEW) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, DRIVER, root, STUDY, src],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )


def steps(tmp: Path, mode: str) -> list[str]:
    """The writer's steps when replacing the old tree by the new, in order."""
    root = tmp / f"trace-{mode}"
    writer.write_study(root, STUDY, tree(OLD))
    res = drive(root, {**MODES[mode], "INGEST_FAULT": "trace"})
    assert res.returncode == 0, res.stderr
    return [line.split()[2] for line in res.stderr.splitlines()]


def state(root: Path) -> str:
    study = root / STUDY
    if not study.exists():
        return "missing"
    got = tree(study)
    return "old" if got == tree(OLD) else "new" if got == tree(NEW) else "mixed"


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name not in (STUDY, writer.LOCK))


def trials(tmp: Path, mode: str, names: list[str], action: str) -> list[dict]:
    """`trial` at every step, two at a time (each in its own data dir)."""
    with ThreadPoolExecutor(2) as pool:
        return list(
            pool.map(lambda n: trial(tmp / str(n), mode, n, action), range(1, len(names) + 1))
        )


def trial(root: Path, mode: str, n: int, action: str) -> dict:
    """Old tree written; the new one written with `action` at step `n`; then the next run's
    recovery (under the lock). Returns what was seen."""
    writer.write_study(root, STUDY, tree(OLD))
    res = drive(root, {**MODES[mode], "INGEST_FAULT": f"{n}:{action}"})
    seen = {"code": res.returncode, "err": res.stderr, "after_fault": state(root)}
    with writer.locked(root):  # what the next run does first
        pass
    seen["after_recovery"] = state(root)
    seen["leftovers"] = leftovers(root)
    return seen


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sig", CODES)
def test_a_signal_at_every_step_leaves_old_or_new(tmp_path, mode, sig):
    names = steps(tmp_path, mode)
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
        writer.write_study(root, STUDY, tree(NEW))  # the next run completes
        assert state(root) == "new" and leftovers(root) == [], where
    assert seen_states == {"old", "new"}


@pytest.mark.parametrize(
    "mode, err", [("exchange", "ENOSPC"), ("exchange", "EROFS"), ("fallback", "ENOSPC")]
)
def test_an_io_error_at_every_step_is_one_line_and_leaves_old_or_new(tmp_path, mode, err):
    names = steps(tmp_path, mode)
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


def test_second_ingest_fails_at_once_while_the_first_holds_the_lock(tmp_path):
    writer.write_study(tmp_path, STUDY, tree(OLD))
    first = subprocess.Popen(
        [sys.executable, DRIVER, tmp_path, STUDY, NEW],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "INGEST_FAULT": "1:sleep"},
    )  # holds the lock 5 s
    try:
        for _ in range(200):  # until the first has the lock
            if (tmp_path / writer.LOCK).read_text().strip() == str(first.pid):
                break
            subprocess.run(["sleep", "0.05"])
        second = drive(tmp_path, {}, OLD)
        assert second.returncode == 1
        assert second.stderr == (
            f"{tmp_path / writer.LOCK}: another ingest (pid {first.pid}) is writing to "
            f"{tmp_path}; try again when it has finished\n"
        )
        _, err = first.communicate(timeout=60)
        assert first.returncode == 0, err
    finally:
        first.kill()
        first.communicate()
    assert state(tmp_path) == "new" and leftovers(tmp_path) == []


def test_two_ingests_at_once_end_entirely_one_or_the_other(tmp_path):
    for i in range(4):
        root = tmp_path / str(i)
        writer.write_study(root, STUDY, tree(OLD))
        procs = [
            subprocess.Popen(
                [sys.executable, DRIVER, root, STUDY, src], stderr=subprocess.PIPE, text=True
            )
            for src in (NEW, OLD if i % 2 else NEW)
        ]
        errs = [p.communicate(timeout=60)[1] for p in procs]
        codes = [p.returncode for p in procs]
        assert 0 in codes and set(codes) <= {0, 1}, errs
        assert all("another ingest" in e for c, e in zip(codes, errs) if c == 1)
        assert state(root) in ("old", "new") and leftovers(root) == []


def test_lock_is_reentrant_and_refuses_a_second_holder(tmp_path):
    with writer.locked(tmp_path), writer.locked(tmp_path):
        res = drive(tmp_path, {}, NEW)
        assert res.returncode == 1 and "another ingest (pid " in res.stderr
    assert drive(tmp_path, {}, NEW).returncode == 0


def test_unwritable_data_dir_is_one_line(tmp_path):
    target = tmp_path / "file-not-dir"
    target.write_text("x")
    with pytest.raises(Problem, match=r"file-not-dir: cannot write \(not a directory\)$"):
        writer.write_study(target, STUDY, tree(NEW))
    with pytest.raises(
        Problem, match=r"file-not-dir/sub/\.ingest\.lock: cannot write \(Not a directory\)$"
    ):
        writer.write_study(target / "sub", STUDY, tree(NEW))


def _wait_for_lock(root: Path, pid: int):
    for _ in range(400):
        lock = root / writer.LOCK
        if lock.exists() and lock.read_text().strip() == str(pid):
            return
        subprocess.run(["sleep", "0.05"])
    raise AssertionError("the ingest never took the lock")


def test_command_line_ctrl_c_and_sigterm_from_outside(tmp_path):
    """The real command: a signal sent by another process while it holds the lock, then a
    SIGINT right after the switch; one true line each, exit 130/143, old-or-new, no leftovers."""
    from study_kit import make_study

    man = make_study(tmp_path)
    data = tmp_path / "data"
    cmd = [
        sys.executable,
        "-m",
        "ingest",
        "mini",
        "--content",
        tmp_path / "content",
        "--archives",
        tmp_path / "archives",
        "--data",
        data,
        "--studies",
        tmp_path / "studies",
    ]
    assert subprocess.run(cmd, cwd=ROOT, capture_output=True).returncode == 0
    old = tree(data / "mini")
    man.write_text(
        man.read_text().replace("window: {start: 1, end: 4}", "window: {start: 2, end: 4}")
    )
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        p = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "INGEST_FAULT": "1:sleep"},
        )
        try:
            _wait_for_lock(data, p.pid)
            p.send_signal(sig)
            out, err = p.communicate(timeout=60)
        finally:
            p.kill()
        assert (p.returncode, out, err) == (code, "", f"interrupted; {data / 'mini'} unchanged\n")
        assert tree(data / "mini") == old and leftovers_of(data) == []
    trace = subprocess.run(
        cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "INGEST_FAULT": "trace"}
    )
    assert trace.returncode == 0  # (it wrote the new tree: put the old one back)
    names = [line.split()[2] for line in trace.stderr.splitlines() if line.startswith("fault-step")]
    new = tree(data / "mini")
    assert new != old
    writer.write_study(data, "mini", old)
    res = subprocess.run(
        cmd,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "INGEST_FAULT": f"{names.index('switch-done') + 1}:SIGINT"},
    )
    assert (res.returncode, res.stderr) == (130, f"interrupted; {data / 'mini'} replaced\n")
    assert tree(data / "mini") == new


def leftovers_of(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name not in ("mini", writer.LOCK))
