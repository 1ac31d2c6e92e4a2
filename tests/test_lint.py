"""The Python code is linted and formatted as pyproject.toml's [tool.ruff] says (pinned ruff), and
the tests share their helpers through helper modules and conftest.py fixtures: no test module
imports another test module or conftest."""

from __future__ import annotations

import ast
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


def test_no_test_module_imports_another():
    found = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [
                f"{path.name}:{node.lineno}: imports {name}"
                for name in names
                if name.startswith("test_") or name == "conftest"
            ]
    assert not found, "\n".join(found)
