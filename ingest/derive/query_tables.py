"""Tables of query runs declared in the manifest's `query_tables:` (docs/manifest.md, "Query
tables"), without Python:

    query_tables:
      - id: medians
        title: Median seconds per query and server
        where: {server: [a, b]}            # label filters (a value or a list); published: bool
        queries: ['1', '2', '7-opt']       # optional: only these queries (default: every one)
        pivot: server                      # optional: one value column per server
        values: [median, min, max]         # statistics of each cell's runs (default: [median])
        column: seconds                    # or a sar column of the runs (ingest/join/query_sar.py)
        digits: 0
        ratio: {base: {server: a}, of: median, scale: 100, digits: 2}   # optional
      - id: geomean
        geomean: true                      # one row per label combination: the geometric mean
        pivot: server                      # (of values[0]) over the queries every one finished
        ratio: {base: {server: a}}

A cell's statistics are those of its finished runs (ingest/join/queries.py `cell_stats`); a cell
whose runs all did not finish is missing with the note "did not finish", a cell without runs
is missing (not run). A ratio divides each value by the base's `of` statistic (default: the
same one) in the row with the base label's value, times `scale`; missing when either side is,
with the note of the side that did not finish. A geometric mean is over the queries where
every row has the statistic; the queries left out are named in its `left_out` column.
Every mistake is `manifest:line: reason`.
"""

from __future__ import annotations

import itertools
import math

from ingest.derive.checks import TABLE_ID
from ingest.derive.declared import runs_where
from ingest.derive.tables import col
from ingest.join.queries import DID_NOT_FINISH, cell_stats, label_columns, natural
from ingest.problems import Problem, clean
from ingest.read.fields import Fields, LDict, LList, load_yaml, typed_label
from ingest.read.records import Manifest

FIELDS = (
    "id",
    "title",
    "where",
    "queries",
    "pivot",
    "values",
    "digits",
    "ratio",
    "geomean",
    "columns",
    "column",
)
RATIO = ("base", "of", "scale", "digits", "label")
STATS = ("median", "min", "max", "mean", "spread", "n", "finished")
HEADINGS = {
    "median": "Median s",
    "min": "Min s",
    "max": "Max s",
    "mean": "Mean s",
    "spread": "Spread",
    "n": "Runs",
    "finished": "Finished",
}


def build(m: Manifest, runs: list[dict]) -> list[dict]:
    """The declared query tables, each with its manifest `line`."""
    doc = load_yaml(m.path)
    specs = doc.get("query_tables")
    if specs is None:
        return []
    if not isinstance(specs, LList):
        raise Problem(m.path, doc.key_lines["query_tables"], "query_tables: must be a list")
    if not runs:
        raise Problem(
            m.path,
            doc.key_lines["query_tables"],
            "query_tables: the study has no query runs (`queries:`)",
        )
    out, lines = [], {}
    for i, spec in enumerate(specs):
        t = _table(m, runs, spec, i)
        if t["id"] in lines:
            raise Problem(
                m.path,
                t["line"],
                f"query_tables[{i}]: id {t['id']!r} is already the id of the table at line {lines[t['id']]}",
            )
        lines[t["id"]] = t["line"]
        out.append(t)
    return out


