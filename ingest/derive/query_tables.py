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
from typing import Any, NoReturn

from ingest.derive.checks import table_id
from ingest.derive.context import StudyContext
from ingest.derive.declared import runs_where
from ingest.derive.tables import Column, DerivedTable, Row, col
from ingest.join.queries import DID_NOT_FINISH, cell_stats, label_columns, natural
from ingest.join.records import QueryRun
from ingest.parse._text import MAX_QUERY
from ingest.problems import Problem, clean
from ingest.read.fields import Fields, LDict, LList, check_display, typed_label, unique_ids
from ingest.read.records import Manifest, Rule
from ingest.read.sections import QueryRatio, QueryTable

Combo = tuple[Any, ...]  # the label values of a cell, in the order of `_Taken.keys`
CellStats = dict[tuple[tuple[str, ...], str], dict[str, Any]]  # (labels, query) -> statistics
ValueColumn = tuple[Column, Any, str, QueryRatio | None]  # column, pivot value, statistic, ratio

MAX_DIGITS = 15  # decimals a float carries
MAX_SCALE = 1e6  # a ratio's factor (100: percent); 1e308 would overflow to inf

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


def parse(
    path: str, doc: LDict, labels: list[str], label_types: dict[str, str], queries: list[Rule]
) -> list[QueryTable]:
    """The manifest's `query_tables:`, checked at load as far as they do not need the runs;
    `queries`: the manifest's `queries:` rules (the tables need query runs)."""
    specs = doc.get("query_tables")
    if specs is None:
        return []
    if not isinstance(specs, LList):
        raise Problem(path, doc.key_lines["query_tables"], "query_tables: must be a list")
    if not queries:
        raise Problem(
            path,
            doc.key_lines["query_tables"],
            "query_tables: the study has no query runs (`queries:`)",
        )
    tables = [_parse_table(path, item, i, labels, label_types) for i, item in enumerate(specs)]
    return unique_ids(path, "query_tables", tables)


def _parse_table(
    path: str, item: object, i: int, labels: list[str], label_types: dict[str, str]
) -> QueryTable:
    v = Fields(path, item, f"query_tables[{i}]")
    v.only(FIELDS)
    tid = table_id(v, f"query_tables[{i}]")
    where = f"query_tables[{i}] ({tid})"
    filters, filter_lines = _filters(path, v, where, labels)
    pivot = v.get("pivot", str)
    values = list(v.get("values", LList, default=LList(["median"])))
    for stat in values:
        if stat not in STATS:
            v.fail(
                "values",
                f"{where}: values: {clean(str(stat), 40)!r} is not one of {', '.join(STATS)}",
            )
    if not values:
        v.fail("values", f"{where}: values: at least one statistic")
    column = v.get("column", str, default="seconds")
    digits = _digits(v, "digits", where)
    geomean = v.get("geomean", bool, default=False)
    headings = dict(v.get("columns", LDict, default=LDict()))
    ratio = _ratio(path, v, where, pivot, label_types) if "ratio" in v.d else None
    queries = _queries_listed(v, where)
    return QueryTable(
        id=tid,
        title=v.get("title", str, default=tid),
        line=v.line(),
        where=where,
        filters=filters,
        pivot=pivot,
        values=values,
        column=column,
        digits=digits,
        geomean=geomean,
        headings=headings,
        queries=queries,
        ratio=ratio,
        lines={k: v.line(k) for k in FIELDS} | filter_lines,
    )


def _digits(v: Fields, key: str, where: str) -> int | None:
    """Decimals shown: 0 to MAX_DIGITS (a float has no more; the page's number format fails
    on more)."""
    digits: int | None = v.get(key, int)
    if digits is not None and not 0 <= digits <= MAX_DIGITS:
        v.fail(key, f"{where}: {key}: {digits} is not 0 to {MAX_DIGITS}")
    return digits


def _scale(rv: Fields, where: str) -> int | float:
    """A ratio's factor: positive and at most MAX_SCALE, so a ratio stays a finite number."""
    scale: int | float = rv.get("scale", (int, float), default=1)
    if isinstance(scale, bool) or not (0 < scale <= MAX_SCALE):
        rv.fail(
            "scale",
            f"{where}.ratio: scale: {clean(scale, 40)} is not above 0 and at most {MAX_SCALE:g}",
        )
    return scale


