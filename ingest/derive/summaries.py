"""Summaries a post shows as they are (docs/data-schema.md): counts and groupings over a study's
rows, computed once here so that the templates only render them (their sentences are
i18n/en.toml's). Today: the reproduction check's `summary` (tables/reproduction.yaml), which the
`reproduction` shortcode renders.
"""

from __future__ import annotations

from typing import Any

from ingest.derive.reproduction import AGREES, TABLE_ID
from ingest.derive.tables import DerivedTable, Row
from ingest.join.records import Run

# a verdict's key in the summary: "not comparable" -> not_comparable (a name templates can read)
COUNTS = {a: a.replace(" ", "_") for a in AGREES}
EXPLAINED = 3  # the post says why cells differ when at most this many reasons cover them


def with_summaries(tables: list[DerivedTable], runs: list[Run]) -> list[DerivedTable]:
    """The study's tables, the reproduction table with its `summary` (the others as they are)."""
    return [
        {**t, "summary": reproduction(t["rows"], from_runs=bool(runs))}
        if t["id"] == TABLE_ID
        else t
        for t in tables
    ]


def reproduction(rows: list[Row], from_runs: bool) -> dict[str, Any]:
    """What the reproduction check found, for the post: how many published figures were
    compared and with what (`from`: `runs`, the values derived from the raw runs, or `inputs`,
    from the study's other inputs), the cells per verdict, the reasons of the cells that differ
    or are not comparable with their counts (a cell's `cause`, when the manifest names one,
    else its `reason`; first seen first; `reasons` is empty when more than EXPLAINED reasons
    cover them and some have no cause: each cell says its own), the same counts per compared
    table (in order), and the cells that are not exact, one entry each; with the columns of the
    post's tables of them, where the post shows them (`_columns`)."""
    unexplained = [r for r in rows if r["agrees"] in ("differs", "not comparable")]
    reasons: dict[str, int] = {}
    for r in unexplained:
        why = r.get("cause") or r["reason"] or "no reason given"
        reasons[why] = reasons.get(why, 0) + 1
    caused = all(r.get("cause") for r in unexplained)
    names = list(dict.fromkeys(r["table"] for r in rows))
    summary: dict[str, Any] = {
        "compared": len(rows),
        "from": "runs" if from_runs else "inputs",
        **_counts(rows),
        "unexplained": len(unexplained),
        "reasons": (
            [{"reason": k, "cells": n} for k, n in reasons.items()]
            if len(reasons) <= EXPLAINED or caused
            else []
        ),
        "tables": [
            {"table": name, "compared": len(these), **_counts(these)}
            for name in names
            for these in [[r for r in rows if r["table"] == name]]
        ],
        "not_exact": _not_exact(rows),
    }
    return {**summary, **_columns(summary, several=len(names) > 1)}


def _columns(s: dict[str, Any], several: bool) -> dict[str, list[dict[str, str]]]:
    """The columns of the post's tables (each heading an i18n key): `table_columns`, the counts
    per table, when several tables were compared (`not_comparable` only when some cells are);
    `cell_columns`, the cells that are not exact, unless there are none or the one reason of
    the post's second sentence covers every one of them."""
    out: dict[str, list[dict[str, str]]] = {}
    table = [_column("table", "label")] if several else []
    if several:
        counts = ["compared", *COUNTS.values()]
        shown = [k for k in counts if k != "not_comparable" or s["not_comparable"]]
        out["table_columns"] = table + [_column(k, "number") for k in shown]
    covered = len(s["reasons"]) == 1 and s["unexplained"] == len(s["not_exact"])
    if s["not_exact"] and not covered:
        cells = ("cell", "published", "derived", "agrees", "why")
        out["cell_columns"] = table + [
            _column(k, "label" if k == "agrees" else "text") for k in cells
        ]
    return out


def _column(key: str, kind: str) -> dict[str, str]:
    return {"key": key, "i18n": f"reproduction-col-{key}", "kind": kind}


def _counts(rows: list[Row]) -> dict[str, int]:
    return {key: sum(1 for r in rows if r["agrees"] == a) for a, key in COUNTS.items()}


def _not_exact(rows: list[Row]) -> list[dict[str, Any]]:
    """The cells that are not exact, in order, one entry each, as the post's table shows them:
    `derived_text` is the derived value at the published decimals plus two (None without one),
    `why` is the cell's cause when the manifest names one, else its reason."""
    return [
        {
            **{k: r[k] for k in ("table", "cell", "published", "derived", "digits", "agrees")},
            "derived_text": _text(r["derived"], (r["digits"] or 0) + 2),
            "why": r.get("cause") or r["reason"],
        }
        for r in rows
        if r["agrees"] != "exact"
    ]


def _text(v: float | None, digits: int) -> str | None:
    return None if v is None else f"{float(v):.{digits}f}"


__all__ = ["reproduction", "with_summaries"]
