"""Ordered registry of format parsers. Order matters for `format: auto` detection:
the most specific formats come first (see docs/formats.md)."""
from __future__ import annotations

from .base import Parsed, ParseError, Parser, Session, Table

REGISTRY: list[Parser] = []


def register(parser_cls):
    """Class decorator: add a parser to the registry (in import order)."""
    REGISTRY.append(parser_cls())
    return parser_cls


def by_name(name: str) -> Parser:
    for p in REGISTRY:
        if p.name == name:
            return p
    known = ", ".join(p.name for p in REGISTRY)
    raise KeyError(f"unknown format {name!r} (known: {known})")


def detect(head: str, file: str = "<input>") -> tuple[Parser, str]:
    """The first registered parser that recognises `head`, with its reason."""
    for p in REGISTRY:
        reason = p.detect(head)
        if reason:
            return p, reason
    raise ParseError(file, 1, "unknown format (no parser recognises this file; see `python -m ingest list-formats`)")


__all__ = ["REGISTRY", "register", "by_name", "detect", "Parsed", "ParseError", "Parser", "Session", "Table"]

# Format modules register themselves on import (order = detection order).
from . import sysbench1  # noqa: E402,F401  (ingest: F1 + F3)
from . import sysbench_csv  # noqa: E402,F401  (ingest: F2 + F3)
from . import linkbench_summary  # noqa: E402,F401  (formats: F6 wrapper summaries, db size)
from . import linkbenchx  # noqa: E402,F401  (formats: F7, before F6: its load logs look alike)
from . import linkbench  # noqa: E402,F401  (formats: F6)
from . import sysbench05  # noqa: E402,F401  (formats: F4)
from . import tpcc_mysql  # noqa: E402,F401  (formats: F5)
from . import ibench  # noqa: E402,F401  (formats: F8)
from . import iostat  # noqa: E402,F401  (formats: F12)
from . import vmstat  # noqa: E402,F401  (formats: F11)
from . import sysbench_report  # noqa: E402,F401  (studies: F10)
from . import mycnf  # noqa: E402,F401  (studies: my.cnf, SHOW GLOBAL VARIABLES)
from . import markdown_tables  # noqa: E402,F401  (studies: F13)
# The most generic format: keep it after every other import so specific formats win detection.
from . import summary_table  # noqa: E402,F401  (studies: F9)