class _Spec:
    """One declaration, validated: what it takes and how its columns are named."""

    def __init__(self, m: Manifest, runs: list[dict], spec, i: int):
        v = self.v = Fields(m.path, spec, f"query_tables[{i}]")
        v.only(FIELDS)
        self.id = v.get("id", str, required=True)
        if not TABLE_ID.match(self.id):
            v.fail(
                "id",
                f"query_tables[{i}]: id {clean(self.id, 40)!r} must be lowercase letters, digits and dashes",
            )
        self.where = f"query_tables[{i}] ({self.id})"
        self.runs = _select(m, runs, v, self.where)
        self.keys = label_columns(m, self.runs)
        self.pivot = v.get("pivot", str)
        if self.pivot is not None and self.pivot not in self.keys:
            v.fail(
                "pivot",
                f"{self.where}: pivot {self.pivot!r} is not a label of its runs ({', '.join(self.keys)})",
            )
        self.rows_by = [k for k in self.keys if k != self.pivot and not self._follows_pivot(k)]
        self.values = list(v.get("values", LList, default=LList(["median"])))
        for s in self.values:
            if s not in STATS:
                v.fail(
                    "values",
                    f"{self.where}: values: {clean(str(s), 40)!r} is not one of {', '.join(STATS)}",
                )
        if not self.values:
            v.fail("values", f"{self.where}: values: at least one statistic")
        self.column = v.get("column", str, default="seconds")
        have = {k for r in self.runs for k in r.get("sar", {})}
        if self.column != "seconds" and self.column not in have:
            v.fail(
                "column",
                f"{self.where}: column {clean(self.column, 40)!r} is not seconds or a sar "
                f"column of its runs ({', '.join(sorted(have)) or 'no `sar:` files'})",
            )
        self.digits = v.get("digits", int)
        self.geomean = v.get("geomean", bool, default=False)
        self.headings = dict(v.get("columns", LDict, default=LDict()))
        self.ratio = _ratio(m, v, self) if "ratio" in v.d else None
        self.queries = _queries(v, self)
        self.m = m

    def _follows_pivot(self, key: str) -> bool:
        """Whether a label has one value per pivot value (it names the column, not a row)."""
        return self.pivot is not None and self.follows(key, self.pivot)

    def follows(self, key: str, leader: str) -> bool:
        """Whether label `key` has one value per value of label `leader` among the runs."""
        seen: dict[str, set] = {}
        for r in self.runs:
            seen.setdefault(str(r["labels"].get(leader)), set()).add(str(r["labels"].get(key)))
        return all(len(v) == 1 for v in seen.values())

    def heading(self, key: str) -> str:
        return self.headings.get(key) or self.m.heading(key)

    def stat_heading(self, stat: str) -> str:
        """A statistic's heading: `Median s` of the times, `Median sar_iowait` of a sar column."""
        if self.column == "seconds" or stat in ("spread", "n", "finished"):
            return HEADINGS[stat]
        return f"{HEADINGS[stat].removesuffix(' s')} {self.column}"

    def shown(self, key: str, value) -> str:
        return str(self.m.display.get(key, {}).get(str(value), value))


def _select(m: Manifest, runs: list[dict], v: Fields, where: str) -> list[dict]:
    filters = v.get("where", LDict, default=LDict())
    fv = Fields(m.path, filters, f"{where}.where") if "where" in v.d else None
    for k, want in filters.items():
        if k == "published":
            if not isinstance(want, bool):
                fv.fail(k, f"{where}.where: published must be true or false")
            continue
        have = {str(r["labels"].get(k)) for r in runs}
        if k not in m.labels:
            fv.fail(
                k,
                f"{where}.where: {clean(str(k), 40)!r} is not one of labels ({', '.join(m.labels)})",
            )
        for w in want if isinstance(want, list) else [want]:
            if str(w) not in have:
                fv.fail(
                    k,
                    f"{where}.where: {k}: no query run has the value {clean(str(w), 40)!r} (values: {', '.join(sorted(have))})",
                )
    taken = runs_where(runs, filters)
    if not taken:
        v.fail("where" if filters else None, f"{where}: takes no query run")
    return taken


def _queries(v: Fields, s: _Spec) -> list[str]:
    have = sorted({r["query"] for r in s.runs}, key=natural)
    wanted = v.get("queries", LList)
    if wanted is None:
        return have
    for q in wanted:
        if str(q) not in have:
            v.fail(
                "queries",
                f"{s.where}: queries: no run of query {clean(str(q), 40)!r} (queries: {', '.join(have)})",
            )
    return [str(q) for q in wanted]


