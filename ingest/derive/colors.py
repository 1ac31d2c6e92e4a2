"""One colour per label value across every chart of a post: the study's colour index of each
value of each label (a run label, or a table's label column), written to study.yaml as
`colors: {label: {value: index}}`; the charts take colour `index` of the site's
colour-blind-safe palette (assets/js/palette.json), so MyRocks has one colour in the bars, the
dots and the time series alike.

The indices follow first appearance: the tables in the study's order, row by row, then the runs
in theirs. A label with one value (nothing to tell apart) or more values than the palette has
colours (they would repeat) gets none: its charts colour by position.
"""

from __future__ import annotations

from typing import Any

from ingest.derive.tables import DerivedTable
from ingest.join.records import Run

PALETTE = 8  # colours of assets/js/palette.json


def color_indices(tables: list[DerivedTable], runs: list[Run]) -> dict[str, dict[str, int]]:
    """label -> value (as a string) -> its colour index, for the labels that get colours."""
    seen: dict[str, dict[str, None]] = {}
    for t in tables:
        labels = [c["key"] for c in t["columns"] if c["kind"] == "label"]
        for row in t["rows"]:
            for key in labels:
                _add(seen, key, row.get(key))
    for run in runs:
        for key, value in run.labels.items():
            _add(seen, key, value)
    return {
        key: {v: i for i, v in enumerate(values)}
        for key, values in seen.items()
        if 2 <= len(values) <= PALETTE
    }


def _add(seen: dict[str, dict[str, None]], key: str, value: Any) -> None:
    if value is not None:
        seen.setdefault(key, {})[str(value)] = None