def _queries_listed(v: Fields, where: str) -> list[str] | None:
    """`queries:` as names, each once (`1` and `'1'` are one query) and printable."""
    listed = v.get("queries", LList)
    if listed is None:
        return None
    out: list[str] = []
    for i, q in enumerate(listed):
        name = str(q)
        line = listed.item_lines[i] if i < len(listed.item_lines) else v.line("queries")
        if not isinstance(q, (str, int)) or isinstance(q, bool) or len(name) > MAX_QUERY:
            raise Problem(
                v.path, line, f"{where}: queries: {clean(name, 40)!r} is not a query name"
            )
        check_display(v, "queries", name, f"{where}: queries")
        if name in out:
            raise Problem(v.path, line, f"{where}: queries: {clean(name, 40)!r} is listed twice")
        out.append(name)
    return out


def _filters(
    path: str, v: Fields, where: str, labels: list[str]
) -> tuple[dict[str, object], dict[str, int]]:
    """`where:` (label -> a value or a list, or `published: true|false`) and each key's line."""
    if "where" not in v.d:
        return {}, {}
    filters = v.get("where", LDict)
    fv = Fields(path, filters, f"{where}.where")
    for k, want in filters.items():
        if k == "published":
            if not isinstance(want, bool):
                fv.fail(k, f"{where}.where: published must be true or false")
        elif k not in labels:
            fv.fail(
                k,
                f"{where}.where: {clean(str(k), 40)!r} is not one of labels ({', '.join(labels)})",
            )
    return dict(filters), {f"where.{k}": fv.line(k) for k in filters}


def _ratio(
    path: str, v: Fields, where: str, pivot: str | None, label_types: dict[str, str]
) -> QueryRatio:
    rv = Fields(path, v.get("ratio", LDict), f"{where}.ratio")
    rv.only(RATIO)
    base = dict(rv.get("base", LDict, required=True))
    if len(base) != 1:
        rv.fail("base", f"{where}.ratio: base must be one label and its value: {{label: value}}")
    ((bkey, bval),) = base.items()
    if pivot is not None and bkey != pivot:
        rv.fail(
            "base", f"{where}.ratio: with a pivot the base is a value of the pivot label {pivot!r}"
        )
    of = rv.get("of", str)
    if of is not None and of not in STATS:
        rv.fail("of", f"{where}.ratio: of: {of!r} is not one of {', '.join(STATS)}")
    return QueryRatio(
        key=bkey,
        value=typed_label(path, rv.line("base"), bkey, bval, label_types),
        of=of,
        scale=_scale(rv, where),
        digits=_digits(rv, "digits", f"{where}.ratio"),
        label=rv.get("label", str),
        line=rv.line("base"),
    )


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The declared query tables (parsed at load: `m.query_tables`)."""
    return [_table(ctx.manifest, ctx.queries.runs, spec) for spec in ctx.manifest.query_tables]


class _Taken:
    """A declared query table over the runs it takes: their labels (`keys`), the labels that
    make its rows, and the queries it shows; what the runs must have is checked here."""

    def __init__(self, m: Manifest, runs: list[QueryRun], spec: QueryTable):
        self.m, self.spec = m, spec
        self.runs = _select(m, runs, spec)
        self.keys = label_columns(m, self.runs)
        pivot = spec.pivot
        if pivot is not None and pivot not in self.keys:
            self.fail(
                "pivot",
                f"{spec.where}: pivot {pivot!r} is not a label of its runs ({', '.join(self.keys)})",
            )
        self.rows_by = [k for k in self.keys if k != pivot and not self._follows_pivot(k)]
        have = {k for r in self.runs for k in r.sar}
        if spec.column != "seconds" and spec.column not in have:
            self.fail(
                "column",
                f"{spec.where}: column {clean(spec.column, 40)!r} is not seconds or a sar "
                f"column of its runs ({', '.join(sorted(have)) or 'no `sar:` files'})",
            )
        if spec.ratio:
            self._check_base(spec.ratio)
        self.queries = _queries(self)
        self.pivot, self.values, self.column = pivot, spec.values, spec.column
        self.digits, self.ratio = spec.digits, spec.ratio

    def fail(self, key: str | None, reason: str, line: int | None = None) -> NoReturn:
        raise Problem(self.m.path, line or self.spec.lines.get(key or "", self.spec.line), reason)

    def _check_base(self, ratio: QueryRatio) -> None:
        where = f"{self.spec.where}.ratio"
        if ratio.key not in self.keys:
            self.fail(
                None,
                f"{where}: base: {ratio.key!r} is not a label of its runs ({', '.join(self.keys)})",
                ratio.line,
            )
        if str(ratio.value) not in {str(r.labels.get(ratio.key)) for r in self.runs}:
            self.fail(
                None,
                f"{where}: base: no run taken has {ratio.key}={clean(str(ratio.value), 40)}",
                ratio.line,
            )

    def _follows_pivot(self, key: str) -> bool:
        """Whether a label has one value per pivot value (it names the column, not a row)."""
        return self.spec.pivot is not None and self.follows(key, self.spec.pivot)

    def follows(self, key: str, leader: str) -> bool:
        """Whether label `key` has one value per value of label `leader` among the runs."""
        seen: dict[str, set[str]] = {}
        for r in self.runs:
            seen.setdefault(str(r.labels.get(leader)), set()).add(str(r.labels.get(key)))
        return all(len(v) == 1 for v in seen.values())

    def heading(self, key: str) -> str:
        return self.spec.headings.get(key) or self.m.heading(key)

    def stat_heading(self, stat: str) -> str:
        """A statistic's heading: `Median s` of the times, `Median sar_iowait` of a sar column."""
        if self.column == "seconds" or stat in ("spread", "n", "finished"):
            return HEADINGS[stat]
        return f"{HEADINGS[stat].removesuffix(' s')} {self.column}"

    def shown(self, key: str | None, value: object) -> str:
        return str(self.m.display.get(key or "", {}).get(str(value), value))


