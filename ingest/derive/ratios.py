"""The ratio tables of a study (`ratios:`, docs/manifest.md "Ratio tables"): for a table a
`ratio` chart draws, each cell's colour class and noise verdict against every base, written
into the table (`ratio:` in tables/<id>.yaml), so that no template or script decides them:

    ratios:
      - {table: avg-tps, row: [iops, cache_gb], col: engine, value: avg_tps, spread: runs}

`row` names the label columns of a heat-table row, `col` the column whose values become its
columns (each a possible base), `value` the number compared. `spread` says what a value's
spread is (ingest/derive/noise.py): `runs` the batch means of the run whose labels the row
has (its window), `{lo: min, hi: max}` two columns of the row (the lowest and highest of its
repeats); without `spread` a value has none and every verdict is unknown.
"""

from __future__ import annotations

from typing import Any

from ingest.derive.context import StudyContext
from ingest.derive.noise import Spread, batch_spread, legend, ratio_class, within_noise
from ingest.derive.tables import DerivedTable, Row
from ingest.join.records import Run
from ingest.join.stats import window_values
from ingest.problems import Problem
from ingest.read.fields import Fields, LDict, LList, section_items
from ingest.read.sections import RatioView

FIELDS = ("table", "row", "col", "value", "spread")
MAX_RATIOS = 100  # ratio tables of one manifest


def parse(path: str, doc: LDict) -> list[RatioView]:
    """The manifest's `ratios:` (none without one), checked as declarations."""
    items = section_items(path, doc, "ratios", MAX_RATIOS, "ratio tables")
    return [_view(path, item, where, line) for item, where, line in items]


def _view(path: str, item: object, where: str, line: int) -> RatioView:
    v = Fields(path, item, where, line)
    v.only(FIELDS)
    row = v.get("row", (str, LList), required=True)
    row = [row] if isinstance(row, str) else list(row)
    if not row or not all(isinstance(k, str) for k in row):
        v.fail("row", f"{where}: `row` must be a column key or a list of them")
    raw = v.get("spread", (str, LDict))
    spread: str | tuple[str, str] | None = None
    if isinstance(raw, str):
        if raw != "runs":
            v.fail("spread", f"{where}: `spread` must be runs or {{lo: <column>, hi: <column>}}")
        spread = raw
    elif raw is not None:
        sv = Fields(path, raw, f"{where}.spread", v.line("spread"))
        sv.only(("lo", "hi"))
        spread = (sv.get("lo", str, required=True), sv.get("hi", str, required=True))
    return RatioView(
        table=v.get("table", str, required=True),
        row=row,
        col=v.get("col", str, required=True),
        value=v.get("value", str, required=True),
        spread=spread,
        line=v.line(),
        where=where,
    )


def add(ctx: StudyContext) -> None:
    """Write each declared ratio table's `ratio:` block into its table (ctx.tables)."""
    m = ctx.manifest
    by_id = {t["id"]: t for t in ctx.tables}
    for view in m.ratios:
        t = by_id.get(view.table)
        if t is None:
            raise Problem(m.path, view.line, f"{view.where}: no table {view.table!r} in the study")
        t["ratio"] = _block(ctx, view, t)