def _ratio(m: Manifest, v: Fields, s: _Spec) -> dict:
    rv = Fields(m.path, v.get("ratio", LDict), f"{s.where}.ratio")
    rv.only(RATIO)
    base = dict(rv.get("base", LDict, required=True))
    if len(base) != 1:
        rv.fail("base", f"{s.where}.ratio: base must be one label and its value: {{label: value}}")
    ((bkey, bval),) = base.items()
    if bkey not in s.keys:
        rv.fail(
            "base",
            f"{s.where}.ratio: base: {bkey!r} is not a label of its runs ({', '.join(s.keys)})",
        )
    if s.pivot is not None and bkey != s.pivot:
        rv.fail(
            "base",
            f"{s.where}.ratio: with a pivot the base is a value of the pivot label {s.pivot!r}",
        )
    bval = typed_label(m.path, rv.line("base"), bkey, bval, m.label_types)
    if str(bval) not in {str(r["labels"].get(bkey)) for r in s.runs}:
        rv.fail("base", f"{s.where}.ratio: base: no run taken has {bkey}={clean(str(bval), 40)}")
    of = rv.get("of", str)
    if of is not None and of not in STATS:
        rv.fail("of", f"{s.where}.ratio: of: {of!r} is not one of {', '.join(STATS)}")
    scale = rv.get("scale", (int, float), default=1)
    return {
        "key": bkey,
        "value": bval,
        "of": of,
        "scale": scale,
        "digits": rv.get("digits", int),
        "label": rv.get("label", str),
    }


def _table(m: Manifest, runs: list[dict], spec, i: int) -> dict:
    s = _Spec(m, runs, spec, i)
    cells = {}
    for r in s.runs:
        cells.setdefault((tuple(str(r["labels"].get(k)) for k in s.keys), r["query"]), []).append(r)
    stats = {key: cell_stats(rs, s.column) for key, rs in cells.items()}
    combos = []
    for r in s.runs:
        combo = tuple(r["labels"].get(k) for k in s.keys)
        if combo not in combos:
            combos.append(combo)
    t = _geomean(s, combos, stats) if s.geomean else _per_query(s, combos, stats)
    title = s.v.get("title", str, default=s.id)
    return {"id": s.id, "title": title, **t, "line": spec.line}


def _value(stats: dict, combo: tuple, query: str, stat: str):
    """(value, note) of one statistic of one cell: a note when it did not finish."""
    st = stats.get((tuple(map(str, combo)), query))
    if st is None:
        return None, None
    value = st.get(stat)
    note = (
        st["status"]
        if st["status"] != "finished" and stat in ("median", "min", "max", "mean", "spread")
        else None
    )
    return value, note


def _base_combo(s: _Spec, combos: list[tuple], combo: tuple) -> tuple:
    """The base's cell for a cell: the base label's value in its place, the labels that follow
    the base label taken from the base's runs, every other label as it is."""
    want = {
        k: (s.ratio["value"] if k == s.ratio["key"] else v)
        for k, v in zip(s.keys, combo)
        if k == s.ratio["key"] or not s.follows(k, s.ratio["key"])
    }
    for c in combos:
        if all(str(c[s.keys.index(k)]) == str(v) for k, v in want.items()):
            return c
    return tuple(want.get(k) for k in s.keys)


def _ratio_of(s: _Spec, stats, combos, combo, query, stat):
    """(ratio, note) of one statistic to the base's, times the scale."""
    x, xn = _value(stats, combo, query, stat)
    b, bn = _value(stats, _base_combo(s, combos, combo), query, s.ratio["of"] or stat)
    if x is None or b is None or b == 0:
        side = xn if x is None else f"base: {bn}" if b is None and bn else None
        return None, side
    return round(x / b * s.ratio["scale"], 6), None


def _value_columns(s: _Spec, pivots: list) -> list[tuple]:
    """(column, pivot value, statistic, is a ratio) of each value column of a per-query table:
    the statistics per pivot value, then the ratios (not the base's own with a pivot)."""
    out = []
    for p in pivots:
        for stat in s.values:
            key = stat if p is None else (str(p) if len(s.values) == 1 else f"{p}_{stat}")
            shown = s.shown(s.pivot, p) if p is not None else None
            label = (
                s.stat_heading(stat)
                if p is None
                else shown
                if len(s.values) == 1
                else f"{shown} {s.stat_heading(stat)}"
            )
            digits = 0 if stat in ("n", "finished") else 3 if stat == "spread" else s.digits
            out.append((col(_slug(key), label, "number", digits), p, stat, False))
    if not s.ratio:
        return out
    base_name = s.shown(s.ratio["key"], s.ratio["value"])
    kind = "ratio" if s.ratio["scale"] == 1 else "number"
    for p in pivots:
        if p is not None and str(p) == str(s.ratio["value"]):
            continue
        for stat in s.values:
            what = s.shown(s.pivot, p) if p is not None else s.stat_heading(stat)
            key = f"{'' if p is None else str(p) + '_'}{stat}_ratio"
            label = s.ratio["label"] or f"{what} / {base_name}" + (
                " %" if s.ratio["scale"] == 100 else ""
            )
            out.append((col(_slug(key), label, kind, s.ratio["digits"]), p, stat, True))
    return out


