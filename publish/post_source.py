"""A post as the build's rules read it (publish/checks.py): its index.md split into front matter
and body, each with the line numbers a problem names, and the study's data/ beside it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

FENCE = "---\n"
MAX_DEPTH = 32  # nesting levels of a front matter (real ones use 3): the loader recurses per level
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Unreadable(Exception):
    """A post the rules cannot read: `file:line: reason`, reported as a problem of the build."""


@dataclass
class Source:
    """One post's index.md: `front` (the front matter as data), `lines` (front matter key path ->
    its line in the file: ("summary",), ("names", 2), ("credits", 0, "text")), `body` and the
    line its first line is, and `data` (data/<study>/, when there is one)."""

    path: Path
    front: dict
    lines: dict[tuple, int]
    body: str
    body_line: int
    data: Path | None = None
    manifest: Path | None = None  # its manifest.yaml, when there is one

    @property
    def study(self) -> str:
        name = self.front.get("study") or self.path.parent.name
        return str(name[0] if isinstance(name, list) else name)

    def line_of(self, *key) -> str:
        """`file:line` of a front matter key (the file alone when it has none)."""
        line = self.lines.get(key)
        return f"{self.path}:{line}" if line else str(self.path)

    def at(self, offset: int) -> str:
        """`file:line` of a character offset into the body."""
        return f"{self.path}:{self.body_line + self.body.count(chr(10), 0, offset)}"


def read(path: Path, data_dirs: list[Path]) -> Source | None:
    """The post at `path` (None when it has no front matter to read: Hugo refused it first)."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith(FENCE) or text.count(FENCE) < 2:
        return None
    _, front_text, body = text.split(FENCE, 2)
    too_deep = _too_deep(front_text)
    if too_deep is not None:
        raise Unreadable(
            f"{path}:{too_deep}: the front matter nests more than {MAX_DEPTH} levels: "
            "flatten it (a post's front matter has a few)"
        )
    loader = LOADER(front_text)
    try:  # one parse gives the data and each key's line
        node = loader.get_single_node()
        front = (loader.construct_document(node) if node is not None else None) or {}
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    if not isinstance(front, dict):
        return None
    lines: dict[tuple, int] = {}
    if node is not None:
        _node_lines(node, (), lines)
    source = Source(path, front, lines, body, body_line=front_text.count("\n") + 3)
    source.data = next(
        (
            d / source.study
            for d in reversed(data_dirs)
            if (d / source.study / "study.yaml").is_file()
        ),
        None,
    )
    manifest = path.parent / "manifest.yaml"
    source.manifest = manifest if manifest.is_file() else None
    return source


def _too_deep(front_text: str) -> int | None:
    """The file line where the front matter passes MAX_DEPTH levels, else None: read as a
    stream of events (no recursion), before the loader builds it (2,000 nested lists were a
    RecursionError)."""
    loader = LOADER(front_text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return event.start_mark.line + 2
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return None  # not YAML: `read` says so as before
    finally:
        loader.dispose()
    return None


def _node_lines(node, key: tuple, out: dict) -> None:
    """Each key path's line in the file (the front matter starts on the file's line 2): a
    mapping's key where the key is written, a list item where the item starts."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out[(*key, k.value)] = k.start_mark.line + 2
            _node_lines(v, (*key, k.value), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out[(*key, i)] = v.start_mark.line + 2
            _node_lines(v, (*key, i), out)


def fast_yaml(path: Path):
    """A data/ file with libyaml's safe loader (hundreds of runs: 10 to 20 times faster)."""
    return yaml.load(
        path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    )


def manifest_line(source: Source, text: str) -> str:
    """`file:line` of the first line of the post's manifest.yaml holding `text`, else the
    manifest (or the post, without one)."""
    if source.manifest is None:
        return str(source.path)
    for n, line in enumerate(source.manifest.read_text(encoding="utf-8").splitlines(), 1):
        if text and text in line:
            return f"{source.manifest}:{n}"
    return str(source.manifest)
