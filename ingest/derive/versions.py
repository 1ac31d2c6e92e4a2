"""The version-comparison view's data, declared in the manifest's `versions:` section
(docs/manifest.md, "Version comparison"): per facet (e.g. buffer-pool tier and workload), per
version and per X (threads, or a tier), the mean of each metric and its spread, the ratio to
a base version and its noise verdict, and the largest regressions and gains, sorted:

    versions:
      - id: versions                 # the tables `versions` and `versions-extremes`
        title: TPS and QPS per server version
        version: version             # the label that is the version
        base: "8.0.36"               # default base (the reader picks another on the page)
        order: ["5.7.44", "8.0.36"]  # version order (default: natural sort of the values)
        facets: [tier, workload]     # one panel per combination (default: one panel)
        x: threads                   # the panels' X
        metrics: {tps: TPS, qps: QPS}   # series columns (or a list: headed by their names)
        where: {published: true}     # runs taken, as in `tables:`
        top: 10                      # regressions and gains listed per metric
        table: absolute-qps          # instead of the runs: a table built before, one figure
                                     # a cell (no spread of its own; its run from the table's
                                     # `run` column, if it has one)

A cell's value is the mean over its runs of each run's window mean; its spread is the range of
those means when it has two runs or more, else its run's batch spread (ingest/derive/noise.py,
the one noise rule of every ratio); a figure from a table has none, so its verdict is unknown.
The `<id>` table holds every cell with its ratio to the base and that ratio's colour class;
the page computes the ratios to another base from the same means and spreads. `<id>-extremes`
lists the cells furthest from the base beyond noise (or of unknown noise), per metric: the
regressions first, the largest first, then the gains; prose quotes them with `value`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from ingest.derive.checks import table_id
from ingest.derive.context import StudyContext
from ingest.derive.declared import runs_where
from ingest.derive.noise import (
    EDGES,
    Spread,
    batch_spread,
    ratio_class,
    repeat_spread,
    within_noise,
)
from ingest.derive.tables import Column, DerivedTable, Row, col, table
from ingest.join.stats import DIGITS, ratio, window_values
from ingest.problems import Problem, clean
from ingest.read.fields import Fields, LDict, LList, check_display, section_items
from ingest.read.sections import VersionsView

FIELDS = (
    "id",
    "title",
    "version",
    "base",
    "order",
    "facets",
    "x",
    "metrics",
    "where",
    "top",
    "table",
)
MAX_VIEWS = 20  # versions: entries of one manifest
MAX_TOP = 100  # regressions and gains listed per metric
TOP = 10  # the default
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")  # a label, series column or table column
Key = tuple[tuple[Any, ...], str, Any]  # (facet values, version, x)


def parse(path: str, doc: LDict, labels: list[str]) -> list[VersionsView]:
    """The manifest's `versions:` (none without one), checked as declarations: names are
    labels (or, with `table:`, checked against that table's columns when it is built)."""
    items = section_items(path, doc, "versions", MAX_VIEWS, "version views")
    views = [_spec(path, item, where, line, labels) for item, where, line in items]
    seen: dict[str, int] = {}
    for view in views:
        for tid in (view.id, f"{view.id}-extremes"):
            if tid in seen:
                raise Problem(path, view.line, f"versions: id {tid!r} is already used")
            seen[tid] = view.line
    return views


def _names(v: Fields, key: str, where: str, default: list[str]) -> list[str]:
    raw = v.get(key, LList, default=LList(default))
    if not all(isinstance(x, str) and NAME.fullmatch(x) for x in raw) or len(set(raw)) < len(raw):
        v.fail(key, f"{where}: {key} must be a list of distinct label names")
    return list(raw)


def _spec(path: str, item: object, where: str, line: int, labels: list[str]) -> VersionsView:
    v = Fields(path, item, where, line)
    v.only(FIELDS)
    vid = table_id(v, where, default="versions")
    where = f"{where} ({vid})"
    title = v.get("title", str)
    if title is not None:
        check_display(v, "title", title, f"{where}: title")
    version = v.get("version", str, required=True)
    x = v.get("x", str, required=True)
    facets = _names(v, "facets", where, [])
    table = v.get("table", str)
    if table is None:
        for key, name in [("version", version), ("x", x), *(("facets", f) for f in facets)]:
            if name not in labels:
                v.fail(
                    key, f"{where}: {clean(name, 40)!r} is not one of labels ({', '.join(labels)})"
                )
    if len({version, x, *facets}) < 2 + len(facets):
        v.fail("facets", f"{where}: version, x and facets must be different labels")
    raw = v.get("metrics", (LList, LDict), required=True)
    metrics = dict(raw) if isinstance(raw, LDict) else {m: m for m in raw}
    if not metrics or not all(
        isinstance(k, str) and NAME.fullmatch(k) and isinstance(h, str) and h.strip()
        for k, h in metrics.items()
    ):
        v.fail("metrics", f"{where}: metrics must name columns (a list, or column: heading)")
    for k, h in metrics.items():
        check_display(v, "metrics", h, f"{where}: metrics: {k}")
    order = v.get("order", LList)
    if order is not None and len({str(o) for o in order}) < len(order):
        v.fail("order", f"{where}: order lists a version twice")
    top = v.get("top", int, default=TOP)
    if not 1 <= top <= MAX_TOP:
        v.fail("top", f"{where}: top must be from 1 to {MAX_TOP}")
    filters = dict(v.get("where", LDict, default=LDict()))
    if table is not None and filters:
        v.fail("where", f"{where}: `where` takes runs; a view of a table takes its rows whole")
    for k in filters:
        if k != "published" and k not in labels:
            v.fail("where", f"{where}: where: {clean(str(k), 40)!r} is not one of labels")
    base = v.get("base", (str, int, float))
    return VersionsView(
        id=vid,
        title=title,
        line=v.line(),
        where=where,
        version=version,
        base=None if base is None else str(base),
        order=None if order is None else [str(o) for o in order],
        facets=facets,
        x=x,
        metrics=metrics,
        filters=filters,
        table=table,
        top=top,
        lines={k: v.line(k) for k in FIELDS},
    )


def build(ctx: StudyContext) -> list[DerivedTable]:
    """For each `versions:` entry its two tables, `<id>` and `<id>-extremes`."""
    out: list[DerivedTable] = []
    for view in ctx.manifest.versions:
        cells = _from_table(ctx, view) if view.table else _from_runs(ctx, view)
        versions = _order(ctx, view, {k[1] for k in cells})
        base = view.base if view.base is not None else versions[0]
        if base not in versions:
            raise Problem(
                ctx.manifest.path,
                view.lines["base"],
                f"{view.where}: base {clean(base, 40)!r} is not a version of the view "
                f"({', '.join(versions)})",
            )
        rows = _rows(view, cells, versions, base)
        heading = _headings(ctx, view)
        out += [_cells_table(view, rows, base, heading), _extremes(view, rows, base, heading)]
    return out


Cell = dict[str, Any]  # runs: [run ids]; metric -> (mean, spread or None)


def _from_runs(ctx: StudyContext, view: VersionsView) -> dict[Key, Cell]:
    """Each cell's runs and, per metric, the mean of their window means and their spread."""
    m = ctx.manifest
    taken = [
        r for r in runs_where(ctx.runs, view.filters) if r.labels.get(view.version) is not None
    ]
    if not taken:
        raise Problem(m.path, view.line, f"{view.where}: no run has the label {view.version!r}")
    w = m.run_window()
    groups: dict[Key, list[str]] = {}
    for r in taken:
        key: Key = (
            tuple(r.labels.get(f) for f in view.facets),
            str(r.labels[view.version]),
            r.labels.get(view.x),
        )
        groups.setdefault(key, []).append(r.id)
    cells: dict[Key, Cell] = {}
    for key, ids in groups.items():
        cell: Cell = {"runs": ids}
        for metric in view.metrics:
            windows = [
                [v for v in window_values(s["t"], s[metric], w["start"], w["end"]) if v is not None]
                if metric in (s := ctx.series.get(i, {}))
                else []
                for i in ids
            ]
            means = [math.fsum(vals) / len(vals) for vals in windows if vals]
            if not means:
                cell[metric] = (None, None)
                continue
            spread = repeat_spread(list(means)) if len(means) > 1 else batch_spread(windows[0])
            cell[metric] = (math.fsum(means) / len(means), spread)
        cells[key] = cell
    return cells


def _from_table(ctx: StudyContext, view: VersionsView) -> dict[Key, Cell]:
    """Each cell's one figure from a table built before (no spread), and its run when the
    table has a `run` column of run ids (the default `runs` table, a study module's)."""
    m = ctx.manifest
    found = [t for t in ctx.tables if t["id"] == view.table]
    if not found:
        raise Problem(
            m.path,
            view.lines["table"],
            f"{view.where}: no table {clean(view.table, 40)!r} is built before it",
        )
    t = found[0]
    keys = {c["key"] for c in t["columns"]}
    for field, names in [
        ("version", [view.version]),
        ("x", [view.x]),
        ("facets", view.facets),
        ("metrics", list(view.metrics)),
    ]:
        for name in names:
            if name not in keys:
                raise Problem(
                    m.path,
                    view.lines[field],
                    f"{view.where}: {name!r} is not a column of table {view.table!r} "
                    f"({', '.join(sorted(keys))})",
                )
    cells: dict[Key, Cell] = {}
    for row in t["rows"]:
        if row.get(view.version) is None:
            continue
        key = (tuple(row.get(f) for f in view.facets), str(row[view.version]), row.get(view.x))
        if key in cells:
            raise Problem(
                m.path,
                view.lines["table"],
                f"{view.where}: table {view.table!r} has two rows for {key}: add the label "
                "that tells them apart to facets",
            )
        # a table of runs names each row's run: the chart links it like a run's cell
        runs = [row["run"]] if row.get("run") is not None else []
        cells[key] = {"runs": runs, **{k: (row.get(k), None) for k in view.metrics}}
    return cells


def version_key(text: str) -> list[tuple[int, Any]]:
    """Natural order: 5.7.44 < 8.0.4 < 8.0.36 < 10.11.6 (digit runs compared as numbers)."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", text)]


def _order(ctx: StudyContext, view: VersionsView, have: set[str]) -> list[str]:
    """The versions in `order:` (each one a run has), else in natural order."""
    if view.order is None:
        return sorted(have, key=version_key)
    missing = [o for o in view.order if o not in have]
    if missing:
        raise Problem(
            ctx.manifest.path,
            view.lines["order"],
            f"{view.where}: order: no cell has the version(s) {', '.join(missing)}",
        )
    return view.order + sorted(have - set(view.order), key=version_key)


def _natural(value: Any) -> tuple[int, Any]:
    """A label value's place: numbers by value, then text in natural order, missing last."""
    if isinstance(value, (int, float)):
        return (0, value)
    return (1, version_key(value)) if value is not None else (2, 0)


def _rows(view: VersionsView, cells: dict[Key, Cell], versions: list[str], base: str) -> list[Row]:
    """One row per cell: facets, then versions, then X, each in natural order, unless a
    table gave the cells (its row order kept for the facets: the author's)."""
    facets = list(dict.fromkeys(k[0] for k in cells))
    if not view.table:
        facets.sort(key=lambda f: [_natural(v) for v in f])
    xs = sorted({k[2] for k in cells}, key=_natural)
    rows = []
    for f in facets:
        for ver in versions:
            for x in xs:
                cell = cells.get((f, ver, x))
                if cell is None:
                    continue
                base_cell = cells.get((f, base, x))
                row: Row = {**dict(zip(view.facets, f)), "version": ver, "x": x, "base": base}
                row["runs"] = len(cell["runs"]) if cell["runs"] else None
                row["run"] = cell["runs"][0] if cell["runs"] else None
                for metric in view.metrics:
                    mean, spread = cell[metric]
                    bmean, bspread = base_cell[metric] if base_cell else (None, None)
                    r = ratio(mean, bmean)
                    noise = within_noise(spread, bspread) if ver != base else None
                    row |= {
                        metric: _round(mean),
                        f"{metric}_lo": _round(spread[0]) if spread else None,
                        f"{metric}_hi": _round(spread[1]) if spread else None,
                        f"{metric}_ratio": r,
                        f"{metric}_class": ratio_class(r, noise) if ver != base else None,
                        f"{metric}_noise": _verdict(noise, spread, bspread, r, ver == base),
                    }
                rows.append(row)
    return rows


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, DIGITS)


