"""What one ingest did, for the author (printed on success, also with `--dry-run`):

- the runs each `runs:` rule took, and the archive members no rule took, with why
  (empty, interrupted, not a known format, or a complete result that no rule names);
- the tables written (rows each) and the bytes: the study's, those that changed (a re-ingest
  that changes nothing writes nothing: "unchanged: 0 bytes written"), its per-interval series,
  and what the manifest's size control (`series: {extra: ...}`) saved;
- warnings: error lines inside a run's session (e.g. sysbench `FATAL:`), a run with fewer
  intervals in the window than the window holds, a run without its base case (and the label
  that differs in the closest base run), a run whose base run ran at another thread count when
  `threads` is not a label, then the ingest's own problems.

`build()` gathers it from the files about to be written; `text()` lays it out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ingest.join.records import Run
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.archive import Archive
from ingest.read.records import Manifest, Rule
from ingest.write.built import Built
from ingest.write.datadir import Written

ERROR_LINE = re.compile(r"^(?:FATAL|ERROR)\b|\bFATAL:|^\S*error: ")
MARKERS = (b"FATAL", b"ERROR", b"error: ")
SHOWN = 10  # list items shown per section before "... and N more"


@dataclass
class Report:
    study: str
    runs: int = 0
    query_runs: int = 0  # runs of the `queries:` rules (ingest/join/queries.py)
    rules: list[tuple[str, int]] = field(default_factory=list)  # (rule, runs it took)
    # (member, why): why only for the first SHOWN, those the report prints
    unmatched: list[tuple[str, str | None]] = field(default_factory=list)
    tables: list[tuple[str, int | None]] = field(default_factory=list)  # (id, rows)
    bytes_total: int = 0
    files: int = 0  # files of data/<study>/
    bytes_series: int = 0
    bytes_linked: int = 0  # of bytes_series, the linked metrics' (docs/manifest.md)
    series_files: int = 0  # runs whose series were written
    extra_series: str | int = "keep"  # the manifest's `series: {extra: ...}`
    reduced: int = 0  # runs whose series it downsampled or dropped
    series_saved: int = 0  # bytes it did not write
    # the report's own warnings, then the ingest's problems (Problem values, shown as text)
    warnings: list[str | Problem] = field(default_factory=list)
    dry_run: bool = False
    changed: list[str] | None = None  # the files that differed from data/ (None: all written)
    bytes_changed: int = 0
    removed: int = 0  # files of data/<study>/ no longer written


def build(
    m: Manifest, built: Built, dry_run: bool = False, result: Written | None = None
) -> Report:
    """The report of one study from what `pipeline.build_files` built (`Built`): the files of
    data/<study>/, the warnings, the archives read, the run records and the tables; `result`:
    what the writer did (`Written`: a re-ingest that changes nothing writes none)."""
    archives, files, runs = built.archives, built.files, built.runs
    rep = Report(study=m.study, dry_run=dry_run)
    if result is not None and not dry_run:
        rep.changed, rep.removed = result["written"], len(result["removed"])
        rep.bytes_changed = sum(len(files[n]) for n in result["written"])
    rows = {t["id"]: len(t["rows"]) for t in built.tables}
    rep.runs = len(runs)
    taken: dict[str, Archive] = {}
    for rule in m.runs:
        n = sum(1 for r in runs if _rule_of(m, r) is rule)
        rep.rules.append((f"{m.path}:{rule.line}: {rule.source}", n))
    query_data = built.queries
    for rule in m.queries:  # query runs (ingest/join/queries.py)
        n = query_data.per_rule.get(rule.line, 0) if query_data else 0
        rep.rules.append((f"{m.path}:{rule.line}: {rule.source} (query runs)", n))
    taken_members = query_data.members if query_data else set()
    rep.query_runs = len(query_data.runs) if query_data else 0
    for inp in m.inputs:
        arc = archives.get(inp.name)
        if arc is None:
            continue
        for member in arc.names():
            if (inp.name, member) in taken_members or any(
                rule.input == inp.name and rule.took(member) for rule in [*m.runs, *m.files]
            ):
                continue
            # saying why parses the file: as costly as taking it (four monitors beside each
            # run are four fifths of a study's bytes), so only for the members printed
            shown = len(rep.unmatched) < SHOWN
            why = _why_unmatched(arc.read(member), member) if shown else None
            rep.unmatched.append((f"{inp.name}/{member}", why))
        taken[inp.name] = arc
    own = {f"series/{r.id}.json" for r in runs}  # one run: its .json (and .linked.json)
    rep.files = len(files)
    for name, data in sorted(files.items()):
        rep.bytes_total += len(data)
        if name.startswith("series/"):
            rep.bytes_series += len(data)
            rep.series_files += name in own
            rep.bytes_linked += len(data) if name.endswith(".linked.json") else 0
        elif name.startswith("tables/") and name.endswith(".yaml"):  # not its .csv
            tid = name.removeprefix("tables/").removesuffix(".yaml")
            rep.tables.append((tid, rows.get(tid)))
    rep.extra_series, rep.series_saved = m.extra_series, built.series_saved
    rep.reduced = built.series_reduced
    rep.warnings = [
        *_error_lines(m, runs, taken),
        *_short_runs(m, runs),
        *_missing_bases(m, runs),
        *_base_threads(m, runs),
        *built.problems,
    ]
    return rep


def _rule_of(m: Manifest, run: Run) -> Rule | None:
    """The rule that took a run's file (the first that matches, as the ingest does)."""
    return next((r for r in [*m.runs, *m.files] if r.took(run.source.file)), None)


