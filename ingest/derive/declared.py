"""Derived tables declared in the manifest's `tables:` section (docs/manifest.md, "Declared
tables"): runs filtered by labels, grouped into rows by labels, window statistics of a series
column per row (or per pivot column), repeats in one cell averaged, and a ratio to a base
chosen by label. What a declaration cannot say stays in a study module.

    tables:
      - id: ratio
        title: "MyRocks / InnoDB, {start} s to {end} s"   # {start} {end}: the window; {metric}
        where: {published: true, cache_gb: [27, 54]}      # label: value or list; published: bool
        rows: [iops, cache_gb]                            # one row per combination
        order: {iops: ["5000", "10000"], cache_gb: [27, 54]}   # row order; every combination expected
        columns: {iops: IOPS tier, cache_gb: Cache GB}    # label columns' headings
        pivot: engine                                     # one value column per engine
        value: {key: "{engine}_tps", label: "{engine} TPS", stat: mean, round: 2, digits: 2, unit: tps}
        ratio: {key: ratio, label: MyRocks / InnoDB, base: {engine: innodb}, round: 4, digits: 2}

Every mistake is `manifest:line: reason`; runs that are compared (one cell, a ratio's two
sides) but differ in a label the table does not name are warnings.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from ingest.derive.checks import table_id
from ingest.derive.context import StudyContext
from ingest.derive.tables import Column, DerivedTable, Row, col
from ingest.join.records import QueryRun, Run, Series, Stats
from ingest.join.stats import DIGITS, full_mean, window_stats
from ingest.join.stats import ratio as ratio_of
from ingest.problems import Problem, clean
from ingest.read.fields import (
    Fields,
    LDict,
    LList,
    check_display,
    section_items,
    typed_label,
    unique_ids,
)
from ingest.read.records import Manifest
from ingest.read.sections import DeclaredTable

STATS = ("n", "mean", "min", "p1", "p5", "p50", "p95", "p99", "max", "cv", "rate", "full_mean")
TABLE = ("id", "title", "where", "rows", "order", "columns", "pivot", "value", "values", "ratio")
VALUE = ("key", "label", "stat", "column", "round", "digits", "unit")
RATIO = ("key", "label", "base", "of", "round", "digits")
RUN = "run"  # in `rows`: a column of the run id(s) of each row, not a grouping label
R = TypeVar("R", Run, QueryRun)  # what `where:` filters: runs or query runs


MAX_TABLES = 100  # declared tables of one manifest
MAX_VALUES = 50  # statistics (`values:`) of one table
MAX_ORDER = 10_000  # values in one `order:` list
MAX_ROWS = 100_000  # rows of one table (the combinations of its `rows:` labels' values)
MAX_DIGITS = 15  # `digits:` (shown) and `round:` (kept) of a value or a ratio: 0 to 15


def parse(
    path: str, doc: LDict, labels: list[str], label_types: dict[str, str]
) -> list[DeclaredTable]:
    """The manifest's `tables:` (none without one), checked as declarations: every error a
    table can have without the runs is found here, at load, before the archive is read."""
    items = section_items(path, doc, "tables", MAX_TABLES, "table declarations")
    specs = [
        _spec(path, labels, label_types, item, i, line) for i, (item, _, line) in enumerate(items)
    ]
    return unique_ids(path, "tables", specs)


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The tables of the manifest's `tables:` section (parsed at load: `m.tables`); warnings
    are appended to `ctx.problems`."""
    return [
        _table(ctx.manifest, ctx.runs, ctx.series, spec, ctx.problems)
        for spec in ctx.manifest.tables
    ]