def _select(m: Manifest, runs: list[QueryRun], spec: QueryTable) -> list[QueryRun]:
    """The runs the `where:` filters take; a value no query run has is an error at its line."""
    for k, want in spec.filters.items():
        if k == "published":
            continue
        have = {str(r.labels.get(k)) for r in runs}
        for w in want if isinstance(want, list) else [want]:
            if str(w) not in have:
                raise Problem(
                    m.path,
                    spec.lines[f"where.{k}"],
                    f"{spec.where}.where: {k}: no query run has the value {clean(str(w), 40)!r} (values: {', '.join(sorted(have))})",
                )
    taken = runs_where(runs, spec.filters)
    if not taken:
        raise Problem(
            m.path,
            spec.lines["where"] if spec.filters else spec.line,
            f"{spec.where}: takes no query run",
        )
    return taken


def _queries(s: _Taken) -> list[str]:
    have = sorted({r.query for r in s.runs}, key=natural)
    if s.spec.queries is None:
        return have
    for q in s.spec.queries:
        if q not in have:
            s.fail(
                "queries",
                f"{s.spec.where}: queries: no run of query {clean(q, 40)!r} (queries: {', '.join(have)})",
            )
    return s.spec.queries


def _table(m: Manifest, runs: list[QueryRun], spec: QueryTable) -> DerivedTable:
    s = _Taken(m, runs, spec)
    cells: dict[tuple[tuple[str, ...], str], list[QueryRun]] = {}
    for r in s.runs:
        cells.setdefault((tuple(str(r.labels.get(k)) for k in s.keys), r.query), []).append(r)
    stats = {key: cell_stats(rs, s.column) for key, rs in cells.items()}
    combos: list[Combo] = []
    for r in s.runs:
        combo = tuple(r.labels.get(k) for k in s.keys)
        if combo not in combos:
            combos.append(combo)
    t = _geomean(s, combos, stats) if spec.geomean else _per_query(s, combos, stats)
    return {"id": spec.id, "title": spec.title, **t}


def _value(stats: CellStats, combo: Combo, query: str, stat: str) -> tuple[Any, str | None]:
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