def _why_unmatched(data: bytes, member: str) -> str:
    if not data.strip():
        return "empty"
    try:
        parsed = parse_bytes(data, member)
    except Problem as e:
        return (
            "not a known format"
            if "unknown format" in e.reason or "no parser" in e.reason
            else e.reason
        )
    if parsed.sessions and not any(s.complete for s in parsed.sessions):
        return f"interrupted ({parsed.format}: no session reached its final summary)"
    return f"{parsed.format}, matched by no rule"


def _error_lines(m: Manifest, runs: list[Run], archives: dict[str, Archive]) -> list[str]:
    """Lines like `FATAL: ...` inside the part of a run's file that its session spans."""
    out: list[str] = []
    by_file: dict[str, list[Run]] = {}
    for r in runs:
        by_file.setdefault(r.source.file, []).append(r)
    for inp in m.inputs:
        arc = archives.get(inp.name)
        if arc is None:
            continue
        for member in arc.names():
            rs = by_file.get(member)
            if not rs:
                continue
            hits = _error_hits(arc.read(member))
            if not hits:
                continue
            starts = sorted({r.source.line for r in rs})
            for r in rs:
                first = r.source.line
                last = next((s - 1 for s in starts if s > first), None)
                inside = [h for h in hits if h[0] >= first and (last is None or h[0] <= last)]
                if inside:
                    span = f"lines {first}-{last}" if last else f"line {first} to the end"
                    out.append(
                        f"{inp.name}/{member}:{inside[0][0]}: run {r.id}: {len(inside)} error line(s) "
                        f"in its session ({span}), first: {inside[0][1][:100]}"
                    )
    return out


def _error_hits(data: bytes) -> list[tuple[int, str]]:
    """(line number, text) of each error line: the lines holding a marker (found by plain
    search, fast on a log of megabytes) that ERROR_LINE matches."""
    starts: set[int] = set()
    for marker in MARKERS:
        i = data.find(marker)
        while i >= 0:
            starts.add(data.rfind(b"\n", 0, i) + 1)
            end = data.find(b"\n", i)
            i = -1 if end < 0 else data.find(marker, end)
    hits: list[tuple[int, str]] = []
    line, pos = 1, 0
    for start in sorted(starts):
        end = data.find(b"\n", start)
        text = data[start : end if end >= 0 else len(data)].decode("utf-8", "replace")
        if ERROR_LINE.search(text):
            line += data.count(b"\n", pos, start)
            pos = start
            hits.append((line, text.strip()))
    return hits


def _short_runs(m: Manifest, runs: list[Run]) -> list[str]:
    out: list[str] = []
    for r in runs:
        w = r.window
        step = r.tool.get("interval_s") or m.interval_s
        expected = int((w["end"] - w["start"]) / step)
        if (
            w["n"] < expected - 1
        ):  # one missing interval is a gap (reported by the ingest), not a short run
            rule = _rule_of(m, r)
            where = f"{rule.input}/{r.source.file}" if rule else r.source.file
            out.append(
                f"{where}:{r.source.line}: run {r.id}: {w['n']} interval(s) in the "
                f"window ({w['start']:g}, {w['end']:g}] s, which holds {expected}: shorter than the window"
            )
    return out


def _missing_bases(m: Manifest, runs: list[Run]) -> list[str]:
    """A run with no base case: the closest base run and the labels in which it differs."""
    if not m.base:
        return []
    bases = [r for r in runs if all(str(r.labels.get(k)) == str(v) for k, v in m.base.items())]
    out: list[str] = []
    for r in runs:
        if r.base is not None:
            continue
        wanted = {**r.labels, **m.base}
        shown = ", ".join(f"{k}={v}" for k, v in m.base.items())
        if not bases:
            out.append(f"{m.path}: run {r.id}: no base case ({shown}): no run has these labels")
            continue

        def diff(b: Run, wanted: dict[str, object] = wanted) -> list[str]:
            keys = sorted(set(wanted) | set(b.labels))
            return [k for k in keys if str(wanted.get(k)) != str(b.labels.get(k))]

        closest = min(bases, key=lambda b: len(diff(b)))
        differs = ", ".join(
            f"{k} ({r.labels.get(k, 'none')} here, {closest.labels.get(k, 'none')} there)"
            for k in diff(closest)
        )
        out.append(
            f"{m.path}: run {r.id}: no base case ({shown}); closest base run {closest.id} "
            f"differs in {differs}"
        )
    return out