def _spec(
    path: str, labels: list[str], label_types: dict[str, str], item: object, i: int, line: int
) -> DeclaredTable:
    where = f"tables[{i}]"
    v = Fields(path, item, where, line)
    v.only(TABLE)
    tid = table_id(v, where)
    where = f"{where} ({tid})"
    rows_by = v.get("rows", LList, required=True)
    for j, k in enumerate(rows_by):
        if not isinstance(k, str):
            v.fail("rows", f"{where}: rows: each entry must be a label name")
        if k in rows_by[:j]:
            v.fail("rows", f"{where}: rows: {clean(k, 40)!r} is named twice")
    with_run = RUN in rows_by and RUN not in labels
    groups = [k for k in rows_by if not (with_run and k == RUN)]
    pivot = v.get("pivot", str)
    if with_run and pivot:
        v.fail("rows", f"{where}: `{RUN}` in rows (the run ids) needs one run per row, not a pivot")
    if pivot in groups:
        v.fail("pivot", f"{where}: pivot {pivot!r} is also in rows")
    for k in groups + ([pivot] if pivot else []):
        if k not in labels:
            v.fail(
                "rows" if k != pivot else "pivot",
                f"{where}: {clean(k, 40)!r} is not one of labels ({', '.join(labels)})",
            )
    headings = dict(v.get("columns", LDict, default=LDict()))
    for k, heading in headings.items():
        if not isinstance(heading, str) or not heading.strip():
            v.fail(
                "columns",
                f"{where}: columns: {clean(str(k), 40)}: a heading must be a non-empty string",
            )
        check_display(v, "columns", heading, f"{where}: columns: {clean(str(k), 40)}")
    filters, fv = _filters(path, v, where, labels)
    spec = DeclaredTable(
        id=tid,
        title=v.get("title", str, default=tid),
        line=v.line(),
        v=v,
        where=where,
        rows_by=list(rows_by),
        groups=groups,
        with_run=with_run,
        pivot=pivot,
        headings=headings,
        values=_value_specs(path, v, where),
        filters=filters,
        fv=fv,
        ov=v,
    )
    check_display(v, "title", spec.title, f"{where}: title")
    _order(path, v, spec, label_types)
    spec.ratio = _ratio(path, v, spec)
    return spec


def _filters(path: str, v: Fields, where: str, labels: list[str]) -> tuple[dict[str, Any], Fields]:
    """`where:`: label -> a value or a list of values, or `published: true|false`; and the
    fields that name their lines (the table's own without one)."""
    if "where" not in v.d:
        return {}, v
    filters = v.get("where", LDict)
    fv = Fields(path, filters, f"{where}.where")
    for k, want in filters.items():
        if k == "published":
            if not isinstance(want, bool):
                fv.fail(k, f"{where}.where: published must be true or false")
        elif k not in labels:
            fv.fail(
                k,
                f"{where}.where: {clean(str(k), 40)!r} is not one of labels ({', '.join(labels)}) "
                f"or published",
            )
    return dict(filters), fv


def _order(path: str, v: Fields, spec: DeclaredTable, label_types: dict[str, str]) -> None:
    """`order:`: label of rows or pivot -> its values in row order, each once."""
    order = v.get("order", LDict, default=LDict())
    if "order" not in v.d:
        return
    ov = spec.ov = Fields(path, order, f"{spec.where}.order")
    keys = spec.groups + ([spec.pivot] if spec.pivot else [])
    for k, values in order.items():
        if k not in keys:
            ov.fail(k, f"{spec.where}.order: {clean(str(k), 40)!r} is not in rows or pivot")
        if not isinstance(values, list):
            ov.fail(k, f"{spec.where}.order: {k}: must be a list of values")
        if len(values) > MAX_ORDER:
            ov.fail(k, f"{spec.where}.order: {k}: more than {MAX_ORDER} values")
        typed = [typed_label(path, ov.line(k), k, x, label_types) for x in values]
        seen: set[str] = set()
        for x in typed:
            if str(x) in seen:
                ov.fail(
                    k,
                    f"{spec.where}.order: {k}: {clean(str(x), 40)!r} is listed twice "
                    "(each value is one row)",
                )
            seen.add(str(x))
        spec.order[k] = typed


def _digits(v: Fields, key: str, where: str, low: int = 0) -> int | None:
    """`digits:` or `round:`: a whole number from `low` to MAX_DIGITS, or absent."""
    x: int | None = v.get(key, int)
    if x is not None and not low <= x <= MAX_DIGITS:
        v.fail(key, f"{where}: {key} must be from {low} to {MAX_DIGITS}, not {x}")
    return x