def _block(ctx: StudyContext, view: RatioView, t: DerivedTable) -> dict[str, Any]:
    """The `ratio:` block: per base, one class and (with a spread) one verdict per table row
    (None for the base's own cells and where a side is missing)."""
    m = ctx.manifest
    kinds = {c["key"]: c["kind"] for c in t["columns"]}
    lohi = view.spread if isinstance(view.spread, tuple) else ()
    for key in (*view.row, view.col, view.value, *lohi):
        if key not in kinds:
            raise Problem(
                m.path, view.line, f"{view.where}: table {t['id']!r} has no column {key!r}"
            )
    rows: list[Row] = t["rows"]
    spreads = [_spread(ctx, view, t, r) for r in rows]
    cells: dict[tuple[Any, ...], int] = {}  # (row values..., col value) -> table row index
    for i, r in enumerate(rows):
        key = (*(r[k] for k in view.row), r[view.col])
        if key in cells:
            raise Problem(
                m.path, view.line, f"{view.where}: two rows of {t['id']!r} for {list(key)}"
            )
        cells[key] = i
    # the heat-table's grid: its columns (the `col` values) and rows (the `row` tuples), in
    # table order, and the table row of each cell (None where the table has no row)
    cols = list(dict.fromkeys(r[view.col] for r in rows))
    tuples = list(dict.fromkeys(tuple(r[k] for k in view.row) for r in rows))
    grid = [[cells.get((*tup, c)) for c in cols] for tup in tuples]
    bases: dict[str, dict[str, list[Any]]] = {}
    for base in cols:
        classes: list[int | None] = []
        noise: list[bool | None] = []
        for tup, line in zip(tuples, grid):
            b = cells.get((*tup, base))
            bv = None if b is None else rows[b][view.value]
            for c, at in zip(cols, line):
                v = None if at is None else rows[at][view.value]
                if c == base or at is None or b is None or v is None or bv is None or bv == 0:
                    classes.append(None)
                    noise.append(None)
                    continue
                verdict = within_noise(spreads[at], spreads[b])
                classes.append(ratio_class(v / bv, verdict))
                noise.append(verdict)
        bases[_shown(base)] = {"classes": classes, **({"noise": noise} if view.spread else {})}
    notes = t.get("notes") or {}
    texts = [[_note(notes, rows, at, view.value) for at in line] for line in grid]
    names = m.display
    spread_name = "/".join(lohi) if lohi else view.spread
    return {
        "row": view.row,
        "col": view.col,
        "value": view.value,
        **({"spread": spread_name} if spread_name else {}),
        "legend": legend(),  # the swatches under the heat-table and their ratios
        "cols": [_shown(c) for c in cols],
        "col_names": [_name(names, view.col, c) for c in cols],
        "rows": [[_name(names, k, v) for k, v in zip(view.row, tup)] for tup in tuples],
        "values": [[None if i is None else rows[i][view.value] for i in line] for line in grid],
        **({"texts": texts} if any(x is not None for line in texts for x in line) else {}),
        "bases": bases,  # per base, a class (and a verdict) per cell, row by row
    }


def _note(notes: dict[str, str], rows: list[Row], at: int | None, key: str) -> str | None:
    """A missing value's note (a query that did not finish says so, not n/a); None otherwise."""
    return None if at is None or rows[at][key] is not None else notes.get(f"{at}/{key}")


def _shown(v: Any) -> str:
    """A value as the site writes it (Hugo's `string`): 2.0 as 2, True as true, None as ''."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _name(display: dict[str, dict[str, Any]], key: str, v: Any) -> str:
    """A label value by its display name (study.yaml `display`), else as written."""
    return _shown(display.get(key, {}).get(_shown(v), v))


def _spread(ctx: StudyContext, view: RatioView, t: DerivedTable, r: Row) -> Spread | None:
    """A cell's spread: its row's lo/hi columns, or the window batch spread of the one
    published run whose labels the row's label columns give; None when there is none."""
    if isinstance(view.spread, tuple):
        lo, hi = (r[k] for k in view.spread)
        return (lo, hi) if lo is not None and hi is not None else None
    if view.spread != "runs":
        return None
    labels = [c["key"] for c in t["columns"] if c["kind"] not in ("number", "ratio")]
    hits = [
        run
        for run in ctx.runs
        if run.published and all(str(run.labels.get(k)) == str(r[k]) for k in labels)
    ]
    return _run_spread(ctx, hits[0]) if len(hits) == 1 else None


def _run_spread(ctx: StudyContext, run: Run) -> Spread | None:
    """The batch spread of a run's window values of its metric."""
    s = ctx.series.get(run.id) or {}
    if run.metric is None or run.metric not in s:
        return None
    w = run.window
    return batch_spread(window_values(s["t"], s[run.metric], w["start"], w["end"]))