def _base_combo(s: _Taken, ratio: QueryRatio, combos: list[Combo], combo: Combo) -> Combo:
    """The base's cell for a cell: the base label's value in its place, the labels that follow
    the base label taken from the base's runs, every other label as it is."""
    want = {
        k: (ratio.value if k == ratio.key else v)
        for k, v in zip(s.keys, combo)
        if k == ratio.key or not s.follows(k, ratio.key)
    }
    for c in combos:
        if all(str(c[s.keys.index(k)]) == str(v) for k, v in want.items()):
            return c
    return tuple(want.get(k) for k in s.keys)


def _ratio_of(
    s: _Taken,
    ratio: QueryRatio,
    stats: CellStats,
    combos: list[Combo],
    combo: Combo,
    query: str,
    stat: str,
) -> tuple[float | None, str | None]:
    """(ratio, note) of one statistic to the base's, times the scale."""
    x, xn = _value(stats, combo, query, stat)
    b, bn = _value(stats, _base_combo(s, ratio, combos, combo), query, ratio.of or stat)
    if x is None or b is None or b == 0:
        side = xn if x is None else f"base: {bn}" if b is None and bn else None
        return None, side
    return round(x / b * ratio.scale, 6), None


def _value_columns(s: _Taken, pivots: list[Any]) -> list[ValueColumn]:
    """(column, pivot value, statistic, is a ratio) of each value column of a per-query table:
    the statistics per pivot value, then the ratios (not the base's own with a pivot)."""
    out: list[ValueColumn] = []
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
            out.append((col(_slug(key), str(label), "number", digits), p, stat, None))
    ratio = s.ratio
    if not ratio:
        return out
    base_name = s.shown(ratio.key, ratio.value)
    kind = "ratio" if ratio.scale == 1 else "number"
    for p in pivots:
        if p is not None and str(p) == str(ratio.value):
            continue
        for stat in s.values:
            what = s.shown(s.pivot, p) if p is not None else s.stat_heading(stat)
            key = f"{'' if p is None else str(p) + '_'}{stat}_ratio"
            label = ratio.label or f"{what} / {base_name}" + (" %" if ratio.scale == 100 else "")
            out.append((col(_slug(key), label, kind, ratio.digits), p, stat, ratio))
    return out


def _per_query(s: _Taken, combos: list[Combo], stats: CellStats) -> dict[str, Any]:
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
    rows: list[Row] = []
    notes: dict[str, str] = {}
    for g, query in itertools.product(groups, s.queries):
        row: Row = {**dict(zip(row_keys, g)), "query": query}
        for c, p, stat, ratio in value_cols:
            combo = _combo(s, combos, row_keys, g, p)
            if ratio is not None:
                value, note = _ratio_of(s, ratio, stats, combos, combo, query, stat)
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


def _combo(s: _Taken, combos: list[Combo], row_keys: list[str], g: Combo, p: object) -> Combo:
    """The label values of the cell in row `g` and pivot column `p` (labels that follow the
    pivot take its run's values)."""
    by = dict(zip(row_keys, g))
    if s.pivot is not None:
        by[s.pivot] = p
    for c in combos:
        if all(str(c[s.keys.index(k)]) == str(v) for k, v in by.items()):
            return c
    return tuple(by.get(k) for k in s.keys)


def _geomean(s: _Taken, combos: list[Combo], stats: CellStats) -> dict[str, Any]:
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
    ratio = s.ratio
    if ratio:
        columns.append(
            col(
                "ratio",
                ratio.label or f"/ {s.shown(ratio.key, ratio.value)}",
                "ratio",
                ratio.digits,
            )
        )
    columns.append(col("left_out", "Left out (not finished by every one)", "text"))
    means: dict[Combo, float | None] = {}
    for c in combos:
        logs = [math.log(_value(stats, c, q, stat)[0]) for q in common]
        means[c] = round(math.exp(math.fsum(logs) / len(logs)), 6) if logs else None
    rows: list[Row] = []
    for c in combos:
        mean = means[c]
        row: Row = {**dict(zip(s.keys, c)), "geomean": mean, "queries": len(common)}
        if ratio:
            b = means.get(_base_combo(s, ratio, combos, c))
            row["ratio"] = round(mean / b * ratio.scale, 6) if mean is not None and b else None
        row["left_out"] = ", ".join(left) or None
        rows.append(row)
    return {"columns": columns, "rows": rows, "notes": {}}


def _slug(key: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in key.lower())


__all__ = ["build", "DID_NOT_FINISH"]
