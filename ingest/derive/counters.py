"""Per-operation server counter tables declared in the manifest's `counters:` section
(docs/manifest.md, "Server counter tables"): each run's SHOW GLOBAL STATUS (or mysqladmin
extended-status) before and after it, differenced by `counter_deltas` into one table, a row
per counter and a column per run, like the ICP post's status counters:

    counters:
      - id: status-counters
        title: "Server counters per request"
        before: 'gs.before.{engine}'     # members, templates filled with each run's labels
        after: 'gs.after.{engine}'       # (or `file:` one member holding both snapshots)
        where: {phase: request}          # runs taken (as in `tables:`); default every run
        per: requests                    # divide by the run's summary[per]: per operation
        variables: [innodb_rows_read, handler_read_next]   # default: every counter that changed
        base: {engine: mysql55}          # adds each other run's ratio to this run

The members must be read by a `files:` rule as `global-status`, `mysqladmin-status` or
`mysql-n-status` (headerless `mysql -N` dumps). A value
the snapshots do not give (a counter absent from one server, a run without its files) is
missing, never 0; a counter that fell (FLUSH STATUS, a restart) is missing and reported.
"""

from __future__ import annotations

from ingest.derive.context import StudyContext
from ingest.derive.declared import MAX_DIGITS, runs_where
from ingest.derive.tables import DerivedTable, Row, col
from ingest.join.records import Run
from ingest.parse import Parsed
from ingest.parse import Table as ParsedTable
from ingest.parse.server_status import GAUGES, counter_deltas
from ingest.problems import Problem
from ingest.read.fields import Fields, LDict, LList, check_display, check_template, section_items
from ingest.read.records import Manifest
from ingest.read.sections import CounterTable

FIELDS = ("id", "title", "before", "after", "file", "where", "per", "variables", "base", "digits")
FORMATS = ("global-status", "mysqladmin-status", "mysql-n-status")


MAX_COUNTER_TABLES = 100  # counter tables of one manifest


def parse(path: str, doc: LDict) -> list[CounterTable]:
    """The manifest's `counters:` (none without one), checked as declarations."""
    items = section_items(path, doc, "counters", MAX_COUNTER_TABLES, "counter table declarations")
    return [_spec(path, item, where, line) for item, where, line in items]


def _spec(path: str, item: object, where: str, line: int) -> CounterTable:
    v = Fields(path, item, where, line)
    v.only(FIELDS)
    names = {k: v.get(k, str) for k in ("before", "after", "file")}
    names = {k: t for k, t in names.items() if t is not None}
    if set(names) not in ({"before", "after"}, {"file"}):
        v.fail(
            None, f"{where}: give `before` and `after`, or `file` (one member with both snapshots)"
        )
    for k, t in names.items():
        check_template(v, k, t, where)
    wanted = v.get("variables", LList)
    if wanted is not None and not all(isinstance(x, str) for x in wanted):
        v.fail("variables", f"{where}: `variables` must be a list of status variable names")
    digits = v.get("digits", int)
    if digits is not None and not 0 <= digits <= MAX_DIGITS:
        v.fail("digits", f"{where}: digits must be from 0 to {MAX_DIGITS}, not {digits}")
    title = v.get("title", str)
    if title is not None:
        check_display(v, "title", title, f"{where}: title")
    return CounterTable(
        id=v.get("id", str, required=True),
        title=title,
        line=v.line(),
        v=v,
        where=where,
        names=names,
        per=v.get("per", str),
        wanted=wanted,
        base=dict(v.get("base", LDict, default=LDict())),
        digits=digits,
        filters=dict(v.get("where", LDict, default=LDict())),
    )


def build(ctx: StudyContext) -> list[DerivedTable]:
    """The tables of the manifest's `counters:` section (parsed at load: `m.counters`); the
    warnings are appended to `ctx.problems`."""
    tables = []
    for spec in ctx.manifest.counters:
        t, found = _table(ctx.manifest, ctx.runs, ctx.files, spec)
        tables.append(t)
        ctx.problems += found
    return tables


def _snapshots(
    m: Manifest, v: Fields, where: str, files: dict[str, Parsed], names: dict[str, str], run: Run
) -> tuple[tuple[list[Row], list[Row], str] | None, str | None]:
    """(before rows, after rows, member) of one run, or a reason why there are none."""
    members = {}
    for k, template in names.items():
        try:
            members[k] = template.format(**run.labels)
        except (KeyError, IndexError, ValueError) as e:
            raise Problem(
                m.path,
                v.line(k),
                f"{where}.{k}: template {template!r}: run {run.id} has no label {e}",
            ) from None
    found = {k: files.get(x) for k, x in members.items()}
    missing = [members[k] for k, p in found.items() if p is None]
    parsed = {k: p for k, p in found.items() if p is not None}
    if missing:
        return (
            None,
            f"{', '.join(missing)} not read (absent from the input, or no `files:` rule reads it)",
        )
    for k, p in parsed.items():
        if p.format not in FORMATS:
            raise Problem(
                m.path,
                v.line(k),
                f"{where}.{k}: {members[k]} is read as {p.format}, not as one of "
                f"{', '.join(FORMATS)}",
            )
    before: ParsedTable | None
    after: ParsedTable | None
    if "file" in parsed:
        snaps = [t for t in parsed["file"].tables if t.name == "status"]
        if len(snaps) < 2:
            return None, f"{members['file']}: {len(snaps)} snapshot(s); before and after need two"
        before, after, member = snaps[0], snaps[-1], members["file"]
    else:
        before = next((t for t in parsed["before"].tables if t.name == "status"), None)
        after = next((t for t in reversed(parsed["after"].tables) if t.name == "status"), None)
        member = members["after"]
        if before is None or after is None:
            return None, f"{members['before']}, {member}: a status snapshot is missing"
    up = {
        t.line: {r["variable"]: r["value"] for r in t.rows}.get("uptime") for t in (before, after)
    }
    b, a = up[before.line], up[after.line]
    if isinstance(a, int) and isinstance(b, int) and a < b and before is not after:
        raise Problem(
            member,
            after.line,
            f"Uptime {a} is below the first snapshot's {b}: relative (-r) snapshots or "
            "a restart, not a before/after pair",
        )
    return (before.rows, after.rows, member), None