def _ratio(path: str, v: Fields, spec: DeclaredTable) -> dict[str, Any] | None:
    """`ratio:`: key, label, base ({label: value} of rows or pivot), of, round, digits."""
    ratio = v.get("ratio", LDict)
    if ratio is None:
        return None
    where = f"{spec.where}.ratio"
    rv = Fields(path, ratio, where)
    rv.only(RATIO)
    out = {
        "key": rv.get("key", str, required=True),
        "label": rv.get("label", str, required=True),
        "round": _digits(rv, "round", where, -MAX_DIGITS),
        "digits": _digits(rv, "digits", where),
        "of": rv.get("of", str, default=spec.values[0]["key"]),
        "rv": rv,
    }
    check_display(rv, "label", out["label"], f"{where}: label")
    base = dict(rv.get("base", LDict, required=True))
    out["of_v"] = next((sv for sv in spec.values if sv["key"] == out["of"]), None)
    if out["of_v"] is None:
        rv.fail("of", f"{where}: of: {out['of']!r} is not the key of one of the values")
    keys = spec.groups + ([spec.pivot] if spec.pivot else [])
    if len(base) != 1 or next(iter(base)) not in keys:
        rv.fail("base", f"{where}: base must be one label of rows/pivot: {{label: value}}")
    bkey, bval = next(iter(base.items()))
    if spec.pivot and bkey != spec.pivot:
        rv.fail(
            "base", f"{where}: with a pivot the base is a value of the pivot label {spec.pivot!r}"
        )
    out["bkey"], out["bval"] = bkey, bval
    return out


class _Stats:
    """Statistics of runs' series columns, each computed once."""

    def __init__(self, m: Manifest, series: dict[str, Series]):
        self.m, self.series = m, series
        self.cache: dict[tuple[str, str | None], Stats] = {}

    def of(
        self, run: Run, stat: str, column: str | None, fail: Callable[[str], NoReturn]
    ) -> float | None:
        column = column or run.metric or self.m.metric
        if stat not in ("rate", "full_mean") and column == (run.metric or self.m.metric):
            return run.window[stat]  # type: ignore[no-any-return]  # as runs.yaml has them
        key = (run.id, column)
        if key not in self.cache:
            s = self.series.get(run.id) or {}
            if column not in s or column == "t":
                fail(
                    f"run {run.id} has no series column {column!r} (columns: "
                    f"{', '.join(k for k in s if k != 't')})"
                )
            t, vals = s["t"], s[column]
            w = self.m.run_window()
            weighted = run.time_weighted
            st = window_stats(t, vals, w["start"], w["end"], weighted)
            st["full_mean"] = full_mean(vals, t if weighted else None)["mean"]
            # rate: the total over the elapsed time (each interval's rate times its length, over
            # the time the intervals cover), from the series, not the tool's rounded summary
            st["rate"] = full_mean(vals, t)["mean"]
            self.cache[key] = st
        return self.cache[key][stat]  # type: ignore[no-any-return]


def _value_specs(path: str, v: Fields, where: str) -> list[dict[str, Any]]:
    """`value:` (one) or `values:` (several): key, label, stat, column, round, digits, unit."""
    if ("value" in v.d) == ("values" in v.d):
        v.fail(None, f"{where}: give `value:` (one statistic) or `values:` (a list of them)")
    if "value" in v.d:
        items, lines = [v.get("value", LDict)], [v.line("value")]
    else:
        values = v.get("values", LList)
        items, lines = values, values.item_lines
    if not items:
        v.fail("values", f"{where}: `values:` is empty")
    if len(items) > MAX_VALUES:
        v.fail("values", f"{where}: more than {MAX_VALUES} values")
    out: list[dict[str, Any]] = []
    for j, item in enumerate(items):
        name = f"{where}.value" if "value" in v.d else f"{where}.values[{j}]"
        val = Fields(path, item, name, lines[j])
        val.only(VALUE)
        stat = val.get("stat", str, required=True)
        if stat not in STATS:
            val.fail("stat", f"{name}: stat must be one of {', '.join(STATS)}")
        sv = {
            "key": val.get("key", str, required=True),
            "label": val.get("label", str, required=True),
            "stat": stat,
            "column": val.get("column", str),
            "round": _digits(val, "round", name, -MAX_DIGITS),
            "digits": _digits(val, "digits", name),
            "unit": val.get("unit", str),
            "v": val,
        }
        for k in ("key", "label", "unit"):
            if sv[k] is not None:
                check_display(val, k, sv[k], f"{name}: {k}")
        out.append(sv)
    return out


