"""The JavaScript unit tests (tests/js/*.test.mjs, Node's own runner: `node --test tests/js/`),
run in `make test`: the one CSV rule of the browser's export, the one downsampler."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "unit", sorted((ROOT / "tests" / "js").glob("*.test.mjs")), ids=lambda p: p.name
)
def test_node_unit(unit):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH")
    result = subprocess.run(
        [node, "--test", str(unit)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