def _table(
    m: Manifest, runs: list[Run], files: dict[str, Parsed], spec: CounterTable
) -> tuple[DerivedTable, list[Problem]]:
    """One `counters:` table: a row per counter, a column per run with its snapshots (after -
    before, or per operation), then each other run's ratio to the base run's."""
    selected = runs_where(runs, spec.filters)
    if not selected:
        spec.v.fail("where", f"{spec.where}: no run has these labels")
    problems: list[Problem] = []
    deltas: dict[str, dict[str, float | None]] = {}
    kept: list[Run] = []
    for run in selected:
        got, found = _run_deltas(m, files, spec, run)
        problems += found
        if got is not None:
            deltas[run.id] = got
            kept.append(run)
    if not kept:
        raise Problem(
            m.path, spec.line, f"{spec.where} ({spec.id}): no run has its before/after snapshots"
        )
    variables, found = _variables(m, spec, deltas)
    problems += found
    base_run = _base_run(spec, kept)
    unit = "per op" if spec.per else None
    columns = [col("variable", "Counter", "label")]
    columns += [col(r.id, r.name, "number", spec.digits, unit) for r in kept]
    others = [r for r in kept if r is not base_run] if base_run else []
    if base_run is not None:
        columns += [col(f"{r.id}-ratio", f"{r.name} / {base_run.name}", "ratio", 2) for r in others]
    rows: list[Row] = []
    for x in variables:
        row: Row = {"variable": x, **{r.id: deltas[r.id].get(x) for r in kept}}
        for r in others:
            assert base_run is not None  # others are the runs beside the base
            a, b = row[r.id], row[base_run.id]
            row[f"{r.id}-ratio"] = None if a is None or not b else round(a / b, 6)
        rows.append(row)
    per = spec.per
    title = spec.title or "Server counters, after - before" + (f" / {per}" if per else "")
    return {"id": spec.id, "title": title, "columns": columns, "rows": rows, "notes": {}}, problems


def _run_deltas(
    m: Manifest, files: dict[str, Parsed], spec: CounterTable, run: Run
) -> tuple[dict[str, float | None] | None, list[Problem]]:
    """{counter: after - before (or per operation)} of one run, None without its snapshots;
    and the problems found (a counter that fell is left missing)."""
    v, where, tid, per = spec.v, spec.where, spec.id, spec.per
    got, why = _snapshots(m, v, where, files, spec.names, run)
    if got is None:
        reason = f"{where} ({tid}): run {run.id}: {why}; its column is missing"
        return None, [Problem(m.path, v.line(), reason)]
    before, after, member = got
    problems: list[Problem] = []
    ops: float | None = None
    if per:
        ops = (run.summary or {}).get(per)
        if not isinstance(ops, (int, float)) or ops <= 0:
            problems.append(
                Problem(
                    m.path,
                    v.line("per"),
                    f"{where} ({tid}): run {run.id} has no summary "
                    f"{per!r}: its per-operation values are missing",
                )
            )
            ops = None
    rows: dict[str, float | None] = {}
    for r in counter_deltas(before, after, ops):
        if r["delta"] < 0:
            problems.append(
                Problem(
                    member,
                    None,
                    f"{r['variable']} fell from {r['before']} to {r['after']} "
                    "(FLUSH STATUS or a restart?): left missing",
                )
            )
            continue
        rows[r["variable"]] = r.get("per_op") if per else r["delta"]
        if per and ops is None:
            rows[r["variable"]] = None
    return rows, problems


def _variables(
    m: Manifest, spec: CounterTable, deltas: dict[str, dict[str, float | None]]
) -> tuple[list[str], list[Problem]]:
    """The table's counters: those `variables:` names (each that no run has is a problem), or
    every counter that changed in some run, in the order printed (gauges are not totals)."""
    if spec.wanted is None:
        changed = (k for d in deltas.values() for k, x in d.items() if x and not GAUGES.match(k))
        return list(dict.fromkeys(changed)), []
    variables = [x.lower() for x in spec.wanted]
    problems = [
        Problem(
            m.path,
            spec.v.line("variables"),
            f"{spec.where} ({spec.id}): no run's snapshots have {x!r}",
        )
        for x in variables
        if not any(x in d for d in deltas.values())
    ]
    return variables, problems


def _base_run(spec: CounterTable, kept: list[Run]) -> Run | None:
    """The run `base:` names (among those with snapshots), or None without `base:`."""
    if not spec.base:
        return None
    base_run = next(
        (r for r in kept if all(str(r.labels.get(k)) == str(x) for k, x in spec.base.items())),
        None,
    )
    if base_run is None:
        spec.v.fail(
            "base", f"{spec.where}: base {spec.base}: no run with these labels has snapshots"
        )
    return base_run