def _verdict(
    noise: bool | None, a: Spread | None, b: Spread | None, r: float | None, is_base: bool
) -> str | None:
    """The noise verdict in words: the base's own row and a missing ratio have none."""
    if is_base or r is None:
        return None
    if noise is None:
        return "unknown" if a is None or b is None else None
    return "within noise" if noise else "beyond noise"


def _headings(ctx: StudyContext, view: VersionsView) -> Callable[[str], str]:
    """A name's heading: the source table's column label, else the manifest's for a label."""
    if view.table:
        t = next(t for t in ctx.tables if t["id"] == view.table)
        labels = {c["key"]: c["label"] for c in t["columns"]}
        return lambda name: labels.get(name, name)
    return ctx.manifest.heading


def _cells_table(
    view: VersionsView, rows: list[Row], base: str, heading: Callable[[str], str]
) -> DerivedTable:
    metric_cols: list[Column] = []
    for k, head in view.metrics.items():
        metric_cols += [
            col(k, head, "number", 2),
            col(f"{k}_lo", f"{head} spread, low", "number", 2),
            col(f"{k}_hi", f"{head} spread, high", "number", 2),
            col(f"{k}_ratio", f"{head} / base {base}", "ratio", 2),
            col(f"{k}_class", f"{head} ratio class", "number", 0),
            col(f"{k}_noise", f"{head} ratio vs noise", "text"),
        ]
    columns = [
        *(col(f, heading(f), "label") for f in view.facets),
        col("version", heading(view.version), "label"),
        _x_col(heading(view.x), rows),
        col("base", "Base version", "label"),
        col("runs", "Runs", "number", 0),
        col("run", "Run", "label"),
        *metric_cols,
    ]
    title = view.title or f"{' and '.join(view.metrics.values())} per {heading(view.version)}"
    cells = table(view.id, title, columns, rows)
    cells["edges"] = list(EDGES)  # |log2 ratio| edges: the browser classes a base it is given
    cells["view"] = _view(view, columns)
    return cells


