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

from . import metrics
from .checks import TABLE_ID, check_table
from .manifest import _V, InputError, LDict, LList, Manifest, _typed, load_yaml
from .problems import Problem, clean
from .tables import col

STATS = ("n", "mean", "min", "p1", "p5", "p50", "p95", "p99", "max", "cv", "rate", "full_mean")
TABLE = ("id", "title", "where", "rows", "order", "columns", "pivot", "value", "values", "ratio")
VALUE = ("key", "label", "stat", "column", "round", "digits", "unit")
RATIO = ("key", "label", "base", "of", "round", "digits")
RUN = "run"  # in `rows`: a column of the run id(s) of each row, not a grouping label


def build(m: Manifest, runs: list[dict], series: dict[str, dict], problems: list) -> list[dict]:
    """The tables of the manifest's `tables:` section (none without one), each carrying its
    manifest `line`; warnings are appended to `problems`."""
    doc = load_yaml(m.path)
    specs = doc.get("tables")
    if specs is None:
        return []
    if not isinstance(specs, LList):
        raise InputError(
            m.path, doc.key_lines["tables"], "tables: must be a list of table declarations"
        )
    out, lines = [], {}
    for i, spec in enumerate(specs):
        t = _table(m, runs, series, spec, i, problems)
        if t["id"] in lines:
            raise InputError(
                m.path,
                t["line"],
                f"tables[{i}]: id {t['id']!r} is already the id of the table "
                f"at line {lines[t['id']]}",
            )
        lines[t["id"]] = t["line"]
        out.append(t)
    return out


class _Stats:
    """Statistics of runs' series columns, each computed once."""

    def __init__(self, m: Manifest, series: dict[str, dict]):
        self.m, self.series, self.cache = m, series, {}

    def of(self, run: dict, stat: str, column: str | None, fail) -> float | None:
        column = column or run.get("metric") or self.m.metric
        if stat not in ("rate", "full_mean") and column == (run.get("metric") or self.m.metric):
            return run["window"][stat]  # as runs.yaml has them
        key = (run["id"], column)
        if key not in self.cache:
            s = self.series.get(run["id"]) or {}
            if column not in s or column == "t":
                fail(
                    f"run {run['id']} has no series column {column!r} (columns: "
                    f"{', '.join(k for k in s if k != 't')})"
                )
            t, vals = s["t"], s[column]
            w = self.m.window
            weighted = run.get("mean") == "time-weighted"
            st = metrics.window_stats(t, vals, w["start"], w["end"], weighted)
            st["full_mean"] = metrics.full_mean(vals, t if weighted else None)["mean"]
            # rate: the total over the elapsed time (each interval's rate times its length, over
            # the time the intervals cover), from the series, not the tool's rounded summary
            st["rate"] = metrics.full_mean(vals, t)["mean"]
            self.cache[key] = st
        return self.cache[key][stat]


def _value_specs(m: Manifest, v: _V, where: str) -> list[dict]:
    """`value:` (one) or `values:` (several): key, label, stat, column, round, digits, unit."""
    if ("value" in v.d) == ("values" in v.d):
        v.fail(None, f"{where}: give `value:` (one statistic) or `values:` (a list of them)")
    items = [v.get("value", LDict)] if "value" in v.d else list(v.get("values", LList))
    if not items:
        v.fail("values", f"{where}: `values:` is empty")
    out = []
    for j, item in enumerate(items):
        name = f"{where}.value" if "value" in v.d else f"{where}.values[{j}]"
        val = _V(m.path, item, name)
        val.only(VALUE)
        stat = val.get("stat", str, required=True)
        if stat not in STATS:
            val.fail("stat", f"{name}: stat must be one of {', '.join(STATS)}")
        out.append(
            {
                "key": val.get("key", str, required=True),
                "label": val.get("label", str, required=True),
                "stat": stat,
                "column": val.get("column", str),
                "round": val.get("round", int),
                "digits": val.get("digits", int),
                "unit": val.get("unit", str),
                "v": val,
            }
        )
    return out


