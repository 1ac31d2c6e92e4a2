"""The check that docs/studies.md lists every table of a study with its columns
(tests/test_studies_ingest.py on our studies, tests/test_scaffold.py on a scaffolded one)."""

import re
from pathlib import Path

import yaml
from golden import ROOT


def documented_columns(study: str, data_dir: Path = ROOT / "data") -> dict[str, str]:
    """table id -> its columns (comma list) as the docs give them: the study's section of
    docs/studies.md; for a study without one (a scaffolded study), docs/manifest.md's "Default
    tables" with `<labels>` its label columns, and then its tables must be the default ones."""
    doc = (ROOT / "docs" / "studies.md").read_text()
    if f"\n## {study}\n" in doc:
        section = doc.split(f"\n## {study}\n")[1].split("\n## ")[0]
        return dict(re.findall(r"^- `([^`]+)`: `([^`]+)`$", section, re.M))
    meta = yaml.safe_load((data_dir / study / "study.yaml").read_text())
    assert sorted(meta["tables"]) == ["jitter", "runs"], (
        f"docs/studies.md has no section for {study}: only a study whose tables are the default "
        f"ones (docs/manifest.md, 'Default tables') may go without; it has {meta['tables']}"
    )
    section = (
        (ROOT / "docs" / "manifest.md")
        .read_text()
        .split("\n## Default tables\n")[1]
        .split("\n## ")[0]
    )
    runs = yaml.safe_load((data_dir / study / "runs.yaml").read_text())["runs"]
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
    listed = dict(re.findall(r"^- `([^`]+)`: `([^`]+)`", section, re.M))
    return {
        tid: cols.replace("<labels>", labels) if labels else cols.replace("<labels>,", "")
        for tid, cols in listed.items()
    }


def check_docs_tables(study: str, data_dir: Path = ROOT / "data") -> None:
    listed = documented_columns(study, data_dir)
    tables = yaml.safe_load((data_dir / study / "study.yaml").read_text())["tables"]
    assert sorted(listed) == sorted(tables), study
    for tid in tables:
        t = yaml.safe_load((data_dir / study / "tables" / f"{tid}.yaml").read_text())
        assert listed[tid] == ",".join(c["key"] for c in t["columns"]), (study, tid)
