"""The runs of a study: which archive members the manifest's `runs:` and `files:` rules take,
each complete session a run record (labels, id, name, window statistics, the cross-check
against the tool's own summary, the base ratio) with its series, and the parsed `files:`.
Record shape: docs/data-schema.md, `runs.yaml`; rules: docs/manifest.md."""

from __future__ import annotations

import hashlib
import operator
import re
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, cast

import regex

from ingest.join import stats
from ingest.join.records import Base, Run, RunSource, Series, Stats
from ingest.parse import Parsed, Session
from ingest.parse.member import SeriesBudget
from ingest.parse.pool import Item, parse_many
from ingest.problems import Problem, clean
from ingest.read.archive import Archive
from ingest.read.fields import Label, typed_label
from ingest.read.records import Manifest, Rule
from ingest.write.datadir import NAME_MAX

ID = re.compile(r"\A[a-z0-9][a-z0-9._-]*\Z")  # \Z: `$` lets "ra\n" through
ID_MAX = NAME_MAX - 55  # bytes of a run id: room for any file suffix of data/<study>/series/


Progress = Callable[[int, int, str], None]  # (done, of, member): the command line's progress
Job = tuple[Archive, str, Rule, regex.Match[str]]  # a member a rule takes, and its match


def collect_runs(
    m: Manifest,
    archives: dict[str, Archive],
    progress: Progress | None = None,
    fields: dict[str, dict[str, Any]] | None = None,
    budget: SeriesBudget | None = None,
) -> tuple[list[Run], dict[str, Series], dict[str, Parsed], list[Problem]]:
    """(runs, series, files, problems): the run records in archive order, run id -> columnar
    series, archive member -> Parsed of the `files:` rules, and the warnings found. `fields`,
    when given, gets run id -> the template fields of its match (labels and `_` groups)."""
    jobs = _jobs(m, archives)
    runs: list[Run] = []
    series: dict[str, Series] = {}
    files: dict[str, Parsed] = {}
    problems: list[Problem] = []
    taken: dict[str, int] = {}
    # a run's labels -> the run: one look-up per run (a scan of the runs before each one was
    # quadratic: 19,000 runs spent minutes here)
    by_labels: dict[frozenset[tuple[str, Any]], Run] = {}
    # bounds the memory of what is kept of the members (member.py); shared with the query runs
    budget = budget or SeriesBudget()
    for i, ((arc, member, rule, mt), outcome) in enumerate(zip(jobs, _parsed(jobs))):
        if progress:
            progress(i, len(jobs), member)
        file = f"{arc.name}/{member}"
        parsed = _parse(rule, outcome, problems)
        if parsed is None:
            continue
        if rule in m.files:
            files[member] = packed(parsed)
            budget.take(files[member], file)
            continue
        budget.take(parsed, file)
        chosen = _runs_of(rule, parsed, file, problems)
        for s in chosen:
            rec = _run_record(
                m, rule, member, mt, s, len(parsed.sessions), len(chosen) > 1, parsed.format
            )
            if fields is not None:
                fields[rec.id] = {**_hidden(mt), **rec.labels}
            if rec.id in taken:
                raise Problem(
                    m.path,
                    rule.line,
                    f"duplicate run id {rec.id!r} ({member}; "
                    f"also from the rule at line {taken[rec.id]})",
                )
            taken[rec.id] = rule.line
            same = by_labels.setdefault(frozenset(rec.labels.items()), rec)
            if same is not rec:
                raise Problem(
                    m.path,
                    rule.line,
                    f"duplicate run labels {rec.labels} ({member} and {same.source.file})",
                )
            runs.append(rec)
            series[rec.id] = s.series
            problems.extend(
                _time_notes(
                    file,
                    s.line,
                    rec.id,
                    s.series.get("t", []),
                    s.meta.get("interval_s") or m.interval_s,
                )
            )
    if progress:
        progress(len(jobs), len(jobs), "")
    return _base_ratios(m, runs, problems), series, files, problems


BATCH_BYTES = 64 * 1024**2  # members read ahead of the parse: memory bounded whatever the study


def _parsed(jobs: list[Job]) -> Iterator[Parsed | Problem]:
    """Each job's member parsed (or the Problem it raised), in order: on every CPU when they
    are many (ingest/parse/pool.py), a batch of BATCH_BYTES of members at a time."""
    batch: list[Item] = []
    size = 0
    for a, m, r, _ in jobs:
        data = a.read(m)
        batch.append((data, f"{a.name}/{m}", r.format, r.mode))
        size += len(data)
        if size >= BATCH_BYTES:
            yield from parse_many(batch)
            batch, size = [], 0
    yield from parse_many(batch)


PACKED_FORMATS = ("vmstat", "iostat", "sar", "mpstat", "dstat")  # monitors, kept until linked


