"""The check that docs/studies.md (or the manifest's declarations) lists every table of a study
with its columns
(tests/ingest/test_studies_ingest.py on our studies, tests/ingest/scaffold/test_scaffold.py on a scaffolded one)."""

import re
from pathlib import Path

from tests.kit import fastyaml
from tests.kit.golden import ROOT
from tests.kit.post_numbers import fast_yaml

POSTS = ROOT / "content" / "posts"


def documented_columns(
    study: str, data_dir: Path = ROOT / "data", content: Path = POSTS
) -> dict[str, str]:
    """table id -> its columns (comma list) as the docs give them: the study's section of
    docs/studies.md; for a study without one (a scaffolded study, one with declared tables
    only), docs/manifest.md's "Default tables" with `<labels>` its label columns, and the
    tables its manifest declares (`tables:`, `counters:`, `file_tables:`, `reproduction:`, `versions:`: the declaration is
    their documentation, their columns as the ingest made them). A table of a study module
    needs a section."""
    doc = (ROOT / "docs" / "studies.md").read_text()
    if f"\n## {study}\n" in doc:
        section = doc.split(f"\n## {study}\n")[1].split("\n## ")[0]
        return dict(re.findall(r"^- `([^`]+)`: `([^`]+)`$", section, re.M))
    meta = fast_yaml((data_dir / study / "study.yaml").read_text())
    man = fastyaml.load((content / study / "manifest.yaml").read_text()) or {}
    declared = {t["id"] for t in man.get("tables") or []} | {
        c["id"] for c in man.get("counters") or []
    }
    declared |= {"reproduction"} if man.get("reproduction") else set()
    query_defaults = (
        {"query-summary", "query-runs", "query-plans"} if meta.get("queries") else set()
    )
    declared |= {t["id"] for t in man.get("query_tables") or []}
    declared |= {t["id"] for t in man.get("file_tables") or []}
    for view in man.get("versions") or []:  # a `versions:` view's two tables
        declared |= {view.get("id", "versions"), f"{view.get('id', 'versions')}-extremes"}
    others = sorted(set(meta["tables"]) - {"jitter", "runs"} - query_defaults - declared)
    assert not others, (
        f"docs/studies.md has no section for {study}: only a study whose tables are the default "
        "ones (docs/manifest.md, 'Default tables', 'Query runs') or declared in its manifest may "
        f"go without; {others} come from its study module"
    )
    columns = {
        tid: ",".join(
            c["key"]
            for c in fast_yaml((data_dir / study / "tables" / f"{tid}.yaml").read_text())["columns"]
        )
        for tid in meta["tables"]
        if tid in declared
    }
    runs = fast_yaml((data_dir / study / "runs.yaml").read_text())["runs"]
    sar = {
        tid: [
            c["key"]
            for c in fast_yaml((data_dir / study / "tables" / f"{tid}.yaml").read_text())["columns"]
        ]
        for tid in ("query-runs",)
        if tid in meta["tables"]
    }
    out = columns | _default_columns(meta, runs, sar)
    return {tid: cols for tid, cols in out.items() if tid in meta["tables"]}


def _default_columns(meta: dict, runs: list[dict], sar_columns: dict) -> dict[str, str]:
    """table id -> columns of the default tables and the query tables, as docs/manifest.md's
    "Default tables" and "Query runs" give them, `<labels>` the study's label columns, `<sar>`
    the `sar_` columns among `sar_columns` (table id -> its column keys)."""
    manifest_doc = (ROOT / "docs" / "manifest.md").read_text()
    section = manifest_doc.split("\n## Default tables\n")[1].split("\n## ")[0]
    queries = manifest_doc.split("\n## Query runs (`queries:`)\n")[1].split("\n## ")[0]
    fixed = {
        "run",
        "name",
        "file",
        *(
            k
            for line in re.findall(r"`run,name,<labels>,([^`]+)`", section)
            for k in line.split(",")
        ),
    }
    labels = ",".join(
        k
        for k in meta["labels"]
        if k not in fixed and any(r["labels"].get(k) is not None for r in runs)
    )
    if len({r.get("metric") for r in runs}) > 1:  # runs of several metrics: a column says which
        labels = f"{labels},metric" if labels else "metric"
    listed = dict(re.findall(r"^- `([^`]+)`: `([^`]+)`", section, re.M))
    out = {
        tid: cols.replace("<labels>", labels) if labels else cols.replace("<labels>,", "")
        for tid, cols in listed.items()
        if tid in meta["tables"]
    }
    query_labels = ",".join((meta.get("queries") or {}).get("labels") or [])
    for tid, cols in re.findall(r"^- `(query-[a-z]+)`: `([^`]+)`", queries, re.M):
        out[tid] = (
            cols.replace("<labels>", query_labels)
            if query_labels
            else cols.replace("<labels>,", "")
        )
        if "<sar>" in cols:  # the sar means a rule's `sar:` gave, named `sar_<column>`
            sar = ",".join(k for k in sar_columns.get(tid, []) if k.startswith("sar_"))
            out[tid] = out[tid].replace("<sar>", sar) if sar else out[tid].replace("<sar>,", "")
    return out


def check_docs_tables(study: str, data_dir: Path = ROOT / "data", content: Path = POSTS) -> None:
    listed = documented_columns(study, data_dir, content)
    tables = fast_yaml((data_dir / study / "study.yaml").read_text())["tables"]
    assert sorted(listed) == sorted(tables), study
    for tid in tables:
        t = fast_yaml((data_dir / study / "tables" / f"{tid}.yaml").read_text())
        assert listed[tid] == ",".join(c["key"] for c in t["columns"]), (study, tid)
