"""Study manifests (`content/posts/<study>/manifest.yaml`), loaded safely and validated.

YAML is parsed with PyYAML's safe loader, and before that every event is checked: tags
(`!x`, `!!python/...`), anchors (`&a`) and aliases (`*a`) are rejected, as are duplicate
keys, and so is nesting deeper than MAX_DEPTH (before PyYAML's recursive composer sees it).
Every error is an `ingest.problems.Problem`: `file:line: reason`. Limits and field reference:
docs/manifest.md.

Patterns (`regex:`, `glob:`) are compiled with the `regex` package and matched with a time
budget (`match()`), so a catastrophic pattern is reported, not run for minutes. Name and id
templates may only name labels (`{engine}`), with a format spec of bounded width.
"""

from __future__ import annotations

import math
import re
import string
import time
from dataclasses import dataclass, field
from pathlib import Path

import regex
import yaml

from ingest.problems import Problem, clean

MAX_BYTES = 1 << 20  # a manifest file (real ones: 1-4 KB)
MAX_DEPTH = 32  # nesting levels of a manifest (real ones use 4)
MAX_SCALAR = 10_000  # characters of one scalar
MATCH_BUDGET_S = 0.1  # time budget of one pattern match against one member name
MATCH_TOTAL_S = 2.0  # time budget of all the pattern matches of one manifest's ingest
MAX_PATTERN_UNITS = 100_000  # a pattern's size with its counted repeats written out
# a files: rule's `mode:` for these formats (ingest/parse/server_status.py): mysqladmin -r or not
STATUS_FORMATS = ("global-status", "mysqladmin-status")
STATUS_MODES = ("relative", "absolute")
MAX_SPEC_NUMBER = 200  # largest width or precision in a template's format spec
RESERVED_VIEWS = {"__init__"}  # modules of ingest/derive/studies/ that are not study modules


class LDict(dict):
    """A mapping that remembers its line and the line of each key."""

    line = 0
    key_lines: dict


class LList(list):
    """A sequence that remembers its line and the line of each item."""

    line = 0
    item_lines: list


# libyaml's parser (PyYAML's C loader) where PyYAML was built with it: the same events and
# nodes, with their lines, as the pure-Python one at a tenth of its time (docs/performance.md)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path: str | Path, text: str | None = None):
    """Parse YAML into LDict/LList/scalars; tags, anchors, aliases, duplicate keys are errors."""
    path = str(path)
    if text is None:
        text = _read_text(path)
    try:
        _check_events(text, path)
        node = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise Problem(
            path, mark.line + 1 if mark else None, f"invalid YAML: {e.problem or e.context}"
        ) from None
    except yaml.YAMLError as e:
        raise Problem(path, None, f"invalid YAML: {e}") from None
    if node is None:
        raise Problem(path, 1, "empty manifest")
    return _build(node, yaml.constructor.SafeConstructor(), path)


