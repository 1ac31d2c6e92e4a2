"""The reproduction check: published figures compared, cell by cell, with the derived ones.

A manifest's `reproduction:` section (docs/manifest.md) says which published table (a table
of a `published-tables` input, or of an archive file read by a `files:` rule) matches which
derived table of the study, through which key and value columns; or quotes one figure the
original states in its prose. The ingest writes every compared cell to `tables/reproduction.yaml`
with one verdict (`agrees`):

- `exact`: the derived value rounded to the published precision is the published value
  (a derived value exactly halfway agrees with either neighbour: rounding conventions differ);
- `truncation`: the derived value truncated (towards zero) to that precision is the published one;
- `differs`: neither, or there is no derived value for the cell (the reason says which);
- `not comparable`: a ratio declared with `of:` and `base:` whose base is 0: the ratio is
  undefined, so nothing can agree or differ with the published figure (the reason says so and
  what the original prints instead).

Each row names its cell for readers (`cell`: the derived columns' labels and the manifest's
`display` names) and for programs (`key`: `column at k=v; k=v`, the raw keys).

A check may name the causes its author knows of the cells that are not exact (`causes:`, each
a `cause` and an optional `key` regex searched in the cell's `key`; the first that matches
wins): the row's `cause`, which the post's summary counts apart (a deliberate check of a
mislabelled table, rows the original typed, runs the archive lacks), where the per-cell
`reason` only says what the comparison saw.

The published precision is the number of decimals as printed: of the quoted text, or, for a
parsed table, the most decimals any cell of that column shows (a parsed "0.80" is 0.8; the
column's other cells keep the printed width); an integer cell has none. `digits:` overrides it.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import regex

from ingest.derive.context import StudyContext
from ingest.derive.tables import DerivedTable, Row
from ingest.parse import Table as ParsedTable
from ingest.parse.base import Row as ParsedRow
from ingest.problems import Problem
from ingest.read.fields import Fields, LDict, LList
from ingest.read.patterns import budgeted, compile_pattern
from ingest.read.records import Manifest
from ingest.read.sections import Cause, ReproductionCheck, ValueMap

TABLE_ID = "reproduction"
AGREES = ("exact", "truncation", "differs", "not comparable")
FIELDS = ("name", "published", "derived", "keys", "values", "where", "value", "digits", "causes")
NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


# -- the rule ---------------------------------------------------------------------------------
def decimals(x: object) -> int:
    """Decimals of a number as printed ("132.60" -> 2, "24298" -> 0) or of a float's shortest text."""
    exponent = _dec(x).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _dec(x: object) -> Decimal:
    """A number as the Decimal of its shortest text (what was printed or computed, not the binary)."""
    if isinstance(x, str):
        return Decimal(x.replace(",", ""))
    return Decimal(x) if isinstance(x, int) else Decimal(repr(float(x)))  # type: ignore[arg-type]


def compare(published: object, derived: object, digits: int) -> tuple[str, str]:
    """(agrees, reason) for one cell: `published` (number or its text) against `derived`."""
    if derived is None:
        return "differs", "no derived value for this cell"
    p, d = _dec(published), _dec(derived)
    unit = Decimal(1).scaleb(-digits)
    if abs(d - p) <= unit / 2:
        return "exact", ""
    rounded = d.quantize(unit, rounding=ROUND_HALF_EVEN)
    if d.quantize(unit, rounding=ROUND_DOWN) == p:
        return "truncation", (
            f"{_txt(d)} rounds to {_txt(rounded)} at {_places(digits)}; truncated it is "
            f"{_txt(p.quantize(unit))}: consistent with the original truncating where this site rounds"
        )
    reason = f"{_txt(d)} rounds to {_txt(rounded)} at {_places(digits)}, {_txt(abs(d - p))} from the published value"
    if d == d.quantize(unit) and d != p:
        reason += " (the derived table stores it with no more decimals than the published one)"
    return "differs", reason


def _places(digits: int) -> str:
    return "1 decimal" if digits == 1 else f"{digits} decimals"


def _txt(x: Decimal) -> str:
    return format(x.normalize(), "f") if x == x.to_integral() else format(x, "f")


# -- the manifest section ---------------------------------------------------------------------
def parse(
    path: str, raw: object, input_kinds: dict[str, str], line: int | None = None
) -> list[ReproductionCheck]:
    """Validate a manifest's `reproduction:` list (`input_kinds`: input name -> kind; `line`:
    the line of the `reproduction:` key)."""
    if raw is None:
        return []
    if not isinstance(raw, LList):
        raise Problem(path, line, "reproduction: must be a list of checks")
    return [
        _check(path, d, f"reproduction[{i}]", input_kinds, raw.item_lines[i])
        for i, d in enumerate(raw)
    ]


