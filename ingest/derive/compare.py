"""What the compare page shows of a study (compare.yaml, docs/data-schema.md): each run's labels
by their display names and its window cut at the run's end, each query-summary row's key and
series; so that the page's template only looks them up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ingest.derive.tables import Row
from ingest.join.records import Record

Display = dict[str, dict[str, Any]]  # label -> value (as text) -> shown name


@dataclass(frozen=True)
class QueryRows:
    """A query study's `query-summary` rows, its suite (else its name) and label columns."""

    suite: str
    labels: list[str]
    rows: list[Row]


def compare_doc(
    records: list[Record], display: Display, queries: QueryRows | None = None
) -> dict[str, Any]:
    """compare.yaml: `runs` by run id, `queries` one per `query-summary` row, in its order."""
    return {
        "runs": {r["id"]: _run(r, display) for r in records},
        "queries": _queries(queries, display) if queries else [],
    }


def _queries(q: QueryRows, display: Display) -> list[dict[str, str]]:
    """Each row's key `<suite>/<query>` and its series (its labels by their display names)."""
    return [
        {
            "key": f"{_escaped(q.suite)}/{_escaped(text(row.get('query')))}",
            "series": ", ".join(_shown(display, k, row.get(k)) for k in q.labels),
        }
        for row in q.rows
    ]


def _run(rec: dict[str, Any], display: Display) -> dict[str, Any]:
    """A run's `label=value` pairs by key (display names), those names by label, its window
    as drawn (`[start, end]`, the end never past the run's end; null without a window),
    whether it has a series to overlay, at which resolution (runs.yaml `series`)."""
    labels = rec.get("labels") or {}
    shown = {k: _shown(display, k, labels[k]) for k in sorted(labels)}
    w = rec.get("window")
    end_s = rec.get("end_s")
    window = None
    if w:
        window = [w["start"], end_s if end_s and end_s < w["end"] else w["end"]]
    resolution = (rec.get("series") or {}).get("resolution", "full")
    return {
        "labels": [f"{k}={v}" for k, v in shown.items()],
        "shown": shown,
        "window": window,
        "overlay": bool(rec.get("intervals")) and resolution != "dropped",
        "resolution": resolution,
    }


def _shown(display: Display, label: str, value: Any) -> str:
    """A label value's display name (the manifest's `display:`), else the value as text."""
    return str((display.get(label) or {}).get(text(value)) or text(value))


def text(value: Any) -> str:
    """A value as the templates print it: "" for none, `true`/`false`, else str()."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _escaped(part: str) -> str:
    """A query key's part with `%` and `/` escaped, so that suite `TPC-H/1` query `9` and
    suite `TPC-H` query `1/9` stay two keys."""
    return part.replace("%", "%25").replace("/", "%2F")