def _read_text(path: str) -> str:
    """A manifest's text: at most MAX_BYTES of UTF-8."""
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            raise Problem(path, None, f"larger than {MAX_BYTES} bytes (a manifest is a few KB)")
        return Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise Problem(path, None, f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise Problem(path, None, f"cannot read ({e.strerror})") from None


def _check_events(text: str, path: str):
    """The YAML events, checked before any node is built: nesting at most MAX_DEPTH, scalars
    at most MAX_SCALAR characters, no alias, anchor or tag."""
    depth = 0
    for ev in yaml.parse(text, Loader=LOADER):
        line = ev.start_mark.line + 1
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise Problem(path, line, f"nesting deeper than {MAX_DEPTH} levels")
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        elif isinstance(ev, yaml.ScalarEvent) and len(ev.value) > MAX_SCALAR:
            raise Problem(path, line, f"value longer than {MAX_SCALAR} characters")
        if isinstance(ev, yaml.AliasEvent):
            raise Problem(path, line, f"YAML aliases are not allowed (*{ev.anchor})")
        if getattr(ev, "anchor", None):
            raise Problem(path, line, f"YAML anchors are not allowed (&{ev.anchor})")
        if getattr(ev, "tag", None) is not None:
            raise Problem(path, line, f"YAML tags are not allowed ({ev.tag})")


def _build(node, ctor, path):
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        d = LDict()
        d.line, d.key_lines = line, {}
        for k, v in node.value:
            key = _build(k, ctor, path)
            if not isinstance(key, (str, int, float, bool)):
                raise Problem(path, k.start_mark.line + 1, "mapping keys must be scalars")
            if key in d:
                raise Problem(path, k.start_mark.line + 1, f"duplicate key {key!r}")
            d[key] = _build(v, ctor, path)
            d.key_lines[key] = k.start_mark.line + 1
        return d
    if isinstance(node, yaml.SequenceNode):
        items = LList(_build(v, ctor, path) for v in node.value)
        items.line, items.item_lines = line, [v.start_mark.line + 1 for v in node.value]
        return items
    try:
        value = ctor.construct_object(node)
    except yaml.YAMLError as e:
        raise Problem(path, line, f"invalid value: {e}") from None
    except (ValueError, OverflowError) as e:  # 2020-13-45, an int of more than 4300 digits
        raise Problem(path, line, f"invalid value {clean(node.value, 40)!r} ({e})") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise Problem(path, line, f"{node.value!r} is not a finite number")
    return value


# ---------------------------------------------------------------------------------------
SLUG = re.compile(r"\A[a-z0-9][a-z0-9._-]*\Z")  # \Z: `$` lets "ra\n" through
SHA256 = re.compile(r"\A[0-9a-f]{64}\Z")
INPUT_KINDS = ("archive", "published-tables")
LABEL_TYPES = {"str": str, "int": int, "float": float}


@dataclass
class Input:
    name: str
    kind: str
    sha256: str
    origin: str
    line: int
    note: str | None = None  # shown with the provenance, e.g. "the raw data is not public"


class MatchClock:
    """What is left of MATCH_TOTAL_S, shared by the rules of one manifest: 3,000 members
    against a rule that takes 0.09 s each would otherwise run for minutes."""

    def __init__(self, total: float | None = None):
        self.total = self.left = MATCH_TOTAL_S if total is None else total
        self.matches = 0
        self.spent: dict = {}  # id(rule) -> (rule, its seconds): the slowest is named


@dataclass
class Rule:
    """A `runs:` or `files:` entry: which archive members it takes and how."""

    pattern: regex.Pattern
    source: str  # the glob or regex as written
    input: str
    format: str = "auto"
    labels: dict = field(default_factory=dict)
    published: bool = True
    session: str | int = "all"
    id: str | None = None
    name: str | None = None
    line: int = 0
    linked: dict | None = None  # docs/manifest.md, "Linked metrics"
    sar: list[str] = field(default_factory=list)  # queries: each run's sar files (templates)
    mode: str | None = None  # files: server-status tables declared relative or absolute
    incomplete: str = "error"  # a member holding no complete run: error, or skip (a warning)
    metric: str | None = None  # the runs' main column, when it is not the manifest's
    metric_line: int = 0  # the line of the rule's `metric:` (0: the rule has none)
    clock: MatchClock = field(default_factory=MatchClock, repr=False, compare=False)
    _seen: dict = field(default_factory=dict, repr=False, compare=False)  # member -> match

    def match(self, manifest: str, member: str):
        """`pattern.fullmatch(member)` within MATCH_BUDGET_S, and within what is left of the
        manifest's MatchClock; a Problem when it takes longer. Each member is matched once
        (the report and study modules ask again: the same answer, at no cost)."""
        if member in self._seen:
            return self._seen[member]
        clock = self.clock
        budget = min(MATCH_BUDGET_S, clock.left)
        start = time.perf_counter()
        try:
            if budget <= 0:
                raise TimeoutError
            found = self._seen[member] = self.pattern.fullmatch(member, timeout=budget)
            return found
        except TimeoutError:
            if budget < MATCH_BUDGET_S:
                slowest = max(clock.spent.values(), key=lambda x: x[1], default=(self, 0))[0]
                raise Problem(
                    manifest,
                    slowest.line,
                    f"patterns too slow: {clock.matches} matches took over {clock.total:g} s "
                    f"in all, most of it pattern {clean(slowest.source, 80)!r}; simplify it",
                ) from None
            raise Problem(
                manifest,
                self.line,
                f"pattern {clean(self.source, 80)!r} too slow (over "
                f"{MATCH_BUDGET_S:g} s on {clean(member, 80)!r}); simplify it",
            ) from None
        finally:
            spent = time.perf_counter() - start
            clock.left -= spent
            clock.spent[id(self)] = (self, clock.spent.get(id(self), (self, 0.0))[1] + spent)
            clock.matches += 1

    def took(self, member: str) -> bool:
        """Whether this rule matched `member` when the ingest matched it (`match`): no new
        match, so nothing after the inputs are read can run over the budget."""
        return bool(self._seen.get(member))


@dataclass
class Manifest:
    path: str
    study: str
    title: str
    inputs: list[Input]
    interval_s: float
    metric: str | None  # None: each run's tool's own main rate (docs/manifest.md)
    window: dict
    base: dict
    labels: list[str]
    label_types: dict
    display: dict
    markers: list[dict]
    runs: list[Rule]
    files: list[Rule]
    views: str | None
    line_of: dict = field(default_factory=dict)
    reproduction: list = field(
        default_factory=list
    )  # reproduction.Check, one per declared comparison
    extra_series: str | int = (
        "keep"  # `series: {extra: ...}`: keep, drop, or N (every N intervals, the mean)
    )
    quoted: dict = field(
        default_factory=dict
    )  # `quoted:` name -> rows the original states in its prose
    default_tables: tuple = (
        "runs",
        "jitter",
    )  # `default_tables:` the default tables a study with runs gets
    label_names: dict = field(default_factory=dict)  # `label_names:` label key -> readers' heading
    tables: list = field(default_factory=list)  # `tables:` checked (declared.Spec)
    counters: list = field(default_factory=list)  # `counters:` checked (counters.Spec)
    file_tables: list = field(default_factory=list)  # `file_tables:` checked (file_tables.Spec)
    queries: list = field(default_factory=list)  # `queries:` rules (Rule), ingest/join/queries.py

    def heading(self, key: str) -> str:
        """The readers' heading of a label (its `label_names:` entry, else the key, spaced)."""
        return self.label_names.get(key, key.replace("_", " "))


class Fields:
    """Field validator bound to one mapping, raising `file:line: reason`. `line`: where the
    mapping is given (its key's or list item's line), named when it is not a mapping.

    Shared API: every module that reads a section of the manifest (declared, counters, queries,
    query_tables, reproduction) checks its fields with it."""

    def __init__(self, path: str, d, where: str, line: int | None = None):
        if not isinstance(d, LDict):
            raise Problem(
                path,
                getattr(d, "line", None) or line,
                f"{where} must be a mapping, not {_type_name(type(d))}",
            )
        self.path, self.d, self.where = path, d, where

    def line(self, key=None) -> int:
        return self.d.key_lines.get(key, self.d.line) if key is not None else self.d.line

    def fail(self, key, reason):
        raise Problem(self.path, self.line(key), reason)

    def get(self, key, types, required=False, default=None):
        if key not in self.d:
            if required:
                self.fail(None, f"{self.where}: missing field `{key}`")
            return default
        v = self.d[key]
        if isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
            self.fail(key, f"{self.where}: `{key}` has the wrong type (bool)")
        if not isinstance(v, types):
            want = " or ".join(
                _type_name(t) for t in (types if isinstance(types, tuple) else (types,))
            )
            self.fail(key, f"{self.where}: `{key}` must be {want}, not {_type_name(type(v))}")
        return v

    def only(self, allowed):
        for k in self.d:
            if k not in allowed:
                self.fail(k, f"{self.where}: unknown field `{k}` (allowed: {', '.join(allowed)})")


# characters no display string may hold: C0 and C1 controls (newline and tab too), line and
# paragraph separators, and the bidi controls that reorder what a reader sees (U+202E)
DISPLAY_BAD = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def check_display(v: Fields, key, text, what: str):
    """A string shown on pages (heading, display name, label value, quoted figure): a
    `manifest:line` error when it holds a control, separator or bidi character."""
    if isinstance(text, str) and (m := DISPLAY_BAD.search(text)):
        v.fail(
            key,
            f"{what}: '{clean(text, 60)}' holds U+{ord(m.group()):04X} (a control, line "
            "separator or bidi character): it would reach pages and terminals",
        )


def _type_name(t) -> str:
    return "a mapping" if issubclass(t, dict) else "a list" if issubclass(t, list) else t.__name__


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
    "suite",
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
MONITOR_KINDS = ("vmstat", "iostat", "status", "sar")  # the files `linked:` may name
LINKED = (
    "vmstat",
    "iostat",
    "status",
    "sar",
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


def load(path: str | Path) -> Manifest:
    """Load and validate a manifest; raise Problem (`file:line: reason`) on any problem.
    Everything is checked here, before any input is read: the declared tables and counter
    tables too (ingest/derive/declared.py, ingest/derive/counters.py), as far as they do not need the runs."""
    from ingest.derive import (  # their sections' validators (use these)
        counters,
        declared,
        file_tables,
    )

    path = str(path)
    doc = load_yaml(path)
    v = Fields(path, doc, "manifest")
    v.only(TOP)
    study = v.get("study", str, required=True)
    if not SLUG.match(study):
        v.fail("study", f"study {study!r} must be a slug (a-z, 0-9, '-', '.', '_')")
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
    return Manifest(
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
        tables=declared.specs(path, doc, labels, label_types),
        counters=counters.specs(path, doc),
        file_tables=file_tables.specs(path, doc),
        queries=queries,
    )


def _all_rules(path, v, inputs, label_types, has_runs: bool) -> tuple[list, list, list]:
    """The `runs:`, `files:` and `queries:` rules, sharing one match budget; a study needs
    runs or queries, unless it reads only files or published tables."""
    archives = [i.name for i in inputs if i.kind == "archive"]
    runs = _rules(path, v, "runs", archives, label_types)
    files = _rules(path, v, "files", archives, label_types)
    queries = _rules(path, v, "queries", archives, label_types)  # docs/manifest.md, "Query runs"
    clock = MatchClock()  # one budget for all the matches of this manifest's ingest
    for rule in [*runs, *files, *queries]:
        rule.clock = clock
    if not (runs or queries) and (
        has_runs or not (files or any(i.kind == "published-tables" for i in inputs))
    ):
        v.fail(
            "runs",
            "runs: at least one rule is needed (or `queries:`, `files:` / a published-tables input)",
        )
    return runs, files, queries


def _views(v) -> str | None:
    """`views:`, the name of a study module under ingest/derive/studies/, or None."""
    views = v.get("views", str)
    if views is not None and (
        not re.fullmatch(r"[a-z][a-z0-9_]*", views) or views in RESERVED_VIEWS
    ):
        v.fail(
            "views",
            f"views: {clean(views, 80)!r} must name a study module under ingest/derive/studies/ "
            f"(not {', '.join(sorted(RESERVED_VIEWS))})",
        )
    return views


def _window(path, v, required: bool) -> dict | None:
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


def _labels(path, v, required: bool) -> tuple[list, dict, dict]:
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


def _display(path, v) -> dict:
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


def _markers(path, v) -> list[dict]:
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


def _default_tables(path, v) -> tuple:
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


def _quoted(path, v) -> dict:
    """`quoted: {name: [{field: value, ...}, ...]}`: figures the original states only in its text
    (no input file holds them), for a study module to show as published (`ctx.quoted(name)`).
    Values are strings, numbers or null (missing); never derived, never computed with."""
    out = {}
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


def _series(path, v) -> str | int:
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
    every = ev.get("every", int, required=True)
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


def check_folder(m: Manifest):
    """A manifest writes only the study of its own folder: `study:` must be the folder name."""
    folder = Path(m.path).parent.name
    if m.study != folder:
        raise Problem(
            m.path,
            m.line_of.get("study"),
            f"study {m.study!r} must equal its folder name {clean(folder, 80)!r}",
        )


def check_unique(manifests: list[Manifest]):
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


def _reproduction(path, doc, inputs):
    from ingest.derive import reproduction  # its own section parser (it uses the validators above)

    kinds = {i.name: i.kind for i in inputs}
    return reproduction.parse(
        path, doc.get("reproduction"), kinds, doc.key_lines.get("reproduction")
    )


def _inputs(path, v) -> list[Input]:
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


def _rules(path, v, key, archives, label_types) -> list[Rule]:
    """The rules of `key` (runs, files or queries), each checked with its line."""
    items = v.get(key, LList, default=LList())
    return [
        _rule(path, key, f"{key}[{i}]", d, items.item_lines[i], archives, label_types)
        for i, d in enumerate(items)
    ]


def _rule(path, key: str, where: str, d, line: int, archives, label_types) -> Rule:
    """One rule: the members it takes (`glob` or `regex`) from which input, read as which
    format, and what it says of their runs (labels, session, id and name, linked metrics, ...)."""
    rv = Fields(path, d, where, line)
    rv.only(
        RULE
        if key == "runs"
        else QUERY_RULE
        if key == "queries"
        else ("glob", "regex", "input", "format", "mode")
    )
    glob_, regex_src = rv.get("glob", str), rv.get("regex", str)
    if (glob_ is None) == (regex_src is None):
        rv.fail(None, f"{where}: give exactly one of `glob` or `regex`")
    source = regex_src if regex_src is not None else _glob_re(glob_)
    pattern = compile_pattern(rv, "regex", source, where)
    inp = rv.get("input", str, default=archives[0] if archives else None)
    if inp not in archives:
        rv.fail(
            "input" if "input" in d else None, f"{where}: input {inp!r} is not an archive input"
        )
    labels = _rule_labels(path, rv, where, label_types)
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
    incomplete = rv.get("incomplete", str, default="error") if key == "runs" else "error"
    if incomplete not in ("error", "skip"):
        rv.fail(
            "incomplete",
            f"{where}: incomplete must be error or skip (a member holding no complete run)",
        )
    mode = _mode(rv, where, fmt) if key == "files" else None
    sar = _sar(rv, where) if key == "queries" else []
    return Rule(
        pattern=pattern,
        source=regex_src or glob_,
        input=inp,
        format=fmt,
        labels=labels,
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


def _rule_labels(path, rv: Fields, where: str, label_types) -> dict:
    """A rule's fixed `labels:`, strings or numbers shown on pages, typed as declared."""
    labels = dict(rv.get("labels", LDict, default=LDict()))
    for lk, lv in labels.items():
        if not isinstance(lv, (str, int, float)) or isinstance(lv, bool):
            rv.fail("labels", f"{where}: label {lk!r} must be a string or number")
        check_display(rv, "labels", lv, f"{where}: label {clean(str(lk), 40)}")
        labels[lk] = typed_label(path, rv.line("labels"), lk, lv, label_types)
    return labels


def _mode(rv: Fields, where: str, fmt: str | None) -> str | None:
    """A `files:` rule's `mode:` (relative or absolute), for the server-status formats only."""
    mode = rv.get("mode", str)
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


def _linked(path, rv: Fields, where: str) -> dict:
    """A rule's `linked:` mapping: file templates, the monitors' interval and offset, panels
    and the columns kept besides them."""
    lv = Fields(path, rv.get("linked", LDict), f"{where}.linked")
    lv.only(LINKED)
    out = {}
    for k in MONITOR_KINDS:
        t = lv.get(k, str)
        if t is not None:
            check_template(lv, k, t, f"{where}.linked")
            out[k] = t
    if not out:
        lv.fail(None, f"{where}.linked: name at least one of {', '.join(MONITOR_KINDS)}")

    def number(k, required=False, default=None, positive=False):
        v = lv.get(k, (int, float), required=required, default=default)
        if v is not None and (not math.isfinite(v) or (positive and v <= 0)):
            lv.fail(
                k, f"{where}.linked: `{k}` must be a finite{' positive' if positive else ''} number"
            )
        return v

    out["interval_s"] = number("interval_s", required=True, positive=True)
    offset = lv.get("offset_s", (int, float, str), default=0)
    if isinstance(offset, str) and offset != "phase-start":
        lv.fail(
            "offset_s",
            f"{where}.linked: `offset_s` must be a number of seconds or phase-start "
            "(the monitors started with the phase, as its log says)",
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


def check_template(rv: Fields, key: str, template: str, where: str):
    """An `id`/`name` template may only name labels (no `.attr`, no `[index]`, no conversion)
    and format them with widths and precisions up to MAX_SPEC_NUMBER (the linked monitors'
    and counters.py's member templates)."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as e:
        rv.fail(key, f"{where}: {key} template: {e}")
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or conversion:
            shown = clean(name + (f"!{conversion}" if conversion else ""), 40)
            rv.fail(key, f"{where}: {key} template: {{{shown}}} must be a plain label name")
        if "{" in (spec or "") or any(
            len(n) > 4 or int(n) > MAX_SPEC_NUMBER for n in re.findall(r"\d+", spec or "")
        ):
            rv.fail(
                key,
                f"{where}: {key} template: format spec {clean(spec, 40)!r} too wide "
                f"(widths up to {MAX_SPEC_NUMBER})",
            )


def typed_label(path, line, key, value, label_types):
    """Coerce a label value to its declared type (str by default); NaN and inf are errors.
    Shared API: the labels of runs (runs.py), query runs (queries.py) and the values tables
    name (declared.py, query_tables.py) are typed by this one rule."""
    t = LABEL_TYPES[label_types.get(key, "str")]
    try:
        out = t(value)
    except (TypeError, ValueError, OverflowError):
        raise Problem(
            path, line, f"label {key}={clean(value, 80)!r} is not a {t.__name__}"
        ) from None
    if isinstance(out, float) and not math.isfinite(out):
        raise Problem(path, line, f"label {key}={clean(value, 80)!r} is not a finite number")
    return out


def section_items(path: str, doc, key: str, limit: int, what: str) -> list[tuple]:
    """(item, `key[i]`, line) of a list section (`tables:`, `counters:`, `file_tables:`), at
    most `limit` of them; [] without the section; `what`: what its items are, for the error."""
    raw = doc.get(key)
    if raw is None:
        return []
    if not isinstance(raw, LList):
        raise Problem(path, doc.key_lines[key], f"{key}: must be a list of {what}")
    if len(raw) > limit:
        raise Problem(path, raw.line, f"{key}: more than {limit} tables")
    return [(item, f"{key}[{i}]", raw.item_lines[i]) for i, item in enumerate(raw)]


def compile_pattern(
    v: Fields, key: str, source: str, where: str, what: str = "regex"
) -> regex.Pattern:
    """`source` compiled with the `regex` package (VERSION0), its size bounded first
    (`pattern_units`); a `manifest:line` error when it is too large or invalid."""
    units = pattern_units(source)
    if units > MAX_PATTERN_UNITS:
        v.fail(
            key,
            f"{where}: {what} too large: its counted repeats write out to "
            f"{'at least 10^9' if units >= 10**9 else f'{units:,}'} characters "
            f"(limit {MAX_PATTERN_UNITS:,}); use fewer or smaller {{m,n}} repeats",
        )
    try:
        return regex.compile(source, regex.VERSION0)
    except (regex.error, RecursionError, OverflowError, ValueError, MemoryError) as e:
        v.fail(key, f"{where}: bad {what} ({clean(e, 120)})")


_REPEAT = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
_ESCAPE_BRACED = re.compile(r"\\[pPNxuUgk]\{[^}]*\}|\\g<[^>]*>|\\.", re.S)
_CLASS = re.compile(r"\[\^?\]?(?:\\.|[^\]\\])*\]", re.S)
_COMMENT = re.compile(r"\(\?#[^)]*\)")


def pattern_units(source: str) -> int:
    """A bound on the size of `source` with its counted repeats written out (`a{1000}` is
    1,000, `((a{1000}){1000}){1000}` 10^9): the `regex` package unrolls them when it compiles,
    2.7 GB for `a{10000000}`. Escapes and character classes count 1, alternatives add up;
    capped at 10^9. Read before compiling, so a huge repeat is an error, not MemoryError."""
    frames = [[0, 0]]  # per open group: [size so far, size of the last atom]
    i, cap = 0, 10**9
    while i < len(source):
        c = source[i]
        m = None
        if c == "\\":
            m = _ESCAPE_BRACED.match(source, i)
        elif c == "[":
            m = _CLASS.match(source, i)
        elif source.startswith("(?#", i):
            m = _COMMENT.match(source, i)
            if m:
                i = m.end()
                continue
        elif c == "{" and (m := _REPEAT.match(source, i)) and (m[1] or m[3]):
            low, high = m[1] or "0", m[3] if m[2] else m[1]
            times = max(int(x) if len(x) <= 9 else cap for x in (low, high or low))
            frame = frames[-1]
            frame[0] = min(cap, frame[0] + frame[1] * (times - 1))
            frame[1] = min(cap, frame[1] * times)
            i = m.end()
            continue
        if c == "(":
            frames.append([0, 0])
        elif c == ")" and len(frames) > 1:
            size = frames.pop()[0]
            frames[-1][0] = min(cap, frames[-1][0] + size)
            frames[-1][1] = size
        elif c not in "|*+?":
            frames[-1][0] += 1
            frames[-1][1] = 1
        i = m.end() if m else i + 1
    return min(cap, sum(f[0] for f in frames))


def _glob_re(pattern: str) -> str:
    """A shell glob as a full-match regex: `*` and `?` do not cross `/`, `**` does."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        i += 1
    return "".join(out)