def _check(
    path: str, d: LDict, where: str, input_kinds: dict[str, str], line: int
) -> ReproductionCheck:
    v = Fields(path, d, where, line)
    v.only(FIELDS)
    derived = v.get("derived", str, required=True)
    pub = Fields(path, v.get("published", LDict, required=True), f"{where}.published")
    pub.only(("input", "format", "file", "table", "quote"))
    c = ReproductionCheck(
        line=v.line(),
        name=v.get("name", str, default=derived),
        derived=derived,
        where=_scalars(v, "where"),
        digits=v.get("digits", int),
    )
    if c.digits is not None and not 0 <= c.digits <= 12:
        v.fail("digits", f"{where}: digits must be 0 to 12")
    c.causes = _causes(path, v, where)
    sources = [k for k in ("input", "file", "quote") if k in pub.d]
    if len(sources) != 1:
        pub.fail(None, f"{where}.published: give exactly one of `input`, `file` or `quote`")
    if "quote" in pub.d:
        c.quote = pub.get("quote", str)
        if not NUMBER.search(c.quote):
            pub.fail("quote", f"{where}.published: quote {c.quote!r} holds no number")
        for k in ("keys", "values"):
            if k in d:
                v.fail(k, f"{where}: a quoted figure takes `where` and `value`, not `{k}`")
        if not c.where:
            v.fail(
                None,
                f"{where}: a quoted figure needs `where` (the derived row it is compared with)",
            )
        c.values = [ValueMap(None, v.get("value", str, required=True))]
        return c
    if "value" in d:
        v.fail(
            "value", f"{where}: `value` is for a quoted figure; a published table takes `values`"
        )
    c.input, c.file = pub.get("input", str), pub.get("file", str)
    if c.input is not None and input_kinds.get(c.input) != "published-tables":
        pub.fail("input", f"{where}.published: {c.input!r} is not a published-tables input")
    c.format = pub.get("format", str, default="auto")
    if c.file is not None and "format" in pub.d:
        pub.fail(
            "format", f"{where}.published: an archive file is read with its `files:` rule's format"
        )
    table = pub.get("table", str, required=True)
    c.table = compile_pattern(pub, "table", table, f"{where}.published", "table regex")
    keys = v.get("keys", LDict, required=True)
    for pcol, spec in keys.items():
        c.keys[str(pcol)] = _key(path, where, pcol, spec, keys.key_lines[pcol])
    values = v.get("values", LList, required=True)
    if not values:
        v.fail("values", f"{where}: values: at least one value column")
    for i, spec in enumerate(values):
        c.values.append(_value(path, spec, f"{where}.values[{i}]", values.item_lines[i]))
    return c


def _causes(path: str, v: Fields, where: str) -> list[Cause]:
    """`causes: [{cause: text, key: regex}, ...]` (`key` optional)."""
    raw = v.get("causes", LList, default=LList())
    out: list[Cause] = []
    for i, spec in enumerate(raw):
        cv = Fields(path, spec, f"{where}.causes[{i}]", raw.item_lines[i])
        cv.only(("cause", "key"))
        text = cv.get("cause", str, required=True).strip()
        if not text:
            cv.fail("cause", f"{where}.causes[{i}]: cause must say why")
        key = cv.get("key", str)
        pattern = (
            None
            if key is None
            else compile_pattern(cv, "key", key, f"{where}.causes[{i}]", "key regex")
        )
        out.append(Cause(text, pattern))
    return out


def _key(
    path: str, where: str, pcol: object, spec: object, line: int
) -> tuple[str, dict[str, str]]:
    """`published column: derived column` or `{column: ..., map: {published: derived}}`."""
    if isinstance(spec, str):
        return spec, {}
    kv = Fields(path, spec, f"{where}.keys.{pcol}", line)
    kv.only(("column", "map"))
    mapping = {str(a): str(b) for a, b in kv.get("map", LDict, default=LDict()).items()}
    column: str = kv.get("column", str, required=True)
    return column, mapping


def _value(path: str, spec: object, where: str, line: int) -> ValueMap:
    vv = Fields(path, spec, where, line)
    vv.only(("published", "derived", "where", "of", "base"))
    vm = ValueMap(
        str(vv.get("published", (str, int), required=True)),
        vv.get("derived", str, required=True),
        _scalars(vv, "where"),
        vv.get("of", str),
        _scalars(vv, "base"),
    )
    if (vm.of is None) != (not vm.base):
        vv.fail(
            None,
            f"{where}: `of` and `base` go together (the column the ratio divides, and the base row's keys)",
        )
    return vm


