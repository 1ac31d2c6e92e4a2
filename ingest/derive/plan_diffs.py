"""Which cells of a query plan differ from another series' plan of the same query, for the
`plans` chart (docs/charts.md): written into each plan table (`plan_diff:` in
tables/<id>.yaml) so that the template only marks them.

A plan table has the columns `query`, `runs` and `step` and a label column that is not `query`
(the first is its series, `by`, as the chart's `by` defaults to it); a plan is the rows of one
(query, series, runs), in table order, one per step. A step is matched with the other plan's
step of the same table and occurrence ("lineitem#2"), by position when the table has no
`table` column. Against a matched step a cell differs when its value does (the `table` cell:
when the nearest earlier step that both plans have is not the same one: the step moved); a
step without a match differs in every cell.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ingest.derive.tables import DerivedTable, Row

Plans = dict[str, dict[str, dict[str, list[Row]]]]  # query -> series -> runs -> steps


def add(tables: list[DerivedTable]) -> None:
    """Write `plan_diff` into every plan table of `tables`: `by`, and per query, series and
    runs, per other series and runs of the query, the keys of the cells that differ, step by
    step."""
    for t in tables:
        keys = [c["key"] for c in t["columns"]]
        labels = [c["key"] for c in t["columns"] if c["kind"] == "label" and c["key"] != "query"]
        if labels and {"query", "runs", "step"} <= set(keys):
            t["plan_diff"] = {"by": labels[0], "plans": _diffs(t["rows"], labels[0], keys)}


def _diffs(rows: list[Row], by: str, keys: list[str]) -> dict[str, Any]:
    plans: Plans = {}
    for r in rows:
        q, s, runs = (_shown(r[k]) for k in ("query", by, "runs"))
        plans.setdefault(q, {}).setdefault(s, {}).setdefault(runs, []).append(r)
    table = "table" if "table" in keys else None
    return {
        q: {
            s: {
                runs: {
                    o: {ro: _diff(steps, theirs, keys, table) for ro, theirs in variants.items()}
                    for o, variants in series.items()
                    if o != s
                }
                for runs, steps in mine.items()
            }
            for s, mine in series.items()
        }
        for q, series in plans.items()
    }


def _diff(mine: list[Row], theirs: list[Row], keys: list[str], table: str | None) -> list[Any]:
    """Per step of `mine`, the keys of its cells that differ from `theirs`."""
    km, kt = _step_keys(mine, table), _step_keys(theirs, table)
    before_m, before_t = _before(km, kt), _before(kt, km)
    out: list[list[str]] = []
    for i, step in enumerate(mine):
        if km[i] not in kt:
            out.append(list(keys))
            continue
        j = kt.index(km[i])
        other = theirs[j]
        out.append(
            [k for k in keys if (before_m[i] != before_t[j] if k == table else step[k] != other[k])]
        )
    return out


def _step_keys(steps: list[Row], table: str | None) -> list[str]:
    """Each step's key: its table and occurrence ("lineitem#2"), or its position."""
    if table is None:
        return [str(i) for i in range(len(steps))]
    seen: Counter[str] = Counter()
    out = []
    for step in steps:
        name = _shown(step[table])
        seen[name] += 1
        out.append(f"{name}#{seen[name]}")
    return out


def _before(keys: list[str], other: list[str]) -> list[str]:
    """Per step, the nearest earlier key that the other plan has too ("" when none)."""
    out, last = [], ""
    for k in keys:
        out.append(last)
        if k in other:
            last = k
    return out


def _shown(v: Any) -> str:
    """A value as the template's `string` writes it (None as '', 2.0 as 2)."""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return "" if v is None else str(v)


__all__ = ["add"]
