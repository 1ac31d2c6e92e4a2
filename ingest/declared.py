"""Derived tables declared in the manifest's `tables:` section (docs/manifest.md, "Declared
tables"): runs filtered by labels, grouped into rows by labels, one window statistic per row
(or per pivot column), and a ratio to a base chosen by label. What a declaration cannot say
stays in a study module.

    tables:
      - id: ratio
        title: "MyRocks / InnoDB, {start} s to {end} s"   # {start} {end}: the window
        where: {published: true, cache_gb: [27, 54]}      # label: value or list; published: bool
        rows: [iops, cache_gb]                            # one row per combination
        order: {iops: ["5000", "10000"], cache_gb: [27, 54]}   # row order; every combination expected
        columns: {iops: IOPS tier, cache_gb: Cache GB}    # label columns' headings
        pivot: engine                                     # one value column per engine
        value: {key: "{engine}_tps", label: "{engine} TPS", stat: mean, round: 2, digits: 2, unit: tps}
        ratio: {key: ratio, label: MyRocks / InnoDB, base: {engine: innodb}, round: 4, digits: 2}
"""
from __future__ import annotations

import itertools

from .manifest import LDict, LList, InputError, Manifest, _typed, _V, load_yaml
from .tables import col

STATS = ("n", "mean", "min", "p1", "p5", "p50", "p95", "p99", "max", "cv", "rate", "full_mean")
TABLE = ("id", "title", "where", "rows", "order", "columns", "pivot", "value", "ratio")
VALUE = ("key", "label", "stat", "round", "digits", "unit")
RATIO = ("key", "label", "base", "round", "digits")


def build(m: Manifest, runs: list[dict]) -> list[dict]:
    """The tables of the manifest's `tables:` section (none without one)."""
    doc = load_yaml(m.path)
    specs = doc.get("tables")
    if specs is None:
        return []
    if not isinstance(specs, LList):
        raise InputError(m.path, doc.key_lines["tables"], "tables: must be a list of table declarations")
    return [_table(m, runs, spec, i) for i, spec in enumerate(specs)]


def _stat(m: Manifest, run: dict, stat: str):
    if stat == "rate":   # the tool's own rate: total events over the elapsed time
        return (run.get("summary") or {}).get(run.get("metric") or m.metric)
    if stat == "full_mean":
        return run["full"]["mean"]
    return run["window"][stat]


def _round(x, digits):
    return None if x is None else round(x, digits) if digits is not None else x


def _table(m: Manifest, runs: list[dict], spec, i: int) -> dict:
    where = f"tables[{i}]"
    v = _V(m.path, spec, where)
    v.only(TABLE)
    tid = v.get("id", str, required=True)
    rows_by = list(v.get("rows", LList, required=True))
    pivot = v.get("pivot", str)
    for k in rows_by + ([pivot] if pivot else []):
        if k not in m.labels:
            v.fail("rows" if k != pivot else "pivot", f"{where}: {k!r} is not one of labels ({', '.join(m.labels)})")
    headings = dict(v.get("columns", LDict, default=LDict()))
    val = _V(m.path, v.get("value", LDict, required=True), f"{where}.value")
    val.only(VALUE)
    stat = val.get("stat", str, required=True)
    if stat not in STATS:
        val.fail("stat", f"{where}.value: stat must be one of {', '.join(STATS)}")
    vkey, vlabel = val.get("key", str, required=True), val.get("label", str, required=True)
    vround, vdigits, unit = val.get("round", int), val.get("digits", int), val.get("unit", str)

    # runs taken: the filters
    selected = []
    filters = dict(v.get("where", LDict, default=LDict()))
    for r in runs:
        ok = True
        for k, want in filters.items():
            have = r["published"] if k == "published" else r["labels"].get(k)
            wanted = want if isinstance(want, list) else [want]
            if str(have) not in {str(w) for w in wanted}:
                ok = False
        if ok:
            selected.append(r)

    # the values of each grouping label, in the declared order or in run order
    order = dict(v.get("order", LDict, default=LDict()))
    keys = rows_by + ([pivot] if pivot else [])

    def values(k):
        if k in order:
            return [_typed(m.path, v.line("order"), k, x, m.label_types) for x in order[k]]
        seen = []
        for r in selected:
            x = r["labels"].get(k)
            if x is not None and x not in seen:
                seen.append(x)
        return seen
    domain = {k: values(k) for k in keys}
    cells = {}
    for r in selected:
        key = tuple(str(r["labels"].get(k)) for k in keys)
        if key in cells:
            raise InputError(m.path, spec.line, f"{where} ({tid}): runs {cells[key]['id']} and {r['id']} fall in the "
                                                f"same cell {dict(zip(keys, key))}; narrow it with `where:`")
        cells[key] = r

    def cell(combo):
        r = cells.get(tuple(map(str, combo)))
        return None if r is None else _stat(m, r, stat)

    display = m.display
    columns = [col(k, headings.get(k, k.replace("_", " ")), "label") for k in rows_by]
    pivots = domain[pivot] if pivot else [None]

    def fill(template, p):
        if p is None:
            return template
        shown = display.get(pivot, {}).get(str(p), p)
        return template.replace("{" + pivot + "}", str(shown))

    def key_of(p):
        return vkey if p is None else vkey.replace("{" + pivot + "}", str(p))
    for p in pivots:
        columns.append(col(key_of(p), fill(vlabel, p), "number", vdigits, unit))

    ratio = v.get("ratio", LDict)
    if ratio is not None:
        rv = _V(m.path, ratio, f"{where}.ratio")
        rv.only(RATIO)
        rkey, rlabel = rv.get("key", str, required=True), rv.get("label", str, required=True)
        base = dict(rv.get("base", LDict, required=True))
        rround, rdigits = rv.get("round", int), rv.get("digits", int)
        if len(base) != 1 or next(iter(base)) not in keys:
            rv.fail("base", f"{where}.ratio: base must be one label of rows/pivot: {{label: value}}")
        bkey, bval = next(iter(base.items()))
        if pivot and bkey != pivot:
            rv.fail("base", f"{where}.ratio: with a pivot the base is a value of the pivot label {pivot!r}")
        others = [p for p in pivots if str(p) != str(bval)] if pivot else [None]
        for p in others:
            if p is None or len(others) == 1:
                k = rkey.replace("{" + pivot + "}", str(p)) if pivot else rkey
            else:
                k = rkey.replace("{" + pivot + "}", str(p)) if "{" + pivot + "}" in rkey else f"{rkey}_{p}"
            columns.append(col(k, fill(rlabel, p), "ratio", rdigits))

    rows = []
    for combo in itertools.product(*(domain[k] for k in rows_by)):
        row = dict(zip(rows_by, combo))
        raw = {}
        for p in pivots:
            raw[p] = cell(combo + ((p,) if pivot else ()))
            row[key_of(p)] = _round(raw[p], vround)
        if ratio is not None:
            for c, p in zip(columns[len(columns) - len(others):], others):
                if pivot:
                    b = next((raw[q] for q in pivots if str(q) == str(bval)), None)
                    x = raw[p]
                else:
                    x = raw[None]
                    bcombo = tuple(bval if k == bkey else combo[j] for j, k in enumerate(rows_by))
                    b = cell(bcombo)
                row[c["key"]] = None if x is None or not b else round(x / b, rround if rround is not None else 6)
        rows.append(row)
    title = v.get("title", str, default=tid)
    if m.window:
        title = title.replace("{start}", f"{m.window['start']:g}").replace("{end}", f"{m.window['end']:g}")
    return {"id": tid, "title": title, "columns": columns, "rows": rows, "notes": {}}