def _scalars(v: Fields, key: str) -> dict[str, str]:
    out = {}
    for k, x in v.get(key, LDict, default=LDict()).items():
        if isinstance(x, (LDict, LList)) or x is None:
            v.fail(key, f"{v.where}: {key}: {k} must be a single value")
        out[str(k)] = str(x)
    return out


# -- the comparison ---------------------------------------------------------------------------
def build(ctx: StudyContext) -> list[DerivedTable]:
    """The reproduction table (docs/data-schema.md) comparing the tables built so far
    (`ctx.tables`) with the published figures; none when the study declares no check."""
    m = ctx.manifest
    if not m.reproduction:
        return []
    by_id = {t["id"]: t for t in ctx.tables}
    rows = []
    for c in m.reproduction:
        derived = by_id.get(c.derived)
        if derived is None:
            raise Problem(
                m.path,
                c.line,
                f"reproduction: no derived table {c.derived!r} "
                f"(the study produces: {', '.join(sorted(by_id))})",
            )
        _check_columns(m, c, derived)
        candidates = [r for r in derived["rows"] if _matches(r, c.where)]
        if c.quote is not None:
            these = [_quoted(m, c, c.quote, candidates, derived)]
        else:
            these = _tabled(m, c, candidates, derived, *published_tables(ctx, c))
        rows.extend(_with_causes(m, c, these))
    cols = [
        ("table", "Table", "label"),
        ("cell", "Cell", "text"),
        ("published", "Published", "text"),
        ("derived", "Derived", "number"),
        ("agrees", "Agrees", "label"),
        ("digits", "Published decimals", "number"),
        ("source", "Published in", "text"),
        ("reason", "Reason", "text"),
        ("key", "Key", "text"),
        ("cause", "Cause", "text"),
    ]
    table = {
        "id": TABLE_ID,
        "title": "Reproduction check: published figures against the derived ones",
        "columns": [{"key": k, "label": lab, "kind": kind} for k, lab, kind in cols],
        "rows": rows,
        "notes": {},
    }
    return [table]


def _with_causes(m: Manifest, c: ReproductionCheck, rows: list[Row]) -> list[Row]:
    """Each row that is not exact with the first of the check's causes whose `key` matches."""
    for r in rows:
        if r["agrees"] == "exact":
            continue
        for cause in c.causes:
            if cause.key is None or _cause_match(m, c, cause.key, r["key"]):
                r["cause"] = cause.cause
                break
    return rows


def _cause_match(m: Manifest, c: ReproductionCheck, pattern: regex.Pattern[str], key: str) -> bool:
    def fail(reason: str) -> Problem:
        return Problem(m.path, c.line, f"reproduction: cause key: {reason}")

    return budgeted(pattern, key, m.clock, fail, "search") is not None


def _check_columns(m: Manifest, c: ReproductionCheck, derived: DerivedTable) -> None:
    have = {col["key"] for col in derived["columns"]}
    need = set(c.where) | {k for k, _ in c.keys.values()} | {v.derived for v in c.values}
    need |= {k for v in c.values for k in v.where} | (set(c.table.groupindex) if c.table else set())
    need |= {v.of for v in c.values if v.of} | {k for v in c.values for k in v.base}
    missing = sorted(need - have)
    if missing:
        raise Problem(
            m.path,
            c.line,
            f"reproduction: derived table {c.derived!r} has no column "
            f"{', '.join(missing)} (it has: {', '.join(sorted(have))})",
        )


def _matches(row: Row, keys: dict[str, str]) -> bool:
    return all(row.get(k) is not None and str(row.get(k)) == v for k, v in keys.items())


def _one(
    m: Manifest, c: ReproductionCheck, candidates: list[Row], keys: dict[str, str], where: str
) -> Row | None:
    hits = [r for r in candidates if _matches(r, keys)]
    if len(hits) > 1:
        raise Problem(
            m.path,
            c.line,
            f"reproduction: {len(hits)} rows of {c.derived!r} match "
            f"{_cell(keys)} ({where}); add key columns to tell them apart",
        )
    return hits[0] if hits else None