def _per_query(s: _Spec, combos: list[tuple], stats: dict) -> dict:
    """One row per query (and per row label combination), a column per statistic (per pivot
    value) and ratio; a query with no value and no note in its row is left out."""
    pivots = (
        [None] if s.pivot is None else list(dict.fromkeys(c[s.keys.index(s.pivot)] for c in combos))
    )
    row_keys = s.rows_by if s.pivot is not None else s.keys
    groups = list(dict.fromkeys(tuple(c[s.keys.index(k)] for k in row_keys) for c in combos))
    value_cols = _value_columns(s, pivots)
    columns = [*(col(k, s.heading(k), "label") for k in row_keys), col("query", "Query", "label")]
    columns += [c for c, *_ in value_cols]
    rows, notes = [], {}
    for g, query in itertools.product(groups, s.queries):
        row = {**dict(zip(row_keys, g)), "query": query}
        for c, p, stat, is_ratio in value_cols:
            combo = _combo(s, combos, row_keys, g, p)
            if is_ratio:
                value, note = _ratio_of(s, stats, combos, combo, query, stat)
            else:
                value, note = _value(stats, combo, query, stat)
            row[c["key"]] = value
            if value is None and note:
                notes[f"{len(rows)}/{c['key']}"] = note
        if any(
            row[c["key"]] is not None or f"{len(rows)}/{c['key']}" in notes for c, *_ in value_cols
        ):
            rows.append(row)
    return {"columns": columns, "rows": rows, "notes": notes}


def _combo(s: _Spec, combos: list[tuple], row_keys: list[str], g: tuple, p) -> tuple:
    """The label values of the cell in row `g` and pivot column `p` (labels that follow the
    pivot take its run's values)."""
    by = dict(zip(row_keys, g))
    if s.pivot is not None:
        by[s.pivot] = p
    for c in combos:
        if all(str(c[s.keys.index(k)]) == str(v) for k, v in by.items()):
            return c
    return tuple(by.get(k) for k in s.keys)


def _geomean(s: _Spec, combos: list[tuple], stats: dict) -> dict:
    stat = s.values[0]
    common = [q for q in s.queries if all((_value(stats, c, q, stat)[0] or 0) > 0 for c in combos)]
    left = [q for q in s.queries if q not in common]
    columns = [
        *(col(k, s.heading(k), "label") for k in s.keys),
        col(
            "geomean",
            f"Geometric mean of the {stat}, s",
            "number",
            s.digits if s.digits is not None else 1,
        ),
        col("queries", "Queries", "number", 0),
    ]
    if s.ratio:
        columns.append(
            col(
                "ratio",
                s.ratio["label"] or f"/ {s.shown(s.ratio['key'], s.ratio['value'])}",
                "ratio",
                s.ratio["digits"],
            )
        )
    columns.append(col("left_out", "Left out (not finished by every one)", "text"))
    means = {}
    for c in combos:
        logs = [math.log(_value(stats, c, q, stat)[0]) for q in common]
        means[c] = round(math.exp(math.fsum(logs) / len(logs)), 6) if logs else None
    rows = []
    for c in combos:
        row = {**dict(zip(s.keys, c)), "geomean": means[c], "queries": len(common)}
        if s.ratio:
            b = means.get(_base_combo(s, combos, c))
            row["ratio"] = (
                round(means[c] / b * s.ratio["scale"], 6) if means[c] is not None and b else None
            )
        row["left_out"] = ", ".join(left) or None
        rows.append(row)
    return {"columns": columns, "rows": rows, "notes": {}}


def _slug(key: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in key.lower())


__all__ = ["build", "DID_NOT_FINISH"]
