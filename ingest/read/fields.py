"""The manifest's building blocks: YAML read safely with the line of every key and item, and
the field checks every section shares (`Fields`), each error a `file:line: reason`.

YAML is parsed with PyYAML's safe loader, and before that every event is checked: tags
(`!x`, `!!python/...`), anchors (`&a`) and aliases (`*a`) are rejected, as are duplicate
keys, and so is nesting deeper than MAX_DEPTH (before PyYAML's recursive composer sees it).
Name and id templates may only name labels (`{engine}`), with a format spec of bounded width."""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

import yaml

from ingest.problems import Problem, clean

MAX_BYTES = 1 << 20  # a manifest file (real ones: 1-4 KB)


MAX_DEPTH = 32  # nesting levels of a manifest (real ones use 4)


MAX_SCALAR = 10_000  # characters of one scalar


MAX_SPEC_NUMBER = 200  # largest width or precision in a template's format spec


class LDict(dict[Any, Any]):
    """A mapping that remembers its line and the line of each key."""

    line = 0
    key_lines: dict[Any, int]


class LList(list[Any]):
    """A sequence that remembers its line and the line of each item."""

    line = 0
    item_lines: list[int]


Label = str | int | float  # a label's value, typed by the manifest's `label_types:`
Types = type | tuple[type, ...]  # what `Fields.get` accepts


# libyaml's parser (PyYAML's C loader) where PyYAML was built with it: the same events and
# nodes, with their lines, as the pure-Python one at a tenth of its time (docs/performance.md)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path: str | Path, text: str | None = None) -> Any:
    """Parse YAML into LDict/LList/scalars; tags, anchors, aliases, duplicate keys are errors."""
    path = str(path)
    if text is None:
        text = _read_text(path)
    try:
        _check_events(text, path)
        node = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else None
        raise Problem(path, line, f"invalid YAML: {e.problem or e.context}") from None
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


def _check_events(text: str, path: str) -> None:
    """The YAML events, checked before any node is built: nesting at most MAX_DEPTH, scalars
    at most MAX_SCALAR characters, no alias, anchor or tag."""
    depth = 0
    for ev in yaml.parse(text, Loader=LOADER):
        line = ev.start_mark.line + 1 if ev.start_mark is not None else None
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
        if anchor := getattr(ev, "anchor", None):
            raise Problem(path, line, f"YAML anchors are not allowed (&{anchor})")
        if (tag := getattr(ev, "tag", None)) is not None:
            raise Problem(path, line, f"YAML tags are not allowed ({tag})")


def _build(node: yaml.Node, ctor: yaml.constructor.SafeConstructor, path: str) -> Any:
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


LABEL_TYPES: dict[str, type] = {"str": str, "int": int, "float": float}


class Fields:
    """Field validator bound to one mapping, raising `file:line: reason`. `line`: where the
    mapping is given (its key's or list item's line), named when it is not a mapping.

    Shared API: every module that reads a section of the manifest (declared, counters, queries,
    query_tables, reproduction) checks its fields with it."""

    def __init__(self, path: str, d: object, where: str, line: int | None = None):
        if not isinstance(d, LDict):
            raise Problem(
                path,
                getattr(d, "line", None) or line,
                f"{where} must be a mapping, not {_type_name(type(d))}",
            )
        self.path, self.d, self.where = path, d, where

    def line(self, key: object = None) -> int:
        return self.d.key_lines.get(key, self.d.line) if key is not None else self.d.line

    def fail(self, key: object, reason: str) -> NoReturn:
        raise Problem(self.path, self.line(key), reason)

    def get(self, key: str, types: Types, required: bool = False, default: Any = None) -> Any:
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

    def only(self, allowed: Iterable[str]) -> None:
        for k in self.d:
            if k not in allowed:
                self.fail(k, f"{self.where}: unknown field `{k}` (allowed: {', '.join(allowed)})")


# characters no display string may hold: C0 and C1 controls (newline and tab too), line and
# paragraph separators, and the bidi controls that reorder what a reader sees (U+202E)
DISPLAY_BAD = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def check_display(v: Fields, key: object, text: object, what: str) -> None:
    """A string shown on pages (heading, display name, label value, quoted figure): a
    `manifest:line` error when it holds a control, separator or bidi character."""
    if isinstance(text, str) and (m := DISPLAY_BAD.search(text)):
        v.fail(
            key,
            f"{what}: '{clean(text, 60)}' holds U+{ord(m.group()):04X} (a control, line "
            "separator or bidi character): it would reach pages and terminals",
        )


def _type_name(t: type) -> str:
    return "a mapping" if issubclass(t, dict) else "a list" if issubclass(t, list) else t.__name__


def check_template(rv: Fields, key: str, template: str, where: str) -> None:
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


def typed_label(
    path: str, line: int | None, key: str, value: object, label_types: Mapping[str, str]
) -> Label:
    """Coerce a label value to its declared type (str by default); NaN and inf are errors.
    Shared API: the labels of runs (runs.py), query runs (queries.py) and the values tables
    name (declared.py, query_tables.py) are typed by this one rule."""
    t = LABEL_TYPES[label_types.get(key, "str")]
    try:
        out: Label = t(value)
    except (TypeError, ValueError, OverflowError):
        raise Problem(
            path, line, f"label {key}={clean(value, 80)!r} is not a {t.__name__}"
        ) from None
    if isinstance(out, float) and not math.isfinite(out):
        raise Problem(path, line, f"label {key}={clean(value, 80)!r} is not a finite number")
    return out


def section_items(
    path: str, doc: LDict, key: str, limit: int, what: str
) -> list[tuple[Any, str, int]]:
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


class _Declared(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def line(self) -> int: ...


D = TypeVar("D", bound=_Declared)


def unique_ids(path: str, key: str, tables: list[D]) -> list[D]:
    """`tables` (the items of section `key`) as they are, or a Problem at the first whose id an
    earlier one has."""
    lines: dict[str, int] = {}
    for i, t in enumerate(tables):
        if t.id in lines:
            raise Problem(
                path,
                t.line,
                f"{key}[{i}]: id {t.id!r} is already the id of the table at line {lines[t.id]}",
            )
        lines[t.id] = t.line
    return tables
