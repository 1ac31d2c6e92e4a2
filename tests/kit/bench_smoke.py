"""A bench's `--smoke` mode run as a person runs it, `python -m bench.<name> --smoke`, at most
once per test session: tests/bench/test_smoke.py checks every bench's report, and a test beside
the code a bench measures may check more of the same run (the hostile-input probe's hang
cases) without running it again."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def smoke_run(name: str) -> subprocess.CompletedProcess:
    """The finished `python -m bench.<name> --smoke` (its exit code, stdout and stderr)."""
    node = ROOT / ".node" / "node_modules" / ".bin"  # the project's Node, as `make` puts it first
    # a short TMPDIR of its own: Chromium's socket path in it must stay under 108 bytes
    tmp = tempfile.mkdtemp(prefix="smoke-")
    env = {**os.environ, "PATH": f"{node}{os.pathsep}{os.environ['PATH']}", "TMPDIR": tmp}
    try:
        return subprocess.run(
            [sys.executable, "-m", f"bench.{name}", "--smoke"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
