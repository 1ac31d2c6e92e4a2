"""Fault injection from the tests' side (the writer has no test hook): a subprocess that wraps
the study writer's steps, in its own process only, and signals itself, raises an OSError or
holds the lock at the step asked.

    python tests/kit/fault_driver.py [--fault SPEC] [--no-exchange] write ROOT STUDY TREE
    python tests/kit/fault_driver.py [--fault SPEC] [--no-exchange] ingest ARGS...

`write` writes the files of directory TREE as ROOT/STUDY the way the command line does (its
signal handlers, its one-line report, its exit codes); `ingest` runs the command line itself
(`python -m ingest ARGS`). SPEC: `trace` prints each step on stderr (`fault-step N NAME`);
`N:ACTION` acts at the Nth step: SIGINT, SIGTERM or SIGKILL (sent to this process), an errno
name such as ENOSPC (raised as that OSError), or `hold` (says `holding at NAME` on stderr, then holds the lock until stdin closes).
`--no-exchange`: the writer's fallback switch (two renames), as where renameat2 is missing.

The steps, in order (docs/manifest.md, "Writing data/"): locked (the lock taken, before the
cleanup of leftovers), recovered, tmpdir (the new tree's directory made), file (each file
written or linked), fsynced, switch (signals blocked, before the switch), aside (between the
fallback's two renames), switch-done (before signals are unblocked), switched, old-removed.
"""

from __future__ import annotations

import argparse
import errno
import functools
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ingest import __main__ as cli  # noqa: E402
from ingest.problems import Problem  # noqa: E402
from ingest.write import datadir  # noqa: E402


def tree(top: Path) -> dict[str, bytes]:
    """{relpath: bytes} of every file under `top`."""
    return {
        p.relative_to(top).as_posix(): p.read_bytes() for p in sorted(top.rglob("*")) if p.is_file()
    }


class Faults:
    """Counts the writer's steps and acts at the one asked for."""

    def __init__(self, spec: str | None):
        self.spec, self.n, self.switched = spec, 0, False

    def step(self, name: str):
        if not self.spec:
            return
        self.n += 1
        if self.spec == "trace":
            print(f"fault-step {self.n} {name}", file=sys.stderr, flush=True)
            return
        n, _, action = self.spec.partition(":")
        if int(n) != self.n:
            return
        if action.startswith("SIG"):
            os.kill(os.getpid(), getattr(signal, action))
        elif action == "hold":  # says so on stderr, then waits for the test to close stdin
            print(f"holding at {name}", file=sys.stderr, flush=True)
            sys.stdin.read()
        else:
            code = getattr(errno, action)
            raise OSError(code, os.strerror(code))

    def install(self, exchange: bool = True):
        """Wrap the writer's functions and the os/signal calls of its switch."""
        after = {
            "_make_tmp": "tmpdir",
            "_write": "file",
            "_link_or_copy": "file",
            "_sync_tree": "fsynced",
        }
        for fn, name in after.items():
            setattr(datadir, fn, self._after(getattr(datadir, fn), name))
        recover, switch, remove = datadir.recover, datadir._switch, datadir._remove

        def recover_(*a, **k):
            self.step("locked")
            recover(*a, **k)
            self.step("recovered")

        def switch_(*a, **k):
            old = switch(*a, **k)
            self.switched = True
            self.step("switched")
            return old

        def remove_(*a, **k):
            remove(*a, **k)
            if self.switched:
                self.step("old-removed")

        datadir.recover, datadir._switch, datadir._remove = recover_, switch_, remove_
        datadir.os.rename = self._rename(os.rename)
        datadir.signal.pthread_sigmask = self._sigmask(signal.pthread_sigmask)
        if not exchange:
            datadir._renameat2 = lambda: None

    def _after(self, fn, name):
        @functools.wraps(fn)
        def wrapped(*a, **k):
            out = fn(*a, **k)
            self.step(name)
            return out

        return wrapped

    def _rename(self, rename):
        aside = []

        def wrapped(src, dst, **k):
            if aside and ".tmp-" in os.path.basename(os.fspath(src)):
                self.step("aside")  # between the fallback's two renames
            rename(src, dst, **k)
            if ".old-" in os.path.basename(os.fspath(dst)):  # the fallback's first rename
                aside.append(dst)

        return wrapped

    def _sigmask(self, sigmask):
        def wrapped(how, mask):
            if how == signal.SIG_BLOCK:
                old = sigmask(how, mask)
                self.step("switch")
                return old
            try:
                self.step("switch-done")
            finally:
                old = sigmask(how, mask)
            return old

        return wrapped


def write(root: str, study: str, spec: str, outcome: datadir.Outcome) -> int:
    files = tree(Path(spec))
    try:
        datadir.write_study(root, study, files, outcome)
    except Problem as e:
        print(e, file=sys.stderr)
        return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault")
    ap.add_argument("--no-exchange", action="store_true")
    ap.add_argument("command", choices=("write", "ingest"))
    ap.add_argument("args", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    Faults(args.fault).install(exchange=not args.no_exchange)
    if args.command == "ingest":
        return cli.main(args.args, exiting=True)
    return cli.guarded(lambda outcome: write(*args.args[:3], outcome), exiting=True)


if __name__ == "__main__":
    sys.exit(main())
