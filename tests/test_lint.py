"""The Python code is linted and formatted as pyproject.toml's [tool.ruff] says (pinned ruff)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUFF = [sys.executable, "-m", "ruff"]
TREES = ["ingest", "publish", "tests", "bench"]


def test_ruff_check_finds_nothing():
    done = subprocess.run([*RUFF, "check", *TREES], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_changes_nothing():
    done = subprocess.run(
        [*RUFF, "format", "--check", *TREES], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