def packed(parsed: Parsed) -> Parsed:
    """A monitor's columns as typed arrays while the ingest keeps it (8 bytes a value, not the
    ~40 of a list of floats: a study of 1,000 runs keeps 100 million monitor values). Only
    columns all of one type, float or int, so every value reads back the same; the rest
    (None in it, time stamps) stay lists. Arrays read like lists: index, len, zip, iteration."""
    if parsed.format not in PACKED_FORMATS:
        return parsed
    for s in parsed.sessions:
        for name, col in s.series.items():
            s.series[name] = _array(col)
        s.sample_lines = _array(s.sample_lines)
    return parsed


def _array(col: list[Any]) -> list[Any]:
    kinds = set(map(type, col))
    if kinds == {float}:
        return cast(list[Any], array("d", col))
    if kinds == {int} and -(2**63) <= min(col) and max(col) < 2**63:
        return cast(list[Any], array("q", col))
    return col


def _parse(rule: Rule, outcome: Parsed | Problem, problems: list[Problem]) -> Parsed | None:
    """The member parsed (its problems added to `problems`), or None when the rule skips a
    member it cannot read (`incomplete: skip`, with a warning)."""
    if isinstance(outcome, Problem):
        if rule.incomplete != "skip":
            raise outcome
        e = outcome
        problems.append(Problem(e.file, e.line, f"{e.reason}; skipped (incomplete: skip)"))
        return None
    problems.extend(outcome.problems)
    return outcome


def _runs_of(rule: Rule, parsed: Parsed, file: str, problems: list[Problem]) -> list[Session]:
    """The sessions of a member that are runs; none is an error, or with `incomplete: skip` a
    warning (and no run)."""
    chosen = _select(rule, parsed.sessions, file)
    if rule.incomplete == "skip":
        chosen = [s for s in chosen if s.metric and s.intervals]
        if not chosen:
            problems.append(Problem(file, None, "no complete run; skipped (incomplete: skip)"))
        return chosen
    if not chosen:
        raise Problem(file, None, "no complete session (every session lacks its final summary)")
    return chosen


def _jobs(m: Manifest, archives: dict[str, Archive]) -> list[Job]:
    """(archive, member, rule, match) per member a rule takes (the first matching rule wins);
    a rule that takes no member is an error."""
    jobs: list[Job] = []
    for inp in m.inputs:
        if inp.kind != "archive":
            continue
        arc = archives[inp.name]
        for member in arc.names():
            for rule in [*m.runs, *m.files]:
                if rule.input == inp.name and (mt := rule.match(m.path, member)):
                    jobs.append((arc, member, rule, mt))
                    break
    for rule in [*m.runs, *m.files]:
        if not any(j[2] is rule for j in jobs):
            raise Problem(
                m.path, rule.line, f"rule `{rule.source}` matches no file of {rule.input}"
            )
    return jobs


def _select(rule: Rule, sessions: list[Session], file: str) -> list[Session]:
    """The sessions of one file that are runs, by the rule's `session:` (all, last, N)."""
    complete = [s for s in sessions if s.complete]
    if rule.session == "all":
        if len(complete) > 1 and any("session" not in s.meta for s in complete):
            # sessions of different kinds (LinkBench phases, iostat devices) are not runs of one tool
            kinds = ", ".join(
                str(s.meta.get("phase") or s.meta.get("device") or s.meta.get("tool"))
                for s in complete
            )
            raise Problem(
                file,
                complete[1].line,
                f"{len(complete)} sessions of different kinds ({clean(kinds, 80)}) "
                "in one file: a `runs:` rule needs one (`session: last`) or a `files:` rule",
            )
        return complete
    if rule.session == "last":
        return complete[-1:]
    chosen = [s for s in sessions if s.meta.get("session") == rule.session]
    if not chosen or not chosen[0].complete:
        raise Problem(
            file, None, f"session {rule.session} (picked by the manifest) is not a complete session"
        )
    return chosen


def _hidden(match: regex.Match[str]) -> dict[str, str]:
    """The named groups of a rule's match that are no labels (`_name`): template fields."""
    return {k: v for k, v in match.groupdict().items() if k.startswith("_") and v is not None}


def _labels(m: Manifest, rule: Rule, match: regex.Match[str], session: Session) -> dict[str, Label]:
    labels: dict[str, Label] = {}
    for k, v in match.groupdict().items():
        if v is not None and not k.startswith("_"):
            labels[k] = v
    labels.update(rule.joined_labels(match.groupdict()))
    labels.update(rule.labels)
    if (
        "threads" in m.labels
        and "threads" not in labels
        and session.meta.get("threads") is not None
    ):
        labels["threads"] = session.meta["threads"]
    return {k: typed_label(m.path, rule.line, k, v, m.label_types) for k, v in labels.items()}


