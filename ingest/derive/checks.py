"""The checks every derived table passes before it is written (docs/manifest.md, "The
study-module hook"): a slug id by the site's rule, columns with a unique key, a label and a
kind, row keys among the column keys (a missing one becomes null), unique ids across the
study, and no control character in a run's or table's text."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ingest.derive.tables import DerivedTable
from ingest.join.records import Run
from ingest.problems import Problem, clean
from ingest.read.fields import Fields
from ingest.read.records import Manifest

TABLE_KINDS = ("label", "number", "ratio", "text")
# table ids: the site's rule for table and chart ids (layouts/_partials/unique-id.html), so an
# id the ingest writes is one a shortcode accepts
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # the site's text; used with fullmatch (no "x\n")


def table_id(v: Fields, where: str, default: str | None = None) -> str:
    """A section's `id:` (required unless `default`), by the site's id rule: `file:line` else."""
    tid: str = v.get("id", str, required=default is None, default=default)
    if not TABLE_ID.fullmatch(tid):
        v.fail(
            "id",
            f"{where}: id {clean(tid, 40)!r} must be lowercase letters, digits and dashes "
            "(the site's id rule)",
        )
    return tid


# tab and line ends are text; other controls, U+2028/2029 and bidi controls (U+202E) are not
_CONTROL_TEXT = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def check_table(m: Manifest, t: DerivedTable, line: int | None = None) -> DerivedTable:
    """Validate a derived table; return it with keys in the schema's order. `line`: the
    manifest line of a declared table, named in the errors."""
    tid = t.get("id")

    def bad(reason: str) -> Problem:
        return Problem(m.path, line, f"table {clean(tid, 80)!r}: {reason}")

    if not isinstance(tid, str) or not TABLE_ID.fullmatch(tid):
        raise bad("id must be lowercase letters, digits and dashes (the site's id rule)")
    keys = []
    for c in t.get("columns", []):
        if c.get("kind") not in TABLE_KINDS or not c.get("key") or not c.get("label"):
            raise bad(f"column {c} needs key, label and kind in {TABLE_KINDS}")
        keys.append(c["key"])
    if len(set(keys)) != len(keys) or not keys:
        raise bad("column keys must be unique and non-empty")
    rows = []
    for r in t.get("rows", []):
        extra = set(r) - set(keys)
        if extra:
            raise bad(f"row has keys not in columns: {sorted(extra)}")
        rows.append({k: r.get(k) for k in keys})
    cols = [
        {k: c[k] for k in ("key", "label", "kind", "digits", "unit") if k in c}
        for c in t["columns"]
    ]
    return {
        "id": tid,
        "title": t.get("title", tid),
        "columns": cols,
        "rows": rows,
        "notes": t.get("notes") or {},
        # a versions: view's |log2 ratio| class edges (derive/versions.py), numbers only
        **({"edges": [float(e) for e in t["edges"]]} if "edges" in t else {}),
        # a versions: view's columns as its chart reads them (derive/versions.py)
        **({"view": t["view"]} if "view" in t else {}),
    }


def check_study(m: Manifest, runs: list[Run], tables: list[DerivedTable]) -> None:
    """Across the study: table ids are unique, and no run name or label, table title, label or
    cell holds a control character (ESC would reach the pages and the terminal)."""
    ids = [t["id"] for t in tables]
    if len(set(ids)) != len(ids):
        raise Problem(m.path, None, f"duplicate table ids from the study module: {ids}")
    for what, obj in [
        *((f"run {r.id}", {"id": r.id, "name": r.name, "labels": r.labels}) for r in runs),
        *((f"table {t['id']}", t) for t in tables),
    ]:
        for text in _texts(obj):
            if _CONTROL_TEXT.search(text):
                raise Problem(
                    m.path,
                    None,
                    f"{clean(what, 80)}: text {clean(text, 80)!r} has control characters",
                )


def _texts(obj: object) -> Iterator[str]:
    """Every string in a nested structure, keys included."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _texts(k)
            yield from _texts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _texts(v)