def _quoted(
    m: Manifest, c: ReproductionCheck, quote: str, candidates: list[Row], row_table: DerivedTable
) -> Row:
    found = NUMBER.search(quote)
    if found is None:  # the manifest's check: a quote holds a number
        raise Problem(m.path, c.line, f"reproduction: quote {quote!r} holds no number")
    text = found.group()
    digits = c.digits if c.digits is not None else decimals(text)
    row = _one(m, c, candidates, {}, f"quote {quote!r}")
    col = c.values[0].derived
    derived = row.get(col) if row else None
    agrees, reason = compare(text, derived, digits)
    if row is None:
        reason = f"the derived table has no row {_cell(c.where)}"
    elif derived is None:
        reason = f"the derived table leaves {col} missing in this row"
    return _row(
        c,
        _label(m, row_table, col, c.where),
        f"{col} at {_cell(c.where)}",
        text,
        derived,
        agrees,
        digits,
        f"{Path(m.path).name} (quoted: {quote})",
        _with_quote(reason, quote, text),
    )


def _with_quote(reason: str, quote: str, number: str) -> str:
    """Say how the original put it when it qualifies the figure ("about 4.7x")."""
    if quote.strip() == number:
        return reason
    said = f'published as "{quote}"'
    return f"{said}; {reason}" if reason else said


def _table_match(
    m: Manifest, c: ReproductionCheck, table: regex.Pattern[str], name: str
) -> regex.Match[str] | None:
    """`table.fullmatch(name)` through the manifest's match budget (a table's name is input)."""

    def fail(reason: str) -> Problem:
        return Problem(m.path, c.line, f"reproduction: table: {reason}")

    return budgeted(table, name, m.clock, fail)


def _tabled(
    m: Manifest,
    c: ReproductionCheck,
    candidates: list[Row],
    derived_table: DerivedTable,
    file: str,
    parsed_tables: list[ParsedTable],
) -> list[Row]:
    """The check's rows for a published input's tables: each published cell of the tables the
    check's pattern matches, keyed by the table name's groups and the key columns."""
    table = c.table
    if table is None:  # the manifest's check: a published table has a `table:` pattern
        raise Problem(m.path, c.line, "reproduction: a published table needs `table:`")
    chosen = [(t, mt) for t in parsed_tables if (mt := _table_match(m, c, table, t.name))]
    if not chosen:
        raise Problem(
            m.path,
            c.line,
            f"reproduction: no table of {file} matches {table.pattern!r} "
            f"(found: {', '.join(t.name for t in parsed_tables[:8])})",
        )
    digits = _column_digits(c, [t for t, _ in chosen])
    rows = []
    for t, mt in chosen:
        for pcol in [*c.keys, *(v.published for v in c.values)]:
            if pcol not in t.columns:
                raise Problem(
                    m.path,
                    c.line,
                    f"reproduction: table {t.name!r} of {file} has no column "
                    f"{pcol!r} (it has: {', '.join(t.columns)})",
                )
        for prow in t.rows:
            keys = {k: v for k, v in mt.groupdict().items() if v is not None}
            for pcol, (dcol, mapping) in c.keys.items():
                value = prow.get(pcol)
                keys[dcol] = mapping.get(str(value), str(value))
            for vm in c.values:
                pub = _published(prow, vm.published)
                if pub is None:  # an empty published cell is not a published figure
                    continue
                if isinstance(pub, str):
                    raise Problem(
                        f"{file}",
                        t.line,
                        f"reproduction: {vm.published!r} of {keys} is text ({pub!r}), not a number",
                    )
                d = (
                    c.digits
                    if c.digits is not None
                    else (0 if isinstance(pub, int) else digits[vm.published])
                )
                where = f"{file}:{t.line}"
                rows.append(_compared(m, c, candidates, derived_table, vm, keys, pub, d, where))
    return rows


def _compared(
    m: Manifest,
    c: ReproductionCheck,
    candidates: list[Row],
    derived_table: DerivedTable,
    vm: ValueMap,
    keys: dict[str, str],
    pub: float,
    d: int,
    where: str,
) -> Row:
    """The check's row of one published cell: the derived value at its keys, and whether they
    agree at `d` decimals (not comparable where the derived one is undefined: a zero base)."""
    cell_keys = {**keys, **vm.where}
    row = _one(m, c, candidates, cell_keys, where)
    derived = row.get(vm.derived) if row else None
    agrees, reason = compare(pub, derived, d)
    if row is None:
        reason = f"the derived table has no row {_cell(cell_keys)}"
    elif derived is None:
        undefined = _zero_base(candidates, derived_table, vm, row, cell_keys, _printed(pub, d))
        agrees = "not comparable" if undefined else agrees
        reason = undefined or f"the derived table leaves {vm.derived} missing in this row"
    return _row(
        c,
        _label(m, derived_table, vm.derived, cell_keys),
        f"{vm.derived} at {_cell(cell_keys)}",
        _printed(pub, d),
        derived,
        agrees,
        d,
        where,
        reason,
    )