def _view(view: VersionsView, columns: list[Column]) -> dict[str, Any]:
    """What the versions chart reads of the cells table besides its rows (docs/data-schema.md):
    the facet columns and their headings, the version and x headings, whether x is a number,
    each metric's key, heading and digits."""
    by_key = {c["key"]: c for c in columns}
    return {
        "facets": list(view.facets),
        "facet_titles": [by_key[f]["label"] for f in view.facets],
        "version_title": by_key["version"]["label"],
        "x_title": by_key["x"]["label"],
        "x_numbers": by_key["x"]["kind"] == "number",
        "metrics": [
            {"key": k, "label": by_key[k]["label"], "digits": by_key[k]["digits"]}
            for k in view.metrics
        ],
    }


def _x_col(heading: str, rows: list[Row]) -> Column:
    nums = all(isinstance(r["x"], (int, float)) for r in rows if r["x"] is not None)
    return col("x", heading, "number", 0) if nums else col("x", heading, "label")


def _extremes(
    view: VersionsView, rows: list[Row], base: str, heading: Callable[[str], str]
) -> DerivedTable:
    """Per metric, the `top` largest regressions then gains against the base, beyond noise or
    of unknown noise (a cell within noise is no difference)."""
    out: list[Row] = []
    for metric in view.metrics:
        moved = [
            r
            for r in rows
            if r[f"{metric}_ratio"] is not None
            and r["version"] != base
            and r[f"{metric}_noise"] != "within noise"
            and r[f"{metric}_ratio"] != 1
        ]
        losses = sorted(
            (r for r in moved if r[f"{metric}_ratio"] < 1), key=lambda r: r[f"{metric}_ratio"]
        )
        gains = sorted(
            (r for r in moved if r[f"{metric}_ratio"] > 1), key=lambda r: -r[f"{metric}_ratio"]
        )
        for direction, picked in (("regression", losses), ("gain", gains)):
            for rank, r in enumerate(picked[: view.top], 1):
                out.append(
                    {
                        "metric": metric,
                        "direction": direction,
                        "rank": rank,
                        **{f: r[f] for f in view.facets},
                        "version": r["version"],
                        "x": r["x"],
                        "base": base,
                        "ratio": r[f"{metric}_ratio"],
                        "value": r[metric],
                        "noise": r[f"{metric}_noise"],
                        "run": r["run"],
                    }
                )
    columns = [
        col("metric", "Metric", "label"),
        col("direction", "Regression or gain", "label"),
        col("rank", "Rank", "number", 0),
        *(col(f, heading(f), "label") for f in view.facets),
        col("version", heading(view.version), "label"),
        _x_col(heading(view.x), rows),
        col("base", "Base version", "label"),
        col("ratio", "Ratio to the base", "ratio", 2),
        col("value", "Value", "number", 2),
        col("noise", "Ratio vs noise", "text"),
        col("run", "Run", "label"),
    ]
    title = f"Largest regressions and gains against {base}"
    return table(f"{view.id}-extremes", title, columns, out)