def fill(
    m: Manifest, rule: Rule, template: str, labels: dict[str, Any], display: bool = False
) -> str:
    """A rule's `id`/`name` (or `linked:` file) template filled with a run's labels (their
    `display:` names when `display`)."""
    values = {k: (m.display.get(k, {}).get(str(v), v) if display else v) for k, v in labels.items()}
    try:  # the manifest checked the fields are plain names with bounded widths
        return template.format(**values)
    except KeyError as e:
        raise Problem(m.path, rule.line, f"template {template!r}: unknown label {e}") from None
    except (IndexError, ValueError, TypeError, AttributeError) as e:
        raise Problem(m.path, rule.line, f"template {template!r}: {e}") from None


def _run_record(
    m: Manifest,
    rule: Rule,
    member: str,
    match: regex.Match[str],
    session: Session,
    n_sessions: int,
    multi: bool,
    fmt: str,
) -> Run:
    """The record of one run (runs.yaml): its id, name and labels, where it was read, its tool,
    the window statistics, full-run mean and cross-check of its metric."""
    rid, name, labels = _identity(m, rule, member, match, session, multi)
    series = session.series
    metric = _metric(m, rule, rid, member, session)
    t, values = series.get("t", []), series.get(metric, []) if metric else []
    weighted = session.meta.get("intervals") == "uneven"  # mean = operations over elapsed time
    window = _window(m, rid, member, t, values, weighted)
    full = stats.full_mean(values, t if weighted else None)
    summary = {k: session.summary[k] for k in sorted(session.summary)}
    meta = session.meta
    tool = {
        "name" if k == "tool" else k: meta[k]
        for k in ("tool", "version", "threads", "interval_s", "lat_pct")
        if meta.get(k) is not None
    }
    return Run(
        id=rid,
        name=name,
        labels=labels,
        published=rule.published,
        source=RunSource(member, session.line, meta.get("session", 1), n_sessions),
        format=fmt,
        tool=tool,
        metric=metric,
        intervals=session.intervals,
        time_weighted=weighted,
        # time of the last interval's end: how long the run lasted, as its log says
        end_s=t[-1] if t else None,
        # the run's t = 0 as a local date and time, when its log prints one (LinkBench's meta.start)
        start=meta.get("start") or None,
        # where the phase itself began (a warm-up: negative) and ended on the run's clock, as
        # its log says (LinkBench: requester start, PHASE COMPLETED)
        phase_s=(
            {
                k: meta[f"phase_{k}_s"]
                for k in ("start", "end")
                if meta.get(f"phase_{k}_s") is not None
            }
            if meta.get("phase_start_s") is not None or meta.get("phase_end_s") is not None
            else None
        ),
        window=window,
        full=full,
        summary=summary or None,
        check=stats.cross_check(full["mean"], session.summary.get(metric) if metric else None),
        columns=list(series),
    )


def _identity(
    m: Manifest, rule: Rule, member: str, match: regex.Match[str], session: Session, multi: bool
) -> tuple[str, str, dict[str, Label]]:
    """(id, name, labels in the manifest's order) of a run: the rule's `id`/`name` templates,
    else its labels' values (display names in the name); `-s<N>` for one of several complete
    sessions of a file."""
    labels = _labels(m, rule, match, session)
    ordered = [k for k in m.labels if labels.get(k) is not None] + sorted(
        k for k in labels if k not in m.labels
    )
    with_fields = {**_hidden(match), **labels}
    rid = fill(m, rule, rule.id, with_fields) if rule.id else default_id(labels[k] for k in ordered)
    name = (
        fill(m, rule, rule.name, with_fields, True)
        if rule.name
        else ", ".join(str(m.display.get(k, {}).get(str(labels[k]), labels[k])) for k in ordered)
    )
    if multi:  # one file, several complete sessions: one run each
        labels["session"] = session.meta["session"]
        ordered.append("session")
        rid += f"-s{session.meta['session']}"
        name += f", session {session.meta['session']}"
    return _checked_id(m, rule, member, rid), name, {k: labels[k] for k in ordered}


def _checked_id(m: Manifest, rule: Rule, member: str, rid: str) -> str:
    """The run id in lower case: a slug, short enough to name its series files."""
    rid = rid.lower()
    if not ID.match(rid):
        raise Problem(m.path, rule.line, f"run id {clean(rid, 80)!r} (from {member}) is not a slug")
    if len(rid.encode()) > ID_MAX:
        raise Problem(
            m.path,
            rule.line,
            f"run id {clean(rid, 60)!r} (from {member}) is longer than "
            f"{ID_MAX} bytes (it names a file; NAME_MAX is {NAME_MAX})",
        )
    return rid