def runs_where(runs: list[R], filters: dict[str, Any]) -> list[R]:
    """The runs whose labels (or `published`) take one of each filter's values (a value or a
    list), compared as text (also for the counters' `where:`, ingest/derive/counters.py)."""

    def takes(r: R) -> bool:
        for k, want in filters.items():
            have = r.published if k == "published" else r.labels.get(k)
            if str(have) not in {str(w) for w in (want if isinstance(want, list) else [want])}:
                return False
        return True

    return [r for r in runs if takes(r)]


def _select(runs: list[Run], spec: DeclaredTable) -> list[Run]:
    """The runs the `where:` filters take; a filter value no run has, or no run taken, is an
    error at its line."""
    for k, want in spec.filters.items():
        if k == "published":
            continue
        have = {str(r.labels.get(k)) for r in runs}
        for w in want if isinstance(want, list) else [want]:
            if str(w) not in have:
                spec.fv.fail(
                    k,
                    f"{spec.where}.where: {k}: no run has the value {clean(str(w), 40)!r} (values: "
                    f"{', '.join(sorted(h for h in have if h != 'None'))})",
                )
    selected = runs_where(runs, spec.filters)
    if not selected:
        spec.v.fail(
            "where" if spec.filters else None,
            f"{spec.where}: takes no run (where: "
            f"{', '.join(f'{k}={w}' for k, w in spec.filters.items())})",
        )
    return selected


def _same_metric(selected: list[Run], values: list[dict[str, Any]], where: str) -> None:
    """A value without `column:` is of each run's metric: the runs it takes must share one, or
    one heading would stand over two quantities (LinkBench's links/s and requests/s)."""
    metrics_of = sorted({str(r.metric) for r in selected})
    for sv in values:
        if sv["column"] is None and len(metrics_of) > 1:
            sv["v"].fail(
                "stat",
                f"{where}: the runs taken have different metrics ({', '.join(metrics_of)}); "
                "give `column:` or narrow the runs with `where:`",
            )


def _differ(a: list[Run], b: list[Run], named: set[str]) -> list[str]:
    """Labels not in `named` whose values differ among the runs `a` (+ `b`): 'k (x, y)'."""
    out = []
    keys = sorted({k for r in a + b for k in r.labels} - named)
    for k in keys:
        va = sorted({str(r.labels.get(k, "none")) for r in a})
        vb = sorted({str(r.labels.get(k, "none")) for r in b}) if b else va
        if len(va) > 1 or va != vb:
            out.append(f"{k} ({', '.join(va)}" + (f" / {', '.join(vb)})" if b else ")"))
    return out


def _table(
    m: Manifest,
    runs: list[Run],
    series: dict[str, Series],
    spec: DeclaredTable,
    problems: list[Problem],
) -> DerivedTable:
    selected = _select(runs, spec)
    _same_metric(selected, spec.values, spec.where)
    t = _Table(m, spec, selected, _Stats(m, series), problems)
    title = spec.title.replace("{metric}", t.metric)
    if m.window:
        title = title.replace("{start}", f"{m.window['start']:g}").replace(
            "{end}", f"{m.window['end']:g}"
        )
    columns = t.columns()
    ratio_cols = t.ratio_columns()
    table = {
        "id": spec.id,
        "title": title,
        "columns": columns + [c for c, _ in ratio_cols],
        "rows": t.rows(ratio_cols),
        "notes": {},
    }
    return table