def _base_threads(m: Manifest, runs: list[Run]) -> list[str]:
    """A run whose base run ran at another thread count (the tool's, as its log says) while
    `threads` is not a label: the base ratio then compares thread counts too, unsaid."""
    if not m.base or "threads" in m.labels:
        return []
    by_id = {r.id: r for r in runs}
    out: list[str] = []
    for r in runs:
        b = by_id.get(r.base.run) if r.base else None
        mine, theirs = r.tool.get("threads"), b.tool.get("threads") if b else None
        if b is not None and mine is not None and theirs is not None and mine != theirs:
            line = m.line_of.get("base")
            out.append(
                f"{m.path}{f':{line}' if line else ''}: run {r.id}: its base run {b.id} ran at "
                f"{theirs} threads, this one at {mine}, and threads is not a label: the ratio compares "
                f"thread counts too (add threads to labels:)"
            )
    return out


def _size(n: int) -> str:
    for unit, div in (("MB", 1e6), ("KB", 1e3)):
        if n >= div:
            return f"{n / div:.1f} {unit} ({n} bytes)"
    return f"{n} bytes"


def _listed(items: Sequence[object], indent: str = "  ") -> list[str]:
    out = [indent + str(i) for i in items[:SHOWN]]  # strings or Problem values
    if len(items) > SHOWN:
        out.append(f"{indent}... and {len(items) - SHOWN} more")
    return out


def totals(reps: list[Report]) -> str:
    """The closing lines of `make ingest` (every study): each study's bytes in data/, largest
    first, and their sum."""
    total = sum(r.bytes_total for r in reps)
    lines = [f"data/: {len(reps)} stud{'y' if len(reps) == 1 else 'ies'}, {_size(total)}"]
    for r in sorted(reps, key=lambda r: -r.bytes_total):
        lines.append(f"  {_size(r.bytes_total):>26}  {r.study}")
    return "\n".join(lines) + "\n"


def text(rep: Report) -> str:
    """The report as lines of plain text."""
    queries = f", {rep.query_runs} query run(s)" if rep.query_runs else ""
    head = f"{rep.study}: {rep.runs} run(s){queries}, {len(rep.tables)} table(s), {_size(rep.bytes_total)}"
    if rep.dry_run:
        head += " to write (dry run: nothing written)"
    elif rep.changed is None or (len(rep.changed) == rep.files and not rep.removed):
        head += " written"
    elif not rep.changed and not rep.removed:
        head += ", unchanged: 0 bytes written"
    else:
        head += (
            f", {len(rep.changed)} of {rep.files} file(s) changed: {_size(rep.bytes_changed)} written"
            + (f", {rep.removed} removed" if rep.removed else "")
        )
    lines = [head]
    if rep.rules:
        lines.append("runs per rule:")
        lines += _listed([f"{n:>4}  {rule}" for rule, n in rep.rules])
    if rep.unmatched:
        lines.append(f"files matched by no rule ({len(rep.unmatched)}):")
        lines += _listed([f"{member}: {why}" for member, why in rep.unmatched])
    if rep.tables:
        lines.append("tables: " + ", ".join(f"{tid} ({rows} rows)" for tid, rows in rep.tables))
    if rep.series_files:
        lines.append(
            f"per-interval series: {_size(rep.bytes_series)} in {rep.series_files} run(s) (JSON), "
            f"{rep.bytes_series // rep.series_files} bytes per run on average"
            + (f"; linked metrics {_size(rep.bytes_linked)} of it" if rep.bytes_linked else "")
        )
    if rep.reduced:
        how = (
            "dropped"
            if rep.extra_series == "drop"
            else f"downsampled to one point per {rep.extra_series} intervals"
        )
        full = rep.bytes_series + rep.series_saved
        lines.append(
            f"size control (series: extra): {rep.reduced} run(s) outside the published comparison {how}: "
            f"series {_size(rep.bytes_series)} instead of {_size(full)}, saved {_size(rep.series_saved)} "
            f"({rep.series_saved / full:.0%})"
        )
    if rep.warnings:
        lines.append(f"warnings ({len(rep.warnings)}):")
        lines += _listed(rep.warnings)
    return "\n".join(lines) + "\n"