def _window(
    m: Manifest, rid: str, member: str, t: list[float], values: list[Any], weighted: bool
) -> Stats:
    """The window statistics of the run's metric; an error when the window holds none of its
    intervals."""
    w = m.run_window()
    window = stats.window_stats(t, values, w["start"], w["end"], weighted)
    if values and not window["n"]:
        span = f"t from {t[0]} to {t[-1]} s" if t else "no interval times"
        raise Problem(
            m.path,
            m.line_of.get("window"),
            f"window ({w['start']}, {w['end']}] holds no interval of run {rid} ({member}: {span})",
        )
    return window


def _metric(m: Manifest, rule: Rule, rid: str, member: str, session: Session) -> str | None:
    """The run's main column: its rule's `metric:`, else the manifest's, else the tool's own
    main rate. A column the run's series lacks is an error at the line that chose it: every
    statistic, heading and chart that names the metric is of that column, or there is none."""
    metric = rule.metric or m.metric or session.metric
    if metric is None or not session.series.get("t") or metric in session.series:
        return metric
    line = rule.metric_line if rule.metric else m.line_of.get("metric")
    columns = ", ".join(k for k in session.series if k != "t")
    raise Problem(
        m.path,
        line,
        f"metric {clean(metric, 40)!r} is not a column of run {rid} ({clean(member, 80)}, "
        f"read as {session.meta.get('tool') or 'its format'}: {clean(columns, 200)}); "
        "name one of these, on the rule (`metric:`) when its runs differ from the others",
    )


def default_id(values: Iterable[object]) -> str:
    """A run's id without an `id:` template: its label values joined by '-', lower case. A value
    that is no slug (`r²x`, a space, a non-ASCII letter) is spelt in ASCII (Unicode digits as
    digits) with a short hash of the whole, so that ids stay distinct: `r2x-5f1c0e`."""
    raw = "-".join(str(v) for v in values).lower()
    if ID.match(raw):
        return raw
    spelt = "".join(
        str(unicodedata.digit(c)) if unicodedata.digit(c, None) is not None else c
        for c in unicodedata.normalize("NFKD", raw)
    )
    spelt = re.sub(r"[^a-z0-9._-]+", "-", spelt).strip("-._")[:60]
    tag = hashlib.sha256(raw.encode()).hexdigest()[:6]
    return f"{spelt}-{tag}" if spelt else f"run-{tag}"


def _time_notes(
    file: str, line: int, run_id: str, t: list[float], interval: float
) -> list[Problem]:
    """Warnings about interval times that repeat, go back, or (fixed-clock reports) skip
    intervals; the series keeps them as printed."""
    steps = list(map(operator.sub, t[1:], t))
    back = [t[i + 1] for i, d in enumerate(steps) if d <= 0] if steps and min(steps) <= 0 else []
    # gaps only mean something for tools reporting on a fixed clock (whole-second times)
    fixed = set(map(type, t)) <= {int}
    gaps = (
        [d for d in steps if d > interval * 1.5]
        if fixed and steps and max(steps) > interval * 1.5
        else []
    )
    notes = []
    if back:
        notes.append(
            Problem(
                file,
                line,
                f"run {run_id}: interval time(s) {', '.join(map(str, back[:5]))} s printed "
                f"again or out of order ({len(back)} in all); kept as printed",
            )
        )
    if gaps:
        notes.append(
            Problem(
                file,
                line,
                f"run {run_id}: {len(gaps)} gap(s) in the interval times, "
                f"{sum(gaps) - len(gaps) * interval:g} s without a report; kept as printed",
            )
        )
    return notes


def _base_ratios(m: Manifest, runs: list[Run], problems: list[Problem]) -> list[Run]:
    """The runs, each with its `base`: its base-case run (labels with the manifest's `base:`
    substituted) and the ratio of their window means, or None; the base labels must name at
    least one run. A ratio is only between like metrics: a run of tps over a base of qps has
    none, and a warning says so."""
    if (
        m.base
        and runs
        and not any(all(str(r.labels.get(k)) == str(v) for k, v in m.base.items()) for r in runs)
    ):
        raise Problem(m.path, m.line_of.get("base"), f"base {m.base}: no run has these labels")
    base_of = stats.base_counterparts(runs, m.base) if m.base else {}
    by_id = {r.id: r for r in runs}
    out = []
    for r in runs:
        b = base_of.get(r.id)
        if b is None:
            out.append(r)
            continue
        if r.metric != by_id[b].metric:
            problems.append(
                Problem(
                    m.path,
                    m.line_of.get("base"),
                    f"run {r.id} ({clean(r.metric, 40)}) has no ratio to its base run {b} "
                    f"({clean(by_id[b].metric, 40)}): a ratio is only between like metrics",
                )
            )
            out.append(replace(r, base=Base(b, None)))
            continue
        out.append(replace(r, base=Base(b, stats.ratio(r.window["mean"], by_id[b].window["mean"]))))
    return out
