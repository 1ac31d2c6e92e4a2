"""`bench/archive_bombs.py --smoke`: every hang case of the hostile-input probe,
at a small size, ends as it should within its kill time: an error at its file:line (never an
internal error, exit 3) or a clean exit. The full-size figures are in docs/performance.md,
"Hostile inputs, round four"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.bench_smoke import smoke_run

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow  # a dozen subprocesses, each an ingest or a scaffold


def test_every_hang_case_ends_as_it_should():
    out = smoke_run("archive_bombs")  # --timeout 60, its default; run once per session
    assert out.returncode == 0, out.stdout + out.stderr
    from bench.archive_bombs import HANGS

    ran = [line.split(" (n=", 1)[0] for line in out.stdout.splitlines() if " (n=" in line]
    assert ran == list(HANGS)


def test_the_scaffold_draft_bench_drafts_and_ingests():
    out = subprocess.run(
        [sys.executable, "-m", "bench.scaffold_draft", "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert [line.split(" (", 1)[0] for line in out.stdout.splitlines()] == ["new", "ingest"]