def runs_where(runs: list[dict], filters: dict) -> list[dict]:
    """The runs whose labels (or `published`) take one of each filter's values (a value or a
    list), compared as text (also for the counters' `where:`, ingest/counters.py)."""

    def takes(r):
        for k, want in filters.items():
            have = r["published"] if k == "published" else r["labels"].get(k)
            if str(have) not in {str(w) for w in (want if isinstance(want, list) else [want])}:
                return False
        return True

    return [r for r in runs if takes(r)]


def _select(m: Manifest, runs: list[dict], v: _V, where: str) -> tuple[list[dict], dict]:
    """The runs the `where:` filters take; a filter naming no label or matching no run is an error."""
    filters = v.get("where", LDict, default=LDict())
    fv = _V(m.path, filters, f"{where}.where") if "where" in v.d else None
    for k, want in filters.items():
        if k == "published":
            if not isinstance(want, bool):
                fv.fail(k, f"{where}.where: published must be true or false")
            continue
        if k not in m.labels:
            fv.fail(
                k,
                f"{where}.where: {clean(str(k), 40)!r} is not one of labels ({', '.join(m.labels)}) "
                f"or published",
            )
        have = {str(r["labels"].get(k)) for r in runs}
        for w in want if isinstance(want, list) else [want]:
            if str(w) not in have:
                fv.fail(
                    k,
                    f"{where}.where: {k}: no run has the value {clean(str(w), 40)!r} (values: "
                    f"{', '.join(sorted(h for h in have if h != 'None'))})",
                )

    selected = runs_where(runs, filters)
    if not selected:
        v.fail(
            "where" if filters else None,
            f"{where}: takes no run (where: {', '.join(f'{k}={w}' for k, w in filters.items())})",
        )
    return selected, dict(filters)


def _same_metric(selected: list[dict], values: list[dict], where: str) -> None:
    """A value without `column:` is of each run's metric: the runs it takes must share one, or
    one heading would stand over two quantities (LinkBench's links/s and requests/s)."""
    metrics_of = sorted({str(r.get("metric")) for r in selected})
    for sv in values:
        if sv["column"] is None and len(metrics_of) > 1:
            sv["v"].fail(
                "stat",
                f"{where}: the runs taken have different metrics ({', '.join(metrics_of)}); "
                "give `column:` or narrow the runs with `where:`",
            )


def _differ(a: list[dict], b: list[dict], named: set) -> list[str]:
    """Labels not in `named` whose values differ among the runs `a` (+ `b`): 'k (x, y)'."""
    out = []
    keys = sorted({k for r in a + b for k in r["labels"]} - named)
    for k in keys:
        va = sorted({str(r["labels"].get(k, "none")) for r in a})
        vb = sorted({str(r["labels"].get(k, "none")) for r in b}) if b else va
        if len(va) > 1 or va != vb:
            out.append(f"{k} ({', '.join(va)}" + (f" / {', '.join(vb)})" if b else ")"))
    return out


