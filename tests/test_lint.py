"""The Python code is linted and formatted as pyproject.toml's [tool.ruff] says (pinned ruff), and
the tests share their helpers through helper modules and conftest.py fixtures: no test module
imports another test module or conftest."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
    for path in sorted((ROOT / "tests").rglob("*.py")):
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
                if name.rpartition(".")[2].startswith("test_") or name.endswith("conftest")
            ]
    assert not found, "\n".join(found)


MAX_LINES = 60  # a function's body, its doc comment left out (ruff's PLR0915 counts statements)


def long_functions(paths, root: Path = ROOT) -> list[str]:
    """`file:line: name is N lines` for each function whose body is over MAX_LINES lines and
    whose `def` line does not say why it is one function (`# long: <reason>`)."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            body = node.body
            doc = ast.get_docstring(node, clean=False) is not None and len(body) > 1
            first = body[1].lineno if doc else body[0].lineno
            length = node.end_lineno - first + 1
            if length > MAX_LINES and "# long: " not in lines[node.lineno - 1]:
                found.append(
                    f"{path.relative_to(root)}:{node.lineno}: {node.name} is {length} lines"
                )
    return found


def test_no_function_is_over_60_lines_without_a_reason():
    # bench/ too once its three long mains (build_bench, ingest_bench, fault_bench) are split
    paths = sorted(
        p for tree in ("ingest", "publish", "tests") for p in (ROOT / tree).rglob("*.py")
    )
    assert not long_functions(paths), "\n".join(long_functions(paths))


def test_the_length_check_finds_a_long_function_and_takes_a_reason(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES + 1))
    long = tmp_path / "long.py"
    long.write_text(f'def f():\n    """Doc."""\n{body}')
    reasoned = tmp_path / "reasoned.py"
    reasoned.write_text(f"def f():  # long: one table's columns, read top to bottom\n{body}")
    short = tmp_path / "short.py"
    short.write_text("def f():\n" + "".join(body.splitlines(True)[:MAX_LINES]))
    found = long_functions([long, reasoned, short], tmp_path)
    assert found == [f"long.py:1: f is {MAX_LINES + 1} lines"]