def _column_digits(c: ReproductionCheck, tables: list[ParsedTable]) -> dict[str | None, int]:
    """Published decimals per value column: the most any of its float cells shows."""
    out = {}
    for vm in c.values:
        out[vm.published] = max(
            (
                decimals(_published(r, vm.published))
                for t in tables
                for r in t.rows
                if isinstance(_published(r, vm.published), float)
            ),
            default=0,
        )
    return out


def _published(row: ParsedRow, column: str | None) -> Any:
    """A published table's cell in `column`; None where the row has none (or no column: a
    quoted figure's)."""
    return None if column is None else row.get(column)


def _printed(value: float, digits: int) -> str:
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def _cell(keys: dict[str, str]) -> str:
    """ "k=v; k=v": no comma, so a post can pick the row with `value`'s `where="cell=..."`."""
    return "; ".join(f"{k}={v}" for k, v in keys.items())


def _zero_base(
    candidates: list[Row],
    derived_table: DerivedTable,
    vm: ValueMap,
    row: Row,
    keys: dict[str, str],
    printed: str,
) -> str | None:
    """Why a declared ratio (`of` / `base`) is missing when its base is 0: a ratio to 0 is undefined."""
    if not vm.of:
        return None
    base_keys = {**keys, **vm.base}
    base = next((r for r in candidates if _matches(r, base_keys)), None)
    if base is None or base.get(vm.of) is None or float(base[vm.of]) != 0:
        return None
    what, whose = _heading(derived_table, vm.of), _cell_text(derived_table, vm.base)
    if row.get(vm.of) is not None and float(row[vm.of]) == 0:
        return (
            f"{what} is 0 here and for the base ({whose}): 0/0 is undefined, so the ratio is left "
            f"missing; the original prints {printed}"
        )
    return (
        f"{what} is 0 for the base ({whose}): a ratio to 0 is undefined, so it is left missing; "
        f"the original prints {printed}"
    )


def _heading(table: DerivedTable, key: str) -> str:
    return next((col.get("label") or key for col in table["columns"] if col["key"] == key), key)


def _cell_text(
    table: DerivedTable, keys: dict[str, str], display: dict[str, dict[str, str]] | None = None
) -> str:
    display = display or {}
    return ", ".join(
        f"{_heading(table, k)} {display.get(k, {}).get(v, v)}" for k, v in keys.items()
    )


def _label(m: Manifest, table: DerivedTable | None, col: str, keys: dict[str, str]) -> str:
    """The cell as a reader names it: the value column's heading, then each key column's heading
    and value (its `display` name when the manifest gives one)."""
    if table is None:
        return f"{col} at {_cell(keys)}"
    display = {
        k: {str(a): str(b) for a, b in v.items()}
        for k, v in (getattr(m, "display", None) or {}).items()
    }
    return f"{_heading(table, col)}: {_cell_text(table, keys, display)}"


def _row(
    c: ReproductionCheck,
    cell: str,
    key: str,
    published: str,
    derived: object,
    agrees: str,
    digits: int,
    source: str,
    reason: str | None,
) -> Row:
    return {
        "table": c.name,
        "cell": cell,
        "published": published,
        "derived": derived,
        "agrees": agrees,
        "digits": digits,
        "source": source,
        "reason": reason or None,
        "key": key,
        "cause": None,
    }


def published_tables(ctx: StudyContext, c: ReproductionCheck) -> tuple[str, list[ParsedTable]]:
    """(file name, parsed tables) of a check's published table source, from a StudyContext."""
    if c.input is not None:
        return c.input, ctx.published(c.input, c.format or "auto").tables
    if c.file is None or c.file not in ctx.files:
        raise Problem(
            ctx.manifest.path,
            c.line,
            f"reproduction: {c.file!r} is not a file read by a "
            f"`files:` rule (those are: {', '.join(sorted(ctx.files))})",
        )
    return c.file, ctx.files[c.file].tables


def summary(rows: list[Row]) -> dict[str, int]:
    """Cells per verdict: {"exact": n, "truncation": n, "differs": n, "not comparable": n}."""
    return {a: sum(1 for r in rows if r["agrees"] == a) for a in AGREES}
