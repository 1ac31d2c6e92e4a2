"""The fault trials of the data writer, shared by tests/ingest/write/test_ingest_faults.py and
bench/fault_bench.py: a study's old tree written, then the new one written by
tests/kit/fault_driver.py in a subprocess with a fault at one of its steps, then what the next
run's recovery leaves (`trial`); `steps` lists the writer's steps in order."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ingest.write import datadir
from tests.kit.fault_driver import tree
from tests.kit.golden import FIXTURES

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "kit" / "fault_driver.py"
OLD, NEW = FIXTURES / "fault-study" / "old", FIXTURES / "fault-study" / "new"
STUDY = "fault-study"
CODES = {"SIGINT": 130, "SIGTERM": 143, "SIGKILL": -signal.SIGKILL}
MODES = {"exchange": [], "fallback": ["--no-exchange"]}
# Trials run two at a time in threads of this process, which also holds locks (write_study,
# locked): a subprocess forked while another thread has a lock file open would hold that lock
# until it execs. So this process's lock holding and its spawns take turns.
SPAWN = threading.Lock()


def driver(*args, fault: str | None = None, **popen) -> subprocess.Popen:
    cmd = [sys.executable, DRIVER, *(["--fault", fault] if fault else []), *map(str, args)]
    with SPAWN:
        return subprocess.Popen(cmd, text=True, **popen)


def drive(root: Path, opts: list, src: Path = NEW, fault=None) -> subprocess.CompletedProcess:
    p = driver(
        *opts,
        "write",
        root,
        STUDY,
        src,
        fault=fault,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def write_study(root: Path, files: dict):
    with SPAWN:
        datadir.write_study(root, STUDY, files)


def steps(tmp: Path, mode: str) -> list[str]:
    """The writer's steps when replacing the old tree by the new, in order."""
    root = tmp / f"trace-{mode}"
    write_study(root, tree(OLD))
    res = drive(root, MODES[mode], fault="trace")
    assert res.returncode == 0, res.stderr
    return [line.split()[2] for line in res.stderr.splitlines()]


def state(root: Path) -> str:
    study = root / STUDY
    if not study.exists():
        return "missing"
    got = tree(study)
    return "old" if got == tree(OLD) else "new" if got == tree(NEW) else "mixed"


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name not in (STUDY, datadir.LOCK))


def trials(tmp: Path, mode: str, names: list[str], action: str) -> list[dict]:
    """`trial` at every step, two at a time (each in its own data dir)."""
    with ThreadPoolExecutor(2) as pool:
        return list(
            pool.map(lambda n: trial(tmp / str(n), mode, n, action), range(1, len(names) + 1))
        )


def trial(root: Path, mode: str, n: int, action: str) -> dict:
    """Old tree written; the new one written with `action` at step `n`; then the next run's
    recovery (under the lock). Returns what was seen."""
    write_study(root, tree(OLD))
    res = drive(root, MODES[mode], fault=f"{n}:{action}")
    seen = {"code": res.returncode, "err": res.stderr, "after_fault": state(root)}
    with SPAWN, datadir.locked(root):  # what the next run does first
        pass
    seen["after_recovery"] = state(root)
    seen["leftovers"] = leftovers(root)
    return seen