def _table(m: Manifest, runs: list[dict], series: dict, spec, i: int, problems: list) -> dict:
    where = f"tables[{i}]"
    v = _V(m.path, spec, where)
    v.only(TABLE)
    tid = v.get("id", str, required=True)
    if not TABLE_ID.match(tid):
        v.fail(
            "id",
            f"{where}: id {clean(tid, 40)!r} must be lowercase letters, digits and dashes (the site's id rule)",
        )
    where = f"{where} ({tid})"
    rows_by = list(v.get("rows", LList, required=True))
    with_run = RUN in rows_by and RUN not in m.labels
    groups = [k for k in rows_by if not (with_run and k == RUN)]
    pivot = v.get("pivot", str)
    if with_run and pivot:
        v.fail("rows", f"{where}: `{RUN}` in rows (the run ids) needs one run per row, not a pivot")
    for k in groups + ([pivot] if pivot else []):
        if k not in m.labels:
            v.fail(
                "rows" if k != pivot else "pivot",
                f"{where}: {k!r} is not one of labels ({', '.join(m.labels)})",
            )
    headings = dict(v.get("columns", LDict, default=LDict()))
    values = _value_specs(m, v, where)
    selected, filters = _select(m, runs, v, where)
    _same_metric(selected, values, where)
    metric = str(selected[0].get("metric"))  # {metric} in a label or the title: the runs' column
    keys = groups + ([pivot] if pivot else [])
    named = set(keys) | set(filters)

    # the values of each grouping label: the declared order, else numeric for int/float labels,
    # else in run order
    order = v.get("order", LDict, default=LDict())
    ov = _V(m.path, order, f"{where}.order") if "order" in v.d else None
    for k in order:
        if k not in keys:
            ov.fail(k, f"{where}.order: {k!r} is not in rows or pivot")

    def domain_of(k):
        seen = []
        for r in selected:
            x = r["labels"].get(k)
            if x is not None and x not in seen:
                seen.append(x)
        if k not in order:
            return sorted(seen) if m.label_types.get(k) in ("int", "float") else seen
        if not isinstance(order[k], list):
            ov.fail(k, f"{where}.order: {k}: must be a list of values")
        wanted = [_typed(m.path, ov.line(k), k, x, m.label_types) for x in order[k]]
        for x in wanted:
            if str(x) not in {str(s) for s in seen}:
                ov.fail(
                    k,
                    f"{where}.order: {k}: no run taken has the value {clean(str(x), 40)!r} "
                    f"(values: {', '.join(map(str, seen))})",
                )
        return wanted

    domain = {k: domain_of(k) for k in keys}
    cells: dict[tuple, list[dict]] = {}
    for r in selected:
        cells.setdefault(tuple(str(r["labels"].get(k)) for k in keys), []).append(r)
    for key, rs in cells.items():
        if len(rs) > 1 and not with_run and _differ(rs, [], named):
            problems.append(
                Problem(
                    m.path,
                    spec.line,
                    f"{where}: runs {', '.join(r['id'] for r in rs)} share the cell "
                    f"{dict(zip(keys, key))} and are averaged, but differ in "
                    f"{'; '.join(_differ(rs, [], named))}, not in rows, pivot or where",
                )
            )
    stats = _Stats(m, series)

    def cell_runs(combo):
        return cells.get(tuple(map(str, combo)), [])

    def value(combo, spec_v, only=None):
        """The statistic of the cell's run (or of `only`, one run of it), or the mean of its
        runs' statistics (repeats)."""
        got = [
            stats.of(
                r,
                spec_v["stat"],
                spec_v["column"],
                lambda reason: spec_v["v"].fail("column", f"{where}: {reason}"),
            )
            for r in ([only] if only else cell_runs(combo))
        ]
        got = [x for x in got if x is not None]
        if not got:
            return None
        return got[0] if len(got) == 1 else round(math.fsum(got) / len(got), metrics.DIGITS)

    display = m.display
    pivots = domain[pivot] if pivot else [None]
    repeats = not with_run and any(len(rs) > 1 for rs in cells.values())

    def fill(template, p, raw):
        if p is None:
            return template
        shown = p if raw else display.get(pivot, {}).get(str(p), p)
        return template.replace("{" + pivot + "}", str(shown))

    columns = [
        col(RUN, headings.get(RUN, "Run"), "label")
        if k == RUN and with_run
        else col(k, headings.get(k, m.heading(k)), "label")
        for k in rows_by
    ]
    for p in pivots:
        for sv in values:
            columns.append(
                col(
                    fill(sv["key"], p, True),
                    fill(sv["label"], p, False).replace("{metric}", sv["column"] or metric),
                    "number",
                    sv["digits"],
                    sv["unit"],
                )
            )
        if repeats:
            columns.append(
                col(
                    f"{p}_runs" if pivot else "runs",
                    fill(f"{{{pivot}}} runs", p, False) if pivot else "Runs",
                    "number",
                    0,
                )
            )

    ratio = v.get("ratio", LDict)
    ratio_cols = []
    if ratio is not None:
        rv = _V(m.path, ratio, f"{where}.ratio")
        rv.only(RATIO)
        rkey, rlabel = rv.get("key", str, required=True), rv.get("label", str, required=True)
        base = dict(rv.get("base", LDict, required=True))
        rround, rdigits = rv.get("round", int), rv.get("digits", int)
        of = rv.get("of", str, default=values[0]["key"])
        of_v = next((sv for sv in values if sv["key"] == of), None)
        if of_v is None:
            rv.fail("of", f"{where}.ratio: of: {of!r} is not the key of one of the values")
        if len(base) != 1 or next(iter(base)) not in keys:
            rv.fail(
                "base", f"{where}.ratio: base must be one label of rows/pivot: {{label: value}}"
            )
        bkey, bval = next(iter(base.items()))
        if pivot and bkey != pivot:
            rv.fail(
                "base",
                f"{where}.ratio: with a pivot the base is a value of the pivot label {pivot!r}",
            )
        if str(bval) not in {str(x) for x in domain[bkey]}:
            rv.fail("base", f"{where}.ratio: base: no run taken has {bkey}={clean(str(bval), 40)}")
        others = [p for p in pivots if str(p) != str(bval)] if pivot else [None]
        for p in others:
            if p is None or len(others) == 1:
                k = rkey.replace("{" + pivot + "}", str(p)) if pivot else rkey
            else:
                k = (
                    rkey.replace("{" + pivot + "}", str(p))
                    if "{" + pivot + "}" in rkey
                    else f"{rkey}_{p}"
                )
            ratio_cols.append((col(k, fill(rlabel, p, False), "ratio", rdigits), p))
        columns += [c for c, _ in ratio_cols]

    rows = []
    # with `run` in rows, one row per run (no grouping): the combinations that hold runs, each
    # run of one its own row; else one row per combination, a missing one kept empty
    lines = [
        (combo, r)
        for combo in itertools.product(*(domain[k] for k in groups))
        for r in (cell_runs(combo) if with_run else [None])
    ]
    for combo, one in lines:
        row = dict(zip(groups, combo))
        if with_run:
            row[RUN] = one["id"]
        for p in pivots:
            full = combo + ((p,) if pivot else ())
            for sv in values:
                x = value(full, sv, one)
                row[fill(sv["key"], p, True)] = (
                    None if x is None else round(x, sv["round"]) if sv["round"] is not None else x
                )
            if repeats:
                row[f"{p}_runs" if pivot else "runs"] = len(cell_runs(full))
        for c, p in ratio_cols:
            if pivot:
                num, den = combo + (p,), combo + (next(q for q in pivots if str(q) == str(bval)),)
            else:
                num, den = (
                    combo,
                    tuple(bval if k == bkey else combo[j] for j, k in enumerate(groups)),
                )
            x, b = value(num, of_v, one), value(den, of_v)
            row[c["key"]] = metrics.ratio(x, b, rround if rround is not None else metrics.DIGITS)
            nums = [one] if one else cell_runs(num)
            diff = _differ(nums, cell_runs(den), named) if nums and cell_runs(den) else []
            if diff:
                problems.append(
                    Problem(
                        m.path,
                        rv.line("base"),
                        f"{where}: ratio {'/'.join(r['id'] for r in nums)}"
                        f" over {'/'.join(r['id'] for r in cell_runs(den))} compares runs that differ in "
                        f"{'; '.join(diff)}, not in rows, pivot or where",
                    )
                )
        rows.append(row)
    title = v.get("title", str, default=tid).replace("{metric}", metric)
    if m.window:
        title = title.replace("{start}", f"{m.window['start']:g}").replace(
            "{end}", f"{m.window['end']:g}"
        )
    return {
        **check_table(
            m, {"id": tid, "title": title, "columns": columns, "rows": rows, "notes": {}}, spec.line
        ),
        "line": spec.line,
    }
