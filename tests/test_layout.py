"""The code's layout is its pipeline: `ls ingest` lists the steps in order, each a package
with a doc comment; no module of the ingest imports one that imports it back (directly or
through others); tests and benches import each other as packages, never through sys.path."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEPS = ("read", "parse", "join", "derive", "write", "scaffold")


def module_imports(top: Path) -> dict[str, set[str]]:
    """{module: the modules of `top` it imports}, with `from pkg import mod` read as mod."""
    files = {}
    for f in sorted(top.rglob("*.py")):
        name = ".".join(f.relative_to(top.parent).with_suffix("").parts)
        files[name.removesuffix(".__init__")] = f
    graph = {}
    for name, f in files.items():
        deps = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in files:
                deps |= {
                    f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in files else node.module
                    for a in node.names
                }
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in files}
        graph[name] = deps - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_ingest_is_laid_out_as_its_steps():
    for step in STEPS:
        init = ROOT / "ingest" / step / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text())), f"ingest/{step} has no doc comment"
    loose = sorted(p.name for p in (ROOT / "ingest").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "pipeline.py", "problems.py"]


def test_no_module_of_the_ingest_imports_itself_back():
    assert cycles(module_imports(ROOT / "ingest")) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.a import x\n")
    assert cycles(module_imports(pkg)) == [["pkg.a", "pkg.b"]]


def test_tests_and_benches_import_each_other_as_packages():
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for tree in ("tests", "bench")
        for p in sorted((ROOT / tree).rglob("*.py"))
        if "fixtures" not in p.parts and p.name != "fault_driver.py"  # run as a file
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"sys\.path\.(insert|append)|sys\.path\[", line)
    ]
    assert not found
