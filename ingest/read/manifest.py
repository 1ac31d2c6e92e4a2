"""Study manifests (`content/posts/<study>/manifest.yaml`), loaded and validated whole before
any input is read (`load`): the YAML (read here and nowhere else) and the fields every section
shares by ingest/read/fields.py, the patterns compiled with a budget by ingest/read/patterns.py,
and each section that belongs to a later step parsed by its own module: `tables:`,
`query_tables:`, `file_tables:`, `counters:` and `reproduction:` by the table sources of
ingest/derive/, `label_files:` and `suite:` by ingest/join/queries.py. What it builds is
ingest/read/records.py's `Manifest`, the sections' records ingest/read/sections.py's. Every error
is an `ingest.problems.Problem`: `file:line: reason`. Limits and field reference: docs/manifest.md.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import regex

from ingest.derive import (
    counters,
    declared,
    file_tables,
    query_tables,
    ratios,
    reproduction,
    versions,
)
from ingest.join.queries import parse_label_files, parse_suite
from ingest.problems import Problem, clean
from ingest.read.fields import (
    LABEL_TYPES,
    SLUG,
    Fields,
    Label,
    LDict,
    LList,
    check_display,
    check_template,
    load_yaml,
    typed_label,
)
from ingest.read.patterns import compile_pattern, glob_re
from ingest.read.records import MONITOR_KINDS, STATUS_FORMATS, STATUS_MODES, Input, Manifest, Rule
from ingest.read.sections import ReproductionCheck

RESERVED_VIEWS = {"__init__"}  # modules of ingest/derive/studies/ that are not study modules


MAX_STUDY = 100  # characters of a study's name (a slug naming its data folder and page)
SHA256 = re.compile(r"\A[0-9a-f]{64}\Z")
INPUT_KINDS = ("archive", "published-tables")


TOP = (
    "study",
    "title",
    "inputs",
    "interval_s",
    "metric",
    "window",
    "base",
    "labels",
    "label_types",
    "label_names",
    "display",
    "markers",
    "runs",
    "linked",  # the `linked:` every runs: rule inherits (a rule's own keys win)
    "files",
    "views",
    "reproduction",
    "tables",  # tables: ingest/derive/declared.py
    "file_tables",  # tables as they are in summary files: ingest/derive/file_tables.py
    "counters",
    "series",
    "quoted",
    "default_tables",
    "queries",  # query runs (ingest/join/queries.py): rules, label_files, query_tables, suite
    "label_files",
    "query_tables",
    "ratios",  # ratio tables' classes and noise verdicts: ingest/derive/ratios.py
    "suite",
    "versions",  # the version-comparison view: ingest/derive/versions.py
)  # counters: ingest/derive/counters.py; series: size control (seriesfiles.py)
SERIES_EXTRA = ("keep", "drop")  # or {every: N}: docs/manifest.md, "Size control"
RULE = (
    "glob",
    "regex",
    "input",
    "format",
    "labels",
    "published",
    "session",
    "id",
    "name",
    "linked",
    "metric",
    "incomplete",
)
QUERY_RULE = ("glob", "regex", "input", "format", "labels", "published", "sar")  # a `queries:` rule
LINKED = (
    *MONITOR_KINDS,
    "interval_s",
    "offset_s",
    "tolerance_s",
    "panels",
    "columns",
    "align",
    "zone",
    "step_tolerance_s",
)
ALIGN = ("auto", "timestamps", "offset")
OFFSETS = ("phase-start", "run-end")  # an offset_s derived from each run's data


def load(path: str | Path) -> Manifest:
    """Load and validate a manifest; raise Problem (`file:line: reason`) on any problem.
    Everything is checked here, before any input is read: every section, as far as it does not
    need the runs (a check that does stays with its builder, at the line recorded here)."""
    path = str(path)
    doc = load_yaml(path)
    v = Fields(path, doc, "manifest")
    v.only(TOP)
    study = _study(v)
    title = v.get("title", str, required=True)
    check_display(v, "title", title, "title")
    inputs = _inputs(path, v)
    # A study of published figures or summary files has no runs: no window, interval or labels.
    has_runs = "runs" in doc
    window = _window(path, v, has_runs)
    labels, label_types, label_names = _labels(path, v, has_runs)
    runs, files, queries = _all_rules(path, v, inputs, label_types, has_runs)
    interval = v.get("interval_s", (int, float), required=has_runs)
    if interval is not None and interval <= 0:
        v.fail("interval_s", "interval_s must be positive")
    base = dict(v.get("base", LDict, default=LDict()))
    for k in base:
        if k not in labels:
            v.fail("base", f"base: {k!r} is not one of labels ({', '.join(labels)})")
    views = _views(v)
    archives = [i.name for i in inputs if i.kind == "archive"]
    m = Manifest(
        path=path,
        study=study,
        title=title,
        inputs=inputs,
        interval_s=interval,
        metric=_metric(v, v.get("metric", str)),
        window=window,
        base=base,
        labels=labels,
        label_types=label_types,
        display=_display(path, v),
        markers=_markers(path, v),
        runs=runs,
        files=files,
        views=views,
        line_of=dict(doc.key_lines),
        reproduction=_reproduction(path, doc, inputs),
        extra_series=_series(path, v),
        quoted=_quoted(path, v),
        default_tables=_default_tables(path, v),
        label_names=label_names,
        tables=declared.parse(path, doc, labels, label_types),
        counters=counters.parse(path, doc),
        file_tables=file_tables.parse(path, doc),
        queries=queries,
        label_files=parse_label_files(path, doc, labels, queries, archives),
        suite=parse_suite(path, doc),
        query_tables=query_tables.parse(path, doc, labels, label_types, queries),
        ratios=ratios.parse(path, doc),
        versions=versions.parse(path, doc, labels),
    )
    for rule in [*runs, *files, *queries]:  # one match budget for every pattern of the ingest
        rule.clock = m.clock
    _distinct_table_ids(m)
    return m


def _study(v: Fields) -> str:
    """`study:`, a slug short enough to name files and folders."""
    study: str = v.get("study", str, required=True)
    if not SLUG.match(study):
        v.fail("study", f"study {study[:80]!r} must be a slug (a-z, 0-9, '-', '.', '_')")
    if len(study) > MAX_STUDY:  # it names files and folders: 255 bytes is a file name's limit
        v.fail("study", f"study: a name of {len(study)} characters (limit {MAX_STUDY})")
    return study


def _distinct_table_ids(m: Manifest) -> None:
    """A table id is declared once across `tables:`, `query_tables:` and `file_tables:` (each
    section checks its own): the second is an error at its line."""
    declared = [(t.line, t.id) for t in m.tables]
    declared += [(t.line, t.id) for t in m.query_tables]
    declared += [(t.line, t.id) for t in m.file_tables]
    seen: dict[str, int] = {}
    for line, tid in sorted(declared):
        if tid in seen:
            raise Problem(m.path, line, f"table {tid!r} is already declared at line {seen[tid]}")
        seen[tid] = line


def _all_rules(
    path: str, v: Fields, inputs: list[Input], label_types: dict[str, str], has_runs: bool
) -> tuple[list[Rule], list[Rule], list[Rule]]:
    """The `runs:`, `files:` and `queries:` rules, sharing one match budget; a study needs
    runs or queries, unless it reads only files or published tables."""
    archives = [i.name for i in inputs if i.kind == "archive"]
    runs = _rules(path, v, "runs", archives, label_types, _default_linked(path, v))
    files = _rules(path, v, "files", archives, label_types)
    queries = _rules(path, v, "queries", archives, label_types)  # docs/manifest.md, "Query runs"
    if not (runs or queries) and (
        has_runs or not (files or any(i.kind == "published-tables" for i in inputs))
    ):
        v.fail(
            "runs",
            "runs: at least one rule is needed (or `queries:`, `files:` / a published-tables input)",
        )
    return runs, files, queries


def _views(v: Fields) -> str | None:
    """`views:`, the name of a study module under ingest/derive/studies/, or None."""
    views: str | None = v.get("views", str)
    if views is not None and (
        not re.fullmatch(r"[a-z][a-z0-9_]*", views) or views in RESERVED_VIEWS
    ):
        v.fail(
            "views",
            f"views: {clean(views, 80)!r} must name a study module under ingest/derive/studies/ "
            f"(not {', '.join(sorted(RESERVED_VIEWS))})",
        )
    return views


def _window(path: str, v: Fields, required: bool) -> dict[str, float] | None:
    """`window: {start, end}`: the seconds of each run that are compared."""
    window = v.get("window", LDict, required=required)
    if window is None:
        return None
    wv = Fields(path, window, "window")
    wv.only(("start", "end"))
    start, end = wv.get("start", (int, float), True), wv.get("end", (int, float), True)
    if not start < end:
        wv.fail(None, f"window: start ({start}) must be before end ({end})")
    return {"start": start, "end": end}


def _labels(
    path: str, v: Fields, required: bool
) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """`labels:`, `label_types:` and `label_names:` (readers' headings, display strings)."""
    labels = v.get("labels", LList, required=required, default=LList())
    for i, k in enumerate(labels):
        if not isinstance(k, str) or not k:
            raise Problem(path, labels.item_lines[i], "labels: each label key must be a string")
        if k in labels[:i]:
            raise Problem(path, labels.item_lines[i], f"labels: {clean(k, 40)!r} is listed twice")
    label_types = dict(v.get("label_types", LDict, default=LDict()))
    for k, t in label_types.items():
        if not isinstance(t, str) or t not in LABEL_TYPES:
            v.fail("label_types", f"label_types: {k}: type must be one of {', '.join(LABEL_TYPES)}")
    label_names = v.get("label_names", LDict, default=LDict())
    nv = Fields(path, label_names, "label_names")
    for k, heading in label_names.items():
        if k not in labels:
            nv.fail(k, f"label_names: {k!r} is not one of labels ({', '.join(labels)})")
        if not isinstance(heading, str) or not heading.strip():
            nv.fail(k, f"label_names: {k}: the heading must be a non-empty string")
        check_display(nv, k, heading, f"label_names: {k}")
    return list(labels), label_types, dict(label_names)


def _display(path: str, v: Fields) -> dict[str, dict[str, Any]]:
    """`display: {label: {value: shown name}}`."""
    display = v.get("display", LDict, default=LDict())
    out = {}
    for k, names in display.items():
        dv = Fields(path, names, f"display: {k}", display.key_lines[k])
        for value, shown in names.items():
            if not isinstance(shown, (str, int, float)) or isinstance(shown, bool):
                dv.fail(value, f"display: {k}: {value}: the display name must be a string")
            check_display(dv, value, shown, f"display: {k}: {clean(str(value), 40)}")
        out[k] = {str(a): b for a, b in names.items()}
    return out


def _markers(path: str, v: Fields) -> list[dict[str, Any]]:
    """`markers: [{t, label}]`: moments drawn on the time series."""
    raw = v.get("markers", LList, default=LList())
    out = []
    for i, m in enumerate(raw):
        mv = Fields(path, m, f"markers[{i}]", raw.item_lines[i])
        mv.only(("t", "label"))
        out.append({"t": mv.get("t", (int, float), True), "label": mv.get("label", str, True)})
        check_display(mv, "label", out[-1]["label"], f"markers[{i}]: label")
    return out


DEFAULT_TABLES = ("runs", "jitter")  # ingest/derive/defaults.py


def _metric(v: Fields, metric: str | None) -> str | None:
    """`metric:` names a series column: no control characters, not `t` (the time)."""
    if metric is not None and (
        not metric.strip() or metric == "t" or any(ord(c) < 32 or ord(c) == 127 for c in metric)
    ):
        v.fail("metric", f"{v.where}: metric '{clean(metric, 40)}' must name a series column")
    return metric


def _default_tables(path: str, v: Fields) -> tuple[str, ...]:
    """`default_tables: [runs, jitter]` (the default): which default tables a study with runs
    gets besides its declared and module tables; `[]` opts out."""
    ids = v.get("default_tables", LList, default=LList(DEFAULT_TABLES))
    for i, t in enumerate(ids):
        if t not in DEFAULT_TABLES:
            raise Problem(
                path,
                ids.item_lines[i],
                f"default_tables: {clean(str(t), 40)!r} is not a default table ({', '.join(DEFAULT_TABLES)})",
            )
    return tuple(ids)


def _quoted(path: str, v: Fields) -> dict[str, list[dict[str, Any]]]:
    """`quoted: {name: [{field: value, ...}, ...]}`: figures the original states only in its text
    (no input file holds them), for a study module to show as published (`ctx.quoted(name)`).
    Values are strings, numbers or null (missing); never derived, never computed with."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, rows in v.get("quoted", LDict, default=LDict()).items():
        if not isinstance(name, str) or not SLUG.match(name):
            v.fail(
                "quoted",
                f"quoted: {clean(str(name), 80)!r} must be a slug (a-z, 0-9, '-', '.', '_')",
            )
        qv = Fields(path, v.d["quoted"], "quoted")
        rows = qv.get(name, LList)
        out[name] = []
        for i, row in enumerate(rows):
            rv = Fields(path, row, f"quoted: {name}[{i}]", rows.item_lines[i])
            for k, value in row.items():
                if (
                    not isinstance(k, str)
                    or isinstance(value, bool)
                    or not isinstance(value, (str, int, float, type(None)))
                ):
                    rv.fail(
                        k,
                        f"quoted: {name}[{i}]: {clean(str(k), 80)}: a value must be a string, a number or null",
                    )
                check_display(rv, k, k, f"quoted: {name}[{i}]: a field name")
                check_display(rv, k, value, f"quoted: {name}[{i}]: {clean(k, 40)}")
            out[name].append(dict(row))
    return out


def _series(path: str, v: Fields) -> str | int:
    """`series: {extra: keep | drop | {every: N}}`: what is written of the per-interval series
    of the runs outside the published comparison (`published: false`)."""
    sv = Fields(path, v.get("series", LDict, default=LDict()), "series")
    sv.only(("extra",))
    extra = sv.get("extra", (str, LDict), default="keep")
    if isinstance(extra, str):
        if extra not in SERIES_EXTRA:
            sv.fail(
                "extra",
                f"series: extra must be keep, drop or {{every: N}}, not {clean(extra, 40)!r}",
            )
        return extra
    ev = Fields(path, extra, "series.extra")
    ev.only(("every",))
    every: int = ev.get("every", int, required=True)
    if every < 2:
        ev.fail(
            "every",
            f"series.extra: every must be an integer of at least 2 (intervals per point), not {every}",
        )
    return every


def find_manifests(content: str | Path = "content/posts") -> list[Path]:
    """Every study's manifest: content/posts/*/manifest.yaml."""
    return sorted(Path(content).glob("*/manifest.yaml"))


def manifest_path(study: str, content: str | Path = "content/posts") -> Path:
    """The manifest of one study; a Problem when it has none."""
    p = Path(content) / study / "manifest.yaml"
    if not p.is_file():
        raise Problem(p, None, f"no manifest for study {clean(study, 80)!r}")
    return p


def check_folder(m: Manifest) -> None:
    """A manifest writes only the study of its own folder: `study:` must be the folder name."""
    folder = Path(m.path).parent.name
    if m.study != folder:
        raise Problem(
            m.path,
            m.line_of.get("study"),
            f"study {m.study!r} must equal its folder name {clean(folder, 80)!r}",
        )


def check_unique(manifests: list[Manifest]) -> None:
    """With `all`: two manifests naming one study is an error naming both."""
    seen: dict[str, Manifest] = {}
    for m in manifests:
        if m.study in seen:
            first = seen[m.study]
            raise Problem(
                m.path,
                m.line_of.get("study"),
                f"study {m.study!r} is also named by {first.path}:{first.line_of.get('study')}",
            )
        seen[m.study] = m


def _reproduction(path: str, doc: LDict, inputs: list[Input]) -> list[ReproductionCheck]:
    kinds = {i.name: i.kind for i in inputs}
    return reproduction.parse(
        path, doc.get("reproduction"), kinds, doc.key_lines.get("reproduction")
    )


def _inputs(path: str, v: Fields) -> list[Input]:
    raw = v.get("inputs", LList, required=True)
    if not raw:
        v.fail("inputs", "inputs: at least one input is needed")
    out, seen = [], set()
    for i, d in enumerate(raw):
        iv = Fields(path, d, f"inputs[{i}]", raw.item_lines[i])
        iv.only(("name", "kind", "sha256", "origin", "note"))
        name = iv.get("name", str, True)
        if "/" in name or name in (".", "..") or "\\" in name:
            iv.fail("name", f"inputs[{i}]: name {name!r} must be a plain file name")
        if name in seen:
            iv.fail("name", f"inputs[{i}]: duplicate input {name!r}")
        seen.add(name)
        kind = iv.get("kind", str, True)
        if kind not in INPUT_KINDS:
            iv.fail("kind", f"inputs[{i}]: kind must be one of {', '.join(INPUT_KINDS)}")
        sha = iv.get("sha256", str, True)
        if not SHA256.match(sha):
            iv.fail("sha256", f"inputs[{i}]: sha256 must be 64 lowercase hex digits")
        out.append(Input(name, kind, sha, iv.get("origin", str, True), d.line, iv.get("note", str)))
    return out


def _rules(
    path: str,
    v: Fields,
    key: str,
    archives: list[str],
    label_types: dict[str, str],
    default_linked: LDict | None = None,
) -> list[Rule]:
    """The rules of `key` (runs, files or queries), each checked with its line; a `runs:`
    rule inherits the manifest's top-level `linked:`."""
    items = v.get(key, LList, default=LList())
    return [
        _rule(
            path,
            key,
            f"{key}[{i}]",
            _inherit(d, default_linked),
            items.item_lines[i],
            archives,
            label_types,
        )
        for i, d in enumerate(items)
    ]


def _default_linked(path: str, v: Fields) -> LDict | None:
    """The top-level `linked:`, checked on its own (at its lines) before any rule inherits it:
    monitors declared once for every rule rather than repeated in each."""
    default: LDict | None = v.get("linked", LDict)
    if default is not None:
        holder = LDict(linked=default)
        holder.line, holder.key_lines = default.line, {"linked": v.line("linked")}
        _linked(path, Fields(path, holder, "manifest"), "manifest", default=True)
    return default


def _inherit(d: LDict, default: LDict | None) -> LDict:
    """A rule with the default `linked:` merged under its own (its keys win, each keeping the
    line it was written at); `linked: false` on a rule opts it out."""
    if default is None or not isinstance(d, LDict):
        return d
    own = d.get("linked")
    out = LDict((k, x) for k, x in d.items() if k != "linked")
    out.line, out.key_lines = d.line, dict(d.key_lines)
    if own is False:
        return out
    if own is not None and not isinstance(own, LDict):
        return d  # the rule's `linked:` is no mapping: its own error, at its line
    merged = LDict({**default, **(own or {})})
    merged.line = own.line if own is not None else default.line
    merged.key_lines = {**default.key_lines, **(own.key_lines if own is not None else {})}
    out["linked"] = merged
    out.key_lines.setdefault("linked", merged.line)
    return out


def _rule(
    path: str,
    key: str,
    where: str,
    d: LDict,
    line: int,
    archives: list[str],
    label_types: dict[str, str],
) -> Rule:
    """One rule: the members it takes (`glob` or `regex`) from which input, read as which
    format, and what it says of their runs (labels, session, id and name, linked metrics, ...)."""
    rv = Fields(path, d, where, line)
    rv.only(
        RULE
        if key == "runs"
        else QUERY_RULE
        if key == "queries"
        else ("glob", "regex", "input", "format", "mode", "incomplete")
    )
    glob_, regex_src = rv.get("glob", str), rv.get("regex", str)
    if (glob_ is None) == (regex_src is None):
        rv.fail(None, f"{where}: give exactly one of `glob` or `regex`")
    source = regex_src if regex_src is not None else glob_re(glob_)
    pattern = compile_pattern(rv, "regex", source, where)
    inp = rv.get("input", str, default=archives[0] if archives else None)
    if inp not in archives:
        rv.fail(
            "input" if "input" in d else None, f"{where}: input {inp!r} is not an archive input"
        )
    labels, joined = _rule_labels(path, rv, where, label_types, pattern)
    session = rv.get("session", (str, int), default="all")
    if session not in ("all", "last") and not (isinstance(session, int) and session >= 1):
        rv.fail("session", f"{where}: session must be all, last or a session number >= 1")
    fmt = rv.get("format", str, default=None if key == "files" else "auto", required=key == "files")
    templates = {k: rv.get(k, str) for k in ("id", "name")}
    for k, t in templates.items():
        if t is not None:
            check_template(rv, k, t, where)
    linked = _linked(path, rv, where) if "linked" in d else None
    metric = _metric(rv, rv.get("metric", str)) if key == "runs" else None
    # runs: a member holding no complete run; files: a member that does not read (an empty
    # monitor file beside a run)
    skips = key in ("runs", "files")
    incomplete = rv.get("incomplete", str, default="error") if skips else "error"
    if incomplete not in ("error", "skip"):
        rv.fail(
            "incomplete",
            f"{where}: incomplete must be error or skip (a member holding no complete run, "
            "or for files: a member that does not read)",
        )
    mode = _mode(rv, where, fmt) if key == "files" else None
    sar = _sar(rv, where) if key == "queries" else []
    return Rule(
        pattern=pattern,
        source=regex_src or glob_,
        input=inp,
        format=fmt,
        labels=labels,
        joined=joined,
        published=rv.get("published", bool, default=True),
        session=session,
        id=templates["id"],
        name=templates["name"],
        line=d.line,
        linked=linked,
        mode=mode,
        metric=metric,
        metric_line=rv.line("metric") if metric else 0,
        incomplete=incomplete,
        sar=sar,
    )


def _sar(rv: Fields, where: str) -> list[str]:
    """A `queries:` rule's `sar:`: the member template (or list of them) of each run's sar
    files, filled with the rule's named groups, labels, `query` and `repeat`."""
    given = rv.get("sar", (str, LList), default=[])
    templates = [given] if isinstance(given, str) else list(given)
    for t in templates:
        if not isinstance(t, str):
            rv.fail("sar", f"{where}: sar must be a member template or a list of them")
        check_template(rv, "sar", t, where)
    return templates


def _rule_labels(
    path: str, rv: Fields, where: str, label_types: dict[str, str], pattern: regex.Pattern[str]
) -> tuple[dict[str, Label], dict[str, tuple[tuple[str, ...], str]]]:
    """A rule's `labels:`: fixed values, strings or numbers shown on pages, typed as declared;
    and labels joined from several named groups of its regex (`{join: [server, _version]}`,
    `sep:` between them, default `-`), by label: (groups, separator)."""
    labels = dict(rv.get("labels", LDict, default=LDict()))
    joined = {}
    for lk, lv in list(labels.items()):
        if isinstance(lv, LDict):
            joined[lk] = _joined(rv, where, str(lk), lv, pattern)
            del labels[lk]
            continue
        if not isinstance(lv, (str, int, float)) or isinstance(lv, bool):
            rv.fail("labels", f"{where}: label {lk!r} must be a string, number or {{join: [...]}}")
        check_display(rv, "labels", lv, f"{where}: label {clean(str(lk), 40)}")
        labels[lk] = typed_label(path, rv.line("labels"), lk, lv, label_types)
    return labels, joined


def _joined(
    rv: Fields, where: str, key: str, spec: LDict, pattern: regex.Pattern[str]
) -> tuple[tuple[str, ...], str]:
    """A label joined from named groups: `{join: [server, _version], sep: "-"}`, each part a
    named group of the rule's regex other than the label itself."""
    jv = Fields(rv.path, spec, f"{where}: label {clean(key, 40)}", spec.line)
    jv.only(("join", "sep"))
    parts = jv.get("join", LList, required=True)
    groups = list(pattern.groupindex)
    if key in groups:
        jv.fail("join", f"{jv.where}: the regex has a group of this name too: rename one")
    if len(parts) < 2 or not all(isinstance(x, str) for x in parts):
        jv.fail("join", f"{jv.where}: join must list two or more named groups of the regex")
    for x in parts:
        if x not in groups:
            jv.fail(
                "join",
                f"{jv.where}: join names {clean(x, 40)!r}, not a named group of the regex "
                f"({', '.join(groups) or 'none'})",
            )
    sep = jv.get("sep", str, default="-")
    if len(sep) > 8 or not sep.isprintable():
        jv.fail("sep", f"{jv.where}: sep must be at most 8 printable characters")
    return tuple(parts), sep


def _mode(rv: Fields, where: str, fmt: str | None) -> str | None:
    """A `files:` rule's `mode:` (relative or absolute), for the server-status formats only."""
    mode: str | None = rv.get("mode", str)
    if mode is not None and mode not in STATUS_MODES:
        rv.fail(
            "mode",
            f"{where}: mode must be {' or '.join(STATUS_MODES)} (mysqladmin -r tables, or levels)",
        )
    if mode is not None and fmt not in STATUS_FORMATS:
        rv.fail(
            "mode",
            f"{where}: mode is for the server-status formats ({', '.join(STATUS_FORMATS)}), "
            f"not {fmt!r}",
        )
    return mode


def _linked(path: str, rv: Fields, where: str, default: bool = False) -> dict[str, Any]:
    """A rule's `linked:` mapping: file templates, the monitors' interval and offset, panels
    and the columns kept besides them. The top-level default (`default`) is checked field by
    field; what a rule's needs in all (a monitor, `interval_s`) may come from the rule."""
    lv = Fields(path, rv.get("linked", LDict), f"{where}.linked")
    lv.only(LINKED)
    out = {}
    for k in MONITOR_KINDS:
        t = lv.get(k, str)
        if t is not None:
            check_template(lv, k, t, f"{where}.linked")
            out[k] = t
    if not out and not default:
        lv.fail(None, f"{where}.linked: name at least one of {', '.join(MONITOR_KINDS)}")

    def number(
        k: str, required: bool = False, default: float | None = None, positive: bool = False
    ) -> float | None:
        v: float | None = lv.get(k, (int, float), required=required, default=default)
        if v is not None and (not math.isfinite(v) or (positive and v <= 0)):
            lv.fail(
                k, f"{where}.linked: `{k}` must be a finite{' positive' if positive else ''} number"
            )
        return v

    out["interval_s"] = number("interval_s", required=not default, positive=True)
    offset = lv.get("offset_s", (int, float, str), default=0)
    if isinstance(offset, str) and offset not in OFFSETS:
        lv.fail(
            "offset_s",
            f"{where}.linked: `offset_s` must be a number of seconds, phase-start "
            "(the monitors started with the phase, as its log says) or run-end (they stopped "
            "with the run: each run's offset is its end less its samples)",
        )
    out["offset_s"] = offset if isinstance(offset, str) else number("offset_s", default=0)
    out["tolerance_s"] = number("tolerance_s", positive=True)
    out["step_tolerance_s"] = number("step_tolerance_s", positive=True)
    out["align"] = lv.get("align", str, default="auto")
    if out["align"] not in ALIGN:
        lv.fail("align", f"{where}.linked: `align` must be one of {', '.join(ALIGN)}")
    out["zone"] = lv.get("zone", (str, int), default=None)
    if out["zone"] is not None:
        out["zone"] = str(out["zone"])
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_/+-]{0,39}|[+-]\d\d:?\d\d", out["zone"]):
            lv.fail(
                "zone",
                f"{where}.linked: `zone` must be a zone name (UTC, CEST) or an offset like '+02:00' (quoted)",
            )
    panels = lv.get("panels", LList, default=LList())
    if not all(isinstance(x, str) for x in panels):
        lv.fail("panels", f"{where}.linked: `panels` must be a list of metric names")
    out["panels"] = list(panels)
    columns = lv.get("columns", (LList, str), default=LList())
    if columns != "all" and not (
        isinstance(columns, list) and all(isinstance(x, str) for x in columns)
    ):
        lv.fail(
            "columns",
            f"{where}.linked: `columns` must be a list of metric names or patterns "
            "(vm.*, io.*.w/s) or `all`",
        )
    out["columns"] = columns if columns == "all" else list(columns)
    return out
