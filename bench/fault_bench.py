"""Fault-injection run of the study writer: counts of old / new / mixed studies
and of leftovers after a fault at every step, and after signals at random moments of a real
ingest.

    .venv/bin/python -m bench.fault_bench [--random N] [--archives DIR] [--repo DIR]
                                          [--only steps random locks] [--smoke]

`--smoke`: one trial of each kind (the first step, a random moment, the first lock layout).

1. Every step (what tests/ingest/write/test_ingest_faults.py runs): the fixture study
   tests/fixtures/fault-study/ written old, then replaced by new with SIGINT, SIGTERM, SIGKILL,
   ENOSPC or EROFS at step n of the writer, for every n, with the RENAME_EXCHANGE switch and
   with its fallback (injected from the tests' side: tests/kit/fault_driver.py).
2. Random moments: `python -m ingest myrocks-cloud-cost` (the real archive, 70 series files)
   replacing the committed data/ tree by the tree of a manifest whose window starts 1 s later,
   signalled (SIGINT, SIGTERM, SIGKILL in turn) after a random delay drawn over the write phase
   (from the trace's `tmpdir` step to its last step, timed in a traced run).
3. Hostile locks: the real ingest with a symlink (absolute, relative climbing
   out, dangling), a FIFO, a directory or a hard link at data/.ingest.lock; `--repo DIR` runs
   the ingest of another checkout (the code before a change), for before/after figures.
After each fault: the study right away (old, new, missing = the fallback cut between its two
renames), then after the next run's recovery (`datadir.locked`): old, new or MIXED, and
leftovers (anything but the study and the lock). Results: docs/manifest.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from bench import smoke  # noqa: E402
from ingest.write import datadir  # noqa: E402
from tests.kit.fault_driver import tree  # noqa: E402
from tests.kit.fault_kit import MODES, steps, trial  # noqa: E402

STUDY = "myrocks-cloud-cost"


def every_step(tmp: Path, smoke: bool = False) -> Counter:
    """Counts over a fault at every step, of each mode and action (`smoke`: at the first
    step of the first mode, SIGINT only)."""
    counts = Counter()
    for mode in list(MODES)[:1] if smoke else MODES:
        names = steps(tmp, mode)
        for action in ("SIGINT",) if smoke else ("SIGINT", "SIGTERM", "SIGKILL", "ENOSPC", "EROFS"):
            for n in range(1, 2 if smoke else len(names) + 1):
                seen = trial(tmp / f"{mode}-{action}-{n}", mode, n, action)
                counts["trials"] += 1
                counts[f"right after: {seen['after_fault']}"] += 1
                counts[f"after recovery: {seen['after_recovery']}"] += 1
                counts["leftovers after recovery"] += bool(seen["leftovers"])
                counts["traceback"] += "Traceback" in seen["err"]
    return counts


def _state(study: Path, old: dict, new: dict) -> str:
    if not study.exists():
        return "missing"
    got = tree(study)
    return "old" if got == old else "new" if got == new else "mixed"


def random_moments(tmp: Path, n: int, archives: Path) -> Counter:
    content = tmp / "content" / STUDY
    content.mkdir(parents=True)
    text = (ROOT / "content/posts" / STUDY / "manifest.yaml").read_text()
    assert "window: {start: 2000," in text
    (content / "manifest.yaml").write_text(
        text.replace("window: {start: 2000,", "window: {start: 2001,")
    )
    data = tmp / "data"
    cmd = [
        sys.executable,
        "-m",
        "ingest",
        STUDY,
        "--content",
        tmp / "content",
        "--archives",
        archives,
        "--data",
        data,
    ]
    old = tree(ROOT / "data" / STUDY)

    def reset():
        shutil.rmtree(data, ignore_errors=True)
        shutil.copytree(ROOT / "data" / STUDY, data / STUDY)

    reset()  # a traced run (tests/kit/fault_driver.py): when the write phase starts and ends
    t0 = time.monotonic()
    p = subprocess.Popen(
        [
            sys.executable,
            ROOT / "tests" / "kit" / "fault_driver.py",
            "--fault",
            "trace",
            "ingest",
            *cmd[3:],
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    marks = {}
    for line in p.stderr:
        if line.startswith("fault-step"):
            marks.setdefault(line.split()[2], time.monotonic() - t0)
    assert p.wait() == 0
    new = tree(data / STUDY)
    lo, hi = marks["tmpdir"] * 0.95, marks["old-removed"] * 1.05
    print(
        f"traced run: write phase {lo:.2f}-{hi:.2f} s of {time.monotonic() - t0:.2f} s",
        file=sys.stderr,
    )
    counts = Counter()
    rng = random.Random(11)
    sigs = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
    for i in range(n):
        reset()
        sig = sigs[i % 3]
        p = subprocess.Popen(
            cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        time.sleep(rng.uniform(lo, hi))
        p.send_signal(sig)
        _, err = p.communicate()
        counts["trials"] += 1
        counts[f"exit {p.returncode}"] += 1
        right = _state(data / STUDY, old, new)
        counts[f"right after: {right}"] += 1
        if sig != signal.SIGKILL and p.returncode in (130, 143):
            said = "replaced" if err.strip().endswith("replaced") else "unchanged"
            counts["report false"] += (said == "replaced") != (right == "new")
        with datadir.locked(data):
            pass
        counts[f"after recovery: {_state(data / STUDY, old, new)}"] += 1
        counts["leftovers after recovery"] += any(
            q.name not in (STUDY, datadir.LOCK) for q in data.iterdir()
        )
        counts["traceback"] += "Traceback" in err
    return counts


# The command line run from `--repo`, its own peak memory (VmHWM) printed last on stderr.
PROBE = """
import sys
from ingest.__main__ import main
code = main(sys.argv[1:])
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(f"peak_kb {hwm}", file=sys.stderr)
sys.exit(code)
"""
LOCK_LAYOUTS = {  # what a commit (or a person) can leave at data/.ingest.lock
    "absolute symlink": lambda lock, victim: lock.symlink_to(victim),
    "relative symlink climbing out": lambda lock, victim: lock.symlink_to(
        os.path.relpath(victim, lock.parent)
    ),
    "dangling symlink out": lambda lock, victim: lock.symlink_to(victim.with_name("created")),
    "FIFO": lambda lock, victim: os.mkfifo(lock),
    "directory": lambda lock, victim: lock.mkdir(),
    "hard link": lambda lock, victim: os.link(victim, lock),
}


def hostile_locks(tmp: Path, repo: Path, archives: Path, smoke: bool = False) -> list[dict]:
    """`python -m ingest myrocks-cloud-cost` (from `repo`) with each hostile lock
    in its data directory: exit code, first line of stderr, whether a file outside data/ was
    written (the victim truncated or a file created), seconds, peak memory."""
    rows = []
    for name, make in list(LOCK_LAYOUTS.items())[: 1 if smoke else None]:
        work = tmp / name.replace(" ", "-")
        data, victim = work / "data", work / "home" / "victim"
        victim.parent.mkdir(parents=True)
        victim.write_bytes(b"precious\n" * 100)
        shutil.copytree(ROOT / "data" / STUDY, data / STUDY)
        make(data / ".ingest.lock", victim)
        cmd = [sys.executable, "-c", PROBE, STUDY, "--content", ROOT / "content" / "posts"]
        t0 = time.monotonic()
        res = subprocess.run(
            [
                *cmd,
                "--archives",
                archives,
                "--studies",
                archives.parent / "studies",
                "--data",
                data,
            ],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONPATH": str(repo)},
        )
        err = res.stderr.splitlines()
        peak = next((int(x.split()[1]) for x in err if x.startswith("peak_kb ")), 0)
        rows.append(
            {
                "lock": name,
                "exit": res.returncode,
                "written outside": victim.read_bytes() != b"precious\n" * 100
                or victim.with_name("created").exists(),
                "s": round(time.monotonic() - t0, 2),
                "peak MB": round(peak / 1024),
                "stderr": (err[0] if err else "")[:110],
            }
        )
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--random", type=int, default=30, help="trials at random moments of a real ingest"
    )
    ap.add_argument("--archives", default=str(ROOT.parent / "shared" / "archives"))
    ap.add_argument(
        "--repo", type=Path, default=ROOT, help="the checkout whose ingest meets hostile locks"
    )
    ap.add_argument("--only", choices=("steps", "random", "locks"), nargs="*")
    smoke.add_flag(ap)
    args = ap.parse_args()
    if args.smoke:  # one trial of each kind
        args.random = 1
    only = set(args.only or ("steps", "random", "locks"))
    with tempfile.TemporaryDirectory() as tmp:
        if "locks" in only:
            print(f"## hostile data/.ingest.lock, ingest of {STUDY} from {args.repo}")
            locks = hostile_locks(Path(tmp) / "locks", args.repo, Path(args.archives), args.smoke)
            for row in locks:
                print(" | ".join(f"{k}: {v}" for k, v in row.items()))
        for key, title, run in (
            (
                "steps",
                "every step, fixture study",
                lambda: every_step(Path(tmp) / "steps", args.smoke),
            ),
            (
                "random",
                "random moments, real ingest",
                lambda: random_moments(Path(tmp) / "random", args.random, Path(args.archives)),
            ),
        ):
            if key not in only:
                continue
            counts = run()
            print(f"## {title}")
            for k in sorted(counts):
                print(f"{k:28} {counts[k]}")


if __name__ == "__main__":
    main()