class _Table:
    """One declared table computed from the runs its `where:` takes."""

    def __init__(
        self,
        m: Manifest,
        spec: DeclaredTable,
        selected: list[Run],
        stats: _Stats,
        problems: list[Problem],
    ):
        self.m, self.spec, self.stats, self.problems = m, spec, stats, problems
        self.metric = str(selected[0].metric)  # {metric} in a label or the title
        self.keys = spec.groups + ([spec.pivot] if spec.pivot else [])
        self.named = set(self.keys) | set(spec.filters)
        self.domain = {k: self._domain(selected, k) for k in self.keys}
        rows = math.prod(len(self.domain[k]) for k in spec.groups)
        if rows > MAX_ROWS:
            spec.v.fail(
                "rows",
                f"{spec.where}: {rows:,} rows (every combination of "
                f"{', '.join(spec.groups)}): more than {MAX_ROWS:,}",
            )
        self.cells: dict[tuple[str, ...], list[Run]] = {}
        for r in selected:
            self.cells.setdefault(tuple(str(r.labels.get(k)) for k in self.keys), []).append(r)
        self._warn_shared_cells()
        self.pivots = self.domain[spec.pivot] if spec.pivot else [None]
        # with `run` in rows, one row per run: no cell holds repeats
        self.repeats = not spec.with_run and any(len(rs) > 1 for rs in self.cells.values())

    def _domain(self, selected: list[Run], k: str) -> list[Any]:
        """The values of a grouping label: the declared order, else numeric for int/float
        labels, else in run order."""
        seen: list[Any] = []
        for r in selected:
            x = r.labels.get(k)
            if x is not None and x not in seen:
                seen.append(x)
        if k not in self.spec.order:
            return sorted(seen) if self.m.label_types.get(k) in ("int", "float") else seen
        wanted = self.spec.order[k]
        for x in wanted:
            if str(x) not in {str(s) for s in seen}:
                self.spec.ov.fail(
                    k,
                    f"{self.spec.where}.order: {k}: no run taken has the value "
                    f"{clean(str(x), 40)!r} (values: {', '.join(map(str, seen))})",
                )
        return wanted

    def _warn_shared_cells(self) -> None:
        for key, rs in self.cells.items():
            if len(rs) > 1 and not self.spec.with_run and _differ(rs, [], self.named):
                self.problems.append(
                    Problem(
                        self.m.path,
                        self.spec.line,
                        f"{self.spec.where}: runs {', '.join(r.id for r in rs)} share the cell "
                        f"{dict(zip(self.keys, key))} and are averaged, but differ in "
                        f"{'; '.join(_differ(rs, [], self.named))}, not in rows, pivot or where",
                    )
                )

    def cell_runs(self, combo: tuple[Any, ...]) -> list[Run]:
        return self.cells.get(tuple(map(str, combo)), [])

    def value(
        self, combo: tuple[Any, ...], sv: dict[str, Any], only: Run | None = None
    ) -> float | None:
        """The statistic of the cell's run (or of `only`, one run of it), or the mean of its
        runs' statistics (repeats)."""
        got = [
            self.stats.of(
                r,
                sv["stat"],
                sv["column"],
                lambda reason: sv["v"].fail("column", f"{self.spec.where}: {reason}"),
            )
            for r in ([only] if only else self.cell_runs(combo))
        ]
        present = [x for x in got if x is not None]
        if not present:
            return None
        return present[0] if len(present) == 1 else round(math.fsum(present) / len(present), DIGITS)

    def fill(self, template: str, p: object, raw: bool) -> str:
        """`{pivot}` in a key (`raw`: the value) or a label (its display name) filled with `p`."""
        pivot = self.spec.pivot
        if p is None or pivot is None:
            return template
        shown = p if raw else self.m.display.get(pivot, {}).get(str(p), p)
        return template.replace("{" + pivot + "}", str(shown))

    def columns(self) -> list[Column]:
        spec, pivot = self.spec, self.spec.pivot
        columns = [
            col(RUN, spec.headings.get(RUN, "Run"), "label")
            if k == RUN and spec.with_run
            else col(k, spec.headings.get(k, self.m.heading(k)), "label")
            for k in spec.rows_by
        ]
        for p in self.pivots:
            for sv in spec.values:
                key = self.fill(sv["key"], p, True)
                label = self.fill(sv["label"], p, False).replace(
                    "{metric}", sv["column"] or self.metric
                )
                columns.append(col(key, label, "number", sv["digits"], sv["unit"]))
            if self.repeats:
                columns.append(
                    col(
                        f"{p}_runs" if pivot else "runs",
                        self.fill(f"{{{pivot}}} runs", p, False) if pivot else "Runs",
                        "number",
                        0,
                    )
                )
        return columns

    def ratio_columns(self) -> list[tuple[Column, object]]:
        """(column, pivot value) of each ratio to the base."""
        ratio, pivot = self.spec.ratio, self.spec.pivot
        if ratio is None:
            return []
        bkey, bval = ratio["bkey"], ratio["bval"]
        if str(bval) not in {str(x) for x in self.domain[bkey]}:
            ratio["rv"].fail(
                "base",
                f"{self.spec.where}.ratio: base: no run taken has {bkey}={clean(str(bval), 40)}",
            )
        others = [p for p in self.pivots if str(p) != str(bval)] if pivot else [None]
        out = []
        for p in others:
            k = ratio["key"]
            if pivot and (len(others) == 1 or "{" + pivot + "}" in k):
                k = k.replace("{" + pivot + "}", str(p))
            elif pivot:
                k = f"{k}_{p}"
            out.append((col(k, self.fill(ratio["label"], p, False), "ratio", ratio["digits"]), p))
        return out

    def lines(self) -> list[tuple[tuple[Any, ...], Run | None]]:
        """(combination, run) of each row: with `run` in rows, one row per run of the
        combinations that hold runs; else one row per combination (run None), a combination
        without a run kept as an empty row."""
        combos = itertools.product(*(self.domain[k] for k in self.spec.groups))
        if not self.spec.with_run:
            return [(combo, None) for combo in combos]
        return [(combo, r) for combo in combos for r in self.cell_runs(combo)]

    def rows(self, ratio_cols: list[tuple[Column, object]]) -> list[Row]:
        spec, pivot = self.spec, self.spec.pivot
        rows = []
        for combo, one in self.lines():
            row = dict(zip(spec.groups, combo))
            if spec.with_run and one is not None:
                row[RUN] = one.id
            for p in self.pivots:
                full = combo + ((p,) if pivot else ())
                for sv in spec.values:
                    x = self.value(full, sv, one)
                    if x is not None and sv["round"] is not None:
                        x = round(x, sv["round"])
                    row[self.fill(sv["key"], p, True)] = x
                if self.repeats:
                    row[f"{p}_runs" if pivot else "runs"] = len(self.cell_runs(full))
            for c, p in ratio_cols:
                row[c["key"]] = self._ratio(combo, p, one)
            rows.append(row)
        return rows

    def _ratio(self, combo: tuple[Any, ...], p: object, one: Run | None = None) -> float | None:
        """One ratio cell: the row's (or pivot column's, or the row's run `one`) value over
        the base's; a warning when the two sides differ in a label the table does not name."""
        ratio, spec = self.spec.ratio, self.spec
        if ratio is None:  # a ratio column is made only with `ratio:`
            return None
        bkey, bval = ratio["bkey"], ratio["bval"]
        if spec.pivot:
            num = combo + (p,)
            den = combo + (next(q for q in self.pivots if str(q) == str(bval)),)
        else:
            num = combo
            den = tuple(bval if k == bkey else combo[j] for j, k in enumerate(spec.groups))
        x, b = self.value(num, ratio["of_v"], one), self.value(den, ratio["of_v"])
        rnd = ratio["round"] if ratio["round"] is not None else DIGITS
        a_runs, b_runs = [one] if one else self.cell_runs(num), self.cell_runs(den)
        diff = _differ(a_runs, b_runs, self.named) if a_runs and b_runs else []
        if diff:
            self.problems.append(
                Problem(
                    self.m.path,
                    ratio["rv"].line("base"),
                    f"{spec.where}: ratio {'/'.join(r.id for r in a_runs)}"
                    f" over {'/'.join(r.id for r in b_runs)} compares runs that differ in "
                    f"{'; '.join(diff)}, not in rows, pivot or where",
                )
            )
        return ratio_of(x, b, rnd)
