"""What study modules build their tables with (shape: docs/data-schema.md, `tables/<id>.yaml`):
`table` and `col` make a table and its columns; `ratio` is a ratio that stays missing when a
side is missing or the base is 0; `one_file` and `find` pick an archive file's or a published
input's parsed table; `slug`, `carry_notes`; and the reusable table `runs_table` (the jitter
table: `defaults.jitter_table`). (A study's one published-tables input, parsed:
`ctx.published(fmt=...)`.)"""
from __future__ import annotations

import re

from .metrics import ratio  # noqa: F401  (for the study modules: one ratio rule for the ingest)
from .problems import Problem


def table(id: str, title: str, columns: list[dict], rows: list[dict], notes: dict | None = None) -> dict:
    """A derived table in the tables/<id>.yaml shape (checked when the study is written)."""
    return {"id": id, "title": title, "columns": columns, "rows": rows, "notes": notes or {}}


def col(key: str, label: str, kind: str = "number", digits: int | None = None, unit: str | None = None) -> dict:
    c = {"key": key, "label": label, "kind": kind}
    if digits is not None:
        c["digits"] = digits
    if unit is not None:
        c["unit"] = unit
    return c


def _label_cols(ctx, names: dict[str, str] | None = None) -> list[dict]:
    """Label columns of the runs, headed by `names` (label key -> reader's name) when given."""
    used = [k for k in ctx.manifest.labels if any(r["labels"].get(k) is not None for r in ctx.runs)]
    return [col(k, (names or {}).get(k, k.replace("_", " ")), "label") for k in used]


def runs_table(ctx, id: str = "runs", names: dict[str, str] | None = None) -> dict:
    """Every run (published or extra) with its labels (headed by `names`), source, window mean
    and summary check."""
    labels = _label_cols(ctx, names)
    metric = ctx.manifest.metric
    columns = [col("run", "Run", "label"), col("name", "Name", "text"), *labels,
               col("published", "Published", "text"), col("file", "File", "text"),
               col("session", "Session", "number", 0), col("intervals", "Intervals", "number", 0),
               col("window_mean", f"Window mean {metric}", "number", 2),
               col("full_mean", f"Full-run mean {metric}", "number", 2),
               col("summary", f"Tool summary {metric}", "number", 2),
               col("check_rel_diff", "Mean vs summary (rel. diff.)", "number", 4)]
    rows = []
    for r in ctx.runs:
        row = {"run": r["id"], "name": r["name"], "published": "yes" if r["published"] else "no",
               "file": r["source"]["file"], "session": r["source"]["session"], "intervals": r["intervals"],
               "window_mean": r["window"]["mean"], "full_mean": r["full"]["mean"],
               "summary": r["check"]["summary"], "check_rel_diff": r["check"]["rel_diff"]}
        row.update({c["key"]: r["labels"].get(c["key"]) for c in labels})
        rows.append(row)
    return table(id, "All runs in the archive", columns, rows)


def one_file(files: dict, pattern: str, manifest: str = "manifest.yaml"):
    """The `Parsed` of the one archive member (`ctx.files` key) that fully matches `pattern`."""
    hits = [parsed for member, parsed in files.items() if re.fullmatch(pattern, member)]
    if len(hits) != 1:
        raise Problem(manifest, None, f"files: expected one archive file matching {pattern}, found {len(hits)}")
    return hits[0]


def find(parsed, prefix: str):
    """The parsed table whose name starts with `prefix` (exactly one)."""
    hits = [t for t in parsed.tables if t.name.startswith(prefix)]
    if len(hits) != 1:
        raise Problem(parsed.file, None, f"expected one table named {prefix!r}..., found {[t.name for t in hits]}")
    return hits[0]


def slug(text: str) -> str:
    """Lower-case slug of a label ("MySQL 5.7" -> "mysql-5-7")."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def carry_notes(parsed_table, row_map: dict[int, int], col_map: dict[str, str]) -> dict:
    """Per-cell qualifiers of a parsed table re-keyed for a derived table:
    parsed row index -> derived row index (`row_map`), parsed column -> derived key (`col_map`)."""
    notes = {}
    for key, q in parsed_table.notes.items():
        i, _, c = key.partition("/")
        if int(i) in row_map and c in col_map:
            notes[f"{row_map[int(i)]}/{col_map[c]}"] = q
    return notes
